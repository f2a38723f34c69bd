"""The newest standings version a mirror's workers on this host have served, per
competition (docs/contracts.md "The public mirror"): a file each reader checks (a few
microseconds) before it reuses its process's 1 s memo of a version, and raises (under a
lock, never lowers) before it serves a newer one it read from the database. So no reader
is shown an older snapshot after any worker of this host showed a newer one, and the
workers still skip the database within the second. A stale file (a mirror database
replaced under a running host) only costs the memo: readers then read the database.
"""

import fcntl
import os
from pathlib import Path

from django.conf import settings


def _path(slug: str) -> Path:
    return Path(settings.VAR_DIR) / "mirror" / f"{slug}.version"


def seen(slug: str) -> int:
    try:
        return int(_path(slug).read_bytes() or 0)
    except (OSError, ValueError):
        return 0


def raise_to(slug: str, version: int) -> None:
    path = _path(slug)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    with open(path.with_suffix(".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if version <= seen(slug):
            return
        temporary = path.with_suffix(f".{os.getpid()}")
        temporary.write_bytes(str(version).encode())
        os.replace(temporary, path)  # readers see the old number or the new, never half
