"""Real threads on PostgreSQL: two advances of the same round at the same moment make its
entrants once. The advance locks the round's row, so the second waits, then finds what the
first made and answers it (or refuses another advance)."""

import pytest
from django.db import connection

from championships.services import advance
from competition.errors import Refusal
from competition.models import Team
from tests.judging.test_concurrency import _role_groups, run_together  # noqa: F401

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="row locks and concurrent transactions need PostgreSQL (SQLite serialises all)",
    ),
]


@pytest.mark.parametrize("round_", range(3))
def test_the_same_advance_twice_at_once_makes_the_entrants_once(heats, final, admin_user, round_):
    def job():
        return advance(
            competition=final, sources=["heat-a", "heat-b"], best=2, per_source=True, by=admin_user
        )

    first, second = run_together([job, job])
    assert not isinstance(first, Exception) and not isinstance(second, Exception), (first, second)
    assert [a.team.pk for a in first] == [a.team.pk for a in second]
    assert Team.objects.filter(competition=final).count() == 4


def test_two_different_advances_at_once_one_is_refused(heats, final, admin_user):
    def job(best):
        return lambda: advance(
            competition=final, sources=["heat-a"], best=best, per_source=True, by=admin_user
        )

    results = run_together([job(1), job(2)])
    refused = [r for r in results if isinstance(r, Refusal)]
    assert [r.code for r in refused] == ["already_advanced"], results
    assert Team.objects.filter(competition=final).count() in (1, 2)
