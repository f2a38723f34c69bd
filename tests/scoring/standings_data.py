"""Test data for standings: a running competition with teams and finishes, built with the
models directly (the judging services are tested elsewhere)."""

from datetime import timedelta

from django.utils import timezone

from competition.models import Member, Team
from judging.models import Count, Finish
from tests.factories import CompetitionFactory, PuzzleFactory


def running_competition(*, slug="dm-live", pieces=(500, 1000, 1000), minutes_ago=90, **fields):
    competition = CompetitionFactory(
        slug=slug,
        name=fields.pop("name", "DM i puslespil live"),
        started_at=timezone.now() - timedelta(minutes=minutes_ago),
        duration_minutes=fields.pop("duration_minutes", 180),
        **fields,
    )
    puzzles = [
        PuzzleFactory(competition=competition, position=i, pieces=n, title=f"Motiv {i}")
        for i, n in enumerate(pieces, start=1)
    ]
    return competition, puzzles


def finish(team, puzzle, seconds, missing=()):
    return Finish.objects.create(
        team=team, puzzle=puzzle, elapsed_seconds=seconds, missing=list(missing)
    )


def count(team, puzzle, pieces):
    return Count.objects.create(team=team, puzzle=puzzle, pieces=pieces)


def many_teams(competition, puzzles, n, *, with_members=False):
    """`n` teams; team i has finished i % (len(puzzles) + 1) puzzles."""
    teams = Team.objects.bulk_create(
        Team(competition=competition, name=f"Hold {i:03d}", table=i) for i in range(1, n + 1)
    )
    rows = []
    for i, team in enumerate(teams, start=1):
        for k in range(i % (len(puzzles) + 1)):
            rows.append(
                Finish(
                    team=team,
                    puzzle=puzzles[k],
                    elapsed_seconds=600 * (k + 1) + i,
                    missing=[1] if (i + k) % 7 == 0 else [],
                )
            )
    Finish.objects.bulk_create(rows)
    if with_members:
        Member.objects.bulk_create(Member(team=t, name=f"Pusler {t.table}") for t in teams)
    return teams
