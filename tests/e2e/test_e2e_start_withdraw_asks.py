"""Before the start the control room lists the entrants not checked in, each with "Træk":
it asks first, as the team page's withdraw after the start does (data-confirm)."""

import pytest
from playwright.sync_api import expect

from competition.models import Team

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_e2e_withdraw_before_the_start_asks_and_no_withdraws_nobody(
    page, live_server, login, admin_user, competition, teams, shot
):
    asked, answers = [], ["dismiss", "accept"]

    def answer(dialog):
        asked.append(dialog.message)
        getattr(dialog, answers.pop(0))()

    page.on("dialog", answer)
    sent = []
    page.on("request", lambda r: sent.append(r.url) if "/clock/withdraw/" in r.url else None)
    page.set_viewport_size({"width": 1366, "height": 768})  # the control room's laptop
    login(page.context, admin_user)
    page.goto(f"{live_server.url}/control/{competition.slug}/")
    expect(page.locator("html")).to_have_attribute("data-confirm-armed", "")
    withdraw = page.get_by_role("button", name="Træk Hold 2")
    shot(page, "start-check")
    withdraw.click()  # "no": nothing is sent
    expect(withdraw).to_be_visible()
    assert asked == ["Træk »Hold 2«?"] and sent == []
    assert not Team.objects.get(pk=teams[1].pk).withdrawn
    withdraw.click()  # "yes": withdrawn
    expect(page.get_by_text("»Hold 2« er trukket.")).to_be_visible()
    expect(page.get_by_role("button", name="Træk Hold 2")).to_have_count(0)
    assert asked == ["Træk »Hold 2«?", "Træk »Hold 2«?"]
    assert Team.objects.get(pk=teams[1].pk).withdrawn
