"""No personal data on any public or judge-visible surface (docs/contracts.md, R1).

Personal data is a team's members, their accompanying adults, the contact's name, e-mail and
phone, and the desk's notes. Each field holds a value found nowhere else, and every answer an
anonymous visitor or a judge can get is searched for each of them:

- every route the project has, walked from the URL resolver (so a route added later is
  searched too), read plainly and as htmx asks for a fragment: pages, fragments, JSON, CSV,
  the OpenAPI schema and its docs, and the refusals (a redirect to the login page, the 403
  page) a wrong role gets;
- the error pages and answers: 404 pages, the API's 404, 400 and 409 answers;
- the answers to a judge's writes (finish, count, warning, correction).

Every object a route can name (team, finish, count, warning, objection, member) has the same
id, so each number in a route names the team with the personal data or something of it.
The desk and the head judge (admin) do see every value (the test's own check that the values
are planted where a leak would show them).
"""

import re
from datetime import timedelta
from uuid import UUID

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone

from competition.models import Championship, Competition
from competition.services import staff_upsert
from judging.models import Count, Finish, Objection, Warning
from tests.factories import CompetitionFactory, MemberFactory, PuzzleFactory, TeamFactory

pytestmark = pytest.mark.django_db

SLUG = "dm-privat"
# The championship the competition is in: a slug that is no competition's, so `/<slug>/` is
# its programme (the leaders by name) and the walk reads it and its API too.
CHAMPIONSHIP = "dm-privat-mesterskab"
ID = 4242
TEAM_NAME = "Hemmelighedsholdet"  # public: every surface that lists the team shows it

# field -> the value planted in it, and the part of it that must never be shown.
PERSONAL = {
    "member": ("Zorbalina Quixmember", "Quixmember"),
    "minor": ("Ysolde Minormemberix", "Minormemberix"),
    "guardian": ("Wilhelmina Guardquist", "Guardquist"),
    "contact_name": ("Vortigern Contactsby", "Contactsby"),
    "contact_email": ("vortigern.kontakt@privatmail.example", "privatmail"),
    "contact_phone": ("+45 9183 7264", "91837264"),
    "notes": ("Allergisk over for Pinecone-pollen", "Pinecone"),
}


def leaks(content: bytes) -> list[str]:
    """The personal values in an answer (white space ignored: '9183 7264' is '91837264')."""
    text = "".join(content.decode("utf-8-sig", errors="replace").split())
    return [field for field, (_value, mark) in PERSONAL.items() if mark in text]


@pytest.fixture
def world(db):
    return build_world()


def build_world():
    """Time is up (the clock ran 3 of the 4 hours ago). The team with the personal data
    finished puzzle 1 (one lone piece missing), was counted on puzzle 2, warned, and
    objected; another team finished nothing. Everything of it has the id `ID`."""
    championship = Championship.objects.create(slug=CHAMPIONSHIP, name="DM privat mesterskab")
    competition = CompetitionFactory(
        slug=SLUG, name="DM privat", max_at_table=4, championship=championship
    )
    for position, pieces in enumerate((500, 1000, 1000), start=1):
        PuzzleFactory(competition=competition, position=position, pieces=pieces)
    Competition.objects.filter(pk=competition.pk).update(
        started_at=timezone.now() - timedelta(hours=4)
    )
    value = {field: v for field, (v, _mark) in PERSONAL.items()}
    team = TeamFactory(
        pk=ID,
        competition=competition,
        name=TEAM_NAME,
        table=7,
        checked_in_at=timezone.now() - timedelta(hours=5),
        contact_name=value["contact_name"],
        contact_email=value["contact_email"],
        contact_phone=value["contact_phone"],
        notes=value["notes"],
    )
    MemberFactory(pk=ID, team=team, name=value["member"])
    MemberFactory(team=team, name=value["minor"], under_15=True, guardian=value["guardian"])
    other = TeamFactory(competition=competition, name="Andetholdet", table=8)
    finish = Finish.objects.create(
        pk=ID,
        team=team,
        puzzle=competition.puzzles.get(position=1),
        elapsed_seconds=2400,
        missing=[1],
    )
    Count.objects.create(pk=ID, team=team, puzzle=competition.puzzles.get(position=2), pieces=300)
    Warning.objects.create(pk=ID, team=team, reason="Larm ved bordet")
    Objection.objects.create(pk=ID, team=team, finish=finish, text="Tiden er forkert")
    competition.bump_standings()
    users = {
        role: staff_upsert(username=f"p-{role}", role=role, password="privat-kodeord-7")[0]
        for role in ("judge", "desk", "admin")
    }
    users["anonymous"] = None
    return competition, team, other, users


# --- every route, filled in ---------------------------------------------------------------
def _patterns(patterns, prefix=""):
    for p in patterns:
        if isinstance(p, URLResolver):
            yield from _patterns(p.url_patterns, prefix + str(p.pattern))
        elif isinstance(p, URLPattern):
            yield prefix + str(p.pattern)


def _value(converter: str, name: str) -> str:
    if converter == "slug" or name == "slug":
        return SLUG
    if converter == "uuid":
        return str(UUID(int=ID))
    return str(ID)


def _group(match) -> str:
    """A regex route's named group: a listed word (the app 'competition' when it is one)."""
    words = match.group(2).split("|")
    if all(re.fullmatch(r"\w+", w) for w in words):
        return "competition" if "competition" in words else words[0]
    return str(ID)


def every_path() -> list[str]:
    paths = set()
    for route in _patterns(get_resolver().url_patterns):
        path = re.sub(r"\(\?P<(\w+)>([^)]*)\)", _group, route).replace("^", "").replace("$", "")
        path = re.sub(r"<(?:(\w+):)?(\w+)>", lambda m: _value(m.group(1) or "", m.group(2)), path)
        paths.add("/" + path)
    # A championship's slug on the addresses that answer it: the programme, its big screen
    # and QR code, its control room and desk (and a check-in there: a GET, refused).
    paths |= {
        f"/{CHAMPIONSHIP}/",
        f"/{CHAMPIONSHIP}/screen/",
        f"/{CHAMPIONSHIP}/qr.svg",
        f"/control/{CHAMPIONSHIP}/",
        f"/desk/{CHAMPIONSHIP}/",
        f"/desk/{CHAMPIONSHIP}/teams/{ID}/check-in",
        f"/desk/{CHAMPIONSHIP}/teams/{ID}/fee",
        f"/desk/{CHAMPIONSHIP}/teams/new/",
        f"/desk/{CHAMPIONSHIP}/refunds/",
        f"/desk/{CHAMPIONSHIP}/missing/",
        f"/desk/{CHAMPIONSHIP}/cards/",
        f"/control/{CHAMPIONSHIP}/judges/",
        f"/control/{CHAMPIONSHIP}/judges/slips/",
        f"/desk/{CHAMPIONSHIP}/import/",
        f"/api/v1/championships/{CHAMPIONSHIP}/",
        # the championship's tablet (its competition's time is up: the counts are on it)
        f"/judge/{CHAMPIONSHIP}/",
        f"/judge/{CHAMPIONSHIP}/board/",
    }
    return sorted(paths)


def test_the_walk_reaches_every_kind_of_route():
    paths = every_path()
    assert len(paths) > 100
    for path in (
        "/",
        f"/{SLUG}/",
        f"/{CHAMPIONSHIP}/",
        f"/{SLUG}/teams/{ID}/",
        f"/{SLUG}/results.csv",
        "/api/schema/",
        f"/api/v1/competitions/{SLUG}/teams/",
        f"/api/v1/competitions/{SLUG}/teams/{ID}/",
        f"/api/v1/competitions/{SLUG}/finishes/{ID}/",
        f"/judge/{SLUG}/board/",
        f"/desk/{SLUG}/teams/{ID}/",
        f"/control/{SLUG}/teams/{ID}/finishes/{ID}/correct",
        f"/admin/competition/team/{ID}/change/",
        "/admin/competition/",
    ):
        assert path in paths
    assert not [p for p in paths if re.search(r"[<>()^$]", p)]


# Answers that must show the team (by name): proof that the walk read the pages a leak
# would be on, not only refusals.
SHOWS_THE_TEAM = {
    "anonymous": [
        f"/{SLUG}/",
        f"/{CHAMPIONSHIP}/",
        f"/{CHAMPIONSHIP}/screen/",  # no competition runs: the programme with its leaders
        f"/{SLUG}/screen/",
        f"/{SLUG}/teams/{ID}/",
        f"/{SLUG}/results.csv",
        f"/api/v1/competitions/{SLUG}/standings",
        f"/api/v1/competitions/{SLUG}/teams/",
        f"/api/v1/competitions/{SLUG}/teams/{ID}/",
    ],
}
SHOWS_THE_TEAM["judge"] = SHOWS_THE_TEAM["anonymous"] + [
    f"/judge/{SLUG}/",
    f"/judge/{CHAMPIONSHIP}/",
]


@pytest.mark.parametrize("role", ["anonymous", "judge"])
def test_no_personal_data_on_any_route_for_the_public_or_a_judge(client, world, role):
    _competition, _team, _other, users = world
    if users[role] is not None:
        client.force_login(users[role])
    found, statuses = [], {}
    for path in every_path():
        for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
            response = client.get(path, **headers)
            assert response.status_code < 500, (path, headers, response.status_code)
            statuses.setdefault(response.status_code, []).append(path)
            if leaks(response.content):
                found.append((path, headers, leaks(response.content)))
            if path in SHOWS_THE_TEAM[role] and not headers:
                assert response.status_code == 200, (path, response.status_code)
                assert TEAM_NAME in response.content.decode("utf-8-sig"), path
    assert found == []
    if role == "judge":  # the judge's cards, as htmx fetches them
        fragment = client.get(f"/judge/{SLUG}/board/", HTTP_HX_REQUEST="true")
        assert fragment.status_code == 200 and TEAM_NAME in fragment.content.decode()
    assert 403 in statuses or 302 in statuses  # the refusals were read too


@pytest.mark.parametrize("role", ["anonymous", "judge"])
def test_no_personal_data_in_error_pages_and_answers(client, world, role):
    _competition, _team, _other, users = world
    if users[role] is not None:
        client.force_login(users[role])
    answers = [
        client.get(f"/{SLUG}/teams/999999/"),
        client.get("/ingen-konkurrence/"),
        client.get(f"/api/v1/competitions/{SLUG}/teams/999999/"),
        client.get("/api/v1/competitions/ingen/teams/"),
        client.get(f"/desk/{SLUG}/teams/{ID}/"),  # 403 page (judge) or the login redirect
        client.post(f"/api/v1/competitions/{SLUG}/teams/", {}, content_type="application/json"),
        client.patch(
            f"/api/v1/competitions/{SLUG}/teams/{ID}/",
            {"notes": "x"},
            content_type="application/json",
        ),
    ]
    assert {a.status_code for a in answers[:4]} == {404}
    for answer in answers:
        assert leaks(answer.content) == [], answer.content[:300]


def test_no_personal_data_in_the_answers_to_a_judges_writes(client, world):
    _competition, team, other, users = world
    client.force_login(users["judge"])
    api = f"/api/v1/competitions/{SLUG}/"

    def send(method, url, body):
        return getattr(client, method)(api + url, body, content_type="application/json")

    answers = {
        "warning": (send("post", f"teams/{ID}/warnings/", {"reason": "Larm"}), 201),
        "counted twice": (send("post", "counts/", {"team": ID, "pieces": 10}), 409),
        "finished twice": (send("post", "finishes/", {"team": ID, "puzzle": 1}), 409),
        "no such puzzle": (send("post", "finishes/", {"team": ID, "puzzle": 9}), 400),
        "correction": (
            send("patch", f"finishes/{ID}/", {"elapsed_seconds": 2300, "reason": "Rettet"}),
            200,
        ),
        "count of another": (send("post", "counts/", {"team": other.pk, "pieces": 40}), 201),
        "finish": (
            send("post", "finishes/", {"team": ID, "puzzle": 2, "elapsed_seconds": 9000}),
            201,
        ),
        "list": (client.get(api + "finishes/"), 200),
    }
    for what, (answer, status) in answers.items():
        assert answer.status_code == status, (what, answer.content[:300])
        assert leaks(answer.content) == [], (what, answer.content[:300])


@pytest.mark.parametrize("role", ["desk", "admin"])
def test_the_desk_and_the_head_judge_see_every_personal_value(client, world, role):
    _competition, _team, _other, users = world
    client.force_login(users[role])
    value = {field: v for field, (v, _mark) in PERSONAL.items()}
    detail = client.get(f"/api/v1/competitions/{SLUG}/teams/{ID}/").json()
    listed = next(
        t for t in client.get(f"/api/v1/competitions/{SLUG}/teams/").json() if t["id"] == ID
    )
    for answer in (detail, listed):
        assert {k: answer[k] for k in ("contact_name", "contact_email", "contact_phone")} == {
            k: value[k] for k in ("contact_name", "contact_email", "contact_phone")
        }
        assert answer["notes"] == value["notes"]
        assert sorted(answer["members"], key=lambda m: m["name"]) == [
            {"name": value["minor"], "under_15": True, "guardian": value["guardian"]},
            {"name": value["member"], "under_15": False, "guardian": ""},
        ]
    page = client.get(f"/desk/{SLUG}/teams/{ID}/")
    assert page.status_code == 200
    assert sorted(leaks(page.content)) == sorted(PERSONAL)
    # The desk across the championship shows the members and the under-15's adult (R3).
    across = client.get(f"/desk/{CHAMPIONSHIP}/")
    assert across.status_code == 200
    assert {"member", "minor", "guardian"} <= set(leaks(across.content))
