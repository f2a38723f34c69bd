"""After "Gem" the card says what was saved, with its undo beside it; the undo says what it
undoes; "Er tiden rigtig?" also offers "Ret tiden", at 768x1024."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from judging.models import Finish
from tests.e2e.measure import press
from tests.e2e.test_e2e_judge_outbox import (
    card,
    count_swaps,
    open_board,
    seconds,
    wait_for_swap,
    wait_until,
)

pytestmark = pytest.mark.e2e


def started(competition, minutes_ago):
    competition.started_at = timezone.now() - timedelta(minutes=minutes_ago)
    competition.save()
    return competition


def test_e2e_saved_confirmation_on_the_card_with_its_undo(
    page, live_server, login, judge, competition, teams, shot
):
    started(competition, 90)
    open_board(page, live_server, login, judge, competition)
    count_swaps(page)
    press(card(page, 1).locator('[data-action="finish"]'))
    time_taken = page.input_value("#finish-time")
    page.locator("#add-lone").click()
    page.locator("#finish-save").click()
    saved = card(page, 1).locator('[data-role="saved"]')
    expect(saved).to_be_visible()
    expect(saved.locator('[data-role="saved-text"]')).to_have_text(
        f"Gemt ✓ Bord 1 · puslespil 1 · {time_taken} · 1 brik trækkes fra"
    )
    # one undo button for one record: the card's, not a second beside it
    undo = card(page, 1).get_by_role("button", name=re.compile("Fortryd puslespil 1"))
    expect(undo).to_have_count(1)
    expect(undo).to_have_text(f"↶ Fortryd puslespil 1 ({time_taken})")
    wait_until(page, lambda: Finish.objects.count() == 1)
    # the board's refresh (htmx swap) keeps the confirmation
    wait_for_swap(page)
    expect(saved).to_be_visible()
    shot(page, "saved-confirmation")
    undo.click()
    expect(page.locator("#confirm-text")).to_have_text(
        "Fortryd registreringen af puslespil 1 ved bord 1?"
    )
    page.locator("#confirm-yes").click()
    wait_until(page, lambda: Finish.objects.count() == 0)
    expect(saved.locator('[data-role="saved-text"]')).to_have_text(
        "Fortrudt: puslespil 1 ved bord 1."
    )
    assert seconds(time_taken) > 0


def test_e2e_is_the_time_right_offers_correct_the_time(
    page, live_server, login, judge, competition, teams, shot
):
    started(competition, 4)  # 500 pieces in 4 minutes by one puzzler: asked
    open_board(page, live_server, login, judge, competition)
    press(card(page, 2).locator('[data-action="finish"]'))
    page.locator("#add-lone").click()
    page.locator("#finish-save").click()
    expect(page.locator("#confirm-title")).to_have_text("Er tiden rigtig?")
    expect(card(page, 2).locator('[data-role="saved"]')).to_be_hidden()  # not saved yet
    fix = page.locator("#confirm-alt")
    expect(fix).to_have_text("Ret tiden")
    shot(page, "is-the-time-right")
    fix.click()
    sheet = page.locator("#finish-sheet")
    expect(sheet).to_be_visible()
    expect(page.locator("#finish-time")).to_be_editable()
    expect(page.locator("#finish-deduct")).to_have_text("1 brik trækkes fra")  # kept
    page.fill("#finish-time", "0:03:00")
    shot(page, "correct-the-time")
    page.locator("#finish-save").click()
    # still a fast pace: asked again, and saved anyway with the corrected time
    expect(page.locator("#confirm-title")).to_have_text("Er tiden rigtig?")
    page.locator("#confirm-yes").click()
    expect(page.locator("#outbox-pill")).to_have_text("Alt sendt ✓")
    wait_until(page, lambda: Finish.objects.count() == 1)
    finish = Finish.objects.get()
    assert (finish.team.table, finish.elapsed_seconds, finish.missing) == (2, 180, [1])
    expect(card(page, 2).locator('[data-role="saved-text"]')).to_have_text(
        re.compile(r"Gemt ✓ Bord 2 · puslespil 1 · 0:03:00")
    )
