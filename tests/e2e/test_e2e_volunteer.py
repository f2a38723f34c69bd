"""By visible text at each user's device size: the admin creates a
competition from the home page and meets the error summary (1366x768), the desk sees what
to check at check-in (1366x768), a spectator filters the leaderboard and opens a team from
its row (375x812), the big screen fills its height and gives way to the results (1920x1080),
and the head judge's upheld/rejected choice is big enough to hit (1366x768)."""

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from competition.models import Competition, Team
from judging.services import objection_file
from scoring.selectors import memo_clear
from tests.e2e.measure import box
from tests.factories import MemberFactory, TeamFactory
from tests.scoring.standings_data import finish, running_competition

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DESK = {"width": 1366, "height": 768}
PHONE = {"width": 375, "height": 812}
SCREEN = {"width": 1920, "height": 1080}

NAMES = [
    "Kantsøgerne",
    "Brikkebanden",
    "Puslingerne",
    "Hjørnestenene",
    "Kantklipperne",
    "Himmelstormerne",
    "Mønsterjægerne",
    "Stykke for Stykke",
    "Kaffe & Kanter",
    "Blå Himmel",
    "Sidste Brik",
    "Puslefamilien",
    "Nordlyset",
    "Farvefinderne",
    "Tusindfryd",
    "Brikbyggerne",
    "Samlerne",
    "Knopperne",
    "Lyngby Puslere",
    "Aarhus Brikker",
    "Fyns Fingre",
    "Vestjyderne",
    "Mågerne",
    "De Fire Kanter",
]


def row(page, name: str):
    return page.locator(f'tr[data-team="{name}"]')


def live_competition(n: int = len(NAMES)):
    """A running competition: team i finished i % 3 puzzles; tables 1 and 2 are tied."""
    c, puzzles = running_competition(slug="dm-live", name="DM i puslespil 2026")
    teams = [TeamFactory(competition=c, name=name, table=i) for i, name in enumerate(NAMES[:n], 1)]
    for i, team in enumerate(teams, start=1):
        done = 1 if i <= 2 else i % 3
        for k in range(done):
            finish(team, puzzles[k], 1200 * (k + 1) + 30 * i)
    c.bump_standings()
    memo_clear()
    return c, puzzles, teams


# --- the admin: a new competition from the home page ------------------------------------------


def test_e2e_admin_creates_a_competition_from_the_home_page(
    page, live_server, login, admin_user, shot
):
    page.set_viewport_size(DESK)
    login(page.context, admin_user)
    page.goto(f"{live_server.url}/")
    shot(page, "home")
    page.get_by_role("link", name="+ Ny konkurrence").click()
    expect(page.get_by_role("heading", name="Ny konkurrence")).to_be_visible()

    name = page.get_by_label("Navn", exact=True)
    slug = page.get_by_label("Kort navn i adressen")
    name.press_sequentially("DM i puslespil 2027 – Århus")
    expect(slug).to_have_value("dm-i-puslespil-2027-aarhus")  # suggested as the name is typed
    shot(page, "slug-suggested")

    page.get_by_role("button", name="Opret konkurrence").click()  # no planned start yet
    summary = page.locator("[data-error-summary]")
    expect(summary).to_be_focused()
    expect(summary).to_contain_text("Der er et problem")
    assert box(summary)["y"] < DESK["height"]  # in view, not below the fold
    shot(page, "error-summary")
    summary.get_by_role("link", name=re.compile("^Planlagt start:")).click()
    start = page.get_by_label("Planlagt start")
    expect(start).to_be_focused()

    slug.fill("dm-2027-æøå")
    slug.press("Tab")
    expect(slug).to_have_value("dm-2027-aeoeaa")  # written as the server will write it
    name.press("End")
    name.press_sequentially(" (finalen)")
    expect(slug).to_have_value("dm-2027-aeoeaa")  # the organiser's own short name stays
    start.fill("2027-11-28T10:00")
    page.get_by_role("button", name="Opret konkurrence").click()
    expect(page.get_by_role("heading", name=re.compile("^Opsæt"))).to_be_visible()
    assert page.url.endswith("/desk/dm-2027-aeoeaa/setup/")
    assert Competition.objects.get().name == "DM i puslespil 2027 – Århus (finalen)"
    shot(page, "created")


# --- the desk: what to check at check-in, the error summary on the team form ----------------


def test_e2e_desk_checks_the_adult_and_the_fee_and_meets_the_error_summary(
    page, live_server, login, desk, competition, shot
):
    family = TeamFactory(competition=competition, name="Familien Lund", table=1, fee_paid=False)
    MemberFactory(team=family, name="Kim Lund")
    MemberFactory(team=family, name="Ida Lund", under_15=True, guardian="Kim Lund")
    TeamFactory(competition=competition, name="Betalerne", table=2, fee_paid=True)
    page.set_viewport_size(DESK)
    login(page.context, desk)
    page.goto(f"{live_server.url}/desk/{competition.slug}/")
    row = page.locator(f"#team-{family.pk}")
    expect(row).to_contain_text("Ida Lund (under 15): ledsaget af Kim Lund")
    expect(row.get_by_text("ikke betalt", exact=True)).to_be_visible()
    # The search's placeholder fits its box (it was cut off at "bor").
    search = page.get_by_label("Søg")
    fits = search.evaluate(
        """el => {
          const style = getComputedStyle(el);
          const ctx = document.createElement("canvas").getContext("2d");
          ctx.font = style.font;
          const pad = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
          const room = el.clientWidth - pad;
          return ctx.measureText(el.placeholder).width <= room;
        }"""
    )
    assert fits
    shot(page, "desk-checks")

    page.get_by_role("link", name="+ Tilmeld hold").click()
    page.get_by_label("Holdnavn").fill("Puslebørnene")
    page.locator("#id_members-0-name").fill("Ida Holm")
    page.locator("#id_members-0-under_15").check()
    page.get_by_role("button", name="Tilmeld hold", exact=True).click()
    summary = page.locator("[data-error-summary]")
    expect(summary).to_be_focused()
    link = summary.get_by_role("link", name=re.compile("^Holdmedlem 1, Ledsagende voksen:"))
    expect(link).to_be_visible()
    shot(page, "team-form-error-summary")
    link.click()
    adult = page.locator("#id_members-0-guardian")
    expect(adult).to_be_focused()
    adult.fill("Eva Holm")
    page.get_by_role("button", name="Tilmeld hold", exact=True).click()
    expect(page.get_by_text("»Puslebørnene« er tilmeldt ved bord 3.")).to_be_visible()
    row = page.locator("li.team-row", has_text="Puslebørnene")
    expect(row).to_contain_text("Ida Holm (under 15): ledsaget af Eva Holm")
    shot(page, "registered")


# --- the spectator's phone: filter, whole-row link, short tie-break ----------------------------


def test_e2e_phone_filters_the_leaderboard_and_opens_a_team_from_its_row(
    page, live_server, monkeypatch, shot
):
    monkeypatch.setattr("scoring.views_public.live.POLL_SECONDS", 1)
    c, puzzles, teams = live_competition()
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/{c.slug}/")
    rows = page.locator("table.board tbody tr")
    expect(rows).to_have_count(len(NAMES))
    # The tie-break in a few words on the phone; the full sentence is on the team's page.
    tied = row(page, "Brikkebanden")
    expect(tied.locator(".tb-short")).to_have_text(
        "Samme antal brikker som Kantsøgerne, men sidste hele puslespil blev færdigt "
        "30 sek. senere."
    )
    expect(tied.locator(".tb-full")).to_be_hidden()
    expect(tied).to_contain_text("i gang med puslespil 2")
    shot(page, "leaderboard")

    page.get_by_label("Find et hold").fill("kant")
    visible = page.locator("table.board tbody tr:visible")
    expect(visible).to_have_count(4)  # Kantsøgerne, Kantklipperne, Kaffe & Kanter, De Fire Kanter
    shot(page, "filtered")
    # A new finish arrives: the poll swaps the rows in, and the filter still holds.
    with page.expect_response(
        lambda r: (
            r.url.endswith(f"/{c.slug}/")
            and r.status == 200
            and r.request.headers.get("hx-request")
        )
    ):
        finish(teams[4], puzzles[2], 5000)  # Kantklipperne finishes puzzle 3
        Competition.objects.get(pk=c.pk).bump_standings()
    expect(row(page, "Kantklipperne").locator(".pieces")).to_have_text("2.500")
    expect(visible).to_have_count(4)
    page.get_by_label("Find et hold").fill("7")  # a table number
    expect(visible).to_have_count(1)
    expect(visible).to_contain_text("Mønsterjægerne")
    page.get_by_label("Find et hold").fill("")
    expect(visible).to_have_count(len(NAMES))

    team_row = row(page, "Hjørnestenene")
    team_row.scroll_into_view_if_needed()
    assert box(team_row)["height"] >= 44
    # A tap on the pieces, not the name: the row's link covers the whole row. The place of the
    # pieces inside the row is read in one step; the click finds the row again if replaced.
    pieces = team_row.evaluate(
        """row => { const r = row.getBoundingClientRect();
        const p = row.querySelector(".pieces").getBoundingClientRect();
        return {x: p.x - r.x + p.width / 2, y: p.y - r.y + p.height / 2}; }"""
    )
    team_row.click(position=pieces)
    expect(page.get_by_role("heading", name="Hjørnestenene")).to_be_visible()
    assert page.url.endswith(f"/{c.slug}/teams/{teams[3].pk}/")
    shot(page, "team-page")
    page.go_back()
    expect(page.get_by_role("heading", name="DM i puslespil 2026")).to_be_visible()
    row(page, "Brikkebanden").click()
    expect(page.locator("p.tie-break")).to_contain_text(
        "Samme antal brikker; Kantsøgerne lagde deres sidste hele puslespil færdigt"
    )
    shot(page, "team-page-tie")


# --- the big screen ----------------------------------------------------------------------------
# The shown rows and the empty band below them to the foot, once more than 8 rows fill the
# height; null (the wait goes on) before.
FILLED_SCREEN = """() => {
  const rows = [...document.querySelectorAll(".screen-board tbody tr")]
    .filter((r) => r.getClientRects().length);
  const foot = document.querySelector(".screen-foot");
  if (rows.length <= 8 || !foot) return null;
  const last = rows[rows.length - 1].getBoundingClientRect();
  const gap = foot.getBoundingClientRect().y - (last.y + last.height);
  return gap < 16 ? {rows: rows.length, gap} : null;
}"""


def test_e2e_big_screen_fills_its_height_and_then_shows_the_results(page, live_server, shot):
    c, _puzzles, _teams = live_competition()
    page.set_viewport_size(SCREEN)
    page.goto(f"{live_server.url}/{c.slug}/screen/")
    expect(page.locator(".screen-board tbody tr:visible").first).to_be_visible()
    # The rows and the foot in one reading of the page, once the pager has fitted the rows
    # to the height (on a busy machine the first reading came before it); the pager turns
    # the page every 10 s, so the reading is the one the wait saw.
    filled = page.wait_for_function(FILLED_SCREEN).json_value()
    assert 8 < filled["rows"] < len(NAMES)  # more than the 8 it showed; the rest next
    assert filled["gap"] < 16  # no empty band below the rows
    expect(page.locator("[data-pager-info]")).to_have_text(re.compile(r"^Side 1 af \d$"))
    shot(page, "running")

    Competition.objects.filter(pk=c.pk).update(
        stopped_at=timezone.now(), finalised_at=timezone.now()
    )
    Competition.objects.get(pk=c.pk).bump_standings()
    memo_clear()
    page.reload()
    expect(page.locator(".screen-outcome")).to_have_text("Endelige resultater")
    expect(page.get_by_text("0:00:00")).to_have_count(0)
    expect(page.get_by_text("Tiden er gået", exact=False)).to_have_count(0)
    first = page.locator(".screen-board tbody tr").first
    expect(first).to_contain_text(Team.objects.get(competition=c, table=5).name)  # 2 puzzles
    shot(page, "final")


# --- the head judge's objection decision -------------------------------------------------------


def test_e2e_objection_decision_is_big_and_the_whole_row_is_the_label(
    page, live_server, login, admin_user, desk, shot
):
    c, puzzles, teams = live_competition(3)
    objection = objection_file(
        team=teams[0], by=desk, text="Et minut for sent", finish=teams[0].finishes.first()
    )
    page.set_viewport_size(DESK)
    login(page.context, admin_user)
    page.goto(f"{live_server.url}/objections/{c.slug}/{objection.pk}/resolve/")
    expect(page.get_by_text("puslespil 1 færdigt efter 0:20:30")).to_be_visible()
    upheld = page.get_by_label("Imødekommet")
    radio = box(upheld)
    assert radio["width"] >= 24 and radio["height"] >= 24
    label = page.locator("label.decision-choice", has_text="Imødekommet")
    label_box = box(label)
    assert label_box["height"] >= 44
    # A tap at the row's far end, away from the radio button: the whole row is the label.
    label.click(position={"x": label_box["width"] - 10, "y": label_box["height"] / 2})
    expect(upheld).to_be_checked()
    shot(page, "resolve")
