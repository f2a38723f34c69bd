"""GET /api/v1/competitions/{slug}/standings: body, ETag, 304, Cache-Control."""

import pytest

from scoring.selectors import memo_clear
from tests.factories import MemberFactory, TeamFactory
from tests.scoring.standings_data import finish, many_teams, running_competition

URL = "/api/v1/competitions/{}/standings"


@pytest.fixture
def live(db):
    c, (p1, p2, p3) = running_competition()
    a = TeamFactory(competition=c, name="Kantsøgerne", table=7, contact_name="Gudrun Kontaktsen")
    b = TeamFactory(competition=c, name="Brikkebanden", table=8)
    MemberFactory(team=a, name="Ottilie Hemmeligsen", under_15=True, guardian="Valdemar Værgesen")
    finish(a, p1, 1800, missing=[1])
    finish(b, p1, 1900)
    return c, a, b


def test_body_is_exactly_the_design(api, live):
    c, a, b = live
    response = api.get(URL.format(c.slug))
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"competition", "status", "final", "puzzles", "standings"}
    assert body["competition"] == "dm-live" and body["status"] == "running"
    assert body["final"] is False
    assert body["puzzles"][0] == {"position": 1, "title": "Motiv 1", "pieces": 500}
    assert body["standings"][0] == {
        "rank": 1,
        "team": {"id": b.pk, "name": "Brikkebanden", "table": 8},
        "pieces": 500,
        "finished": 1,
        "last_finish_seconds": 1900,
        "finishes": [{"puzzle": 1, "elapsed_seconds": 1900, "deducted": 0}],
        "counted": None,
        "disqualified": False,
        "under_review": False,
    }
    assert body["standings"][1]["pieces"] == 499


def test_no_personal_data_in_the_answer(api, live):
    c, a, b = live
    text = api.get(URL.format(c.slug)).content.decode()
    for secret in ("Gudrun", "Ottilie", "Valdemar", "example"):
        assert secret not in text


def test_etag_and_304_with_at_most_one_small_query(api, live, django_assert_max_num_queries):
    c, a, b = live
    first = api.get(URL.format(c.slug))
    etag = first["ETag"]
    assert etag and str(c.pk) in etag
    assert first["Cache-Control"] == "public, max-age=1"
    memo_clear()  # the worst case: this process has not read the version for a second
    with django_assert_max_num_queries(1):
        again = api.get(URL.format(c.slug), HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again["ETag"] == etag and again.content == b""
    assert api.get(URL.format(c.slug), HTTP_IF_NONE_MATCH='"other", ' + etag).status_code == 304


def test_a_change_gives_a_new_etag_and_the_new_standings(api, live):
    c, a, b = live
    etag = api.get(URL.format(c.slug))["ETag"]
    finish(a, c.puzzles.get(position=2), 3000)
    c.bump_standings()
    memo_clear()
    response = api.get(URL.format(c.slug), HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200 and response["ETag"] != etag
    assert response.json()["standings"][0]["team"]["name"] == "Kantsøgerne"


@pytest.mark.parametrize("n", [5, 300])
def test_queries_do_not_grow_with_the_teams(api, db, n, django_assert_max_num_queries, memo_clock):
    c, puzzles = running_competition(pieces=(500,) * 8)
    many_teams(c, puzzles, n)
    with django_assert_max_num_queries(4):
        response = api.get(URL.format(c.slug))
    assert len(response.json()["standings"]) == n
    with django_assert_max_num_queries(0):  # cached, and the version read this second
        assert api.get(URL.format(c.slug)).status_code == 200


def test_unknown_competition_is_404(api, db):
    assert api.get(URL.format("ingen")).status_code == 404


def test_broken_data_keeps_the_last_good_answer_and_staff_see_the_error(api, live, admin_user):
    c, a, b = live
    good = api.get(URL.format(c.slug)).json()
    finish(b, c.puzzles.get(position=3), 5000)  # skips puzzle 2 (R7)
    c.bump_standings()
    memo_clear()
    response = api.get(URL.format(c.slug))
    assert response.status_code == 200 and response.json() == good
    from rest_framework.test import APIClient

    from competition.services import staff_token_issue

    token = staff_token_issue(user=admin_user)
    by_token = APIClient().get(URL.format(c.slug), HTTP_AUTHORIZATION=f"Token {token}")
    by_session = APIClient()
    by_session.force_login(admin_user)
    for staff in (by_token, by_session.get(URL.format(c.slug))):
        assert staff.status_code == 200
        assert staff.json()["error"]["code"] == "out_of_order"
        assert staff["Cache-Control"] == "private, no-cache"


def test_the_schema_documents_the_endpoint(api, db):
    response = api.get("/api/schema/", HTTP_ACCEPT="application/json")
    text = response.content.decode()
    assert response.status_code == 200
    assert "/api/v1/competitions/{slug}/standings" in text and "under_review" in text
