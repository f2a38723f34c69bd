"""The permission matrix: every endpoint and staff page × (anonymous,
judge, desk, admin) has its exact expected answer here, and no write by a wrong role lands.

Each row names the roles that may use the route and the exact status they get (with the
refusal code where the world makes the service refuse: a 404, a 400 or another 409 than the
one named fails). Everyone else is refused: anonymous API callers with 403 (the session
authenticator comes first, so DRF answers 403, not 401), anonymous page visitors with a
redirect to the login page, logged-in users of a wrong role with 403. A refused request
leaves every table as it was; an allowed read writes nothing; an allowed API write that
succeeds writes. A last test checks that every staff and API route is listed, so none can
be forgotten.
"""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone

from competition.models import AuditEntry, Championship, Competition, Member, Puzzle, Team
from competition.services import staff_upsert
from judging.models import Count, Finish, Objection, RequestId, Tablet, Warning
from tests.factories import CompetitionFactory, MemberFactory, TeamFactory

ANON, JUDGE, DESK, ADMIN = "anonymous", "judge", "desk", "admin"
EVERYONE = {ANON, JUDGE, DESK, ADMIN}
STAFF_JUDGE = {JUDGE, ADMIN}
STAFF_DESK = {DESK, ADMIN}
ONLY_ADMIN = {ADMIN}

S = "dm-2026"
# The desk's form of a new team (a competition's desk, a walk-in at its championship's).
NEW = {
    "name": "Formhold",
    "table": 41,
    "members-TOTAL_FORMS": "1",
    "members-INITIAL_FORMS": "0",
    "members-0-name": "Ida",
}
# (method, path, body, roles allowed, what they get). {team}, {team2}, {team3}, {finish},
# {count}, {objection} are filled from the fixture (in paths, body keys and values). What
# they get is a status, or (409, code) where the world makes the service refuse. The world
# is a running clock (so a puzzle cannot be added, nor the clock started, nor a count taken,
# nor the results finalised); pages answer a refusal by a redirect with a message.
ROUTES = [
    # --- API -----------------------------------------------------------------------------
    ("GET", "/api/v1/time", None, EVERYONE, 200),
    ("GET", "/api/v1/competitions/", None, EVERYONE, 200),
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
        201,
    ),
    ("GET", f"/api/v1/competitions/{S}/", None, EVERYONE, 200),
    ("PATCH", f"/api/v1/competitions/{S}/", {"ranking": "wjpc"}, ONLY_ADMIN, (409, "started")),
    ("PATCH", f"/api/v1/competitions/{S}/", {"round": "Finale"}, ONLY_ADMIN, (409, "started")),
    ("DELETE", f"/api/v1/competitions/{S}/", None, ONLY_ADMIN, (409, "started")),
    (
        "DELETE",
        "/api/v1/championships/dm-2026-program/",
        None,
        ONLY_ADMIN,
        (409, "has_competitions"),
    ),
    ("GET", "/api/v1/championships/", None, EVERYONE, 200),
    (
        "POST",
        "/api/v1/championships/",
        {"slug": "mesterskab", "name": "Mesterskab"},
        ONLY_ADMIN,
        201,
    ),
    ("GET", f"/api/v1/championships/{S}/", None, EVERYONE, 200),
    (
        "POST",
        f"/api/v1/competitions/{S}/advance",
        {"from": ["heat"], "best": 1},
        ONLY_ADMIN,
        (409, "already_started"),
    ),
    ("DELETE", f"/api/v1/competitions/{S}/advance", None, ONLY_ADMIN, (409, "already_started")),
    (
        "POST",
        f"/api/v1/competitions/{S}/puzzles/",
        {"position": 4, "title": "X", "pieces": 500},
        ONLY_ADMIN,
        (409, "already_started"),
    ),
    ("GET", f"/api/v1/competitions/{S}/teams/", None, EVERYONE, 200),
    (
        "POST",
        f"/api/v1/competitions/{S}/teams/",
        {"name": "Nyt hold", "table": 40, "members": [{"name": "Ida"}]},
        STAFF_DESK,
        201,
    ),
    ("GET", f"/api/v1/competitions/{S}/teams/{{team}}/", None, EVERYONE, 200),
    ("PATCH", f"/api/v1/competitions/{S}/teams/{{team}}/", {"fee_paid": True}, STAFF_DESK, 200),
    ("POST", f"/api/v1/competitions/{S}/clock/start", {}, ONLY_ADMIN, (409, "already_started")),
    ("POST", f"/api/v1/competitions/{S}/clock/stop", {}, ONLY_ADMIN, 200),
    (
        "POST",
        f"/api/v1/competitions/{S}/clock/stop/undo",
        {},
        ONLY_ADMIN,
        (409, "clock_not_stopped"),
    ),
    ("GET", f"/api/v1/competitions/{S}/finishes/", None, STAFF_JUDGE, 200),
    (
        "POST",
        f"/api/v1/competitions/{S}/finishes/",
        {"team": "{team2}", "puzzle": 1},
        STAFF_JUDGE,
        201,
    ),
    (
        "PATCH",
        f"/api/v1/competitions/{S}/finishes/{{finish}}/",
        {"elapsed_seconds": 1700, "reason": "rettet"},
        STAFF_JUDGE,
        200,
    ),
    ("DELETE", f"/api/v1/competitions/{S}/finishes/{{finish}}/", None, STAFF_JUDGE, 204),
    (
        "POST",
        f"/api/v1/competitions/{S}/counts/",
        {"team": "{team2}", "pieces": 100},
        STAFF_JUDGE,
        (409, "clock_running"),
    ),
    (
        "PATCH",
        f"/api/v1/competitions/{S}/counts/{{count}}/",
        {"pieces": 50, "reason": "rettet"},
        STAFF_JUDGE,
        200,
    ),
    (
        "POST",
        f"/api/v1/competitions/{S}/teams/{{team}}/warnings/",
        {"reason": "støj"},
        STAFF_JUDGE,
        201,
    ),
    (
        "POST",
        f"/api/v1/competitions/{S}/counts/{{count}}/confirm",
        {"pieces": 40},
        STAFF_JUDGE,
        200,
    ),
    (
        "POST",
        f"/api/v1/competitions/{S}/teams/{{team}}/disqualify",
        {"reason": "hjælp udefra"},
        ONLY_ADMIN,
        200,
    ),
    (
        "POST",
        f"/api/v1/competitions/{S}/teams/{{team}}/reinstate",
        {"reason": "fejl"},
        ONLY_ADMIN,
        (409, "not_disqualified"),
    ),
    ("GET", f"/api/v1/competitions/{S}/standings", None, EVERYONE, 200),
    # The public mirror's own two: a mirror answers them, the hall never.
    ("GET", f"/api/v1/competitions/{S}/mirror", None, EVERYONE, 404),
    ("POST", "/api/v1/mirror/push", {}, EVERYONE, 404),
    ("POST", "/api/v1/mirror/held", {}, EVERYONE, 404),
    ("GET", f"/api/v1/competitions/{S}/objections/", None, STAFF_DESK, 200),
    (
        "POST",
        f"/api/v1/competitions/{S}/objections/",
        {"team": "{team}", "text": "for sent"},
        STAFF_DESK,
        201,
    ),
    (
        "POST",
        f"/api/v1/competitions/{S}/objections/{{objection}}/resolve",
        {"decision": "rejected", "note": "nej"},
        ONLY_ADMIN,
        200,
    ),
    ("POST", f"/api/v1/competitions/{S}/finalise", {}, ONLY_ADMIN, (409, "clock_running")),
    # --- public pages --------------------------------------------------------------------
    ("GET", "/", None, EVERYONE, 200),
    ("GET", "/rules/", None, EVERYONE, 200),
    ("GET", f"/{S}/", None, EVERYONE, 200),
    ("GET", "/dm-2026-program/", None, EVERYONE, 200),  # a championship's programme
    # A championship's slug on a competition's addresses: its stage, control room and desk.
    ("GET", "/dm-2026-program/screen/", None, EVERYONE, 200),
    ("GET", "/dm-2026-program/qr.svg", None, EVERYONE, 200),
    ("GET", "/control/dm-2026-program/", None, ONLY_ADMIN, 200),
    ("GET", "/desk/dm-2026-program/", None, STAFF_DESK, 200),
    ("POST", "/desk/dm-2026-program/teams/{heat_team}/check-in", {}, STAFF_DESK, 302),
    ("POST", "/desk/dm-2026-program/teams/{heat_team}/check-in/undo", {}, STAFF_DESK, 302),
    ("POST", "/desk/dm-2026-program/teams/{heat_team}/fee", {"paid": "1"}, STAFF_DESK, 302),
    ("GET", "/desk/dm-2026-program/teams/new/", None, STAFF_DESK, 200),
    ("GET", "/desk/dm-2026-program/teams/new/?competition=dm-2026-heat", None, STAFF_DESK, 200),
    ("POST", "/desk/dm-2026-program/teams/new/?competition=dm-2026-heat", NEW, STAFF_DESK, 302),
    ("GET", "/desk/dm-2026-program/refunds/", None, STAFF_DESK, 200),
    ("GET", "/desk/dm-2026-program/missing/", None, STAFF_DESK, 200),
    ("GET", "/desk/dm-2026-program/cards/", None, STAFF_DESK, 200),
    ("GET", "/control/dm-2026-program/judges/", None, ONLY_ADMIN, 200),
    (
        "POST",
        "/control/dm-2026-program/judges/",
        {"username": "dm-dommer", "password": "pusle-bord-18"},
        ONLY_ADMIN,
        200,
    ),
    ("GET", "/control/dm-2026-program/judges/slips/", None, ONLY_ADMIN, 200),
    ("POST", "/control/dm-2026-program/judges/{judge}/password", {}, ONLY_ADMIN, 200),
    ("POST", "/control/dm-2026-program/judges/{judge}/revoke", {}, ONLY_ADMIN, 302),
    ("GET", "/desk/dm-2026-program/import/", None, STAFF_DESK, 200),  # which competition
    ("POST", "/desk/dm-2026-program/import/", {}, STAFF_DESK, 200),  # none chosen: asks
    ("GET", f"/{S}/screen/", None, EVERYONE, 200),
    ("GET", f"/{S}/feed/", None, EVERYONE, 200),
    ("GET", f"/{S}/overlay/", None, EVERYONE, 200),
    ("GET", f"/{S}/teams/{{team}}/", None, EVERYONE, 200),
    ("GET", f"/{S}/results.csv", None, EVERYONE, 200),
    # --- desk ----------------------------------------------------------------------------
    ("GET", "/desk/new/", None, ONLY_ADMIN, 200),
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
        302,
    ),
    ("GET", "/desk/new/?championship=dm-2026-program", None, ONLY_ADMIN, 200),
    ("GET", "/desk/new/championship/", None, ONLY_ADMIN, 200),
    ("POST", "/desk/new/championship/", {"name": "Mesterskab 2"}, ONLY_ADMIN, 302),
    ("GET", f"/desk/{S}/", None, STAFF_DESK, 200),
    ("GET", f"/desk/{S}/setup/", None, ONLY_ADMIN, 200),
    # deleting: the clock runs (refused, back to its setup with the sentence); a championship
    # that still holds a competition (refused, back to its control room)
    ("POST", f"/desk/{S}/delete", {}, ONLY_ADMIN, 302),
    ("POST", "/desk/dm-2026-program/delete", {}, ONLY_ADMIN, 302),
    ("GET", f"/desk/{S}/teams/new/", None, STAFF_DESK, 200),
    ("POST", f"/desk/{S}/teams/new/", NEW, STAFF_DESK, 302),
    ("GET", f"/desk/{S}/teams/{{team}}/", None, STAFF_DESK, 200),
    ("POST", f"/desk/{S}/teams/{{team}}/check-in", {}, STAFF_DESK, 302),
    ("POST", f"/desk/{S}/teams/{{team}}/check-in/undo", {}, STAFF_DESK, 302),
    ("POST", f"/desk/{S}/teams/{{team}}/fee", {}, STAFF_DESK, 302),
    ("POST", f"/desk/{S}/teams/{{team}}/withdraw", {}, STAFF_DESK, 302),
    ("POST", f"/desk/{S}/teams/{{team}}/withdraw/undo", {}, STAFF_DESK, 302),
    ("GET", f"/desk/{S}/refunds/", None, STAFF_DESK, 200),
    ("GET", f"/desk/{S}/missing/", None, STAFF_DESK, 200),
    ("GET", f"/desk/{S}/teams.csv", None, STAFF_DESK, 200),
    ("GET", f"/desk/{S}/import/", None, STAFF_DESK, 200),
    ("GET", f"/desk/{S}/import/example.csv", None, STAFF_DESK, 200),
    ("GET", f"/desk/{S}/cards/", None, STAFF_DESK, 200),
    # --- judge ---------------------------------------------------------------------------
    ("GET", "/judge/sw.js", None, EVERYONE, 200),
    ("GET", f"/judge/{S}/", None, STAFF_JUDGE, 200),
    ("GET", f"/judge/{S}/board/", None, STAFF_JUDGE, 200),  # htmx asks (HEADERS)
    # a championship's tablet: the same routes, of a championship's slug
    ("GET", "/judge/dm-2026-program/", None, STAFF_JUDGE, 200),
    ("GET", "/judge/dm-2026-program/board/", None, STAFF_JUDGE, 200),  # htmx asks (HEADERS)
    ("GET", "/judge/no-such-slug/", None, STAFF_JUDGE, 404),
    # --- control room --------------------------------------------------------------------
    ("GET", f"/control/{S}/", None, ONLY_ADMIN, 200),
    ("POST", f"/control/{S}/clock/start", {}, ONLY_ADMIN, 302),
    ("POST", f"/control/{S}/clock/stop", {}, ONLY_ADMIN, 302),
    ("GET", f"/control/{S}/audit/", None, ONLY_ADMIN, 200),
    ("GET", f"/control/{S}/teams/{{team}}/", None, ONLY_ADMIN, 200),
    ("POST", f"/control/{S}/teams/{{team}}/warning", {"warning-reason": "støj"}, ONLY_ADMIN, 302),
    ("POST", f"/control/{S}/teams/{{team}}/disqualify", {"dq-reason": "hjælp"}, ONLY_ADMIN, 302),
    ("POST", f"/control/{S}/teams/{{team}}/reinstate", {"dq-reason": "fejl"}, ONLY_ADMIN, 302),
    (
        "POST",
        f"/control/{S}/teams/{{team3}}/count",
        {"count-pieces": 60, "count-reason": "rettet"},
        ONLY_ADMIN,
        302,
    ),
    (
        "POST",
        f"/control/{S}/teams/{{team}}/finishes/{{finish}}/correct",
        {"f{finish}-time": "0:28:00", "f{finish}-reason": "rettet"},
        ONLY_ADMIN,
        302,
    ),
    (
        "POST",
        f"/control/{S}/teams/{{team}}/finishes/{{finish}}/delete",
        {"d{finish}-reason": "fejl"},
        ONLY_ADMIN,
        302,
    ),
    # --- the big screen ---------------------------------------------------------
    ("GET", f"/control/{S}/screen/", None, ONLY_ADMIN, 200),
    (
        "POST",
        f"/control/{S}/screen/mode",
        {"mode": "message", "message": "Pause"},
        ONLY_ADMIN,
        302,
    ),
    ("POST", f"/control/{S}/screen/hold", {"hold": "1"}, ONLY_ADMIN, 302),
    ("POST", f"/control/{S}/screen/reveal/start", {"from_place": "2"}, ONLY_ADMIN, 302),
    ("POST", f"/control/{S}/screen/reveal/next", {}, ONLY_ADMIN, 302),
    ("GET", f"/control/{S}/speaker/", None, ONLY_ADMIN, 200),
    # --- a round's advance page (championships): a competition alone has no earlier round,
    # so the page says so and the form answers its error (200, nothing written) ---------
    ("GET", f"/control/{S}/advance/", None, ONLY_ADMIN, 200),
    (
        "POST",
        f"/control/{S}/advance/",
        {"from": ["dm-2026-heat"], "best": 1, "per": "each", "tie": "all"},
        ONLY_ADMIN,
        200,
    ),
    # its undo: the clock has started, so it is refused with a message (nothing written)
    ("POST", f"/control/{S}/advance/undo", {}, ONLY_ADMIN, 302),
    # --- objections: the desk files and prints, the control room resolves ----
    ("GET", f"/desk/{S}/objections/", None, STAFF_DESK, 200),
    (
        "POST",
        f"/desk/{S}/objections/",
        {"team": "{team}", "text": "for sent"},
        STAFF_DESK,
        302,
    ),
    ("GET", f"/desk/{S}/official/", None, STAFF_DESK, 200),
    ("GET", f"/control/{S}/objections/{{objection}}/resolve/", None, ONLY_ADMIN, 200),
    (
        "POST",
        f"/control/{S}/objections/{{objection}}/resolve/",
        {"decision": "rejected", "note": "nej"},
        ONLY_ADMIN,
        302,
    ),
    ("GET", f"/control/{S}/finalise/", None, ONLY_ADMIN, 200),
    ("POST", f"/control/{S}/finalise/", {}, ONLY_ADMIN, 302),
    ("GET", f"/control/{S}/audit.csv", None, ONLY_ADMIN, 200),
    # The old /objections/ addresses move permanently, for everyone (GET 301, POST 308);
    # the new address then checks the role.
    ("GET", f"/objections/{S}/new/", None, EVERYONE, 301),
    ("POST", f"/objections/{S}/new/", {"team": "{team}", "text": "for sent"}, EVERYONE, 308),
    ("GET", f"/objections/{S}/{{objection}}/resolve/", None, EVERYONE, 301),
    (
        "POST",
        f"/objections/{S}/{{objection}}/resolve/",
        {"decision": "rejected", "note": "nej"},
        EVERYONE,
        308,
    ),
    ("GET", f"/objections/{S}/finalise/", None, EVERYONE, 301),
    ("POST", f"/objections/{S}/finalise/", {}, EVERYONE, 308),
    ("GET", f"/objections/{S}/official/", None, EVERYONE, 301),
    ("GET", f"/objections/{S}/audit.csv", None, EVERYONE, 301),
    (
        "POST",
        f"/api/v1/competitions/{S}/clock/correct",
        {"started_at": "2026-11-28T10:00:00+01:00"},
        ONLY_ADMIN,
        (409, "has_finishes"),
    ),
    (
        "POST",
        f"/api/v1/competitions/{S}/tablets/heartbeat",
        {"device_id": "tablet-0001", "tables": [1], "waiting": 0},
        STAFF_JUDGE,
        204,
    ),
    ("POST", f"/api/v1/competitions/{S}/requests/{{request}}/cancel", {}, STAFF_JUDGE, 200),
    ("GET", "/healthz", None, EVERYONE, 200),
    ("GET", "/readyz", None, EVERYONE, 200),
    ("GET", f"/{S}/qr.svg", None, EVERYONE, 200),
    ("GET", f"/judge/{S}/sheets/", None, STAFF_JUDGE, 200),
    ("POST", f"/control/{S}/clock/correct", {"started_at": "2026-11-28T10:00:00"}, ONLY_ADMIN, 302),
    ("POST", f"/control/{S}/clock/stop/undo", {}, ONLY_ADMIN, 302),
    ("POST", f"/control/{S}/clock/withdraw/{{team}}", {}, ONLY_ADMIN, 302),
    ("GET", f"/control/{S}/logins/", None, ONLY_ADMIN, 200),
    ("POST", f"/control/{S}/logins/unlock", {"username": "m-judge"}, ONLY_ADMIN, 302),
    ("GET", f"/control/{S}/hall/", None, ONLY_ADMIN, 200),
    ("GET", f"/control/{S}/join/", None, ONLY_ADMIN, 200),
    ("GET", f"/control/{S}/judges/", None, ONLY_ADMIN, 200),
    (
        "POST",
        f"/control/{S}/judges/",
        {"username": "ny-dommer", "password": "pusle-bord-17"},
        ONLY_ADMIN,
        200,
    ),
    ("GET", f"/control/{S}/judges/slips/", None, ONLY_ADMIN, 200),
    ("POST", f"/control/{S}/judges/slips/", {}, ONLY_ADMIN, 200),
    ("POST", f"/control/{S}/judges/{{judge}}/password", {}, ONLY_ADMIN, 200),
    ("POST", f"/control/{S}/judges/{{judge}}/revoke", {}, ONLY_ADMIN, 302),
    (
        "POST",
        f"/control/{S}/teams/{{team2}}/paper/finish",
        {"paper-puzzle": 1, "paper-time": "0:20:00"},
        ONLY_ADMIN,
        302,
    ),
    (
        "POST",
        f"/control/{S}/teams/{{team2}}/paper/count",
        {"papercount-pieces": 40},
        ONLY_ADMIN,
        302,
    ),
    ("POST", f"/control/{S}/teams/{{team}}/withdraw", {"wd-reason": "syg"}, ONLY_ADMIN, 302),
    ("POST", f"/control/{S}/teams/{{team}}/withdraw/undo", {"wd-reason": "fejl"}, ONLY_ADMIN, 302),
]
# Request headers a route needs to answer as it does for its real caller.
HEADERS = {
    f"/judge/{S}/board/": {"HTTP_HX_REQUEST": "true"},
    "/judge/dm-2026-program/board/": {"HTTP_HX_REQUEST": "true"},
}


@pytest.fixture
def world(competition, teams):
    """A running competition: team 1 finished puzzle 1, team 3 has a count, one objection."""
    Competition.objects.filter(pk=competition.pk).update(
        started_at=timezone.now() - timedelta(minutes=30)
    )
    MemberFactory(team=teams[0], name="Alma Østergaard", under_15=True, guardian="Mette Ø")
    for name in ("Bo", "Cille", "Dan"):  # three at table 2: its finish at 0:30 is plausible
        MemberFactory(team=teams[1], name=name)
    finish = Finish.objects.create(
        team=teams[0], puzzle=competition.puzzles.get(position=1), elapsed_seconds=1500
    )
    count = Count.objects.create(
        team=teams[2], puzzle=competition.puzzles.get(position=1), pieces=40
    )
    objection = Objection.objects.create(team=teams[0], finish=finish, text="for sent")
    users = {
        role: staff_upsert(username=f"m-{role}", role=role, password="matrix-kodeord-7")[0]
        for role in (JUDGE, DESK, ADMIN)
    }
    users[ANON] = None
    program = Championship.objects.create(slug="dm-2026-program", name="DM-programmet")
    heat = CompetitionFactory(slug="dm-2026-heat", championship=program, round="Indledende runde A")
    heat_team = TeamFactory(competition=heat, name="Heatholdet", table=1)
    ids = {
        "team": teams[0].pk,
        "team2": teams[1].pk,
        "team3": teams[2].pk,
        "finish": finish.pk,
        "count": count.pk,
        "objection": objection.pk,
        "request": "5f0c2b1e-8d4a-4c3e-9a6b-2d7e1f0a9b3c",
        "judge": users[JUDGE].pk,
        "heat_team": heat_team.pk,
    }
    return users, ids


def snapshot() -> tuple:
    """Everything a write could change."""
    models = (
        Championship,
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
        Tablet,
        get_user_model(),
    )
    return tuple(str(list(model.objects.order_by("pk").values())) for model in models)


def fill(value, ids):
    if isinstance(value, str):
        return value.format(**ids) if "{" in value else value
    if isinstance(value, dict):
        out = {fill(k, ids): fill(v, ids) for k, v in value.items()}
        return {k: (int(v) if k == "team" and str(v).isdigit() else v) for k, v in out.items()}
    return value


def call(client, method, path, body, *, api):
    headers = HEADERS.get(path, {})
    if method == "GET":
        return client.get(path, **headers)
    if api:
        return getattr(client, method.lower())(
            path, body or {}, content_type="application/json", **headers
        )
    return client.post(path, body or {}, **headers)


CASES = [
    (m, p, b, allowed, ok, role)
    for (m, p, b, allowed, ok) in ROUTES
    for role in (ANON, JUDGE, DESK, ADMIN)
]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("method", "path", "body", "allowed", "ok", "role"),
    CASES,
    ids=[f"{m} {p} as {r}" for (m, p, _b, _a, _o, r) in CASES],
)
def test_permission_matrix(client, world, method, path, body, allowed, ok, role):
    users, ids = world
    if users[role] is not None:
        client.force_login(users[role])
    api = path.startswith("/api/")
    before = snapshot()
    response = call(client, method, path.format(**ids), fill(body, ids), api=api)
    status = response.status_code
    changed = snapshot() != before
    if role in allowed:
        expected, code = ok if isinstance(ok, tuple) else (ok, None)
        assert status == expected, f"{role} got {status}, not {expected}: {response.content[:300]}"
        if code is not None:
            assert response.json()["code"] == code
        if status == 302:
            assert not response["Location"].startswith("/accounts/login/")
        if method == "GET" or status >= 400:
            assert not changed, "a read or a refusal changed the database"
        elif api:
            assert changed, "an API write answered success but wrote nothing"
        return
    if api:
        assert status == 403, f"{role} got {status}"
    elif role == ANON:
        assert status == 302, f"{role} got {status}"
        assert response["Location"].startswith("/accounts/login/")
    else:
        assert status == 403, f"{role} got {status}"
    assert not changed, "a refused request changed the database"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("role", "expected"), [(ANON, 403), (DESK, 403), (JUDGE, 200), (ADMIN, 200)]
)
def test_count_confirm_exact_statuses(client, world, role, expected):
    """The second count: a judge or an admin confirms an equal count (200)."""
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
    listed = {p.split("?")[0] for (_m, p, _b, _a, _o) in ROUTES}
    normalised = {
        p.replace(S, "<slug:slug>")
        .replace("{team}", "<int>")
        .replace("{team2}", "<int>")
        .replace("{team3}", "<int>")
        .replace("{finish}", "<int>")
        .replace("{count}", "<int>")
        .replace("{objection}", "<int>")
        .replace("{judge}", "<int>")
        .replace("{heat_team}", "<int>")
        .replace("{request}", "<uuid>")
        for p in listed
    }
    import re

    missing = []
    for route in _routes(get_resolver().url_patterns):
        if not route.startswith(("api/v1/", "desk/", "judge/", "control/", "objections/")):
            continue
        shape = "/" + re.sub(r"<(?:int|id):\w+>", "<int>", route)
        shape = re.sub(r"<uuid:\w+>", "<uuid>", shape)
        if shape not in normalised:
            missing.append(shape)
    assert missing == [], f"routes without a row in the permission matrix: {missing}"
