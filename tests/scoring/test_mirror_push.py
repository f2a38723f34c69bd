"""The hall's pusher (scoring/mirror_push.py), the HTTP side faked at the transport and the
clock a number the test moves: coalescing, backoff while the mirror is down, the newest
snapshot after it is back; and no personal value in any body it pushes."""

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from competition.models import Competition, Team
from judging.models import Finish
from scoring.mirror_push import Pusher
from tests.factories import CompetitionFactory
from tests.project.test_privacy import PERSONAL, build_world, leaks

pytestmark = pytest.mark.django_db


class Line:
    """The mirror as the pusher's transport sees it: up (200), down (refused), or an answer."""

    def __init__(self):
        self.bodies: list[dict] = []  # the snapshots pushed
        self.held: list[list[int]] = []  # the competitions the hall said it holds
        self.tries = 0  # of a push
        self.down = False
        self.status = 200
        self.held_status = 200

    def __call__(self, url, body, headers, timeout):
        assert headers["Authorization"] == "Mirror tok"
        if url == "http://mirror.test/api/v1/mirror/held":
            if self.down:
                raise ConnectionRefusedError("Connection refused")
            self.held.append(json.loads(body)["competitions"])
            return self.held_status
        self.tries += 1
        assert url == "http://mirror.test/api/v1/mirror/push"
        if self.down:
            raise ConnectionRefusedError("Connection refused")
        self.bodies.append(json.loads(body))
        return self.status


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


@pytest.fixture
def line():
    return Line()


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def pusher(line, clock):
    return Pusher("http://mirror.test/", "tok", post=line, clock=clock, keepalive=10)


@pytest.fixture
def running(competition, teams):
    Competition.objects.filter(pk=competition.pk).update(
        started_at=timezone.now() - timedelta(minutes=30)
    )
    competition.refresh_from_db()
    return competition


def _finish(competition, team, position, seconds):
    Finish.objects.create(
        team=team, puzzle=competition.puzzles.get(position=position), elapsed_seconds=seconds
    )
    competition.bump_standings()


def test_several_changes_between_two_rounds_are_one_push_of_the_newest(
    pusher, line, clock, running, teams
):
    pusher.tick()
    assert [b["version"] for b in line.bodies] == [0]
    for team, seconds in zip(teams, (1200, 1300, 1400), strict=True):
        _finish(running, team, 1, seconds)  # three judges' posts within one second
    clock.now += 1
    pusher.tick()
    assert [b["version"] for b in line.bodies] == [0, 3]
    assert sum(len(t["finishes"]) for t in line.bodies[-1]["teams"]) == 3
    clock.now += 1
    pusher.tick()  # nothing changed: nothing pushed
    assert len(line.bodies) == 2
    clock.now += 10
    pusher.tick()  # unchanged for the keepalive: pushed again, so the mirror hears the hall
    assert [b["version"] for b in line.bodies] == [0, 3, 3]


def test_while_the_mirror_is_down_it_backs_off_then_pushes_the_newest(
    pusher, line, clock, running, teams
):
    line.down = True
    waits = []
    for _ in range(8):
        pusher.tick()
        waits.append(pusher.next_try - clock.now)
        tries = line.tries
        clock.now = pusher.next_try - 0.5
        pusher.tick()  # before the wait is over: no try
        assert line.tries == tries
        clock.now = pusher.next_try
    assert waits == [1, 2, 4, 8, 16, 30, 30, 30]
    _finish(running, teams[0], 1, 1500)
    _finish(running, teams[1], 1, 1600)
    line.down = False
    pusher.tick()
    assert [b["version"] for b in line.bodies] == [2]
    assert pusher.failures == 0
    clock.now += 1
    line.down = True
    pusher.tick()  # nothing changed since: no try, so no failure
    assert pusher.failures == 0


def test_a_refused_push_is_retried_and_an_older_version_is_not(pusher, line, clock, running, teams):
    line.status = 503  # the mirror's proxy, the app not up
    pusher.tick()
    assert pusher.failures == 1
    clock.now = pusher.next_try
    line.status = 409  # the mirror holds a newer one: no point in repeating this one
    pusher.tick()
    assert pusher.failures == 0
    clock.now += 1
    pusher.tick()
    assert line.tries == 2


def test_the_mirror_is_told_which_competitions_the_hall_holds(pusher, line, clock, competition):
    """When one is deleted (made by mistake, before its start) the next round says so, before
    any push; unchanged, it is said again only with the keepalive."""
    stray = CompetitionFactory(slug="fejl-heat")
    pusher.tick()
    assert line.held == [[competition.pk, stray.pk]]
    assert {b["competition"]["slug"] for b in line.bodies} == {"dm-2026", "fejl-heat"}
    clock.now += 1
    pusher.tick()
    assert len(line.held) == 1  # nothing changed
    stray.delete()
    clock.now += 1
    pusher.tick()
    assert line.held[-1] == [competition.pk]
    clock.now += 10
    pusher.tick()
    assert line.held[-1] == [competition.pk] and len(line.held) == 3


def test_the_held_list_never_stops_the_results(pusher, line, clock, competition):
    """Down: backed off as a push is. A mirror that answers it with an error (its bug) or
    does not know it (an older app, 404) still gets the pushes; it is said again with the
    keepalive, not every second."""
    line.down = True
    pusher.tick()
    assert line.tries == 0 and pusher.failures == 1  # no push into a line that is down
    clock.now = pusher.next_try
    line.down = False
    line.held_status = 500
    pusher.tick()
    assert pusher.failures == 0
    assert [b["competition"]["slug"] for b in line.bodies] == ["dm-2026"]
    clock.now += 1
    pusher.tick()
    assert len(line.held) == 1
    clock.now += 10
    line.held_status = 404
    pusher.tick()
    assert len(line.held) == 2 and pusher.failures == 0


def test_no_personal_value_in_any_pushed_body(line, clock):
    """The privacy test's seeded competition (members, a minor and the adult, the contact's
    name, e-mail and phone, notes), plus a warning's and an objection's text and a
    disqualification's reason: every body the pusher sends, through a whole day's states."""
    competition, team, other, _users = build_world()
    pusher = Pusher("http://mirror.test", "tok", post=line, clock=clock)
    pusher.tick()
    Team.objects.filter(pk=other.pk).update(
        disqualified=True, disqualified_reason="Quarrelquist snød"
    )
    competition.bump_standings()
    clock.now += 1
    pusher.tick()
    Competition.objects.filter(pk=competition.pk).update(
        second_count=True, finalised_at=timezone.now()
    )
    competition.bump_standings()
    clock.now += 1
    pusher.tick()
    assert len(line.bodies) == 3
    assert any(t["name"] == "Hemmelighedsholdet" for t in line.bodies[0]["teams"])
    for body in line.bodies:
        raw = json.dumps(body, ensure_ascii=False).encode()
        assert leaks(raw) == [], [PERSONAL[f] for f in leaks(raw)]
        for private in ("Larm ved bordet", "Tiden er forkert", "Quarrelquist"):
            assert private not in raw.decode()


def test_make_hall_starts_the_pusher_only_with_a_mirror(monkeypatch, tmp_path):
    import os
    import subprocess

    from config import hall

    started = []
    monkeypatch.setattr(subprocess, "Popen", lambda args, **kw: started.append(args) or "proc")
    assert hall.start_pusher({"MIRROR_TOKEN": "t"}, tmp_path / "m.log") is None
    assert hall.start_pusher({"MIRROR_URL": "https://m", "MIRROR_TOKEN": "t"}, tmp_path / "m.log")
    assert started[0][2:] == ["mirror_push", "--parent", str(os.getpid())]
    assert (tmp_path / "m.log").stat().st_mode & 0o077 == 0  # its log is the owner's alone


def test_the_pusher_ends_with_the_hall(settings, monkeypatch):
    import os

    from django.core.management import CommandError, call_command

    monkeypatch.setattr(os, "nice", lambda n: n)  # not the test process's own priority

    settings.MIRROR_URL, settings.MIRROR_TOKEN = "", ""
    with pytest.raises(CommandError):
        call_command("mirror_push")
    settings.MIRROR_URL, settings.MIRROR_TOKEN = "http://127.0.0.1:9", "t"
    call_command("mirror_push", "--parent", "1")  # not this process's parent: ends at once


def test_the_pusher_gives_way_to_the_judges(settings, monkeypatch):
    """The pusher runs at a lower priority than the hall's workers: its snapshots never take
    the cores from a judge's request (make bench: the judges' p99 with a dead mirror)."""
    import os

    from django.core.management import call_command

    niced = []
    monkeypatch.setattr(os, "nice", lambda n: niced.append(n) or n)
    settings.MIRROR_URL, settings.MIRROR_TOKEN = "http://127.0.0.1:9", "t"
    call_command("mirror_push", "--parent", "1")
    assert niced == [10]
