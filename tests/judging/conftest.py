"""Fixtures for judging: a competition whose clock runs, or has ended, and a state snapshot."""

from datetime import timedelta

import pytest

from competition.models import Competition


@pytest.fixture
def running(competition, teams, start_clock) -> Competition:
    """The clock started 2 hours ago (of 3): one hour left."""
    return start_clock(competition, ago=timedelta(hours=2))


@pytest.fixture
def ended(competition, teams, start_clock) -> Competition:
    """The clock started 4 hours ago: time is up (it ended by itself an hour ago)."""
    return start_clock(competition, ago=timedelta(hours=4))
