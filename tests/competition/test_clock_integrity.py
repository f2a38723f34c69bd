"""The clock never moves under a registered record (R4, R10).

- A stop before a registered finish is refused `finishes_after_stop`, naming the teams.
- A start in the future, or so far back that the clock would already have ended, is a 400.
- `clock/correct` moves the start of a running clock while nothing is registered
  (`has_finishes` otherwise); docs/day.md: "they correct the start to 10:00:00".
Every refusal writes nothing (the `state` snapshot).
"""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from competition.models import AuditEntry, Competition
from competition.services import clock_correct, clock_start, clock_stop
from judging.services import count_record, finish_register

pytestmark = pytest.mark.django_db

BASE = "/api/v1/competitions/dm-2026"


def version(competition) -> int:
    return Competition.objects.get(pk=competition.pk).standings_version


# --- a stop before a registered finish -----------------------------------------------------


def test_a_stop_before_a_registered_finish_is_refused_naming_the_teams(
    competition, teams, judge, admin_user, start_clock, refused
):
    running = start_clock(competition, ago=timedelta(hours=2, minutes=30))
    finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=7200)
    finish_register(team=teams[2], position=1, by=judge, elapsed_seconds=7000)
    finish_register(team=teams[1], position=1, by=judge, elapsed_seconds=3000)
    early = running.started_at + timedelta(seconds=6000)
    error = refused(
        "finishes_after_stop", clock_stop, competition=running, by=admin_user, stopped_at=early
    )
    assert error.extra["teams"] == [
        {"id": teams[0].pk, "name": "Hold 1", "table": 1},
        {"id": teams[2].pk, "name": "Hold 3", "table": 3},
    ]
    assert "Hold 1 (bord 1)" in str(error.message)
    assert "Hold 3 (bord 3)" in str(error.message)
    assert "Hold 2" not in str(error.message)
    assert "1:40:00" in str(error.message)


def test_a_stop_at_the_second_of_the_latest_finish_is_accepted(
    competition, teams, judge, admin_user, start_clock
):
    """The same bound as a finish (`after_end`: a time after the end): a finish at the end's
    second is within it."""
    running = start_clock(competition, ago=timedelta(hours=2, minutes=30))
    finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=7200)
    stopped = clock_stop(
        competition=running, by=admin_user, stopped_at=running.started_at + timedelta(hours=2)
    )
    assert stopped.status == "stopped"
    assert stopped.clock_end == running.started_at + timedelta(hours=2)


def test_a_stop_before_a_registered_finish_is_refused_through_the_api(
    competition, teams, judge, admin_user, start_clock, api_as, state
):
    running = start_clock(competition, ago=timedelta(hours=2, minutes=30))
    finish_register(team=teams[1], position=1, by=judge, elapsed_seconds=7200)
    before = state()
    early = running.started_at + timedelta(hours=1)
    response = api_as(admin_user).post(
        f"{BASE}/clock/stop", {"stopped_at": early.isoformat()}, format="json"
    )
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "finishes_after_stop"
    assert body["teams"] == [{"id": teams[1].pk, "name": "Hold 2", "table": 2}]
    assert "Hold 2" in body["detail"]
    assert state() == before


# --- a start in the future or past the duration ------------------------------------------


def test_a_start_so_far_back_the_clock_has_ended_is_invalid(
    competition, teams, admin_user, invalid
):
    """A typo of a day (yesterday 10:00:30 instead of today): the competition would be over."""
    yesterday = timezone.now() - timedelta(days=1, seconds=30)
    error = invalid(
        "started_at", clock_start, competition=competition, by=admin_user, started_at=yesterday
    )
    assert "180 minutter" in error.message_dict["started_at"][0]
    exactly_over = timezone.now() - timedelta(hours=3)
    invalid(
        "started_at", clock_start, competition=competition, by=admin_user, started_at=exactly_over
    )
    almost = timezone.now() - timedelta(hours=2, minutes=59)
    assert clock_start(competition=competition, by=admin_user, started_at=almost).is_running()


@pytest.mark.parametrize("shift", [timedelta(minutes=5), -timedelta(days=1)])
def test_a_start_in_the_future_or_past_the_duration_is_invalid_through_the_api(
    competition, teams, admin_user, api_as, state, shift
):
    before = state()
    response = api_as(admin_user).post(
        f"{BASE}/clock/start", {"started_at": (timezone.now() + shift).isoformat()}, format="json"
    )
    assert response.status_code == 400
    assert "started_at" in response.json()
    assert state() == before


# --- clock/correct ---------------------------------------------------------------------------


def test_correct_the_start_as_on_the_day(competition, teams, admin_user, state):
    """docs/day.md: started 30 seconds late at 10:00:30; the head judge corrects it to 10:00:00."""
    started = clock_start(competition=competition, by=admin_user)
    really = started.started_at - timedelta(seconds=30)
    v, n = version(competition), AuditEntry.objects.count()
    corrected = clock_correct(competition=started, by=admin_user, started_at=really)
    assert corrected.started_at == really
    assert corrected.ends_at == really + timedelta(hours=3)
    assert corrected.is_running()
    assert version(competition) == v + 1
    assert AuditEntry.objects.count() == n + 1
    entry = AuditEntry.objects.order_by("-pk").first()
    assert (entry.action, entry.user) == ("clock_correct", admin_user)
    ms = timedelta(milliseconds=1)  # the audit log keeps milliseconds
    assert abs(parse_datetime(entry.before["started_at"]) - started.started_at) < ms
    assert abs(parse_datetime(entry.after["started_at"]) - really) < ms
    # The same correction again changes nothing and writes nothing.
    before = state()
    clock_correct(competition=corrected, by=admin_user, started_at=really)
    assert state() == before


def test_correct_refused_once_a_finish_or_count_exists(
    competition, teams, judge, admin_user, start_clock, refused
):
    running = start_clock(competition, ago=timedelta(minutes=50))
    earlier = running.started_at - timedelta(minutes=1)
    finish = finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=2400)
    refused("has_finishes", clock_correct, competition=running, by=admin_user, started_at=earlier)
    finish.delete()  # nothing registered any more: the start may move again
    assert clock_correct(competition=running, by=admin_user, started_at=earlier).started_at == (
        earlier
    )


def test_correct_refused_when_the_clock_is_not_running(
    competition, teams, judge, admin_user, start_clock, refused
):
    moment = timezone.now() - timedelta(minutes=5)
    refused(
        "clock_not_started",
        clock_correct,
        competition=competition,
        by=admin_user,
        started_at=moment,
    )
    ended = start_clock(competition, ago=timedelta(hours=4))
    refused("clock_stopped", clock_correct, competition=ended, by=admin_user, started_at=moment)
    count_record(team=teams[0], by=judge, pieces=100)
    Competition.objects.filter(pk=ended.pk).update(finalised_at=timezone.now())
    refused("final", clock_correct, competition=ended, by=admin_user, started_at=moment)


def test_correct_to_a_future_or_over_start_is_invalid(
    competition, teams, admin_user, start_clock, invalid
):
    running = start_clock(competition, ago=timedelta(minutes=10))
    for started_at in (timezone.now() + timedelta(seconds=30), timezone.now() - timedelta(hours=3)):
        invalid(
            "started_at", clock_correct, competition=running, by=admin_user, started_at=started_at
        )


def test_correct_through_the_api(competition, teams, judge, admin_user, start_clock, api_as, state):
    running = start_clock(competition, ago=timedelta(seconds=30))
    client = api_as(admin_user)
    really = running.started_at - timedelta(seconds=30)
    response = client.post(f"{BASE}/clock/correct", {"started_at": really.isoformat()}, "json")
    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "running"
    assert response.json()["clock"]["elapsed_seconds"] >= 60
    assert Competition.objects.get(pk=competition.pk).started_at == really
    before = state()
    assert client.post(f"{BASE}/clock/correct", {}, "json").status_code == 400
    late = {"started_at": (timezone.now() - timedelta(days=1)).isoformat()}
    assert client.post(f"{BASE}/clock/correct", late, "json").status_code == 400
    assert state() == before
    finish_register(team=teams[0], position=1, by=judge)
    before = state()
    response = client.post(f"{BASE}/clock/correct", {"started_at": really.isoformat()}, "json")
    assert (response.status_code, response.json()["code"]) == (409, "has_finishes")
    assert state() == before
    for user in (judge, None):
        assert api_as(user).post(f"{BASE}/clock/correct", {}, "json").status_code in (401, 403)


# --- the control room ------------------------------------------------------------------------


def test_the_control_room_corrects_the_start(
    client, competition, teams, judge, admin_user, start_clock, state
):
    client.force_login(admin_user)
    room = reverse("control:room", args=["dm-2026"])
    assert "Ret starttidspunkt" not in client.get(room).content.decode()  # not started
    running = start_clock(competition, ago=timedelta(seconds=30))
    page = client.get(room).content.decode()
    assert "Ret starttidspunkt" in page
    local = timezone.localtime(running.started_at)
    really = local.replace(microsecond=0) - timedelta(seconds=30)
    url = reverse("control:clock_correct", args=["dm-2026"])
    response = client.post(url, {"started_at": really.strftime("%Y-%m-%dT%H:%M:%S")}, follow=True)
    assert Competition.objects.get(pk=competition.pk).started_at == really
    assert f"Starttidspunktet er rettet til {really:%H:%M:%S}" in response.content.decode()

    finish_register(team=teams[0], position=1, by=judge)
    assert "Ret starttidspunkt" not in client.get(room).content.decode()
    before = state()
    response = client.post(url, {"started_at": really.strftime("%Y-%m-%dT%H:%M:%S")}, follow=True)
    assert "allerede registreret" in response.content.decode()
    assert state() == before
    response = client.post(url, {"started_at": "i går"}, follow=True)
    assert response.status_code == 200
    assert state() == before


def test_the_control_room_says_why_a_start_of_yesterday_is_refused(
    client, competition, teams, admin_user, state
):
    client.force_login(admin_user)
    yesterday = timezone.localtime(timezone.now() - timedelta(days=1))
    before = state()
    response = client.post(
        reverse("control:clock_start", args=["dm-2026"]),
        {"started_at": yesterday.strftime("%Y-%m-%dT%H:%M:%S"), "correct": "1"},
        follow=True,
    )
    assert "allerede være gået" in response.content.decode()
    assert state() == before


def test_the_schema_describes_the_correction_and_the_refusals(api):
    paths = api.get("/api/schema/", {"format": "json"}).json()["paths"]
    correct = paths["/api/v1/competitions/{slug}/clock/correct"]["post"]
    assert {"200", "400", "409"} <= set(correct["responses"])
    assert "has_finishes" in correct["description"]
    stop = paths["/api/v1/competitions/{slug}/clock/stop"]["post"]
    assert "finishes_after_stop" in stop["description"]
