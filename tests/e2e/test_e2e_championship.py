"""A championship walked from its heats to the final's reveal:

1. two heats of individuals run (their clocks, finishes and counts through the services);
   Dorte checked in and paid at heat B (through the services); at heat A's desk Anna is
   checked in and paid; heat A's control room offers no advance (a heat takes no entrants
   from earlier rounds); the head judge makes heat A final in its control room (heat B
   through the service);
2. the final's control room links its advance page, which offers the two heats only (not the
   pairs); the head judge previews the best 2 of each heat, finds a tie at the cut in heat A
   (300 pieces each, no whole puzzle): the page says 3 are sure and the tie holds 1 place,
   not "4 go on"; confirms without deciding and is asked; chooses Bo, the count says 4, and
   confirms: the four go on with their names and members, audited. At the final's desk Anna
   and Dorte are checked in and paid already. The head judge meant Cille: takes the advance
   back ("Fortryd videregangen", asked first), and advances again choosing Cille;
3. the final's clock is started (from a time noted on paper) and stopped in its control
   room, finishes and counts come through the services, the head judge makes it final;
4. the big screen's reveal steps from 4th place to the winner.

Every step waits for the state it brings (docs/testing.md)."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from competition.models import AuditEntry, Competition, Member, Puzzle, Team
from competition.services import (
    championship_create,
    clock_stop,
    competition_create,
    team_check_in,
    team_fee_set,
)
from judging.models import Finish
from judging.services import competition_finalise, count_record, finish_register
from tests.e2e import building

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

CONTROL = {"width": 1366, "height": 768}
SCREEN = {"width": 1920, "height": 1080}

# (name, seconds of the finish of the one 500-piece puzzle, or the count)
HEAT_A = [("Anna", 1000, None), ("Bo", None, 300), ("Cille", None, 300)]
HEAT_B = [("Dorte", 900, None), ("Erik", 1200, None), ("Frida", None, 200)]


def heat(dm, slug, letter, entrants, admin, start_clock):
    competition = competition_create(
        by=admin,
        slug=slug,
        name=f"DM individuel, indledende runde {letter}",
        starts_at=timezone.now() - timedelta(hours=1),
        duration_minutes=60,
        championship=dm,
        discipline="individual",
        round=f"Indledende runde {letter}",
        second_count=False,
    )
    Puzzle.objects.create(competition=competition, position=1, pieces=500, title="Nyhavn")
    competition = start_clock(competition, ago=timedelta(minutes=40))
    teams = []
    for table, (name, seconds, _count) in enumerate(entrants, start=1 if letter == "A" else 11):
        team = Team.objects.create(competition=competition, name=name, table=table)
        Member.objects.create(team=team, name=f"{name} Puslesen")
        teams.append(team)
        if seconds is not None:
            finish_register(team=team, position=1, by=admin, elapsed_seconds=seconds)
    clock_stop(competition=competition, by=admin)
    for team, (_name, _seconds, count) in zip(teams, entrants, strict=True):
        if count is not None:
            count_record(team=team, by=admin, pieces=count)
    return Competition.objects.get(pk=competition.pk)


@pytest.fixture
def championship(admin_user, start_clock):
    dm = championship_create(by=admin_user, slug="dm-e2e", name="DM i puslespil, e2e")
    a = heat(dm, "dm-e2e-a", "A", HEAT_A, admin_user, start_clock)
    b = heat(dm, "dm-e2e-b", "B", HEAT_B, admin_user, start_clock)
    dorte = Team.objects.get(competition=b, name="Dorte")
    team_check_in(team=dorte, by=admin_user)
    team_fee_set(team=dorte, by=admin_user, paid=True)
    competition_finalise(competition=b, by=admin_user)
    # The pairs, of another discipline, earlier the same day: never a source of the final.
    competition_create(
        by=admin_user,
        slug="dm-e2e-par",
        name="DM par",
        starts_at=timezone.now() - timedelta(hours=2),
        championship=dm,
        discipline="pair",
    )
    # The final later today (a check-in carries on the day of it).
    now = timezone.localtime()
    midnight = now.replace(hour=23, minute=59, second=59, microsecond=0)
    final = competition_create(
        by=admin_user,
        slug="dm-e2e-finale",
        name="DM individuel, finale",
        starts_at=min(now + timedelta(hours=1), midnight),
        duration_minutes=60,
        championship=dm,
        discipline="individual",
        round="Finale",
        second_count=False,
    )
    Puzzle.objects.create(competition=final, position=1, pieces=500, title="Kronborg")
    return a, b, final


def test_a_championship_from_the_heats_to_the_finals_reveal(
    browser, live_server, login, admin_user, championship, shot
):
    a, _b, final = championship
    ctx = browser.new_context(viewport=CONTROL, locale="da-DK", service_workers="block")
    login(ctx, admin_user)
    control = ctx.new_page()
    control.on("dialog", lambda dialog: dialog.accept())  # window.confirm on the staff pages
    base = live_server.url

    # --- 1. Anna checked in and paid at heat A's desk; heat A made final in its control room
    control.goto(f"{base}/desk/{a.slug}/")
    anna = control.locator(".team-row").filter(
        has=control.get_by_role("link", name="Anna", exact=True)
    )
    anna.get_by_role("button", name="Markér betalt").click()
    expect(anna.locator(".fee-paid")).to_have_text("✓ Betalt")
    anna.get_by_role("button", name="Tjek ind").click()
    expect(anna.locator(".checked")).to_contain_text("Tjekket ind")
    control.goto(f"{base}/control/{a.slug}/")
    # A heat takes no entrants from earlier rounds: no advance in its control room.
    expect(control.locator("#control-live")).to_be_visible()
    expect(
        control.get_by_role("link", name="Hvem går videre fra de tidligere runder")
    ).to_have_count(0)
    # ... and its own advance page says why, offering no round (not heat B, not the final).
    control.goto(f"{base}/control/{a.slug}/advance/")
    expect(control.locator("[data-no-sources]")).to_contain_text(
        "DM individuel, indledende runde A får ikke deltagere fra tidligere runder: ingen "
        "konkurrence i samme disciplin i mesterskabet starter før den."
    )
    expect(control.locator(".advance-form")).to_have_count(0)
    shot(control, "heat-advance-page-no-sources")
    control.goto(f"{base}/control/{a.slug}/")
    panel = control.locator("#objections-panel")
    panel.get_by_role("checkbox").check()
    panel.get_by_role("button", name="Gør resultaterne endelige").click()
    expect(control.locator("ul.messages")).to_contain_text("Resultaterne er endelige")
    assert Competition.objects.get(pk=a.pk).is_final

    # --- 2. the advance, from the final's control room -------------------------------------
    control.goto(f"{base}/control/{final.slug}/")
    control.get_by_role("link", name="Hvem går videre fra de tidligere runder").click()
    expect(control.locator("h1")).to_contain_text("Hvem går videre")
    expect(control.get_by_label("DM individuel, indledende runde A")).to_be_checked()
    expect(control.get_by_label("DM individuel, indledende runde B")).to_be_checked()
    expect(control.locator(".advance-rounds input")).to_have_count(2)  # not the pairs
    control.get_by_label("Hvor mange går videre").fill("2")
    control.get_by_role("button", name="Vis, hvem der går videre").click()
    preview = control.locator("#advance-preview")
    expect(preview.locator("[data-goes-on] tbody tr td:nth-child(2)")).to_have_text(
        ["Dorte", "Anna", "Erik"]
    )
    tie = preview.locator("[data-tie]")
    expect(tie.locator("legend")).to_have_text(
        "Ligestilling ved grænsen i DM individuel, indledende runde A"
    )
    expect(tie).to_contain_text("2 deltagere står lige efter reglerne (regel 11) om 1 plads.")
    expect(tie.locator("tbody tr")).to_have_count(2)
    expect(tie.locator("tbody tr").first).to_contain_text("300")
    # The tie is undecided: who is sure and the places the tie holds, never "4 går videre".
    going = preview.locator("#advance-going")
    sure = "3 går videre med sikkerhed til DM individuel, finale"
    expect(going.get_by_role("heading")).to_have_text(sure)
    expect(going).to_contain_text(
        "Ligestilling ved grænsen: 2 deltagere står lige om 1 plads mere."
    )
    shot(control, "advance-preview-tie-undecided")
    # The best of all the heats together: the preview follows the choice at once (htmx).
    control.get_by_label("fra alle runderne samlet").check()
    expect(going.get_by_role("heading")).to_have_text("2 går videre til DM individuel, finale")
    expect(preview.locator("[data-tie]")).to_have_count(0)
    control.get_by_label("fra hver runde").check()
    expect(going.get_by_role("heading")).to_have_text(sure)
    expect(preview.locator("[data-tie]")).to_have_count(1)

    # Confirmed without deciding the tie: asked again, nothing written.
    control.get_by_role("button", name="Bekræft: de går videre").click()
    expect(control.locator("#tie-decision .error")).to_have_text(
        "Der står deltagere lige ved grænsen: vælg, om de alle går videre, eller hvem der gør."
    )
    expect(control.locator("[data-error-summary]")).to_be_visible()
    assert not Team.objects.filter(competition=final).exists()
    control.locator("#tie-decision").scroll_into_view_if_needed()
    shot(control, "advance-tie-undecided")

    # The head judge decides (by mistake, for Bo): once decided the count is said.
    control.get_by_label("Bo går videre").check()
    control.get_by_label("Jeg vælger, hvem der går videre").check()
    going = control.locator("#advance-going")
    expect(going.get_by_role("heading")).to_have_text("4 går videre til DM individuel, finale")
    control.locator("#tie-decision").scroll_into_view_if_needed()
    shot(control, "advance-tie-decided")
    control.get_by_role("button", name="Bekræft: de går videre").click()
    expect(control.locator("ul.messages")).to_contain_text(
        "4 gik videre til »DM individuel, finale«: Dorte, Anna, Erik, Bo."
    )

    # At the final's desk the finalists checked in and paid in their heat are so already.
    control.goto(f"{base}/desk/{final.slug}/")

    def row_of(name):
        return control.locator(".team-row").filter(
            has=control.get_by_role("link", name=name, exact=True)
        )

    for name in ("Anna", "Dorte"):
        row = row_of(name)
        expect(row.locator(".checked")).to_contain_text("Tjekket ind")
        expect(row.locator(".fee-paid")).to_have_text("✓ Betalt")
    for name in ("Erik", "Bo"):
        row = row_of(name)
        expect(row.get_by_role("button", name="Tjek ind")).to_be_visible()
        expect(row.get_by_role("button", name="Markér betalt")).to_be_visible()
    shot(control, "final-desk-carried")
    # The fee Anna paid in heat A is the same fee: the final's refunds say so.
    control.goto(f"{base}/desk/{final.slug}/refunds/")
    expect(control.locator("tr", has_text="Anna")).to_contain_text(
        "samme gebyr som betalt i DM individuel, indledende runde A"
    )
    shot(control, "final-refunds-same-fee")

    # Bo was a mistake: the advance is taken back (asked first), and made again with Cille.
    control.goto(f"{base}/control/{final.slug}/advance/")
    done = control.locator("[data-advanced]")
    expect(done.get_by_role("heading")).to_have_text("4 deltagere er gået videre til denne runde")
    expect(done.locator("tr", has_text="Anna")).to_contain_text("✓ betalt")
    shot(control, "advance-done-with-undo")
    asked: list[str] = []
    control.once("dialog", lambda dialog: asked.append(dialog.message))
    done.get_by_role("button", name="Fortryd videregangen").click()
    expect(control.locator("ul.messages")).to_contain_text(
        "Videregangen er fortrudt: 4 deltagere er ikke længere med i »DM individuel, finale«"
    )
    assert asked and asked[0].startswith("Fortryd videregangen? 4 deltagere, der gik videre")
    expect(control.locator("[data-advanced]")).to_have_count(0)
    assert not Team.objects.filter(competition=final).exists()
    assert AuditEntry.objects.filter(competition=final, action="advance_undo").count() == 1
    shot(control, "advance-after-undo")
    control.get_by_label("Hvor mange går videre").fill("2")
    control.get_by_role("button", name="Vis, hvem der går videre").click()
    expect(preview.locator("#advance-going").get_by_role("heading")).to_have_text(sure)
    control.get_by_label("Cille går videre").check()
    control.get_by_label("Jeg vælger, hvem der går videre").check()
    expect(control.locator("#advance-going").get_by_role("heading")).to_have_text(
        "4 går videre til DM individuel, finale"
    )
    control.get_by_role("button", name="Bekræft: de går videre").click()
    expect(control.locator("ul.messages")).to_contain_text(
        "4 gik videre til »DM individuel, finale«: Dorte, Anna, Erik, Cille."
    )
    expect(control.locator("table.control-teams")).to_contain_text("Cille")
    went_on = Team.objects.filter(competition=final).order_by("table")
    assert [t.name for t in went_on] == ["Dorte", "Anna", "Erik", "Cille"]
    assert Member.objects.get(team__competition=final, name="Cille Puslesen")
    entry = AuditEntry.objects.filter(competition=final, action="advance").first()
    assert entry is not None and entry.user == admin_user and len(entry.after["choose"]) == 1
    assert AuditEntry.objects.filter(competition=final, action="advance").count() == 2
    anna_final = went_on.get(name="Anna")
    assert anna_final.checked_in_at is not None and anna_final.fee_paid
    shot(control, "final-control-room-entrants")

    # --- 3. the final runs, stops, is counted and made final ------------------------------
    # The head judge started it ten minutes ago on paper and starts it from that time (R4),
    # so that the finishes below lie in the past of its clock.
    control.get_by_text("Uret startede faktisk tidligere").click()
    started = timezone.localtime(timezone.now() - timedelta(minutes=10))
    control.get_by_label("Uret startede faktisk kl.").fill(started.strftime("%Y-%m-%dT%H:%M:%S"))
    control.get_by_role("button", name="Start fra dette tidspunkt").click()
    expect(control.locator("#clock")).to_have_attribute("data-status", "running")
    teams = {t.name: t for t in went_on}
    finish_register(team=teams["Erik"], position=1, by=admin_user, elapsed_seconds=300)
    finish_register(team=teams["Anna"], position=1, by=admin_user, elapsed_seconds=360)
    control.get_by_role("button", name="Stop uret").click()
    expect(control.locator("#clock")).to_have_attribute("data-status", "stopped")
    count_record(team=teams["Cille"], by=admin_user, pieces=450)
    count_record(team=teams["Dorte"], by=admin_user, pieces=400)
    control.reload()
    panel = control.locator("#objections-panel")
    expect(panel.get_by_role("button", name="Gør resultaterne endelige")).to_be_enabled()
    panel.get_by_role("checkbox").check()
    panel.get_by_role("button", name="Gør resultaterne endelige").click()
    expect(control.locator("ul.messages")).to_contain_text("Resultaterne er endelige")
    assert Finish.objects.filter(team__competition=final).count() == 2
    # The heats' results never changed.
    assert Team.objects.filter(competition=a).count() == 3
    assert Finish.objects.filter(team__competition=a).count() == 1

    # --- 4. the big screen's reveal, from 4th place to the winner ---------------------------
    screen_ctx = browser.new_context(viewport=SCREEN, locale="da-DK", service_workers="block")
    screen = screen_ctx.new_page()
    screen.goto(f"{base}/{final.slug}/screen/")
    building.reveal(
        control, screen, base, final.slug, ["Erik", "Anna", "Cille", "Dorte"], shot=shot
    )
    assert Competition.objects.get(pk=final.pk).reveal_at == 1
    screen_ctx.close()
    ctx.close()
