"""The championship API (docs/contracts.md "A championship of several competitions"):
create and read championships, and competitions made in one with a discipline and a round."""

import pytest

from competition.models import Championship, Competition
from tests.factories import CompetitionFactory

pytestmark = pytest.mark.django_db

STARTS = "2027-03-01T10:00:00+01:00"


def post(api, path, body):
    return api.post(path, body, format="json")


def test_an_admin_makes_a_championship(api_as, admin_user):
    r = post(api_as(admin_user), "/api/v1/championships/", {"slug": "dm-2027", "name": "DM 2027"})
    assert r.status_code == 201, r.content
    assert r.json() == {
        "slug": "dm-2027",
        "name": "DM 2027",
        "venue": "",
        "starts_on": None,
        "ends_on": None,
        "competitions": [],
    }


@pytest.mark.parametrize("role", [None, "judge", "desk"])
def test_only_an_admin_makes_a_championship(api_as, make_user, role):
    user = make_user(role, f"u-{role}") if role else None
    r = post(api_as(user), "/api/v1/championships/", {"slug": "dm-2027", "name": "DM 2027"})
    assert r.status_code in (401, 403)
    assert not Championship.objects.filter(slug="dm-2027").exists()


def test_a_championship_may_not_take_a_competitions_short_name(api_as, admin_user):
    CompetitionFactory(slug="heat-a", name="Indledende runde A")
    r = post(api_as(admin_user), "/api/v1/championships/", {"slug": "heat-a", "name": "DM"})
    assert r.status_code == 400
    assert "Indledende runde A" in r.json()["slug"][0]


def test_a_championships_short_name_is_checked(api_as, admin_user):
    r = post(api_as(admin_user), "/api/v1/championships/", {"slug": "desk", "name": "DM"})
    assert r.status_code == 400 and r.json()["slug"]


def test_competitions_made_in_a_championship_are_listed_with_it(api_as, admin_user):
    api = api_as(admin_user)
    post(api, "/api/v1/championships/", {"slug": "dm-2027", "name": "DM 2027", "venue": "Odense"})
    for slug, discipline, round_ in [
        ("heat-a", "individual", "Indledende runde A"),
        ("par", "pair", ""),
    ]:
        r = post(
            api,
            "/api/v1/competitions/",
            {
                "slug": slug,
                "name": slug,
                "starts_at": STARTS,
                "championship": "dm-2027",
                "discipline": discipline,
                "round": round_,
            },
        )
        assert r.status_code == 201, r.content
    answer = api_as(None).get("/api/v1/championships/dm-2027/").json()
    assert answer["venue"] == "Odense"
    assert answer["competitions"] == [
        {
            "slug": "heat-a",
            "name": "heat-a",
            "discipline": "individual",
            "round": "Indledende runde A",
            "status": "setup",
        },
        {"slug": "par", "name": "par", "discipline": "pair", "round": "", "status": "setup"},
    ]
    heat = api_as(None).get("/api/v1/competitions/heat-a/").json()
    assert (heat["championship"], heat["discipline"], heat["round"]) == (
        "dm-2027",
        "individual",
        "Indledende runde A",
    )
    assert heat["max_at_table"] == 1  # the discipline's table limit
    assert api_as(None).get("/api/v1/competitions/par/").json()["max_at_table"] == 2


def test_a_competition_made_alone_shows_its_own_championship(api_as, admin_user):
    r = post(
        api_as(admin_user),
        "/api/v1/competitions/",
        {"slug": "dm-2026", "name": "DM 2026", "starts_at": STARTS},
    )
    assert r.status_code == 201
    body = r.json()
    assert (body["championship"], body["discipline"], body["round"], body["max_at_table"]) == (
        "dm-2026",
        "team",
        "",
        4,
    )
    own = api_as(None).get("/api/v1/championships/dm-2026/").json()
    assert [c["slug"] for c in own["competitions"]] == ["dm-2026"]


def test_an_unknown_championship_or_discipline_is_refused_with_a_sentence(api_as, admin_user):
    body = {"slug": "x", "name": "X", "starts_at": STARTS}
    r = post(api_as(admin_user), "/api/v1/competitions/", {**body, "championship": "nope"})
    assert r.status_code == 400
    assert "nope" in r.json()["championship"][0]
    r = post(api_as(admin_user), "/api/v1/competitions/", {**body, "discipline": "quartet"})
    assert r.status_code == 400 and r.json()["discipline"]
    assert not Competition.objects.filter(slug="x").exists()


def test_a_competition_may_not_take_a_championships_short_name(api_as, admin_user):
    api = api_as(admin_user)
    post(api, "/api/v1/championships/", {"slug": "dm-2027", "name": "DM 2027"})
    r = post(api, "/api/v1/competitions/", {"slug": "dm-2027", "name": "X", "starts_at": STARTS})
    assert r.status_code == 400
    assert "DM 2027" in r.json()["slug"][0]


def test_an_unknown_championship_is_404(api):
    assert api.get("/api/v1/championships/nope/").status_code == 404


def _championships(n_championships, n_competitions):
    for i in range(n_championships):
        c = Championship.objects.create(slug=f"m-{n_championships}-{i}", name=f"M {i}")
        for j in range(n_competitions):
            CompetitionFactory(championship=c, slug=f"c-{n_championships}-{i}-{j}")


def test_reads_take_the_same_queries_whatever_the_number_of_competitions(
    api, django_assert_max_num_queries
):
    _championships(1, 1)
    with django_assert_max_num_queries(2):
        assert api.get("/api/v1/championships/").status_code == 200
    with django_assert_max_num_queries(2):
        assert api.get("/api/v1/championships/m-1-0/").status_code == 200
    _championships(5, 6)
    with django_assert_max_num_queries(2):
        rows = api.get("/api/v1/championships/").json()
    assert sum(len(r["competitions"]) for r in rows) == 31
    with django_assert_max_num_queries(2):
        assert len(api.get("/api/v1/championships/m-5-4/").json()["competitions"]) == 6
