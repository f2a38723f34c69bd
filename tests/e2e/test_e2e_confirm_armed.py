"""A button that asks first (data-confirm: stop the clock, finalise, withdraw) takes no click
until its question is armed. A page shows before its module script runs (later still on the
hall's Wi-Fi), and a tap in between would have stopped the clock without asking."""

import re

import pytest
from playwright.sync_api import expect

from competition.models import Competition

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_e2e_stop_the_clock_asks_even_when_tapped_before_the_script_ran(
    page, live_server, login, admin_user, running
):
    held, released, stops, asked = [], [], [], []

    def hold(route):
        # Every request for the script is held until released and every later one goes
        # through: a second page's copy held for ever would hide what went wrong.
        if released:
            route.continue_()
        else:
            held.append(route)

    page.route(re.compile(r"/static/js/control\..*mjs"), hold)
    page.on("request", lambda r: stops.append(r.url) if "clock/stop" in r.url else None)
    page.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    login(page.context, admin_user)
    page.goto(f"{live_server.url}/control/{running.slug}/", wait_until="commit")
    stop = page.get_by_role("button", name="Stop uret")
    expect(stop).to_be_visible()
    expect(page.locator("html")).not_to_have_attribute("data-confirm-armed", "")
    # A thumb meets the page painted, so with its stylesheet: Playwright can find the button
    # before app.css applies (CI once, under load: the forced tap sent the stop, the room
    # came back with its message, and its script was held for ever).
    expect(stop).to_have_css("pointer-events", "none")
    stop.click(force=True)  # a thumb on the button before the script ran: nothing is sent
    assert held, "the control room's script was not held back"
    released.append(True)
    for route in held:
        route.continue_()
    expect(page.locator("html")).to_have_attribute("data-confirm-armed", "")
    stop.click()  # now it asks, and "no" sends nothing
    expect(page.get_by_role("button", name="Stop uret")).to_be_visible()
    assert len(asked) == 1 and asked[0].startswith("Stop uret nu?")
    assert stops == []
    assert Competition.objects.get(pk=running.pk).stopped_at is None
