"""The stream overlay and the speaker's feed in Chromium at their sizes: the
overlay is a transparent 1920x1080 browser source without a scrollbar, live like the big
screen; the feed fits a phone."""

import pytest
from playwright.sync_api import expect

from competition.models import Competition
from tests.e2e.measure import box, boxes
from tests.factories import TeamFactory
from tests.scoring.standings_data import finish, running_competition

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

FITS = """() => ({
  width: document.documentElement.scrollWidth <= innerWidth,
  height: document.documentElement.scrollHeight <= innerHeight,
  background: getComputedStyle(document.body).backgroundColor,
  html: getComputedStyle(document.documentElement).backgroundColor,
})"""


def _day():
    c, puzzles = running_competition(slug="dm-stream", name="DM i puslespil 2026")
    names = ["Kantsøgerne", "Brikkebanden med et meget, meget langt holdnavn", "Puslingerne"]
    teams = [TeamFactory(competition=c, name=n, table=i) for i, n in enumerate(names, 1)]
    finish(teams[1], puzzles[0], 1700)
    finish(teams[0], puzzles[0], 1800)
    return c, puzzles, teams


def test_e2e_the_overlay_is_transparent_without_a_scrollbar_and_live(
    page, live_server, shot, monkeypatch
):
    c, puzzles, teams = _day()
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{live_server.url}/{c.slug}/overlay/?top=3")
    rows = page.locator(".overlay-row .o-name")
    expect(rows).to_have_text([teams[1].name, teams[0].name, teams[2].name])
    fits = page.evaluate(FITS)
    assert fits == {
        "width": True,
        "height": True,
        "background": "rgba(0, 0, 0, 0)",
        "html": "rgba(0, 0, 0, 0)",
    }
    shot(page, "overlay-1920")
    finish(teams[2], puzzles[0], 1500)
    finish(teams[2], puzzles[1], 4000)
    Competition.objects.get(pk=c.pk).bump_standings()
    expect(rows.first).to_have_text("Puslingerne", timeout=20_000)  # the next poll


def test_e2e_the_feed_fits_a_phone(page, live_server, shot):
    c, _puzzles, teams = _day()
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/{c.slug}/feed/")
    expect(page.locator(".feed-item").first).to_contain_text("Kantsøgerne er færdig")
    assert page.evaluate(FITS)["width"]
    shot(page, "feed-phone")


def test_e2e_the_big_screens_ticker_at_1920(page, live_server, shot, admin_user):
    from competition.services import screen_set

    c, puzzles, teams = _day()
    finish(teams[0], puzzles[1], 4323)
    for i in range(4, 12):  # more lines than the TV shows: the newest seven, none cut sideways
        team = TeamFactory(competition=c, name=f"Hold nummer {i} med et langt navn", table=i)
        finish(team, puzzles[0], 1900 + i * 30)
    Competition.objects.get(pk=c.pk).bump_standings()
    screen_set(competition=Competition.objects.get(pk=c.pk), by=admin_user, mode="ticker")
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{live_server.url}/{c.slug}/screen/")
    lines = page.locator(".screen-ticker .feed-item")
    expect(lines).to_have_count(6)
    expect(lines.first).to_contain_text("Kantsøgerne er færdig med puslespil 2 efter 1:12:03")
    fits = page.evaluate(FITS)
    assert fits["width"] and fits["height"]
    ticker, shown = box(page.locator(".screen-ticker")), boxes(page, ".screen-ticker .feed-item")
    bottom, right = ticker["y"] + ticker["height"], ticker["x"] + ticker["width"]
    assert all(b["y"] + b["height"] <= bottom + 0.5 for b in shown), (ticker, shown)
    assert all(b["x"] + b["width"] <= right + 0.5 for b in shown), (ticker, shown)
    shot(page, "screen-ticker-1920")
