"""The judge's page on flaky Wi-Fi (docs/offline.md "Tests"): nothing lost, nothing doubled."""

import time

import pytest
from playwright.sync_api import expect

from judging.models import Finish
from tests.e2e.measure import press

pytestmark = pytest.mark.e2e

API = "**/api/v1/competitions/**"


def wait_until(page, check, timeout=10.0):
    """Poll `check` while Playwright's event loop keeps running (route handlers, events)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return True
        page.wait_for_timeout(100)  # wait-ok: the next look, bounded by the deadline
    raise AssertionError("the condition did not come true in time")


def back_online(page, pattern=API):
    """The Wi-Fi returns and the judge presses "Send nu". The outbox's own retry may send
    first and hide the button, so the button is checked while offline and pressed by script
    (a press with nothing waiting changes nothing)."""
    expect(page.locator("#send-now")).to_be_visible()
    page.unroute(pattern)
    page.locator("#send-now").dispatch_event("click")


def open_board(page, live_server, login, user, competition):
    login(page.context, user)
    page.goto(f"{live_server.url}/judge/{competition.slug}/")
    expect(page.locator("#outbox-pill")).to_have_text("Alt sendt ✓")
    return page


def count_swaps(page):
    """<html data-swaps>: how many times htmx has swapped the board in, a state to wait for
    instead of a time (a wait_for_function would be an eval, which the CSP forbids)."""
    page.evaluate(
        """document.body.addEventListener("htmx:afterSwap", (ev) => {
          if (ev.detail.elt.id !== "board") return;
          const html = document.documentElement;
          html.dataset.swaps = String(Number(html.dataset.swaps || 0) + 1);
        })"""
    )


def wait_for_swap(page):
    """Until htmx has swapped the board in once more (after count_swaps)."""
    n = int(page.evaluate("document.documentElement.dataset.swaps || '0'"))
    expect(page.locator("html")).to_have_attribute("data-swaps", str(n + 1), timeout=10_000)


def card(page, table):
    return page.locator(f'.jcard[data-table="{table}"]')


def tap_and_save(page, table, shot=None):
    press(card(page, table).locator('[data-action="finish"]'))
    sheet = page.locator("#finish-sheet")
    expect(sheet).to_be_visible()
    time_taken = page.input_value("#finish-time")
    if shot:
        shot(page, "sheet")
    page.locator("#finish-save").click()
    expect(sheet).to_be_hidden()
    return time_taken


def seconds(hms: str) -> int:
    h, m, s = (int(x) for x in hms.split(":"))
    return h * 3600 + m * 60 + s


def test_e2e_judge_route_aborted_tap_waits_survives_reload_then_one_row(
    page, live_server, login, judge, running, shot
):
    open_board(page, live_server, login, judge, running)
    shot(page, "board")
    page.route(API, lambda route: route.abort("internetdisconnected"))
    tap_and_save(page, 1, shot)
    pill = page.locator("#outbox-pill")
    expect(pill).to_have_text("Ikke sendt endnu: 1")
    expect(card(page, 1).locator('[data-role="dot"]')).to_be_visible()
    # optimistic: the card moves on to the next puzzle at once
    expect(card(page, 1).locator('[data-role="puzzle"]')).to_have_text(
        "Puslespil 2 af 3 (1.000 brikker)"
    )
    shot(page, "pending")
    assert Finish.objects.count() == 0

    page.reload()
    expect(pill).to_have_text("Ikke sendt endnu: 1")
    expect(card(page, 1).locator('[data-role="dot"]')).to_be_visible()
    assert Finish.objects.count() == 0
    shot(page, "after-reload")

    back_online(page)
    expect(pill).to_have_text("Alt sendt ✓")
    wait_until(page, lambda: Finish.objects.count() == 1)
    expect(card(page, 1).locator('[data-role="dot"]')).to_be_hidden()
    expect(card(page, 1).locator('[data-role="puzzle"]')).to_have_text(
        "Puslespil 2 af 3 (1.000 brikker)"
    )
    shot(page, "sent")
    page.wait_for_timeout(500)  # wait-ok: nothing else may arrive
    assert Finish.objects.count() == 1


def test_e2e_judge_offline_context_keeps_the_tap_time(
    page, live_server, login, judge, running, shot
):
    open_board(page, live_server, login, judge, running)
    page.context.set_offline(True)
    tapped = tap_and_save(page, 2)
    expect(page.locator("#outbox-pill")).to_have_text("Ikke sendt endnu: 1")
    shot(page, "offline")
    page.wait_for_timeout(2500)  # wait-ok: the Wi-Fi is down for a while; nothing may arrive
    assert Finish.objects.count() == 0
    page.context.set_offline(False)  # the "online" event flushes
    expect(page.locator("#outbox-pill")).to_have_text("Alt sendt ✓", timeout=10000)
    wait_until(page, lambda: Finish.objects.count() == 1)
    finish = Finish.objects.get()
    assert finish.team.table == 2
    assert finish.elapsed_seconds == seconds(tapped)  # the time of the tap, not of the send
    shot(page, "online-again")


def test_e2e_judge_lost_answer_is_retried_and_replayed(
    page, live_server, login, judge, running, shot
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

    page.route("**/finishes/", lose_first_answer)
    page.on(
        "response",
        lambda r: (
            replayed.append(r.headers.get("idempotent-replayed"))
            if r.url.endswith("/finishes/")
            else None
        ),
    )
    tap_and_save(page, 1)
    wait_until(page, lambda: calls["n"] == 1)
    assert Finish.objects.count() == 1
    # the retry (after the backoff) gets the first answer again
    expect(page.locator("#outbox-pill")).to_have_text("Alt sendt ✓", timeout=15000)
    assert replayed == ["true"]
    assert Finish.objects.count() == 1
    shot(page, "replayed")


def test_e2e_judge_two_judges_same_team_one_row_and_a_message(
    page, browser, browser_context_args, live_server, login, judge, make_user, running, shot
):
    open_board(page, live_server, login, judge, running)
    other = browser.new_context(**browser_context_args)
    page2 = open_board(other.new_page(), live_server, login, make_user("judge", "lars"), running)
    # both see table 1 finish; the second judge's sheet is open first
    press(card(page2, 1).locator('[data-action="finish"]'))
    expect(page2.locator("#finish-sheet")).to_be_visible()
    tap_and_save(page, 1)
    expect(page.locator("#outbox-pill")).to_have_text("Alt sendt ✓")
    wait_until(page, lambda: Finish.objects.count() == 1)
    page2.locator("#finish-save").click()
    # the refusal stays on the card (docs/offline.md), naming who registered it and when
    message = card(page2, 1).locator('[data-role="refused"]')
    expect(message).to_contain_text("Ikke gemt: mette har allerede registreret puslespil 1")
    expect(page2.locator("#outbox-pill")).to_have_text("Alt sendt ✓")
    shot(page2, "second-judge")
    assert Finish.objects.count() == 1
    assert Finish.objects.get().registered_by == judge
    other.close()


def test_e2e_judge_expired_session_pauses_then_flushes_after_login(
    page, live_server, login, judge, running, shot
):
    open_board(page, live_server, login, judge, running)
    page.context.clear_cookies()
    tap_and_save(page, 3)
    expect(page.locator("#outbox-pill")).to_have_text("Log ind igen: 1 venter")
    shot(page, "signed-out")
    assert Finish.objects.count() == 0
    page.locator("#outbox-pill").click()
    expect(page.locator("#outbox-login")).to_be_visible()
    shot(page, "outbox-sheet")
    page.locator("#outbox-sheet [data-close]").click()
    login(page.context, judge)
    page.reload()  # the page's load flushes
    expect(page.locator("#outbox-pill")).to_have_text("Alt sendt ✓")
    wait_until(page, lambda: Finish.objects.count() == 1)


def test_e2e_judge_offline_reload_opens_the_page_from_the_service_worker(
    browser, browser_context_args, live_server, login, judge, running, shot
):
    context = browser.new_context(**{**browser_context_args, "service_workers": "allow"})
    page = open_board(context.new_page(), live_server, login, judge, running)
    scope = page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
    assert scope == f"{live_server.url}/judge/"
    page.reload()  # now controlled by the worker, which keeps a copy of the page
    expect(page.locator("#outbox-pill")).to_have_text("Alt sendt ✓")
    page.route(API, lambda route: route.abort("internetdisconnected"))
    tap_and_save(page, 1)
    expect(page.locator("#outbox-pill")).to_have_text("Ikke sendt endnu: 1")
    # the whole server is gone now: the worker's copy opens the page with its outbox
    refused = []

    def no_network(route):
        refused.append(route.request.url)
        route.abort("internetdisconnected")

    context.route("**/*", no_network)
    page.reload()
    expect(page.locator("#outbox-pill")).to_have_text("Ikke sendt endnu: 1")
    expect(card(page, 1).locator('[data-role="dot"]')).to_be_visible()
    shot(page, "offline-reload")
    assert f"{live_server.url}/judge/{running.slug}/" in refused  # the network said no
    context.unroute("**/*")
    back_online(page)
    expect(page.locator("#outbox-pill")).to_have_text("Alt sendt ✓")
    wait_until(page, lambda: Finish.objects.count() == 1)
    context.close()


def test_e2e_judge_logout_warns_while_registrations_wait(page, live_server, login, judge, running):
    open_board(page, live_server, login, judge, running)
    page.route(API, lambda route: route.abort("internetdisconnected"))
    tap_and_save(page, 2)
    expect(page.locator("#outbox-pill")).to_have_text("Ikke sendt endnu: 1")
    asked = []

    def answer(dialog):
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", answer)
    page.get_by_role("button", name="Log ud (mette)").click()
    wait_until(page, lambda: asked)
    assert asked == ["1 registrering er ikke sendt endnu. Log ud alligevel?"]
    assert page.url.endswith(f"/judge/{running.slug}/")  # still here, still logged in
    expect(page.locator("#outbox-pill")).to_have_text("Ikke sendt endnu: 1")
