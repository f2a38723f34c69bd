"""Bringing a snapshot back (`manage.py restore`): the file is checked first (a whole,
undamaged snapshot of this app that brings back no personal data erased since), the database
as it was is saved, and the standings versions move past every version the caches have
seen."""

import re
import sqlite3
import subprocess
from pathlib import Path

from django.core.management import call_command
from django.db import connection, transaction

from competition.audit import audit_record
from competition.audit_actions import BACKUP_RESTORE
from competition.models import Competition
from judging.backups.scrub import _still_personal_sqlite, erased_ledger
from judging.backups.snapshots import BackupError, _extension, _run, snapshot
from judging.models import Backup

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
