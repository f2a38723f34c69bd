"""`restore` checks the snapshot before it replaces anything (docs/contracts.md
"Personal data and the hall's files"): a zeroed page, a truncated file and another
program's SQLite file are refused, and the live database is not touched (not even the
pre_restore copy is taken)."""

import sqlite3
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from competition.models import Competition
from judging import backups
from judging.models import Backup


@pytest.fixture
def snapshot_file(settings, tmp_path, competition, teams) -> Path:
    settings.BACKUP_DIR = tmp_path / "backups"
    made = backups.snapshot("manual")
    assert made.ok, made.error
    return Path(settings.BACKUP_DIR) / made.file


def _zero_page_of(path: Path, table: str) -> Path:
    """The copy of `path` with `table`'s root page zeroed (what a bad sector does)."""
    db = sqlite3.connect(path)
    page_size = db.execute("PRAGMA page_size").fetchone()[0]
    root = db.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,)).fetchone()[0]
    db.close()
    data = bytearray(path.read_bytes())
    data[(root - 1) * page_size : root * page_size] = bytes(page_size)
    damaged = path.with_name("zeroed-" + path.name)
    damaged.write_bytes(bytes(data))
    return damaged


def _truncated(path: Path) -> Path:
    damaged = path.with_name("truncated-" + path.name)
    damaged.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    return damaged


def _other_program(folder: Path) -> Path:
    other = folder / "photos.sqlite3"
    db = sqlite3.connect(other)
    db.execute("CREATE TABLE django_migrations (id INTEGER PRIMARY KEY, app TEXT)")
    db.execute("INSERT INTO django_migrations (app) VALUES ('photos')")
    db.execute("CREATE TABLE pictures (id INTEGER PRIMARY KEY, name TEXT)")
    db.commit()
    db.close()
    return other


def _sqlite_snapshot(tmp_path, snapshot_file) -> Path:
    """A real snapshot as SQLite: the live one, or (on PostgreSQL) a copy of the schema."""
    if snapshot_file.suffix == ".sqlite3":
        return snapshot_file
    copy = tmp_path / "copy.sqlite3"
    db = sqlite3.connect(copy)
    for table in sorted(backups.APP_TABLES):
        db.execute(f'CREATE TABLE "{table}" (id INTEGER PRIMARY KEY, x TEXT)')
    db.executemany("INSERT INTO auth_user (x) VALUES (?)", [("u" * 500,)] * 200)
    db.commit()
    db.close()
    return copy


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("damage", ["zeroed page", "truncated", "another program's file"])
def test_a_damaged_or_foreign_sqlite_file_is_refused(tmp_path, snapshot_file, damage):
    good = _sqlite_snapshot(tmp_path, snapshot_file)
    backups.check_snapshot(good)  # the whole snapshot passes
    bad = {
        "zeroed page": lambda: _zero_page_of(good, "auth_user"),
        "truncated": lambda: _truncated(good),
        "another program's file": lambda: _other_program(tmp_path),
    }[damage]()
    with pytest.raises(backups.BackupError, match="damaged|not a snapshot|not an SQLite"):
        backups.check_snapshot(bad)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("damage", ["zeroed page", "truncated", "another program's file"])
def test_restore_refuses_before_the_live_database_is_touched(
    tmp_path, snapshot_file, competition, damage
):
    if connection.vendor != "sqlite":
        pytest.skip("SQLite snapshots; a PostgreSQL dump is restored in one transaction")
    bad = {
        "zeroed page": lambda: _zero_page_of(snapshot_file, "auth_user"),
        "truncated": lambda: _truncated(snapshot_file),
        "another program's file": lambda: _other_program(tmp_path),
    }[damage]()
    Competition.objects.filter(pk=competition.pk).update(name="Efter backuppen")
    attempts = Backup.objects.count()
    with pytest.raises(CommandError):
        call_command("restore", str(bad), "--noinput", stdout=StringIO())
    assert Competition.objects.get(pk=competition.pk).name == "Efter backuppen"
    assert Backup.objects.count() == attempts  # no pre_restore copy: nothing was begun
    assert not list(Path(snapshot_file.parent).glob("*pre_restore*"))


@pytest.mark.django_db(transaction=True)
def test_a_truncated_or_foreign_postgresql_dump_is_refused(tmp_path, snapshot_file):
    if snapshot_file.suffix != ".pgdump":
        pytest.skip("PostgreSQL dumps")
    truncated = _truncated(snapshot_file)
    with pytest.raises(backups.BackupError, match="damaged"):
        backups.check_snapshot(truncated)
    foreign = tmp_path / "other.pgdump"
    foreign.write_bytes(b"PGDMP" + bytes(2000))
    with pytest.raises(backups.BackupError):
        backups.check_snapshot(foreign)
