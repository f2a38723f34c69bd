"""Random championship days through the HTTP API: the model in
`tests/judging/day/model.py`, its checks after every call and step in its docstring.

`test_random_days` plays random days (a new seed each run, on PostgreSQL and on SQLite);
`tests/judging/test_stateful_day_coverage.py` plays a fixed set of days and asserts what
they reach.
"""

from unittest import mock

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import seed as hypothesis_seed
from hypothesis.stateful import run_state_machine_as_test

from tests.judging.day.model import CLOCK, USERS, Day

pytestmark = pytest.mark.django_db

STEPS = 50  # a day: setup, the clock, the counts, the decisions, final and after


@pytest.fixture
def day_staff(db):
    """Two judges, the head judge and the desk, made once for all the days."""
    from competition.services import staff_upsert

    roles = {"judge1": "judge", "judge2": "judge", "head": "admin", "desk": "desk"}
    USERS.clear()
    USERS.update(
        {name: staff_upsert(username=f"day-{name}", role=role)[0] for name, role in roles.items()}
    )
    yield USERS
    USERS.clear()


def play_days(days: int, *, seed: int | None = None, **options) -> None:
    """Play `days` days with the model's clock as the server's; with `seed`, the same days
    every time (hypothesis' seed for the model)."""
    machine = Day if seed is None else hypothesis_seed(seed)(type("Day", (Day,), {}))
    day_settings = settings(
        max_examples=days,
        stateful_step_count=STEPS,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        **options,
    )
    with mock.patch("django.utils.timezone.now", new=CLOCK):
        run_state_machine_as_test(machine, settings=day_settings)


def test_random_days(day_staff):
    play_days(20)
