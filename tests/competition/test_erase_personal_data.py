"""After the championship the personal data goes; the results stay (privacy, issue 8)."""

from io import StringIO

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
    """Issue 20 point 8: the page and audit.csv read "[, e, r, a, s, e, d, ]"."""
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
