"""The judges' HTTP API: roles, status codes, refusals, idempotency (docs/contracts.md)."""

import uuid
from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from competition.models import AuditEntry, Competition
from judging.models import Count, Finish, Warning
from judging.services import count_record, finish_register
from tests.factories import CompetitionFactory, PuzzleFactory, TeamFactory

pytestmark = pytest.mark.django_db

BASE = "/api/v1/competitions/dm-2026"


def finalise(competition):
    Competition.objects.filter(pk=competition.pk).update(finalised_at=timezone.now())


# --- roles -----------------------------------------------------------------------------


def _endpoints(competition, teams, judge):
    """(method, url, body, roles allowed) for every endpoint; each call is valid for them."""
    finish = finish_register(team=teams[2], position=1, by=judge, elapsed_seconds=600)
    team = teams[0].pk
    return [
        ("get", f"{BASE}/finishes/", None, {"judge", "admin"}),
        ("post", f"{BASE}/finishes/", {"team": team, "puzzle": 1}, {"judge", "admin"}),
        (
            "patch",
            f"{BASE}/finishes/{finish.pk}/",
            {"missing": [1], "reason": "Talt igen"},
            {"judge", "admin"},
        ),
        ("delete", f"{BASE}/finishes/{finish.pk}/", None, {"judge", "admin"}),
        ("post", f"{BASE}/teams/{team}/warnings/", {"reason": "Larm"}, {"judge", "admin"}),
        ("post", f"{BASE}/teams/{team}/disqualify", {"reason": "R18"}, {"admin"}),
        ("post", f"{BASE}/clock/stop", {}, {"admin"}),
    ]


@pytest.mark.parametrize("who", ["anonymous", "nobody", "desk", "judge", "admin"])
def test_each_role_on_each_endpoint_while_running(
    who, running, teams, judge, desk, admin_user, make_user, api, api_as, state
):
    user = {
        "anonymous": None,
        "nobody": make_user(None),
        "desk": desk,
        "judge": judge,
        "admin": admin_user,
    }[who]
    for method, url, body, allowed in _endpoints(running, teams, judge):
        client = api_as(user)
        before = state()
        response = getattr(client, method)(url, body, format="json")
        if who in allowed:
            assert response.status_code in (200, 201, 204), (method, url, response.data)
        else:
            expected = (401, 403) if who == "anonymous" else (403,)
            assert response.status_code in expected, (who, method, url)
            assert state() == before, (who, method, url)


@pytest.mark.parametrize("who", ["anonymous", "desk", "judge", "admin"])
def test_roles_on_clock_start_count_and_reinstate(
    who, competition, teams, judge, desk, admin_user, api_as, state, start_clock
):
    user = {"anonymous": None, "desk": desk, "judge": judge, "admin": admin_user}[who]
    client = api_as(user)
    before = state()
    response = client.post(f"{BASE}/clock/start", {}, format="json")
    if who == "admin":
        assert response.status_code == 200
        Competition.objects.filter(pk=competition.pk).update(
            started_at=timezone.now() - timedelta(hours=4)
        )
    else:
        assert response.status_code in ((401, 403) if user is None else (403,))
        assert state() == before
        start_clock(competition, ago=timedelta(hours=4))

    from judging.services import team_disqualify

    team_disqualify(team=teams[1], by=admin_user, reason="Hjælp udefra")
    count = count_record(team=teams[2], by=judge, pieces=100)
    calls = [
        ("post", f"{BASE}/counts/", {"team": teams[0].pk, "pieces": 40}, {"judge", "admin"}),
        ("patch", f"{BASE}/counts/{count.pk}/", {"pieces": 90, "reason": "x"}, {"judge", "admin"}),
        ("post", f"{BASE}/teams/{teams[1].pk}/reinstate", {}, {"admin"}),
    ]
    for method, url, body, allowed in calls:
        before = state()
        response = getattr(client, method)(url, body, format="json")
        if who in allowed:
            assert response.status_code in (200, 201), (url, response.data)
        else:
            assert response.status_code in ((401, 403) if user is None else (403,)), url
            assert state() == before


def test_token_auth(running, teams, judge, api):
    from competition.services import staff_token_issue

    api.credentials(HTTP_AUTHORIZATION=f"Token {staff_token_issue(user=judge)}")
    response = api.post(f"{BASE}/finishes/", {"team": teams[0].pk, "puzzle": 1}, format="json")
    assert response.status_code == 201


def test_session_needs_csrf(running, teams, judge, client, state):
    client.force_login(judge)
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(judge)
    before = state()
    response = strict.post(
        f"{BASE}/finishes/", {"team": teams[0].pk, "puzzle": 1}, content_type="application/json"
    )
    assert response.status_code == 403
    assert state() == before


# --- finishes --------------------------------------------------------------------------


class TestFinishes:
    def test_register_answer(self, running, teams, api_as, judge):
        response = api_as(judge).post(
            f"{BASE}/finishes/",
            {"team": teams[0].pk, "puzzle": 1, "missing": [1, 3], "elapsed_seconds": 2472},
            format="json",
        )
        assert response.status_code == 201
        body = response.json()
        assert {k: body[k] for k in ("team", "puzzle", "elapsed_seconds", "missing")} == {
            "team": teams[0].pk,
            "puzzle": 1,
            "elapsed_seconds": 2472,
            "missing": [1, 3],
        }
        assert body["deducted"] == 1
        assert body["registered_by"] == "mette"
        assert body["id"] == Finish.objects.get().pk

    def test_time_defaults_to_the_clock(self, running, teams, api_as, judge):
        response = api_as(judge).post(
            f"{BASE}/finishes/", {"team": teams[0].pk, "puzzle": 1}, format="json"
        )
        assert abs(response.json()["elapsed_seconds"] - 7200) <= 2

    def test_idempotent_replay(self, running, teams, api_as, judge, state):
        client = api_as(judge)
        body = {"team": teams[0].pk, "puzzle": 1, "missing": [1], "request_id": str(uuid.uuid4())}
        first = client.post(f"{BASE}/finishes/", body, format="json")
        assert first.status_code == 201
        assert "Idempotent-Replayed" not in first.headers
        before = state()
        again = client.post(f"{BASE}/finishes/", body, format="json")
        assert again.status_code == 200
        assert again.headers["Idempotent-Replayed"] == "true"
        assert again.json() == first.json()
        assert state() == before
        assert Finish.objects.count() == 1
        changed = client.post(f"{BASE}/finishes/", {**body, "missing": [2]}, format="json")
        assert changed.status_code == 422
        assert changed.json()["code"] == "idempotency_conflict"
        assert changed.json()["detail"]
        assert state() == before

    def test_replay_after_the_clock_ended(self, running, teams, api_as, judge, admin_user):
        # The answer was lost; the tablet resends after time is up: still the first answer.
        client = api_as(judge)
        body = {"team": teams[0].pk, "puzzle": 1, "request_id": str(uuid.uuid4())}
        first = client.post(f"{BASE}/finishes/", body, format="json").json()
        from competition.services import clock_stop

        clock_stop(competition=running, by=admin_user)
        again = client.post(f"{BASE}/finishes/", body, format="json")
        assert (again.status_code, again.json()) == (200, first)

    @pytest.mark.parametrize(
        ("body", "field"),
        [
            ({"team": "abc", "puzzle": 1}, "team"),
            ({"puzzle": 1}, "team"),
            ({"team": 0, "puzzle": "first"}, "puzzle"),
            ({"team": 0, "puzzle": 1, "missing": ["x"]}, "missing"),
            ({"team": 0, "puzzle": 1, "missing": 3}, "missing"),
            ({"team": 0, "puzzle": 1, "missing": [0]}, "missing"),
            ({"team": 0, "puzzle": 1, "missing": [-2]}, "missing"),
            ({"team": 0, "puzzle": 1, "missing": [400, 101]}, "missing"),
            ({"team": 0, "puzzle": 4}, "puzzle"),
            ({"team": 0, "puzzle": 0}, "puzzle"),
            ({"team": 0, "puzzle": 1, "elapsed_seconds": "soon"}, "elapsed_seconds"),
            ({"team": 0, "puzzle": 1, "elapsed_seconds": -5}, "elapsed_seconds"),
            ({"team": 0, "puzzle": 1, "request_id": "not-a-uuid"}, "request_id"),
            ({"team": "other", "puzzle": 1}, "team"),
        ],
    )
    def test_400_for_what_could_never_be_right(
        self, running, teams, api_as, judge, state, body, field
    ):
        other = TeamFactory(competition=CompetitionFactory(), table=9)
        if body.get("team") == 0:
            body = {**body, "team": teams[0].pk}
        if body.get("team") == "other":
            body = {**body, "team": other.pk}
        before = state()
        response = api_as(judge).post(f"{BASE}/finishes/", body, format="json")
        assert response.status_code == 400
        assert field in response.json()
        assert state() == before

    def test_409_codes(self, running, teams, api_as, judge, admin_user, state):
        client = api_as(judge)

        def refused(code, body):
            before = state()
            response = client.post(f"{BASE}/finishes/", body, format="json")
            assert response.status_code == 409, response.json()
            assert response.json()["code"] == code
            assert response.json()["detail"]
            assert state() == before
            return response.json()

        t0, t1, t2 = (t.pk for t in teams)
        refused("out_of_order", {"team": t0, "puzzle": 2})
        refused("in_future", {"team": t0, "puzzle": 1, "elapsed_seconds": 7300})
        client.post(f"{BASE}/finishes/", {"team": t0, "puzzle": 1, "elapsed_seconds": 3000})
        body = refused("already_finished", {"team": t0, "puzzle": 1})
        assert "Registreret af mette kl. " in body["detail"]
        refused("time_order", {"team": t0, "puzzle": 2, "elapsed_seconds": 2000})
        teams[1].withdrawn = True
        teams[1].save()
        refused("not_competing", {"team": t1, "puzzle": 1})
        from competition.services import clock_stop

        clock_stop(competition=running, by=admin_user)
        refused("after_end", {"team": t2, "puzzle": 1})
        refused("after_end", {"team": t2, "puzzle": 1, "elapsed_seconds": 7300})
        finalise(running)
        refused("final", {"team": t2, "puzzle": 1, "elapsed_seconds": 60})

    def test_clock_not_started(self, competition, teams, api_as, judge, state):
        before = state()
        response = api_as(judge).post(
            f"{BASE}/finishes/", {"team": teams[0].pk, "puzzle": 1}, format="json"
        )
        assert (response.status_code, response.json()["code"]) == (409, "clock_not_started")
        assert state() == before

    def test_second_judge_is_told_who_and_when(self, running, teams, api_as, make_user, judge):
        api_as(judge).post(f"{BASE}/finishes/", {"team": teams[0].pk, "puzzle": 1}, format="json")
        other = make_user("judge", "jens")
        response = api_as(other).post(
            f"{BASE}/finishes/",
            {"team": teams[0].pk, "puzzle": 1},
            format="json",
            HTTP_ACCEPT_LANGUAGE="en",
        )
        assert response.status_code == 409
        assert "Registered by mette at " in response.json()["detail"]
        response = api_as(other).post(
            f"{BASE}/finishes/", {"team": teams[0].pk, "puzzle": 1}, format="json"
        )
        assert "Registreret af mette kl. " in response.json()["detail"]

    @override_settings(PLAUSIBLE_PIECES_PER_MINUTE_PER_PUZZLER=15)
    def test_implausible_asks_to_confirm(self, running, teams, api_as, judge, state):
        client = api_as(judge)
        body = {"team": teams[0].pk, "puzzle": 1, "elapsed_seconds": 600}
        before = state()
        response = client.post(f"{BASE}/finishes/", body, format="json")
        assert response.status_code == 409
        answer = response.json()
        assert answer["code"] == "implausible"
        assert "50,0 brikker pr. minut pr. pusler" in answer["detail"]
        assert answer["plausibility"]["pieces_per_minute_per_puzzler"] == 50.0
        assert state() == before
        confirmed = client.post(
            f"{BASE}/finishes/", {**body, "confirm_implausible": True}, format="json"
        )
        assert confirmed.status_code == 201

    def test_list_and_filter(self, running, teams, api_as, judge, django_assert_max_num_queries):
        for i, team in enumerate(teams):
            finish_register(team=team, position=1, by=judge, elapsed_seconds=1000 + i)
        finish_register(team=teams[0], position=2, by=judge, elapsed_seconds=4000)
        client = api_as(judge)
        with django_assert_max_num_queries(6):
            everything = client.get(f"{BASE}/finishes/").json()
        assert [(f["table"], f["puzzle"]) for f in everything] == [(1, 1), (1, 2), (2, 1), (3, 1)]
        mine = client.get(f"{BASE}/finishes/", {"team": teams[0].pk}).json()
        assert [f["puzzle"] for f in mine] == [1, 2]
        assert client.get(f"{BASE}/finishes/", {"team": "x"}).status_code == 400
        for table in range(4, 30):
            team = TeamFactory(competition=running, table=table)
            finish_register(team=team, position=1, by=judge, elapsed_seconds=1000)
        with django_assert_max_num_queries(6):
            assert len(client.get(f"{BASE}/finishes/").json()) == 30

    def test_other_competitions_finishes_are_not_listed_or_changed(
        self, running, teams, api_as, judge, admin_user
    ):
        other = CompetitionFactory(slug="dm-other")
        PuzzleFactory(competition=other, position=1, pieces=500)
        team = TeamFactory(competition=other, table=1)
        from competition.services import clock_start

        clock_start(competition=other, by=admin_user)
        finish = finish_register(team=team, position=1, by=judge, elapsed_seconds=0)
        client = api_as(judge)
        assert client.get(f"{BASE}/finishes/").json() == []
        response = client.patch(f"{BASE}/finishes/{finish.pk}/", {"reason": "x", "missing": [1]})
        assert response.status_code == 404
        assert client.delete(f"{BASE}/finishes/{finish.pk}/").status_code == 404
        assert Finish.objects.get().missing == []

    def test_correct(self, running, teams, api_as, judge, state):
        finish = finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=2000)
        client = api_as(judge)
        url = f"{BASE}/finishes/{finish.pk}/"
        before = state()
        no_reason = client.patch(url, {"elapsed_seconds": 1950}, format="json")
        assert no_reason.status_code == 400
        assert "reason" in no_reason.json()
        blank = client.patch(url, {"elapsed_seconds": 1950, "reason": "  "}, format="json")
        assert blank.status_code == 400
        wrong = client.patch(url, {"missing": [0], "reason": "x"}, format="json")
        assert wrong.status_code == 400
        future = client.patch(url, {"elapsed_seconds": 7300, "reason": "x"}, format="json")
        assert (future.status_code, future.json()["code"]) == (409, "in_future")
        assert state() == before
        response = client.patch(
            url, {"elapsed_seconds": 1950, "missing": [2], "reason": "Sent registreret"}
        )
        assert response.status_code == 200
        assert (response.json()["elapsed_seconds"], response.json()["deducted"]) == (1950, 0)
        entry = AuditEntry.objects.filter(action="finish_correct").get()
        assert (entry.before["elapsed_seconds"], entry.after["elapsed_seconds"]) == (2000, 1950)
        assert entry.reason == "Sent registreret"

    def test_delete(self, running, teams, api_as, judge, state):
        first = finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=2000)
        second = finish_register(team=teams[0], position=2, by=judge, elapsed_seconds=5000)
        client = api_as(judge)
        before = state()
        response = client.delete(f"{BASE}/finishes/{first.pk}/")
        assert (response.status_code, response.json()["code"]) == (409, "not_latest")
        assert state() == before
        assert client.delete(f"{BASE}/finishes/{second.pk}/").status_code == 204
        assert list(Finish.objects.values_list("pk", flat=True)) == [first.pk]
        assert client.delete(f"{BASE}/finishes/{second.pk}/").status_code == 404


# --- counts ----------------------------------------------------------------------------


class TestCounts:
    def test_count_forms(self, ended, teams, api_as, judge):
        client = api_as(judge)
        placed = client.post(f"{BASE}/counts/", {"team": teams[0].pk, "pieces": 420})
        assert placed.status_code == 201
        assert {k: placed.json()[k] for k in ("team", "puzzle", "pieces")} == {
            "team": teams[0].pk,
            "puzzle": 1,
            "pieces": 420,
        }
        unplaced = client.post(
            f"{BASE}/counts/", {"team": teams[1].pk, "unplaced": 314, "loose": 6}, format="json"
        )
        assert unplaced.json()["pieces"] == 500 - 314 - 6

    @pytest.mark.parametrize(
        "body",
        [
            {"pieces": 1},
            {"pieces": 2},
            {"pieces": 501},
            {"pieces": -1},
            {"pieces": "many"},
            {"unplaced": 499},
            {"unplaced": 400, "loose": 101},
            {},
            {"pieces": 10, "unplaced": 490},
            {"team": "other", "pieces": 10},
        ],
    )
    def test_400(self, ended, teams, api_as, judge, state, body):
        other = TeamFactory(competition=CompetitionFactory(), table=9)
        body = {"team": teams[0].pk, **body}
        if body["team"] == "other":
            body["team"] = other.pk
        before = state()
        response = api_as(judge).post(f"{BASE}/counts/", body, format="json")
        assert response.status_code == 400, response.json()
        assert state() == before

    def test_409_codes(self, competition, teams, api_as, judge, admin_user, state, start_clock):
        client = api_as(judge)

        def refused(code, body):
            before = state()
            response = client.post(f"{BASE}/counts/", body, format="json")
            assert (response.status_code, response.json()["code"]) == (409, code)
            assert state() == before

        refused("clock_not_started", {"team": teams[0].pk, "pieces": 10})
        start_clock(competition, ago=timedelta(hours=4))
        Competition.objects.filter(pk=competition.pk).update(
            started_at=timezone.now() - timedelta(hours=1)
        )
        refused("clock_running", {"team": teams[0].pk, "pieces": 10})
        Competition.objects.filter(pk=competition.pk).update(
            started_at=timezone.now() - timedelta(hours=4)
        )
        for position, at in ((1, 3000), (2, 6000), (3, 9000)):
            finish_register(team=teams[0], position=position, by=judge, elapsed_seconds=at)
        refused("all_finished", {"team": teams[0].pk, "pieces": 0})
        assert (
            client.post(f"{BASE}/counts/", {"team": teams[1].pk, "pieces": 10}).status_code == 201
        )
        refused("already_counted", {"team": teams[1].pk, "pieces": 20})
        teams[2].withdrawn = True
        teams[2].save()
        refused("not_competing", {"team": teams[2].pk, "pieces": 20})
        finalise(competition)
        refused("final", {"team": teams[1].pk, "pieces": 20})

    def test_replay(self, ended, teams, api_as, judge):
        client = api_as(judge)
        body = {"team": teams[0].pk, "pieces": 77, "request_id": str(uuid.uuid4())}
        assert client.post(f"{BASE}/counts/", body, format="json").status_code == 201
        again = client.post(f"{BASE}/counts/", body, format="json")
        assert (again.status_code, again.headers["Idempotent-Replayed"]) == (200, "true")
        assert client.post(f"{BASE}/counts/", {**body, "pieces": 78}).status_code == 422
        assert Count.objects.count() == 1

    def test_correct(self, ended, teams, api_as, judge, state):
        count = count_record(team=teams[0], by=judge, pieces=100)
        client = api_as(judge)
        url = f"{BASE}/counts/{count.pk}/"
        before = state()
        assert client.patch(url, {"pieces": 120}, format="json").status_code == 400
        assert client.patch(url, {"pieces": 2, "reason": "x"}, format="json").status_code == 400
        assert client.patch(url, {"pieces": 501, "reason": "x"}, format="json").status_code == 400
        assert state() == before
        response = client.patch(url, {"unplaced": 380, "loose": 7, "reason": "Talt igen"})
        assert (response.status_code, response.json()["pieces"]) == (200, 113)


# --- warnings, disqualification, clock ---------------------------------------------------


def test_warning(running, teams, api_as, judge, state):
    client = api_as(judge)
    before = state()
    assert client.post(f"{BASE}/teams/{teams[0].pk}/warnings/", {}).status_code == 400
    assert client.post(f"{BASE}/teams/9999/warnings/", {"reason": "x"}).status_code == 404
    assert state() == before
    response = client.post(f"{BASE}/teams/{teams[0].pk}/warnings/", {"reason": "Larm"})
    assert response.status_code == 201
    assert (response.json()["reason"], response.json()["given_by"]) == ("Larm", "mette")
    assert Warning.objects.get().team == teams[0]


def test_disqualify_and_reinstate(running, teams, api_as, admin_user, state):
    client = api_as(admin_user)
    url = f"{BASE}/teams/{teams[0].pk}"
    before = state()
    assert client.post(f"{url}/disqualify", {}).status_code == 400
    assert state() == before
    response = client.post(f"{url}/disqualify", {"reason": "Tredje advarsel (R14)"})
    assert response.status_code == 200
    assert response.json()["disqualified"] is True
    assert response.json()["disqualified_reason"] == "Tredje advarsel (R14)"
    again = client.post(f"{url}/disqualify", {"reason": "x"})
    assert (again.status_code, again.json()["code"]) == (409, "already_disqualified")
    response = client.post(f"{url}/reinstate", {})
    assert (response.status_code, response.json()["disqualified"]) == (200, False)


def test_clock_start_and_stop(competition, teams, api_as, admin_user, state):
    client = api_as(admin_user)
    started = timezone.now() - timedelta(seconds=30)
    response = client.post(f"{BASE}/clock/start", {"started_at": started.isoformat()})
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "running"
    assert body["clock"]["elapsed_seconds"] >= 30
    assert body["clock"]["remaining_seconds"] <= 180 * 60 - 30
    assert [p["pieces"] for p in body["puzzles"]] == [500, 1000, 1000]
    before = state()
    again = client.post(f"{BASE}/clock/start", {})
    assert (again.status_code, again.json()["code"]) == (409, "already_started")
    future = timezone.now() + timedelta(hours=1)
    assert client.post(f"{BASE}/clock/stop", {"stopped_at": future.isoformat()}).status_code == 400
    assert state() == before
    response = client.post(f"{BASE}/clock/stop", {})
    assert response.status_code == 200
    assert response.json()["status"] == "stopped"
    assert response.json()["clock"]["stopped_at"] is not None
    again = client.post(f"{BASE}/clock/stop", {})
    assert (again.status_code, again.json()["code"]) == (409, "clock_stopped")


def test_clock_refusals(competition, api_as, admin_user, state):
    client = api_as(admin_user)
    empty = CompetitionFactory(slug="tom")
    before = state()
    response = client.post("/api/v1/competitions/tom/clock/start", {})
    assert (response.status_code, response.json()["code"]) == (409, "no_puzzles")
    response = client.post(f"{BASE}/clock/stop", {})
    assert (response.status_code, response.json()["code"]) == (409, "clock_not_started")
    assert client.post("/api/v1/competitions/nope/clock/start", {}).status_code == 404
    assert state() == before
    finalise(empty)
    before = state()
    response = client.post("/api/v1/competitions/tom/clock/start", {})
    assert (response.status_code, response.json()["code"]) == (409, "final")
    assert state() == before


def test_every_write_through_the_api_is_audited_and_bumps(
    competition, teams, api_as, judge, admin_user
):
    def write(client, method, url, body=None):
        version = Competition.objects.get(pk=competition.pk).standings_version
        audit = AuditEntry.objects.count()
        response = getattr(client, method)(url, body, format="json")
        assert response.status_code in (200, 201, 204), (url, response.content)
        assert Competition.objects.get(pk=competition.pk).standings_version == version + 1
        assert AuditEntry.objects.count() == audit + 1
        entry = AuditEntry.objects.order_by("-pk").first()
        assert entry.user is not None
        return response

    admin, judging = api_as(admin_user), None
    write(admin, "post", f"{BASE}/clock/start", {})
    judging = api_as(judge)
    body = {"team": teams[0].pk, "puzzle": 1, "confirm_implausible": True}
    finish = write(judging, "post", f"{BASE}/finishes/", body)
    fid = finish.json()["id"]
    write(judging, "patch", f"{BASE}/finishes/{fid}/", {"missing": [1], "reason": "x"})
    write(judging, "delete", f"{BASE}/finishes/{fid}/")
    write(judging, "post", f"{BASE}/teams/{teams[0].pk}/warnings/", {"reason": "Larm"})
    admin = api_as(admin_user)
    write(admin, "post", f"{BASE}/teams/{teams[1].pk}/disqualify", {"reason": "R18"})
    write(admin, "post", f"{BASE}/teams/{teams[1].pk}/reinstate", {})
    write(admin, "post", f"{BASE}/clock/stop", {})
    count = write(admin, "post", f"{BASE}/counts/", {"team": teams[0].pk, "pieces": 30})
    write(admin, "patch", f"{BASE}/counts/{count.json()['id']}/", {"pieces": 0, "reason": "x"})


def test_schema_describes_the_endpoints(api):
    schema = api.get("/api/schema/", {"format": "json"}).json()
    paths = schema["paths"]
    finishes = paths["/api/v1/competitions/{slug}/finishes/"]["post"]
    assert {"201", "200", "400", "409", "422"} <= set(finishes["responses"])
    assert "implausible" in finishes["description"]
    for path in (
        "/api/v1/competitions/{slug}/clock/start",
        "/api/v1/competitions/{slug}/clock/stop",
        "/api/v1/competitions/{slug}/finishes/{id}/",
        "/api/v1/competitions/{slug}/counts/",
        "/api/v1/competitions/{slug}/counts/{id}/",
        "/api/v1/competitions/{slug}/teams/{id}/warnings/",
        "/api/v1/competitions/{slug}/teams/{id}/disqualify",
        "/api/v1/competitions/{slug}/teams/{id}/reinstate",
    ):
        assert path in paths, path
