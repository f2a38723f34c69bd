"""Advancing carries the person, not only the name (issue 33, item 3): a finalist checked in
and paid in a heat is checked in and paid in the final (the check-in when the final is on the
day of it), with the under-15's adult, labels, contacts and the desk's notes; audited as part
of the advance. Only rounds of the round's discipline that start before it are sources: the
service refuses another with a sentence, the API answers 400."""

from datetime import datetime, time, timedelta

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from championships.services import advance
from competition.audit_text import sentence
from competition.models import AuditEntry, Member, Team
from competition.selectors import team_counts, team_list_missing
from competition.services import competition_create
from tests.championships.conftest import heat

pytestmark = pytest.mark.django_db


def same_day_before(competition) -> datetime:
    """A moment on the local day of the competition's planned start, before it."""
    start = timezone.localtime(competition.starts_at)
    midnight = timezone.make_aware(datetime.combine(start.date(), time()))
    return max(midnight, start - timedelta(minutes=30))


def went_on(final, name) -> Team:
    return Team.objects.get(competition=final, name=name)


def test_a_finalist_checked_in_and_paid_in_a_heat_is_checked_in_and_paid_in_the_final(
    heats, final, admin_user
):
    arrived = same_day_before(final)
    Team.objects.filter(competition__slug="heat-a", name="Anna").update(
        checked_in_at=arrived, fee_paid=True
    )
    Team.objects.filter(competition__slug="heat-b", name="Eva").update(fee_paid=True)
    advance(competition=final, sources=["heat-a", "heat-b"], best=2, by=admin_user)

    anna, eva, bo = (went_on(final, n) for n in ("Anna", "Eva", "Bo"))
    assert (anna.checked_in_at, anna.fee_paid) == (arrived, True)
    assert (eva.checked_in_at, eva.fee_paid) == (None, True)
    assert (bo.checked_in_at, bo.fee_paid) == (None, False)
    # The final's desk: Anna is in, not missing; only Eva, Bo and Finn are to check in.
    teams = list(Team.objects.filter(competition=final))
    assert team_counts(teams)["in"] == 1 and team_counts(teams)["unpaid"] == 2
    assert sorted(t.name for t in team_list_missing(competition=final)) == ["Bo", "Eva", "Finn"]
    # Audited as part of the advance, in words.
    entry = AuditEntry.objects.get(competition=final, action="team_advance", team=anna)
    assert entry.after["fee_paid"] is True and entry.after["checked_in_at"]
    assert "tjekket ind og gebyret betalt i den tidligere runde" in sentence(entry)
    eva_entry = AuditEntry.objects.get(competition=final, action="team_advance", team=eva)
    assert sentence(eva_entry).endswith("; gebyret betalt i den tidligere runde")
    bo_entry = AuditEntry.objects.get(competition=final, action="team_advance", team=bo)
    assert "tidligere runde" not in sentence(bo_entry)


def test_the_final_desk_shows_the_finalist_checked_in_and_does_not_list_them_missing(
    client, make_user, heats, final, admin_user
):
    Team.objects.filter(competition__slug="heat-a", name="Anna").update(
        checked_in_at=same_day_before(final), fee_paid=True
    )
    advance(competition=final, sources=["heat-a", "heat-b"], best=2, by=admin_user)
    client.force_login(make_user("desk", "skranken"))
    missing = client.get(reverse("desk:missing", args=[final.slug])).content.decode()
    assert "Bo" in missing and "Anna" not in missing


def test_a_final_on_another_day_checks_in_anew_and_keeps_the_fee(heats, final, admin_user):
    """R2: present before the start of the final; yesterday's check-in does not say so."""
    Team.objects.filter(competition__slug="heat-a", name="Anna").update(
        checked_in_at=final.starts_at - timedelta(days=1), fee_paid=True
    )
    advance(competition=final, sources=["heat-a"], best=1, by=admin_user)
    anna = went_on(final, "Anna")
    assert (anna.checked_in_at, anna.fee_paid) == (None, True)
    entry = AuditEntry.objects.get(competition=final, action="team_advance", team=anna)
    assert sentence(entry).endswith("; gebyret betalt i den tidligere runde")


def test_the_persons_own_go_on_an_under_15_with_the_adult_labels_contacts_notes(
    heats, final, admin_user
):
    source = Team.objects.get(competition__slug="heat-a", name="Anna")
    Member.objects.filter(team=source).update(under_15=True, guardian="Mor Hansen")
    Team.objects.filter(pk=source.pk).update(
        labels=["ung"],
        contact_name="Mor Hansen",
        contact_phone="12345678",
        notes="Kørestol: bord ved gangen",
    )
    advance(competition=final, sources=["heat-a"], best=1, by=admin_user)
    anna = went_on(final, "Anna")
    member = anna.members.get()
    assert (member.name, member.under_15, member.guardian) == ("Anna Hansen", True, "Mor Hansen")
    assert anna.labels == ["ung"] and anna.contact_phone == "12345678"
    assert anna.notes == "Kørestol: bord ved gangen"


@pytest.fixture
def pairs(dm):
    return heat(dm, "par", "Par", [("Ida og Ole", 700, None, False)], discipline="pair")


def test_a_source_of_another_discipline_is_refused_with_a_sentence(heats, pairs, final, admin_user):
    with pytest.raises(ValidationError) as info:
        advance(competition=final, sources=["heat-a", "par"], best=1, by=admin_user)
    assert info.value.message_dict["from"] == [
        "»DM Par« er en anden disciplin: der går kun deltagere videre fra runder i samme disciplin."
    ]
    assert not Team.objects.filter(competition=final).exists()


def test_the_api_refuses_another_discipline_in_danish(api_as, admin_user, heats, pairs, final):
    r = api_as(admin_user).post(
        f"/api/v1/competitions/{final.slug}/advance",
        {"from": ["par"], "best": 1},
        format="json",
        HTTP_ACCEPT_LANGUAGE="da",
    )
    assert r.status_code == 400
    assert r.json()["from"] == [
        "»DM Par« er en anden disciplin: der går kun deltagere videre fra runder i samme disciplin."
    ]
    assert not Team.objects.filter(competition=final).exists()


def test_a_round_that_does_not_start_before_is_no_source(api_as, admin_user, dm, heats, final):
    """The final does not take entrants from a round after it (a later final's is its own)."""
    later = competition_create(
        by=None,
        slug="superfinale",
        name="DM Superfinale",
        starts_at=final.starts_at + timedelta(hours=2),
        championship=dm,
        discipline="individual",
        round="Superfinale",
    )
    r = api_as(admin_user).post(
        f"/api/v1/competitions/{final.slug}/advance",
        {"from": [later.slug], "best": 1},
        format="json",
        HTTP_ACCEPT_LANGUAGE="da",
    )
    assert r.status_code == 400
    assert r.json()["from"] == [
        "»DM Superfinale« starter ikke før »DM Finale«: der går kun deltagere videre fra "
        "tidligere runder."
    ]


def test_a_carried_fee_is_listed_once_for_refunds(client, make_user, dm, heats, final, admin_user):
    """P2: the person paid once; the championship's refunds list them where they paid, and
    the final's own list says it is the same fee. A fee first paid in the final is the
    final's."""
    Team.objects.filter(competition__slug="heat-a", name="Anna").update(fee_paid=True)
    advance(competition=final, sources=["heat-a"], best=2, by=admin_user)
    Team.objects.filter(competition=final, name="Bo").update(fee_paid=True)
    client.force_login(make_user("desk", "skranken"))
    across = client.get(reverse("desk:refunds", args=[dm.slug])).content.decode()
    assert "Deltagere, der har betalt: 2" in across
    anna = across[across.index("<td>Anna</td>") :].split("</tr>")[0]
    bo = across[across.index("<td>Bo</td>") :].split("</tr>")[0]
    assert "Indledende runde A" in anna and "DM Finale" in bo
    assert across.count("<td>Anna</td>") == 1 and across.count("<td>Bo</td>") == 1
    own = client.get(reverse("desk:refunds", args=[final.slug])).content.decode()
    row = own[own.index("<td>Anna</td>") :].split("</tr>")[0]
    assert "samme gebyr som betalt i DM Indledende runde A" in row
    row = own[own.index("<td>Bo</td>") :].split("</tr>")[0]
    assert "samme gebyr" not in row
