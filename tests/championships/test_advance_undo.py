"""Taking an advance back before the round starts (issue 33, item 3): `advance_undo` removes the
entrants the advance made and only those, audited in one entry; refused once the round's
clock has started (409 `already_started`) and when nothing went on (409 `nothing_advanced`,
also for an undo sent twice); then the same or another advance can be made again. The API:
`DELETE competitions/{slug}/advance` (admin)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from championships.services import advance, advance_undo
from competition.audit_text import sentence
from competition.errors import Refusal
from competition.models import AuditEntry, Competition, Member, Team
from competition.services import clock_start, competition_erase_personal_data
from judging.models import Finish
from tests.factories import PuzzleFactory

pytestmark = pytest.mark.django_db

BODY = {"from": ["heat-a", "heat-b"], "best": 2}


def url(competition) -> str:
    return f"/api/v1/competitions/{competition.slug}/advance"


def entrants(final) -> list[str]:
    teams = Team.objects.filter(competition=final).order_by("table")
    return list(teams.values_list("name", flat=True))


def test_the_undo_removes_what_the_advance_made_and_only_that(heats, final, admin_user):
    a, b = heats
    wildcard = Team.objects.create(competition=final, name="Forsvarende mester", table=1)
    advance(competition=final, sources=BODY["from"], best=2, by=admin_user)
    assert entrants(final) == ["Forsvarende mester", "Eva", "Anna", "Bo", "Finn"]
    version = Competition.objects.get(pk=final.pk).standings_version

    removed = advance_undo(competition=final, by=admin_user)

    assert [r.team.name for r in removed] == ["Eva", "Anna", "Bo", "Finn"]
    assert [r.source for r in removed] == [b, a, a, b]
    assert entrants(final) == ["Forsvarende mester"]
    assert Team.objects.get(pk=wildcard.pk)
    assert not Member.objects.filter(team__competition=final).exists()
    # The heats never change; the board of the final moves on.
    assert Team.objects.filter(competition__in=heats).count() == 8
    assert Competition.objects.get(pk=final.pk).standings_version > version
    # One entry says what was taken back, in Danish; the advance's own entries stay.
    entry = AuditEntry.objects.get(competition=final, action="advance_undo")
    assert entry.user == admin_user
    assert [e["name"] for e in entry.before["entrants"]] == ["Eva", "Anna", "Bo", "Finn"]
    # What the final's desk had set on them is kept in the log.
    assert {"fee_paid", "checked_in_at", "table", "from"} <= set(entry.before["entrants"][0])
    assert sentence(entry).endswith(
        "fortrød videregangen: 4 deltagere fjernet (Eva, Anna, Bo, Finn)"
    )
    assert AuditEntry.objects.filter(competition=final, action="team_advance").count() == 4


def test_after_the_undo_the_same_or_another_advance_is_made_again(heats, final, admin_user):
    advance(competition=final, sources=BODY["from"], best=2, by=admin_user)
    advance_undo(competition=final, by=admin_user)
    again = advance(competition=final, sources=BODY["from"], best=2, by=admin_user)
    assert [a.team.name for a in again] == ["Eva", "Anna", "Bo", "Finn"]
    advance_undo(competition=final, by=admin_user)
    other = advance(competition=final, sources=["heat-a"], best=3, by=admin_user)
    assert [a.team.name for a in other] == ["Anna", "Bo", "Cille"]
    assert entrants(final) == ["Anna", "Bo", "Cille"]
    assert AuditEntry.objects.filter(competition=final, action="advance").count() == 3
    assert AuditEntry.objects.filter(competition=final, action="advance_undo").count() == 2


def test_an_undo_after_the_clock_started_is_refused(heats, final, admin_user):
    advance(competition=final, sources=BODY["from"], best=2, by=admin_user)
    PuzzleFactory(competition=final, position=1, pieces=500)
    Competition.objects.filter(pk=final.pk).update(starts_at=timezone.now())
    clock_start(competition=final, by=admin_user)
    with pytest.raises(Refusal) as info:
        advance_undo(competition=final, by=admin_user)
    assert info.value.code == "already_started"
    assert str(info.value.message) == (
        "Uret i »DM Finale« er startet; deltagerne kan ikke længere ændres."
    )
    assert len(entrants(final)) == 4
    assert not AuditEntry.objects.filter(competition=final, action="advance_undo").exists()


def test_an_undo_when_a_finalist_has_a_result_is_refused(heats, final, admin_user):
    went_on = advance(competition=final, sources=BODY["from"], best=2, by=admin_user)
    puzzle = PuzzleFactory(competition=final, position=1, pieces=500)
    Finish.objects.create(team=went_on[0].team, puzzle=puzzle, elapsed_seconds=60)
    with pytest.raises(Refusal) as info:
        advance_undo(competition=final, by=admin_user)
    assert info.value.code == "already_started"
    assert len(entrants(final)) == 4


def test_an_undo_sent_twice_says_there_is_nothing_to_take_back(heats, final, admin_user):
    advance(competition=final, sources=BODY["from"], best=2, by=admin_user)
    advance_undo(competition=final, by=admin_user)
    with pytest.raises(Refusal) as info:
        advance_undo(competition=final, by=admin_user)
    assert info.value.code == "nothing_advanced"
    assert str(info.value.message) == (
        "Ingen er gået videre til »DM Finale« fra en tidligere runde: der er intet at fortryde."
    )
    assert AuditEntry.objects.filter(competition=final, action="advance_undo").count() == 1


def test_an_undo_of_a_final_round_refuses_final_first(heats, final, admin_user):
    advance(competition=final, sources=BODY["from"], best=2, by=admin_user)
    Competition.objects.filter(pk=final.pk).update(
        started_at=timezone.now() - timedelta(hours=2), finalised_at=timezone.now()
    )
    with pytest.raises(Refusal) as info:
        advance_undo(competition=final, by=admin_user)
    assert info.value.code == "final"
    assert len(entrants(final)) == 4


def test_the_api_takes_the_advance_back_and_refuses_twice(api_as, admin_user, heats, final):
    api = api_as(admin_user)
    made = api.post(url(final), BODY, format="json").json()["entrants"]
    r = api.delete(url(final))
    assert r.status_code == 200, r.content
    assert r.json() == {"removed": made}  # by table: the order they went on in
    assert entrants(final) == []
    again = api.delete(url(final), HTTP_ACCEPT_LANGUAGE="da")
    assert again.status_code == 409
    assert again.json()["code"] == "nothing_advanced"
    assert again.json()["detail"].startswith("Ingen er gået videre til »DM Finale«")
    assert api.post(url(final), BODY, format="json").status_code == 200
    assert len(entrants(final)) == 4


def test_the_api_refuses_an_undo_after_the_start(api_as, admin_user, heats, final):
    api = api_as(admin_user)
    api.post(url(final), BODY, format="json")
    Competition.objects.filter(pk=final.pk).update(started_at=timezone.now())
    r = api.delete(url(final))
    assert (r.status_code, r.json()["code"]) == (409, "already_started")
    assert len(entrants(final)) == 4


@pytest.mark.parametrize("role", [None, "judge", "desk"])
def test_only_the_head_judge_takes_an_advance_back(
    api_as, make_user, admin_user, heats, final, role
):
    advance(competition=final, sources=BODY["from"], best=2, by=admin_user)
    user = make_user(role, f"u-{role}") if role else None
    r = api_as(user).delete(url(final))
    assert r.status_code in (401, 403)
    assert len(entrants(final)) == 4


def test_erasing_a_heat_erases_the_copies_an_undone_advance_left_in_the_final(
    heats, final, admin_user
):
    """The final's audit log keeps what went on (members, notes) after the undo: erasing the
    heat erases them there too, as it does while the entrants are in the final."""
    a, _b = heats
    Team.objects.filter(competition=a, name="Anna").update(notes="Kørestol ved bord 1")
    advance(competition=final, sources=["heat-a"], best=1, by=admin_user)
    advance_undo(competition=final, by=admin_user)
    Competition.objects.filter(pk=final.pk).update(
        started_at=timezone.now() - timedelta(hours=4), finalised_at=timezone.now()
    )
    competition_erase_personal_data(competition=a, by=admin_user)
    texts = str(list(AuditEntry.objects.filter(competition=final).values("before", "after")))
    assert "Anna Hansen" not in texts and "Kørestol" not in texts
