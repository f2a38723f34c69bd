"""Building a championship from the pages, as a volunteer organiser does it (issue 33 item 1):
the steps the browser tests share (test_e2e_build_championship.py, the German-style
championship of test_e2e_german_championship.py). Each step starts and ends on a page a user
sees and waits for the state it brings."""

import re

from playwright.sync_api import expect

MAX_AT_TABLE = {"individual": "1", "pair": "2", "team": "4"}


def new_championship(page, name, slug, *, first_day, last_day, venue=""):
    """From the home page: "Nyt mesterskab" and its form filled in (`slug`: the short name in
    the address the page suggests from the name); `create_championship` sends it."""
    page.get_by_role("link", name="+ Nyt mesterskab").click()
    expect(page.get_by_role("heading", name="Nyt mesterskab")).to_be_visible()
    page.get_by_label("Mesterskabets navn").press_sequentially(name)
    expect(page.get_by_label("Mesterskabets korte navn i adressen")).to_have_value(slug)
    if venue:
        page.get_by_label("Mesterskabets sted").fill(venue)
    page.get_by_label("Første dag").fill(first_day)
    page.get_by_label("Sidste dag").fill(last_day)


def create_championship(page, name):
    """Sends the new championship's form: on to its control room, with no competition yet."""
    page.get_by_role("button", name="Opret mesterskab").click()
    expect(page.get_by_role("heading", name=re.compile(re.escape(name)))).to_be_visible()
    expect(page.get_by_text("Ingen konkurrencer endnu: tilføj den første.")).to_be_visible()


def add_competition(
    page, championship, slug, name, discipline, round_name, start, *, at=None, setup=None
):
    """From the championship's control room (`championship` its name, `slug` its short
    name): "Tilføj konkurrence", the form, then on its setup page `setup(page)` if given,
    and back to the championship's control room."""
    page.get_by_role("link", name="+ Tilføj konkurrence").click()
    expect(page.get_by_role("heading", name="Ny konkurrence")).to_be_visible()
    expect(page.get_by_label("Mesterskab", exact=True)).to_have_value(slug)
    expect(page.get_by_label("Mesterskabets navn")).to_be_hidden()  # not a new one
    page.get_by_label("Disciplin").select_option(discipline)
    expect(page.get_by_label("Højst antal puslere ved bordet")).to_have_attribute(
        "placeholder", MAX_AT_TABLE[discipline]
    )
    page.get_by_label("Runde", exact=True).fill(round_name)
    page.get_by_label("Navn", exact=True).fill(name)
    page.get_by_label("Planlagt start").fill(start)
    page.get_by_label("Varighed (minutter)").fill("90")
    if at is not None:
        at(page)
    page.get_by_role("button", name="Opret konkurrence").click()
    expect(page.get_by_role("heading", name=f"Opsætning af »{name}«")).to_be_visible()
    expect(page.locator("[data-held-in]")).to_contain_text(championship)
    if setup is not None:
        setup(page)
    page.get_by_role("link", name="Til mesterskabet").click()
    expect(page.get_by_role("heading", name=re.compile(re.escape(championship)))).to_be_visible()


def set_up(page, *, puzzles, start, minutes):
    """On a competition's setup page before its start: its puzzles in order (title, pieces),
    its planned start (`YYYY-MM-DDTHH:MM`) and duration; saved."""
    for title, pieces in puzzles:
        page.get_by_role("button", name="+ Tilføj puslespil").click()
        row = page.locator("tr[data-row]").last
        row.get_by_label("Titel (motiv)").fill(title)
        row.get_by_label("Brikker").fill(str(pieces))
    page.get_by_label("Planlagt start").fill(start)
    page.get_by_label("Varighed (minutter)").fill(str(minutes))
    page.get_by_role("button", name="Gem", exact=True).click()
    expect(page.locator("ul.messages")).to_contain_text("Konkurrencen er gemt.")
    rows = page.locator("tr[data-row]")
    expect(rows).to_have_count(len(puzzles))
    for i, (title, pieces) in enumerate(puzzles):
        expect(rows.nth(i).get_by_label("Nr.")).to_have_value(str(i + 1))
        expect(rows.nth(i).get_by_label("Titel (motiv)")).to_have_value(title)
        expect(rows.nth(i).get_by_label("Brikker")).to_have_value(str(pieces))


def reveal(control, screen, base, slug, names, *, shot=None):
    """The head judge's reveal of a final round on the big screen (`screen`, open on it): the
    final results held back, then from place len(names) to the winner, each place's name
    (`names`, the winner first) seen on the screen before the next is asked for."""
    control.goto(f"{base}/control/{slug}/screen/")
    control.get_by_role("button", name="Stillingen").click()
    control.get_by_role("button", name="Endelige resultater").click()
    expect(screen.locator(".screen-outcome")).to_have_text("Endelige resultater")
    control.get_by_role("button", name="Hold den endelige rækkefølge tilbage").click()
    control.get_by_label("Afslør fra placering").fill(str(len(names)))
    control.get_by_role("button", name="Start afsløringen").click()
    expect(screen.locator(".screen-reveal-wait")).to_have_text("Præmieoverrækkelsen")
    for place in range(len(names), 0, -1):
        control.get_by_role("button", name="Vis næste placering").click()
        expect(screen.locator(".reveal-name")).to_have_text(names[place - 1])
        expect(screen.locator(".reveal-rank")).to_have_text(f"{place}. plads")
        if shot is not None:
            shot(screen, f"reveal-{place}")
    expect(control.locator("[data-reveal-status]")).to_have_text("Alle placeringer er afsløret.")
