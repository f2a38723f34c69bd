"""The championship day as a hypothesis `RuleBasedStateMachine`.

One example is one day of one competition, played through the HTTP API by the people who
play it: the desk (teams, withdrawals, objections), two judges (taps from tablets whose
clocks run up to 5 s ahead or behind, paper times, counts, blind second counts,
corrections, warnings, undos and resends that arrive late) and the head judge (the clock,
corrections, disqualifications, decisions, finalise with and without the override). The
clock is the model's (`CLOCK` stands in for `django.utils.timezone.now`): time passes, the
clock ends by itself or is stopped, and taps land in its last seconds. Steps are handed the
ids they were given earlier, also of records deleted since, and in `vanished_before_the_lock`
a record vanishes between the view and the service's lock. The `plan_*` rules are the day
plan: they move the day on (start, time, counts, second counts, decisions, finalise), so
that the steps after final are tried too.

Checked after every call (`Day.call`): an answer is a success, a 400, 404, 422 or a 409
with a known code, never a 500 (the test client raises it); a refused call changed no table
(a differing second count writes only its flag); a record an objection decided is changed
only by the head judge; a request id wrote once, never after its cancel; after final nothing
changes. After every step (`the_day_holds`): the staff standings are `rules.standings` over
the database and the public ones the rules over what is public (never an unconfirmed
count); every finish lies at or before the clock's end, every count is on the team's next
puzzle; the clock started only over a sequence 1..N; a count is confirmed by the head judge
or by someone who did not set its number. Taps, counts and finalise also have an oracle
(`must_register`, `must_count`, `must_finalise`): what the rules must accept is accepted.

`COVERAGE` collects the `event()`s per day for the companion test.
"""

import itertools
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from unittest import mock
from uuid import UUID

from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import transaction
from hypothesis import event
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from rest_framework.test import APIClient

from competition.errors import Refusal
from competition.models import Competition, Puzzle
from competition.services import puzzle_delete, puzzle_sequence_set
from judging.api import counts as counts_api
from judging.api import finishes as finishes_api
from judging.api import objections as objections_api
from judging.models import Count, Finish, Objection
from scoring.selectors import memo_clear
from tests.judging.day.checks import (
    API_CODES,
    CONTRACT_CODES,
    Digest,
    digest_query,
    expected_rows,
    read_digest,
    served_rows,
)

T0 = datetime(2027, 3, 6, 9, 0, tzinfo=UTC)
DURATION_MINUTES = 20
TOLERANCE = (
    5  # seconds a tablet's clock may run ahead (docs/contracts.md "The edges that stay true")
)
JUDGES = ("judge1", "judge2")
KNOWN_CODES = frozenset(CONTRACT_CODES + API_CODES)
SLUG = "dagen"
STATUS = {"setup": "setup", "running": "running", "ended": "stopped", "final": "final"}


class Clock:
    """`django.utils.timezone.now` while the days run: the model moves it."""

    def __init__(self):
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


CLOCK = Clock()


class Coverage:
    """What the days reached: how many days ran, and per event the days that had it."""

    def __init__(self):
        self.reset()

    def reset(self):
        self.days = 0
        self.days_with: Counter = Counter()


COVERAGE = Coverage()

# The staff, made once per test (tests/judging/test_stateful_day.py): judge1, judge2,
# head (admin), desk.
USERS: dict = {}


@dataclass
class Answer:
    status: int
    data: object
    code: str | None = None
    replayed: bool = False


@dataclass
class Sent:
    """A request with a request id, as the tablet first sent it (a resend sends it again)."""

    kind: str  # finish, count, warning, confirm
    path: str
    body: dict
    who: str


pick = st.integers(0, 10**6)  # an index into what the model knows, modulo its length
anyone = st.sampled_from((*JUDGES, "head"))
judge = st.sampled_from(JUDGES)


def during(*phases: str):
    """A rule for these phases of the day, and for after final (every step is tried then)."""
    return precondition(lambda self: self.phase in (*phases, "final"))


def knows(attribute: str):
    return precondition(lambda self: bool(getattr(self, attribute)))


def plan_rule(name: str):
    """A rule that runs `Day.plan` (see `Day.plan_a`)."""

    def step(self):
        self.plan()

    step.__name__ = step.__qualname__ = name
    return during("setup", "running", "ended")(rule()(step))


class Day(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        # One day, rolled back at its end: the next day starts from an empty competition.
        self._day = transaction.atomic()
        self._day.__enter__()
        cache.clear()
        memo_clear()
        CLOCK.now = T0 - timedelta(minutes=10)
        self.clients = {}
        for name, user in USERS.items():
            self.clients[name] = APIClient()
            self.clients[name].force_authenticate(user)
        self.anonymous = APIClient()
        # The standings' fast path takes a request without a session cookie or a token for
        # an anonymous reader (scoring/api.py): the staff reader sends one (as a token's
        # holder would), and DRF takes the forced user.
        self.staff_reader = APIClient()
        self.staff_reader.force_authenticate(USERS["head"])
        self.staff_reader.credentials(HTTP_AUTHORIZATION="Token day-model")
        self.name_of = {user.pk: name for name, user in USERS.items()}
        self.events: set[str] = set()
        self.cid: int | None = None
        self.base = f"/api/v1/competitions/{SLUG}"
        self.digest: Digest | None = None
        self.teams: list[int] = []  # ids as the desk got them
        self.finishes: list[int] = []  # ids as the judges got them (some deleted since)
        self.counts: list[int] = []
        self.objections: list[int] = []
        self.loaded: dict = {}  # (kind, id) -> the record as a view loaded it back then
        self.sent: dict[UUID, Sent] = {}
        self.created: dict[UUID, int] = {}  # request id -> the record its first 2xx made
        self.cancelled: set[UUID] = set()
        self.rid_of: dict = {}  # (kind, id) -> the request id that created it
        self.setters: dict[int, set[int]] = {}  # count id -> users who set its number
        self.decided: dict = {}  # (kind, id) -> its numbers as decided (None: gone)
        self.frozen: Digest | None = None  # the tables as they were made final
        self.frozen_bodies: tuple | None = None  # the standings (staff, public) after final
        self.checked = None  # (digest, phase) the standings were last compared for
        self.rids = itertools.count(1)
        self.plan_seed = self.turn = 0
        self.tables = itertools.count(1)

    def teardown(self):
        COVERAGE.days += 1
        COVERAGE.days_with.update(self.events)
        transaction.set_rollback(True)
        self._day.__exit__(None, None, None)

    # --- reading the day -------------------------------------------------------------------
    def note(self, name: str) -> None:
        if name not in self.events:
            self.events.add(name)
            event(name)

    @property
    def phase(self) -> str:
        d = self.digest
        if d is None:
            return "none"
        if d.finalised_at:
            return "final"
        if d.started_at is None:
            return "setup"
        return "running" if CLOCK.now < self.clock_end else "ended"

    @property
    def clock_end(self) -> datetime:
        d = self.digest
        ends_at = d.started_at + timedelta(minutes=d.duration_minutes)
        return min(ends_at, d.stopped_at) if d.stopped_at else ends_at

    def seconds(self, moment: datetime) -> int:
        return int((moment - self.digest.started_at).total_seconds())

    def competing(self, unfinished: bool = False) -> list[int]:
        d = self.digest
        n = len(d.puzzles)
        return [
            t[0]
            for t in d.teams
            if not t[3] and not t[4] and (not unfinished or len(d.finishes_of(t[0])) < n)
        ]

    def one(self, items: list, index: int):
        return items[index % len(items)]

    # --- acting --------------------------------------------------------------------------
    def call(self, who: str, method: str, path: str, body=None, *, forbidden=False) -> Answer:
        """One request as `who`; what every answer must be (see the module's docstring)."""
        before = self.digest
        response = getattr(self.clients[who], method)(self.base + path, body, format="json")
        status = response.status_code
        is_json = response.get("Content-Type", "").startswith("application/json")
        data = response.json() if is_json else None
        answer = Answer(status, data, replayed=response.get("Idempotent-Replayed") == "true")
        after = read_digest(self.cid, self.query)
        what = f"{method.upper()} {path} {body} as {who} answered {status} {data}"
        if status == 409:
            answer.code = data.get("code")
            assert answer.code in KNOWN_CODES, f"{what}: a 409 code docs/contracts.md does not list"
            self.note(f"refused {answer.code}")
        assert (status == 403) == forbidden, f"{what}: 403 is for the wrong role only"
        if status in (200, 201, 204) and not answer.replayed:
            self.check_decided(after, who, what)
        elif answer.code == "count_differs":  # flagged for a recount (docs/contracts.md)
            assert after.masked_second_count() == before.masked_second_count(), what
        elif status in (200, 400, 403, 404, 409, 422):
            assert after == before, f"{what}: refused (or a replay), but it wrote"
        else:
            raise AssertionError(f"{what}: not an answer the API gives")
        if self.frozen is not None:
            assert after.without_tablets() == self.frozen, f"{what}: a change after final"
            self.note("a step after final")
        self.digest = after
        return answer

    def service(self, function, **kwargs) -> bool:
        """A write with no API (removing a puzzle): refused, it changed no table."""
        before = self.digest
        code, done = None, False
        try:
            function(**kwargs)
            done = True
        except Refusal as refusal:
            code = refusal.code
        except ValidationError:
            pass
        if code is not None:
            assert code in KNOWN_CODES, code
            self.note(f"refused {code}")
        after = read_digest(self.cid, self.query)
        if not done:
            assert after == before, f"{function.__name__} refused, but it wrote"
        if self.frozen is not None:
            assert after.without_tablets() == self.frozen, f"{function.__name__} after final"
        self.digest = after
        return done

    def check_decided(self, after: Digest, who: str, what: str) -> None:
        """docs/contracts.md: a resolved objection binds; only the head judge changes what it
        decided."""
        records = after.records()
        for key, numbers in self.decided.items():
            now = records.get(key)
            if now != numbers:
                assert who == "head", (
                    f"{what}: changed {key}, decided by an objection, {numbers} -> {now}"
                )
                self.decided[key] = now

    def send(self, kind: str, who: str, path: str, body: dict, rid: UUID) -> Answer:
        self.sent.setdefault(rid, Sent(kind, path, body, who))
        answer = self.call(who, "post", path, body)
        self.received(rid, kind, who, answer)
        return answer

    def received(self, rid: UUID, kind: str, who: str, answer: Answer) -> None:
        """A request id writes once (201, or a confirm's first 200), never after its cancel;
        a replay answers the record it created, which still exists."""
        wrote = answer.status == 201 or (kind == "confirm" and answer.status == 200)
        if wrote and not answer.replayed:
            assert rid not in self.created, f"request {rid} wrote twice"
            assert rid not in self.cancelled, f"request {rid} wrote after its cancel"
            record = answer.data["id"]
            self.created[rid] = record
            if kind in ("finish", "count"):
                self.rid_of[(kind, record)] = rid
                self.remember(kind, record)
            if kind == "count":
                self.setters[record] = {USERS[who].pk}
        elif answer.replayed:
            assert self.created.get(rid) == answer.data["id"], f"replay of {rid}: another record"
            if kind in ("finish", "count"):
                assert (kind, answer.data["id"]) in self.digest.records(), f"replay of {rid}: gone"

    def remember(self, kind: str, record: int) -> None:
        """The record as a view loads it; `vanished_before_the_lock` hands it over later."""
        if kind == "finish":
            self.finishes.append(record)
            loaded = Finish.objects.select_related("team", "puzzle").get(pk=record)
        elif kind == "count":
            self.counts.append(record)
            loaded = Count.objects.select_related("team", "puzzle").get(pk=record)
        else:
            self.objections.append(record)
            loaded = Objection.objects.select_related(
                "team", "finish__puzzle", "count__puzzle"
            ).get(pk=record)
        self.loaded[(kind, record)] = loaded

    def new_rid(self) -> UUID:
        return UUID(int=next(self.rids))

    def late(self, rid: UUID, what: str) -> None:
        """Events for a cancel or resend that arrives after a decision, a void, a delete."""
        record = self.created.get(rid)
        kind = self.sent[rid].kind if rid in self.sent else None
        if record is None or kind not in ("finish", "count"):
            return
        if (kind, record) in self.decided:
            self.note(f"decided, then a late {what}")
        if (kind, record) not in self.digest.records():
            outcome = next((r[2] for r in self.digest.request_ids if r[0] == rid), None)
            self.note(f"a late {what} after {outcome}")

    # --- the oracles -----------------------------------------------------------------------
    def must_register(self, team: int, position: int, elapsed: int | None) -> tuple:
        """(the time a finish must be registered at or None, whether it may be registered).

        R7 and R10 with the last seconds of docs/contracts.md "The edges that stay true": a tap up
        to 5 s ahead of the clock's now is its now while the clock runs, also just before the end. A
        finish that may not be registered is refused; one the rules may take at some time is checked
        by `times_and_counts` (never after the end) and the rules (never before the previous)."""
        d = self.digest
        row = d.team(team)
        if d.finalised_at or d.started_at is None or row is None or row[3] or row[4]:
            return None, False
        done = d.finishes_of(team)
        if position != len(done) + 1 or d.pieces_at(position) is None:
            return None, False
        now_s, end_s = self.seconds(CLOCK.now), self.seconds(self.clock_end)
        running = CLOCK.now < self.clock_end
        if elapsed is None:
            at = now_s if running else None
        elif running:
            at = min(elapsed, now_s) if 0 <= elapsed <= now_s + TOLERANCE else None
        else:
            at = elapsed if 0 <= elapsed <= end_s else None
        previous = done[-1][4] if done else 0
        return (at if at is not None and at >= previous else None), True

    def must_count(self, team: int, placed: int | None) -> bool | None:
        """R9: a count must be taken once time is up, for a competing team with an
        unfinished puzzle and no count, when it is 0 or 3..pieces-1; None: no claim."""
        d = self.digest
        row = d.team(team)
        if d.finalised_at or d.started_at is None or self.phase != "ended" or row is None:
            return False
        if row[3] or row[4] or d.count_of(team) is not None:
            return False
        finished = len(d.finishes_of(team))
        if finished >= len(d.puzzles):
            return False
        pieces = d.pieces_at(finished + 1)
        if pieces is None:
            return None  # a gap in the sequence: `clock_over_a_sequence` says so
        return placed is not None and (placed == 0 or 3 <= placed < pieces)

    def must_finalise(self, override: bool) -> bool | None:
        """R20: final exactly when time is up, no objection is open, every competing team
        with an unfinished puzzle is counted (and confirmed, with the second count on), and
        no tablet holds taps (or the head judge overrides)."""
        d = self.digest
        if d.finalised_at or d.started_at is None or self.phase != "ended":
            return False
        if [p[1] for p in d.puzzles] != list(range(1, len(d.puzzles) + 1)):
            return None
        if any(o[4] == "open" for o in d.objections):
            return False
        if any(t[1] > 0 for t in d.tablets) and not override:
            return False
        for team in self.competing():
            count = d.count_of(team)
            if len(d.finishes_of(team)) < len(d.puzzles) and count is None:
                return False
            if d.second_count and count is not None and count[9] is None:
                return False
        return True

    # --- the day opens ---------------------------------------------------------------------
    @initialize(
        second_count=st.booleans(),
        puzzles=st.sampled_from((0, 1, 2, 2, 3, 3, 3)),
        pieces=st.lists(st.integers(10, 40), min_size=3, max_size=3),
        teams=st.integers(1, 4),
        plan_seed=st.integers(0, 99),
    )
    def open_the_day(self, second_count, puzzles, pieces, teams, plan_seed):
        self.plan_seed = plan_seed
        response = self.clients["head"].post(
            "/api/v1/competitions/",
            {
                "slug": SLUG,
                "name": "Dagen",
                "starts_at": T0.isoformat(),
                "duration_minutes": DURATION_MINUTES,
                "second_count": second_count,
            },
            format="json",
        )
        assert response.status_code == 201, response.content
        self.cid = response.json()["id"]
        self.query = digest_query(self.cid)
        self.digest = read_digest(self.cid, self.query)
        for position in range(1, puzzles + 1):
            self.add_puzzle_at(position, pieces[position - 1])
        for _ in range(teams):
            self.add_team()
        self.note("second count on" if second_count else "second count off")

    # --- setup: the desk and the organiser ---------------------------------------------------
    def add_puzzle_at(self, position: int, pieces: int) -> Answer:
        body = {"position": position, "title": f"Motiv {position}", "pieces": pieces}
        return self.call("head", "post", "/puzzles/", body)

    def add_team(self, members: int = 0) -> None:
        table = next(self.tables)
        body = {"name": f"Hold {table}", "table": table}
        body["members"] = [{"name": f"Puslespiller {n}"} for n in range(members)]
        answer = self.call("desk", "post", "/teams/", body)
        if answer.status == 201:
            self.teams.append(answer.data["id"])

    @during("setup")
    @rule(beyond=st.sampled_from((0, 0, 1, 2)), pieces=st.integers(10, 40))
    def add_puzzle(self, beyond, pieces):
        """A puzzle at N+1, or past it: a gap."""
        position = max((p[1] for p in self.digest.puzzles), default=0) + 1 + beyond
        if beyond:
            self.note("a puzzle added past N+1")
        self.add_puzzle_at(position, pieces)

    @during("setup")
    @rule(index=pick, renumber=st.booleans())
    def remove_puzzle(self, index, renumber):
        """The desk's sequence page removes a puzzle and renumbers the rest; the service
        `puzzle_delete` removes it alone: a gap unless it is the last (no API for either)."""
        puzzles = self.digest.puzzles
        if not puzzles:
            return
        gone = self.one(puzzles, index)
        if renumber:
            rest = [{"id": p[0], "pieces": p[2]} for p in puzzles if p != gone]
            competition = Competition.objects.get(pk=self.cid)
            self.service(
                puzzle_sequence_set, competition=competition, by=USERS["head"], puzzles=rest
            )
        else:
            puzzle = Puzzle.objects.get(pk=gone[0])
            self.service(puzzle_delete, puzzle=puzzle, by=USERS["head"])

    @during("setup")
    @rule(members=st.integers(0, 4))
    def team_signs_up(self, members):
        """A team signs up (its puzzlers make a pace plausible, or not)."""
        self.add_team(members)

    @knows("teams")
    @rule(index=pick, by_head=st.booleans(), undo=st.booleans())
    def withdraw(self, index, by_head, undo):
        """The desk withdraws a no-show; after the start only the head judge, with a reason."""
        body = {"withdrawn": not undo, "reason": "Meldt fra" if by_head else ""}
        self.call(
            "head" if by_head else "desk", "patch", f"/teams/{self.one(self.teams, index)}/", body
        )

    # --- the clock -------------------------------------------------------------------------
    @rule(back=st.one_of(st.none(), st.integers(0, 90), st.integers(0, DURATION_MINUTES * 60 + 60)))
    def start(self, back):
        body = (
            {}
            if back is None
            else {"started_at": (CLOCK.now - timedelta(seconds=back)).isoformat()}
        )
        self.call("head", "post", "/clock/start", body)

    @during("running")
    @rule(shift=st.integers(-120, 120))
    def correct_start(self, shift):
        started = self.digest.started_at or CLOCK.now
        body = {"started_at": (started + timedelta(seconds=shift)).isoformat()}
        if self.call("head", "post", "/clock/correct", body).status == 200:
            self.note("the start corrected")

    @during("running")
    @rule(back=st.one_of(st.none(), st.integers(0, 30), st.integers(0, 900)))
    def stop(self, back):
        body = (
            {}
            if back is None
            else {"stopped_at": (CLOCK.now - timedelta(seconds=back)).isoformat()}
        )
        if self.call("head", "post", "/clock/stop", body).status == 200:
            self.note("the clock stopped early")

    @during("ended")
    @rule(wait=st.sampled_from((0, 0, 30, 150)))
    def undo_stop(self, wait):
        """The undo of a mistaken stop, within two minutes of it (or too late)."""
        CLOCK.now += timedelta(seconds=wait)
        if self.call("head", "post", "/clock/stop/undo").status == 200:
            self.note("the stop undone")

    @during("running", "ended")
    @rule(seconds=st.one_of(st.integers(1, 30), st.integers(30, 400)))
    def time_passes(self, seconds):
        CLOCK.now += timedelta(seconds=seconds)

    @during("running")
    @rule(after=st.integers(0, 30))
    def time_is_up(self, after):
        """The clock ends by itself at start + duration (R10)."""
        CLOCK.now = max(CLOCK.now, self.clock_end + timedelta(seconds=after))
        self.note("time is up")

    # --- the judges: finishes ----------------------------------------------------------------
    def tap(self, team: int, who: str, *, elapsed, position=None, missing=(), confirm=True):
        """A finish for `team`: it must be registered exactly when the rules take it."""
        position = position or len(self.digest.finishes_of(team)) + 1
        rid = self.new_rid()
        body = {
            "team": team,
            "puzzle": position,
            "missing": list(missing),
            "elapsed_seconds": elapsed,
            "request_id": str(rid),
            "confirm_implausible": confirm,
        }
        must, may = self.must_register(team, position, elapsed)
        count = self.digest.count_of(team)
        if count is not None and ("count", count[0]) in self.decided and who != "head":
            must = None  # it would void a count an objection decided: `decided`
        answer = self.send("finish", who, "/finishes/", body, rid)
        if not may:
            assert answer.status != 201, f"a finish the rules refuse was registered: {body}"
        if must is not None and not (not confirm and answer.code == "implausible"):
            assert answer.status == 201, (
                f"a finish lost: {body} must be registered at {must}: {answer}"
            )
            assert answer.data["elapsed_seconds"] == must, f"{body} registered at the wrong time"
        return answer

    @knows("teams")
    @rule(
        index=pick,
        who=judge,
        skew=st.integers(-TOLERANCE, TOLERANCE),
        delay=st.sampled_from((0, 0, 0, 1, 4, 15, 60)),
        board=st.sampled_from((0, 0, 0, 0, 0, -1, 1)),
        at_the_tap=st.booleans(),
        confirm=st.sampled_from((True, True, True, False)),
    )
    def tap_finish(self, index, who, skew, delay, board, at_the_tap, confirm):
        """A tap on a tablet: its time taken `delay` s ago on a clock `skew` s off, or the
        server's now; a board out of date taps the wrong puzzle."""
        team = self.one(self.teams, index)
        position = max(1, len(self.digest.finishes_of(team)) + 1 + board)
        elapsed = None
        if at_the_tap and self.digest.started_at is not None:
            elapsed = self.seconds(CLOCK.now - timedelta(seconds=delay - skew))
        self.tap(team, who, elapsed=elapsed, position=position, confirm=confirm)

    @during("running")
    @rule(index=pick, who=judge, before=st.integers(0, 8), skew=st.integers(-TOLERANCE, TOLERANCE))
    def last_seconds(self, index, who, before, skew):
        """The clock's last seconds: a tap from a tablet up to 5 s ahead or behind."""
        teams = self.competing(unfinished=True)
        if teams:
            CLOCK.now = max(CLOCK.now, self.clock_end - timedelta(seconds=before))
            answer = self.tap(self.one(teams, index), who, elapsed=self.seconds(CLOCK.now) + skew)
            if answer.status == 201:
                self.note("a tap in the last seconds registered")

    @during("running", "ended")
    @knows("teams")
    @rule(
        index=pick,
        who=judge,
        elapsed=st.integers(0, DURATION_MINUTES * 60 + 60),
        missing=st.lists(st.integers(1, 3), max_size=2),
    )
    def paper_finish(self, index, who, elapsed, missing):
        """A time from a paper judge sheet (the tablet died), with its missing spots."""
        self.tap(self.one(self.teams, index), who, elapsed=elapsed, missing=missing)

    @knows("finishes")
    @rule(
        index=pick,
        who=anyone,
        shift=st.integers(-90, 20),
        missing=st.one_of(st.none(), st.lists(st.integers(1, 3), max_size=2)),
    )
    def correct_finish(self, index, who, shift, missing):
        finish = self.one(self.finishes, index)
        row = self.digest.finish(finish)
        body = {"reason": "Rettet", "elapsed_seconds": max(0, (row[4] if row else 0) + shift)}
        if missing is not None:
            body["missing"] = missing
        self.touch(("finish", finish), who, "patch", f"/finishes/{finish}/", body)

    @knows("finishes")
    @rule(index=pick, who=anyone)
    def delete_finish(self, index, who):
        finish = self.one(self.finishes, index)
        self.touch(("finish", finish), who, "delete", f"/finishes/{finish}/", {"reason": "Fejl"})

    @knows("finishes")
    @rule(index=pick, who=anyone)
    def delete_an_earlier_finish(self, index, who):
        """An undo of a finish that is not its team's latest (`not_latest`): left to
        delete_finish's draw alone a rare path, and one change elsewhere made it 0."""
        earlier = [f[0] for team in self.teams for f in self.digest.finishes_of(team)[:-1]]
        if earlier:
            finish = self.one(sorted(earlier), index)
            self.touch(
                ("finish", finish), who, "delete", f"/finishes/{finish}/", {"reason": "Fejl"}
            )

    def touch(self, key: tuple, who: str, method: str, path: str, body: dict) -> Answer:
        """A change of a record by its id, which may be gone: then 404 (a stale id)."""
        gone = key not in self.digest.records()
        if key in self.decided and who != "head":
            self.note("decided, then a judge's change")
        answer = self.call(who, method, path, body)
        if gone:
            self.note(f"a stale {key[0]} id")
            assert answer.status == 404, f"{method} {path} of a deleted {key[0]}: {answer}"
        return answer

    # --- the judges: counts ----------------------------------------------------------------
    def count_team(self, team: int, who: str, pieces: int, by_piles=False, loose=0) -> Answer:
        d = self.digest
        puzzle = d.pieces_at(len(d.finishes_of(team)) + 1)
        rid = self.new_rid()
        body = {"team": team, "pieces": pieces, "request_id": str(rid)}
        placed = pieces
        if by_piles and puzzle:
            unplaced = max(0, puzzle - pieces - loose)
            body = {"team": team, "unplaced": unplaced, "loose": loose, "request_id": str(rid)}
            placed = puzzle - unplaced - loose if puzzle - unplaced - loose >= 0 else None
        must = self.must_count(team, placed)
        answer = self.send("count", who, "/counts/", body, rid)
        if must is not None:
            assert (answer.status == 201) == must, f"count {body}: must be taken is {must}"
        return answer

    @during("running", "ended")
    @knows("teams")
    @rule(
        index=pick,
        who=judge,
        pieces=st.one_of(st.integers(0, 45), st.sampled_from((1, 2))),
        by_piles=st.booleans(),
        loose=st.integers(0, 3),
    )
    def count(self, index, who, pieces, by_piles, loose):
        self.count_team(self.one(self.teams, index), who, pieces, by_piles, loose)

    @during("ended")
    @knows("counts")
    @rule(index=pick, who=anyone, off=st.sampled_from((0, 0, 0, 0, 1, -3)))
    def confirm(self, index, who, off):
        """The second, blind count: the same number, or another."""
        count = self.one(self.counts, index)
        row = self.digest.count(count)
        rid = self.new_rid()
        body = {"pieces": max(0, (row[3] if row else 10) + off), "request_id": str(rid)}
        answer = self.send("confirm", who, f"/counts/{count}/confirm", body, rid)
        if row is None:
            self.note("a stale count id")
            assert answer.status == 404, answer

    @during("ended")
    @knows("counts")
    @rule(index=pick, who=anyone, pieces=st.integers(0, 45))
    def correct_count(self, index, who, pieces):
        """docs/contracts.md "The second count": before it is confirmed only the judge who counted
        or the head judge corrects a count; after `count_differs` the head judge settles it."""
        count = self.one(self.counts, index)
        row = self.digest.count(count)
        answer = self.touch(
            ("count", count),
            who,
            "patch",
            f"/counts/{count}/",
            {"pieces": pieces, "reason": "Talt om"},
        )
        theirs = row is not None and row[6] == USERS[who].pk and row[10] is None
        if row is not None and who != "head" and self.digest.second_count and not theirs:
            assert answer.status != 200, f"{who} corrected a count that is not theirs: {row}"
        if answer.status == 200:
            self.setters[count].add(USERS[who].pk)

    @during("running")
    @knows("teams")
    @rule(index=pick, who=judge)
    def warn(self, index, who):
        rid = self.new_rid()
        team = self.one(self.teams, index)
        self.send(
            "warning",
            who,
            f"/teams/{team}/warnings/",
            {"reason": "Støj", "request_id": str(rid)},
            rid,
        )

    @rule(who=judge, waiting=st.sampled_from((0, 0, 1, 3)))
    def heartbeat(self, who, waiting):
        """A tablet reports its outbox: taps waiting make finalise wait (`taps_waiting`)."""
        self.call(
            who, "post", "/tablets/heartbeat", {"device_id": f"tablet-{who}", "waiting": waiting}
        )

    # --- late cancels and resends ----------------------------------------------------------
    def cancel_rid(self, rid: UUID, who: str) -> Answer:
        self.late(rid, "cancel")
        answer = self.call(who, "post", f"/requests/{rid}/cancel")
        if answer.status == 200:
            self.cancelled.add(rid)
        return answer

    @rule(index=pick, who=judge, unknown=st.booleans())
    def cancel(self, index, who, unknown):
        """The tablet's undo of a tap whose answer never came; an unknown id is a tap that
        has not arrived yet (it arrives later, as a resend, and must be `undone`)."""
        if unknown or not self.sent:
            rid = self.new_rid()
            team = self.teams[index % len(self.teams)] if self.teams else 0
            body = {"team": team, "puzzle": 1, "missing": [], "request_id": str(rid)}
            self.sent[rid] = Sent("finish", "/finishes/", body, who)
        else:
            rid = self.one(sorted(self.sent), index)
        self.cancel_rid(rid, who)

    @knows("sent")
    @rule(index=pick)
    def resend(self, index):
        """A lost answer: the same request again, exactly as first sent."""
        rid = self.one(sorted(self.sent), index)
        sent = self.sent[rid]
        self.late(rid, "resend")
        answer = self.send(sent.kind, sent.who, sent.path, sent.body, rid)
        if rid in self.cancelled:
            assert answer.status not in (200, 201), f"resend of cancelled {rid}: {answer}"

    @knows("sent")
    @rule(index=pick, shift=st.integers(1, 30))
    def resend_changed(self, index, shift):
        """The same request id with another body: 422 once the id is known, nothing written."""
        rid = self.one(sorted(self.sent), index)
        sent = self.sent[rid]
        body = dict(sent.body)
        for field in ("elapsed_seconds", "pieces", "unplaced"):
            if field in body:
                body[field] = (body[field] or 0) + shift
        body["reason"] = "Støj igen" if sent.kind == "warning" else body.get("reason")
        body = {k: v for k, v in body.items() if v is not None}
        answer = self.call(sent.who, "post", sent.path, body)
        self.received(rid, sent.kind, sent.who, answer)

    # --- objections and decisions ------------------------------------------------------------
    @during("running", "ended")
    @knows("teams")
    @rule(
        index=pick, about=st.sampled_from(("finish", "finish", "count", "count", "")), record=pick
    )
    def object(self, index, about, record):
        """The desk files a team's objection about a finish, a count, or the day."""
        known = {"finish": self.finishes, "count": self.counts}.get(about)
        body = {"team": self.one(self.teams, index), "text": f"Indsigelse {len(self.objections)}"}
        if known:
            key = (about, self.one(known, record))
            body["team"] = self.loaded[key].team_id
            body[about] = key[1]
        answer = self.call("desk", "post", "/objections/", body)
        if answer.status == 201:
            self.remember("objection", answer.data["id"])

    def decide(self, objection: int, upheld: bool, correction: dict) -> Answer:
        body = {"decision": "upheld" if upheld else "rejected", "note": "Afgjort", **correction}
        answer = self.call("head", "post", f"/objections/{objection}/resolve", body)
        if answer.status == 200:
            row = next(o for o in self.digest.objections if o[0] == objection)
            records = self.digest.records()
            for key in (("finish", row[2]), ("count", row[3])):
                if key[1] is not None:
                    self.decided[key] = records.get(key)
                    self.note(f"a {key[0]} decided")
        return answer

    @during("ended")
    @knows("objections")
    @rule(
        index=pick,
        upheld=st.booleans(),
        correct=st.booleans(),
        shift=st.integers(-60, 0),
        pieces=st.integers(0, 45),
    )
    def resolve(self, index, upheld, correct, shift, pieces):
        objection = self.one(self.objections, index)
        loaded = self.loaded[("objection", objection)]
        correction = {}
        if upheld and correct and loaded.finish_id:
            row = self.digest.finish(loaded.finish_id)
            correction = {"elapsed_seconds": max(0, (row[4] if row else 0) + shift)}
        elif upheld and correct and loaded.count_id:
            correction = {"pieces": pieces}
        self.decide(objection, upheld, correction)

    @knows("decided")
    @rule(index=pick, who=judge, how=st.sampled_from(("correct", "delete", "cancel")))
    def judge_changes_decided(self, index, who, how):
        """A judge (not the head judge) changes what an objection decided, or a tablet's
        late cancel of the tap that created it arrives."""
        kind, record = key = self.one(sorted(self.decided), index)
        if how == "cancel" and key in self.rid_of:
            self.cancel_rid(self.rid_of[key], who)
        elif kind == "finish" and how == "delete":
            self.touch(key, who, "delete", f"/finishes/{record}/", {"reason": "Fejl"})
        elif kind == "finish":
            row = self.digest.finish(record)
            body = {"reason": "Rettet", "elapsed_seconds": max(0, (row[4] if row else 1) - 1)}
            self.touch(key, who, "patch", f"/finishes/{record}/", body)
        else:
            row = self.digest.count(record)
            body = {"reason": "Talt om", "pieces": (row[3] if row else 0) + 3}
            self.touch(key, who, "patch", f"/counts/{record}/", body)

    @knows("decided")
    @rule(index=pick, who=judge)
    def late_cancel_of_decided(self, index, who):
        """A tablet's late cancel of the tap that made a record an objection decided: left to
        judge_changes_decided's draw alone it came in 2 days of 168, and a change elsewhere
        in the day's paths made it 0."""
        with_rid = sorted(key for key in self.decided if key in self.rid_of)
        if with_rid:
            self.cancel_rid(self.rid_of[self.one(with_rid, index)], who)

    # --- the head judge --------------------------------------------------------------------
    @during("running", "ended")
    @knows("teams")
    @rule(index=pick, reinstate=st.booleans())
    def discipline(self, index, reinstate):
        action = "reinstate" if reinstate else "disqualify"
        self.call(
            "head", "post", f"/teams/{self.one(self.teams, index)}/{action}", {"reason": "R14"}
        )

    def finalise_now(self, override: bool) -> Answer:
        must = self.must_finalise(override)
        body = {"override": True, "reason": "Tabletten er væk"} if override else {}
        answer = self.call("head", "post", "/finalise", body)
        if must is not None:
            assert (answer.status == 200) == must, f"finalise: must be final is {must}: {answer}"
        if answer.status == 200:
            self.frozen = self.digest.without_tablets()
            self.note("final")
            if override and any(t[1] > 0 for t in self.digest.tablets):
                self.note("final with the override")
        return answer

    @rule(override=st.booleans())
    def finalise(self, override):
        self.finalise_now(override)

    @rule(
        which=st.sampled_from(
            (
                ("judge1", "post", "/finalise"),
                ("judge2", "post", "/clock/stop"),
                ("judge1", "post", "/objections/1/resolve"),
                ("desk", "post", "/finishes/"),
                ("desk", "post", "/counts/"),
            )
        )
    )
    def wrong_role(self, which):
        """Each role has its rights: the wrong one gets 403 and writes nothing."""
        who, method, path = which
        self.call(who, method, path, {}, forbidden=True)

    # --- a record that vanished between the view and the lock ----------
    @knows("loaded")
    @rule(
        index=pick, action=st.sampled_from(("correct", "delete", "recount", "confirm", "resolve"))
    )
    def vanished_before_the_lock(self, index, action):
        """The view loaded the record before an undo, a void or a delete committed: the
        service, under its lock, must answer 404 or 409, never a 500."""
        kind, module = {
            "correct": ("finish", finishes_api),
            "delete": ("finish", finishes_api),
            "recount": ("count", counts_api),
            "confirm": ("count", counts_api),
            "resolve": ("objection", objections_api),
        }[action]
        keys = sorted(k for k in self.loaded if k[0] == kind)
        if not keys:
            return
        key = self.one(keys, index)
        stale = self.loaded[key]
        path = f"/{kind}s/{key[1]}/"
        if action == "correct":
            method, body = "patch", {"reason": "Ret", "elapsed_seconds": 1}
        elif action == "delete":
            method, body = "delete", {}
        elif action == "recount":
            method, body = "patch", {"reason": "Ret", "pieces": 0}
        elif action == "confirm":
            method, body, path = "post", {"pieces": 0}, f"/counts/{key[1]}/confirm"
        else:
            method, path = "post", f"/objections/{key[1]}/resolve"
            correction = {"elapsed_seconds": 1} if stale.finish_id else {"pieces": 0}
            body = {"decision": "upheld", "note": "Ret", **correction}
        real = module.get_object_or_404

        def loads_the_old_record(klass, *args, **kwargs):
            model = getattr(klass, "model", klass)
            return stale if model is type(stale) else real(klass, *args, **kwargs)

        records = self.digest.records()
        gone = (
            key not in records
            if kind != "objection"
            else (
                (stale.finish_id and ("finish", stale.finish_id) not in records)
                or (stale.count_id and ("count", stale.count_id) not in records)
            )
        )
        with mock.patch.object(module, "get_object_or_404", loads_the_old_record):
            answer = self.call("head", method, path, body)
        if gone:
            self.note(f"a {kind} vanished before the lock")
            assert answer.status in (400, 404, 409), f"{method} {path}: {answer}"

    # --- the day plan ------------------------------------------------------------------------
    def get_on_with_the_day(self, choice: int) -> None:
        """What the head judge, the desk and the judges do next to reach the final results."""
        phase = self.phase
        if phase == "setup":
            self.plan_setup(choice)
        elif phase == "running":
            self.plan_running(choice)
        elif phase == "ended":
            for _ in range(1 + choice % 2):
                if self.phase != "ended" or not self.plan_ended(choice):
                    break

    def plan_setup(self, choice: int) -> None:
        positions = [p[1] for p in self.digest.puzzles]
        missing = [n for n in range(1, len(positions) + 1) if n not in positions]
        if not missing and len(positions) > 1 and choice < 12:  # the desk removes puzzle 1
            first = Puzzle.objects.get(pk=self.digest.puzzles[0][0])
            self.service(puzzle_delete, puzzle=first, by=USERS["head"])
            self.call("head", "post", "/clock/start", {})  # over the gap: `puzzle_sequence`
        elif missing and choice >= 30:  # a gap: the organiser fills it
            self.add_puzzle_at(missing[0], 10 + choice % 30)
        elif not positions or (choice < 10 and len(positions) < 3):
            if not positions:  # the head judge starts too soon: `no_puzzles`
                self.call("head", "post", "/clock/start", {})
            self.add_puzzle_at(len(positions) + 1, 10 + choice % 30)
        elif not self.competing() and not missing:
            self.add_team()
        else:
            started = CLOCK.now - timedelta(seconds=choice % 40)
            self.call("head", "post", "/clock/start", {"started_at": started.isoformat()})

    def plan_running(self, choice: int) -> None:
        teams = self.competing(unfinished=True)
        if teams and choice < 55:
            skew = choice % (2 * TOLERANCE + 1) - TOLERANCE
            now = self.seconds(CLOCK.now)
            self.tap(self.one(teams, choice), JUDGES[choice % 2], elapsed=now + skew)
        elif self.digest.finishes and choice >= 96:  # a stop back-dated before a finish
            latest = max(f[4] for f in self.digest.finishes)
            stopped = self.digest.started_at + timedelta(seconds=max(0, latest - 1))
            self.call("head", "post", "/clock/stop", {"stopped_at": stopped.isoformat()})
        else:
            CLOCK.now += timedelta(seconds=30 + 2 * choice)

    def plan_ended(self, choice: int) -> bool:
        """One thing that stands between the day and its final results; False: finalised."""
        d = self.digest
        waiting = [t for t in d.tablets if t[1] > 0]
        if waiting and choice >= 30:
            if choice < 45:  # finalise before the tablet is back: `taps_waiting`
                self.finalise_now(override=False)
            device = waiting[0][0]
            self.call(
                device.removeprefix("tablet-"),
                "post",
                "/tablets/heartbeat",
                {"device_id": device, "waiting": 0},
            )
            return True
        if self.decided and choice < 15:  # a judge's late change of what was decided
            self.judge_changes_decided(
                choice, JUDGES[choice % 2], ("correct", "delete", "cancel")[choice % 3]
            )
        done = [t for t in self.competing() if len(d.finishes_of(t)) == len(d.puzzles)]
        if done and choice < 8:  # a count for a team that finished everything
            self.count_team(self.one(done, choice), JUDGES[choice % 2], 3)
        open_objection = next((o for o in d.objections if o[4] == "open"), None)
        if open_objection is not None:
            self.decide(open_objection[0], bool(choice % 2), {})
            return True
        for team in self.competing(unfinished=True):
            if d.count_of(team) is None:
                pieces = d.pieces_at(len(d.finishes_of(team)) + 1) or 10
                self.count_team(
                    team, JUDGES[choice % 2], 3 + choice % (pieces - 3) if choice % 5 else 0
                )
                return True
        for team in self.competing() if d.second_count else ():
            count = d.count_of(team)
            if count is None or count[9] is not None:
                continue
            if count[10] is not None:  # the counts differ: the head judge settles it
                self.call(
                    "head",
                    "patch",
                    f"/counts/{count[0]}/",
                    {"pieces": count[10], "reason": "Talt igen"},
                )
                self.note("a difference settled")
            elif choice < 12 and self.name_of.get(count[6]) in JUDGES:  # not theirs to correct
                other = "judge2" if self.name_of.get(count[6]) == "judge1" else "judge1"
                body = {"pieces": count[3], "reason": "Talt om"}
                answer = self.call(other, "patch", f"/counts/{count[0]}/", body)
                assert answer.code in ("count_not_yours", "decided"), answer
            else:
                other = "judge2" if self.name_of.get(count[6]) == "judge1" else "judge1"
                rid = self.new_rid()
                pieces = count[3] if choice < 85 else count[3] + 3
                self.send(
                    "confirm",
                    other,
                    f"/counts/{count[0]}/confirm",
                    {"pieces": pieces, "request_id": str(rid)},
                    rid,
                )
            return True
        self.finalise_now(override=bool(waiting))
        return False

    def plan(self) -> None:
        self.turn += 1
        self.get_on_with_the_day((self.plan_seed + 37 * self.turn) % 100)

    # The day plan under five names: hypothesis turns a random share of the rules off for
    # each example (swarm testing); with five, 5 days in 6 keep at least one of them.
    plan_a = plan_rule("plan_a")
    plan_b = plan_rule("plan_b")
    plan_c = plan_rule("plan_c")
    plan_d = plan_rule("plan_d")
    plan_e = plan_rule("plan_e")

    # --- what must always hold ---------------------------------------------------------------
    @invariant()
    def the_day_holds(self):
        d = self.digest
        if d is None:
            return
        self.clock_over_a_sequence(d)
        self.times_and_counts(d)
        self.request_ids_hold(d)
        self.confirmed_by_another(d)
        self.standings_are_the_rules(d)

    def clock_over_a_sequence(self, d: Digest) -> None:
        """R7: the clock runs only over a puzzle sequence 1..N."""
        if d.started_at is not None:
            positions = [p[1] for p in d.puzzles]
            assert positions == list(range(1, len(positions) + 1)) and positions, (
                f"the clock started over the sequence {positions}"
            )

    def times_and_counts(self, d: Digest) -> None:
        """R10: every finish at or before the clock's end (and its now); R9: every count on
        the team's next puzzle, once time is up."""
        if d.started_at is None:
            assert not d.finishes and not d.counts
            return
        end_s, now_s = self.seconds(self.clock_end), self.seconds(CLOCK.now)
        for f in d.finishes:
            assert f[4] <= min(end_s, now_s), f"finish {f} after the clock's end {end_s} or now"
        for c in d.counts:
            assert CLOCK.now >= self.clock_end, f"count {c} while the clock runs"
            assert c[2] == len(d.finishes_of(c[1])) + 1, f"count {c} not on the next puzzle"

    def request_ids_hold(self, d: Digest) -> None:
        """A request id made one record, the one its first answer named; none after a cancel."""
        rows = {r[0]: r for r in d.request_ids}
        made = {f[6]: f[0] for f in d.finishes if f[6]}
        made |= {c[7]: c[0] for c in d.counts if c[7]}
        made |= {w[2]: w[0] for w in d.warnings if w[2]}
        for rid in self.cancelled:
            assert rid not in made, f"request {rid} has a record after its cancel"
            assert rid in rows and rows[rid][2] != "created", f"request {rid} not kept as undone"
        for rid, record in made.items():
            assert self.created.get(rid) == record, (
                f"request {rid} made {record}, answered otherwise"
            )
        for rid, record in self.created.items():
            if self.sent[rid].kind != "confirm":
                assert rid in rows and rows[rid][3] == record, f"request {rid}: its row lost"

    def confirmed_by_another(self, d: Digest) -> None:
        """docs/contracts.md "The second count": two people agree on a count, or the head judge
        settles it."""
        head = USERS["head"].pk
        for c in d.counts:
            if c[9] is not None and c[8] != head:
                setters = self.setters.get(c[0], set()) | {c[6]}
                assert c[8] not in setters, f"count {c} confirmed by one who set its number"

    def public_standings_hold(self, d: Digest, public: dict) -> None:
        want = expected_rows(d, public=True)
        assert served_rows(public) == want, f"public standings {served_rows(public)} != {want}"
        for row in public["standings"]:
            count = d.count_of(row["team"]["id"])
            counting = count is not None and d.second_count and count[9] is None
            assert bool(row.get("counting")) == counting, f"public `counting` of {row}"

    def standings_are_the_rules(self, d: Digest) -> None:
        """The staff standings are the rules over the database; the public ones over what is
        public: an unconfirmed count is `counting`, without its number."""
        phase = self.phase
        if self.checked == (d, phase):
            return
        self.checked = (d, phase)
        staff = self.staff_reader.get(self.base + "/standings").json()
        memo_clear()  # as another process would read it, not this one's last second
        public = self.anonymous.get(self.base + "/standings").json()
        assert staff["status"] == public["status"] == STATUS[phase]
        if [p[1] for p in d.puzzles] != list(range(1, len(d.puzzles) + 1)):
            # A gap, before the start only (`clock_over_a_sequence`): the rules have no
            # standings for it, and staff are told why.
            assert phase == "setup" and staff["error"]["code"] == "puzzle_sequence", staff
            return
        assert "error" not in staff, staff.get("error")
        want = expected_rows(d, public=False)
        assert served_rows(staff) == want, f"staff standings {served_rows(staff)} != {want}"
        self.public_standings_hold(d, public)
        if self.frozen is not None:
            if self.frozen_bodies is None:
                self.frozen_bodies = (staff, public)
            assert (staff, public) == self.frozen_bodies, "the final standings changed"
