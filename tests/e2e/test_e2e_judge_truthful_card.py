"""The tablet says only what is true, at 768x1024: a tap the server has
not answered is "noted on the tablet", not "saved"; one undo button; a count of 2 says why
and its button is off; a second judge's refusal stays on the card with who and when; an
undo says "Fortrudt" on the card; the clock line reads as a sentence before the sync."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from judging.models import Count, Finish
from tests.e2e.measure import press
from tests.e2e.test_e2e_judge_outbox import (
    API,
    back_online,
    card,
    count_swaps,
    open_board,
    tap_and_save,
    wait_for_swap,
    wait_until,
)

pytestmark = pytest.mark.e2e

GREEN = "rgb(230, 244, 234)"  # .jcard-saved's background: what "saved" looks like
AMBER = "rgb(255, 241, 214)"  # the pill's "not yet sent" colour


def test_e2e_offline_tap_is_noted_on_the_tablet_not_saved(
    page, live_server, login, judge, running, shot
):
    open_board(page, live_server, login, judge, running)
    page.route(API, lambda route: route.abort("internetdisconnected"))
    time_taken = tap_and_save(page, 1)
    note = card(page, 1).locator('[data-role="saved"]')
    expect(page.locator("#outbox-pill")).to_have_text("Ikke sendt endnu: 1")
    expect(note).to_have_text(
        "Noteret på tabletten – sendes, når der er forbindelse · Bord 1 · puslespil 1 · "
        f"{time_taken} · Intet trækkes fra"
    )
    expect(note).not_to_contain_text("Gemt")
    expect(note).to_have_css("background-color", AMBER)  # not the green of "saved"
    # one undo button for the one record
    undo = card(page, 1).get_by_role("button", name=re.compile("Fortryd"))
    expect(undo).to_have_count(1)
    path = shot(page, "offline-card")
    print(f"offline tablet card: {path}")
    # a reload keeps the note: it is read from the outbox, not from the page's memory
    page.reload()
    expect(note).to_contain_text("Noteret på tabletten – sendes, når der er forbindelse")
    assert Finish.objects.count() == 0

    back_online(page)
    expect(page.locator("#outbox-pill")).to_have_text("Alt sendt ✓")
    expect(note).to_have_text(f"Gemt ✓ Bord 1 · puslespil 1 · {time_taken} · Intet trækkes fra")
    expect(note).to_have_css("background-color", GREEN)
    wait_until(page, lambda: Finish.objects.count() == 1)
    expect(card(page, 1).get_by_role("button", name=re.compile("Fortryd"))).to_have_count(1)
    shot(page, "saved-card")


def test_e2e_undo_says_fortrudt_on_the_card(page, live_server, login, judge, running, shot):
    open_board(page, live_server, login, judge, running)
    tap_and_save(page, 2)
    wait_until(page, lambda: Finish.objects.count() == 1)
    note = card(page, 2).locator('[data-role="saved"]')
    expect(note).to_contain_text("Gemt ✓ Bord 2 · puslespil 1")
    press(card(page, 2).locator('[data-action="undo"]'))
    page.locator("#confirm-yes").click()
    expect(note).to_have_text("Fortrudt: puslespil 1 ved bord 2.")
    wait_until(page, lambda: Finish.objects.count() == 0)
    expect(card(page, 2).locator('[data-role="puzzle"]')).to_have_text(
        "Puslespil 1 af 3 (500 brikker)"
    )
    shot(page, "undone-card")


def test_e2e_second_judge_sees_who_and_when_on_the_card_until_dismissed(
    page, browser, browser_context_args, live_server, login, judge, make_user, running, shot
):
    judge.first_name = "Mette"
    judge.save()
    open_board(page, live_server, login, judge, running)
    other = browser.new_context(**browser_context_args)
    page2 = open_board(other.new_page(), live_server, login, make_user("judge", "lars"), running)
    count_swaps(page2)
    press(card(page2, 1).locator('[data-action="finish"]'))
    expect(page2.locator("#finish-sheet")).to_be_visible()
    tap_and_save(page, 1)
    wait_until(page, lambda: Finish.objects.count() == 1)
    registered = timezone.localtime(Finish.objects.get().registered_at).strftime("%H:%M:%S")
    page2.locator("#finish-save").click()
    refused = card(page2, 1).locator('[data-role="refused"]')
    expect(refused).to_contain_text(
        f"Ikke gemt: Mette har allerede registreret puslespil 1 ved bord 1 kl. {registered}."
    )
    # never "saved" on the second judge's card
    expect(card(page2, 1).locator('[data-role="saved"]')).to_be_hidden()
    shot(page2, "second-judge-refused")
    # it stays across the board's refreshes and a reload, until the judge dismisses it
    wait_for_swap(page2)
    expect(refused).to_be_visible()
    page2.reload()
    expect(refused).to_contain_text("Mette har allerede registreret puslespil 1")
    refused.get_by_role("button", name="OK, set").click()
    expect(refused).to_be_hidden()
    page2.reload()
    expect(card(page2, 1)).to_be_visible()
    expect(refused).to_be_hidden()
    assert Finish.objects.count() == 1
    other.close()


def test_e2e_count_of_two_says_why_and_its_button_is_off(
    page, live_server, login, judge, competition, teams, shot
):
    competition.started_at = timezone.now() - timedelta(minutes=200)  # time is up
    competition.save()
    open_board(page, live_server, login, judge, competition)
    press(card(page, 1).locator('[data-action="count"]'))
    page.locator('.segmented span:text-is("Lagte brikker")').click()
    save = page.locator("#count-save")
    expect(save).to_be_disabled()  # nothing filled in yet
    page.fill("#count-pieces", "2")
    expect(page.locator("#count-error")).to_have_text(
        "2 brikker kan ikke tælles: kun grupper på mindst 3 samlede brikker tæller (regel 9)."
    )
    expect(page.locator("#count-result")).to_be_hidden()  # no "= 2 brikker tælles"
    expect(save).to_be_disabled()
    expect(save).to_have_css("opacity", "0.5")  # visibly off
    shot(page, "count-of-two")
    page.fill("#count-pieces", "3")
    expect(page.locator("#count-result")).to_have_text("= 3 brikker tælles")
    expect(page.locator("#count-error")).to_have_text("")
    expect(save).to_be_enabled()
    save.click()
    wait_until(page, lambda: Count.objects.count() == 1)
    assert Count.objects.get().pieces == 3


def test_e2e_clock_line_reads_as_a_sentence_before_the_sync(
    page, live_server, login, judge, running, shot
):
    login(page.context, judge)
    page.route("**/api/v1/time", lambda route: route.abort("internetdisconnected"))
    page.goto(f"{live_server.url}/judge/{running.slug}/")
    line = page.locator("#clock-sub")
    expect(line).to_have_text(
        re.compile(
            r"^tid tilbage · 1:30:\d\d gået · tablettens ur er endnu ikke stillet efter serveren$"
        )
    )
    shot(page, "clock-not-synced")
    page.unroute("**/api/v1/time")
    page.evaluate("window.dispatchEvent(new Event('online'))")  # the tablet syncs on 'online'
    expect(line).to_have_text(
        re.compile(r"^tid tilbage · 1:30:\d\d gået · stillet efter serveren ±\d+ ms$")
    )
    shot(page, "clock-synced")
