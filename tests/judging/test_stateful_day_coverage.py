"""What the day model reaches, measured: rounds of days of fixed seeds (the same days every
time for one code) and the events they recorded. A model that stops reaching the end of the
day, a refusal of the 409 codes of docs/contracts.md, or a decided record's late change fails
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

# Days are played in rounds of fixed seeds until everything below is reached, at least
# MIN_DAYS and at most MAX_DAYS: one fixed set of days drifted with every change of the code
# (a refactor elsewhere shifts the paths, and a rare event, reached by one day of 160, went
# to none), while a budget of seeded rounds finds it again, the same days every time for one
# code. 150 days take about 1-2 min on the 2-core machine.
MIN_DAYS, ROUND, MAX_DAYS = 150, 50, 500
LATE = (
    "decided, then a judge's change",
    "decided, then a late cancel",
    "a step after final",
)


def _missing(reached) -> list[str]:
    codes = [f"refused {code}" for code in CONTRACT_CODES]
    return [name for name in [*codes, *LATE] if not reached[name]]


def test_the_days_reach_the_end_and_every_refusal(day_staff):  # noqa: F811
    COVERAGE.reset()
    began = time.monotonic()
    round_ = 0
    while COVERAGE.days < MIN_DAYS or (_missing(COVERAGE.days_with) and COVERAGE.days < MAX_DAYS):
        play_days(ROUND, seed=round_, database=None)
        round_ += 1
    seconds = time.monotonic() - began
    days, reached = COVERAGE.days, COVERAGE.days_with
    print(
        f"\n{days} days in {seconds:.0f} s ({round_} rounds of {ROUND}); final in "
        f"{reached['final']} ({reached['final'] / days:.0%})"
    )
    for name, n in sorted(reached.items(), key=lambda item: item[1]):
        print(f"  {n:4d} {name}")
    assert reached["final"] >= days / 5, "fewer than a fifth of the days reach final"
    missing = _missing(reached)
    assert not missing, f"never reached in {days} days (409 codes of docs/contracts.md): {missing}"
