"""Issue 33 item 1, as a volunteer organiser does it: from an empty database (the head judge's
login made in Python, nothing else), logged in on the laptop (1366x768), a championship is
built purely by clicking and typing: "Nyt mesterskab", then "Tilføj konkurrence" for two
individual heats, the final and a pairs competition; a teams competition made on its own
from the home page ("Ny konkurrence", as the issue's organiser did) is moved into it from its
setup page; one added by mistake is deleted (asked first, saying how many entrants go); the
championship's control room ends listing its five competitions, and the home page shows the
championship and no stray competition of its own."""

import re

import pytest
from playwright.sync_api import expect

from competition.models import Championship, Competition
from tests.e2e import building

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1366, "height": 768}
CHAMPIONSHIP = "DM i puslespil 2027"
SLUG = "dm-i-puslespil-2027"

# name, discipline, round, planned start
ADDED = [
    ("Indledende runde A", "individual", "Indledende runde A", "2027-03-06T10:00"),
    ("Indledende runde B", "individual", "Indledende runde B", "2027-03-06T10:00"),
    ("Finalen", "individual", "Finale", "2027-03-06T14:00"),
    ("Par", "pair", "", "2027-03-07T10:00"),
]


def add_competition(page, name, discipline, round_name, start, *, at=None):
    building.add_competition(page, CHAMPIONSHIP, SLUG, name, discipline, round_name, start, at=at)


def test_e2e_a_championship_is_built_moved_into_and_cleaned_up_from_the_pages(
    page, live_server, login, admin_user, shot
):
    page.set_viewport_size(LAPTOP)
    login(page.context, admin_user)
    asked = []
    page.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    page.goto(f"{live_server.url}/")

    # --- the championship ----------------------------------------------------------------
    building.new_championship(
        page,
        CHAMPIONSHIP,
        SLUG,
        venue="Vejle Idrætscenter",
        first_day="2027-03-06",
        last_day="2027-03-07",
    )
    shot(page, "new-championship")
    building.create_championship(page, CHAMPIONSHIP)
    shot(page, "empty-control-room")

    # --- its competitions, each from "Tilføj konkurrence" --------------------------------
    for i, (name, discipline, round_name, start) in enumerate(ADDED):
        add_competition(page, name, discipline, round_name, start)
        if i == 0:
            shot(page, "first-competition")
    cards = page.locator(".championship-competition")
    expect(cards).to_have_count(4)

    # --- a teams competition made on its own from the home page, then moved in -----------
    page.goto(f"{live_server.url}/")
    page.get_by_role("link", name="+ Ny konkurrence").click()
    choice = page.get_by_label("Mesterskab", exact=True)
    expect(choice).to_have_value("_own")
    choice.select_option("_new")  # the new championship's fields, on the same page
    expect(page.get_by_label("Mesterskabets navn")).to_be_visible()
    page.get_by_label("Mesterskabets navn").scroll_into_view_if_needed()
    shot(page, "new-competition-new-championship")
    choice.select_option("_own")  # no: this one stands on its own (the mistake)
    expect(page.get_by_label("Mesterskabets navn")).to_be_hidden()
    page.get_by_label("Navn", exact=True).fill("Holdkonkurrencen")
    page.get_by_label("Planlagt start").fill("2027-03-07T13:00")
    shot(page, "stray-new")
    page.get_by_role("button", name="Opret konkurrence").click()
    expect(page.get_by_role("heading", name="Opsætning af »Holdkonkurrencen«")).to_be_visible()
    expect(page.locator("[data-held-in]")).to_have_count(0)
    page.get_by_label("Mesterskab", exact=True).select_option(SLUG)
    page.get_by_label("Runde", exact=True).fill("Hold")
    shot(page, "stray-moving")
    page.get_by_role("button", name="Gem").click()
    expect(page.locator("[data-held-in]")).to_contain_text(CHAMPIONSHIP)
    shot(page, "stray-moved")
    page.get_by_role("link", name="Til mesterskabet").click()
    expect(cards).to_have_count(5)

    # --- one made by mistake, deleted after asking ------------------------------------------
    add_competition(page, "Indledende runde A (kopi)", "individual", "", "2027-03-06T10:00")
    expect(cards).to_have_count(6)
    mistake = cards.filter(has_text="Indledende runde A (kopi)")
    mistake.get_by_role("link", name="Opsætning").click()
    expect(
        page.get_by_role("heading", name="Opsætning af »Indledende runde A (kopi)«")
    ).to_be_visible()
    page.locator("#delete-competition").scroll_into_view_if_needed()
    shot(page, "mistake-setup")
    page.get_by_role("button", name="Slet konkurrencen").click()
    expect(page.locator(".messages")).to_contain_text(
        "»Indledende runde A (kopi)« er slettet med sine 0 deltagere."
    )
    assert asked == [
        "Slet »Indledende runde A (kopi)« med dens 0 deltagere? Det kan ikke fortrydes."
    ]

    # --- the championship's control room lists its five competitions -----------------------
    expect(page.get_by_role("heading", name=re.compile(CHAMPIONSHIP))).to_be_visible()
    expect(cards).to_have_count(5)
    for name in ("Indledende runde A", "Indledende runde B", "Finalen", "Par", "Holdkonkurrencen"):
        expect(cards.filter(has=page.get_by_role("link", name=name, exact=True))).to_have_count(1)
    expect(cards.filter(has_text="Holdkonkurrencen")).to_contain_text("Hold")
    expect(page.locator("#delete-championship")).to_have_count(0)  # it holds competitions
    shot(page, "control-room-five")

    held = Championship.objects.get(slug=SLUG)
    made = {c.name: (c.discipline, c.round, c.max_at_table) for c in held.competitions.all()}
    assert made == {
        "Indledende runde A": ("individual", "Indledende runde A", 1),
        "Indledende runde B": ("individual", "Indledende runde B", 1),
        "Finalen": ("individual", "Finale", 1),
        "Par": ("pair", "", 2),
        "Holdkonkurrencen": ("team", "Hold", 4),
    }
    assert Competition.objects.count() == 5
    assert not Championship.objects.exclude(slug=SLUG).exists()  # no stray's own left

    page.goto(f"{live_server.url}/")
    championship_card = page.locator(".card", has=page.get_by_role("link", name=CHAMPIONSHIP))
    expect(championship_card.first).to_contain_text("5 konkurrencer")
    shot(page, "home")
