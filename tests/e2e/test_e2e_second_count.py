"""The second, blind count on the judge's tablet at 768x1024, and the
counting judge's correction ("Ret optælling")."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from judging.models import Count
from tests.e2e.test_e2e_judge_outbox import card, open_board, wait_until

pytestmark = pytest.mark.e2e


@pytest.fixture
def counted(transactional_db, competition, teams, judge):
    """Time is up; `judge` counted table 1 (420 of 500 pieces); the second count is on."""
    competition.started_at = timezone.now() - timedelta(minutes=200)
    competition.second_count = True
    competition.save()
    return Count.objects.create(
        team=teams[0], puzzle=competition.puzzles.get(position=1), pieces=420, registered_by=judge
    )


def test_e2e_second_judge_counts_blind_differs_then_agrees(
    page, live_server, login, make_user, competition, counted, shot
):
    judge2 = make_user("judge", "judge2")
    open_board(page, live_server, login, judge2, competition)
    one = card(page, 1)
    expect(one).to_contain_text("Venter på kontroloptælling")
    expect(one).not_to_contain_text("420")  # the first number is never shown
    shot(page, "waits-for-second-count")
    one.locator('[data-action="confirm-count"]').click()
    expect(page.locator("#count-title")).to_have_text(
        "Kontroloptælling af puslespil 1 · Bord 1 · Hold 1"
    )
    expect(page.locator("#count-blind")).to_be_visible()
    page.locator('.segmented span:text-is("Lagte brikker")').click()
    page.fill("#count-pieces", "410")
    shot(page, "blind-entry")
    page.locator("#count-save").click()
    # the refusal stays on the card (docs/offline.md)
    expect(one.locator('[data-role="refused"]')).to_contain_text(
        "Ikke bekræftet: Optællingerne er forskellige: 420 og 410 brikker."
    )
    wait_until(page, lambda: Count.objects.get(pk=counted.pk).second_pieces == 410)
    expect(one).to_contain_text("Optællingerne er forskellige: tæl igen", timeout=10_000)
    shot(page, "counts-differ")
    # The recount agrees with the first count: confirmed.
    one.locator('[data-action="confirm-count"]').click()
    page.locator('.segmented span:text-is("Lagte brikker")').click()
    page.fill("#count-pieces", "420")
    page.locator("#count-save").click()
    expect(page.locator("#judge-messages")).to_contain_text("optællingen er bekræftet ✓")
    wait_until(page, lambda: Count.objects.get(pk=counted.pk).confirmed_at is not None)
    assert Count.objects.get(pk=counted.pk).confirmed_by == judge2
    expect(one).to_contain_text("Optalt: 420 brikker ✓ bekræftet", timeout=10_000)
    shot(page, "confirmed")


def test_e2e_counting_judge_corrects_the_count_until_confirmed(
    page, live_server, login, judge, competition, counted, shot
):
    open_board(page, live_server, login, judge, competition)
    one = card(page, 1)
    expect(one).to_contain_text("Optalt: 420 brikker")
    expect(one).to_contain_text("Venter på kontroloptælling af en anden dommer")
    expect(one.locator('[data-action="confirm-count"]')).to_have_count(0)  # not their own
    one.get_by_role("button", name="Ret optælling").click()
    expect(page.locator("#count-title")).to_have_text(
        "Ret optællingen af puslespil 1 · Bord 1 · Hold 1"
    )
    page.locator('.segmented span:text-is("Lagte brikker")').click()
    page.fill("#count-pieces", "402")
    page.locator("#count-save").click()
    expect(page.locator("#judge-messages")).to_contain_text(
        "Bord 1: optællingen er rettet til 402 brikker."
    )
    wait_until(page, lambda: Count.objects.get(pk=counted.pk).pieces == 402)
    expect(one).to_contain_text("Optalt: 402 brikker", timeout=10_000)
    shot(page, "corrected")
