"""The newest standings version a mirror's workers on this host have served, per
competition (docs/contracts.md "The public mirror"): a file each reader checks (a few
microseconds) before it reuses its process's 1 s memo of a version, and raises (under a
lock, never lowers) before it serves a newer one it read from the database. So no reader
is shown an older snapshot after any worker of this host showed a newer one, and the
workers still skip the database within the second. A stale file (a mirror database
replaced under a running host) only costs the memo: readers then read the database.
"""

import fcntl
import functools
import os
from pathlib import Path

from django.conf import settings


def _path(slug: str) -> Path:
    return Path(_folder(str(settings.VAR_DIR))) / f"{slug}.version"


@functools.cache
def _folder(var_dir: str) -> str:
    return os.path.join(var_dir, "mirror")


def seen(slug: str) -> int:
    """The newest version served on this host (0: none yet). Read on every public request of
    a mirror, so kept to one open and read of a few bytes (no Path on the way)."""
    try:
        fd = os.open(os.path.join(_folder(str(settings.VAR_DIR)), f"{slug}.version"), os.O_RDONLY)
    except OSError:
        return 0
    try:
        return int(os.read(fd, 32) or 0)
    except (OSError, ValueError):
        return 0
    finally:
        os.close(fd)


def raise_to(slug: str, version: int) -> None:
    if version <= seen(slug):
        return  # already there: no lock (a programme raises each of its competitions)
    path = _path(slug)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    with open(path.with_suffix(".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if version <= seen(slug):
            return
        temporary = path.with_suffix(f".{os.getpid()}")
        temporary.write_bytes(str(version).encode())
        os.replace(temporary, path)  # readers see the old number or the new, never half
