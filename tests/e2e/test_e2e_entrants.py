"""An individuals' competition in the browser, by visible state: the desk (laptop, 1280x800)
registers a young entrant with her adult and the labels "ung, gæst" on a form of one puzzler
row, sees her labels in the list; a spectator's phone (390x844) chooses the label's chip on
the leaderboard and reads "Særskilt placering: ung" with the label's own ranks."""

import pytest
from playwright.sync_api import expect

from competition.models import Team
from tests.factories import CompetitionFactory, MemberFactory, PuzzleFactory, TeamFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def test_e2e_the_desk_registers_an_individual_with_labels_and_the_phone_ranks_them(
    browser, live_server, login, desk, shot
):
    c = CompetitionFactory(slug="dm-individuel", name="DM Individuel 2027", discipline="individual")
    PuzzleFactory(competition=c, position=1, pieces=500)
    anne = TeamFactory(competition=c, name="Anne Jensen", table=1, labels=["senior"])
    MemberFactory(team=anne, name="Anne Jensen")

    desk_page = browser.new_context(viewport=LAPTOP, locale="da-DK")
    login(desk_page, desk)
    page = desk_page.new_page()
    page.goto(f"{live_server.url}/desk/{c.slug}/teams/new/")
    expect(page.get_by_role("heading", name="Tilmeld deltager")).to_be_visible()
    expect(page.locator(".member-row")).to_have_count(1)
    expect(page.get_by_role("button", name="Tilføj holdmedlem")).to_have_count(0)
    page.get_by_label("Navn", exact=True).fill("Ida Jensen")
    page.get_by_label("Bordnummer").fill("2")
    page.locator(".member-row").get_by_label("under 15").check()
    page.get_by_label("Ledsagende voksen").fill("Anne Jensen")
    page.get_by_label("Kategorier").fill("Ung, gæst")
    shot(page, "form")
    page.get_by_role("button", name="Tilmeld deltager").first.click()
    ida = page.locator(".team-row", has_text="Ida Jensen")
    expect(ida.locator(".badge-label")).to_have_text(["ung", "gæst"])
    expect(ida.locator(".members")).to_contain_text("Ida Jensen u15")
    shot(page, "list")
    desk_page.close()
    assert Team.objects.get(name="Ida Jensen").labels == ["ung", "gæst"]

    phone = browser.new_context(viewport=PHONE, locale="da-DK")
    page = phone.new_page()
    page.goto(f"{live_server.url}/{c.slug}/")
    chips = page.locator(".label-chips")
    expect(chips.locator(".label-chip")).to_have_text(["Alle", "gæst", "senior", "ung"])
    expect(page.locator("table.board")).to_contain_text("Anne Jensen")
    chips.get_by_role("link", name="ung").click()
    expect(page.get_by_role("heading", name="Særskilt placering: ung")).to_be_visible()
    expect(page.locator(".label-chip.active")).to_have_text("ung")
    expect(page.locator("table.board .team-name")).to_have_text(["Ida Jensen"])
    expect(page.locator("table.board th").nth(1)).to_have_text("Deltager")
    shot(page, "phone-label")
    phone.close()
