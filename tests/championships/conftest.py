"""A championship of individuals: two final heats and a final they go on to."""

from datetime import timedelta

import pytest
from django.utils import timezone

from competition.models import Competition, Member, Puzzle, Team
from competition.services import championship_create, competition_create
from judging.models import Count, Finish


def heat(championship, slug, round_, entrants, *, final=True, discipline="individual"):
    """A heat of one 500-piece puzzle; `entrants`: (name, finish seconds or None, count or
    None, disqualified). Final (time up, results final) unless `final` is False."""
    starts = timezone.now() - timedelta(hours=5)
    competition = competition_create(
        by=None,
        slug=slug,
        name=f"DM {round_}",
        starts_at=starts,
        championship=championship,
        discipline=discipline,
        round=round_,
        duration_minutes=60,
    )
    puzzle = Puzzle.objects.create(competition=competition, position=1, pieces=500)
    for table, (name, seconds, counted, disqualified) in enumerate(entrants, start=1):
        team = Team.objects.create(
            competition=competition,
            name=name,
            table=table,
            disqualified=disqualified,
            disqualified_reason="Snyd" if disqualified else "",
            contact_email=f"{table}@{slug}.dk",
        )
        Member.objects.create(team=team, name=f"{name} Hansen")
        if seconds is not None:
            Finish.objects.create(team=team, puzzle=puzzle, elapsed_seconds=seconds)
        if counted is not None:
            Count.objects.create(team=team, puzzle=puzzle, pieces=counted)
    Competition.objects.filter(pk=competition.pk).update(
        started_at=starts, finalised_at=timezone.now() if final else None
    )
    return Competition.objects.get(pk=competition.pk)


@pytest.fixture
def dm(db):
    return championship_create(by=None, slug="dm-2027", name="DM i puslespil 2027", venue="Odense")


@pytest.fixture
def heats(dm):
    a = heat(
        dm,
        "heat-a",
        "Indledende runde A",
        [
            ("Anna", 1000, None, False),
            ("Bo", 1100, None, False),
            ("Cille", None, 300, False),
            ("Dan", None, 200, False),
        ],
    )
    b = heat(
        dm,
        "heat-b",
        "Indledende runde B",
        [
            ("Eva", 900, None, False),
            ("Finn", None, 300, False),
            ("Gry", None, 100, False),
            ("Anna", 800, None, True),
        ],
    )
    return a, b


@pytest.fixture
def final(dm):
    return competition_create(
        by=None,
        slug="finale",
        name="DM Finale",
        starts_at=timezone.now() + timedelta(days=1),
        championship=dm,
        discipline="individual",
        round="Finale",
    )
