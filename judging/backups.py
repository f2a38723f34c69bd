"""Backups while the day runs (issue 13): consistent snapshots of the whole database.

SQLite: the online backup API, a consistent copy while the workers write. PostgreSQL:
`pg_dump --format=custom` (one transaction's snapshot). A snapshot is taken
- every BACKUP_MINUTES while a competition is on, and when its clock ends by itself: the
  check runs after a response has been sent (no scheduler to start), at most once every
  BACKUP_CHECK_SECONDS per process, and a file lock lets one of the workers take it;
- after every clock stop and finalise has been committed;
- by `manage.py backup`, and before `manage.py restore` replaces the database.
The newest BACKUP_KEEP periodic snapshots are kept; the others stay. Every attempt is a
`Backup` row, so the control room shows the last one, and a failure in red.

django-dbbackup was weighed: its SQLite restore writes the file over the live database
(unsafe while gunicorn workers hold it open in WAL mode), and the schedule, the lock and the
log here would still be needed.
"""

import fcntl
import logging
import os
import re
import sqlite3
import subprocess
import time
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.db import connection, transaction
from django.utils import timezone

from competition.audit import audit_record
from competition.models import Competition
from judging.models import Backup

logger = logging.getLogger(__name__)

PERIODIC = re.compile(r"-(auto|clock_end)(-\d+)?$")
# Audit actions after which a snapshot is taken (once the transaction has committed).
EVENTS = {"clock_stop": "clock_stop", "competition_finalise": "final"}
# A competition is "on" from 12 hours before its planned start until 12 hours after its
# clock ended: the desk's morning, the day, the counts and the prize-giving.
DAY_WINDOW = timedelta(hours=12)


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
    folder = backup_dir()
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".lock", "a") as handle:
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


def due(now) -> str | None:
    """ "clock_end" when a clock ended by itself since the last attempt; "auto" when a
    competition is on and the last attempt is BACKUP_MINUTES old; else None."""
    last = Backup.objects.exclude(reason="pre_restore").order_by("-at").first()
    last_at = last.at if last else None
    on = False
    for c in Competition.objects.filter(finalised_at=None):
        end = c.clock_end
        if end is not None and end <= now and (last_at is None or end > last_at):
            return "clock_end"
        if end is None:
            on = on or abs(c.starts_at - now) <= DAY_WINDOW
        else:
            on = on or end >= now - DAY_WINDOW
    if on and (last_at is None or now - last_at >= timedelta(minutes=settings.BACKUP_MINUTES)):
        return "auto"
    return None


_last_check = float("-inf")


def after_request(**kwargs) -> None:
    """request_finished: the answer has been sent; take a periodic snapshot if one is due.

    A connection opened here is closed by the next request's `close_old_connections`."""
    global _last_check
    if not enabled() or time.monotonic() - _last_check < settings.BACKUP_CHECK_SECONDS:
        return
    _last_check = time.monotonic()
    try:
        if due(timezone.now()) is None:
            return
        with _locked(blocking=False) as mine:
            reason = due(timezone.now()) if mine else None  # another worker may have taken it
            if reason is not None:
                _snapshot_locked(reason)
    except Exception:
        logger.exception("periodic backup check failed")


def after_audit(sender, instance, created, **kwargs) -> None:
    """post_save of an audit entry: a clock stop or finalise is followed by a snapshot."""
    reason = EVENTS.get(instance.action)
    if created and reason and enabled():
        transaction.on_commit(lambda: snapshot(reason))


def status() -> dict:
    """For the control room: the last snapshot, and the last attempt when it failed."""
    attempts = list(Backup.objects.order_by("-at", "-id")[:1])
    last_ok = Backup.objects.filter(error="").order_by("-at", "-id").first()
    failed = attempts[0] if attempts and attempts[0].error else None
    return {
        "enabled": enabled(),
        "minutes": settings.BACKUP_MINUTES,
        "last": last_ok,
        "failed": failed,
        "folder": backup_dir(),
    }


def restore(path: Path) -> Backup:
    """Bring back the snapshot at `path`; the database as it was is saved first.

    The standings versions move past every version the caches have seen, so no cached
    leaderboard of the replaced data is served again; every competition's audit log notes
    the restore.
    """
    path = Path(path)
    if not path.is_file():
        raise BackupError(f"{path} does not exist")
    if path.suffix != "." + _extension():
        raise BackupError(f"{path.name} is not a .{_extension()} snapshot of this database")
    if connection.vendor == "sqlite":
        try:
            source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            source.execute("SELECT 1 FROM django_migrations LIMIT 1")
        except sqlite3.DatabaseError as exc:
            raise BackupError(f"{path.name} is not a snapshot of this app: {exc}") from exc
    before = snapshot("pre_restore")
    if not before.ok:
        raise BackupError(f"the database could not be saved first: {before.error}")
    versions = dict(Competition.objects.values_list("pk", "standings_version"))
    if connection.vendor == "sqlite":
        connection.close()
        connection.ensure_connection()
        try:
            source.backup(connection.connection)
        finally:
            source.close()
    else:
        name = connection.settings_dict["NAME"]
        connection.close()
        _run(
            [
                "pg_restore",
                "--clean",
                "--if-exists",
                "--no-owner",
                "--no-privileges",
                "--single-transaction",
                "--exit-on-error",
                "-d",
                name,
                str(path),
            ]
        )
    call_command("migrate", interactive=False, verbosity=0)
    with transaction.atomic():
        # The snapshot's log does not know the copy just taken: note it again.
        before = Backup.objects.create(
            at=before.at, reason=before.reason, file=before.file, size=before.size
        )
        for competition in Competition.objects.select_for_update():
            seen = max(versions.get(competition.pk, 0), competition.standings_version)
            Competition.objects.filter(pk=competition.pk).update(standings_version=seen + 1)
            audit_record(
                competition=competition, user=None, action="backup_restore", reason=path.name
            )
    return before
