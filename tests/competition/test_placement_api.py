"""The API of where a competition belongs (issue 33 item 1): `PATCH competitions/{slug}/`
takes `championship`, `discipline` and `round` through the pages' service, `DELETE
competitions/{slug}/` deletes one made by mistake and `DELETE championships/{slug}/` an
empty championship (admin); every refusal a 409 with its code and a sentence, writing
nothing."""

from datetime import timedelta

import pytest
from django.utils import timezone

from competition.models import AuditEntry, Championship, Competition, Team
from competition.services import championship_create, competition_create
from tests.factories import TeamFactory

pytestmark = pytest.mark.django_db
BASE = "/api/v1/competitions/"
START = timezone.now() + timedelta(days=3)


@pytest.fixture
def dm(admin_user):
    dm = championship_create(by=admin_user, slug="dm-2027", name="DM 2027")
    heat = competition_create(
        by=admin_user, slug="heat-a", name="Heat A", starts_at=START, championship=dm
    )
    TeamFactory(competition=heat, name="Anna", table=3)
    return dm


@pytest.fixture
def stray(admin_user):
    stray = competition_create(by=admin_user, slug="stray", name="Stray", starts_at=START)
    TeamFactory(competition=stray, name="Bo", table=4)
    return stray


def test_patch_moves_it_and_sets_its_discipline_and_round(api_as, admin_user, dm, stray):
    api = api_as(admin_user)
    body = {"championship": "dm-2027", "discipline": "pair", "round": "Indledende runde B"}
    response = api.patch(BASE + "stray/", body, format="json")
    assert response.status_code == 200, response.content
    answer = response.json()
    assert (answer["championship"], answer["discipline"], answer["round"]) == (
        "dm-2027",
        "pair",
        "Indledende runde B",
    )
    assert answer["max_at_table"] == 2
    assert AuditEntry.objects.filter(competition=stray, action="competition_placement").exists()
    # and out again: null is a championship of its own
    answer = api.patch(BASE + "stray/", {"championship": None}, format="json").json()
    assert answer["championship"] == "stray"
    assert [
        c["slug"] for c in api.get("/api/v1/championships/dm-2027/").json()["competitions"]
    ] == ["heat-a"]


def test_patch_refusals(api_as, admin_user, dm, stray, state):
    api = api_as(admin_user)
    unknown = api.patch(BASE + "stray/", {"championship": "ingen"}, format="json")
    assert unknown.status_code == 400
    assert unknown.json()["championship"] == ["Der er intet mesterskab med det korte navn »ingen«."]
    Team.objects.filter(competition=stray).update(table=3)  # Anna's table, at the same time
    before = state()
    clash = api.patch(BASE + "stray/", {"championship": "dm-2027"}, format="json")
    assert clash.status_code == 400 and "Anna" in clash.json()["championship"][0]
    assert state() == before
    Competition.objects.filter(pk=stray.pk).update(started_at=timezone.now())
    before = state()
    for body in ({"championship": "dm-2027"}, {"discipline": "pair"}, {"round": "Finale"}):
        refused = api.patch(BASE + "stray/", {**body, "ranking": "wjpc"}, format="json")
        assert refused.status_code == 409
        assert refused.json()["code"] == "started"
    # the ranking is refused first; alone, the placement says its own sentence
    refused = api.patch(BASE + "stray/", {"round": "Finale"}, format="json")
    assert refused.json() == {
        "detail": "Uret er startet; mesterskabet, disciplinen og runden kan ikke længere ændres.",
        "code": "started",
    }
    assert state() == before


def test_a_refused_placement_takes_the_ranking_back_too(api_as, admin_user, dm, stray, state):
    Team.objects.filter(competition=stray).update(table=3)
    before = state()
    response = api_as(admin_user).patch(
        BASE + "stray/", {"ranking": "wjpc", "championship": "dm-2027"}, format="json"
    )
    assert response.status_code == 400
    assert state() == before  # all or nothing


def test_delete_before_the_start_and_not_after(api_as, admin_user, dm, stray):
    api = api_as(admin_user)
    assert api.delete(BASE + "stray/").status_code == 204
    assert not Competition.objects.filter(slug="stray").exists()
    assert not Championship.objects.filter(slug="stray").exists()
    assert api.get(BASE + "stray/").status_code == 404
    Competition.objects.filter(slug="heat-a").update(started_at=timezone.now())
    refused = api.delete(BASE + "heat-a/")
    assert refused.status_code == 409
    assert refused.json() == {
        "detail": "Uret er startet; konkurrencen kan ikke længere slettes.",
        "code": "started",
    }
    assert Team.objects.filter(name="Anna").exists()


def test_an_empty_championship_is_deleted_and_one_with_competitions_is_not(api_as, admin_user, dm):
    api = api_as(admin_user)
    refused = api.delete("/api/v1/championships/dm-2027/")
    assert refused.status_code == 409 and refused.json()["code"] == "has_competitions"
    assert api.delete(BASE + "heat-a/").status_code == 204
    assert api.delete("/api/v1/championships/dm-2027/").status_code == 204
    assert api.get("/api/v1/championships/dm-2027/").status_code == 404


@pytest.mark.parametrize("role", [None, "judge", "desk"])
def test_only_an_admin_moves_or_deletes(api_as, make_user, dm, stray, role):
    api = api_as(make_user(role, f"u-{role}") if role else None)
    assert api.patch(BASE + "stray/", {"round": "B"}, format="json").status_code == 403
    assert api.delete(BASE + "stray/").status_code == 403
    assert api.delete("/api/v1/championships/dm-2027/").status_code == 403
    assert Competition.objects.get(slug="stray").round == ""
    assert Championship.objects.filter(slug="dm-2027").exists()
