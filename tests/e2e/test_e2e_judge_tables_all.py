"""The tablet's "Mine borde" set to "Alle" means every table, also one that comes later: a
walk-in registered after the judge chose, or (on a championship's tablet) a competition
that comes on later at tables of its own. Before, "Alle" ticked the tables the page knew and
kept that list: the walk-in's card never came on that tablet."""

import pytest
from playwright.sync_api import expect

from tests.e2e.test_e2e_judge_outbox import card, open_board
from tests.factories import TeamFactory

pytestmark = pytest.mark.e2e


def test_e2e_all_tables_takes_in_a_table_that_comes_later(
    page, live_server, login, judge, running, shot
):
    open_board(page, live_server, login, judge, running)
    picker = page.locator("#tables-picker")
    picker.locator("summary").click()
    page.locator('[data-tables="none"]').click()
    page.locator('.jchip:has(input[value="2"])').click()
    page.locator('#tables-form button[type="submit"]').click()
    expect(page.locator("#tables-label")).to_have_text("2")
    expect(page.locator(".jcard")).to_have_count(1)

    picker.locator("summary").click()
    page.locator('[data-tables="all"]').click()
    page.locator('#tables-form button[type="submit"]').click()
    expect(page.locator("#tables-label")).to_have_text("alle")
    expect(page.locator(".jcard")).to_have_count(3)

    TeamFactory(competition=running, name="Sent tilmeldt", table=7)  # the desk's walk-in
    expect(card(page, 7)).to_contain_text("Sent tilmeldt")  # the board's next refresh
    page.reload()
    expect(page.locator("#tables-label")).to_have_text("alle")
    expect(page.locator(".jcard")).to_have_count(4)
    shot(page, "all-tables")
