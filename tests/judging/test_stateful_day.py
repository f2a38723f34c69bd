"""Random championship days driven through the services (issue 11, "Proof").

A hypothesis `RuleBasedStateMachine` plays the day with a clock it controls: the clock is
started, corrected and stopped; finishes registered, corrected and deleted; counts recorded,
voided and corrected; warnings, disqualifications and reinstatements; objections filed and
resolved; requests replayed, resent with another body and cancelled; finalise tried at any
time. After every step:

- the standings served equal `rules.standings` of the sheets read back from the database
  (R7-R11: the database never holds a day the pure rules refuse);
- a request id never produced a second record, and never a record after its cancel;
- a refused step changed no table;
- nothing raised but a refusal (409/422) or a validation error (400).
"""

from datetime import UTC, datetime, timedelta
from unittest import mock
from uuid import UUID, uuid4

import pytest
from django.core.exceptions import ValidationError
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from competition.errors import Refusal
from competition.models import AuditEntry, Competition, Puzzle, Team
from competition.services import clock_correct, clock_start, clock_stop
from judging.models import Count, Finish, Objection, RequestId, Warning
from judging.services import (
    competition_finalise,
    count_correct,
    count_record,
    finish_correct,
    finish_delete,
    finish_register,
    objection_file,
    objection_resolve,
    request_cancel,
    team_disqualify,
    team_reinstate,
    warning_log,
)
from scoring import rules
from scoring.selectors import competition_standings

pytestmark = pytest.mark.django_db

T0 = datetime(2027, 3, 6, 9, 0, tzinfo=UTC)
DURATION_MINUTES = 60
PIECES = (20, 50, 30)
TEAMS = 4

team_index = st.integers(0, TEAMS - 1)
pick = st.integers(0, 1_000)  # an index into whatever exists, modulo its length
# Mostly what a judge sends, sometimes what no judge should (0 spots, odd times).
spots = st.one_of(st.just([]), st.lists(st.integers(1, 3), max_size=2), st.lists(st.integers(0, 4)))
times = st.one_of(st.none(), st.none(), st.integers(-5, DURATION_MINUTES * 60 + 120))


def _snapshot() -> dict:
    """Every table a refused step must leave alone."""
    return {
        "finishes": list(Finish.objects.order_by("pk").values()),
        "counts": list(Count.objects.order_by("pk").values()),
        "warnings": list(Warning.objects.order_by("pk").values()),
        "objections": list(Objection.objects.order_by("pk").values()),
        "requests": list(RequestId.objects.order_by("pk").values()),
        "audit": AuditEntry.objects.count(),
        "teams": list(Team.objects.order_by("pk").values()),
        "competition": list(Competition.objects.order_by("pk").values()),
    }


class ChampionshipDay(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        from django.contrib.auth import get_user_model

        from competition.services import staff_upsert

        self.now = T0 - timedelta(minutes=5)
        self._clock = mock.patch("django.utils.timezone.now", new=self.clock_now)
        self._clock.start()
        for model in (Objection, Finish, Count, Warning, RequestId, AuditEntry, Competition):
            model.objects.all().delete()
        get_user_model().objects.filter(username__startswith="day-").delete()
        self.judges = [staff_upsert(username=f"day-judge-{i}", role="judge")[0] for i in (1, 2)]
        self.head = staff_upsert(username="day-head", role="admin")[0]
        self.desk = staff_upsert(username="day-desk", role="desk")[0]
        self.competition = Competition.objects.create(
            slug="dagen", name="Dagen", starts_at=T0, duration_minutes=DURATION_MINUTES
        )
        for position, pieces in enumerate(PIECES, start=1):
            Puzzle.objects.create(
                competition=self.competition, position=position, title=f"P{position}", pieces=pieces
            )
        self.teams = [
            Team.objects.create(competition=self.competition, name=f"Hold {i}", table=i)
            for i in range(1, TEAMS + 1)
        ]
        # request id -> (service, kwargs) as first sent; the record it created, if any.
        self.sent: dict[UUID, tuple] = {}
        self.created: dict[UUID, int] = {}
        self.cancelled: set[UUID] = set()

    def clock_now(self) -> datetime:
        return self.now

    def teardown(self):
        self._clock.stop()

    # --- helpers ---------------------------------------------------------------------------

    def _fresh(self, model, index: int):
        rows = list(model.objects.filter(team__competition=self.competition).order_by("pk"))
        return rows[index % len(rows)] if rows else None

    def attempt(self, service, **kwargs):
        """Call a service: a refusal or validation error must have written nothing."""
        before = _snapshot()
        try:
            return service(**kwargs)
        except (Refusal, ValidationError):
            assert _snapshot() == before, f"{service.__name__} refused but wrote"
            return None

    def send(self, service, request_id: UUID, **kwargs):
        """A tablet's request with an id: first send, replay or resend after an undo."""
        result = self.attempt(service, request_id=request_id, **kwargs)
        if result is None:
            return
        assert request_id not in self.cancelled, "a cancelled request id wrote a record"
        first = self.created.setdefault(request_id, result.pk)
        assert result.pk == first, "one request id produced two records"
        if getattr(result, "replayed", False):
            assert (service, kwargs) == self.sent[request_id][:2]
        self.sent.setdefault(request_id, (service, kwargs))

    def _old_id(self, index: int) -> UUID | None:
        ids = sorted(self.sent, key=str)
        return ids[index % len(ids)] if ids else None

    # --- the clock ---------------------------------------------------------------------------

    @initialize(started=st.booleans(), late=st.integers(0, 90))
    def doors_open(self, started, late):
        """Most days begin with the clock started (at most 90 s ago); some before it."""
        if started:
            self.start(back=late)

    @rule(seconds=st.integers(1, 400))
    def time_passes(self, seconds):
        self.now += timedelta(seconds=seconds)

    @rule(after=st.integers(0, 900))
    def time_is_up(self, after):
        competition = Competition.objects.get(pk=self.competition.pk)
        if competition.started_at is not None:
            self.now = max(self.now, competition.clock_end + timedelta(seconds=after))

    @rule(back=st.one_of(st.integers(0, 60), st.integers(0, DURATION_MINUTES * 60 + 60)))
    def start(self, back):
        self.attempt(
            clock_start,
            competition=self.competition,
            by=self.head,
            started_at=self.now - timedelta(seconds=back),
        )

    @rule(shift=st.integers(-600, 600))
    def correct_start(self, shift):
        started = Competition.objects.get(pk=self.competition.pk).started_at or self.now
        self.attempt(
            clock_correct,
            competition=self.competition,
            by=self.head,
            started_at=started + timedelta(seconds=shift),
        )

    @rule(back=st.one_of(st.integers(0, 30), st.integers(0, 1800)))
    def stop(self, back):
        self.attempt(
            clock_stop,
            competition=self.competition,
            by=self.head,
            stopped_at=self.now - timedelta(seconds=back),
        )

    @rule()
    def finalise(self):
        self.attempt(competition_finalise, competition=self.competition, by=self.head)

    # --- the judges ------------------------------------------------------------------------

    @rule(team=team_index, missing=spots, elapsed=times, judge=st.integers(0, 1))
    def finish(self, team, missing, elapsed, judge):
        team = self.teams[team]
        position = Finish.objects.filter(team=team).count() + 1
        self.send(
            finish_register,
            uuid4(),
            team=team,
            position=position,
            missing=missing,
            elapsed_seconds=elapsed,
            by=self.judges[judge],
        )

    @rule(team=team_index, position=st.integers(0, 4), elapsed=times)
    def finish_any_puzzle(self, team, position, elapsed):
        """R7: a finish for a puzzle that is not the team's next is refused."""
        self.send(
            finish_register,
            uuid4(),
            team=self.teams[team],
            position=position,
            elapsed_seconds=elapsed,
            by=self.judges[0],
        )

    @rule(team=team_index, pieces=st.integers(-1, 55), judge=st.integers(0, 1))
    def count(self, team, pieces, judge):
        self.send(
            count_record, uuid4(), team=self.teams[team], pieces=pieces, by=self.judges[judge]
        )

    @rule(team=team_index, unplaced=st.integers(0, 55), loose=st.integers(0, 5))
    def count_by_piles(self, team, unplaced, loose):
        self.send(
            count_record,
            uuid4(),
            team=self.teams[team],
            unplaced=unplaced,
            loose=loose,
            by=self.judges[0],
        )

    @rule(team=team_index)
    def warn(self, team):
        self.send(warning_log, uuid4(), team=self.teams[team], reason="Støj", by=self.judges[0])

    @rule(index=pick)
    def resend(self, index):
        """A lost answer: the same request again, exactly as first sent."""
        request_id = self._old_id(index)
        if request_id is not None:
            service, kwargs = self.sent[request_id]
            self.send(service, request_id, **kwargs)

    @rule(index=pick, elapsed=times)
    def resend_changed(self, index, elapsed):
        """A request id sent again with another body: 422, nothing written."""
        request_id = self._old_id(index)
        if request_id is not None:
            service, kwargs = self.sent[request_id]
            if service is finish_register and kwargs["elapsed_seconds"] != elapsed:
                self.send(service, request_id, **{**kwargs, "elapsed_seconds": elapsed})

    @rule(index=pick, unknown=st.booleans())
    def cancel(self, index, unknown):
        """The tablet's undo of a tap whose answer never came."""
        request_id = uuid4() if unknown else self._old_id(index)
        if request_id is None:
            return
        answer = self.attempt(
            request_cancel, competition=self.competition, request_id=request_id, by=self.judges[0]
        )
        if answer is not None:
            assert answer in ("deleted", "never_arrived")
            self.cancelled.add(request_id)
            if unknown:
                self.sent[request_id] = (
                    finish_register,
                    {
                        "team": self.teams[0],
                        "position": 1,
                        "missing": [],
                        "elapsed_seconds": None,
                        "by": self.judges[0],
                    },
                )

    # --- the head judge ----------------------------------------------------------------------

    @rule(index=pick, elapsed=times, missing=st.one_of(st.none(), spots))
    def correct_finish(self, index, elapsed, missing):
        finish = self._fresh(Finish, index)
        if finish is not None:
            self.attempt(
                finish_correct,
                finish=finish,
                by=self.head,
                reason="Ret",
                elapsed_seconds=elapsed,
                missing=missing,
            )

    @rule(index=pick)
    def delete_finish(self, index):
        finish = self._fresh(Finish, index)
        if finish is not None:
            self.attempt(finish_delete, finish=finish, by=self.head, reason="Fejltryk")

    @rule(index=pick, pieces=st.integers(-1, 55))
    def correct_count(self, index, pieces):
        count = self._fresh(Count, index)
        if count is not None:
            self.attempt(count_correct, count=count, by=self.head, reason="Ret", pieces=pieces)

    @rule(team=team_index, reinstate=st.booleans())
    def discipline(self, team, reinstate):
        service = team_reinstate if reinstate else team_disqualify
        self.attempt(service, team=self.teams[team], by=self.head, reason="R14")

    @rule(team=team_index, index=pick, about_finish=st.booleans())
    def object(self, team, index, about_finish):
        finish = self._fresh(Finish, index) if about_finish else None
        team = finish.team if finish is not None else self.teams[team]
        self.attempt(objection_file, team=team, by=self.desk, text="Forkert tid", finish=finish)

    @rule(index=pick, upheld=st.booleans(), elapsed=times)
    def resolve(self, index, upheld, elapsed):
        objection = self._fresh(Objection, index)
        if objection is not None:
            decision = Objection.Decision.UPHELD if upheld else Objection.Decision.REJECTED
            extra = {"elapsed_seconds": elapsed} if upheld and objection.finish_id else {}
            self.attempt(
                objection_resolve,
                objection=objection,
                by=self.head,
                decision=decision,
                note="Tjekket",
                **extra,
            )

    # --- what must always hold -------------------------------------------------------------

    @invariant()
    def standings_match_the_rules(self):
        competition = Competition.objects.get(pk=self.competition.pk)
        puzzles = [
            rules.Puzzle(position=p.position, pieces=p.pieces)
            for p in competition.puzzles.order_by("position")
        ]
        sheets = []
        for team in Team.objects.filter(competition=competition, withdrawn=False):
            finishes = tuple(
                rules.Finish(
                    position=f.puzzle.position,
                    elapsed_seconds=f.elapsed_seconds,
                    missing=tuple(f.missing),
                )
                for f in team.finishes.select_related("puzzle").order_by("puzzle__position")
            )
            count = Count.objects.filter(team=team).first()
            sheets.append(
                rules.Sheet(
                    team=team.pk,
                    finishes=finishes,
                    counted=count.pieces if count else None,
                    disqualified=team.disqualified,
                )
            )
        expected = rules.standings(puzzles, sheets)  # raises if the database broke a rule
        served = competition_standings(competition, staff=True)
        assert served["error"] is None
        got = [
            (row["team"]["id"], row["rank"], row["pieces"], row["finished"], row["disqualified"])
            for row in served["standings"]
        ]
        want = [(s.team, s.rank, s.pieces, s.finished, s.disqualified) for s in expected]
        assert got == want

    @invariant()
    def request_ids_hold(self):
        for request_id in self.cancelled:
            row = RequestId.objects.get(request_id=request_id)
            assert row.outcome != RequestId.Outcome.CREATED
            for model in (Finish, Count, Warning):
                assert not model.objects.filter(request_id=request_id).exists()
        for request_id, pk in self.created.items():
            row = RequestId.objects.get(request_id=request_id)
            assert row.record_id == pk


ChampionshipDay.TestCase.settings = settings(
    max_examples=25,
    stateful_step_count=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def test_random_days_keep_every_result(db):
    ChampionshipDay.TestCase().runTest()
