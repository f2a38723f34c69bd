"""The API for competitions, puzzles and teams: roles, status codes, privacy."""

import pytest
from django.utils import timezone

from competition.models import Competition, Team
from tests.factories import MemberFactory, TeamFactory

pytestmark = pytest.mark.django_db
BASE = "/api/v1/competitions/"
TEAMS = BASE + "dm-2026/teams/"


def test_competition_list_and_detail_are_public(api, competition):
    assert api.get(BASE).json()[0]["slug"] == "dm-2026"
    body = api.get(BASE + "dm-2026/").json()
    assert body["status"] == "setup"
    assert set(body["clock"]) == {
        "started_at",
        "ends_at",
        "stopped_at",
        "elapsed_seconds",
        "remaining_seconds",
    }
    assert body["clock"]["remaining_seconds"] == 180 * 60
    assert [p["pieces"] for p in body["puzzles"]] == [500, 1000, 1000]


def test_create_competition_admin_only(api_as, desk, admin_user):
    data = {
        "slug": "dm-2027",
        "name": "DM 2027",
        "starts_at": "2027-11-28T10:00:00+01:00",
        "duration_minutes": 180,
    }
    assert api_as(None).post(BASE, data, format="json").status_code in (401, 403)
    assert api_as(desk).post(BASE, data, format="json").status_code == 403
    response = api_as(admin_user).post(BASE, data, format="json")
    assert response.status_code == 201
    assert response.json()["id"] and response.json()["max_at_table"] == 4
    assert api_as(admin_user).post(BASE, data, format="json").status_code == 400  # slug taken


def test_puzzles_only_in_setup(api_as, admin_user, desk, competition):
    url = BASE + "dm-2026/puzzles/"
    assert api_as(desk).post(url, {"position": 4, "pieces": 500}, format="json").status_code == 403
    response = api_as(admin_user).post(
        url, {"position": 4, "title": "Nyt", "pieces": 500}, format="json"
    )
    assert response.status_code == 201 and response.json()["id"]
    assert (
        api_as(admin_user).post(url, {"position": 4, "pieces": 5}, format="json").status_code == 400
    )
    Competition.objects.filter(pk=competition.pk).update(started_at=timezone.now())
    response = api_as(admin_user).post(url, {"position": 5, "pieces": 500}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "already_started"
    assert competition.puzzles.count() == 4


def test_public_team_list_has_no_personal_data(api_as, competition, desk):
    team = TeamFactory(
        competition=competition, name="Kantsøgerne", table=1, contact_email="anne@example.dk"
    )
    MemberFactory(team=team, name="Ida Hemmelig", under_15=True, guardian="Mette Hemmelig")
    public = api_as(None).get(TEAMS)
    assert public.status_code == 200
    text = public.content.decode()
    assert "Kantsøgerne" in text
    assert "Hemmelig" not in text and "anne@example.dk" not in text
    assert "members" not in public.json()[0]
    detail = api_as(None).get(f"{TEAMS}{team.pk}/").content.decode()
    assert "Hemmelig" not in detail
    staff = api_as(desk).get(TEAMS).json()[0]
    assert staff["members"][0] == {
        "name": "Ida Hemmelig",
        "under_15": True,
        "guardian": "Mette Hemmelig",
    }
    assert staff["contact_email"] == "anne@example.dk"


@pytest.mark.parametrize("n", [5, 300])
def test_team_list_queries_do_not_grow(api_as, desk, competition, django_assert_max_num_queries, n):
    for i in range(n):
        MemberFactory(team=TeamFactory(competition=competition, table=i + 1))
    client = api_as(desk)
    with django_assert_max_num_queries(6):
        assert len(client.get(TEAMS).json()) == n


def test_create_team_roles_and_errors(api_as, judge, desk, competition):
    data = {
        "name": "Kantsøgerne",
        "table": 1,
        "members": [{"name": "Anne"}, {"name": "Ida", "under_15": True, "guardian": "Anne"}],
    }
    assert api_as(None).post(TEAMS, data, format="json").status_code in (401, 403)
    assert api_as(judge).post(TEAMS, data, format="json").status_code == 403
    response = api_as(desk).post(TEAMS, data, format="json")
    assert response.status_code == 201
    assert response.json()["id"] and len(response.json()["members"]) == 2
    dup = api_as(desk).post(TEAMS, {**data, "name": "KANTSØGERNE", "table": 2}, format="json")
    assert dup.status_code == 400 and "name" in dup.json()
    table = api_as(desk).post(TEAMS, {"name": "B", "table": 1}, format="json")
    assert table.status_code == 400 and "table" in table.json()
    u15 = api_as(desk).post(
        TEAMS,
        {"name": "C", "table": 3, "members": [{"name": "Alma", "under_15": True}]},
        format="json",
    )
    assert u15.status_code == 400 and "members" in u15.json()
    assert Team.objects.count() == 1


def test_patch_team(api_as, desk, judge, teams):
    url = f"{TEAMS}{teams[0].pk}/"
    assert api_as(judge).patch(url, {"checked_in": True}, format="json").status_code == 403
    response = api_as(desk).patch(url, {"checked_in": True, "fee_paid": True}, format="json")
    assert response.status_code == 200
    assert response.json()["checked_in"] is True and response.json()["fee_paid"] is True
    version = Competition.objects.get(pk=teams[0].competition_id).standings_version
    body = api_as(desk).patch(url, {"withdrawn": True}, format="json").json()
    assert body["withdrawn"] is True
    assert Competition.objects.get(pk=teams[0].competition_id).standings_version > version
    body = (
        api_as(desk)
        .patch(url, {"members": [{"name": "Ny"}], "name": "Hold Et"}, format="json")
        .json()
    )
    assert body["name"] == "Hold Et" and body["members"][0]["name"] == "Ny"
    # A failing field leaves the others unwritten (one transaction).
    bad = api_as(desk).patch(url, {"checked_in": False, "table": 2}, format="json")
    assert bad.status_code == 400
    assert Team.objects.get(pk=teams[0].pk).checked_in_at is not None
    other = Competition.objects.create(
        slug="other", name="O", starts_at=teams[0].competition.starts_at
    )
    assert (
        api_as(desk).patch(f"{BASE}other/teams/{teams[0].pk}/", {}, format="json").status_code
        == 404
    )
    assert other.pk


def test_final_answers_409(api_as, desk, teams):
    Competition.objects.filter(pk=teams[0].competition_id).update(
        started_at=timezone.now(), finalised_at=timezone.now()
    )
    response = api_as(desk).patch(f"{TEAMS}{teams[0].pk}/", {"checked_in": True}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "final"


def test_schema_lists_the_endpoints(api):
    text = api.get("/api/schema/").content.decode()
    assert "/api/v1/competitions/{slug}/teams/{id}/" in text
