"""The desk's morning at its laptop (1280x800), by visible state: the import preview of the
organiser's sheet with "Deltagere" and "Alder" columns, the corrected sheet keeping the column
choices; the lit filter pill, the paid feedback and unmarking it by touch, the countdown in
days; a walk-in on the day landing first, checked in, and the missing teams first with their
phone after the deadline, and the "Mangler" list."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from competition.models import Competition, Member, Team
from tests.factories import CompetitionFactory, MemberFactory, TeamFactory
from tests.organiser_sheet import ROWS, as_csv, with_adult

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1280, "height": 800}


def upload(page, content: bytes, name: str):
    page.set_input_files(
        'input[type="file"]', files=[{"name": name, "mimeType": "text/csv", "buffer": content}]
    )
    page.get_by_role("button", name="Vis forhåndsvisning").click()


def test_e2e_desk_import_preview_with_an_age_column(page, live_server, login, desk, shot):
    CompetitionFactory(slug="dm-import", name="DM i puslespil 2027")
    page.set_viewport_size(LAPTOP)
    login(page.context, desk)
    page.goto(f"{live_server.url}/desk/dm-import/import/")
    upload(page, as_csv(ROWS[:3]), "tilmeldinger.csv")
    expect(page.get_by_label("Deltagere")).to_have_value("members:0")
    expect(page.get_by_label("Alder", exact=True)).to_have_value("age:0")
    expect(page.get_by_label("Ledsager")).to_have_value("adult:0")
    expect(
        page.get_by_text(
            "1 problem skal rettes før importen – i regnearket eller i kolonnevalget ovenfor."
        )
    ).to_be_visible()
    family = page.locator("tr", has_text="Familien Kristensen")
    expect(family).to_contain_text("Oskar Kristensen u15 (voksen: Line Kristensen)")
    expect(family).to_contain_text("✓ Ingen problemer")
    brikke = page.locator("tr", has_text="Brikkebanden")
    expect(brikke).to_contain_text("Karen Nielsen u15 (ingen voksen)")
    expect(brikke).to_contain_text(
        "Karen Nielsen er under 15 år og skal have navnet på en ledsagende voksen"
    )
    expect(brikke).not_to_contain_text("Ingen problemer")
    page.locator(".preview-table").scroll_into_view_if_needed()
    shot(page, "preview-alder")

    # The organiser reads "Telefon" as not imported, then fixes the sheet and uploads it
    # again: the choice is kept ("som sidst"), and the corrected sheet imports.
    page.get_by_label("Telefon").select_option("")
    page.get_by_role("button", name="Opdatér forhåndsvisningen").click()
    expect(page.get_by_label("Telefon")).to_have_value("")
    page.get_by_role("button", name="Annullér").click()
    fixed = with_adult(ROWS[:3], 1, "Søren Nielsen")
    upload(page, as_csv(fixed), "tilmeldinger-rettet.csv")
    expect(page.get_by_text("Dine kolonnevalg fra sidste upload er brugt igen")).to_be_visible()
    expect(page.get_by_label("Telefon")).to_have_value("")
    expect(page.locator(".badge.remembered")).to_have_text("som sidst")
    shot(page, "preview-corrected")
    page.get_by_role("button", name="Importér holdene (3)").click()
    expect(page.get_by_text("Hold importeret: 3.")).to_be_visible()
    assert Member.objects.get(name="Karen Nielsen").guardian == "Søren Nielsen"
    assert Team.objects.get(name="Familien Kristensen").members.count() == 4
    assert Team.objects.get(name="Familien Kristensen").contact_phone == ""


def test_e2e_desk_pills_paid_feedback_unmark_by_touch_and_countdown(
    browser, live_server, login, desk, shot
):
    c = CompetitionFactory(
        slug="dm-desk",
        name="DM i puslespil 2027",
        starts_at=timezone.now() + timedelta(days=94, hours=8),
    )
    teams = [
        TeamFactory(competition=c, name=name, table=i, fee_paid=i == 1)
        for i, name in enumerate(["Kantsøgerne", "Brikkebanden", "Puslingerne"], 1)
    ]
    for team in teams:
        MemberFactory(team=team, name=f"Medlem af {team.name}")
    context = browser.new_context(viewport=LAPTOP, has_touch=True, locale="da-DK")
    login(context, desk)
    page = context.new_page()
    page.goto(f"{live_server.url}/desk/{c.slug}/")
    expect(page.locator("[data-role=countdown]")).to_have_text("om 94 dage")

    pills = page.locator("#desk-filters")
    pills.get_by_role("link", name="Ikke betalt").tap()
    expect(pills.locator(".active")).to_have_text("Ikke betalt")
    expect(pills.get_by_role("link", name="Alle")).not_to_have_class("pill filter active")
    expect(page.locator(".team-row")).to_have_count(2)
    page.get_by_label("Søg").fill("pusl")  # the search keeps the filter
    expect(page.locator(".team-row")).to_have_count(1)
    expect(pills.locator(".active")).to_have_text("Ikke betalt")
    page.get_by_label("Søg").fill("")
    expect(page.locator(".team-row")).to_have_count(2)

    row = page.locator(f"#team-{teams[1].pk}")
    row.get_by_role("button", name="Markér betalt").tap()
    status = page.locator("#desk-status")
    expect(status).to_have_text("Bord 2 »Brikkebanden«: gebyret er markeret betalt.")
    expect(row.locator(".fee-paid")).to_have_text("✓ Betalt")
    unmark = row.get_by_role("button", name="Markér ikke betalt")
    expect(unmark).to_be_visible()  # on the row, not a hover tooltip
    shot(page, "paid-feedback")
    unmark.tap()
    expect(status).to_have_text("Bord 2 »Brikkebanden«: gebyret er markeret ikke betalt.")
    expect(row.get_by_role("button", name="Markér betalt")).to_be_visible()
    assert not Team.objects.get(pk=teams[1].pk).fee_paid
    shot(page, "unmarked")
    context.close()


def test_e2e_desk_walk_in_lands_first_and_missing_teams_show_their_phone(
    page, live_server, login, desk, shot
):
    # The check-in deadline (start − 15 min) passed 5 minutes ago; 40 teams, 38 here.
    c = CompetitionFactory(
        slug="dm-dagen",
        name="DM i puslespil 2027",
        starts_at=timezone.now() + timedelta(minutes=10),
    )
    here = timezone.now() - timedelta(minutes=40)
    for i in range(1, 41):
        team = TeamFactory(
            competition=c,
            name=f"Hold {i}",
            table=i,
            contact_name=f"Kontakt {i}",
            contact_phone=f"20 00 00 {i:02d}",
            checked_in_at=None if i in (7, 23) else here,
        )
        MemberFactory(team=team, name=f"Medlem {i}")
    page.set_viewport_size(LAPTOP)
    login(page.context, desk)
    page.goto(f"{live_server.url}/desk/{c.slug}/")
    rows = page.locator(".team-row")
    expect(rows.nth(0)).to_contain_text("Hold 7")
    expect(rows.nth(0)).to_contain_text("☎ 20 00 00 07 (Kontakt 7)")
    expect(rows.nth(1)).to_contain_text("Hold 23")
    expect(page.get_by_text("Fristen for tjek-ind er overskredet: 2 hold mangler")).to_be_visible()
    shot(page, "missing-first")

    page.get_by_role("link", name="+ Tilmeld hold").click()
    page.get_by_label("Holdnavn").fill("Sidste Brik")
    page.locator("#id_members-0-name").fill("Ole Walk-in")
    expect(page.get_by_label("Holdet er her: tjek det ind nu")).to_be_checked()
    page.get_by_role("button", name="Tilmeld hold", exact=True).click()
    expect(
        page.get_by_text("»Sidste Brik« er tilmeldt ved bord 41 og tjekket ind.")
    ).to_be_visible()
    first = rows.nth(0)
    expect(first).to_contain_text("Sidste Brik")
    expect(first).to_contain_text("lige tilmeldt")
    expect(first.locator(".checked")).to_contain_text("Tjekket ind")
    expect(first.locator(".badge-late")).to_have_text("sent")
    expect(first).to_be_in_viewport()
    expect(page.get_by_role("link", name="Udskriv holdets bordkort")).to_be_visible()
    shot(page, "walk-in-first")

    # A late team arrives: checked in with one tap, "sent" on its row.
    late = page.locator(".team-row", has_text="Hold 7")
    late.get_by_role("button", name="Tjek ind").click()
    expect(late.locator(".badge-late")).to_have_text("sent")
    expect(page.locator("#desk-status")).to_contain_text("– efter fristen.")

    page.get_by_role("link", name="Mangler: liste til udskrift").click()
    expect(page.get_by_role("heading", name="Mangler ved tjek-ind: 1 hold")).to_be_visible()
    expect(page.locator(".missing-table")).to_contain_text("20 00 00 23")
    expect(page.locator(".missing-table")).not_to_contain_text("Hold 7")
    shot(page, "mangler")
    assert Competition.objects.get(pk=c.pk).teams.filter(checked_in_at=None).count() == 1


def test_e2e_table_cards_printed_on_a_loopback_address_warn(page, live_server, login, desk, shot):
    c = CompetitionFactory(slug="dm-kort", name="DM i puslespil 2027")
    team = TeamFactory(competition=c, name="Familien Kristensen", table=12)
    for name in ("Line Kristensen", "Morten Kristensen", "Hanne Kristensen", "Oskar Kristensen"):
        MemberFactory(team=team, name=name)
    page.set_viewport_size(LAPTOP)
    login(page.context, desk)
    page.goto(f"{live_server.url}/desk/{c.slug}/cards/")  # the live server is on localhost
    warning = page.get_by_role("alert")
    expect(warning).to_contain_text("QR-koderne peger på den bærbares egen adresse")
    expect(page.locator(".tc-members li")).to_have_count(4)
    expect(page.locator(".tc-foot").first).to_have_text(
        "Bordkortet må ikke fjernes fra bordet (jf. regel 15)."
    )
    shot(page, "cards-loopback-warning")
    page.emulate_media(media="print")
    expect(warning).to_be_hidden()  # the warning is for the screen, not the paper


def test_e2e_axe_finds_nothing_serious_on_the_new_desk_states(browser, live_server, login, desk):
    """The desk after the deadline (missing teams with phones, a walk-in first, a late
    check-in), a fee just marked paid, the Mangler list and the import preview with an age
    column: axe-core finds no serious or critical violation."""
    from tests.e2e.axe import audit

    c = CompetitionFactory(
        slug="dm-axe", name="DM i puslespil 2027", starts_at=timezone.now() + timedelta(minutes=10)
    )
    late = TeamFactory(competition=c, name="Sent Hold", table=1, contact_phone="20 30 40 50")
    TeamFactory(competition=c, name="Mangler Hold", table=2, contact_name="Kim")
    walk_in = TeamFactory(competition=c, name="Sidste Brik", table=3)
    Team.objects.filter(pk=late.pk).update(checked_in_at=timezone.now())
    ctx = browser.new_context(
        locale="da-DK", service_workers="block", bypass_csp=True, viewport=LAPTOP
    )
    login(ctx, desk)
    page = ctx.new_page()
    problems = []
    page.goto(f"{live_server.url}/desk/{c.slug}/?added={walk_in.pk}")
    expect(page.locator(".badge-new")).to_be_visible()
    problems += audit(page)
    page.locator(f"#team-{late.pk}").get_by_role("button", name="Markér betalt").click()
    expect(page.locator("#desk-status")).to_contain_text("markeret betalt")
    problems += audit(page)
    page.goto(f"{live_server.url}/desk/{c.slug}/?reprint={late.pk}")
    problems += audit(page)
    page.goto(f"{live_server.url}/desk/{c.slug}/missing/")
    problems += audit(page)
    page.goto(f"{live_server.url}/desk/{c.slug}/import/")
    upload(page, as_csv(ROWS[:3]), "tilmeldinger.csv")
    expect(page.get_by_label("Alder", exact=True)).to_have_value("age:0")
    problems += audit(page)
    ctx.close()
    assert problems == [], "\n".join(problems)
