"""Every file the app writes is its owner's alone (docs/contracts.md "Personal
data and the hall's files"): with umask 022 the database, its -wal/-shm, the backups and
var/hall-access.log were 0644. The whole day under umask 022 is read in
test_personal_data_trail.py; here the parts, quickly."""

import os
import stat
from contextlib import contextmanager

import pytest

from competition.private import tighten
from judging import backups


@contextmanager
def umask(mask: int):
    old = os.umask(mask)
    try:
        yield
    finally:
        os.umask(old)


def mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_settings_make_every_new_file_private():
    """config/settings.py sets umask 077 for every process that loads it."""
    current = os.umask(0)
    os.umask(current)
    assert current & 0o077 == 0o077


@pytest.mark.django_db(transaction=True)
def test_a_snapshot_and_its_folder_are_private_even_under_umask_022(settings, tmp_path):
    settings.BACKUP_DIR = tmp_path / "backups"
    with umask(0o022):
        made = backups.snapshot("manual")
    assert made.ok, made.error
    assert mode(settings.BACKUP_DIR) == 0o700
    assert mode(settings.BACKUP_DIR / made.file) == 0o600
    assert mode(settings.BACKUP_DIR / ".lock") == 0o600


def test_the_hall_tightens_files_an_older_version_left_readable(tmp_path):
    var = tmp_path / "var"
    (var / "backups").mkdir(parents=True)
    for name in ("db.sqlite3", "db.sqlite3-wal", "hall-access.log", "backups/old.sqlite3"):
        (var / name).write_text("x")
        os.chmod(var / name, 0o644)
    os.chmod(var / "backups", 0o755)
    changed = tighten(var)
    assert len(changed) == 5
    assert {mode(p) for p in var.rglob("*") if p.is_file()} == {0o600}
    assert mode(var / "backups") == 0o700 and mode(var) == 0o700
