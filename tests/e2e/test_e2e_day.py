"""The championship day (docs/day.md) in one walk through the real pages, in headless Chromium.

Four browsers at once: the desk (1280x900), the head judge's control room (1280x900), a
judge's tablet (768x1024) and a spectator's phone (375x800, never logged in). Only the
starting competition with its puzzles and the staff users are made in Python; everything
else is done by clicking. Screenshots: tests/e2e/screenshots/day-NN-<step>.png.
"""

import re
import time
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from competition.models import AuditEntry, Competition, Team
from judging.models import Count, Finish, Objection, Tablet
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.measure import press, screenshot
from tests.e2e.test_e2e_judge_outbox import card, seconds, tap_and_save, wait_until

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# The public leaderboard polls every 5 s on the day; 2 s here keeps the walk short and
# still shows several polls (and their absence once final).
POLL = 2

DESK = {"width": 1280, "height": 900}
TABLET = {"width": 768, "height": 1024}
PHONE = {"width": 375, "height": 800}

SIGNUPS = (
    "hold;bord;medlem 1;medlem 2;betalt\r\n"
    "Brikkebanden;1;Søren Nielsen;Line Nielsen;ja\r\n"
    "Kantsøgerne;2;Mette Dahl;Per Dahl;ja\r\n"
    "Hjørnebrikkerne;4;Eva Lund;;ja\r\n"
    "Himmelstykket;5;Bo Krogh;Kim Krogh;ja\r\n"
    "Puslebanden;6;Jens Bak;;ja\r\n"
    "Motivjægerne;7;Lis Holt;;ja\r\n"
    "Kantfolket;8;Aage Friis;;ja\r\n"
    "Sidste Brik;9;Ole Berg;;\r\n"
)
OTHERS = {4: 140, 5: 130, 6: 120, 7: 110, 8: 100}  # tables -> placed pieces at the end


def hms(total: int) -> str:
    return f"{total // 3600}:{total % 3600 // 60:02d}:{total % 60:02d}"


@pytest.fixture
def day(monkeypatch, competition, judge, desk, admin_user):
    monkeypatch.setattr("scoring.views_public.live.POLL_SECONDS", POLL)
    return competition


@pytest.fixture
def snap():
    """snap(page, "step"): tests/e2e/screenshots/day-NN-step.png, numbered in order."""
    SCREENSHOTS.mkdir(exist_ok=True)
    for old in SCREENSHOTS.glob("day-*.png"):
        old.unlink()
    counter = {"n": 0}

    def take(page, step: str, full_page: bool = False):
        counter["n"] += 1
        screenshot(page, SCREENSHOTS / f"day-{counter['n']:02d}-{step}.png", full_page=full_page)

    return take


def open_as(new_context, login, user, viewport):
    context = new_context(viewport=viewport)
    if user is not None:
        login(context, user)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())  # window.confirm on the staff pages
    return page


def messages(page):
    return page.locator("ul.messages")


def board_row(page, name):
    return page.locator("table.board tbody tr", has=page.locator(f'a.team-name:text-is("{name}")'))


def test_e2e_day_the_whole_championship(
    new_context, live_server, login, day, judge, desk, admin_user, snap
):
    url = live_server.url
    slug = day.slug

    # --- 1. The desk: the sign-up sheet, a team registered by hand, check-in --------------
    desk_page = open_as(new_context, login, desk, DESK)
    desk_page.goto(f"{url}/desk/{slug}/")
    desk_page.locator("header nav").get_by_role("link", name="Importér").click()
    desk_page.set_input_files(
        'input[type="file"]',
        files=[{"name": "tilmeldinger.csv", "mimeType": "text/csv", "buffer": SIGNUPS.encode()}],
    )
    desk_page.get_by_role("button", name="Vis forhåndsvisning").click()
    desk_page.get_by_role("button", name="Importér holdene (8)").click()
    expect(messages(desk_page)).to_contain_text("Hold importeret: 8.")

    desk_page.get_by_role("link", name="+ Tilmeld hold").click()
    desk_page.fill("#id_name", "Puslingerne")
    desk_page.fill("#id_table", "3")
    desk_page.fill("#id_members-0-name", "Anne Holm")
    desk_page.fill("#id_members-1-name", "Ida Holm")
    desk_page.check("#id_members-1-under_15")
    expect(desk_page.locator("#id_members-1-guardian")).to_be_visible()
    submit = desk_page.locator("form.team-form").get_by_role(
        "button", name="Tilmeld hold", exact=True
    )
    submit.click()
    guardian_row = desk_page.locator(".member-row", has=desk_page.locator("#id_members-1-guardian"))
    expect(guardian_row).to_contain_text(
        "Et holdmedlem under 15 år skal have navnet på den ledsagende voksne (regel 3)."
    )
    assert not Team.objects.filter(name="Puslingerne").exists()
    snap(desk_page, "desk-under-15-needs-an-adult")
    desk_page.fill("#id_members-1-guardian", "Anne Holm")
    submit.click()
    expect(messages(desk_page)).to_contain_text("»Puslingerne« er tilmeldt ved bord 3.")
    team3 = Team.objects.get(competition=day, name="Puslingerne")
    assert [(m.name, m.under_15, m.guardian) for m in team3.members.order_by("id")] == [
        ("Anne Holm", False, ""),
        ("Ida Holm", True, "Anne Holm"),
    ]
    row = desk_page.locator(f"#team-{team3.pk}")
    row.get_by_role("button", name="Tjek ind").click()  # one tap, swapped in place by htmx
    expect(row).to_contain_text("✓ Tjekket ind")
    assert Team.objects.get(pk=team3.pk).checked_in_at is not None
    snap(desk_page, "desk-checked-in")

    # The team at table 9 never comes: the desk withdraws it (it leaves the leaderboard).
    no_show = Team.objects.get(competition=day, table=9)
    desk_page.locator(f"#team-{no_show.pk}").get_by_role("link", name="Sidste Brik").click()
    desk_page.locator(".danger-zone").get_by_role("button").click()
    expect(messages(desk_page)).to_contain_text("Sidste Brik")
    assert Team.objects.get(pk=no_show.pk).withdrawn

    # --- 2. The head judge starts the clock in the control room ---------------------------
    admin = open_as(new_context, login, admin_user, DESK)
    admin.goto(f"{url}/control/{slug}/")
    admin.get_by_role("button", name="▶ Start uret").click()
    expect(admin.locator("#clock .badge")).to_have_text("Uret kører")
    assert Competition.objects.get(pk=day.pk).started_at is not None
    snap(admin, "control-clock-started")
    # docs/day.md: "they correct the start" (R4), in the control room, while nothing is
    # registered. Waiting 90 minutes for a plausible 500-piece finish is too long, so the
    # correction moves the start 90 minutes back, before the judge and spectator open.
    really = timezone.localtime(timezone.now() - timedelta(minutes=90)).replace(microsecond=0)
    admin.locator("summary", has_text="Ret starttidspunkt").click()
    admin.fill("#id_started_at", really.strftime("%Y-%m-%dT%H:%M:%S"))
    admin.locator("form", has=admin.locator("#id_started_at")).get_by_role("button").click()
    expect(messages(admin)).to_contain_text(f"Starttidspunktet er rettet til {really:%H:%M:%S}")
    assert Competition.objects.get(pk=day.pk).started_at == really

    # A spectator's phone, no login, scrolled down the standings.
    phone = open_as(new_context, login, None, PHONE)
    polls = []
    phone.on(
        "request",
        lambda r: (
            polls.append(time.monotonic())
            if r.headers.get("hx-request") == "true" and r.url.rstrip("/").endswith(f"/{slug}")
            else None
        ),
    )
    phone.goto(f"{url}/{slug}/")
    expect(phone.locator("#live .badge").first).to_have_text("Uret kører")
    expect(board_row(phone, "Sidste Brik")).to_have_count(0)  # withdrawn: not listed
    expect(board_row(phone, "Puslingerne").locator("td.pieces")).to_have_text("0")
    snap(phone, "phone-standings")

    # --- 3. A judge's tablet: tables, a finish with a lone missing piece, an undo ---------
    tablet = open_as(new_context, login, judge, TABLET)
    tablet.goto(f"{url}/judge/{slug}/")
    expect(tablet.locator("#outbox-pill")).to_have_text("Alt sendt ✓")
    tablet.locator("#tables-picker summary").click()
    tablet.locator('[data-tables="none"]').click()
    for table in (1, 2, 3, 4):
        tablet.locator(f'.jchip:has(input[value="{table}"])').click()
    snap(tablet, "judge-picks-tables")
    tablet.locator('#tables-form button[type="submit"]').click()
    expect(tablet.locator("#tables-label")).to_have_text("1, 2, 3, 4")
    expect(tablet.locator(".jcard")).to_have_count(4)
    expect(card(tablet, 3).locator('[data-role="puzzle"]')).to_have_text(
        "Puslespil 1 af 3 (500 brikker)"
    )
    snap(tablet, "judge-board")

    press(card(tablet, 3).locator('[data-action="finish"]'))
    expect(tablet.locator("#finish-sheet")).to_be_visible()
    tablet.locator("#add-lone").click()
    expect(tablet.locator("#finish-deduct")).to_have_text("1 brik trækkes fra")
    snap(tablet, "judge-lone-missing-piece")
    tablet.locator("#finish-save").click()
    expect(tablet.locator("#outbox-pill")).to_have_text("Alt sendt ✓")
    wait_until(tablet, lambda: Finish.objects.filter(team=team3).count() == 1)
    assert Finish.objects.get(team=team3).missing == [1]
    expect(card(tablet, 3).locator('[data-role="puzzle"]')).to_have_text(
        "Puslespil 2 af 3 (1.000 brikker)"
    )
    snap(tablet, "judge-finish-saved")

    team1 = Team.objects.get(competition=day, table=1)
    tap_and_save(tablet, 1)  # table 1 raised an arm by mistake
    wait_until(tablet, lambda: Finish.objects.filter(team=team1).count() == 1)
    snap(tablet, "judge-second-finish")
    undo = card(tablet, 1).locator('[data-action="undo"]')
    expect(undo).to_have_text(re.compile(r"^↶ Fortryd puslespil 1 \(\d:\d\d:\d\d\)$"))
    undo.click()
    expect(tablet.locator("#confirm-text")).to_have_text(
        "Fortryd registreringen af puslespil 1 ved bord 1?"
    )
    snap(tablet, "judge-undo-confirm")
    tablet.locator("#confirm-yes").click()
    expect(tablet.locator("#judge-messages")).to_contain_text("Fortrudt: puslespil 1 ved bord 1.")
    wait_until(tablet, lambda: not Finish.objects.filter(team=team1).exists())
    expect(card(tablet, 1).locator('[data-role="puzzle"]')).to_have_text(
        "Puslespil 1 af 3 (500 brikker)"
    )
    snap(tablet, "judge-undone")

    # --- 4. The phone shows the finish by itself ------------------------------------------
    expect(board_row(phone, "Puslingerne").locator("td.pieces")).to_have_text(
        "499", timeout=4 * POLL * 1000
    )
    expect(phone.locator("table.board tbody tr").first).to_contain_text("Puslingerne")
    expect(phone.locator("#live figure.chart")).to_be_visible()  # came with the same swap
    snap(phone, "phone-finish-arrived")
    # With the chart the page is taller than the phone: the spectator scrolls down to it.
    phone.mouse.wheel(0, 300)
    phone.wait_for_function("() => window.scrollY >= 300")
    scrolled = phone.evaluate("window.scrollY")

    # --- 5. The Wi-Fi drops: a tap waits on the tablet and arrives once --------------------
    team2 = Team.objects.get(competition=day, table=2)
    tablet.context.set_offline(True)
    tapped = tap_and_save(tablet, 2)
    expect(tablet.locator("#outbox-pill")).to_have_text("Ikke sendt endnu: 1")
    snap(tablet, "judge-offline-not-sent")
    tablet.wait_for_timeout(1500)  # wait-ok: nothing may arrive while offline
    assert not Finish.objects.filter(team=team2).exists()
    tablet.context.set_offline(False)
    expect(tablet.locator("#outbox-pill")).to_have_text("Alt sendt ✓", timeout=10_000)
    wait_until(tablet, lambda: Finish.objects.filter(team=team2).exists())
    tablet.wait_for_timeout(1000)  # wait-ok: a doubled send would land now
    assert Finish.objects.filter(team=team2).count() == 1
    assert Finish.objects.filter(team__competition=day).count() == 2
    finish2 = Finish.objects.get(team=team2)
    assert finish2.elapsed_seconds == seconds(tapped)  # the tap's time, not the sending's
    snap(tablet, "judge-back-online")

    # The scrolled phone gets that finish too, without a reload and without jumping.
    expect(board_row(phone, "Kantsøgerne").locator("td.pieces")).to_have_text(
        "500", timeout=4 * POLL * 1000
    )
    assert phone.evaluate("window.scrollY") == scrolled
    assert phone.evaluate("performance.getEntriesByType('navigation').length") == 1
    snap(phone, "phone-scrolled-second-finish")

    # --- 6. Time is up early; the judge counts the unfinished puzzles ----------------------
    admin.reload()
    admin.get_by_role("button", name="■ Stop uret").click()
    expect(admin.locator("#clock .badge")).to_have_text("Tiden er gået")
    snap(admin, "control-clock-stopped")

    count1 = card(tablet, 1).locator('[data-action="count"]')
    expect(count1).to_be_visible(timeout=10_000)  # the board refreshes every 5 s
    expect(tablet.locator("#clock-status")).to_have_text("Tiden er gået")
    count1.click()
    expect(tablet.locator("#count-title")).to_have_text(
        "Optælling af puslespil 1 · Bord 1 · Brikkebanden"
    )
    tablet.locator('.segmented span:text-is("Lagte brikker")').click()
    tablet.fill("#count-pieces", "2")
    expect(tablet.locator("#count-error")).to_have_text(
        "2 brikker kan ikke tælles: kun grupper på mindst 3 samlede brikker tæller (regel 9)."
    )
    expect(tablet.locator("#count-save")).to_be_disabled()  # refused, nothing sent
    snap(tablet, "judge-count-2-refused")
    assert not Count.objects.exists()
    tablet.fill("#count-pieces", "420")
    expect(tablet.locator("#count-error")).to_have_text("")
    tablet.locator("#count-save").click()
    expect(card(tablet, 1)).to_contain_text("Optalt: 420 brikker")

    press(card(tablet, 2).locator('[data-action="count"]'))
    tablet.locator('.segmented span:text-is("Ulagte brikker")').click()
    tablet.fill("#count-piles", "31")
    tablet.fill("#count-rest", "4")
    tablet.fill("#count-loose", "6")
    expect(tablet.locator("#count-result")).to_have_text("1.000 − 310 − 4 − 6 = 680 brikker tælles")
    snap(tablet, "judge-count-piles")
    tablet.locator("#count-save").click()
    expect(card(tablet, 2)).to_contain_text("Optalt: 680 brikker")

    press(card(tablet, 3).locator('[data-action="count"]'))
    tablet.locator('.segmented span:text-is("Lagte brikker")').click()
    tablet.fill("#count-pieces", "250")
    tablet.locator("#count-save").click()
    expect(card(tablet, 3)).to_contain_text("Optalt: 250 brikker")
    snap(tablet, "judge-counted")

    # Every judge helps counting: she shows all the tables and counts the rest.
    tablet.locator("#tables-picker summary").click()
    tablet.locator('[data-tables="all"]').click()
    tablet.locator('#tables-form button[type="submit"]').click()
    expect(tablet.locator(".jcard")).to_have_count(8)
    for table, pieces in OTHERS.items():
        press(card(tablet, table).locator('[data-action="count"]'))
        tablet.locator('.segmented span:text-is("Lagte brikker")').click()
        tablet.fill("#count-pieces", str(pieces))
        tablet.locator("#count-save").click()
        expect(card(tablet, table)).to_contain_text(f"Optalt: {pieces} brikker")
    expect(tablet.locator("#outbox-pill")).to_have_text("Alt sendt ✓")
    wait_until(tablet, lambda: Count.objects.count() == 8)
    assert {(c.team.table, c.pieces, c.unplaced, c.loose) for c in Count.objects.all()} == {
        (1, 420, None, None),
        (2, 680, 314, 6),
        (3, 250, None, None),
    } | {(table, pieces, None, None) for table, pieces in OTHERS.items()}

    # --- 7. An objection; finalising refused, the objection upheld, then final ------------
    # The tablet tells the control room its outbox is empty (else `taps_waiting`).
    wait_until(tablet, lambda: not Tablet.objects.filter(waiting__gt=0).exists())
    admin.reload()
    panel = admin.locator("#objections-panel")
    expect(panel).to_contain_text("Ingen indsigelser under behandling.")
    expect(panel.get_by_role("button", name="Gør resultaterne endelige")).to_be_enabled()
    snap(admin, "control-ready-to-finalise", full_page=True)

    desk_page.get_by_role("link", name="Indsigelser").click()
    desk_page.wait_for_url(f"**/desk/{slug}/objections/")  # loaded: htmx is listening
    desk_page.select_option("#id_team", str(team2.pk))
    about = desk_page.locator("#id_about")
    # htmx swaps the "about" choices for the chosen team's finishes and count
    other = Finish.objects.get(team=team3)
    expect(about.locator(f'option[value="finish:{other.pk}"]')).to_have_count(0)
    expect(about.locator(f'option[value="finish:{finish2.pk}"]')).to_have_count(1)
    about.select_option(f"finish:{finish2.pk}")
    desk_page.fill("#id_text", "Vi rakte armen op et minut før dommeren kom.")
    desk_page.get_by_role("button", name="Indgiv indsigelsen").click()
    expect(messages(desk_page)).to_contain_text("fra bord 2 (Kantsøgerne) er modtaget.")
    objection = Objection.objects.get(team=team2)
    assert objection.finish == finish2 and objection.decision == "open"
    snap(desk_page, "desk-objection-filed")

    expect(board_row(phone, "Kantsøgerne")).to_contain_text(
        "under behandling", timeout=4 * POLL * 1000
    )
    snap(phone, "phone-under-review")

    # The control room was opened before the objection: the finalise button is still live.
    panel.get_by_role("checkbox").check()
    panel.get_by_role("button", name="Gør resultaterne endelige").click()
    expect(messages(admin)).to_contain_text(
        "Indsigelser er stadig under behandling (bord 2): afgør dem først."
    )
    expect(panel.get_by_role("button", name="Gør resultaterne endelige")).to_be_disabled()
    assert Competition.objects.get(pk=day.pk).finalised_at is None
    snap(admin, "control-finalise-refused", full_page=True)

    corrected = finish2.elapsed_seconds - 60
    panel.get_by_role("link", name="Afgør").click()
    admin.check('input[name="decision"][value="upheld"]')
    admin.fill("#id_note", "Dommeren bekræfter: armen var oppe et minut før.")
    admin.fill("#id_elapsed", hms(corrected))
    snap(admin, "control-resolve-objection")
    admin.get_by_role("button", name="Gem afgørelsen").click()
    expect(messages(admin)).to_contain_text("Indsigelsen fra bord 2 er imødekommet.")
    assert Finish.objects.get(pk=finish2.pk).elapsed_seconds == corrected
    assert AuditEntry.objects.filter(objection_id=objection.pk).exists()

    panel.get_by_role("checkbox").check()
    panel.get_by_role("button", name="Gør resultaterne endelige").click()
    expect(messages(admin)).to_contain_text("Resultaterne er endelige")
    expect(panel).to_contain_text("Endelige resultater")
    assert Competition.objects.get(pk=day.pk).finalised_at is not None
    snap(admin, "control-final", full_page=True)

    live = phone.locator("#live")
    expect(live.locator(".badge").first).to_have_text(
        "Endelige resultater", timeout=4 * POLL * 1000
    )
    expect(live).not_to_have_attribute("hx-trigger", f"every {POLL}s")
    expect(board_row(phone, "Kantsøgerne")).not_to_contain_text("under behandling")
    ranks = phone.locator("table.board tbody tr a.team-name")
    expect(ranks).to_have_text(  # 1180, 749, 420, then the counts of tables 4-8
        [
            "Kantsøgerne",
            "Puslingerne",
            "Brikkebanden",
            "Hjørnebrikkerne",
            "Himmelstykket",
            "Puslebanden",
            "Motivjægerne",
            "Kantfolket",
        ]
    )
    assert phone.evaluate("window.scrollY") == scrolled
    final_at, before = time.monotonic(), len(polls)
    assert before >= 3, "the phone polled while the results could still change"
    phone.wait_for_timeout(int(2.5 * POLL * 1000))  # wait-ok: no poll may come after final
    assert len(polls) == before, f"polls after final: {[t - final_at for t in polls[before:]]}"
    snap(phone, "phone-final")
    snap(phone, "phone-final-whole", full_page=True)
