"""A championship's tablet (docs/offline.md "A championship's tablet"): two competitions of
one championship run at once, one tablet watches tables of both. A finish in each while
offline waits on the tablet, each in its competition's outbox; back online each arrives
once, in its own competition, with the request id the tablet made. The heartbeat reports
per competition: a tap waiting for one competition holds up that one's finalise only."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from competition.models import Competition, Puzzle, Team
from competition.services import championship_create, competition_create
from judging.models import Finish, RequestId, Tablet
from judging.selectors import finalise_blockers
from tests.e2e.test_e2e_judge_outbox import card, tap_and_save, wait_until

pytestmark = pytest.mark.e2e


@pytest.fixture
def championship(transactional_db):
    """Heat A of individuals at tables 1-2 and the pairs at tables 3-4, both running for 90
    minutes; a final planned for tomorrow (not on the tablet)."""
    dm = championship_create(by=None, slug="dm-2027", name="DM i puslespil 2027")
    started = timezone.now() - timedelta(minutes=90)  # a 500-piece puzzle now: a plausible pace
    rounds = {}
    for slug, name, discipline, entrants in (
        ("heat-a", "Indledende runde A", "individual", ((1, "Anna Holm"), (2, "Bo Lind"))),
        ("par", "Par", "pair", ((3, "Ib og Jo"), (4, "Kim og Lis"))),
    ):
        competition = competition_create(
            by=None,
            slug=slug,
            name=f"DM {name}",
            starts_at=started,
            duration_minutes=180,
            championship=dm,
            discipline=discipline,
            round=name,
        )
        for position in (1, 2, 3):
            Puzzle.objects.create(competition=competition, position=position, pieces=500)
        for table, entrant in entrants:
            Team.objects.create(competition=competition, name=entrant, table=table)
        Competition.objects.filter(pk=competition.pk).update(started_at=started)
        rounds[slug] = competition
    competition_create(
        by=None,
        slug="finale",
        name="DM Finale",
        starts_at=timezone.now() + timedelta(days=1),
        championship=dm,
        discipline="individual",
        round="Finale",
    )
    return dm, rounds


def open_championship(page, live_server, login, judge, tables=""):
    login(page.context, judge)
    page.goto(f"{live_server.url}/judge/dm-2027/{tables}")
    expect(page.locator("#outbox-pill")).to_have_text("Alt sendt ✓")


def test_e2e_a_finish_in_each_competition_offline_arrives_once_in_its_own(
    page, live_server, login, judge, championship, shot
):
    _dm, rounds = championship
    open_championship(page, live_server, login, judge, "?t=2&t=3")
    # the cards of both competitions at the chosen tables, each naming its competition
    expect(card(page, 2)).to_have_attribute("data-competition", "heat-a")
    expect(card(page, 3)).to_have_attribute("data-competition", "par")
    expect(card(page, 2).locator(".jcard-comp")).to_contain_text("Indledende runde A")
    expect(card(page, 2).locator(".jcard-comp")).to_contain_text("Individuel")
    expect(card(page, 3).locator(".jcard-comp")).to_contain_text("Par")
    expect(card(page, 2).locator('[data-role="comp-clock"]')).to_contain_text("tilbage")
    expect(card(page, 1)).to_have_count(0)  # not a table this judge watches
    expect(page.locator("[data-comp-clock]")).to_have_count(2)  # the final is tomorrow
    shot(page, "board")
    page.set_viewport_size({"width": 1024, "height": 768})  # the tablet turned
    expect(card(page, 3)).to_be_visible()
    shot(page, "board-landscape")
    page.set_viewport_size({"width": 768, "height": 1024})

    page.context.set_offline(True)
    tap_and_save(page, 2)
    tap_and_save(page, 3)
    expect(page.locator("#outbox-pill")).to_have_text("Ikke sendt endnu: 2")
    expect(card(page, 2).locator('[data-role="puzzle"]')).to_have_text(
        "Puslespil 2 af 3 (500 brikker)"
    )
    expect(card(page, 3).locator('[data-role="dot"]')).to_be_visible()
    shot(page, "offline")
    page.wait_for_timeout(2000)  # wait-ok: the Wi-Fi is down for a while; nothing may arrive
    assert Finish.objects.count() == 0
    # each tap waits in its competition's outbox, under the key its own page uses
    stored = page.evaluate(
        """() => Object.keys(localStorage).filter(k => k.startsWith("judge-outbox:v1:")
             && !k.includes("#")).map(k => [k, JSON.parse(localStorage.getItem(k)).length])"""
    )
    assert sorted(stored) == [
        ["judge-outbox:v1:heat-a:mette", 1],
        ["judge-outbox:v1:par:mette", 1],
    ]

    page.context.set_offline(False)  # the "online" event flushes
    expect(page.locator("#outbox-pill")).to_have_text("Alt sendt ✓")
    wait_until(page, lambda: Finish.objects.count() == 2)
    by_table = {f.team.table: f for f in Finish.objects.select_related("team")}
    assert by_table[2].team.competition_id == rounds["heat-a"].pk
    assert by_table[3].team.competition_id == rounds["par"].pk
    assert {r.competition_id for r in RequestId.objects.all()} == {
        rounds["heat-a"].pk,
        rounds["par"].pk,
    }
    expect(card(page, 3).locator('[data-role="saved"]')).to_contain_text("Gemt ✓")
    shot(page, "sent")
    page.wait_for_timeout(1000)  # wait-ok: nothing else may arrive
    assert Finish.objects.count() == 2


def test_e2e_a_tap_waiting_for_one_competition_holds_up_its_finalise_only(
    page, live_server, login, judge, championship, shot
):
    _dm, rounds = championship
    heat_a, pairs = rounds["heat-a"], rounds["par"]
    open_championship(page, live_server, login, judge)
    # heat A's API is out of reach; the pairs' answers
    page.route("**/api/v1/competitions/heat-a/finishes/", lambda r: r.abort("internetdisconnected"))
    tap_and_save(page, 1)
    tap_and_save(page, 4)
    wait_until(page, lambda: Finish.objects.filter(team__competition=pairs).count() == 1)
    expect(page.locator("#outbox-pill")).to_have_text("Ikke sendt endnu: 1")
    # the heartbeat tells each competition what waits for it on this tablet
    wait_until(page, lambda: Tablet.objects.filter(competition=heat_a, waiting=1).exists())
    wait_until(page, lambda: Tablet.objects.filter(competition=pairs, waiting=0).exists())
    Competition.objects.filter(pk__in=[heat_a.pk, pairs.pk]).update(stopped_at=timezone.now())

    def blocked(competition):
        fresh = Competition.objects.get(pk=competition.pk)
        return {b.code for b in finalise_blockers(fresh, timezone.now())}

    assert "taps_waiting" in blocked(heat_a)
    assert "taps_waiting" not in blocked(pairs)
    shot(page, "waiting-for-heat-a")

    page.unroute("**/api/v1/competitions/heat-a/finishes/")
    page.locator("#send-now").dispatch_event("click")
    expect(page.locator("#outbox-pill")).to_have_text("Alt sendt ✓")
    wait_until(page, lambda: Finish.objects.filter(team__competition=heat_a).count() == 1)
    wait_until(page, lambda: Tablet.objects.filter(competition=heat_a, waiting=0).exists())
    assert Finish.objects.count() == 2
