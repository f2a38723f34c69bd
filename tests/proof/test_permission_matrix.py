"""The permission matrix (issue 8): every endpoint and staff page × (anonymous, judge, desk,
admin) has its expected answer here, and no write by a wrong role lands.

`ALLOWED` names the roles that may use each route; everyone else is refused: anonymous API
callers with 401/403, anonymous page visitors with a redirect to the login page, logged-in
users of a wrong role with 403. A refused request must leave every table as it was.
A last test checks that every staff and API route is listed, so none can be forgotten.
"""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone

from competition.management.commands.create_staff import staff_upsert
from competition.models import Competition, Member, Puzzle, Team
from judging.models import AuditEntry, Count, Finish, Objection, RequestId, Warning
from tests.factories import MemberFactory

ANON, JUDGE, DESK, ADMIN = "anonymous", "judge", "desk", "admin"
EVERYONE = {ANON, JUDGE, DESK, ADMIN}
STAFF_JUDGE = {JUDGE, ADMIN}
STAFF_DESK = {DESK, ADMIN}
ONLY_ADMIN = {ADMIN}

S = "dm-2026"
# (method, path, body, roles allowed). {team}, {team3}, {finish}, {count}, {objection} are
# filled from the fixture; bodies are valid enough to pass validation where it matters.
ROUTES = [
    # --- API -----------------------------------------------------------------------------
    ("GET", "/api/v1/time", None, EVERYONE),
    ("GET", "/api/v1/competitions/", None, EVERYONE),
    (
        "POST",
        "/api/v1/competitions/",
        {
            "slug": "ny",
            "name": "Ny",
            "starts_at": "2027-03-01T10:00:00+01:00",
            "duration_minutes": 180,
        },
        ONLY_ADMIN,
    ),
    ("GET", f"/api/v1/competitions/{S}/", None, EVERYONE),
    (
        "POST",
        f"/api/v1/competitions/{S}/puzzles/",
        {"position": 4, "title": "X", "pieces": 500},
        ONLY_ADMIN,
    ),
    ("GET", f"/api/v1/competitions/{S}/teams/", None, EVERYONE),
    (
        "POST",
        f"/api/v1/competitions/{S}/teams/",
        {"name": "Nyt hold", "table": 40, "members": [{"name": "Ida"}]},
        STAFF_DESK,
    ),
    ("GET", f"/api/v1/competitions/{S}/teams/{{team}}/", None, EVERYONE),
    ("PATCH", f"/api/v1/competitions/{S}/teams/{{team}}/", {"fee_paid": True}, STAFF_DESK),
    ("POST", f"/api/v1/competitions/{S}/clock/start", {}, ONLY_ADMIN),
    (
        "POST",
        f"/api/v1/competitions/{S}/clock/correct",
        {"started_at": "2026-11-28T10:00:00+01:00"},
        ONLY_ADMIN,
    ),
    ("POST", f"/api/v1/competitions/{S}/clock/stop", {}, ONLY_ADMIN),
    ("GET", f"/api/v1/competitions/{S}/finishes/", None, STAFF_JUDGE),
    ("POST", f"/api/v1/competitions/{S}/finishes/", {"team": "{team2}", "puzzle": 1}, STAFF_JUDGE),
    (
        "PATCH",
        f"/api/v1/competitions/{S}/finishes/{{finish}}/",
        {"elapsed_seconds": 1700, "reason": "rettet"},
        STAFF_JUDGE,
    ),
    ("DELETE", f"/api/v1/competitions/{S}/finishes/{{finish}}/", None, STAFF_JUDGE),
    ("POST", f"/api/v1/competitions/{S}/counts/", {"team": "{team2}", "pieces": 100}, STAFF_JUDGE),
    (
        "PATCH",
        f"/api/v1/competitions/{S}/counts/{{count}}/",
        {"pieces": 50, "reason": "rettet"},
        STAFF_JUDGE,
    ),
    ("POST", f"/api/v1/competitions/{S}/counts/{{count}}/confirm", {"pieces": 40}, STAFF_JUDGE),
    ("POST", f"/api/v1/competitions/{S}/teams/{{team}}/warnings/", {"reason": "støj"}, STAFF_JUDGE),
    (
        "POST",
        f"/api/v1/competitions/{S}/teams/{{team}}/disqualify",
        {"reason": "hjælp udefra"},
        ONLY_ADMIN,
    ),
    ("POST", f"/api/v1/competitions/{S}/teams/{{team}}/reinstate", {"reason": "fejl"}, ONLY_ADMIN),
    ("POST", f"/api/v1/competitions/{S}/requests/{{request}}/cancel", {}, STAFF_JUDGE),
    ("GET", f"/api/v1/competitions/{S}/standings", None, EVERYONE),
    ("GET", f"/api/v1/competitions/{S}/objections/", None, STAFF_DESK),
    (
        "POST",
        f"/api/v1/competitions/{S}/objections/",
        {"team": "{team}", "text": "for sent"},
        STAFF_DESK,
    ),
    (
        "POST",
        f"/api/v1/competitions/{S}/objections/{{objection}}/resolve",
        {"decision": "rejected", "note": "nej"},
        ONLY_ADMIN,
    ),
    ("POST", f"/api/v1/competitions/{S}/finalise", {}, ONLY_ADMIN),
    # --- public pages --------------------------------------------------------------------
    ("GET", "/", None, EVERYONE),
    ("GET", "/healthz", None, EVERYONE),
    ("GET", "/readyz", None, EVERYONE),
    ("GET", "/rules/", None, EVERYONE),
    ("GET", f"/{S}/", None, EVERYONE),
    ("GET", f"/{S}/screen/", None, EVERYONE),
    ("GET", f"/{S}/teams/{{team}}/", None, EVERYONE),
    ("GET", f"/{S}/results.csv", None, EVERYONE),
    # --- desk ----------------------------------------------------------------------------
    ("GET", "/desk/new/", None, ONLY_ADMIN),
    (
        "POST",
        "/desk/new/",
        {
            "slug": "ny2",
            "name": "Ny2",
            "starts_at": "2027-03-01T10:00",
            "duration_minutes": 180,
            "max_at_table": 4,
        },
        ONLY_ADMIN,
    ),
    ("GET", f"/desk/{S}/", None, STAFF_DESK),
    ("GET", f"/desk/{S}/setup/", None, ONLY_ADMIN),
    ("GET", f"/desk/{S}/teams/new/", None, STAFF_DESK),
    ("POST", f"/desk/{S}/teams/new/", {"name": "Formhold", "table": 41}, STAFF_DESK),
    ("GET", f"/desk/{S}/teams/{{team}}/", None, STAFF_DESK),
    ("POST", f"/desk/{S}/teams/{{team}}/check-in", {}, STAFF_DESK),
    ("POST", f"/desk/{S}/teams/{{team}}/check-in/undo", {}, STAFF_DESK),
    ("POST", f"/desk/{S}/teams/{{team}}/fee", {}, STAFF_DESK),
    ("POST", f"/desk/{S}/teams/{{team}}/withdraw", {}, STAFF_DESK),
    ("POST", f"/desk/{S}/teams/{{team}}/withdraw/undo", {}, STAFF_DESK),
    ("GET", f"/desk/{S}/refunds/", None, STAFF_DESK),
    ("GET", f"/desk/{S}/teams.csv", None, STAFF_DESK),
    ("GET", f"/desk/{S}/import/", None, STAFF_DESK),
    ("GET", f"/desk/{S}/import/example.csv", None, STAFF_DESK),
    ("GET", f"/desk/{S}/cards/", None, STAFF_DESK),
    # --- judge ---------------------------------------------------------------------------
    ("GET", "/judge/sw.js", None, EVERYONE),
    ("GET", f"/judge/{S}/", None, STAFF_JUDGE),
    ("GET", f"/judge/{S}/board/", None, STAFF_JUDGE),
    # --- control room --------------------------------------------------------------------
    ("GET", f"/control/{S}/", None, ONLY_ADMIN),
    ("POST", f"/control/{S}/clock/start", {}, ONLY_ADMIN),
    ("POST", f"/control/{S}/clock/correct", {"started_at": "2026-11-28T10:00:00"}, ONLY_ADMIN),
    ("POST", f"/control/{S}/clock/stop", {}, ONLY_ADMIN),
    ("GET", f"/control/{S}/audit/", None, ONLY_ADMIN),
    ("GET", f"/control/{S}/logins/", None, ONLY_ADMIN),
    ("POST", f"/control/{S}/logins/unlock", {"username": "m-judge"}, ONLY_ADMIN),
    ("GET", f"/control/{S}/teams/{{team}}/", None, ONLY_ADMIN),
    ("POST", f"/control/{S}/teams/{{team}}/warning", {"reason": "støj"}, ONLY_ADMIN),
    ("POST", f"/control/{S}/teams/{{team}}/disqualify", {"reason": "hjælp"}, ONLY_ADMIN),
    ("POST", f"/control/{S}/teams/{{team}}/reinstate", {"reason": "fejl"}, ONLY_ADMIN),
    ("POST", f"/control/{S}/teams/{{team}}/withdraw", {"wd-reason": "syg"}, ONLY_ADMIN),
    ("POST", f"/control/{S}/teams/{{team}}/withdraw/undo", {"wd-reason": "fejl"}, ONLY_ADMIN),
    ("POST", f"/control/{S}/teams/{{team3}}/count", {"pieces": 60, "reason": "rettet"}, ONLY_ADMIN),
    (
        "POST",
        f"/control/{S}/teams/{{team}}/finishes/{{finish}}/correct",
        {"time": "0:28:00", "reason": "rettet"},
        ONLY_ADMIN,
    ),
    (
        "POST",
        f"/control/{S}/teams/{{team}}/finishes/{{finish}}/delete",
        {"reason": "fejl"},
        ONLY_ADMIN,
    ),
    # --- objections ----------------------------------------------------------------------
    ("GET", f"/objections/{S}/new/", None, STAFF_DESK),
    ("POST", f"/objections/{S}/new/", {"team": "{team}", "text": "for sent"}, STAFF_DESK),
    ("GET", f"/objections/{S}/{{objection}}/resolve/", None, ONLY_ADMIN),
    (
        "POST",
        f"/objections/{S}/{{objection}}/resolve/",
        {"decision": "rejected", "note": "nej"},
        ONLY_ADMIN,
    ),
    ("POST", f"/objections/{S}/finalise/", {}, ONLY_ADMIN),
    ("GET", f"/objections/{S}/official/", None, STAFF_DESK),
    ("GET", f"/objections/{S}/audit.csv", None, ONLY_ADMIN),
]


@pytest.fixture
def world(competition, teams):
    """A running competition: team 1 finished puzzle 1, team 3 has a count, one objection."""
    Competition.objects.filter(pk=competition.pk).update(
        started_at=timezone.now() - timedelta(minutes=30)
    )
    MemberFactory(team=teams[0], name="Alma Østergaard", under_15=True, guardian="Mette Ø")
    finish = Finish.objects.create(
        team=teams[0], puzzle=competition.puzzles.get(position=1), elapsed_seconds=1500
    )
    count = Count.objects.create(
        team=teams[2], puzzle=competition.puzzles.get(position=1), pieces=40
    )
    objection = Objection.objects.create(team=teams[0], finish=finish, text="for sent")
    users = {
        role: staff_upsert(username=f"m-{role}", role=role, password="pw-x-1")[0]
        for role in (JUDGE, DESK, ADMIN)
    }
    users[ANON] = None
    ids = {
        "team": teams[0].pk,
        "team2": teams[1].pk,
        "team3": teams[2].pk,
        "finish": finish.pk,
        "count": count.pk,
        "objection": objection.pk,
        "request": "5f0c2b1e-8d4a-4c3e-9a6b-2d7e1f0a9b3c",
    }
    return users, ids


def snapshot() -> tuple:
    """Everything a write could change."""
    models = (
        Competition,
        Puzzle,
        Team,
        Member,
        Finish,
        Count,
        Warning,
        Objection,
        AuditEntry,
        RequestId,
        get_user_model(),
    )
    rows = []
    for model in models:
        rows.append(sorted(tuple(sorted(r.items())) for r in model.objects.values()))
    return tuple(map(str, rows))


def fill(value, ids):
    if isinstance(value, str):
        return value.format(**ids) if "{" in value else value
    if isinstance(value, dict):
        out = {k: fill(v, ids) for k, v in value.items()}
        return {k: (int(v) if k == "team" and str(v).isdigit() else v) for k, v in out.items()}
    return value


def call(client, method, path, body, *, api):
    if method == "GET":
        return client.get(path)
    if api:
        return getattr(client, method.lower())(path, body or {}, content_type="application/json")
    return client.post(path, body or {})


CASES = [
    (m, p, b, allowed, role) for (m, p, b, allowed) in ROUTES for role in (ANON, JUDGE, DESK, ADMIN)
]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("method", "path", "body", "allowed", "role"),
    CASES,
    ids=[f"{m} {p} as {r}" for (m, p, _b, _a, r) in CASES],
)
def test_permission_matrix(client, world, method, path, body, allowed, role):
    users, ids = world
    if users[role] is not None:
        client.force_login(users[role])
    path = path.format(**ids)
    api = path.startswith("/api/")
    before = snapshot()
    response = call(client, method, path, fill(body, ids), api=api)
    status = response.status_code
    if role in allowed:
        assert status not in (401, 403), f"{role} was refused: {status}"
        assert not (status == 302 and "/accounts/login/" in response.get("Location", ""))
        assert status < 500
        return
    if api:
        assert status in (401, 403), f"{role} got {status}"
    elif role == ANON:
        assert status == 302
        assert response["Location"].startswith("/accounts/login/")
    else:
        assert status == 403, f"{role} got {status}"
    assert snapshot() == before, "a refused request changed the database"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("role", "expected"), [(ANON, 403), (DESK, 403), (JUDGE, 200), (ADMIN, 200)]
)
def test_count_confirm_exact_statuses(client, world, role, expected):
    """The second count (issue 14): a judge or an admin confirms an equal count (200)."""
    users, ids = world
    if users[role] is not None:
        client.force_login(users[role])
    path = f"/api/v1/competitions/{S}/counts/{ids['count']}/confirm"
    response = call(client, "POST", path, {"pieces": 40}, api=True)
    assert response.status_code == expected
    assert Count.objects.get(pk=ids["count"]).confirmed_at is not None or expected != 200


def _routes(patterns, prefix=""):
    for p in patterns:
        if isinstance(p, URLResolver):
            yield from _routes(p.url_patterns, prefix + str(p.pattern))
        elif isinstance(p, URLPattern):
            yield prefix + str(p.pattern)


def test_every_staff_and_api_route_is_in_the_matrix():
    listed = {p.split("?")[0] for (_m, p, _b, _a) in ROUTES}
    normalised = {
        p.replace(S, "<slug:slug>")
        .replace("{team}", "<int>")
        .replace("{team3}", "<int>")
        .replace("{finish}", "<int>")
        .replace("{count}", "<int>")
        .replace("{objection}", "<int>")
        .replace("{request}", "<uuid>")
        for p in listed
    }
    import re

    missing = []
    for route in _routes(get_resolver().url_patterns):
        if not route.startswith(("api/v1/", "desk/", "judge/", "control/", "objections/")):
            continue
        shape = "/" + re.sub(r"<(int|uuid):\w+>", r"<\1>", route)
        if shape not in normalised:
            missing.append(shape)
    assert missing == [], f"routes without a row in the permission matrix: {missing}"
