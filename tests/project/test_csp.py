"""A Content-Security-Policy on every page (django-csp):
scripts and styles only from our own files, so every page must work without inline
script, event-handler attributes, inline style attributes or `<style>` blocks."""

import re
from datetime import timedelta
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from judging.models import Count, Finish, Objection
from tests.factories import PuzzleFactory
from tests.project import test_privacy as privacy


@pytest.fixture
def privacy_world(db):
    """tests/project/test_privacy.py's world: every object a route names has one id."""
    return privacy.build_world()


class InlineFinder(HTMLParser):
    """What a strict policy (no 'unsafe-inline') would block in a page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.in_inline_script = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        data_block = attrs.get("type") == "application/json"  # json_script: never run
        if tag == "script" and not attrs.get("src") and not data_block:
            self.found.append(f"<script> without src: {attrs}")
        if tag == "style":
            self.found.append("<style> block")
        for name, value in attrs.items():
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}={value!r}>")
            if name == "style":
                self.found.append(f"<{tag} style={value!r}>")
            if name in ("href", "src", "action") and (value or "").lower().startswith(
                "javascript:"
            ):
                self.found.append(f"<{tag} {name}={value!r}>")


def inline_parts(html: str) -> list[str]:
    finder = InlineFinder()
    finder.feed(html)
    return finder.found


# The page scripts that arm a form's question (static/js/confirm.mjs): read from the files,
# so a new page script that arms it counts without a change here.
STATIC_JS = Path(__file__).resolve().parents[2] / "static" / "js"
ARMING = {
    path.stem
    for path in STATIC_JS.glob("*.mjs")
    if path.name != "confirm.mjs" and "setupConfirm()" in path.read_text()
}


def dead_confirm_buttons(html: str) -> bool:
    """A whole page with a form that asks first (data-confirm) but no script that arms the
    question: app.css keeps its button from taking a click until armed, so it never would."""
    if "data-confirm=" not in html:
        return False
    scripts = re.findall(r'<script[^>]*\bsrc="[^"]*/js/([a-z_]+)(?:\.[0-9a-f]+)?\.mjs"', html)
    return not ARMING.intersection(scripts)


@pytest.fixture
def world(competition, teams, start_clock, judge, desk, admin_user):
    """A running competition of 6 puzzles (the official results print in landscape) with a
    finish (the race chart and its legend), a count (a part-filled bar) and an objection."""
    for position in (4, 5, 6):
        PuzzleFactory(competition=competition, position=position, pieces=500)
    start_clock(competition, ago=timedelta(minutes=45))
    puzzle = competition.puzzles.get(position=1)
    finish = Finish.objects.create(team=teams[0], puzzle=puzzle, elapsed_seconds=1500)
    Count.objects.create(team=teams[1], puzzle=puzzle, pieces=240)
    objection = Objection.objects.create(team=teams[0], finish=finish, text="for sent")
    competition.refresh_from_db()
    competition.bump_standings()
    superuser = get_user_model().objects.create_superuser("chef", password="x")
    return {
        "competition": competition,
        "team": teams[0],
        "objection": objection,
        "users": {"judge": judge, "desk": desk, "admin": admin_user, "superuser": superuser},
    }


def pages(world):
    s, team, objection = world["competition"].slug, world["team"].pk, world["objection"].pk
    return [
        (None, "/", {}),
        (None, "/rules/", {}),
        (None, f"/{s}/", {}),
        (None, f"/{s}/", {"HTTP_HX_REQUEST": "true"}),
        (None, f"/{s}/screen/", {}),
        (None, f"/{s}/screen/", {"HTTP_HX_REQUEST": "true"}),
        (None, f"/{s}/teams/{team}/", {}),
        (None, "/accounts/login/", {}),
        (None, "/findes-ikke/", {}),
        ("judge", f"/{s}/", {}),
        ("judge", f"/judge/{s}/", {}),
        ("judge", f"/judge/{s}/board/", {"HTTP_HX_REQUEST": "true"}),
        ("desk", f"/desk/{s}/", {}),
        ("desk", f"/desk/{s}/teams/new/", {}),
        ("desk", f"/desk/{s}/teams/{team}/", {}),
        ("desk", f"/desk/{s}/refunds/", {}),
        ("desk", f"/desk/{s}/import/", {}),
        ("desk", f"/desk/{s}/cards/", {}),
        ("desk", f"/desk/{s}/objections/", {}),
        ("desk", f"/desk/{s}/official/", {}),
        ("desk", f"/control/{s}/", {}),  # 403 page
        ("admin", "/desk/new/", {}),
        ("admin", f"/desk/{s}/setup/", {}),
        ("admin", f"/control/{s}/", {}),
        ("admin", f"/control/{s}/audit/", {}),
        ("admin", f"/control/{s}/logins/", {}),
        ("admin", f"/control/{s}/teams/{team}/", {}),
        ("admin", f"/control/{s}/objections/{objection}/resolve/", {}),
        ("admin", "/admin/", {}),
        ("admin", "/admin/competition/team/", {}),
        ("admin", f"/admin/competition/team/{team}/change/", {}),
        ("admin", "/admin/judging/auditentry/", {}),
        ("superuser", "/admin/auth/user/", {}),
        (None, "/api/docs/", {}),
    ]


@pytest.mark.django_db
def test_every_page_has_the_policy_and_nothing_inline_it_would_block(client, world):
    """The pages an earlier hand-written list named, with the world above."""
    problems = {}
    for role, path, headers in pages(world):
        client.logout()
        if role:
            client.force_login(world["users"][role])
        response = client.get(path, **headers)
        assert response.status_code in (200, 403, 404), (role, path, response.status_code)
        policy = response.get("Content-Security-Policy", "")
        assert "script-src 'self'" in policy, (path, policy)
        assert "style-src 'self'" in policy, (path, policy)
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, (path, policy)
        found = inline_parts(response.content.decode())
        if found:
            problems[f"{role or 'anonymous'} {path}"] = found
    assert problems == {}, "\n".join(f"{k}: {v}" for k, v in problems.items())


# Pages the walk must have rendered (200) for the role: the print sheets whose buttons the
# policy blocked among them, proof that it read more than refusals.
RENDERED = {
    # A championship's programme and its big screen.
    "anonymous": [f"/{privacy.CHAMPIONSHIP}/", f"/{privacy.CHAMPIONSHIP}/screen/"],
    "judge": [
        f"/judge/{privacy.SLUG}/",
        f"/judge/{privacy.SLUG}/sheets/",
        f"/judge/{privacy.CHAMPIONSHIP}/",  # a championship's tablet
    ],
    "desk": [
        f"/desk/{privacy.SLUG}/",
        f"/desk/{privacy.SLUG}/cards/",
        f"/desk/{privacy.CHAMPIONSHIP}/",
    ],
    "admin": [
        f"/control/{privacy.SLUG}/",
        f"/control/{privacy.CHAMPIONSHIP}/",
        f"/desk/{privacy.CHAMPIONSHIP}/",
        f"/control/{privacy.SLUG}/join/",
        f"/control/{privacy.SLUG}/judges/",
        f"/control/{privacy.SLUG}/judges/slips/",
        f"/desk/{privacy.SLUG}/official/",
    ],
}


@pytest.mark.parametrize("role", ["anonymous", "judge", "desk", "admin", "superuser"])
def test_no_route_for_any_role_has_an_inline_handler_or_script(client, privacy_world, role):
    """Every route the URL resolver knows (as tests/project/test_privacy.py walks them),
    as every role, plain and as htmx asks: no `on*=` attribute, no inline script, no
    inline style, and the policy on every HTML answer."""
    _competition, _team, _other, users = privacy_world
    if role == "superuser":
        users["superuser"] = get_user_model().objects.create_superuser(
            "chef-csp", password="chef-kodeord-26"
        )
    if users[role] is not None:
        client.force_login(users[role])
    problems, statuses = {}, {}
    for path in privacy.every_path():
        for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
            response = client.get(path, **headers)
            assert response.status_code < 500, (path, headers, response.status_code)
            statuses[(path, bool(headers))] = response.status_code
            if "html" not in response.get("Content-Type", ""):
                continue
            policy = response.get("Content-Security-Policy", "")
            assert "script-src 'self'" in policy and "unsafe-inline" not in policy, path
            found = inline_parts(response.content.decode())
            if not headers and dead_confirm_buttons(response.content.decode()):
                found.append("a data-confirm form, and no script that arms it")
            if found:
                problems[f"{path} {headers}"] = found
    assert problems == {}, "\n".join(f"{k}: {v}" for k, v in problems.items())
    for path in RENDERED.get(role, []):
        assert statuses[(path, False)] == 200, (role, path, statuses[(path, False)])


def test_a_form_that_asks_first_is_found_without_the_script_that_arms_it():
    """The walk above finds a page whose asking buttons would never take a click."""
    assert {"control", "desk"} <= ARMING
    form = '<form method="post" data-confirm="Stop uret nu?"><button>Stop</button></form>'
    assert dead_confirm_buttons(f"<html><body>{form}</body></html>")
    assert dead_confirm_buttons(f'{form}<script type="module" src="/static/js/public.mjs">')
    assert not dead_confirm_buttons(f'{form}<script type="module" src="/static/js/desk.mjs">')
    hashed = '<script type="module" src="/static/js/control.3f2a9c1b7d4e.mjs"></script>'
    assert not dead_confirm_buttons(form + hashed)
    assert not dead_confirm_buttons("<p>nothing asks here</p>")


@pytest.mark.django_db
def test_api_docs_load_their_setup_from_a_file(client):
    """Swagger UI's start-up script is a file of its own (no inline script)."""
    body = client.get("/api/docs/").content.decode()
    assert inline_parts(body) == []
    assert "swagger-ui" in body
    script = client.get("/api/docs/?script=")
    assert script.status_code == 200
    assert script["Content-Type"].startswith("application/javascript")
    assert b"SwaggerUIBundle" in script.content


def test_htmx_injects_no_indicator_style(client, db):
    """htmx adds a <style> element for its indicators unless told not to (a CSP refusal)."""
    body = client.get("/").content.decode()
    assert '<meta name="htmx-config" content=\'{"includeIndicatorStyles":false,' in body
