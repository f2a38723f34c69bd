"""The Content-Security-Policy in a real browser: Chromium refuses nothing on the pages
(no inline script or style, nothing injected by htmx, the API docs' Swagger UI included)
and the pages still work (the leaderboard's live part, the judge's cards)."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from judging.models import Count, Finish, Objection

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def world(competition, teams, start_clock):
    start_clock(competition, ago=timedelta(minutes=45))
    puzzle = competition.puzzles.get(position=1)
    finish = Finish.objects.create(team=teams[0], puzzle=puzzle, elapsed_seconds=1500)
    Count.objects.create(team=teams[1], puzzle=puzzle, pieces=240)
    Objection.objects.create(team=teams[0], finish=finish, text="for sent")
    competition.refresh_from_db()
    competition.bump_standings()
    return competition


def test_no_page_breaks_the_policy(page, live_server, login, world, teams, judge, admin_user):
    refused = []
    page.on(
        "console",
        lambda msg: (
            refused.append(f"{page.url}: {msg.text}")
            if "Content Security Policy" in msg.text
            else None
        ),
    )
    s = world.slug
    base = live_server.url
    for path in (f"/{s}/", f"/{s}/screen/", f"/{s}/teams/{teams[0].pk}/", "/api/docs/"):
        page.goto(base + path)
        page.wait_for_load_state("networkidle")
    expect(page.locator("#swagger-ui .info")).to_be_visible()
    page.goto(f"{base}/{s}/")
    expect(page.locator(".chart-legend .swatch.s0")).to_be_visible()
    expect(page.locator(".bars .b.k rect")).to_have_count(1)

    login(page.context, judge)
    page.goto(f"{base}/judge/{s}/")
    page.wait_for_load_state("networkidle")
    expect(page.locator("body")).to_contain_text(teams[0].name)

    superuser = get_user_model().objects.create_superuser("chef", password="x")
    login(page.context, admin_user)
    for path in (f"/control/{s}/", f"/control/{s}/logins/", f"/desk/{s}/official/"):
        page.goto(base + path)
        page.wait_for_load_state("networkidle")
    login(page.context, superuser)
    for path in (
        "/admin/",
        "/admin/competition/team/",
        f"/admin/competition/team/{teams[0].pk}/change/",
    ):
        page.goto(base + path)
        page.wait_for_load_state("networkidle")
    assert refused == []


# The sheets to print, with the role that opens them. Every button whose text is "Print"
# ("Udskriv") on them is pressed (two did nothing, refused by the policy).
PRINT_PAGES = [
    ("desk", "/desk/{s}/cards/"),
    ("desk", "/desk/{s}/missing/"),
    ("admin", "/desk/{s}/official/"),
    ("admin", "/control/{s}/join/"),
    ("admin", "/control/{s}/judges/slips/"),
    ("judge", "/judge/{s}/sheets/"),
]


def test_every_print_button_prints_and_the_policy_refuses_nothing(
    page, live_server, login, world, teams, judge, desk, admin_user
):
    refused = []
    page.on(
        "console",
        lambda msg: (
            refused.append(f"{page.url}: {msg.text}")
            if "Content Security Policy" in msg.text or "Content-Security-Policy" in msg.text
            else None
        ),
    )
    # window.print() counted instead of opening the print dialog; a policy violation
    # (an inline onclick) is recorded as the page sees it too.
    page.add_init_script(
        "window.__printed = 0; window.print = () => { window.__printed += 1; };"
        "document.addEventListener('securitypolicyviolation', (e) =>"
        " console.error('Content Security Policy: ' + e.violatedDirective));"
    )
    users = {"desk": desk, "admin": admin_user, "judge": judge}
    pressed = 0
    for role, path in PRINT_PAGES:
        login(page.context, users[role])
        page.goto(live_server.url + path.format(s=world.slug))
        buttons = page.get_by_role("button", name="Udskriv", exact=True)
        expect(buttons.first).to_be_visible()
        for index in range(buttons.count()):
            before = page.evaluate("window.__printed")
            buttons.nth(index).click()
            page.wait_for_function(f"() => window.__printed > {before}")
            pressed += 1
    assert pressed >= len(PRINT_PAGES)
    assert refused == []


def test_the_judges_page_makes_a_login_and_its_slip_at_tablet_size(
    page, live_server, login, world, admin_user, shot
):
    """The head judge's judges page on a tablet (768×1024): a login made, its slip shown."""
    page.set_viewport_size({"width": 768, "height": 1024})
    login(page.context, admin_user)
    page.goto(f"{live_server.url}/control/{world.slug}/judges/")
    page.get_by_label("Brugernavn").fill("dommer-anne")
    page.get_by_role("button", name="Opret login og seddel").click()
    expect(page.locator(".slip-user")).to_have_text("dommer-anne")
    expect(page.locator(".slip-password")).to_have_text(
        __import__("re").compile(r"^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$")
    )
    expect(page.locator(".slip-qr svg")).to_be_visible()
    shot(page, "slip")
    page.goto(f"{live_server.url}/control/{world.slug}/judges/")
    expect(page.get_by_role("cell", name="dommer-anne")).to_be_visible()
    shot(page, "judges")
    box = page.evaluate("document.documentElement.scrollWidth")
    assert box <= 768  # nothing runs off the tablet sideways
