"""A walk from the URL resolver (config.urls): every public, desk, judge and control-room page
whose address takes a `<slug>` also takes a championship's slug (of one with two
competitions) and answers a real page for the role it is for (200, or a redirect to one),
or it is in `REASONS` with why a championship has none; `REASONS` itself names only routes
that exist and do not answer. Slugs of championships and competitions share one namespace,
so a championship's page lives on a competition page's address (docs/architecture.md
"Pages by audience")."""

import re
from datetime import timedelta

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone

from competition.services import championship_create, competition_create, staff_upsert
from tests.factories import MemberFactory, TeamFactory

pytestmark = pytest.mark.django_db

_ONE = "one competition's: "
# Why a championship's slug has no page on these addresses (the route as the resolver says it).
REASONS = {
    # The clock, its start and its stop are one competition's (R7): each heat starts alone.
    "control/<slug:slug>/clock/start": _ONE + "its clock starts alone",
    "control/<slug:slug>/clock/correct": _ONE + "its clock",
    "control/<slug:slug>/clock/stop": _ONE + "its clock",
    "control/<slug:slug>/clock/stop/undo": _ONE + "its clock",
    "control/<slug:slug>/clock/withdraw/<id:pk>": _ONE + "a withdrawal at its clock's start",
    "control/<slug:slug>/finalise/": _ONE + "its results are finalised alone",
    "control/<slug:slug>/objections/<id:pk>/resolve/": _ONE + "an objection is of its results",
    "control/<slug:slug>/audit/": _ONE + "the audit log is kept per competition",
    "control/<slug:slug>/audit.csv": _ONE + "the audit log is kept per competition",
    "control/<slug:slug>/logins/": _ONE + "reached from its control room (the logins are global)",
    "control/<slug:slug>/logins/unlock": _ONE + "reached from its control room",
    "control/<slug:slug>/hall/": _ONE + "its tablets' heartbeats and backups",
    "control/<slug:slug>/join/": _ONE
    + "its join sheet (the judges' slips carry the championship's)",
    "control/<slug:slug>/teams/<id:pk>/": _ONE + "an entrant's results in its competition",
    "control/<slug:slug>/teams/<id:pk>/paper/finish": _ONE + "a finish in its competition",
    "control/<slug:slug>/teams/<id:pk>/paper/count": _ONE + "a count in its competition",
    "control/<slug:slug>/teams/<id:pk>/warning": _ONE + "a warning in its competition",
    "control/<slug:slug>/teams/<id:pk>/disqualify": _ONE + "a disqualification in its results",
    "control/<slug:slug>/teams/<id:pk>/reinstate": _ONE + "a disqualification in its results",
    "control/<slug:slug>/teams/<id:pk>/withdraw": _ONE + "a withdrawal after its start",
    "control/<slug:slug>/teams/<id:pk>/withdraw/undo": _ONE + "a withdrawal after its start",
    "control/<slug:slug>/teams/<id:pk>/count": _ONE + "a count in its competition",
    "control/<slug:slug>/teams/<id:pk>/finishes/<id:finish_id>/correct": _ONE + "a finish",
    "control/<slug:slug>/teams/<id:pk>/finishes/<id:finish_id>/delete": _ONE + "a finish",
    "control/<slug:slug>/screen/": _ONE + "its big screen's modes (the championship's stage "
    "is /<championship>/screen/)",
    "control/<slug:slug>/screen/mode": _ONE + "its big screen's modes",
    "control/<slug:slug>/screen/hold": _ONE + "its reveal",
    "control/<slug:slug>/screen/reveal/start": _ONE + "its reveal",
    "control/<slug:slug>/screen/reveal/next": _ONE + "its reveal",
    "control/<slug:slug>/speaker/": _ONE + "the speaker follows one competition",
    "control/<slug:slug>/advance/": _ONE + "a round takes its entrants from earlier rounds",
    "control/<slug:slug>/advance/undo": _ONE + "a round's advance is taken back",
    "desk/<slug:slug>/setup/": _ONE + "its puzzles, start and duration",
    "desk/<slug:slug>/teams/<id:pk>/": _ONE + "the form is the entrant's competition's "
    "(the championship's rows link there)",
    "desk/<slug:slug>/teams/<id:pk>/withdraw": _ONE + "from the entrant's form",
    "desk/<slug:slug>/teams/<id:pk>/withdraw/undo": _ONE + "from the entrant's form",
    "desk/<slug:slug>/teams.csv": _ONE + "the sheet has its discipline's columns",
    "desk/<slug:slug>/objections/": _ONE + "an objection is of its results",
    "desk/<slug:slug>/official/": _ONE + "its official results",
    "judge/<slug:slug>/sheets/": _ONE + "the paper sheets of its puzzles",
    "<slug:slug>/teams/<id:team_id>/": _ONE + "an entrant's page is its competition's",
    "<slug:slug>/results.csv": _ONE + "its results",
    "<slug:slug>/feed/": _ONE + "the speaker's feed of one competition",
    "<slug:slug>/overlay/": _ONE + "the stream's overlay of one competition",
}

ROLE = {"desk/": "desk", "judge/": "judge", "control/": "admin"}
# The desk's addresses only the head judge (admin) uses: deleting (a championship's slug
# deletes the championship when it holds no competitions; else the control room says why).
ADMIN_ONLY = {"desk/<slug:slug>/delete"}


def routes(patterns=None, prefix=""):
    """Every route of config.urls as the resolver says it ("desk/<slug:slug>/cards/")."""
    for p in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(p, URLResolver):
            yield from routes(p.url_patterns, prefix + str(p.pattern))
        elif isinstance(p, URLPattern):
            yield prefix + str(p.pattern)


def slug_pages() -> list[str]:
    """The pages (not the API, not the old addresses that moved) that take a `<slug>`."""
    return sorted(
        {
            r
            for r in routes()
            if "<slug:slug>" in r and not r.startswith(("api/", "objections/", "admin/"))
        }
    )


@pytest.fixture
def dm(db):
    """A championship of two heats, an entrant in each, and a judge's login."""
    dm = championship_create(by=None, slug="dm-walk", name="DM 2027")
    soon = timezone.now() + timedelta(days=1)
    teams = []
    for i, slug in enumerate(("heat-a", "heat-b")):
        heat = competition_create(
            by=None,
            slug=slug,
            name=slug,
            discipline="individual",
            championship=dm,
            starts_at=soon + timedelta(hours=2 * i),
        )
        team = TeamFactory(competition=heat, name=f"Deltager {i}", table=1)
        MemberFactory(team=team, name=f"Deltager {i}")
        teams.append(team)
    judge = staff_upsert(username="walk-dommer", role="judge", password="pusle-bord-17")[0]
    return dm, teams, judge


def answer(client, route: str, dm, teams, judge):
    """The route with the championship's slug (and its entrant's or the judge's id) asked
    for by its role: a GET, or a POST where only a POST is taken; a redirect followed once."""
    path = "/" + route.replace("<slug:slug>", dm.slug)
    pk = judge.pk if "/judges/" in route else teams[0].pk
    path = re.sub(r"<id:(pk|team_id)>", str(pk), path)
    response = client.get(path)
    if response.status_code == 405:
        response = client.post(path, {})
    if response.status_code in (301, 302, 303):
        location = response["Location"]
        assert "/accounts/login/" not in location, f"{path}: sent to log in"
        return client.get(location)
    return response


def test_every_slug_page_takes_a_championships_slug_or_names_why_not(client, dm, make_user):
    championship, teams, judge = dm
    users = {role: make_user(role, f"walk-{role}") for role in ("desk", "judge", "admin")}
    wrong = []
    for route in slug_pages():
        if route in REASONS:
            continue
        role = next((r for prefix, r in ROLE.items() if route.startswith(prefix)), None)
        role = "admin" if route in ADMIN_ONLY else role
        client.logout()
        if role:
            client.force_login(users[role])
        response = answer(client, route, championship, teams, judge)
        if response.status_code != 200:
            wrong.append(f"{route}: {response.status_code}")
    assert wrong == [], "pages that do not take a championship's slug, nor say why: " + str(wrong)


def test_every_reason_is_of_a_real_route_that_does_not_answer(client, dm, make_user):
    """A reason names a route that exists and takes a slug; once a championship's page is
    built there, its reason goes (else the walk would never check that page)."""
    championship, teams, judge = dm
    pages = set(slug_pages())
    assert sorted(set(REASONS) - pages) == [], "reasons for routes that do not exist"
    assert all(reason.strip() for reason in REASONS.values())
    client.force_login(make_user("admin", "walk-admin"))  # admin holds every role
    answered = [
        r for r in REASONS if answer(client, r, championship, teams, judge).status_code < 400
    ]
    assert answered == [], "a championship's slug answers here: take the reason out"
