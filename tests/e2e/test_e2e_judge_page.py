"""The judge's page itself: missing pieces, undo, counting, plausibility, warnings, tables."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from judging.models import Count, Finish, Warning
from tests.e2e.measure import press
from tests.e2e.test_e2e_judge_outbox import card, open_board, tap_and_save, wait_until

pytestmark = pytest.mark.e2e


def started(competition, minutes_ago):
    competition.started_at = timezone.now() - timedelta(minutes=minutes_ago)
    competition.save()
    return competition


@pytest.fixture
def running(transactional_db, competition, teams):
    return started(competition, 90)


def test_e2e_judge_lone_missing_piece_is_deducted(page, live_server, login, judge, running, shot):
    open_board(page, live_server, login, judge, running)
    press(card(page, 1).locator('[data-action="finish"]'))
    deduct = page.locator("#finish-deduct")
    expect(deduct).to_have_text("Intet trækkes fra")
    page.locator("#add-lone").click()
    expect(deduct).to_have_text("1 brik trækkes fra")
    page.locator("#spot-more").click()
    expect(page.locator("#add-spot")).to_have_text("+ sted med 3 sammenhængende manglende brikker")
    page.locator("#add-spot").click()
    expect(deduct).to_have_text("1 brik trækkes fra · Produktionsfejl, trækkes ikke fra: 3 brikker")
    shot(page, "sheet-with-spots")
    page.locator("#finish-spots li").nth(1).get_by_role("button").click()  # remove the spot
    expect(deduct).to_have_text("1 brik trækkes fra")
    page.locator("#finish-save").click()
    expect(page.locator("#outbox-pill")).to_have_text("Alt sendt ✓")
    wait_until(page, lambda: Finish.objects.count() == 1)
    assert Finish.objects.get().missing == [1]
    standings = page.request.get(
        f"{live_server.url}/api/v1/competitions/{running.slug}/standings"
    ).json()
    row = next(r for r in standings["standings"] if r["team"]["table"] == 1)
    assert row["finishes"][0]["deducted"] == 1
    assert row["pieces"] == 499
    shot(page, "saved")


def test_e2e_judge_undo_latest_with_confirmation(
    page, live_server, login, judge, running, teams, shot
):
    puzzle = running.puzzles.get(position=1)
    Finish.objects.create(team=teams[0], puzzle=puzzle, elapsed_seconds=1800, registered_by=judge)
    open_board(page, live_server, login, judge, running)
    undo = card(page, 1).locator('[data-action="undo"]')
    expect(undo).to_have_text("↶ Fortryd puslespil 1 (0:30:00)")  # says what it undoes
    expect(card(page, 2).locator('[data-action="undo"]')).to_be_hidden()
    undo.click()
    expect(page.locator("#confirm-text")).to_have_text(
        "Fortryd registreringen af puslespil 1 ved bord 1?"
    )
    shot(page, "confirm")
    page.locator("#confirm-no").click()
    page.wait_for_timeout(300)  # wait-ok: 'no' sends nothing
    assert Finish.objects.count() == 1
    undo.click()
    page.locator("#confirm-yes").click()
    expect(page.locator("#judge-messages")).to_contain_text("Fortrudt: puslespil 1 ved bord 1.")
    wait_until(page, lambda: Finish.objects.count() == 0)
    expect(card(page, 1).locator('[data-role="puzzle"]')).to_have_text(
        "Puslespil 1 af 3 (500 brikker)"
    )
    shot(page, "undone")


def test_e2e_judge_undo_an_unsent_tap_takes_it_off_the_tablet(
    page, live_server, login, judge, running
):
    """A tap no request has carried yet (it waits behind a slow one) is undone on the tablet
    at once and never sent (docs/offline.md: never attempted -> removed)."""
    open_board(page, live_server, login, judge, running)
    held = []
    page.route("**/finishes/", lambda route: held.append(route))  # the first one hangs
    tap_and_save(page, 1)
    wait_until(page, lambda: len(held) == 1)
    tap_and_save(page, 2)  # waits behind it: never tried
    expect(page.locator("#outbox-pill")).to_have_text("Ikke sendt endnu: 2")
    press(card(page, 2).locator('[data-action="undo"]'))
    expect(page.locator("#confirm-text")).to_contain_text("Den er ikke sendt endnu.")
    page.locator("#confirm-yes").click()
    expect(page.locator("#judge-messages")).to_contain_text("Fortrudt: puslespil 1 ved bord 2.")
    expect(page.locator("#outbox-pill")).to_have_text("Ikke sendt endnu: 1")
    expect(card(page, 2).locator('[data-role="puzzle"]')).to_have_text(
        "Puslespil 1 af 3 (500 brikker)"
    )
    held[0].continue_()
    page.unroute("**/finishes/")
    expect(page.locator("#outbox-pill")).to_have_text("Alt sendt ✓")
    wait_until(page, lambda: Finish.objects.count() == 1)
    page.wait_for_timeout(1000)  # wait-ok: nothing else is on its way
    assert list(Finish.objects.values_list("team__table", flat=True)) == [1]


def test_e2e_judge_count_after_the_end(page, live_server, login, judge, competition, teams, shot):
    started(competition, 200)  # 180 minutes: time is up
    Finish.objects.create(
        team=teams[0], puzzle=competition.puzzles.get(position=1), elapsed_seconds=1800
    )
    open_board(page, live_server, login, judge, competition)
    expect(page.locator("#clock-status")).to_have_text("Tiden er gået")
    press(card(page, 1).locator('[data-action="count"]'))
    expect(page.locator("#count-title")).to_have_text("Optælling af puslespil 2 · Bord 1 · Hold 1")
    page.fill("#count-piles", "31")
    page.fill("#count-rest", "4")
    page.fill("#count-loose", "6")
    # the sum as counted: puzzle − piles of 10 − rest − loose
    expect(page.locator("#count-result")).to_have_text("1.000 − 310 − 4 − 6 = 680 brikker tælles")
    shot(page, "count-form")
    page.locator('.segmented span:text-is("Lagte brikker")').click()
    page.fill("#count-pieces", "2")
    expect(page.locator("#count-error")).to_have_text(
        "2 brikker kan ikke tælles: kun grupper på mindst 3 samlede brikker tæller (regel 9)."
    )
    expect(page.locator("#count-save")).to_be_disabled()  # refused before sending
    page.fill("#count-pieces", "1001")
    expect(page.locator("#count-error")).to_have_text("Puslespillet har kun 1.000 brikker.")
    page.fill("#count-pieces", "1000")  # every piece placed is a finish, not a count (R9)
    expect(page.locator("#count-error")).to_contain_text(
        "Alle 1.000 brikker lagt er ikke en optælling: puslespillet er færdigt."
    )
    expect(page.locator("#count-save")).to_be_disabled()  # refused before sending
    shot(page, "count-refused")
    page.wait_for_timeout(300)  # wait-ok: refused before sending: nothing may arrive
    assert Count.objects.count() == 0
    page.locator('.segmented span:text-is("Ulagte brikker")').click()
    expect(page.locator("#count-result")).to_have_text("1.000 − 310 − 4 − 6 = 680 brikker tælles")
    page.locator("#count-save").click()
    expect(page.locator("#outbox-pill")).to_have_text("Alt sendt ✓")
    wait_until(page, lambda: Count.objects.count() == 1)
    count = Count.objects.get()
    assert (count.team, count.pieces, count.unplaced, count.loose) == (teams[0], 680, 314, 6)
    expect(card(page, 1)).to_contain_text("Optalt: 680 brikker")
    shot(page, "counted")


def test_e2e_judge_implausible_pace_asks_to_confirm(
    page, live_server, login, judge, competition, teams, shot
):
    started(competition, 4)  # 500 pieces in 4 minutes by one puzzler
    open_board(page, live_server, login, judge, competition)
    tap_and_save(page, 1)
    expect(page.locator("#confirm-sheet")).to_be_visible()
    expect(page.locator("#confirm-title")).to_have_text("Er tiden rigtig?")
    shot(page, "implausible")
    assert Finish.objects.count() == 0
    page.locator("#confirm-yes").click()
    expect(page.locator("#outbox-pill")).to_have_text("Alt sendt ✓")
    wait_until(page, lambda: Finish.objects.count() == 1)


def test_e2e_judge_warning_with_a_reason(page, live_server, login, judge, running, teams):
    open_board(page, live_server, login, judge, running)
    press(card(page, 3).locator('[data-action="warn"]'))
    page.locator("#warn-save").click()
    expect(page.locator("#warn-error")).to_have_text("Skriv begrundelsen for advarslen.")
    page.fill("#warn-reason", "Højt snak ved bordet")
    page.locator("#warn-save").click()
    expect(page.locator("#judge-messages")).to_contain_text("Advarsel gemt for bord 3.")
    wait_until(page, lambda: Warning.objects.count() == 1)
    assert Warning.objects.get().team == teams[2]
    expect(card(page, 3)).to_contain_text("⚠ 1")


def test_e2e_judge_chosen_tables_are_remembered(page, live_server, login, judge, running, shot):
    open_board(page, live_server, login, judge, running)
    expect(page.locator(".jcard")).to_have_count(3)
    page.locator("#tables-picker summary").click()
    page.locator('[data-tables="none"]').click()
    page.locator('.jchip:has(input[value="2"])').click()
    shot(page, "picker")
    page.locator('#tables-form button[type="submit"]').click()
    expect(page.locator(".jcard")).to_have_count(1)
    expect(page.locator("#tables-label")).to_have_text("2")
    page.reload()
    expect(page.locator(".jcard:visible")).to_have_count(1)
    expect(card(page, 2)).to_be_visible()
    page.wait_for_timeout(500)  # wait-ok: a refresh must not bring back other tables' cards
    expect(page.locator(".jcard")).to_have_count(1)  # the server's cards of table 2 only


def test_e2e_judge_finish_noted_on_paper_after_the_end(
    page, live_server, login, judge, competition, teams
):
    started(competition, 200)  # time is up; table 2 finished at 2:59:40 by the paper
    open_board(page, live_server, login, judge, competition)
    press(card(page, 2).locator('[data-action="finish-late"]'))
    expect(page.locator("#finish-time")).to_have_value("")
    page.locator("#finish-save").click()
    expect(page.locator("#finish-error")).to_have_text("Skriv tiden som t:mm:ss, fx 2:59:40.")
    page.fill("#finish-time", "2:59:40")
    page.locator("#finish-save").click()
    expect(page.locator("#outbox-pill")).to_have_text("Alt sendt ✓")
    wait_until(page, lambda: Finish.objects.count() == 1)
    finish = Finish.objects.get()
    assert (finish.team, finish.puzzle.position, finish.elapsed_seconds) == (teams[1], 1, 10780)
    expect(card(page, 2).locator('[data-action="count"]')).to_have_text("Optælling af puslespil 2")
