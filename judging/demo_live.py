"""`manage.py demo --live`: play the demo competition in accelerated time, through the services.

The clock is started back-dated so that it ends `seconds` from now; competition time e is
posted at real offset e × seconds / duration, which never runs ahead of the clock. Judges
register finishes with realistic paces, a few lone missing pieces and production faults;
when time is up every team with an unfinished puzzle is counted.
"""

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone

from competition.errors import Refusal
from competition.models import Competition, Team
from competition.services import clock_start, staff_upsert
from judging.services import count_record, finish_register
from scoring.formatting import format_hms
from scoring.rules import deducted

# Minutes a team needs for a puzzle of this many pieces: (fastest, slowest).
PACES = {500: (25, 60), 1000: (55, 120)}


@dataclass(frozen=True)
class Planned:
    elapsed_seconds: int
    team: Team
    position: int
    missing: tuple[int, ...]


def _user(username: str, role: str):
    user = get_user_model().objects.filter(username=username).first()
    if user is None:  # DEBUG off: the demo made no logins; one without a password will do
        user, _, _ = staff_upsert(username=username, role=role)
    return user


def _minutes(pieces: int, skill: float) -> float:
    fastest, slowest = PACES.get(pieces) or (pieces / 20, pieces / 8)
    return fastest + (slowest - fastest) * skill


def _missing(rng: random.Random) -> tuple[int, ...]:
    roll = rng.random()
    if roll < 0.15:
        return (1,)  # a lone missing piece: deducted (R8)
    if roll < 0.25:
        return (rng.randint(2, 4),)  # adjacent missing pieces: a production fault
    if roll < 0.28:
        return (1, 2)
    return ()


def plan(competition: Competition, teams: list[Team], rng: random.Random) -> list[Planned]:
    """Every finish of the competition, in competition time, ordered by time."""
    puzzles = list(competition.puzzles.order_by("position"))
    duration = competition.duration_minutes * 60
    events = []
    spots = random.Random(rng.random())  # missing pieces drawn apart from the paces
    for team in teams:
        skill = rng.random()
        at = 0.0
        for puzzle in puzzles:
            wobble = min(1.0, max(0.0, skill + rng.gauss(0, 0.1)))
            at += _minutes(puzzle.pieces, wobble) * 60
            if at > duration:
                break
            events.append(Planned(int(at), team, puzzle.position, _missing(spots)))
    return sorted(events, key=lambda e: (e.elapsed_seconds, e.team.table))


def _line(team: Team, text: str, at: int) -> str:
    return f"{format_hms(at):>8}  table {team.table:>2} {team.name}: {text}\n"


def play(
    *,
    slug: str,
    seconds: int,
    out,
    seed: int = 2026,
    sleep: Callable[[float], None] = time.sleep,
) -> None:
    """Run the competition `slug` to its end in `seconds` real seconds, then count."""
    competition = Competition.objects.get(slug=slug)
    if competition.started_at is not None:
        out.write(
            f"The clock of “{competition.name}” has already started "
            f"({timezone.localtime(competition.started_at):%H:%M:%S}); nothing played.\n"
        )
        return
    duration = competition.duration_minutes * 60
    seconds = max(1, min(int(seconds), duration))
    rng = random.Random(seed)
    judge, admin = _user("judge", "judge"), _user("admin", "admin")
    teams = [t for t in competition.teams.order_by("table") if t.competing]
    events = plan(competition, teams, rng)

    started_at = timezone.now() - timedelta(seconds=duration - seconds)
    competition = clock_start(competition=competition, by=admin, started_at=started_at)
    began = time.monotonic()
    out.write(
        f"The clock of “{competition.name}” runs: {format_hms(duration)} of competition time "
        f"in {seconds} s, starting at {format_hms(duration - seconds)}.\n"
    )

    scale = seconds / duration
    finishes = 0
    for event in events:
        wait = began + event.elapsed_seconds * scale - time.monotonic()
        if wait > 0:
            sleep(wait)
        try:
            finish_register(
                team=event.team,
                position=event.position,
                by=judge,
                missing=event.missing,
                elapsed_seconds=event.elapsed_seconds,
            )
        except Refusal as refusal:
            out.write(_line(event.team, f"refused ({refusal.code}): {refusal.message}", 0))
            continue
        finishes += 1
        note = ""
        if event.missing:
            note = f", missing {list(event.missing)}: {deducted(event.missing)} deducted"
        out.write(
            _line(event.team, f"puzzle {event.position} finished{note}", event.elapsed_seconds)
        )

    # Time is up (R10): wait for the clock's end, then count every unfinished puzzle (R9).
    while not competition.has_ended():
        sleep(max(0.05, (competition.clock_end - timezone.now()).total_seconds()))
    out.write(f"{format_hms(duration):>8}  Time is up: counting the unfinished puzzles.\n")
    counts = 0
    for team in teams:
        times = list(team.finishes.values_list("elapsed_seconds", flat=True))
        puzzle = competition.puzzles.filter(position=len(times) + 1).first()
        if puzzle is None:
            continue
        last = max(times, default=0)
        share = min(0.95, (duration - last) / 60 / _minutes(puzzle.pieces, rng.random()))
        placed = int(puzzle.pieces * share)
        placed = 0 if placed < 3 else placed
        if rng.random() < 0.5:
            kwargs = {"pieces": placed}
        else:
            loose = min(rng.randint(0, 8), puzzle.pieces - placed)
            kwargs = {"unplaced": puzzle.pieces - placed - loose, "loose": loose}
        count = count_record(team=team, by=judge, **kwargs)
        counts += 1
        out.write(_line(team, f"puzzle {puzzle.position} counted: {count.pieces} pieces", duration))
    out.write(
        f"Done: {finishes} finishes and {counts} counts. The leaderboard: /{competition.slug}/\n"
    )
