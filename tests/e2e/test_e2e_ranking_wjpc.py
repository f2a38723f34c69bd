"""A competition ranked by the World rules (issue 34) on a phone, 390x844: the leaderboard
lists the finishers by their time with the penalty, the team page says what the missing
pieces cost; nothing runs off the side."""

import pytest
from playwright.sync_api import expect

from competition.models import Competition
from tests.factories import TeamFactory
from tests.scoring.standings_data import count, finish, running_competition

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDE = "() => document.documentElement.scrollWidth <= innerWidth"


def _round():
    c, (p1, p2) = running_competition(
        slug="wjpc-runde", name="WJPC-runde A", pieces=(500, 1000), minutes_ago=200
    )
    names = ("Aksen", "Brikken", "Cirklen", "Dørken og de lange navne")
    teams = [TeamFactory(competition=c, name=n, table=i) for i, n in enumerate(names, 1)]
    finish(teams[2], p1, 1500)
    finish(teams[2], p2, 5100)
    finish(teams[3], p1, 1600, missing=[1])
    finish(teams[3], p2, 4990, missing=[2])
    finish(teams[0], p1, 1800, missing=[1])
    finish(teams[0], p2, 5000, missing=[1, 1, 3])
    finish(teams[1], p1, 1700)
    count(teams[1], p2, 998)
    Competition.objects.filter(pk=c.pk).update(ranking="wjpc")
    c.bump_standings()
    return c, teams


def test_e2e_the_world_rules_on_a_phone(page, live_server, shot):
    c, teams = _round()
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/{c.slug}/")
    rows = page.locator("table.board tbody tr")
    expect(rows.nth(0)).to_have_attribute("data-team", "Dørken og de lange navne")
    expect(rows.nth(1)).to_have_attribute("data-team", "Aksen")
    expect(rows.nth(3)).to_have_attribute("data-team", "Brikken")
    expect(rows.nth(1).locator(".meta-phone .penalty")).to_have_text(
        "+30 sek. for 3 manglende brikker"
    )
    expect(page.locator(".ranking-note")).to_contain_text("verdensmesterskabets regler")
    assert page.evaluate(WIDE)
    shot(page, "leaderboard-phone")
    page.goto(f"{live_server.url}/{c.slug}/teams/{teams[3].pk}/")
    expect(page.locator(".ranking-note .penalty")).to_have_text("(+10 sek. for 1 manglende brik)")
    expect(page.locator(".ranking-time")).to_have_text("Tid: 1:23:20")
    assert page.evaluate(WIDE)
    shot(page, "team-phone")
