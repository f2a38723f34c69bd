"""After the championship the personal data goes; the results stay (privacy)."""

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from competition.audit import audit_record
from competition.models import AuditEntry, Member, Team
from judging.models import Finish
from tests.factories import MemberFactory


@pytest.fixture
def past(competition, teams):
    MemberFactory(team=teams[0], name="Alma Østergaard", under_15=True, guardian="Mette Østergaard")
    MemberFactory(team=teams[1], name="Søren Jensen")
    Team.objects.filter(pk=teams[0].pk).update(
        contact_name="Mette Østergaard",
        contact_email="mette@example.dk",
        contact_phone="12345678",
        notes="Alma har nøddeallergi",
    )
    Finish.objects.create(
        team=teams[0], puzzle=competition.puzzles.get(position=1), elapsed_seconds=1800
    )
    audit_record(
        competition=competition,
        user=None,
        action="team_update",
        team=teams[0],
        before={"name": "Hold 1", "members": [{"name": "Alma Østergaard"}]},
        after={"name": "Hold 1", "contact_email": "mette@example.dk", "notes": "nøddeallergi"},
    )
    competition.finalised_at = timezone.now()
    competition.save()
    return competition


@pytest.mark.django_db
def test_erase_deletes_members_and_contacts_and_keeps_results(past):
    out = StringIO()
    call_command("erase_personal_data", past.slug, "--yes", stdout=out)
    assert Member.objects.filter(team__competition=past).count() == 0
    team = Team.objects.get(competition=past, table=1)
    assert (team.contact_name, team.contact_email, team.contact_phone) == ("", "", "")
    assert team.notes == ""
    assert Team.objects.filter(competition=past).count() == 3
    assert Finish.objects.filter(team=team).count() == 1
    entry = AuditEntry.objects.get(action="team_update")
    text = str(entry.before) + str(entry.after)
    assert "Østergaard" not in text
    assert "mette@example.dk" not in text
    assert "nøddeallergi" not in text
    assert entry.before["name"] == "Hold 1"
    assert "Erased 2 members" in out.getvalue()


@pytest.mark.django_db
def test_erase_needs_yes_and_a_final_competition(competition, teams):
    MemberFactory(team=teams[0])
    with pytest.raises(CommandError, match="--yes"):
        call_command("erase_personal_data", competition.slug)
    with pytest.raises(CommandError, match="endelige"):
        call_command("erase_personal_data", competition.slug, "--yes")
    assert Member.objects.count() == 1
    with pytest.raises(CommandError, match="No competition"):
        call_command("erase_personal_data", "nope", "--yes")


@pytest.mark.django_db
def test_the_audit_log_shows_an_erased_member_list_in_words(client, past, admin_user):
    """The page and audit.csv read "[, e, r, a, s, e, d, ]"."""
    audit_record(
        competition=past,
        user=None,
        action="team_create",
        team=Team.objects.get(competition=past, table=1),
        after={"name": "Hold 1", "table": 1, "members": [{"name": "Alma Østergaard"}]},
        reason="Alma Østergaard kom for sent",
    )
    call_command("erase_personal_data", past.slug, "--yes", stdout=StringIO())
    client.force_login(admin_user)
    page = client.get(f"/control/{past.slug}/audit/").content.decode()
    csv = client.get(f"/control/{past.slug}/audit.csv").content.decode("utf-8-sig")
    for text in (page, csv):
        assert "[, e, r" not in text and "e, r, a, s" not in text
        assert "[erased]" not in text
        assert "slettet" in text
        assert "Østergaard" not in text
    reasons = "".join(AuditEntry.objects.values_list("reason", flat=True))
    assert "Østergaard" not in reasons


@pytest.mark.django_db(transaction=True)
def test_the_erase_reaches_the_snapshots_an_old_access_log_and_the_restore(
    settings, tmp_path, competition, teams
):
    """The clock_stop and final snapshots kept the child's name (and its
    edited spelling), her adult and the contact's e-mail, and a restore brought them back;
    an access log of an older version kept the desk's search."""
    from sqlite3 import connect

    from competition.services import team_update
    from judging import backups

    settings.BACKUP_DIR = tmp_path / "backups"
    settings.VAR_DIR = tmp_path
    log = tmp_path / "hall-access.log"
    log.write_text('127.0.0.1 - - "GET /desk/dm/?q=Alma%20%C3%98stergaard HTTP/1.1" 200\n')
    MemberFactory(team=teams[0], name="Alma Østergaard", under_15=True, guardian="Mette Ø")
    Team.objects.filter(pk=teams[0].pk).update(contact_email="mette@example.dk")
    first = backups.snapshot("clock_stop")
    members = [{"name": "Alma Østergård", "under_15": True, "guardian": "Mette Ø"}]
    team_update(team=Team.objects.get(pk=teams[0].pk), by=None, members=members)
    competition.finalised_at = timezone.now()
    competition.save()
    final = backups.snapshot("final")
    if not final.file.endswith(".sqlite3"):
        pytest.skip("the SQLite snapshots (a PostgreSQL dump is refused: the next test)")

    call_command("erase_personal_data", competition.slug, "--yes", stdout=StringIO())

    for made in (first, final):
        data = (settings.BACKUP_DIR / made.file).read_bytes()
        for value in ("Østergaard", "Østergård", "Mette Ø", "mette@example.dk"):
            assert value.encode() not in data, (made.file, value)
        db = connect(settings.BACKUP_DIR / made.file)
        assert db.execute("SELECT COUNT(*) FROM competition_member").fetchone() == (0,)
        assert db.execute("SELECT COUNT(*) FROM competition_team").fetchone() == (3,)
        db.close()
        backups.check_snapshot(settings.BACKUP_DIR / made.file)  # scrubbed: restorable
    assert "%C3%98stergaard" not in log.read_text() and "/desk/dm/" in log.read_text()


@pytest.mark.django_db(transaction=True)
def test_a_restore_refuses_a_snapshot_that_still_holds_erased_data(
    settings, tmp_path, competition, teams
):
    """A copy taken before the erase (a PostgreSQL dump, which cannot be scrubbed, or an
    SQLite file kept elsewhere) would bring the personal data back: refused."""
    import shutil

    from judging import backups

    settings.BACKUP_DIR = tmp_path / "backups"
    settings.VAR_DIR = tmp_path
    MemberFactory(team=teams[0], name="Alma Østergaard")
    before = backups.snapshot("manual")
    kept = tmp_path / ("usb-copy" + Path(before.file).suffix)
    shutil.copy(settings.BACKUP_DIR / before.file, kept)
    import os
    import time

    os.utime(kept, (time.time() - 60, time.time() - 60))  # taken a minute before the erase
    competition.finalised_at = timezone.now()
    competition.save()
    call_command("erase_personal_data", competition.slug, "--yes", stdout=StringIO())
    with pytest.raises(backups.BackupError, match="erased"):
        backups.check_snapshot(kept)
    with pytest.raises(CommandError, match="erased"):
        call_command("restore", str(kept), "--noinput", stdout=StringIO())
    assert Member.objects.count() == 0
