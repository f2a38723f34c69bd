"""One clock (competition/clock.py): the value every page's script and the API read.

The pages carry the same JSON (`Clock.page()`) in their `data-clock` attribute or the
tablet's config, and the API's `clock` object keeps its documented fields."""

import html
import json
import re
from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse

from competition.clock import Clock, Status
from competition.models import Competition

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 14, 10, 0, tzinfo=UTC)
SHAPE = {"status", "started_at_ms", "end_ms", "duration_s"}


def _clock(**fields) -> Clock:
    values = {"started_at": None, "stopped_at": None, "finalised_at": None, "duration_minutes": 180}
    values.update(fields.pop("competition", {}))
    return Clock.of(Competition(**values), fields.pop("now"))


def test_before_the_start_nothing_has_gone_and_the_whole_duration_is_left():
    clock = _clock(now=T0)
    assert clock.status == Status.SETUP and clock.end is None and not clock.has_ended
    assert (clock.elapsed_seconds, clock.remaining_seconds) == (0, 180 * 60)
    assert clock.page() == {
        "status": "setup",
        "started_at_ms": None,
        "end_ms": None,
        "duration_s": 10800,
    }


def test_running_counts_from_the_start_and_ends_at_start_plus_duration():
    clock = _clock(competition={"started_at": T0}, now=T0 + timedelta(minutes=90, seconds=5))
    assert clock.status == Status.RUNNING
    assert clock.ends_at == clock.end == T0 + timedelta(hours=3)
    assert (clock.elapsed_seconds, clock.remaining_seconds) == (5405, 5395)
    assert clock.page()["started_at_ms"] == int(T0.timestamp() * 1000)
    assert clock.page()["end_ms"] == int((T0 + timedelta(hours=3)).timestamp() * 1000)


def test_an_early_stop_is_the_end_and_the_planned_end_stays():
    stop = T0 + timedelta(hours=2)
    clock = _clock(competition={"started_at": T0, "stopped_at": stop}, now=T0 + timedelta(hours=5))
    assert clock.status == Status.STOPPED and clock.has_ended
    assert clock.end == stop and clock.ends_at == T0 + timedelta(hours=3)
    assert (clock.elapsed_seconds, clock.remaining_seconds) == (7200, 0)
    assert clock.api() == {
        "started_at": T0,
        "ends_at": T0 + timedelta(hours=3),
        "stopped_at": stop,
        "elapsed_seconds": 7200,
        "remaining_seconds": 0,
    }


def test_finalised_is_final_whatever_the_time():
    clock = _clock(competition={"started_at": T0, "finalised_at": T0}, now=T0 + timedelta(hours=5))
    assert clock.status == Status.FINAL and clock.page()["status"] == "final"


def test_the_model_reads_the_value_object(competition, start_clock):
    running = start_clock(competition, ago=timedelta(minutes=30))
    clock = running.clock()
    assert running.clock_end == clock.end and running.ends_at == clock.ends_at
    assert running.status == clock.status == Status.RUNNING
    assert running.elapsed_seconds(clock.now) == clock.elapsed_seconds


def _data_clock(page: str, element: str) -> dict:
    tag = re.search(rf"<[^>]*{element}[^>]*>", page)
    assert tag, element
    raw = re.search(r'data-clock="([^"]*)"', tag.group(0))
    assert raw, f"no data-clock on {tag.group(0)}"
    return json.loads(html.unescape(raw.group(1)))


def test_every_page_carries_the_same_clock(client, competition, teams, start_clock, make_user):
    running = start_clock(competition, ago=timedelta(minutes=30))
    expected = running.clock().page()
    assert set(expected) == SHAPE

    public = client.get(reverse("public:leaderboard", args=[running.slug])).content.decode()
    screen = client.get(reverse("public:screen", args=[running.slug])).content.decode()
    client.force_login(make_user("admin", "chief"))
    room = client.get(reverse("control:room", args=[running.slug])).content.decode()
    client.force_login(make_user("judge", "mette2"))
    board = client.get(reverse("judge:board", args=[running.slug])).content.decode()
    config = re.search(r'<script id="judge-config" type="application/json">(.*?)</script>', board)
    assert config

    shown = {
        "leaderboard": _data_clock(public, 'class="clock'),
        "screen": _data_clock(screen, 'class="clock'),
        "control room": _data_clock(room, 'id="clock"'),
        "tablet cards": _data_clock(board, 'id="cards"'),
        "tablet config": json.loads(config.group(1))["clock"],
    }
    assert shown == dict.fromkeys(shown, expected)
