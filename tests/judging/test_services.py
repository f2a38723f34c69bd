"""The judging services: the clock, finishes, counts, warnings, disqualification."""

import hashlib
import uuid
from datetime import timedelta
from unittest import mock

import pytest
from django.test import override_settings
from django.utils import timezone

from competition.models import AuditEntry, Competition
from competition.services import clock_start, clock_stop
from judging.models import Count, Finish, RequestId
from judging.services import (
    IdempotencyConflict,
    count_correct,
    count_record,
    finish_correct,
    finish_delete,
    finish_register,
    plausibility,
    team_disqualify,
    team_reinstate,
    warning_log,
)
from tests.factories import CompetitionFactory, MemberFactory, PuzzleFactory

pytestmark = pytest.mark.django_db


def finalise(competition):
    Competition.objects.filter(pk=competition.pk).update(finalised_at=timezone.now())
    competition.refresh_from_db()


def version(competition) -> int:
    return Competition.objects.get(pk=competition.pk).standings_version


def one_write(competition, action, fn):
    """Run fn; exactly one audit entry with `action` and one version bump."""
    v, n = version(competition), AuditEntry.objects.count()
    result = fn()
    assert version(competition) == v + 1
    assert AuditEntry.objects.count() == n + 1
    entry = AuditEntry.objects.order_by("-pk").first()
    assert entry.action == action
    return result, entry


# --- the clock -------------------------------------------------------------------------


class TestClock:
    def test_start_now(self, competition, admin_user):
        before = timezone.now()
        competition, entry = one_write(
            competition, "clock_start", lambda: clock_start(competition=competition, by=admin_user)
        )
        assert competition.status == "running"
        assert before <= competition.started_at <= timezone.now()
        assert entry.user == admin_user
        assert entry.before["started_at"] is None
        assert entry.after["started_at"] is not None

    def test_start_back_dated_correction(self, competition, admin_user):
        # docs/day.md: started 30 seconds late, corrected to when it really started.
        started = timezone.now() - timedelta(seconds=30)
        competition = clock_start(competition=competition, by=admin_user, started_at=started)
        assert competition.started_at == started
        assert competition.elapsed_seconds() >= 30
        assert competition.ends_at == started + timedelta(minutes=180)

    def test_start_in_future_is_invalid(self, competition, admin_user, invalid):
        later = timezone.now() + timedelta(minutes=1)
        invalid("started_at", clock_start, competition=competition, by=admin_user, started_at=later)

    def test_start_refusals(self, competition, admin_user, refused):
        empty = CompetitionFactory()
        refused("no_puzzles", clock_start, competition=empty, by=admin_user)
        clock_start(competition=competition, by=admin_user)
        refused("already_started", clock_start, competition=competition, by=admin_user)
        finalise(empty)
        refused("final", clock_start, competition=empty, by=admin_user)

    def test_stop_early(self, running, admin_user):
        competition, entry = one_write(
            running, "clock_stop", lambda: clock_stop(competition=running, by=admin_user)
        )
        assert competition.status == "stopped"
        assert competition.stopped_at is not None
        assert competition.ends_at == competition.started_at + timedelta(hours=3)
        assert competition.clock_end == competition.stopped_at
        assert entry.before["stopped_at"] is None

    def test_stop_at_a_given_moment(self, running, admin_user, invalid):
        invalid(
            "stopped_at",
            clock_stop,
            competition=running,
            by=admin_user,
            stopped_at=running.started_at - timedelta(seconds=1),
        )
        invalid(
            "stopped_at",
            clock_stop,
            competition=running,
            by=admin_user,
            stopped_at=timezone.now() + timedelta(minutes=1),
        )
        moment = timezone.now() - timedelta(minutes=5)
        competition = clock_stop(competition=running, by=admin_user, stopped_at=moment)
        assert competition.clock_end == moment

    def test_stop_refusals(self, competition, teams, admin_user, refused, start_clock):
        refused("clock_not_started", clock_stop, competition=competition, by=admin_user)
        ended = start_clock(competition, ago=timedelta(hours=4))
        refused("clock_stopped", clock_stop, competition=ended, by=admin_user)
        finalise(ended)
        refused("final", clock_stop, competition=ended, by=admin_user)

    def test_automatic_end(self, competition, teams, judge, start_clock, refused):
        # R10: the clock ends by itself at start + duration, without a write.
        ended = start_clock(competition, ago=timedelta(hours=3, seconds=1))
        assert ended.status == "stopped"
        refused("after_end", finish_register, team=teams[0], position=1, by=judge)
        end = 3 * 3600
        assert finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=end)


# --- finishes --------------------------------------------------------------------------


class TestFinishRegister:
    def test_time_is_the_clocks_now(self, running, teams, judge):
        finish, entry = one_write(
            running,
            "finish_register",
            lambda: finish_register(team=teams[0], position=1, by=judge, missing=[1, 2]),
        )
        assert abs(finish.elapsed_seconds - 7200) <= 2
        assert finish.missing == [1, 2]
        assert finish.registered_by == judge
        assert finish.replayed is False
        assert entry.team == teams[0]
        assert entry.before is None
        assert entry.after["deducted"] == 1
        assert entry.after["puzzle"] == 1

    def test_given_time(self, running, teams, judge):
        finish = finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=2472)
        assert finish.elapsed_seconds == 2472
        second = finish_register(team=teams[0], position=2, by=judge, elapsed_seconds=2472)
        assert second.elapsed_seconds == 2472  # the same second as the previous is fine

    def test_final_is_checked_first(self, running, teams, judge, refused):
        team = teams[0]
        team.withdrawn = True
        team.save()
        finalise(running)
        refused("final", finish_register, team=team, position=3, by=judge, elapsed_seconds=10**6)

    def test_not_competing(self, running, teams, judge, admin_user, refused):
        teams[0].withdrawn = True
        teams[0].save()
        refused("not_competing", finish_register, team=teams[0], position=1, by=judge)
        team_disqualify(team=teams[1], by=admin_user, reason="Larm efter tre advarsler")
        error = refused("not_competing", finish_register, team=teams[1], position=1, by=judge)
        assert "diskvalificeret" in str(error.message)

    def test_clock_not_started(self, competition, teams, judge, refused):
        refused("clock_not_started", finish_register, team=teams[0], position=1, by=judge)

    def test_out_of_order(self, running, teams, judge, refused):
        error = refused("out_of_order", finish_register, team=teams[0], position=2, by=judge)
        assert "puslespil 1" in str(error.message)

    def test_already_finished_without_a_judge_says_so(self, running, teams, judge, refused):
        """A finish saved without a user (a script) is "registered by ?", at its own time."""
        first = finish_register(team=teams[0], position=1, by=None, elapsed_seconds=600)
        Finish.objects.filter(pk=first.pk).update(
            registered_at=timezone.now() - timedelta(hours=1, minutes=1, seconds=1)
        )
        first.refresh_from_db()
        error = refused("already_finished", finish_register, team=teams[0], position=1, by=judge)
        at = timezone.localtime(first.registered_at).strftime("%H:%M:%S")
        assert f"Registreret af ? kl. {at}" in str(error.message)
        assert error.extra["registered_by"] == "?"
        assert error.extra["registered_at"] == timezone.localtime(first.registered_at).isoformat()

    def test_already_finished_says_who_and_when(self, running, teams, judge, make_user, refused):
        first = finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=600)
        other = make_user("judge", "jens")
        error = refused("already_finished", finish_register, team=teams[0], position=1, by=other)
        at = timezone.localtime(first.registered_at).strftime("%H:%M:%S")
        assert f"Registreret af mette kl. {at}" in str(error.message)
        assert error.extra["finish"] == first.pk
        assert error.extra["registered_by"] == "mette"

    def test_after_end(self, ended, teams, judge, refused):
        refused("after_end", finish_register, team=teams[0], position=1, by=judge)
        refused(
            "after_end",
            finish_register,
            team=teams[0],
            position=1,
            by=judge,
            elapsed_seconds=3 * 3600 + 1,
        )

    def test_after_end_with_a_time_before_the_end_is_accepted(self, ended, teams, judge):
        # docs/day.md: a finish noted on paper at 12:59:40 can still be entered after 13:00.
        finish = finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=10780)
        assert finish.elapsed_seconds == 10780

    def test_after_an_early_stop(self, running, teams, judge, admin_user, refused):
        stopped = timezone.now() - timedelta(minutes=10)
        clock_stop(competition=running, by=admin_user, stopped_at=stopped)
        end = int((stopped - running.started_at).total_seconds())
        refused(
            "after_end",
            finish_register,
            team=teams[0],
            position=1,
            by=judge,
            elapsed_seconds=end + 1,
        )
        assert finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=end)

    def test_in_future(self, running, teams, judge, refused):
        refused(
            "in_future",
            finish_register,
            team=teams[0],
            position=1,
            by=judge,
            elapsed_seconds=7200 + 60,
        )

    def test_a_tap_a_few_seconds_ahead_is_the_clocks_now(self, running, teams, judge, monkeypatch):
        """A tablet's clock a little ahead of the server's must not lose the tap (R5). The
        server's now is held still: on the wall clock a busy machine could pass the 3 s
        between reading the clock and the write."""
        running.refresh_from_db()
        now = timezone.now()
        monkeypatch.setattr(timezone, "now", lambda: now)
        ahead = running.elapsed_seconds() + 3
        finish = finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=ahead)
        assert finish.elapsed_seconds == running.elapsed_seconds() == ahead - 3

    @pytest.mark.parametrize(
        ("tap", "saved"),
        [(0, 0), (1, 0), (5, 0), (-1, -1), (-7200, -7200)],  # seconds from the clock's now
    )
    def test_the_tolerance_at_the_second(self, running, teams, judge, tap, saved):
        """R5, R10: with the server's clock held still, a tap at the clock's now is saved as
        it is, one up to 5 seconds ahead as the now, 6 ahead is refused (in_future)."""
        now = running.started_at + timedelta(hours=2)
        with mock.patch.object(timezone, "now", return_value=now):
            finish = finish_register(
                team=teams[0], position=1, by=judge, elapsed_seconds=7200 + tap
            )
        assert finish.elapsed_seconds == 7200 + saved

    def test_six_seconds_ahead_is_the_future(self, running, teams, judge, refused):
        now = running.started_at + timedelta(hours=2)
        with mock.patch.object(timezone, "now", return_value=now):
            refused(
                "in_future",
                finish_register,
                team=teams[0],
                position=1,
                by=judge,
                elapsed_seconds=7206,
            )

    @pytest.mark.parametrize("ahead", [1, 3, 5])
    def test_the_last_seconds_a_tap_ahead_is_the_clocks_now(self, running, teams, judge, ahead):
        """57 s of the last minute gone, a tablet 1-5 s ahead taps: the clock
        still runs, so the tap is the clock's now (57 s), not `after_end` (the outbox would
        drop the refused tap and the puzzle's pieces with it)."""
        end = 3 * 3600
        now = running.started_at + timedelta(seconds=end - 3)  # 57 s of the last 60
        with mock.patch.object(timezone, "now", return_value=now):
            finish = finish_register(
                team=teams[0], position=1, by=judge, elapsed_seconds=end - 3 + ahead
            )
        assert finish.elapsed_seconds == end - 3

    def test_once_the_clock_has_ended_a_tap_after_the_end_is_refused(
        self, running, teams, judge, refused
    ):
        end = 3 * 3600
        now = running.started_at + timedelta(seconds=end + 1)  # time is up
        with mock.patch.object(timezone, "now", return_value=now):
            refused(
                "after_end",
                finish_register,
                team=teams[0],
                position=1,
                by=judge,
                elapsed_seconds=end + 2,
            )

    def test_time_order(self, running, teams, judge, refused):
        finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=3000)
        refused(
            "time_order",
            finish_register,
            team=teams[0],
            position=2,
            by=judge,
            elapsed_seconds=2999,
        )

    @pytest.mark.parametrize(
        "missing", [[0], [-1], [1, 0], [300, 201], [501], [True], [1.5], ["2"], [None]]
    )
    def test_missing_spots_invalid(self, running, teams, judge, invalid, missing):
        invalid("missing", finish_register, team=teams[0], position=1, by=judge, missing=missing)

    def test_missing_may_add_up_to_the_puzzle(self, running, teams, judge):
        finish = finish_register(team=teams[0], position=1, by=judge, missing=[250, 250])
        assert finish.missing == [250, 250]

    def test_unknown_puzzle_invalid(self, running, teams, judge, invalid):
        invalid("puzzle", finish_register, team=teams[0], position=4, by=judge)


class TestIdempotency:
    def test_same_request_replays(self, running, teams, judge, state):
        rid = uuid.uuid4()
        first = finish_register(
            team=teams[0], position=1, by=judge, missing=[1], elapsed_seconds=900, request_id=rid
        )
        before = state()
        again = finish_register(
            team=teams[0], position=1, by=judge, missing=[1], elapsed_seconds=900, request_id=rid
        )
        assert again.replayed is True
        assert again.pk == first.pk
        assert state() == before

    def test_different_payload_conflicts(self, running, teams, judge, state):
        rid = uuid.uuid4()
        finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=900, request_id=rid)
        before = state()
        with pytest.raises(IdempotencyConflict) as caught:
            finish_register(
                team=teams[0], position=1, by=judge, elapsed_seconds=901, request_id=rid
            )
        assert caught.value.code == "idempotency_conflict"
        with pytest.raises(IdempotencyConflict):
            finish_register(team=teams[1], position=1, by=judge, request_id=rid)
        assert state() == before

    def test_replay_of_a_count(self, ended, teams, judge, state):
        rid = uuid.uuid4()
        first = count_record(team=teams[0], by=judge, unplaced=314, loose=6, request_id=rid)
        before = state()
        again = count_record(team=teams[0], by=judge, unplaced=314, loose=6, request_id=rid)
        assert (again.pk, again.replayed) == (first.pk, True)
        with pytest.raises(IdempotencyConflict):
            count_record(team=teams[0], by=judge, pieces=300, request_id=rid)
        assert state() == before


class TestFingerprint:
    """docs/offline.md: a request id names one registration. Each field of it is part of the
    fingerprint at the service: the same id with any field changed is a conflict (422) and
    writes nothing; the judge's confirmation of an implausible time is not a field (the
    outbox resends the confirmed entry under its id)."""

    FINISH = {"position": 1, "missing": [1, 3], "elapsed_seconds": 900}

    @pytest.mark.parametrize(
        ("field", "other"),
        [
            ("team", None),  # the second team
            ("position", 2),
            ("missing", [1, 3, 1]),
            ("missing", []),
            ("elapsed_seconds", 901),
            ("elapsed_seconds", None),  # the clock's now instead of a given time
        ],
    )
    def test_a_finish_with_any_field_changed_conflicts(
        self, running, teams, judge, state, field, other
    ):
        rid = uuid.uuid4()
        finish_register(team=teams[0], by=judge, request_id=rid, **self.FINISH)
        before = state()
        changed = {"team": teams[0], **self.FINISH, field: other}
        if field == "team":
            changed["team"] = teams[1]
        with pytest.raises(IdempotencyConflict):
            finish_register(by=judge, request_id=rid, **changed)
        assert state() == before

    def test_the_fingerprint_is_the_hash_of_the_canonical_request(self, ended, teams, judge):
        """What is stored must match a resend after an upgrade too: the fingerprint is the
        SHA-256 of the request's fields as compact JSON with sorted keys."""
        rid = uuid.uuid4()
        finish = finish_register(team=teams[0], by=judge, request_id=rid, **self.FINISH)
        text = f'{{"elapsed_seconds":900,"missing":[1,3],"position":1,"team":{teams[0].pk}}}'
        stored = RequestId.objects.get(request_id=finish.request_id).fingerprint
        assert stored == hashlib.sha256(text.encode()).hexdigest()
        count = count_record(team=teams[1], by=judge, unplaced=200, request_id=uuid.uuid4())
        text = f'{{"loose":0,"pieces":null,"team":{teams[1].pk},"unplaced":200}}'
        stored = RequestId.objects.get(request_id=count.request_id).fingerprint
        assert stored == hashlib.sha256(text.encode()).hexdigest()

    def test_the_same_finish_replays_whatever_the_confirmation(self, running, teams, judge, state):
        rid = uuid.uuid4()
        first = finish_register(team=teams[0], by=judge, request_id=rid, **self.FINISH)
        before = state()
        for check in (True, False):
            again = finish_register(
                team=teams[0], by=judge, request_id=rid, check_plausible=check, **self.FINISH
            )
            assert (again.pk, again.replayed) == (first.pk, True)
        assert state() == before

    def test_a_replay_comes_before_every_check(self, running, teams, judge, state):
        """A lost answer's resend gets the stored answer even once the rules would now
        refuse the request (the team finished it; the results became final)."""
        rid = uuid.uuid4()
        first = finish_register(team=teams[0], by=judge, request_id=rid, **self.FINISH)
        finalise(running)
        before = state()
        again = finish_register(team=teams[0], by=judge, request_id=rid, **self.FINISH)
        assert (again.pk, again.replayed) == (first.pk, True)
        assert state() == before

    @pytest.mark.parametrize(
        ("first", "second"),
        [
            ({"pieces": 300}, {"pieces": 301}),
            ({"pieces": 300}, {"unplaced": 200}),
            ({"unplaced": 200, "loose": 6}, {"unplaced": 201, "loose": 6}),
            ({"unplaced": 200, "loose": 6}, {"unplaced": 200, "loose": 5}),
            ({"unplaced": 200, "loose": 6}, {"unplaced": 200}),
        ],
    )
    def test_a_count_with_any_field_changed_conflicts(
        self, ended, teams, judge, state, first, second
    ):
        rid = uuid.uuid4()
        count_record(team=teams[0], by=judge, request_id=rid, **first)
        before = state()
        with pytest.raises(IdempotencyConflict):
            count_record(team=teams[0], by=judge, request_id=rid, **second)
        with pytest.raises(IdempotencyConflict):
            count_record(team=teams[1], by=judge, request_id=rid, **first)
        assert state() == before
        again = count_record(team=teams[0], by=judge, request_id=rid, **first)
        assert again.replayed is True

    def test_an_id_is_one_request_whatever_its_kind(self, ended, teams, judge, refused):
        """Request ids live in one table for the competition: the same id sent as
        a count after a finish is another request under a used id, 422, nothing written."""
        rid = uuid.uuid4()
        finish = finish_register(
            team=teams[0], position=1, by=judge, elapsed_seconds=600, request_id=rid
        )
        assert finish.replayed is False
        refused(
            "idempotency_conflict", count_record, team=teams[1], by=judge, pieces=30, request_id=rid
        )


class TestPlausibility:
    @override_settings(PLAUSIBLE_PIECES_PER_MINUTE_PER_PUZZLER=15)
    def test_pace_per_puzzler(self, running, teams, judge, refused):
        team = teams[0]
        # No members: 1 puzzler. 500 pieces in 20 minutes = 25 per minute: implausible.
        warning = plausibility(team, 1, 1200)
        assert warning["pieces_per_minute_per_puzzler"] == 25.0
        assert warning["puzzlers"] == 1
        assert "25,0 brikker pr. minut pr. pusler" in warning["message"]
        error = refused(
            "implausible",
            finish_register,
            team=team,
            position=1,
            by=judge,
            elapsed_seconds=1200,
            check_plausible=True,
        )
        assert error.extra["plausibility"]["pieces_per_minute_per_puzzler"] == 25.0
        # Six members, at most 4 at the table: 500 / 20 / 4 = 6.25: plausible.
        for _ in range(6):
            MemberFactory(team=team)
        assert plausibility(team, 1, 1200) is None
        finish_register(team=team, position=1, by=judge, elapsed_seconds=1200, check_plausible=True)
        # The next puzzle's pace counts from the previous finish: 1000 in 5 min by 4.
        assert plausibility(team, 2, 1200 + 300)["pieces_per_minute_per_puzzler"] == 50.0

    @override_settings(PLAUSIBLE_PIECES_PER_MINUTE_PER_PUZZLER=15)
    def test_the_judge_confirms_an_implausible_finish(self, running, teams, judge, refused):
        """The confirm path: refused with `implausible` (nothing written), then sent again
        confirmed, under the same request id (the outbox's way), it is saved as given."""
        rid = uuid.uuid4()
        tap = {"team": teams[0], "position": 1, "by": judge, "elapsed_seconds": 60}
        refused("implausible", finish_register, request_id=rid, check_plausible=True, **tap)
        finish, entry = one_write(
            running,
            "finish_register",
            lambda: finish_register(request_id=rid, check_plausible=False, **tap),
        )
        assert (finish.elapsed_seconds, finish.replayed, finish.request_id) == (60, False, rid)
        assert entry.after["elapsed_seconds"] == 60
        again = finish_register(request_id=rid, check_plausible=True, **tap)
        assert (again.pk, again.replayed) == (finish.pk, True)

    @override_settings(PLAUSIBLE_PIECES_PER_MINUTE_PER_PUZZLER=15)
    def test_the_limit_itself_is_plausible(self, running, teams, judge):
        """500 pieces by one puzzler at exactly 15 a minute: 2000 seconds is fine, 1999 not."""
        assert plausibility(teams[0], 1, 2000) is None
        warning = plausibility(teams[0], 1, 1999)
        assert (warning["puzzlers"], warning["seconds"], warning["limit"]) == (1, 1999, 15)
        assert warning["pieces_per_minute_per_puzzler"] == 15.0  # 15.0075, one decimal
        finish = finish_register(
            team=teams[0], position=1, by=judge, elapsed_seconds=2000, check_plausible=True
        )
        assert finish.elapsed_seconds == 2000

    @override_settings(PLAUSIBLE_PIECES_PER_MINUTE_PER_PUZZLER=15)
    def test_the_pace_counts_from_this_teams_previous_finish(self, running, teams, judge):
        """Puzzle 2 after puzzle 1 at 0:10:00: 1000 pieces in 100 minutes is 10 a minute.
        Another team's finish of puzzle 1 does not count; a time of 0 is at least 1 second."""
        finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=6000)
        finish_register(team=teams[1], position=1, by=judge, elapsed_seconds=600)
        assert plausibility(teams[1], 2, 600 + 6000) is None
        warning = plausibility(teams[1], 2, 600 + 3000)
        assert (warning["seconds"], warning["pieces_per_minute_per_puzzler"]) == (3000, 20.0)
        assert plausibility(teams[2], 1, 0)["seconds"] == 1
        # Puzzle 3 counts from puzzle 2, not from puzzle 1.
        finish_register(team=teams[1], position=2, by=judge, elapsed_seconds=7000)
        assert plausibility(teams[1], 3, 7000 + 3000)["seconds"] == 3000

    @override_settings(PLAUSIBLE_PIECES_PER_MINUTE_PER_PUZZLER=25)
    def test_a_pace_of_exactly_the_limit_is_plausible(self, running, teams, judge):
        """500 pieces by one puzzler in 20 minutes is 25 a minute: the limit, not above it.
        The pace is given to one decimal (500 in 0:18:00 is 27.8, not 28)."""
        assert plausibility(teams[0], 1, 1200) is None
        assert plausibility(teams[0], 1, 1080)["pieces_per_minute_per_puzzler"] == 27.8

    def test_the_pace_is_of_this_competitions_puzzle(self, running, teams, judge):
        """Another competition's puzzle 1 (here 5000 pieces) is not this one's (500)."""
        other = CompetitionFactory(slug="andet-dm")
        PuzzleFactory(competition=other, position=1, pieces=5000)
        warning = plausibility(teams[0], 1, 60)
        assert warning["pieces_per_minute_per_puzzler"] == 500.0

    @override_settings(PLAUSIBLE_PIECES_PER_MINUTE_PER_PUZZLER=15)
    def test_puzzlers_are_the_members_up_to_the_tables_limit(self, running, teams, judge):
        """Two members: 500 pieces in 1000 seconds is 15 a minute each, the limit."""
        for _ in range(2):
            MemberFactory(team=teams[0])
        assert plausibility(teams[0], 1, 1000) is None
        assert plausibility(teams[0], 1, 999)["puzzlers"] == 2
        for _ in range(3):
            MemberFactory(team=teams[0])
        assert plausibility(teams[0], 1, 100)["puzzlers"] == 4  # max_at_table


class TestFinishCorrectAndDelete:
    @pytest.fixture
    def finishes(self, running, teams, judge):
        return [
            finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=2000),
            finish_register(team=teams[0], position=2, by=judge, elapsed_seconds=5000),
        ]

    def test_correct_time_and_missing(self, running, finishes, admin_user):
        finish, entry = one_write(
            running,
            "finish_correct",
            lambda: finish_correct(
                finish=finishes[0],
                by=admin_user,
                reason="Indsigelse: registreret et minut for sent",
                elapsed_seconds=1940,
                missing=[1],
            ),
        )
        finish.refresh_from_db()
        assert (finish.elapsed_seconds, finish.missing) == (1940, [1])
        assert entry.before["elapsed_seconds"] == 2000
        assert entry.after == {
            "id": finish.pk,
            "team": finish.team_id,
            "puzzle": 1,
            "elapsed_seconds": 1940,
            "missing": [1],
            "deducted": 1,
        }
        assert entry.reason.startswith("Indsigelse")

    def test_correct_needs_a_reason(self, finishes, admin_user, invalid):
        invalid("reason", finish_correct, finish=finishes[0], by=admin_user, reason=" ")

    def test_correct_keeps_the_order(self, finishes, admin_user, refused):
        refused(
            "time_order",
            finish_correct,
            finish=finishes[0],
            by=admin_user,
            reason="x",
            elapsed_seconds=5001,
        )
        refused(
            "in_future",
            finish_correct,
            finish=finishes[1],
            by=admin_user,
            reason="x",
            elapsed_seconds=7300,
        )

    def test_correct_refused_when_final(self, running, finishes, admin_user, refused):
        finalise(running)
        refused("final", finish_correct, finish=finishes[0], by=admin_user, reason="x", missing=[1])

    def test_delete_only_the_latest(self, running, finishes, judge, refused):
        refused("not_latest", finish_delete, finish=finishes[0], by=judge)
        _, entry = one_write(
            running,
            "finish_delete",
            lambda: finish_delete(finish=finishes[1], by=judge, reason="Tappet ved en fejl"),
        )
        assert entry.before["puzzle"] == 2
        assert entry.after is None
        assert list(Finish.objects.values_list("puzzle__position", flat=True)) == [1]

    def test_delete_refused_when_final(self, running, finishes, judge, refused):
        finalise(running)
        refused("final", finish_delete, finish=finishes[1], by=judge)


# --- counts ----------------------------------------------------------------------------


class TestCounts:
    def test_placed_pieces(self, ended, teams, judge):
        count, entry = one_write(
            ended, "count_record", lambda: count_record(team=teams[0], by=judge, pieces=420)
        )
        assert (count.pieces, count.puzzle.position, count.replayed) == (420, 1, False)
        assert entry.after["pieces"] == 420

    def test_unplaced_and_loose(self, ended, teams, judge):
        # docs/day.md: 31 piles of 10 + 4 unplaced, 6 loose in pairs, on a 1000-piece puzzle.
        finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=3000)
        finish_register(team=teams[0], position=2, by=judge, elapsed_seconds=8000)
        count = count_record(team=teams[0], by=judge, unplaced=31 * 10 + 4, loose=6)
        assert (count.puzzle.position, count.pieces) == (3, 680)
        assert (count.unplaced, count.loose) == (314, 6)

    @pytest.mark.parametrize(
        ("kwargs", "field"),
        [
            ({"pieces": 1}, "pieces"),
            ({"pieces": 2}, "pieces"),
            ({"pieces": 501}, "pieces"),
            ({"unplaced": 498}, "pieces"),
            ({"unplaced": 490, "loose": 9}, "pieces"),
            ({"unplaced": 400, "loose": 101}, "unplaced"),
            ({}, "pieces"),
            ({"pieces": 10, "unplaced": 490}, "pieces"),
        ],
    )
    def test_invalid_counts(self, ended, teams, judge, invalid, kwargs, field):
        invalid(field, count_record, team=teams[0], by=judge, **kwargs)

    def test_zero_and_all_but_one(self, ended, teams, judge, invalid):
        assert count_record(team=teams[0], by=judge, pieces=0).pieces == 0
        invalid("pieces", count_record, team=teams[1], by=judge, unplaced=0, loose=0)  # R9
        assert count_record(team=teams[1], by=judge, unplaced=1, loose=0).pieces == 499
        # Every piece unplaced or loose: 0 placed, a count like any other.
        assert count_record(team=teams[2], by=judge, unplaced=495, loose=5).pieces == 0

    def test_refusals(self, competition, teams, judge, admin_user, refused, start_clock):
        refused("clock_not_started", count_record, team=teams[0], by=judge, pieces=10)
        start_clock(competition, ago=timedelta(hours=1))
        refused("clock_running", count_record, team=teams[0], by=judge, pieces=10)
        clock_stop(competition=competition, by=admin_user)
        count_record(team=teams[0], by=judge, pieces=10)
        error = refused("already_counted", count_record, team=teams[0], by=judge, pieces=20)
        assert "Registreret af mette" in str(error.message)
        teams[1].withdrawn = True
        teams[1].save()
        refused("not_competing", count_record, team=teams[1], by=judge, pieces=10)

    def test_all_finished(self, ended, teams, judge, refused):
        for position, at in ((1, 3000), (2, 6000), (3, 9000)):
            finish_register(team=teams[0], position=position, by=judge, elapsed_seconds=at)
        refused("all_finished", count_record, team=teams[0], by=judge, pieces=0)

    def test_final(self, ended, teams, judge, refused):
        finalise(ended)
        refused("final", count_record, team=teams[0], by=judge, pieces=10)

    def test_correct(self, ended, teams, judge, admin_user, invalid):
        count = count_record(team=teams[0], by=judge, pieces=100)
        invalid("reason", count_correct, count=count, by=admin_user, reason="", pieces=3)
        invalid("pieces", count_correct, count=count, by=admin_user, reason="x", pieces=2)
        count, entry = one_write(
            ended,
            "count_correct",
            lambda: count_correct(
                count=count, by=admin_user, reason="Talt igen", unplaced=380, loose=7
            ),
        )
        assert count.pieces == 500 - 380 - 7
        assert entry.before["pieces"] == 100
        assert entry.after["pieces"] == 113
        count = count_correct(count=count, by=admin_user, reason="Løse brikker talt om", loose=0)
        assert count.pieces == 120

    def test_a_late_finish_of_the_counted_puzzle_voids_the_count(self, ended, teams, judge):
        count = count_record(team=teams[0], by=judge, pieces=480)
        finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=10780)
        assert not Count.objects.filter(team=teams[0]).exists()
        entry = AuditEntry.objects.get(action="count_delete", team=teams[0])
        assert (entry.user, entry.after) == (judge, None)
        assert entry.before == {
            "id": count.pk,
            "team": teams[0].pk,
            "puzzle": 1,
            "pieces": 480,
            "unplaced": None,
            "loose": None,
        }
        assert entry.reason == "Det optalte puslespil blev registreret som færdigt."
        assert Count.objects.filter(team=teams[1]).count() == 0

    def test_undoing_the_finish_before_a_count_voids_the_count(self, ended, teams, judge):
        finish = finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=3000)
        count_record(team=teams[0], by=judge, pieces=480)
        finish_delete(finish=finish, by=judge)
        assert not Count.objects.filter(team=teams[0]).exists()


# --- each rule of puzzle_rules/rules.py, at the service ----------------------------------


class TestEachRuleAtTheService:
    """The rules' refusal codes (puzzle_rules/rules.py) have their guard in the services too, so
    a judge cannot record what the standings would refuse. (R7's order, R8's spots, R9's
    count and R10's times are in the classes above; these are the ones only the API's
    serializers checked.)"""

    def test_r5_a_negative_time(self, running, teams, judge, invalid):
        invalid(
            "elapsed_seconds",
            finish_register,
            team=teams[0],
            position=1,
            by=judge,
            elapsed_seconds=-1,
        )
        assert finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=0)

    def test_r5_r7_a_corrected_time_stays_in_order_and_positive(
        self, running, teams, judge, admin_user, invalid, refused
    ):
        first = finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=2000)
        second = finish_register(team=teams[0], position=2, by=judge, elapsed_seconds=5000)
        fix = {"by": admin_user, "reason": "Rettet"}
        invalid("elapsed_seconds", finish_correct, finish=first, elapsed_seconds=-1, **fix)
        refused("time_order", finish_correct, finish=second, elapsed_seconds=1999, **fix)
        assert finish_correct(finish=second, elapsed_seconds=2000, **fix).elapsed_seconds == 2000
        assert finish_correct(finish=first, elapsed_seconds=2000, **fix).elapsed_seconds == 2000

    @pytest.mark.parametrize("missing", [[0], [1, -1], [501], [250, 251]])
    def test_r8_corrected_missing_spots(self, running, teams, judge, admin_user, invalid, missing):
        finish = finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=2000)
        invalid(
            "missing", finish_correct, finish=finish, by=admin_user, reason="x", missing=missing
        )
        fixed = finish_correct(finish=finish, by=admin_user, reason="x", missing=[250, 250])
        assert fixed.missing == [250, 250]

    @pytest.mark.parametrize(
        ("kwargs", "field"),
        [
            ({"pieces": -1}, "pieces"),
            ({"unplaced": -1}, "unplaced"),
            ({"unplaced": 10, "loose": -1}, "unplaced"),
        ],
    )
    def test_r9_a_negative_count(self, ended, teams, judge, admin_user, invalid, kwargs, field):
        invalid(field, count_record, team=teams[0], by=judge, **kwargs)
        count = count_record(team=teams[0], by=judge, pieces=3)
        invalid(field, count_correct, count=count, by=admin_user, reason="x", **kwargs)

    def test_r9_a_corrected_count_of_the_unplaced_form(self, ended, teams, judge, admin_user):
        """The unplaced form is corrected in the same form; the placed form needs pieces."""
        count = count_record(team=teams[0], by=judge, unplaced=100, loose=10)
        assert (count.pieces, count.unplaced, count.loose) == (390, 100, 10)
        count = count_correct(count=count, by=admin_user, reason="x", loose=0)
        assert (count.pieces, count.unplaced, count.loose) == (400, 100, 0)
        count = count_correct(count=count, by=admin_user, reason="x", pieces=12)
        assert (count.pieces, count.unplaced, count.loose) == (12, None, None)


# --- warnings, disqualification ----------------------------------------------------------


class TestWarningsAndDisqualification:
    def test_warning(self, running, teams, judge, invalid):
        invalid("reason", warning_log, team=teams[0], by=judge, reason="")
        warning, entry = one_write(
            running, "warning_log", lambda: warning_log(team=teams[0], by=judge, reason="Larm")
        )
        assert (warning.team, warning.given_by, warning.reason) == (teams[0], judge, "Larm")
        assert entry.reason == "Larm"

    def test_warning_refused_when_final(self, running, teams, judge, refused):
        finalise(running)
        refused("final", warning_log, team=teams[0], by=judge, reason="Larm")

    def test_disqualify_and_reinstate(self, running, teams, admin_user, invalid, refused):
        invalid("reason", team_disqualify, team=teams[0], by=admin_user, reason="")
        refused("not_disqualified", team_reinstate, team=teams[0], by=admin_user)
        team, entry = one_write(
            running,
            "team_disqualify",
            lambda: team_disqualify(team=teams[0], by=admin_user, reason="Hjælp udefra (R18)"),
        )
        assert team.disqualified and team.disqualified_reason == "Hjælp udefra (R18)"
        assert entry.before == {
            "id": team.pk,
            "withdrawn": False,
            "disqualified": False,
            "disqualified_reason": "",
        }
        assert entry.after == {
            "id": team.pk,
            "withdrawn": False,
            "disqualified": True,
            "disqualified_reason": "Hjælp udefra (R18)",
        }
        refused("already_disqualified", team_disqualify, team=team, by=admin_user, reason="x")
        team, entry = one_write(
            running,
            "team_reinstate",
            lambda: team_reinstate(team=team, by=admin_user, reason="Fejl"),
        )
        assert not team.disqualified and team.disqualified_reason == ""

    def test_disqualify_refused_when_final(self, running, teams, admin_user, refused):
        finalise(running)
        refused("final", team_disqualify, team=teams[0], by=admin_user, reason="x")
        refused("final", team_reinstate, team=teams[0], by=admin_user)
