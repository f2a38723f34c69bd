"""What the day model reaches, measured: a fixed set of days (the seed
is fixed: `derandomize`) and the events they recorded. A model that stops reaching the end
of the day, a refusal of the 409 codes of docs/contracts.md, or a decided record's late change fails
here.

Repeat the figures: `DATABASE_URL=postgres://... .venv/bin/pytest -p no:xdist -s
tests/judging/test_stateful_day_coverage.py` (it prints them).
"""

import time

import pytest
from django.db import connection

from tests.judging.day.checks import CONTRACT_CODES
from tests.judging.day.model import COVERAGE
from tests.judging.test_stateful_day import day_staff, play_days  # noqa: F401 (fixture)

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.postgres,
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="the measured budget is PostgreSQL's (the random days run on SQLite too)",
    ),
]

# 200 days took 150-270 s on the 2-core machine shared with other work: 150 keep it near 2 min.
DAYS = 150


def test_the_days_reach_the_end_and_every_refusal(day_staff):  # noqa: F811
    COVERAGE.reset()
    began = time.monotonic()
    play_days(DAYS, derandomize=True, database=None)
    seconds = time.monotonic() - began
    days, reached = COVERAGE.days, COVERAGE.days_with
    print(
        f"\n{days} days in {seconds:.0f} s; final in {reached['final']}"
        f" ({reached['final'] / days:.0%})"
    )
    for name, n in sorted(reached.items(), key=lambda item: item[1]):
        print(f"  {n:4d} {name}")
    assert reached["final"] >= days / 5, "fewer than a fifth of the days reach final"
    missing = [code for code in CONTRACT_CODES if not reached[f"refused {code}"]]
    assert not missing, f"refusals of the 409 codes of docs/contracts.md never reached: {missing}"
    for name in (
        "decided, then a judge's change",
        "decided, then a late cancel",
        "a step after final",
    ):
        assert reached[name], f"never reached: {name}"
