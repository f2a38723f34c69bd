"""A poll that brings nothing new leaves the page alone: the leaderboard's rows are
the same elements until the standings change, so a reader's tap, selection or measurement is
never on a row that the poll is replacing."""

import pytest
from playwright.sync_api import expect

from competition.models import Competition
from tests.factories import TeamFactory
from tests.scoring.standings_data import finish, running_competition

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _polled(response, slug):
    return (
        response.url.endswith(f"/{slug}/")
        and response.request.headers.get("hx-request") == "true"
        and response.status in (200, 304)  # the browser may revalidate with the ETag
    )


def test_e2e_the_rows_stay_the_same_elements_until_the_standings_change(
    page, live_server, monkeypatch
):
    monkeypatch.setattr("scoring.views_public.live.POLL_SECONDS", 1)
    c, puzzles = running_competition(slug="dm-polls", name="DM i puslespil 2026")
    team = TeamFactory(competition=c, name="Kantsøgerne", table=1)
    TeamFactory(competition=c, name="Brikkebanden", table=2)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/{c.slug}/")
    row = page.locator('tr[data-team="Kantsøgerne"]')
    expect(row).to_be_visible()
    for _ in range(3):  # the first poll swaps once (the page's own answer has no ETag)
        with page.expect_response(lambda r: _polled(r, c.slug)):
            pass
    row.evaluate("el => { el.dataset.mark = 'seen'; }")
    for _ in range(2):  # two more polls, nothing changed: the very same row
        with page.expect_response(lambda r: _polled(r, c.slug)):
            pass
    expect(page.locator('tr[data-mark="seen"]')).to_have_count(1)

    finish(team, puzzles[0], 1200)
    Competition.objects.get(pk=c.pk).bump_standings()
    expect(row.locator(".pieces")).not_to_have_text("0")  # the new standings swapped in
    expect(page.locator('tr[data-mark="seen"]')).to_have_count(0)
