"""The head judge switches the big screen from the control room and
every screen follows without a reload (1920x1080); the prize-giving reveal of five places as
the screen and a spectator's phone (375 px) see it; a spectator follows a team; axe-core
finds no serious or critical violation on any page of any audience; the desk registers a
team from the keyboard alone."""

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from competition.models import Championship, Competition, Team
from judging.services import objection_file
from tests.e2e.axe import audit
from tests.factories import MemberFactory, TeamFactory
from tests.scoring.stage.championship import TEAMS, finalised
from tests.scoring.standings_data import finish, running_competition

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

CONTROL = {"width": 1366, "height": 768}
PHONE = {"width": 375, "height": 812}
SCREEN = {"width": 1920, "height": 1080}
TABLET = {"width": 768, "height": 1024}


@pytest.fixture
def context(browser, login):
    """context(browser, live_server, login, user, **options): a browser context of its own
    (a screen, a phone, the control room), closed after the test."""
    made = []

    def make(_browser, _live_server, _login=None, user=None, **extra):
        ctx = browser.new_context(locale="da-DK", service_workers="block", **extra)
        made.append(ctx)
        if user is not None:
            login(ctx, user)
        return ctx

    yield make
    for ctx in made:
        ctx.close()


def test_screen_switches_without_reload(
    context, browser, live_server, login, admin_user, competition, shot
):
    TeamFactory(competition=competition, name="Kantsøgerne", table=1)
    screen = context(browser, live_server, viewport=SCREEN).new_page()
    screen.goto(f"{live_server.url}/dm-2026/screen/")
    expect(screen.locator(".screen-board")).to_be_visible()
    screen.evaluate("() => { window.sameDocument = true; }")
    shot(screen, "standings")

    control = context(browser, live_server, login, admin_user, viewport=CONTROL).new_page()
    control.goto(f"{live_server.url}/control/dm-2026/screen/")
    control.get_by_role("button", name="Nedtælling til starten").click()
    expect(screen.locator(".screen-countdown-label")).to_have_text("Starter om", timeout=3000)
    expect(screen.locator("[data-countdown]")).to_contain_text(":")
    expect(screen.locator(".screen-countdown-sub")).to_have_text("3 puslespil · 2.500 brikker")
    shot(screen, "countdown")

    control.get_by_label("Meddelelse med stor skrift").fill("10 minutter tilbage")
    control.get_by_role("button", name="Vis meddelelsen").click()
    expect(screen.locator("[data-screen-message]")).to_have_text(
        "10 minutter tilbage", timeout=3000
    )
    shot(screen, "message")
    shot(control, "control-room-message")
    expect(
        control.frame_locator("iframe.screen-preview").locator("[data-screen-message]")
    ).to_have_text("10 minutter tilbage")

    control.get_by_role("button", name="Stillingen").click()
    expect(screen.locator(".screen-board")).to_be_visible(timeout=3000)
    assert screen.evaluate("() => window.sameDocument === true")  # never reloaded


def test_reveal_of_five_places(
    context, browser, live_server, login, admin_user, competition, start_clock, shot
):
    final = finalised(competition, admin_user, start_clock)
    names = list(TEAMS)  # in rank order
    screen = context(browser, live_server, viewport=SCREEN).new_page()
    screen.goto(f"{live_server.url}/dm-2026/screen/")
    phone = context(browser, live_server, viewport=PHONE, is_mobile=True).new_page()
    phone.goto(f"{live_server.url}/dm-2026/")
    control = context(browser, live_server, login, admin_user, viewport=CONTROL).new_page()
    control.goto(f"{live_server.url}/control/dm-2026/screen/")

    control.get_by_role("button", name="Stillingen").click()  # results mode comes next
    control.get_by_role("button", name="Endelige resultater").click()
    expect(screen.locator(".screen-outcome")).to_have_text("Endelige resultater", timeout=3000)
    shot(screen, "results")

    control.get_by_role("button", name="Hold den endelige rækkefølge tilbage").click()
    control.get_by_label("Afslør fra placering").fill("5")
    control.get_by_role("button", name="Start afsløringen").click()
    expect(screen.locator(".screen-reveal-wait")).to_have_text("Præmieoverrækkelsen", timeout=3000)
    phone.reload()
    expect(phone.locator("tbody tr[data-team]")).to_have_count(1)
    expect(phone.locator("[data-held]")).to_contain_text("Placering 1–5")
    shot(screen, "reveal-start")
    shot(control, "control-room-reveal")

    for place in (5, 4, 3, 2, 1):
        control.get_by_role("button", name="Vis næste placering").click()
        name = names[place - 1]
        expect(screen.locator(".reveal-name")).to_have_text(name, timeout=3000)
        expect(screen.locator(".reveal-rank")).to_have_text(f"{place}. plads")
        # The phone polls by itself: the revealed places appear, the others stay held.
        expect(phone.locator("tbody tr[data-team]")).to_have_count(7 - place, timeout=8000)
        for hidden in names[: place - 1]:
            expect(phone.locator(f'tr[data-team="{hidden}"]')).to_have_count(0)
            expect(screen.get_by_text(hidden, exact=True)).to_have_count(0)
        shot(screen, f"reveal-{place}")
        shot(phone, f"phone-{place}")
    expect(screen.locator("[data-reveal-sentence]")).to_contain_text("Alfa")
    expect(control.locator("[data-reveal-status]")).to_have_text("Alle placeringer er afsløret.")
    expect(phone.locator("[data-held]")).to_have_count(0)
    assert Competition.objects.get(pk=final.pk).reveal_at == 1


def test_follow_a_team_on_the_phone(context, browser, live_server, competition, shot):
    c, puzzles = running_competition(slug="dm-live")
    teams = [TeamFactory(competition=c, name=f"Hold {i}", table=i) for i in range(1, 9)]
    for i, team in enumerate(teams[:6]):
        finish(team, puzzles[0], 1000 + 60 * i)
    phone = context(browser, live_server, viewport=PHONE, is_mobile=True).new_page()
    phone.goto(f"{live_server.url}/dm-live/")
    phone.get_by_role("button", name="Følg: Hold 5").click()
    first = phone.locator("table.board tbody tr").first
    expect(first).to_have_attribute("data-team", "Hold 5")
    expect(first.locator(".rank")).to_have_text("5")  # its real place, at the top
    phone.evaluate("() => window.scrollTo(0, 0)")
    shot(phone, "pinned")

    finish(teams[7], puzzles[0], 900)  # Hold 8 takes the lead: the list polls
    c.bump_standings()
    expect(phone.locator('tr[data-team="Hold 8"] .rank')).to_have_text("1", timeout=8000)
    expect(first).to_have_attribute("data-team", "Hold 5")
    expect(phone.locator("table.board tbody tr").first.locator(".rank")).to_have_text("6")
    phone.evaluate("() => window.scrollTo(0, 0)")
    shot(phone, "pinned-after-poll")

    phone.reload()  # kept on the phone
    expect(phone.locator("table.board tbody tr").first).to_have_attribute("data-team", "Hold 5")
    phone.get_by_role("button", name="Følger: Hold 5").click()
    expect(phone.locator("table.board tbody tr").first).to_have_attribute("data-team", "Hold 8")

    phone.goto(f"{live_server.url}/dm-live/teams/{teams[4].pk}/")
    expect(phone.get_by_label("Del dette link")).to_have_value(
        f"{live_server.url}/dm-live/teams/{teams[4].pk}/"
    )
    expect(phone.locator(".share-qr svg")).to_be_visible()
    shot(phone, "team-share")


def test_desk_registers_a_team_from_the_keyboard(
    context, browser, live_server, login, desk, competition, shot
):
    page = context(browser, live_server, login, desk, viewport=CONTROL).new_page()
    page.goto(f"{live_server.url}/desk/dm-2026/")
    values = {"name": "Tastaturholdet", "table": "12", "members-0-name": "Ida Taster"}
    typed = set()
    # Tab from the top of the page to "Tilmeld hold", then through the form.
    for _ in range(80):
        page.keyboard.press("Tab")
        focused = page.evaluate(
            "() => ({tag: document.activeElement.tagName, name: document.activeElement.name || '',"
            " text: document.activeElement.textContent.trim(),"
            " outline: getComputedStyle(document.activeElement).outlineStyle})"
        )
        assert focused["outline"] != "none" or focused["tag"] == "BODY", focused  # focus shows
        on_form = "/teams/new/" in page.url
        if not on_form and focused["tag"] == "A" and focused["text"].endswith("Tilmeld hold"):
            page.keyboard.press("Enter")
            page.wait_for_url("**/teams/new/")
        elif focused["name"] in values and focused["name"] not in typed:
            page.keyboard.type(values[focused["name"]])
            typed.add(focused["name"])
        elif focused["tag"] == "BUTTON" and focused["text"] == "Tilmeld hold" and typed:
            shot(page, "form-filled")
            with page.expect_navigation():
                page.keyboard.press("Enter")
            break
    else:
        pytest.fail(f"never reached the submit button; typed {typed}")
    shot(page, "registered")
    assert typed == set(values)
    team = Team.objects.get(competition=competition, name="Tastaturholdet")
    assert team.table == 12 and team.members.get().name == "Ida Taster"


def test_axe_finds_nothing_serious_on_any_page(
    context, browser, live_server, login, admin_user, competition, start_clock, shot
):
    """Public, desk, judge, control room and login pages, the screen in every mode: axe-core
    finds no serious or critical violation (contrast included, the dark screen too)."""
    c, puzzles = running_competition(slug="dm-live")
    team = TeamFactory(competition=c, name="Kantsøgerne", table=1)
    MemberFactory(team=team, name="Alma", under_15=True, guardian="Mette")
    TeamFactory(competition=c, name="Brikkebanden", table=2)
    f = finish(team, puzzles[0], 1500)
    objection = objection_file(team=team, finish=f, by=admin_user, text="For sent")
    final = finalised(competition, admin_user, start_clock)
    # A championship's programme: the running competition and the final one in it.
    program = Championship.objects.create(slug="dm-program", name="DM-programmet", venue="Vejle")
    Competition.objects.filter(pk__in=[c.pk, final.pk]).update(championship=program)

    problems = []
    anonymous = context(browser, live_server, bypass_csp=True, viewport=CONTROL).new_page()
    for path in (
        "/",
        "/rules/",
        "/dm-live/",
        f"/dm-live/teams/{team.pk}/",
        "/accounts/login/",
        "/dm-2026/",
        "/dm-program/",
    ):
        anonymous.goto(live_server.url + path)
        problems += audit(anonymous)
    phone = context(browser, live_server, bypass_csp=True, viewport=PHONE).new_page()
    for path in ("/dm-live/", f"/dm-live/teams/{team.pk}/", "/dm-program/"):
        phone.goto(live_server.url + path)
        problems += audit(phone)

    staff = context(browser, live_server, login, admin_user, bypass_csp=True, viewport=CONTROL)
    page = staff.new_page()
    for path in (
        "/desk/dm-live/",
        "/desk/dm-live/setup/",
        "/desk/dm-live/teams/new/",
        f"/desk/dm-live/teams/{team.pk}/",
        "/desk/dm-live/refunds/",
        "/desk/dm-live/import/",
        "/desk/dm-live/cards/",
        "/desk/new/",
        "/desk/new/?championship=_new",  # with the new championship's fields
        "/desk/new/championship/",
        "/control/dm-live/",
        f"/control/dm-live/teams/{team.pk}/",
        "/control/dm-live/audit/",
        "/control/dm-live/logins/",
        "/control/dm-live/screen/",
        "/control/dm-2026/screen/",
        "/desk/dm-live/objections/",
        f"/control/dm-live/objections/{objection.pk}/resolve/",
        "/desk/dm-2026/official/",
        "/desk/dm-program/",  # the desk across the championship
        "/control/dm-program/",  # the championship's control room
    ):
        page.goto(live_server.url + path)
        problems += audit(page)
    tablet = staff.new_page()
    tablet.set_viewport_size(TABLET)
    tablet.goto(f"{live_server.url}/judge/dm-live/")
    problems += audit(tablet)

    screen = context(browser, live_server, bypass_csp=True, viewport=SCREEN).new_page()
    screen.goto(f"{live_server.url}/dm-live/screen/")
    problems += audit(screen)
    from competition.services import reveal_next, reveal_start, screen_set
    from scoring.selectors import reveal_places

    for mode in ("countdown", "message", "results"):
        screen_set(competition=c, by=admin_user, mode=mode, message="Puslespil 2 må nu åbnes")
        screen.reload()
        problems += audit(screen)
    reveal_start(competition=final, by=admin_user, from_place=3)
    reveal_next(competition=final, by=admin_user, places=reveal_places(final))
    screen.goto(f"{live_server.url}/dm-2026/screen/")
    expect(screen.locator(".reveal-name")).to_be_visible()
    problems += audit(screen)
    shot(screen, "reveal-audited")
    # The championship's big screen: the running competition under its bar, then (its clock
    # stopped) the programme.
    screen.goto(f"{live_server.url}/dm-program/screen/")
    expect(screen.locator("#stage-live")).to_have_attribute("data-showing", "dm-live")
    problems += audit(screen)
    Competition.objects.filter(pk=c.pk).update(stopped_at=timezone.now())
    screen.goto(f"{live_server.url}/dm-program/screen/")
    expect(screen.locator("[data-stage-programme]")).to_be_visible()
    problems += audit(screen)
    assert problems == [], "\n".join(problems)


def test_screen_switched_to_the_standings_turns_its_pages(
    context, browser, live_server, admin_user, competition
):
    """Loaded on an announcement, then switched to the standings: the pages turn."""
    from competition.services import screen_set

    for i in range(1, 41):
        TeamFactory(competition=competition, name=f"Hold {i:02d}", table=i)
    screen_set(competition=competition, by=admin_user, mode="message", message="Velkommen")
    screen = context(browser, live_server, viewport=SCREEN).new_page()
    screen.goto(f"{live_server.url}/dm-2026/screen/")
    expect(screen.locator("[data-screen-message]")).to_have_text("Velkommen")
    screen_set(competition=competition, by=admin_user, mode="standings")
    expect(screen.locator("[data-pager-info]")).to_contain_text("Side 1 af", timeout=3000)
    expect(screen.locator("[data-pager-info]")).to_contain_text("Side 2 af", timeout=12000)
