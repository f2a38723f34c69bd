"""A reload of the judge's page while offline (issue 33 item 5): the page opens from the
tablet's own copy (the service worker, static/js/sw.js) with its waiting taps, never the
browser's error page, from the first load on; back online, the tap is sent once and the page
says all is sent."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from judging.models import Finish, RequestId
from tests.e2e.test_e2e_judge_outbox import card, open_board, tap_and_save, wait_until

pytestmark = pytest.mark.e2e


@pytest.fixture
def worker_context(browser, browser_context_args):
    """A tablet whose browser runs the judge page's service worker (the suite blocks them)."""
    context = browser.new_context(**{**browser_context_args, "service_workers": "allow"})
    yield context
    context.close()


def worker_ready(page):
    """Until the worker is active and holds the page's copy (it says so on <html>)."""
    expect(page.locator("html")).to_have_attribute("data-offline-copy", "ready")


def test_e2e_first_load_then_offline_reload_shows_the_page_with_its_waiting_tap(
    worker_context, live_server, login, judge, running, shot
):
    page = open_board(worker_context.new_page(), live_server, login, judge, running)
    worker_ready(page)  # the first load, not a second one, leaves the copy
    worker_context.set_offline(True)
    tap_and_save(page, 1)
    pill = page.locator("#outbox-pill")
    expect(pill).to_have_text("Ikke sendt endnu: 1")
    page.reload()
    # the page, not the browser's error page: its pill and the waiting tap on its card
    expect(pill).to_have_text("Ikke sendt endnu: 1")
    one = card(page, 1)
    expect(one.locator('[data-role="dot"]')).to_be_visible()
    expect(one.locator('[data-role="saved"]')).to_contain_text(
        "Noteret på tabletten – sendes, når der er forbindelse"
    )
    expect(one.locator('[data-role="saved"]')).not_to_contain_text("Gemt")
    expect(page.locator("#offline-copy")).to_be_visible()
    shot(page, "offline-reload-portrait")
    page.set_viewport_size({"width": 1024, "height": 768})
    shot(page, "offline-reload-landscape")
    assert Finish.objects.count() == 0

    worker_context.set_offline(False)
    expect(pill).to_have_text("Alt sendt ✓")
    wait_until(page, lambda: Finish.objects.count() == 1)
    expect(one.locator('[data-role="saved"]')).to_contain_text("Gemt ✓ Bord 1 · puslespil 1")
    expect(page.locator("#offline-copy")).to_be_hidden()
    shot(page, "sent")
    page.wait_for_timeout(1000)  # wait-ok: nothing else may arrive
    assert Finish.objects.count() == 1
    assert RequestId.objects.count() == 1  # sent once, under the tap's request id


def test_e2e_a_second_tab_opened_offline_shows_the_same_waiting_tap_sent_once(
    worker_context, live_server, login, judge, running, shot
):
    page = open_board(worker_context.new_page(), live_server, login, judge, running)
    worker_ready(page)
    worker_context.set_offline(True)
    tap_and_save(page, 2)
    second = worker_context.new_page()
    second.goto(f"{live_server.url}/judge/{running.slug}/")
    expect(second.locator("#outbox-pill")).to_have_text("Ikke sendt endnu: 1")
    expect(card(second, 2).locator('[data-role="dot"]')).to_be_visible()
    shot(second, "second-tab-offline")
    worker_context.set_offline(False)
    for tab in (page, second):
        expect(tab.locator("#outbox-pill")).to_have_text("Alt sendt ✓")
    wait_until(page, lambda: Finish.objects.count() == 1)
    page.wait_for_timeout(1000)  # wait-ok: nothing else may arrive
    assert Finish.objects.count() == 1
    assert RequestId.objects.count() == 1


def test_e2e_a_login_page_is_never_kept_as_the_judges_page(
    worker_context, live_server, login, judge, running
):
    url = f"{live_server.url}/judge/{running.slug}/"
    page = open_board(worker_context.new_page(), live_server, login, judge, running)
    worker_ready(page)
    worker_context.clear_cookies()  # the session ends: the address now leads to the login
    page.goto(url)
    expect(page.locator('input[name="password"]')).to_be_visible()
    worker_context.set_offline(True)
    page.goto(url)  # the tablet's copy is still the judge's page
    expect(page.locator("#outbox-pill")).to_be_visible()
    expect(page.locator("#offline-copy")).to_be_visible()


def test_e2e_the_copy_opens_at_the_address_without_the_chosen_tables(
    worker_context, live_server, login, judge, running
):
    """The page drops `?t=` from its address once tables are chosen (the choice is in the
    tablet's storage); the copy was kept under the address it was loaded with."""
    page = worker_context.new_page()
    login(worker_context, judge)
    page.goto(f"{live_server.url}/judge/{running.slug}/?t=2")
    worker_ready(page)
    page.locator("#tables-picker summary").click()
    page.locator("#tables-form .jchip", has_text="3").click()
    page.get_by_role("button", name="Vis disse borde").click()
    expect(page.locator("#tables-label")).to_have_text("2, 3")
    assert page.url == f"{live_server.url}/judge/{running.slug}/"
    worker_context.set_offline(True)
    page.reload()
    expect(page.locator("#outbox-pill")).to_be_visible()
    expect(page.locator("#tables-label")).to_have_text("2, 3")
    expect(card(page, 1)).to_be_hidden()
    expect(card(page, 3)).to_be_visible()


def test_e2e_the_copy_says_the_servers_time_with_the_tablets_clock_ahead(
    worker_context, live_server, login, judge, running
):
    """The banner's time is the server's (the worker keeps its Date), never the tablet's
    own clock, which is an hour ahead here."""
    page = worker_context.new_page()
    page.clock.install(time=timezone.now() + timedelta(hours=1))
    open_board(page, live_server, login, judge, running)
    worker_ready(page)
    worker_context.set_offline(True)
    page.reload()
    banner = page.locator("#offline-copy")
    expect(banner).to_be_visible()
    now = timezone.localtime(timezone.now())
    hours = {f"{(now + timedelta(minutes=m)).hour:02d}:" for m in (-2, 0, 2)}
    shown = re.search(r"kl\. (\d\d:)\d\d:\d\d", banner.inner_text()).group(1)
    assert shown in hours, (shown, hours)
