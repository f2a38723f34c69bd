"""2. The database: the bench's PostgreSQL database, its competition, championship and judges."""

from __future__ import annotations

import math
import random

from bench.common import CHAMPIONSHIP, DB_NAME, HEATS, PG, SLUG


def recreate_database() -> None:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{DB_NAME}"')


def build_competition(teams: int, puzzles: int) -> dict:
    """A running competition (clock started 6 hours ago, 8 hours long) with 0-2 plausible
    finishes per team (4 puzzlers each), so the judges have finishes left to post.

    Returns {(team id, position): finish id} of the finishes built here.
    """
    from datetime import timedelta

    from django.utils import timezone

    from bench.day import PUZZLERS, plausible_gap
    from competition.models import Competition, Member, Puzzle, Team
    from judging.models import Finish, Objection

    rng = random.Random(300)
    now = timezone.now()
    competition = Competition.objects.create(
        slug=SLUG,
        name="Benchmark-DM",
        venue="Loopback",
        starts_at=now - timedelta(hours=6),
        started_at=now - timedelta(hours=6),
        duration_minutes=8 * 60,
    )
    sequence = Puzzle.objects.bulk_create(
        Puzzle(competition=competition, position=i, title=f"Motiv {i}", pieces=(500, 1000)[i % 2])
        for i in range(1, puzzles + 1)
    )
    rows = Team.objects.bulk_create(
        Team(
            competition=competition,
            name=f"Hold {i:03d}",
            table=i,
            contact_name=f"Kontakt {i}",
            contact_email=f"hold{i}@example.dk",
        )
        for i in range(1, teams + 1)
    )
    Member.objects.bulk_create(
        Member(team=t, name=f"Pusler {t.table}-{m}") for t in rows for m in range(PUZZLERS)
    )
    finishes = []
    for team in rows:
        seconds = 0
        for puzzle in sequence[: rng.randint(0, 2)]:
            seconds += plausible_gap(puzzle.pieces, rng)
            missing = [1] if rng.random() < 0.1 else ([2] if rng.random() < 0.05 else [])
            finishes.append(
                Finish(team=team, puzzle=puzzle, elapsed_seconds=seconds, missing=missing)
            )
    Finish.objects.bulk_create(finishes)
    Objection.objects.bulk_create(Objection(team=t, text="Tiden?") for t in rows[::50])
    competition.bump_standings()
    return {(f.team_id, f.puzzle.position): f.pk for f in finishes}


def build_championship(scale: float) -> dict[str, int]:
    """The bench's championship (`CHAMPIONSHIP`), running: 360 individuals in `HEATS` heats of
    one 500-piece and one 1000-piece puzzle, 120 pairs and 60 teams (times `scale`, at least
    one entrant each), all clocks started 90 minutes ago, a heat's tables apart from the
    others' (one hall), 0-2 plausible finishes per entrant. Returns the entrants by kind."""
    from datetime import timedelta

    from django.utils import timezone

    from competition.models import Competition, Member, Puzzle, Team
    from competition.services import championship_create, competition_create
    from judging.models import Finish

    rng = random.Random(2027)
    started = timezone.now() - timedelta(minutes=90)
    dm = championship_create(by=None, slug=CHAMPIONSHIP, name="Benchmark-mesterskab")
    sizes = {
        "individuals": max(HEATS, round(360 * scale)),
        "pairs": max(1, round(120 * scale)),
        "teams": max(1, round(60 * scale)),
    }
    per_heat = math.ceil(sizes["individuals"] / HEATS)
    plan = [
        (
            f"{CHAMPIONSHIP}-heat-{h}",
            f"Indledende runde {'ABCDEFGH'[h - 1]}",
            "individual",
            per_heat,
        )
        for h in range(1, HEATS + 1)
    ]
    plan += [
        (f"{CHAMPIONSHIP}-par", "Finale", "pair", sizes["pairs"]),
        (f"{CHAMPIONSHIP}-hold", "Finale", "team", sizes["teams"]),
    ]
    table = 0
    for slug, round_, discipline, n in plan:
        competition = competition_create(
            by=None,
            slug=slug,
            name=f"Benchmark {round_.lower()} ({discipline})",
            starts_at=started,
            duration_minutes=240,
            championship=dm,
            discipline=discipline,
            round=round_,
            second_count=False,
        )
        sequence = Puzzle.objects.bulk_create(
            Puzzle(competition=competition, position=i, pieces=pieces)
            for i, pieces in enumerate((500, 1000), start=1)
        )
        people = competition.max_at_table
        teams = Team.objects.bulk_create(
            Team(competition=competition, name=f"{discipline} {table + i}", table=table + i)
            for i in range(1, n + 1)
        )
        table += n
        Member.objects.bulk_create(
            Member(team=t, name=f"Pusler {t.table}-{m}") for t in teams for m in range(people)
        )
        finishes = []
        for team in teams:
            seconds = 0
            for puzzle in sequence[: rng.randint(0, 2)]:
                seconds += int(puzzle.pieces / (12 * people) * 60 * rng.uniform(1.0, 1.5))
                if seconds < 90 * 60:
                    finishes.append(Finish(team=team, puzzle=puzzle, elapsed_seconds=seconds))
        Finish.objects.bulk_create(finishes)
        Competition.objects.filter(pk=competition.pk).update(started_at=started)
        competition.bump_standings()
    return sizes


def create_judges(count: int) -> list[str]:
    """`count` judge users (bench-judge-01, ...) through create_staff; their API tokens."""
    from competition.services import staff_upsert

    return [
        staff_upsert(username=f"bench-judge-{i:02d}", role="judge", issue_token=True)[2]
        for i in range(1, count + 1)
    ]


def make_judges(tokens: list[str], port: int, pause: float) -> list:
    """One `day.Judge` per token, each owning an equal share of the tables."""
    from bench.day import Judge, TeamState
    from competition.models import Competition

    competition = Competition.objects.get(slug=SLUG)
    pieces = [0, *competition.puzzles.order_by("position").values_list("pieces", flat=True)]
    teams = []
    for t in competition.teams.order_by("table").prefetch_related("finishes"):
        done = [f.elapsed_seconds for f in t.finishes.all()]
        teams.append(TeamState(t.pk, t.table, len(done), max(done, default=0)))
    share = math.ceil(len(teams) / len(tokens))
    return [
        Judge(
            "127.0.0.1",
            port,
            SLUG,
            token,
            teams[i * share : (i + 1) * share],
            pieces,
            competition.started_at.timestamp(),
            seed=i,
            pause=pause,
        )
        for i, token in enumerate(tokens)
    ]


def copy_database(source: str, target: str) -> None:
    """`target` as a copy of `source` (PostgreSQL's template; no session may be on it)."""
    import psycopg
    from django.db import connections

    connections.close_all()
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{target}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{target}" TEMPLATE "{source}"')
