"""Fixtures for objections: a competition whose time is up, with finishes and counts."""

from datetime import timedelta

import pytest

from competition.models import Competition
from judging.services import count_record, finish_register


@pytest.fixture
def started(competition, start_clock):
    """Start the clock `ago` before now (3 hours is the duration: 4 hours ago = ended)."""

    def start(ago: timedelta) -> Competition:
        return start_clock(competition, ago=ago)

    return start


@pytest.fixture
def ended(competition, teams, judge, started):
    """Time is up. Table 1 finished puzzle 1 at 0:40:00 and 2 at 1:35:00; table 2 finished
    puzzle 1 at 0:50:00; table 3 finished nothing. No counts yet."""
    started(timedelta(hours=4))
    t1, t2, _t3 = teams
    finish_register(team=t1, position=1, by=judge, elapsed_seconds=40 * 60)
    finish_register(team=t1, position=2, by=judge, elapsed_seconds=95 * 60, missing=[1])
    finish_register(team=t2, position=1, by=judge, elapsed_seconds=50 * 60)
    competition.refresh_from_db()
    return competition


@pytest.fixture
def counted(ended, teams, judge):
    """`ended`, with every team counted: tables 1, 2 and 3 have 300, 420 and 0 pieces."""
    for team, pieces in zip(teams, (300, 420, 0), strict=True):
        count_record(team=team, by=judge, pieces=pieces)
    ended.refresh_from_db()
    return ended
