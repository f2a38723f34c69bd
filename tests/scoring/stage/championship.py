"""A finalised championship of six teams for the big screen and the reveal."""

from datetime import timedelta

import pytest

from competition.services import clock_stop
from judging.services import competition_finalise, count_record, finish_register
from tests.factories import TeamFactory

# name -> finish times (s) of puzzles 1, 2, 3 (500, 1000, 1000 pieces) and the count
TEAMS = {
    "Alfa": ((3000, 6000, 7000), None),  # 2500, rank 1
    "Bravo": ((3000, 6000, 7100), None),  # 2500, later: rank 2, a tie-break sentence
    "Charlie": ((3000, 6000), 800),  # 2300
    "Delta": ((3000,), 900),  # 1400
    "Echo": ((3100,), 500),  # 1000
    "Foxtrot": ((), 300),  # 300
}


def finalised(competition, admin_user, start_clock):
    """`competition` with the six teams, its clock stopped, counted and finalised."""
    competition = start_clock(competition, ago=timedelta(hours=2))
    teams = {}
    for table, (name, (times, _count)) in enumerate(TEAMS.items(), start=1):
        team = TeamFactory(competition=competition, name=name, table=table)
        teams[name] = team
        for position, elapsed in enumerate(times, start=1):
            finish_register(team=team, position=position, by=admin_user, elapsed_seconds=elapsed)
    clock_stop(competition=competition, by=admin_user)
    for name, (_times, count) in TEAMS.items():
        if count is not None:
            count_record(team=teams[name], by=admin_user, pieces=count)
    competition_finalise(competition=competition, by=admin_user)
    competition.refresh_from_db()
    competition.teams_by_name = teams
    return competition


@pytest.fixture
def final(competition, admin_user, start_clock):
    """The finalised championship of the six `TEAMS`."""
    return finalised(competition, admin_user, start_clock)
