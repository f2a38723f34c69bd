"""The count's one state on the judge's card at 768x1024 (issue 33 item 5): never "bekræftet"
and "Ikke bekræftet" at once: after an equal recount, after a reload (the server's card and
the tablet's kept refusals), after the head judge settles the count in the control room
behind the tablet's back, and after the outbox replays a second count that came too late.
A count waiting in the outbox says so on its card, and its button is gone."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from judging.models import Count
from judging.services import count_confirm, count_correct
from tests.e2e.measure import press
from tests.e2e.test_e2e_judge_outbox import API, back_online, card, open_board, wait_until

pytestmark = pytest.mark.e2e

REFUSED = '[data-role="refused"]'


@pytest.fixture
def counted(transactional_db, competition, teams, judge):
    """Time is up; `judge` counted table 1 (420 of 500 pieces); the second count is on."""
    competition.started_at = timezone.now() - timedelta(minutes=200)
    competition.second_count = True
    competition.save()
    return Count.objects.create(
        team=teams[0], puzzle=competition.puzzles.get(position=1), pieces=420, registered_by=judge
    )


def second_count(page, pieces):
    press(card(page, 1).locator('[data-action="confirm-count"]'))
    expect(page.locator("#count-blind")).to_be_visible()
    page.locator('.segmented span:text-is("Lagte brikker")').click()
    page.fill("#count-pieces", str(pieces))
    page.locator("#count-save").click()
    expect(page.locator("#count-sheet")).to_be_hidden()


def differ_first(page, counted):
    """The second judge's count differs: the card says so, with the kept refusal."""
    one = card(page, 1)
    second_count(page, 410)
    expect(one.locator(REFUSED)).to_contain_text("Ikke bekræftet: Optællingerne er forskellige")
    wait_until(page, lambda: Count.objects.get(pk=counted.pk).second_pieces == 410)
    expect(one).to_have_attribute("data-count-state", "differs")
    expect(one).to_contain_text("Optællingerne er forskellige: tæl igen")
    expect(one).not_to_contain_text("✓ bekræftet")


def confirmed_alone(one):
    """The card says the count is confirmed, and nothing on it says it is not."""
    expect(one).to_have_attribute("data-count-state", "done")
    expect(one).to_contain_text("Optalt: 420 brikker ✓ bekræftet")
    expect(one.locator(REFUSED)).to_be_hidden()
    expect(one).not_to_contain_text("Ikke bekræftet")
    expect(one.locator('[data-action="confirm-count"]')).to_have_count(0)


def test_e2e_equal_recount_leaves_no_not_confirmed_also_after_a_reload(
    page, live_server, login, make_user, competition, counted, shot
):
    open_board(page, live_server, login, make_user("judge", "judge2"), competition)
    differ_first(page, counted)
    shot(page, "differs")
    second_count(page, 420)
    expect(page.locator("#judge-messages")).to_contain_text("optællingen er bekræftet ✓")
    confirmed_alone(card(page, 1))
    shot(page, "confirmed")
    page.reload()
    expect(page.locator("#outbox-pill")).to_have_text("Alt sendt ✓")
    confirmed_alone(card(page, 1))
    shot(page, "confirmed-after-reload")


def test_e2e_head_judge_settles_behind_the_tablets_back(
    page, live_server, login, make_user, admin_user, competition, counted, shot
):
    open_board(page, live_server, login, make_user("judge", "judge2"), competition)
    differ_first(page, counted)
    # the head judge corrects the count in the control room: that settles it (confirmed)
    count_correct(count=counted, by=admin_user, reason="Talt igen med holdet", pieces=420)
    confirmed_alone(card(page, 1))  # the board's next fetch
    page.reload()
    confirmed_alone(card(page, 1))
    shot(page, "settled")


def test_e2e_second_count_waiting_offline_then_replayed_too_late(
    page, live_server, login, make_user, competition, counted, shot
):
    open_board(page, live_server, login, make_user("judge", "judge2"), competition)
    one = card(page, 1)
    expect(one).to_have_attribute("data-count-state", "waiting")
    page.route(API, lambda route: route.abort("internetdisconnected"))
    second_count(page, 420)
    expect(page.locator("#outbox-pill")).to_have_text("Ikke sendt endnu: 1")
    # waiting on the tablet: said on the card, the button gone, nothing confirmed
    pending = one.locator('[data-role="pending"]')
    expect(pending).to_have_text("Kontroloptælling venter på at blive sendt: 420 brikker")
    expect(one.locator('[data-action="confirm-count"]')).to_be_hidden()
    expect(one).not_to_contain_text("bekræftet")
    shot(page, "second-count-waiting")
    page.reload()  # the tablet's copy of the tap survives the reload, and says the same
    expect(pending).to_have_text("Kontroloptælling venter på at blive sendt: 420 brikker")
    expect(one).not_to_contain_text("bekræftet")
    # meanwhile a third judge confirms at the table
    count_confirm(count=counted, by=make_user("judge", "judge3"), pieces=420)
    back_online(page)
    expect(page.locator("#outbox-pill")).to_have_text("Alt sendt ✓")
    confirmed_alone(one)
    shot(page, "replayed-too-late")
    assert Count.objects.get(pk=counted.pk).confirmed_by.username == "judge3"


def test_e2e_first_count_waiting_offline_then_sent_waits_for_the_second(
    page, live_server, login, judge, competition, teams, shot
):
    competition.started_at = timezone.now() - timedelta(minutes=200)
    competition.second_count = True
    competition.save()
    open_board(page, live_server, login, judge, competition)
    one = card(page, 1)
    expect(one).to_have_attribute("data-count-state", "missing")
    page.route(API, lambda route: route.abort("internetdisconnected"))
    press(one.locator('[data-action="count"]'))
    page.locator('.segmented span:text-is("Lagte brikker")').click()
    page.fill("#count-pieces", "420")
    page.locator("#count-save").click()
    pending = one.locator('[data-role="pending"]')
    expect(pending).to_have_text("Optælling venter på at blive sendt: 420 brikker")
    expect(one.locator('[data-action="count"]')).to_be_hidden()
    back_online(page)
    expect(page.locator("#outbox-pill")).to_have_text("Alt sendt ✓")
    expect(one).to_have_attribute("data-count-state", "waiting")
    expect(one).to_contain_text("Venter på kontroloptælling af en anden dommer")
    expect(one).not_to_contain_text("bekræftet")
    shot(page, "first-count-sent")


def test_e2e_two_tabs_of_one_judge_agree_on_the_count(
    page, live_server, login, make_user, competition, counted, shot
):
    """Two tabs of the second judge's page on one tablet share the kept refusals: the other
    tab shows "Ikke bekræftet" while the counts differ, and drops it once the recount in the
    first tab confirmed the count; a tab whose cards are older never removes it for both."""
    open_board(page, live_server, login, make_user("judge", "judge2"), competition)
    other = page.context.new_page()
    other.goto(page.url)
    expect(other.locator("#outbox-pill")).to_have_text("Alt sendt ✓")
    differ_first(page, counted)
    expect(card(other, 1).locator(REFUSED)).to_contain_text("Ikke bekræftet")
    expect(card(other, 1)).to_have_attribute("data-count-state", "differs")
    shot(other, "other-tab-differs")
    second_count(page, 420)
    confirmed_alone(card(page, 1))
    confirmed_alone(card(other, 1))
    shot(other, "other-tab-confirmed")
