"""A warning (R14) given on flaky Wi-Fi waits on the tablet and is logged exactly once."""

import pytest
from playwright.sync_api import expect

from judging.models import Warning
from tests.e2e.measure import press
from tests.e2e.test_e2e_judge_outbox import card, open_board, wait_until

pytestmark = pytest.mark.e2e


def give_warning(page, table, reason):
    press(card(page, table).locator('[data-action="warn"]'))
    sheet = page.locator("#warn-sheet")
    expect(sheet).to_be_visible()
    page.fill("#warn-reason", reason)
    page.locator("#warn-save").click()
    expect(sheet).to_be_hidden()


def test_e2e_judge_warning_offline_waits_then_one_row(
    page, live_server, login, judge, running, shot
):
    open_board(page, live_server, login, judge, running)
    page.context.set_offline(True)
    give_warning(page, 2, "Larm ved bordet")
    pill = page.locator("#outbox-pill")
    expect(pill).to_have_text("Ikke sendt endnu: 1")
    expect(card(page, 2).locator('[data-role="dot"]')).to_be_visible()
    page.locator("#outbox-pill").click()
    expect(page.locator("#outbox-list")).to_contain_text("Advarsel: Larm ved bordet")
    shot(page, "offline")
    page.locator("#outbox-sheet [data-close]").click()
    page.wait_for_timeout(2500)  # wait-ok: the Wi-Fi is down for a while; nothing may arrive
    assert Warning.objects.count() == 0

    page.context.set_offline(False)  # the "online" event flushes
    expect(pill).to_have_text("Alt sendt ✓", timeout=10000)
    wait_until(page, lambda: Warning.objects.count() == 1)
    warning = Warning.objects.get()
    assert (warning.team.table, warning.reason, warning.given_by) == (2, "Larm ved bordet", judge)
    assert warning.request_id is not None
    expect(page.locator("#judge-messages")).to_contain_text("Advarsel gemt for bord 2.")
    expect(card(page, 2).locator('[data-role="dot"]')).to_be_hidden()
    expect(card(page, 2).locator(".badge-bad")).to_have_text("⚠ 1")
    shot(page, "sent")
    page.wait_for_timeout(500)  # wait-ok: nothing else may arrive
    assert Warning.objects.count() == 1


def test_e2e_judge_warning_lost_answer_is_replayed_not_doubled(
    page, live_server, login, judge, running
):
    open_board(page, live_server, login, judge, running)
    calls = {"n": 0}
    replayed = []

    def lose_first_answer(route):
        if route.request.method == "POST" and calls["n"] == 0:
            route.fetch()  # the server saves it ...
            calls["n"] += 1
            route.abort("connectionreset")  # ... and the answer is lost
        else:
            route.continue_()

    page.route("**/warnings/", lose_first_answer)
    page.on(
        "response",
        lambda r: (
            replayed.append(r.headers.get("idempotent-replayed"))
            if r.url.endswith("/warnings/")
            else None
        ),
    )
    give_warning(page, 1, "Snyd med kassen")
    wait_until(page, lambda: calls["n"] == 1)
    assert Warning.objects.count() == 1
    expect(page.locator("#outbox-pill")).to_have_text("Alt sendt ✓", timeout=15000)
    assert replayed == ["true"]
    assert Warning.objects.count() == 1
