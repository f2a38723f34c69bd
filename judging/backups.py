"""Backups while the day runs: consistent snapshots of the whole database.

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
import json
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
from competition.audit_actions import BACKUP_RESTORE
from competition.models import Competition
from competition.private import private_dir, private_file, private_open
from competition.services.privacy import erase_values, scrub_audit, scrub_text
from judging.models import Backup

logger = logging.getLogger(__name__)

PERIODIC = re.compile(r"-(auto|clock_end)(-\d+)?$")
# A competition is "on" from 12 hours before its planned start until 12 hours after its
# clock ended: the desk's morning, the day, the counts and the prize-giving.
DAY_WINDOW = timedelta(hours=12)


class BackupError(Exception):
    pass


def enabled() -> bool:
    return settings.BACKUP_MINUTES > 0


def backup_dir() -> Path:
    return Path(settings.BACKUP_DIR)


# The tables a snapshot of this app has (restore refuses a file without them).
APP_TABLES = frozenset(
    {
        "django_migrations",
        "auth_user",
        "competition_competition",
        "competition_team",
        "competition_member",
        "judging_finish",
        "judging_auditentry",
    }
)
SQLITE_HEADER = b"SQLite format 3\x00"


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


def after_commit(reason: str) -> None:
    """A clock stop or finalise has committed (its audit action's `snapshot`,
    competition/audit_actions.py): a snapshot follows."""
    if enabled():
        snapshot(reason)


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
    check_snapshot(path)  # before anything is replaced
    if connection.vendor == "sqlite":
        source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
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
                competition=competition, user=None, action=BACKUP_RESTORE, reason=path.name
            )
    return before


# --- a snapshot is checked before it replaces anything ----------------------------------------
def _check_sqlite(path: Path) -> None:
    with open(path, "rb") as handle:
        if handle.read(16) != SQLITE_HEADER:
            raise BackupError(f"{path.name} is not an SQLite database")
    try:
        source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            problems = [row[0] for row in source.execute("PRAGMA integrity_check(20)")]
            tables = {
                row[0]
                for row in source.execute("SELECT name FROM sqlite_master WHERE type='table'")
            }
            erased = _still_personal_sqlite(source)
        finally:
            source.close()
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{path.name} is damaged: {exc}") from exc
    if problems != ["ok"]:
        raise BackupError(f"{path.name} is damaged: {'; '.join(problems)[:500]}")
    missing = APP_TABLES - tables
    if missing:
        raise BackupError(
            f"{path.name} is not a snapshot of this app (no {', '.join(sorted(missing))})"
        )
    if erased:
        raise BackupError(
            f"{path.name} still holds the personal data of {', '.join(erased)}, erased since: "
            "it would bring them back"
        )


def _check_pgdump(path: Path) -> None:
    try:
        listing = subprocess.run(
            ["pg_restore", "--list", str(path)], capture_output=True, text=True, timeout=120
        )
    except FileNotFoundError as exc:
        raise BackupError("pg_restore is not installed") from exc
    if listing.returncode != 0:
        raise BackupError(f"{path.name} is damaged: {listing.stderr.strip()[-300:]}")
    tables = set(re.findall(r" TABLE (?:DATA )?\S+ (\w+) ", listing.stdout))
    missing = APP_TABLES - tables
    if missing:
        raise BackupError(
            f"{path.name} is not a snapshot of this app (no {', '.join(sorted(missing))})"
        )
    ledger = erased_ledger()
    taken = path.stat().st_mtime
    older = sorted(slug for slug, at in ledger.items() if taken < at)
    if older:
        # A dump cannot be scrubbed in place: one taken before an erase is refused.
        raise BackupError(
            f"{path.name} was taken before the personal data of {', '.join(older)} was "
            "erased: it would bring them back"
        )


def check_snapshot(path: Path) -> None:
    """Refuse (BackupError) a file that is not a whole, undamaged snapshot of this app, or
    one that would bring back personal data erased since (docs/contracts.md "Personal data and the
    hall's files")."""
    path = Path(path)
    if path.suffix == ".sqlite3":
        _check_sqlite(path)
    else:
        _check_pgdump(path)


# --- erase_personal_data reaches the files -------------------------------------------------
LEDGER = "erased.json"


def erased_ledger() -> dict[str, float]:
    """{slug: when its personal data was erased} (BACKUP_DIR/erased.json): kept beside
    the snapshots, so a restore of an old database still knows."""
    try:
        return {k: float(v) for k, v in json.loads((backup_dir() / LEDGER).read_text()).items()}
    except (OSError, ValueError, AttributeError):
        return {}


def _ledger_add(slug: str) -> None:
    ledger = erased_ledger()
    ledger[slug] = time.time()
    folder = private_dir(backup_dir())
    partial = folder / (LEDGER + ".partial")
    with private_open(partial, "w") as handle:
        handle.truncate()
        json.dump(ledger, handle)
    os.replace(partial, folder / LEDGER)


def _still_personal_sqlite(db: sqlite3.Connection) -> list[str]:
    """The erased competitions (ledger) a snapshot still holds personal data of."""
    found = []
    for slug in erased_ledger():
        try:
            row = db.execute(
                "SELECT EXISTS(SELECT 1 FROM competition_member m JOIN competition_team t "
                "ON m.team_id = t.id JOIN competition_competition c ON t.competition_id = c.id "
                "WHERE c.slug = ?) OR EXISTS(SELECT 1 FROM competition_team t "
                "JOIN competition_competition c ON t.competition_id = c.id WHERE c.slug = ? "
                "AND (t.contact_name != '' OR t.contact_email != '' OR t.contact_phone != '' "
                "OR t.notes != ''))",
                (slug, slug),
            ).fetchone()
        except sqlite3.DatabaseError:
            continue  # another schema: the table check refuses it
        if row and row[0]:
            found.append(slug)
    return found


def _scrub_sqlite_db(db: sqlite3.Connection, slug: str, values: frozenset[str]) -> bool:
    """erase_personal_data on a snapshot (plain SQL: its schema may be older)."""
    row = db.execute("SELECT id FROM competition_competition WHERE slug = ?", (slug,)).fetchone()
    if row is None:
        return False
    cid = (row[0],)
    teams = "SELECT id FROM competition_team WHERE competition_id = ?"
    rows = db.execute(
        f"SELECT name, guardian FROM competition_member WHERE team_id IN ({teams})", cid
    ).fetchall()
    rows += db.execute(
        "SELECT contact_name, contact_email, contact_phone, notes FROM competition_team "
        "WHERE competition_id = ?",
        cid,
    ).fetchall()
    audits = db.execute(
        "SELECT id, before, after, reason FROM judging_auditentry WHERE competition_id = ? "
        "AND action != 'personal_data_erase'",
        cid,
    ).fetchall()
    parsed = [(i, json.loads(b) if b else b, json.loads(a) if a else a, r) for i, b, a, r in audits]
    values = values | erase_values(rows, [(b, a) for _i, b, a, _r in parsed])
    db.execute(f"DELETE FROM competition_member WHERE team_id IN ({teams})", cid)
    db.execute(
        "UPDATE competition_team SET contact_name = '', contact_email = '', contact_phone = '', "
        "notes = '' WHERE competition_id = ?",
        cid,
    )
    db.execute("DELETE FROM competition_importpreview WHERE competition_id = ?", cid)
    for pk, before, after, reason in parsed:
        before, after, reason = scrub_audit(before, after, reason, values)
        db.execute(
            "UPDATE judging_auditentry SET before = ?, after = ?, reason = ? WHERE id = ?",
            (
                None if before is None else json.dumps(before),
                None if after is None else json.dumps(after),
                reason,
                pk,
            ),
        )
    for table, columns in (
        ("judging_warning", ("reason",)),
        ("judging_objection", ("text", "note")),
    ):
        for pk, *texts in db.execute(
            f"SELECT id, {', '.join(columns)} FROM {table} WHERE team_id IN ({teams})", cid
        ).fetchall():
            db.execute(
                f"UPDATE {table} SET {', '.join(c + ' = ?' for c in columns)} WHERE id = ?",
                (*(scrub_text(t or "", values) for t in texts), pk),
            )
    return True


def _scrub_sqlite_snapshot(path: Path, slug: str, values: frozenset[str]) -> None:
    """The snapshot is read into memory, scrubbed there and written anew (VACUUM INTO: no
    free page keeps an erased row), then put in the old one's place."""
    disk = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    memory = sqlite3.connect(":memory:")
    try:
        disk.backup(memory)
        disk.close()
        if not _scrub_sqlite_db(memory, slug, values):
            return
        memory.commit()
        partial = path.with_name(path.name + ".scrub")
        partial.unlink(missing_ok=True)
        memory.execute("VACUUM INTO ?", (str(partial),))
    finally:
        disk.close()
        memory.close()
    private_file(partial)
    os.replace(partial, path)


def _compact_live() -> None:
    """The live database keeps no erased row in a free page or in its write-ahead log."""
    if connection.vendor == "sqlite":
        if connection.is_in_memory_db():
            return
        with connection.cursor() as cursor:
            cursor.execute("VACUUM")
            for _attempt in range(20):
                cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                if cursor.fetchone()[0] == 0:
                    break
                time.sleep(0.1)
    elif connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "VACUUM FULL competition_member, competition_team, competition_importpreview, "
                "judging_auditentry, judging_warning, judging_objection"
            )


def _scrub_logs(values: frozenset[str]) -> int:
    """The logs in VAR_DIR (an access log written before query strings were left out held
    the desk's searches) rewritten in place without the values, plain or URL-encoded; in
    place, so gunicorn's open log (appending) goes on in the same file."""
    from urllib.parse import quote, quote_plus

    forms = set()
    for value in values:
        forms |= {value, quote(value), quote_plus(value), quote(value, safe="")}
    scrubbed = 0
    for path in sorted(Path(settings.VAR_DIR).glob("*.log")):
        with open(path, "r+b") as handle:
            data = handle.read()
            text = data.decode("utf-8", errors="surrogateescape")
            clean = scrub_text(text, forms)
            if clean != text:
                handle.seek(0)
                handle.write(clean.encode("utf-8", errors="surrogateescape"))
                handle.truncate()
                scrubbed += 1
    return scrubbed


def erase_from_files(slug: str, values: frozenset[str]) -> dict:
    """After an erase has committed: the live database compacted, every SQLite snapshot
    scrubbed, and the erase noted beside them (a restore refuses what still holds it)."""
    done = {"scrubbed": 0, "refused": 0}
    with _locked(blocking=True):
        _ledger_add(slug)
        for path in sorted(backup_dir().iterdir()):
            if path.suffix == ".sqlite3" and path.is_file():
                try:
                    _scrub_sqlite_snapshot(path, slug, values)
                    done["scrubbed"] += 1
                except sqlite3.DatabaseError:
                    logger.exception("could not scrub %s: a restore refuses it", path.name)
                    done["refused"] += 1
            elif path.suffix == ".pgdump":
                done["refused"] += 1
    try:
        done["logs"] = _scrub_logs(values)
    except OSError:
        logger.exception("could not scrub the logs after the erase")
    try:
        _compact_live()
    except Exception:
        logger.exception("the database could not be compacted after the erase")
    return done


def after_erase(sender, competition, values, **kwargs) -> None:
    """personal_data_erased (inside the erase's transaction): judging's free texts now, the
    files once it has committed."""
    from judging.models import Objection, Warning

    for warning in Warning.objects.filter(team__competition=competition):
        reason = scrub_text(warning.reason, values)
        if reason != warning.reason:
            Warning.objects.filter(pk=warning.pk).update(reason=reason)
    for objection in Objection.objects.filter(team__competition=competition):
        text, note = scrub_text(objection.text, values), scrub_text(objection.note, values)
        if (text, note) != (objection.text, objection.note):
            Objection.objects.filter(pk=objection.pk).update(text=text, note=note)
    slug = competition.slug
    transaction.on_commit(lambda: erase_from_files(slug, values))
