"""The judges' tablets report their health (docs/offline.md "Heartbeat"), the
control room lists them, and finalise refuses `taps_waiting` until the tablet reports an
empty outbox, unless the head judge overrides with a reason (audited)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from competition.models import AuditEntry
from judging.models import Tablet
from judging.selectors import tablet_light

pytestmark = pytest.mark.django_db


def test_a_heartbeat_keeps_the_tablets_latest_report_without_an_audit_entry(
    heartbeat, competition, judge
):
    answer = heartbeat(
        competition,
        waiting=2,
        oldest_waiting_seconds=40,
        clock_offset_ms=-1250,
        clock_rtt_ms=80,
        version="0.1.0",
    )
    assert answer.status_code == 204
    assert heartbeat(competition, waiting=3, oldest_waiting_seconds=55).status_code == 204

    tablet = Tablet.objects.get()  # one row per device: the latest report
    assert tablet.user == judge
    assert tablet.tables == [1, 2]
    assert (tablet.waiting, tablet.oldest_waiting_seconds) == (3, 55)
    assert tablet.waiting_since is not None
    assert AuditEntry.objects.count() == 0

    assert heartbeat(competition, waiting=0).status_code == 204
    tablet.refresh_from_db()
    assert (tablet.waiting, tablet.oldest_waiting_seconds, tablet.waiting_since) == (0, None, None)


@pytest.mark.parametrize(
    "body",
    [
        {"device_id": "short", "waiting": 0},
        {"device_id": "tablet-mette-01", "waiting": -1},
        {"device_id": "tablet-mette-01", "waiting": "²"},
        {"device_id": "tablet-mette-01"},
        {"device_id": "tablet-mette-01", "waiting": 0, "tables": ["x"]},
        {"device_id": "tablet-mette-01", "waiting": 0, "tables": [0]},
        {"device_id": "<script>alert(1)</script>", "waiting": 0},
        {"device_id": "tablet-mette-01", "waiting": 0, "clock_rtt_ms": 10**12},
    ],
)
def test_a_heartbeat_that_could_never_be_right_answers_400_and_stores_nothing(
    api_as, judge, competition, body
):
    url = f"/api/v1/competitions/{competition.slug}/tablets/heartbeat"
    assert api_as(judge).post(url, body, format="json").status_code == 400
    assert not Tablet.objects.exists()


def test_only_judges_report_and_an_unknown_competition_is_404(heartbeat, competition, desk):
    assert heartbeat(competition, user=desk).status_code == 403
    competition.slug = "no-such-thing"
    assert heartbeat(competition).status_code == 404
    assert not Tablet.objects.exists()


@pytest.mark.parametrize(
    ("waiting", "silent", "light"),
    [
        (0, 0, "green"),
        (0, 59, "green"),
        (0, 60, "amber"),  # not heard from for a minute
        (0, 3600, "amber"),  # put away with nothing waiting: never red
        (1, 0, "amber"),  # taps waiting
        (3, 299, "amber"),
        (3, 300, "red"),  # five minutes without a word, with taps waiting
    ],
)
def test_tablet_light(waiting, silent, light):
    assert tablet_light(waiting=waiting, silent_seconds=silent) == light


def test_the_control_room_lists_the_tablets_red_amber_green(
    client, admin_user, heartbeat, competition
):
    heartbeat(competition, device="tablet-green-01", waiting=0)
    heartbeat(competition, device="tablet-amber-01", waiting=2, oldest_waiting_seconds=30)
    heartbeat(competition, device="tablet-red-0001", waiting=4)
    heartbeat(competition, device="tablet-quiet-01", waiting=0)
    long_ago = timezone.now() - timedelta(minutes=6)
    Tablet.objects.filter(device_id__in=["tablet-red-0001", "tablet-quiet-01"]).update(
        last_seen_at=long_ago
    )
    client.force_login(admin_user)

    html = client.get(f"/control/{competition.slug}/").content.decode()
    assert 'id="tablets-panel"' in html
    fragment = client.get(f"/control/{competition.slug}/hall/").content.decode()
    rows = {
        device: fragment.split(f'data-device="{device}"')[0].rsplit("<tr", 1)[1]
        for device in ("tablet-green-01", "tablet-amber-01", "tablet-red-0001", "tablet-quiet-01")
    }
    assert "tablet-green" in rows["tablet-green-01"]
    assert "tablet-amber" in rows["tablet-amber-01"]
    assert "tablet-amber" in rows["tablet-quiet-01"]
    assert "tablet-red" in rows["tablet-red-0001"]
    order = [fragment.index(f'data-device="{d}"') for d in ("tablet-red-0001", "tablet-amber-01")]
    assert order == sorted(order)  # red first
    assert fragment.index('data-device="tablet-quiet-01"') < fragment.index(
        'data-device="tablet-green-01"'
    )


# --- finalise: taps_waiting ------------------------------------------------------------------
def _finalise(api_as, admin_user, competition, **body):
    return api_as(admin_user).post(
        f"/api/v1/competitions/{competition.slug}/finalise", body, format="json"
    )


def test_finalise_answers_taps_waiting_naming_the_tablet_until_it_reports_zero(
    api_as, admin_user, heartbeat, counted, judge
):
    heartbeat(counted, device="tablet-mette-01", waiting=2, oldest_waiting_seconds=90)
    heartbeat(counted, device="tablet-other-01", waiting=0)
    audit_before = AuditEntry.objects.count()

    refused = _finalise(api_as, admin_user, counted)
    assert refused.status_code == 409
    body = refused.json()
    assert body["code"] == "taps_waiting"
    assert [t["device_id"] for t in body["tablets"]] == ["tablet-mette-01"]
    assert body["tablets"][0]["user"] == judge.username
    assert body["tablets"][0]["waiting"] == 2
    assert judge.username in body["detail"]
    counted.refresh_from_db()
    assert counted.finalised_at is None
    assert AuditEntry.objects.count() == audit_before  # a refusal writes nothing

    heartbeat(counted, device="tablet-other-01", waiting=0)  # another tablet's 0 is not enough
    assert _finalise(api_as, admin_user, counted).json()["code"] == "taps_waiting"

    heartbeat(counted, device="tablet-mette-01", waiting=0)  # its outbox is empty now
    answer = _finalise(api_as, admin_user, counted)
    assert answer.status_code == 200, answer.json()
    assert answer.json()["status"] == "final"


def test_finalise_override_needs_a_reason_and_is_audited(api_as, admin_user, heartbeat, counted):
    heartbeat(counted, device="tablet-dead-001", waiting=3)

    no_reason = _finalise(api_as, admin_user, counted, override=True, reason="  ")
    assert no_reason.status_code == 400
    assert "reason" in no_reason.json()
    counted.refresh_from_db()
    assert counted.finalised_at is None

    answer = _finalise(
        api_as, admin_user, counted, override=True, reason="The tablet fell; paper sheet used"
    )
    assert answer.status_code == 200
    entry = AuditEntry.objects.get(action="competition_finalise")
    assert entry.reason == "The tablet fell; paper sheet used"
    assert entry.user == admin_user
    assert [t["device_id"] for t in entry.after["taps_waiting_overridden"]] == ["tablet-dead-001"]


def test_an_override_does_not_pass_the_other_refusals(
    api_as, admin_user, heartbeat, competition, teams, start_clock
):
    start_clock(competition, ago=timedelta(hours=4))  # time is up, but nobody is counted
    heartbeat(competition, waiting=1)
    answer = _finalise(api_as, admin_user, competition, override=True, reason="tablet lost")
    assert answer.status_code == 409
    assert answer.json()["code"] == "counts_missing"


def test_the_finalise_page_offers_the_override_with_a_reason(
    client, admin_user, heartbeat, counted, judge
):
    heartbeat(counted, device="tablet-dead-001", waiting=3)
    client.force_login(admin_user)
    page = client.get(f"/control/{counted.slug}/finalise/").content.decode()
    assert f"{judge.username}: 3" in page  # whose tablet, how many taps
    assert 'name="override"' in page
    assert 'name="reason"' in page

    url = f"/control/{counted.slug}/finalise/"
    client.post(url, {"confirm": "yes"})  # without the override: refused, not final
    counted.refresh_from_db()
    assert counted.finalised_at is None

    client.post(url, {"confirm": "yes", "override": "yes", "reason": "Tablet 3 is gone"})
    counted.refresh_from_db()
    assert counted.finalised_at is not None
    assert AuditEntry.objects.get(action="competition_finalise").reason == "Tablet 3 is gone"
