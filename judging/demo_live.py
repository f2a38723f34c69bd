"""`manage.py demo --live`: play the demo's competitions at once in accelerated time, through
the services.

Each competition's clock is started back-dated so that it ends `seconds` from now; its
competition time e is posted at real offset e × seconds / duration, which never runs ahead of
its clock. Judges register finishes at the discipline's pace (one puzzler is slower than a
team), with a few lone missing pieces and production faults; when time is up every entrant
with an unfinished puzzle is counted. The competitions in `finalise` are then made final
(the head judge confirms each count as the second count, R20), so that the best of them can
go on to the next round.
"""

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone

from competition.errors import Refusal
from competition.models import Competition, Team
from competition.services import clock_start, staff_upsert
from judging.models import Count
from judging.services import (
    competition_finalise,
    count_confirm,
    count_record,
    finish_register,
)
from puzzle_rules.formatting import format_hms
from puzzle_rules.rules import deducted

# Minutes an entrant of each discipline needs for a puzzle of this many pieces:
# (fastest, slowest). Four puzzlers are faster than two, two faster than one.
PACES = {
    "team": {500: (25, 60), 1000: (55, 120)},
    "pair": {500: (35, 80), 1000: (75, 160)},
    "individual": {500: (45, 100), 1000: (95, 200)},
}


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


def _minutes(pieces: int, skill: float, discipline: str = "team") -> float:
    paces = PACES.get(discipline, PACES["team"])
    fastest, slowest = paces.get(pieces) or (pieces / 20, pieces / 8)
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
            at += _minutes(puzzle.pieces, wobble, competition.discipline) * 60
            if at > duration:
                break
            events.append(Planned(int(at), team, puzzle.position, _missing(spots)))
    return sorted(events, key=lambda e: (e.elapsed_seconds, e.team.table))


def _line(team: Team, text: str, at: int, where: str = "") -> str:
    return f"{format_hms(at):>8}  {where}table {team.table:>2} {team.name}: {text}\n"


def _label(competition: Competition) -> str:
    return f"{competition.slug}, "


def _playable(slugs: Sequence[str], out) -> list[Competition]:
    """The competitions of `slugs` whose clock has not started and that have entrants and
    puzzles; a line for each that is left out."""
    found = {c.slug: c for c in Competition.objects.filter(slug__in=slugs)}
    playable = []
    for slug in slugs:
        competition = found.get(slug)
        if competition is None:
            continue
        if competition.started_at is not None:
            out.write(
                f"The clock of “{competition.name}” has already started "
                f"({timezone.localtime(competition.started_at):%H:%M:%S}); nothing played.\n"
            )
        elif not competition.puzzles.exists() or not competition.teams.exists():
            out.write(f"“{competition.name}” has no entrants yet; nothing played.\n")
        else:
            playable.append(competition)
    return playable


def play(
    *,
    slugs: Sequence[str],
    seconds: int,
    out,
    seed: int = 2026,
    sleep: Callable[[float], None] = time.sleep,
    finalise: Sequence[str] = (),
) -> list[Competition]:
    """Run the competitions `slugs` that have not started, at once, each to its end in
    `seconds` real seconds; then count, and make the ones in `finalise` final. Returns the
    competitions played."""
    competitions = _playable(slugs, out)
    if not competitions:
        return []
    rng = random.Random(seed)
    judge, admin = _user("judge", "judge"), _user("admin", "admin")
    entrants = {}
    events = []  # (real offset in seconds, competition, planned finish)
    now = timezone.now()
    for competition in competitions:
        duration = competition.duration_minutes * 60
        real = max(1, min(int(seconds), duration))
        teams = [t for t in competition.teams.order_by("table") if t.competing]
        entrants[competition.pk] = teams
        planned = plan(competition, teams, rng)
        started_at = now - timedelta(seconds=duration - real)
        competition = clock_start(competition=competition, by=admin, started_at=started_at)
        scale = real / duration
        events += [(e.elapsed_seconds * scale, competition, e) for e in planned]
        out.write(
            f"The clock of “{competition.name}” runs: {format_hms(duration)} of competition "
            f"time in {real} s, starting at {format_hms(duration - real)}.\n"
        )
    began = time.monotonic()
    events.sort(key=lambda item: (item[0], item[1].slug, item[2].team.table))
    finishes = 0
    for offset, competition, event in events:
        wait = began + offset - time.monotonic()
        if wait > 0:
            sleep(wait)
        where = _label(competition)
        try:
            finish_register(
                team=event.team,
                position=event.position,
                by=judge,
                missing=event.missing,
                elapsed_seconds=event.elapsed_seconds,
            )
        except Refusal as refusal:
            out.write(_line(event.team, f"refused ({refusal.code}): {refusal.message}", 0, where))
            continue
        finishes += 1
        note = ""
        if event.missing:
            note = f", missing {list(event.missing)}: {deducted(event.missing)} deducted"
        out.write(
            _line(
                event.team, f"puzzle {event.position} finished{note}", event.elapsed_seconds, where
            )
        )

    counts = 0
    for competition in [Competition.objects.get(pk=c.pk) for c in competitions]:
        # Time is up (R10): wait for the clock's end, then count every unfinished puzzle (R9).
        while not competition.has_ended():
            sleep(max(0.05, (competition.clock_end - timezone.now()).total_seconds()))
        counts += _count(competition, entrants[competition.pk], judge, rng, out)
        if competition.slug in finalise:
            _finalise(competition, admin, out)
    out.write(f"Done: {finishes} finishes and {counts} counts.\n")
    for competition in competitions:
        out.write(f"  the leaderboard: /{competition.slug}/\n")
    return competitions


def _count(competition: Competition, teams: list[Team], judge, rng, out) -> int:
    """Time is up: the judge counts each entrant's unfinished puzzle (R9)."""
    duration = competition.duration_minutes * 60
    where = _label(competition)
    out.write(f"{format_hms(duration):>8}  {where}Time is up: counting the unfinished puzzles.\n")
    counts = 0
    for team in teams:
        times = list(team.finishes.values_list("elapsed_seconds", flat=True))
        puzzle = competition.puzzles.filter(position=len(times) + 1).first()
        if puzzle is None:
            continue
        last = max(times, default=0)
        pace = _minutes(puzzle.pieces, rng.random(), competition.discipline)
        share = min(0.95, (duration - last) / 60 / pace)
        placed = int(puzzle.pieces * share)
        placed = 0 if placed < 3 else placed
        if rng.random() < 0.5:
            kwargs = {"pieces": placed}
        else:
            loose = min(rng.randint(0, 8), puzzle.pieces - placed)
            kwargs = {"unplaced": puzzle.pieces - placed - loose, "loose": loose}
        count = count_record(team=team, by=judge, **kwargs)
        counts += 1
        out.write(
            _line(team, f"puzzle {puzzle.position} counted: {count.pieces} pieces", duration, where)
        )
    return counts


def _finalise(competition: Competition, admin, out) -> None:
    """The head judge confirms each count (the second count, blind: the same number) and
    makes the results final (R20)."""
    for count in Count.objects.filter(team__competition=competition, confirmed_at__isnull=True):
        count_confirm(count=count, by=admin, pieces=count.pieces)
    competition_finalise(competition=competition, by=admin)
    out.write(f"The results of “{competition.name}” are final.\n")
