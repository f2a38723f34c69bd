"""Backups while the day runs: snapshots into BACKUP_DIR every BACKUP_MINUTES
while a competition is on, at a clock stop and at finalise; `backup` and `restore FILE`;
a snapshot taken mid-day brings back the same standings. SQLite (the online backup API)
and PostgreSQL (pg_dump / pg_restore) alike."""

import fcntl
import re
from datetime import timedelta
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from competition.models import AuditEntry, Competition
from competition.services import clock_stop
from judging.models import Backup
from judging.services import count_record, finish_register, team_disqualify
from scoring.selectors import competition_standings


@pytest.fixture
def backups_on(settings, tmp_path):
    settings.BACKUP_MINUTES = 5
    settings.BACKUP_CHECK_SECONDS = 0
    settings.BACKUP_KEEP = 48
    settings.BACKUP_DIR = tmp_path / "backups"
    return settings.BACKUP_DIR


def _files(folder: Path, reason: str) -> list[Path]:
    pattern = re.compile(rf"-{reason}(-\d+)?\.(sqlite3|pgdump)$")
    return sorted(p for p in folder.glob("*") if pattern.search(p.name))


def _standings(competition):
    return competition_standings(Competition.objects.get(pk=competition.pk), staff=True)[
        "standings"
    ]


@pytest.mark.django_db(transaction=True)
def test_a_snapshot_taken_mid_day_restores_the_same_standings(
    backups_on, competition, teams, judge, admin_user, start_clock
):
    start_clock(competition, ago=timedelta(hours=1))
    finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=20 * 60, missing=[1])
    finish_register(team=teams[1], position=1, by=judge, elapsed_seconds=25 * 60)
    out = StringIO()
    call_command("backup", stdout=out)
    snapshot = Path(out.getvalue().strip())
    assert snapshot.is_file()
    mid_day = _standings(competition)
    version_mid_day = Competition.objects.get(pk=competition.pk).standings_version

    # The day goes on: another finish, a disqualification.
    finish_register(team=teams[0], position=2, by=judge, elapsed_seconds=50 * 60)
    team_disqualify(team=teams[1], by=admin_user, reason="Help from outside (R18)")
    later_version = Competition.objects.get(pk=competition.pk).standings_version
    assert _standings(competition) != mid_day

    call_command("restore", str(snapshot), "--noinput", stdout=StringIO())

    assert _standings(competition) == mid_day
    restored = Competition.objects.get(pk=competition.pk)
    # Past every version a cache has seen: no leaderboard of the replaced data comes back.
    assert restored.standings_version > max(version_mid_day, later_version)
    assert AuditEntry.objects.filter(action="backup_restore", reason=snapshot.name).exists()
    before = _files(backups_on, "pre_restore")
    assert len(before) == 1
    assert Backup.objects.filter(reason="pre_restore", file=before[0].name).exists()


@pytest.mark.django_db(transaction=True)
def test_restore_refuses_a_file_that_is_no_snapshot_and_changes_nothing(
    backups_on, competition, tmp_path
):
    bogus = tmp_path / ("not-a-snapshot." + ("pgdump" if _pg() else "sqlite3"))
    bogus.write_bytes(b"hello")
    with pytest.raises(CommandError):
        call_command("restore", str(bogus), "--noinput", stdout=StringIO())
    with pytest.raises(CommandError, match="does not exist"):
        call_command("restore", str(tmp_path / "gone.sqlite3"), "--noinput", stdout=StringIO())
    assert Competition.objects.filter(pk=competition.pk).exists()


def _pg() -> bool:
    from django.db import connection

    return connection.vendor == "postgresql"


@pytest.mark.django_db(transaction=True)
def test_a_snapshot_every_few_minutes_while_a_competition_runs(
    client, backups_on, competition, start_clock
):
    start_clock(competition, ago=timedelta(minutes=30))

    client.get("/healthz")  # the check runs after the answer has been sent
    assert len(_files(backups_on, "auto")) == 1
    client.get("/healthz")
    assert len(_files(backups_on, "auto")) == 1  # not due again yet

    Backup.objects.update(at=timezone.now() - timedelta(minutes=6))
    client.get("/healthz")
    assert len(_files(backups_on, "auto")) == 2
    assert Backup.objects.filter(reason="auto", error="").count() == 2


@pytest.mark.django_db(transaction=True)
def test_the_newest_periodic_snapshots_are_kept(client, backups_on, settings, competition):
    settings.BACKUP_KEEP = 2
    competition.starts_at = timezone.now() + timedelta(hours=2)  # the desk's morning
    competition.save()
    for _ in range(4):
        Backup.objects.update(at=timezone.now() - timedelta(minutes=6))
        client.get("/healthz")
    assert Backup.objects.filter(reason="auto", error="").count() == 4
    kept = _files(backups_on, "auto")
    newest = list(Backup.objects.order_by("id").values_list("file", flat=True))[-2:]
    assert sorted(p.name for p in kept) == sorted(newest)


@pytest.mark.django_db(transaction=True)
def test_no_snapshot_when_no_competition_is_on(client, backups_on, competition):
    competition.starts_at = timezone.now() + timedelta(days=30)
    competition.save()
    client.get("/healthz")
    assert not Backup.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_off_unless_configured(client, settings, tmp_path, competition, start_clock):
    settings.BACKUP_MINUTES = 0
    settings.BACKUP_DIR = tmp_path / "backups"
    start_clock(competition, ago=timedelta(minutes=30))
    client.get("/healthz")
    assert not Backup.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_worker_holding_the_lock_makes_the_others_skip(
    client, backups_on, competition, start_clock
):
    start_clock(competition, ago=timedelta(minutes=30))
    backups_on.mkdir(parents=True)
    with open(backups_on / ".lock", "a") as held:  # another worker is taking one
        fcntl.flock(held, fcntl.LOCK_EX)
        client.get("/healthz")
        assert not Backup.objects.exists()
        fcntl.flock(held, fcntl.LOCK_UN)
    client.get("/healthz")
    assert Backup.objects.filter(reason="auto").count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_snapshot_when_the_clock_ends_by_itself(client, backups_on, competition, start_clock):
    start_clock(competition, ago=timedelta(minutes=170))
    client.get("/healthz")
    Backup.objects.update(at=timezone.now() - timedelta(minutes=3))
    client.get("/healthz")  # not due: 3 of 5 minutes
    assert Backup.objects.count() == 1
    Competition.objects.filter(pk=competition.pk).update(
        started_at=timezone.now() - timedelta(minutes=180, seconds=30)
    )
    client.get("/healthz")  # the clock ended 30 s ago, after the last snapshot
    assert [b.reason for b in Backup.objects.order_by("at")] == ["auto", "clock_end"]
    assert len(_files(backups_on, "clock_end")) == 1


@pytest.mark.django_db(transaction=True)
def test_a_snapshot_at_the_clock_stop_and_at_finalise(
    backups_on, competition, teams, judge, admin_user, start_clock, api_as
):
    start_clock(competition, ago=timedelta(minutes=30))
    assert not _files(backups_on, "clock_stop")
    clock_stop(competition=competition, by=admin_user)  # snapshot once committed
    assert len(_files(backups_on, "clock_stop")) == 1

    for team in teams:
        count_record(team=team, by=judge, pieces=0)
    answer = api_as(admin_user).post(
        f"/api/v1/competitions/{competition.slug}/finalise", {}, format="json"
    )
    assert answer.status_code == 200
    assert len(_files(backups_on, "final")) == 1


@pytest.mark.django_db(transaction=True)
def test_a_failed_backup_is_recorded_and_shown_in_red(
    client, settings, tmp_path, competition, admin_user
):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    settings.BACKUP_MINUTES = 5
    settings.BACKUP_DIR = blocker / "backups"  # cannot be made
    with pytest.raises(CommandError, match="backup"):
        call_command("backup", stdout=StringIO())

    client.force_login(admin_user)
    html = client.get(f"/control/{competition.slug}/hall/").content.decode()
    assert "backup-failed" in html

    settings.BACKUP_DIR = tmp_path / "backups"
    call_command("backup", stdout=StringIO())
    html = client.get(f"/control/{competition.slug}/hall/").content.decode()
    assert "backup-failed" not in html
    last = Backup.objects.filter(error="").get()
    assert timezone.localtime(last.at).strftime("%H:%M") in html
