"""The head judge's control room in the browser, at 1024x768 and
768x1024, by visible text: the start corrected by "−30 s", the tablets panel names the
tables a judge chose, the team table searched as you type."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from competition.models import Competition
from judging.models import Tablet
from tests.e2e.test_e2e_judge_outbox import open_board, wait_until
from tests.factories import CompetitionFactory, PuzzleFactory, TeamFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
LANDSCAPE = {"width": 1024, "height": 768}


@pytest.mark.parametrize("size", [(1024, 768), (768, 1024)], ids=["landscape", "portrait"])
def test_e2e_head_judge_moves_the_start_30_s_and_finds_a_team(
    page, live_server, login, admin_user, shot, size
):
    c = CompetitionFactory(slug="dm-room", name="DM i puslespil 2027")
    PuzzleFactory(competition=c, position=1, pieces=500)
    for table in range(1, 25):
        TeamFactory(competition=c, name=f"Hold nummer {table}", table=table)
    TeamFactory(competition=c, name="Brikkebanden", table=25)
    Competition.objects.filter(pk=c.pk).update(started_at=timezone.now() - timedelta(minutes=3))
    started = Competition.objects.get(pk=c.pk).started_at
    page.set_viewport_size({"width": size[0], "height": size[1]})
    login(page.context, admin_user)
    page.goto(f"{live_server.url}/control/dm-room/")

    minus = page.get_by_role("button", name="−30 s")
    expect(minus).to_be_visible()
    expect(page.get_by_role("button", name="+30 s")).to_be_visible()
    shot(page, "shift-buttons")
    minus.click()
    moved = timezone.localtime(started - timedelta(seconds=30)).strftime("%H:%M:%S")
    expect(page.get_by_text(f"Starttidspunktet er rettet til {moved}")).to_be_visible()
    expect(page.get_by_text(f"Flyt starten ({moved}):")).to_be_visible()
    assert Competition.objects.get(pk=c.pk).started_at == started - timedelta(seconds=30)

    rows = page.locator(".control-teams tbody tr")
    expect(rows).to_have_count(25)
    page.get_by_label("Find et hold").fill("brikke")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("Brikkebanden")
    expect(page.get_by_text("1 af 25 hold passer.")).to_be_visible()
    page.get_by_label("Find et hold").scroll_into_view_if_needed()
    shot(page, "team-search")
    # the poll every 10 s keeps the search (its URL carries it)
    expect(page.locator("#control-live")).to_have_attribute("hx-get", "/control/dm-room/?q=brikke")
    page.get_by_label("Find et hold").fill("7")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("Hold nummer 7")
    # nothing leaves the page sideways
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= size[0], width


def test_e2e_tablets_panel_shows_the_tables_the_judge_chose(
    browser, browser_context_args, page, live_server, login, admin_user, judge, running, shot
):
    open_board(page, live_server, login, judge, running)
    page.locator("#tables-picker summary").click()
    for table in (1, 2, 3):
        page.locator(f'.jchip:has(input[value="{table}"]) span').click()
    page.locator('#tables-form button[type="submit"]').click()
    expect(page.locator("#tables-label")).to_have_text("1, 2, 3")
    # the heartbeat tells the control room at once, not at the next beat 15 s later
    wait_until(
        page, lambda: [t.tables for t in Tablet.objects.filter(user=judge)] == [[1, 2, 3]], 8
    )
    room = browser.new_context(**{**browser_context_args, "viewport": LANDSCAPE})
    control = room.new_page()
    login(room, admin_user)
    control.goto(f"{live_server.url}/control/{running.slug}/")
    row = control.locator("tr.tablet")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("1–3")
    expect(row).not_to_contain_text("alle")
    shot(control, "tablets-panel")
    room.close()
