"""A snapshot of the whole database, consistent while the workers write: SQLite's online backup
API or `pg_dump --format=custom`, written under a partial name and renamed, one at a time
across the workers (a file lock), the newest BACKUP_KEEP periodic ones kept; every attempt a
`Backup` row, which the control room shows (`status`)."""

import fcntl
import logging
import os
import re
import sqlite3
import subprocess
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.db import connection
from django.utils import timezone

from competition.private import private_dir, private_file, private_open
from judging.models import Backup
from puzzle_rules.formatting import plural_count

logger = logging.getLogger("judging.backups")  # one name for the backups' log


PERIODIC = re.compile(r"-(auto|clock_end)(-\d+)?$")


class BackupError(Exception):
    pass


def enabled() -> bool:
    return settings.BACKUP_MINUTES > 0


def backup_dir() -> Path:
    return Path(settings.BACKUP_DIR)


def _extension() -> str:
    if connection.vendor == "sqlite":
        return "sqlite3"
    if connection.vendor == "postgresql":
        return "pgdump"
    raise BackupError(f"no backup for the {connection.vendor} database")


@contextmanager
def _locked(*, blocking: bool):
    """One snapshot at a time across the workers: an exclusive lock on BACKUP_DIR/.lock."""
    folder = private_dir(backup_dir())
    with private_open(folder / ".lock") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _pg_env() -> dict:
    db = connection.settings_dict
    env = dict(os.environ)
    for key, name in (("HOST", "PGHOST"), ("PORT", "PGPORT"), ("USER", "PGUSER")):
        if db.get(key):
            env[name] = str(db[key])
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = db["PASSWORD"]
    if db.get("OPTIONS", {}).get("sslmode"):
        env["PGSSLMODE"] = db["OPTIONS"]["sslmode"]
    return env


def _run(command: list[str]) -> None:
    try:
        result = subprocess.run(
            command, env=_pg_env(), capture_output=True, text=True, timeout=600, check=False
        )
    except FileNotFoundError as exc:
        raise BackupError(f"{command[0]} is not installed") from exc
    if result.returncode != 0:
        raise BackupError(result.stderr.strip()[-500:] or f"{command[0]} failed")


def _sqlite_source() -> sqlite3.Connection:
    """A connection of its own that reads what is committed (WAL: the writers go on); the
    in-memory test database can only be read through Django's own connection, and not
    while it writes (the backup step would wait for itself)."""
    if not connection.is_in_memory_db():
        name = connection.settings_dict["NAME"]
        return sqlite3.connect(f"file:{name}?mode=ro", uri=True, timeout=20)
    if connection.in_atomic_block:
        raise BackupError("an in-memory database cannot be copied inside a transaction")
    connection.ensure_connection()
    return connection.connection


def _dump(target: Path) -> None:
    if connection.vendor == "sqlite":
        source = _sqlite_source()
        copy = sqlite3.connect(target)
        try:
            source.backup(copy)
        finally:
            copy.close()
            if source is not connection.connection:
                source.close()
    else:
        name = connection.settings_dict["NAME"]
        _run(["pg_dump", "--format=custom", "--no-owner", "--no-privileges", "-f", target, name])


def _target(reason: str) -> Path:
    stamp = timezone.localtime().strftime("%Y-%m-%d_%H%M%S")
    path = backup_dir() / f"{stamp}-{reason}.{_extension()}"
    n = 2
    while path.exists():
        path = backup_dir() / f"{stamp}-{reason}-{n}.{_extension()}"
        n += 1
    return path


def _rotate() -> None:
    """Keep the newest BACKUP_KEEP periodic snapshots."""
    files = [p for p in backup_dir().iterdir() if PERIODIC.search(p.stem) and p.is_file()]
    files.sort(key=lambda p: (p.stat().st_mtime_ns, p.name))
    for old in files[: max(0, len(files) - settings.BACKUP_KEEP)]:
        old.unlink(missing_ok=True)


def _snapshot_locked(reason: str) -> Backup:
    at = timezone.now()
    try:
        target = _target(reason)
        partial = target.with_name(target.name + ".partial")
        partial.unlink(missing_ok=True)
        _dump(partial)
        private_file(partial)
        os.replace(partial, target)  # a half-written snapshot never carries a real name
        size = target.stat().st_size
        _rotate()
    except Exception as exc:  # recorded and shown in red in the control room
        logger.exception("backup failed")
        return Backup.objects.create(at=at, reason=reason, error=str(exc)[:2000] or repr(exc))
    return Backup.objects.create(at=at, reason=reason, file=target.name, size=size)


def snapshot(reason: str = "manual") -> Backup:
    """Take a snapshot now (waiting for one in progress); never raises: see `.error`."""
    try:
        with _locked(blocking=True):
            return _snapshot_locked(reason)
    except OSError as exc:  # the folder cannot be made or locked
        logger.exception("backup failed")
        return Backup.objects.create(at=timezone.now(), reason=reason, error=str(exc)[:2000])


def status() -> dict:
    """For the control room: the last snapshot, and the last attempt when it failed."""
    attempts = list(Backup.objects.order_by("-at", "-id")[:1])
    last_ok = Backup.objects.filter(error="").order_by("-at", "-id").first()
    failed = attempts[0] if attempts and attempts[0].error else None
    return {
        "enabled": enabled(),
        "minutes": settings.BACKUP_MINUTES,
        # The number that chooses the sentence's form ("every minute"; 0.5: "every 0.5 minutes").
        "every": plural_count(settings.BACKUP_MINUTES),
        "last": last_ok,
        "failed": failed,
        "folder": backup_dir(),
    }
