"""A championship's stage in the browser (docs/contracts.md "A championship of several
competitions"): the big screen rotates between the running competitions on its one timer,
saying which it shows, never with two of its requests in flight, follows a finish, drops a
competition whose clock stops and shows the programme when none runs, then the one that
starts, without a reload (1920x1080); the desk checks in across the championship, each row
naming its competition (a laptop)."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from competition.models import Team
from competition.services import championship_create, clock_start, clock_stop, competition_create
from judging.services import finish_register
from tests.factories import MemberFactory, PuzzleFactory, TeamFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SCREEN = {"width": 1920, "height": 1080}
LAPTOP = {"width": 1280, "height": 800}

# Every request the stage's script sends, and the most it ever had in flight at once.
COUNT_REQUESTS = """
window.stageRequests = { inflight: 0, most: 0, sent: 0 };
const send = window.fetch.bind(window);
window.fetch = (url, options) => {
  if (!String(url).includes("/screen/")) return send(url, options);
  const seen = window.stageRequests;
  seen.inflight += 1;
  seen.sent += 1;
  seen.most = Math.max(seen.most, seen.inflight);
  return send(url, options).finally(() => { seen.inflight -= 1; });
};
"""


def competition(
    championship, slug, name, discipline, round_, admin, *, entrants, start=True, first_table=1
):
    c = competition_create(
        by=None,
        slug=slug,
        name=name,
        discipline=discipline,
        round=round_,
        championship=championship,
        starts_at=timezone.now() + timedelta(minutes=30),
        second_count=False,
    )
    PuzzleFactory(competition=c, position=1, pieces=500)
    for table, entrant in enumerate(entrants, start=first_table):
        team = TeamFactory(competition=c, name=entrant, table=table)
        MemberFactory(team=team, name=f"{entrant} Medlem")
    if start:
        clock_start(competition=c, by=admin, started_at=timezone.now() - timedelta(minutes=40))
    c.refresh_from_db()
    return c


@pytest.fixture
def dm(admin_user):
    dm = championship_create(by=None, slug="dm-2027", name="DM i puslespil 2027")
    heat = competition(
        dm,
        "heat-a",
        "DM Individuel",
        "individual",
        "Indledende runde A",
        admin_user,
        entrants=["Anna", "Bo"],
    )
    # One hall, one table plan: the pairs run beside the heat, at tables of their own.
    pairs = competition(
        dm,
        "par",
        "DM Par",
        "pair",
        "Finale",
        admin_user,
        entrants=["Brik & Bræt", "Kant"],
        first_table=11,
    )
    final = competition(
        dm,
        "finale",
        "DM Finale",
        "individual",
        "Finale",
        admin_user,
        entrants=["Cille"],
        start=False,
    )
    return dm, heat, pairs, final


def test_the_stage_rotates_follows_and_falls_back_to_the_programme(
    browser, live_server, settings, admin_user, dm, shot
):
    settings.STAGE_ROTATE_SECONDS = 1.5  # the page's own interval (15 s on the day)
    championship, heat, pairs, final = dm
    context = browser.new_context(viewport=SCREEN, locale="da-DK", service_workers="block")
    context.add_init_script(COUNT_REQUESTS)
    try:
        screen = context.new_page()
        screen.goto(f"{live_server.url}/{championship.slug}/screen/")
        stage = screen.locator("#stage-live")
        # The first running one in the programme's order, said by name and round.
        expect(stage).to_have_attribute("data-showing", heat.slug)
        expect(screen.locator(".screen-title")).to_have_text("DM Individuel")
        expect(screen.locator("[data-stage-which]")).to_have_text("Individuel · Indledende runde A")
        expect(screen.locator("[data-stage-count]")).to_have_text("1 af 2 i gang")
        screen.evaluate("() => { window.sameDocument = true; }")
        shot(screen, "heat")
        # It turns to the pairs, then back to the heat.
        expect(stage).to_have_attribute("data-showing", pairs.slug)
        expect(screen.locator(".screen-title")).to_have_text("DM Par")
        expect(screen.locator("[data-stage-which]")).to_have_text("Par · Finale")
        expect(screen.locator("[data-stage-count]")).to_have_text("2 af 2 i gang")
        expect(screen.locator(".screen-board")).to_contain_text("Brik & Bræt")
        shot(screen, "pairs")
        expect(stage).to_have_attribute("data-showing", heat.slug)

        # A finish in the heat shows when the heat is on.
        bo = Team.objects.get(competition=heat, name="Bo")
        finish_register(team=bo, position=1, by=admin_user, elapsed_seconds=1800)
        expect(screen.locator(".screen-board tbody tr").first).to_contain_text("Bo", timeout=20_000)
        expect(screen.locator(".screen-board tbody tr").first).to_contain_text("500")
        expect(screen.locator(".screen-title")).to_have_text("DM Individuel")

        # The pairs' clock stops: the heat alone, no turn to make.
        clock_stop(competition=pairs, by=admin_user)
        expect(screen.locator("[data-stage-count]")).to_have_count(0)
        expect(stage).to_have_attribute("data-next", "")
        expect(stage).to_have_attribute("data-showing", heat.slug)

        # None runs: the programme, and what comes next.
        clock_stop(competition=heat, by=admin_user)
        expect(screen.locator("[data-stage-programme]")).to_be_visible()
        expect(stage).to_have_attribute("data-showing", "")
        expect(screen.locator("[data-next-up]")).to_have_attribute("data-next-up", final.slug)
        expect(screen.locator(".stage-next-name")).to_have_text("DM Finale")
        expect(screen.locator(f'.stage-item[data-competition="{heat.slug}"]')).to_contain_text("Bo")
        shot(screen, "programme")

        # The final starts: it is on.
        clock_start(competition=final, by=admin_user)
        expect(stage).to_have_attribute("data-showing", final.slug)
        expect(screen.locator(".screen-title")).to_have_text("DM Finale")
        expect(screen.locator("[data-stage-which]")).to_have_text("Individuel · Finale")
        shot(screen, "final")
        assert screen.evaluate("() => window.sameDocument === true")  # never reloaded
        # One timer: a poll and a turn were never in flight together.
        assert screen.evaluate("() => window.stageRequests.sent") > 5
        assert screen.evaluate("() => window.stageRequests.most") == 1
    finally:
        context.close()


def test_the_desk_checks_in_across_the_championship(browser, live_server, login, desk, dm, shot):
    championship, heat, pairs, _final = dm
    context = browser.new_context(viewport=LAPTOP, locale="da-DK", service_workers="block")
    login(context, desk)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/desk/{championship.slug}/")
        expect(page.locator(".entrant-row")).to_have_count(5)
        # Table 1 is the heat's, then the final's: each row says which competition.
        page.get_by_placeholder("Søg deltager, holdmedlem eller bord").fill("1")
        rows = page.locator(".entrant-row")
        expect(rows).to_have_count(2)
        cille = page.locator(".entrant-row", has_text="Cille")
        expect(cille.locator("[data-entrant-competition]")).to_contain_text("DM Finale")
        anna = page.locator(".entrant-row", has_text="Anna")
        expect(anna.locator("[data-entrant-competition]")).to_contain_text("Indledende runde A")
        shot(page, "search")

        anna.get_by_role("button", name="Tjek ind").click()
        expect(anna).to_contain_text("Tjekket ind")
        expect(page.locator("#desk-status")).to_contain_text("»Anna« er tjekket ind")
        heat_counts = page.locator(f'#desk-counts tr[data-competition="{heat.slug}"]')
        expect(heat_counts.locator("[data-in]")).to_have_text("1 / 2")
        pairs_counts = page.locator(f'#desk-counts tr[data-competition="{pairs.slug}"]')
        expect(pairs_counts.locator("[data-in]")).to_have_text("0 / 2")
        # The final's entrant at the same table is not the one checked in.
        expect(cille.get_by_role("button", name="Tjek ind")).to_be_visible()
        shot(page, "checked-in")

        anna.get_by_role("button", name="Fortryd").click()
        expect(anna.get_by_role("button", name="Tjek ind")).to_be_visible()
        expect(heat_counts.locator("[data-in]")).to_have_text("0 / 2")
        expect(page.locator("#desk-status")).to_contain_text("fortrudt")
    finally:
        context.close()
    assert Team.objects.get(competition=heat, name="Anna").checked_in_at is None
    assert Team.objects.filter(checked_in_at__isnull=False).count() == 0


def test_a_walk_in_at_the_championships_desk_is_registered_checked_in_and_paid(
    browser, live_server, login, desk, dm, shot
):
    """At the desk's laptop (1366x768): "Tilmeld deltager" asks which competition, the pairs'
    own form registers the walk-in there and checks it in, back on the championship's desk
    its row names the pairs, and its fee is marked paid on the row."""
    championship, _heat, pairs, _final = dm
    context = browser.new_context(
        viewport={"width": 1366, "height": 768}, locale="da-DK", service_workers="block"
    )
    login(context, desk)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/desk/{championship.slug}/")
        page.get_by_role("link", name="+ Tilmeld deltager").click()
        expect(page.get_by_text("Hvilken konkurrence deltager deltageren i?")).to_be_visible()
        shot(page, "walk-in-choice")
        page.locator(f'.walk-in-choice a[data-competition="{pairs.slug}"]').click()
        expect(page.locator(".walk-in-competition")).to_contain_text("DM Par")
        page.locator('input[name="name"]').fill("Sidste Brik")
        page.locator('input[name="table"]').fill("9")
        page.locator('input[name="members-0-name"]').fill("Eva Eriksen")
        page.locator('input[name="members-1-name"]').fill("Finn Eriksen")
        page.locator("#id_check_in").check()
        shot(page, "walk-in-form")
        page.get_by_role("button", name="Tilmeld par", exact=True).click()
        expect(page).to_have_url(re.compile(rf"/desk/{championship.slug}/\?added=\d+$"))
        row = page.locator(".entrant-row", has_text="Sidste Brik")
        expect(page.locator(".entrant-row").first).to_contain_text("Sidste Brik")
        expect(row).to_contain_text("lige tilmeldt")
        expect(row.locator("[data-entrant-competition]")).to_contain_text("DM Par")
        expect(row).to_contain_text("Tjekket ind")
        pairs_counts = page.locator(f'#desk-counts tr[data-competition="{pairs.slug}"]')
        expect(pairs_counts.locator("[data-in]")).to_have_text("1 / 3")
        row.get_by_role("button", name="Markér betalt").click()
        expect(row.locator(".fee-paid")).to_contain_text("Betalt")
        expect(page.locator("#desk-status")).to_contain_text("betalt")
        shot(page, "walk-in-paid")
    finally:
        context.close()
    walk_in = Team.objects.get(name="Sidste Brik")
    assert walk_in.competition_id == pairs.pk and walk_in.checked_in_at and walk_in.fee_paid
