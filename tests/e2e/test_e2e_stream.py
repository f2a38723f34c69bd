"""The stream overlay and the speaker's feed in Chromium at their sizes: the
overlay is a transparent 1920x1080 browser source without a scrollbar, live like the big
screen; the feed fits a phone."""

import pytest
from playwright.sync_api import expect

from competition.models import Competition
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
