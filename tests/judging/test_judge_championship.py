"""A championship's tablet (`/judge/<championship>/`, docs/offline.md "A championship's
tablet"): the entrants of every competition on now at the tables the judge watches, each
card naming its competition with its clock and its taps' addresses; a competition's own
`/judge/<slug>/` stays as it is. And the judge's pages speak of an entrant in its
discipline's word (deltager, par, hold)."""

import json
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from competition.models import Competition, Puzzle, Team
from competition.services import championship_create, competition_create
from judging.models import Finish
from judging.selectors import TABLET_BEFORE_START, tablet_competitions

pytestmark = pytest.mark.django_db


def _round(dm, slug, round_, discipline, *, starts_in=timedelta(0), started=None, final=False):
    competition = competition_create(
        by=None,
        slug=slug,
        name=f"DM {round_}",
        starts_at=timezone.now() + starts_in,
        duration_minutes=120,
        championship=dm,
        discipline=discipline,
        round=round_,
    )
    for position in (1, 2):
        Puzzle.objects.create(competition=competition, position=position, pieces=500)
    Competition.objects.filter(pk=competition.pk).update(
        started_at=started, finalised_at=timezone.now() if final else None
    )
    return Competition.objects.get(pk=competition.pk)


@pytest.fixture
def dm(db):
    """Heat A (individuals, tables 1-2) runs; heat B (tables 1-2 too) ran this morning and
    counts; the pairs (tables 3-4) start in half an hour; the teams' final is tomorrow; a
    heat of yesterday is final."""
    championship = championship_create(by=None, slug="dm-2027", name="DM i puslespil 2027")
    ago = timezone.now() - timedelta(minutes=30)
    rounds = {
        "heat-a": _round(championship, "heat-a", "Indledende runde A", "individual", started=ago),
        "heat-b": _round(
            championship,
            "heat-b",
            "Indledende runde B",
            "individual",
            starts_in=-timedelta(hours=4),
            started=timezone.now() - timedelta(hours=4),
        ),
        "par": _round(championship, "par", "Par", "pair", starts_in=timedelta(minutes=30)),
        "finale": _round(championship, "finale", "Finale", "team", starts_in=timedelta(days=1)),
        "old": _round(
            championship,
            "old",
            "Gammel runde",
            "individual",
            starts_in=-timedelta(days=1),
            started=timezone.now() - timedelta(days=1),
            final=True,
        ),
    }
    for slug, entrants in (
        ("heat-a", ((1, "Anna"), (2, "Bo"))),
        ("heat-b", ((1, "Cille"), (2, "Dan"))),
        ("par", ((3, "Eva og Finn"), (4, "Gry og Hans"))),
        ("finale", ((5, "Kantsøgerne"),)),
        ("old", ((6, "Ib"),)),
    ):
        for table, name in entrants:
            Team.objects.create(competition=rounds[slug], name=name, table=table)
    return championship, rounds


def config(response) -> dict:
    found = re.search(
        r'<script id="judge-config" type="application/json">(.*?)</script>',
        response.content.decode(),
    )
    return json.loads(found.group(1))


def cards(response) -> list[tuple[str, str]]:
    """(competition, table) of each card, in the page's order."""
    return re.findall(
        r'data-competition="([\w-]+)" data-status="\w+"\s+data-team="\d+" data-table="(\d+)"',
        response.content.decode(),
    )


def test_the_tablet_shows_the_competitions_on_now_in_table_order(client, judge, dm):
    championship, rounds = dm
    assert [c.slug for c in tablet_competitions(championship)] == ["heat-b", "heat-a", "par"]
    # a competition comes on the hour before its planned start
    now = timezone.now()
    Competition.objects.filter(slug="finale").update(
        starts_at=now + TABLET_BEFORE_START + timedelta(minutes=1)
    )
    assert "finale" not in [c.slug for c in tablet_competitions(championship, now)]
    soon = now + timedelta(minutes=2)
    assert "finale" in [c.slug for c in tablet_competitions(championship, soon)]
    Competition.objects.filter(slug="finale").update(starts_at=now + timedelta(days=1))
    client.force_login(judge)
    response = client.get(reverse("judge:championship", args=["dm-2027"]))
    assert response.status_code == 200
    assert cards(response) == [
        ("heat-b", "1"),
        ("heat-a", "1"),
        ("heat-b", "2"),
        ("heat-a", "2"),
        ("par", "3"),
        ("par", "4"),
    ]
    html = response.content.decode()
    # each card names its competition (its round and discipline) and carries its clock
    assert "Indledende runde A · Individuel" in html and "Par</span>" in html
    assert 'data-comp-clock="heat-a" data-status="running"' in html
    assert 'data-comp-clock="heat-b" data-status="stopped"' in html
    assert 'data-comp-clock="par" data-status="setup"' in html
    assert "Kantsøgerne" not in html and "Ib</span>" not in html  # tomorrow's, and a final one
    # the script knows every competition of the championship and where its taps go
    cfg = config(response)
    by_slug = {c["slug"]: c for c in cfg["competitions"]}
    assert set(by_slug) == {"heat-a", "heat-b", "par", "finale", "old"}
    assert by_slug["par"]["urls"]["finishes"] == "/api/v1/competitions/par/finishes/"
    assert by_slug["par"]["urls"]["heartbeat"] == "/api/v1/competitions/par/tablets/heartbeat"
    assert by_slug["heat-a"]["clock"]["status"] == "running"
    assert [p["pieces"] for p in by_slug["heat-a"]["puzzles"]] == [500, 500]
    assert cfg["urls"]["board"] == "/judge/dm-2027/board/"
    assert "finishes" not in cfg["urls"]  # a tap's address is its competition's
    # the tables picker offers the tables of the competitions on now
    assert re.findall(r'name="t" value="(\d+)"', html) == ["1", "2", "3", "4"]


def test_the_chosen_tables_and_the_fragment(client, judge, dm):
    client.force_login(judge)
    url = reverse("judge:championship_board", args=["dm-2027"])
    response = client.get(url, {"t": "2-3"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert cards(response) == [("heat-b", "2"), ("heat-a", "2"), ("par", "3")]
    clocks = json.loads(
        re.search(r'data-clocks="([^"]*)"', response.content.decode())
        .group(1)
        .replace("&quot;", '"')
    )
    assert set(clocks) == {"heat-a", "heat-b", "par"}
    # a plain visit (no htmx) goes to the whole page, with the tables
    plain = client.get(url, {"t": "2-3"})
    assert plain.status_code == 302 and plain["Location"] == "/judge/dm-2027/?t=2-3"


def test_a_card_says_what_its_competition_asks_now(client, judge, dm):
    _championship, rounds = dm
    Finish.objects.create(
        team=Team.objects.get(name="Bo"),
        puzzle=rounds["heat-a"].puzzles.get(position=1),
        elapsed_seconds=1500,
    )
    client.force_login(judge)
    html = client.get(reverse("judge:championship", args=["dm-2027"]), {"t": "2"}).content
    html = html.decode()
    bo = html[html.index(f'data-team="{Team.objects.get(name="Bo").pk}"') :]
    dan = html[html.index(f'data-team="{Team.objects.get(name="Dan").pk}"') :]
    assert "puslespil 2" in bo.split("</article>")[0]  # heat A runs: a finish of puzzle 2
    assert 'data-action="finish"' in bo.split("</article>")[0]
    assert "Optælling af puslespil 1" in dan.split("</article>")[0]  # heat B's time is up
    assert 'data-action="finish"' not in dan.split("</article>")[0]


def test_the_tablets_queries_do_not_grow_with_competitions_and_entrants(
    client, judge, dm, django_assert_max_num_queries
):
    championship, rounds = dm
    client.force_login(judge)
    url = reverse("judge:championship_board", args=["dm-2027"])
    with django_assert_max_num_queries(12) as small:
        client.get(url, HTTP_HX_REQUEST="true")
    for i in range(3):
        more = _round(
            championship, f"heat-{i}x", f"Runde {i}", "individual", started=timezone.now()
        )
        for table in range(10, 40):
            Team.objects.create(competition=more, name=f"Pusler {i}-{table}", table=table)
    with django_assert_max_num_queries(len(small.captured_queries)):
        response = client.get(url, HTTP_HX_REQUEST="true")
    assert len(cards(response)) > 90


def test_a_competitions_own_page_stays_its_own(client, judge, dm):
    """A competition's slug is its own tablet page, as before: one competition, its clock at
    the top, no card naming a competition."""
    client.force_login(judge)
    response = client.get(reverse("judge:board", args=["heat-a"]))
    html = response.content.decode()
    assert 'id="clock-time"' in html and "data-comp-clock" not in html
    assert "jcard-comp" not in html
    cfg = config(response)
    assert "competitions" not in cfg and cfg["slug"] == "heat-a"
    assert cfg["urls"]["finishes"] == "/api/v1/competitions/heat-a/finishes/"
    assert client.get(reverse("judge:board", args=["nothing-here"])).status_code == 404


def test_nothing_on_now_says_so(client, judge, db):
    championship_create(by=None, slug="tomt", name="Tomt mesterskab")
    client.force_login(judge)
    html = client.get(reverse("judge:championship", args=["tomt"])).content.decode()
    assert "Ingen af mesterskabets konkurrencer er i gang nu" in html


@pytest.mark.parametrize(
    ("discipline", "empty", "sheet"),
    [
        ("individual", "Ingen deltagere ved de borde", "når deltageren har lagt"),
        ("pair", "Ingen par ved de borde", "når parret har lagt"),
        ("team", "Ingen hold ved de borde", "når holdet har lagt"),
    ],
)
def test_the_judges_pages_use_the_disciplines_word(client, judge, db, discipline, empty, sheet):
    competition = competition_create(
        by=None,
        slug="runde",
        name="Runde",
        starts_at=timezone.now() + timedelta(days=1),
        discipline=discipline,
    )
    Puzzle.objects.create(competition=competition, position=1, pieces=500)
    Team.objects.create(competition=competition, name="Anna", table=1)
    client.force_login(judge)
    board = client.get(reverse("judge:board", args=["runde"]), {"t": "9"}).content.decode()
    assert empty in board
    sheets = client.get(reverse("judge:paper_sheets", args=["runde"])).content.decode()
    assert sheet in sheets
