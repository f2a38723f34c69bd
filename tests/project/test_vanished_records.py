"""A record that vanished (docs/contracts.md "The edges that stay true"): every write
endpoint that names a record in its URL, called with that record deleted just before,
answers 404 (or 409 with its code, or the answer docs/contracts.md gives), never 500; the deletes
also as two requests at once (PostgreSQL, threads), and every finish or count write also
while the record is deleted under the lock it waits for. Built from the URL resolver: a new
write route with a record id, or a new write method on one, fails the last tests until it
is listed here.
"""

import re
import uuid
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone

from competition.models import Competition, Team
from competition.services import staff_upsert
from judging.models import Count, Finish, Objection
from judging.services import finish_delete, finish_register
from tests.factories import MemberFactory
from tests.judging.lockstep import behind_the_lock

S = "dm-2026"
API = f"/api/v1/competitions/{S}"
# (method, path, body, the record deleted just before, who calls, what it answers)
# The record: team, finish, count (team 3's), objection, or request (the finish a tablet's
# request created, undone: its cancel then answers as docs/contracts.md says, 200 "deleted").
WRITES = [
    # --- API -------------------------------------------------------------------------------
    ("PATCH", f"{API}/teams/{{team}}/", {"fee_paid": True}, "team", "admin", 404),
    (
        "PATCH",
        f"{API}/finishes/{{finish}}/",
        {"elapsed_seconds": 1400, "reason": "rettet"},
        "finish",
        "judge",
        404,
    ),
    ("DELETE", f"{API}/finishes/{{finish}}/", None, "finish", "judge", 404),
    (
        "PATCH",
        f"{API}/counts/{{count}}/",
        {"pieces": 50, "reason": "rettet"},
        "count",
        "judge",
        404,
    ),
    ("POST", f"{API}/counts/{{count}}/confirm", {"pieces": 40}, "count", "judge", 404),
    ("POST", f"{API}/teams/{{team}}/warnings/", {"reason": "støj"}, "team", "judge", 404),
    ("POST", f"{API}/teams/{{team}}/disqualify", {"reason": "hjælp"}, "team", "admin", 404),
    ("POST", f"{API}/teams/{{team}}/reinstate", {"reason": "fejl"}, "team", "admin", 404),
    (
        "POST",
        f"{API}/objections/{{objection}}/resolve",
        {"decision": "upheld", "note": "ja", "elapsed_seconds": 1400},
        "objection",
        "admin",
        404,
    ),
    ("POST", f"{API}/requests/{{request}}/cancel", {}, "request", "judge", (200, "deleted")),
    # --- the desk --------------------------------------------------------------------------
    (
        "POST",
        f"/desk/{S}/teams/{{team}}/",
        {
            "name": "Nyt navn",
            "table": 1,
            "members-TOTAL_FORMS": "1",
            "members-INITIAL_FORMS": "0",
            "members-0-name": "Ida",
        },
        "team",
        "desk",
        404,
    ),
    ("POST", f"/desk/{S}/teams/{{team}}/check-in", {}, "team", "desk", 404),
    ("POST", f"/desk/{S}/teams/{{team}}/check-in/undo", {}, "team", "desk", 404),
    ("POST", f"/desk/{S}/teams/{{team}}/fee", {"paid": "1"}, "team", "desk", 404),
    ("POST", f"/desk/{S}/teams/{{team}}/withdraw", {}, "team", "desk", 404),
    ("POST", f"/desk/{S}/teams/{{team}}/withdraw/undo", {}, "team", "desk", 404),
    # --- the control room ------------------------------------------------------------------
    ("POST", f"/control/{S}/clock/withdraw/{{team}}", {}, "team", "admin", 404),
    (
        "POST",
        f"/control/{S}/objections/{{objection}}/resolve/",
        {"decision": "rejected", "note": "nej"},
        "objection",
        "admin",
        404,
    ),
    (
        "POST",
        f"/control/{S}/teams/{{team}}/paper/finish",
        {"paper-puzzle": 2, "paper-time": "0:40:00"},
        "team",
        "admin",
        404,
    ),
    (
        "POST",
        f"/control/{S}/teams/{{team}}/paper/count",
        {"papercount-pieces": 40},
        "team",
        "admin",
        404,
    ),
    (
        "POST",
        f"/control/{S}/teams/{{team}}/warning",
        {"warning-reason": "støj"},
        "team",
        "admin",
        404,
    ),
    (
        "POST",
        f"/control/{S}/teams/{{team}}/disqualify",
        {"dq-reason": "hjælp"},
        "team",
        "admin",
        404,
    ),
    ("POST", f"/control/{S}/teams/{{team}}/reinstate", {"dq-reason": "fejl"}, "team", "admin", 404),
    ("POST", f"/control/{S}/teams/{{team}}/withdraw", {"wd-reason": "syg"}, "team", "admin", 404),
    (
        "POST",
        f"/control/{S}/teams/{{team}}/withdraw/undo",
        {"wd-reason": "fejl"},
        "team",
        "admin",
        404,
    ),
    (
        "POST",
        f"/control/{S}/teams/{{team3}}/count",
        {"count-pieces": 60, "count-reason": "rettet"},
        "count",
        "admin",
        404,
    ),
    (
        "POST",
        f"/control/{S}/teams/{{team}}/finishes/{{finish}}/correct",
        {"f{finish}-time": "0:23:00", "f{finish}-reason": "rettet"},
        "finish",
        "admin",
        404,
    ),
    (
        "POST",
        f"/control/{S}/teams/{{team}}/finishes/{{finish}}/delete",
        {"d{finish}-reason": "fejl"},
        "finish",
        "admin",
        404,
    ),
    # The judges page: a new password for, or the revoke of, a login deleted meanwhile.
    ("POST", f"/control/{S}/judges/{{judge}}/password", {}, "judge", "admin", 404),
    ("POST", f"/control/{S}/judges/{{judge}}/revoke", {}, "judge", "admin", 404),
]
# Routes with a record id that write nothing (their GET), or only redirect.
NOT_WRITES = {
    ("GET", "/api/v1/competitions/<slug>/teams/<id>/"),
    ("GET", "/<slug>/teams/<id>/"),
    ("GET", "/desk/<slug>/teams/<id>/"),
    ("GET", "/control/<slug>/teams/<id>/"),
    ("GET", "/control/<slug>/objections/<id>/resolve/"),
    # The old addresses move permanently to the control room's (308), whatever the id.
    ("POST", "/objections/<slug>/<id>/resolve/"),
    ("GET", "/objections/<slug>/<id>/resolve/"),
}
# The deletes, sent twice at once: what the two answers are together.
DELETES = [
    ("DELETE", f"{API}/finishes/{{finish}}/", None, "judge", [204, 404]),
    (
        "POST",
        f"/control/{S}/teams/{{team}}/finishes/{{finish}}/delete",
        {"d{finish}-reason": "fejl"},
        "admin",
        [302, 302],
    ),
    ("POST", f"{API}/requests/{{request}}/cancel", {}, "judge", [200, 200]),
]


def world():
    """A running competition: team 1 finished puzzle 1 (its finish has an open objection),
    team 2 finished puzzle 1 by a tablet's request, team 3 has a count."""
    competition = Competition.objects.get(slug=S)
    teams = list(Team.objects.filter(competition=competition).order_by("table"))
    Competition.objects.filter(pk=competition.pk).update(
        started_at=timezone.now() - timedelta(minutes=30)
    )
    MemberFactory(team=teams[0], name="Alma")
    users = {
        role: staff_upsert(username=f"v-{role}", role=role, password="vanished-kodeord-7")[0]
        for role in ("judge", "desk", "admin")
    }
    finish = Finish.objects.create(
        team=teams[0], puzzle=competition.puzzles.get(position=1), elapsed_seconds=1500
    )
    rid = uuid.uuid4()
    tapped = finish_register(
        team=teams[1], position=1, by=users["judge"], elapsed_seconds=1200, request_id=rid
    )
    count = Count.objects.create(
        team=teams[2], puzzle=competition.puzzles.get(position=1), pieces=40
    )
    objection = Objection.objects.create(team=teams[0], finish=finish, text="for sent")
    lost = staff_upsert(username="v-tablet", role="judge", password="vanished-kodeord-8")[0]
    ids = {
        "judge": lost.pk,
        "team": teams[0].pk,
        "team3": teams[2].pk,
        "finish": finish.pk,
        "count": count.pk,
        "objection": objection.pk,
        "request": str(rid),
    }
    records = {
        "team": lambda: Team.objects.filter(pk=teams[0].pk).delete(),
        "finish": lambda: Finish.objects.filter(pk=finish.pk).delete(),
        "count": lambda: Count.objects.filter(pk=count.pk).delete(),
        "objection": lambda: Objection.objects.filter(pk=objection.pk).delete(),
        "request": lambda: finish_delete(finish=tapped, by=users["judge"]),
        "judge": lambda: type(lost).objects.filter(pk=lost.pk).delete(),
    }
    return users, ids, records, teams


def fill(value, ids):
    if isinstance(value, str):
        return value.format(**ids) if "{" in value else value
    if isinstance(value, dict):
        return {fill(k, ids): fill(v, ids) for k, v in value.items()}
    return value


def send(user, method, path, body):
    client = Client()
    client.force_login(user)
    if path.startswith("/api/"):
        return getattr(client, method.lower())(path, body or {}, content_type="application/json")
    return client.post(path, body or {})


def check(response, expected):
    status, what = expected if isinstance(expected, tuple) else (expected, None)
    assert response.status_code == status, (response.status_code, response.content[:300])
    if what is not None:
        assert response.json()["cancelled"] == what


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("method", "path", "body", "record", "who", "expected"),
    WRITES,
    ids=[f"{m} {p} ({r} gone)" for (m, p, _b, r, _w, _e) in WRITES],
)
def test_a_write_to_a_record_deleted_just_before(
    competition, teams, method, path, body, record, who, expected
):
    users, ids, records, _teams = world()
    records[record]()
    response = send(users[who], method, fill(path, ids), fill(body, ids))
    check(response, expected)


postgres = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="row locks and concurrent transactions need PostgreSQL (SQLite serialises all)",
)


@pytest.fixture
def _role_groups():
    from django.contrib.auth.models import Group

    from competition.roles import ROLES

    for role in ROLES:
        Group.objects.get_or_create(name=role)


@postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("_role_groups")
@pytest.mark.parametrize(
    ("method", "path", "body", "who", "answers"),
    DELETES,
    ids=[f"{m} {p}" for (m, p, _b, _w, _a) in DELETES],
)
def test_two_deletes_at_once(competition, teams, method, path, body, who, answers):
    users, ids, _records, teams = world()
    team = teams[1] if "request" in path else teams[0]
    results = behind_the_lock(
        team, [lambda: send(users[who], method, fill(path, ids), fill(body, ids))] * 2
    )
    for result in results:
        assert not isinstance(result, Exception), result
    assert sorted(r.status_code for r in results) == answers
    assert not Finish.objects.filter(team=team).exists()


# Every finish or count write, with its record deleted while the request waits for the
# team's lock (the view has read it): the race of a record vanishing under the lock.
RACES = [row for row in WRITES if row[3] in ("finish", "count")]


@postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("_role_groups")
@pytest.mark.parametrize(
    ("method", "path", "body", "record", "who", "expected"),
    RACES,
    ids=[f"{m} {p}" for (m, p, _b, _r, _w, _e) in RACES],
)
def test_a_write_while_its_record_is_deleted_under_the_lock(
    competition, teams, method, path, body, record, who, expected
):
    del expected  # the answer depends on when the record went: below
    users, ids, records, teams = world()
    team = teams[2] if record == "count" else teams[0]
    (result,) = behind_the_lock(
        team,
        [lambda: send(users[who], method, fill(path, ids), fill(body, ids))],
        inside=records[record],
    )
    assert not isinstance(result, Exception), result
    if path.startswith("/api/"):
        # 404, or 409 with its code (a confirm of a count gone: `undone`)
        assert result.status_code in (404, 409), (result.status_code, result.content)
        assert result.status_code == 404 or result.json()["code"]
    else:  # the control room says so on the team page
        assert result.status_code == 302, result.status_code


# --- completeness: built from the URL resolver ---------------------------------------------


def _routes(patterns, prefix=""):
    for p in patterns:
        if isinstance(p, URLResolver):
            yield from _routes(p.url_patterns, prefix + str(p.pattern))
        elif isinstance(p, URLPattern):
            yield prefix + str(p.pattern), p.callback


def _shape(path: str) -> str:
    path = path.replace(f"/{S}/", "/<slug>/")
    path = re.sub(r"\{(team|team3|finish|count|objection|judge)\}", "<id>", path)
    return path.replace("{request}", "<id>")


def _route_shape(route: str) -> str:
    shape = "/" + re.sub(r"<(?:int|id|uuid):\w+>", "<id>", route)
    return shape.replace("<slug:slug>", "<slug>")


def _with_ids():
    for route, callback in _routes(get_resolver().url_patterns):
        if route.startswith("admin/") or not re.search(r"<(?:int|id|uuid):", route):
            continue
        yield _route_shape(route), callback


def test_every_route_with_a_record_id_is_listed():
    listed = {(m, _shape(p)) for (m, p, *_rest) in WRITES} | NOT_WRITES
    shapes = {shape for (_m, shape) in listed}
    found = {shape for shape, _callback in _with_ids()}
    assert len(found) >= 25, found  # the walk itself works
    missing = sorted(shape for shape in found if shape not in shapes)
    assert missing == [], f"routes with a record id that this test does not call: {missing}"


def test_every_write_method_of_an_api_route_with_a_record_id_is_listed():
    """An API view's methods are known: a PATCH or DELETE added to a route fails here."""
    listed = {(m, _shape(p)) for (m, p, *_rest) in WRITES}
    missing = []
    views = 0
    for shape, callback in _with_ids():
        view = getattr(callback, "cls", None) or getattr(callback, "view_class", None)
        if view is None:
            continue
        views += 1
        for method in ("post", "put", "patch", "delete"):
            if hasattr(view, method) and (method.upper(), shape) not in listed:
                missing.append(f"{method.upper()} {shape}")
    assert views >= 8  # the API's views with a record id were found
    assert missing == [], f"write methods this test does not call: {missing}"


def test_every_delete_is_also_sent_twice_at_once():
    deletes = {(m, _shape(p)) for (m, p, *_rest) in DELETES}
    missing = [
        (m, _shape(p))
        for (m, p, *_rest) in WRITES
        if (m == "DELETE" or p.endswith(("/delete", "/cancel"))) and (m, _shape(p)) not in deletes
    ]
    assert missing == [], f"deletes not sent twice at once: {missing}"
