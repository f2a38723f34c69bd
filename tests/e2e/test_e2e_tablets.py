"""The tablets in a browser: the judge page's heartbeat, finalise held back by a
tablet's waiting tap, and the new pages (big screen's QR, the control room's tablets, the
join sheet, the paper judge sheets) with screenshots; no request leaves the hall."""

from datetime import timedelta
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.utils import timezone
from playwright.sync_api import expect

from competition.errors import Refusal
from competition.services import clock_stop
from judging.models import Tablet
from judging.services import competition_finalise, count_record, tablet_report
from tests.e2e.test_e2e_judge_outbox import back_online
from tests.e2e.test_e2e_judge_outbox import wait_until as poll_until

pytestmark = pytest.mark.e2e

HEARTBEAT = "/tablets/heartbeat"


def wait_until(page, check, timeout=15.0):
    """The outbox tests' poll, with time for a heartbeat (every 15 s at the latest)."""
    return poll_until(page, check, timeout)


def beat(waiting=None):
    def match(request):
        if request.method != "POST" or not request.url.endswith(HEARTBEAT):
            return False
        return waiting is None or request.post_data_json["waiting"] == waiting

    return match


def only_here(page, origin):
    """Record every request the page makes; assert later that all went to `origin`."""
    seen = []
    page.on("request", lambda r: seen.append(r.url))

    def check():
        away = [u for u in seen if not u.startswith(("data:", "blob:", origin))]
        assert away == [], f"requests left the hall: {away}"
        assert seen

    return check


def test_e2e_the_judge_page_reports_its_waiting_taps_and_finalise_waits_for_them(
    page, live_server, login, judge, admin_user, running, shot
):
    login(page.context, judge)
    with page.expect_request(beat()) as first:
        page.goto(f"{live_server.url}/judge/{running.slug}/")
    report = first.value.post_data_json
    assert report["waiting"] == 0
    assert report["version"] == settings.APP_VERSION
    device = report["device_id"]
    wait_until(page, lambda: Tablet.objects.filter(device_id=device, waiting=0).exists())
    assert Tablet.objects.get().user == judge

    # The Wi-Fi drops for the finishes: the tap waits on the tablet, and it says so.
    page.route("**/finishes/", lambda route: route.abort("internetdisconnected"))
    with page.expect_request(beat(waiting=1), timeout=20000):
        page.locator('.jcard[data-table="1"] [data-action="finish"]').click()
        page.locator("#finish-save").click()
    wait_until(page, lambda: Tablet.objects.get(device_id=device).waiting == 1)
    shot(page, "tap-waiting")

    clock_stop(competition=running, by=admin_user)
    with pytest.raises(Refusal) as refused:
        competition_finalise(competition=running, by=admin_user)
    assert refused.value.code == "taps_waiting"
    assert refused.value.extra["tablets"][0]["device_id"] == device

    # Back on the Wi-Fi: the tap is sent, the tablet reports an empty outbox at once.
    with page.expect_request(beat(waiting=0), timeout=20000):
        back_online(page, "**/finishes/")
    wait_until(page, lambda: Tablet.objects.get(device_id=device).waiting == 0)
    with pytest.raises(Refusal) as refused:
        competition_finalise(competition=running, by=admin_user)
    assert refused.value.code == "counts_missing"  # the tablets no longer hold it back

    with page.expect_request(beat()) as again:  # the same tablet after a reload
        page.reload()
    assert again.value.post_data_json["device_id"] == device
    assert Tablet.objects.count() == 1


def test_e2e_the_new_pages_look_right_and_fetch_nothing_from_outside(
    browser, live_server, login, judge, admin_user, running, shot
):
    origin = live_server.url
    tablet_report(
        competition=running,
        by=judge,
        device_id="tablet-aaaa-01",
        tables=[1, 2],
        waiting=0,
        clock_offset_ms=-420,
        clock_rtt_ms=60,
        version=settings.APP_VERSION,
    )
    tablet_report(
        competition=running,
        by=judge,
        device_id="tablet-bbbb-02",
        tables=[3],
        waiting=2,
        oldest_waiting_seconds=75,
        version=settings.APP_VERSION,
    )
    tablet_report(
        competition=running,
        by=admin_user,
        device_id="tablet-cccc-03",
        tables=[],
        waiting=1,
        oldest_waiting_seconds=400,
        version="0.0.9",
    )
    Tablet.objects.filter(device_id="tablet-cccc-03").update(
        last_seen_at=timezone.now() - timedelta(minutes=7)
    )

    screen = browser.new_page(viewport={"width": 1920, "height": 1080}, locale="da-DK")
    check = only_here(screen, origin)
    screen.goto(f"{origin}/{running.slug}/screen/")
    qr = screen.locator(".screen-join img")
    expect(qr).to_be_visible()
    assert screen.evaluate("document.querySelector('.screen-join img').naturalWidth") > 0
    shot(screen, "big-screen")
    check()

    room = browser.new_page(viewport={"width": 1366, "height": 768}, locale="da-DK")
    login(room.context, admin_user)
    check = only_here(room, origin)
    room.goto(f"{origin}/control/{running.slug}/")
    panel = room.locator("#tablets-panel")
    expect(panel.locator(".tablet-red")).to_have_count(1)
    expect(panel.locator(".tablet-amber")).to_have_count(1)
    expect(panel.locator(".tablet-green")).to_have_count(1)
    expect(panel.locator(".tablets-qr svg")).to_be_visible()
    panel.scroll_into_view_if_needed()
    shot(room, "control-room-tablets")

    room.goto(f"{origin}/control/{running.slug}/teams/{running.teams.get(table=2).pk}/")
    room.locator("#paper-entry summary").click()
    shot(room, "control-team-paper-entry")
    room.fill("#paper-time", "1:02:03")
    room.locator("#paper-entry button[type=submit]").first.click()
    expect(room.locator(".messages")).to_contain_text("fra dommersedlen er registreret")
    assert running.teams.get(table=2).finishes.get().elapsed_seconds == 3723

    a4 = {"width": 794, "height": 1123}
    room.set_viewport_size(a4)
    room.emulate_media(media="print")
    room.goto(f"{origin}/control/{running.slug}/join/")
    expect(room.locator(".join-qr svg").first).to_be_visible()
    shot(room, "join-sheet-a4")
    room.goto(f"{origin}/judge/{running.slug}/sheets/?t=1")
    expect(room.locator("article.paper")).to_have_count(1)
    shot(room, "paper-judge-sheet-a4")
    room.emulate_media(media="screen")
    check()

    clock_stop(competition=running, by=admin_user)
    for team in running.teams.all():
        count_record(team=team, by=judge, pieces=0)
    room.set_viewport_size({"width": 1366, "height": 768})
    room.goto(f"{origin}/objections/{running.slug}/finalise/")
    expect(room.locator("textarea[name=reason]")).to_be_visible()
    expect(room.locator(".blockers")).to_contain_text("Registreringer venter")
    shot(room, "finalise-override")
    assert urlsplit(room.url).netloc == urlsplit(origin).netloc
