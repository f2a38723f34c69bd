"""Real threads on PostgreSQL: the clock never moves under a finish registered at the same
moment. The clock's writes lock the competition row, which every
finish also locks, so one of the two waits for the other and then sees what it wrote."""

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from competition.errors import Refusal
from competition.models import AuditEntry, Competition
from competition.services import clock_correct, clock_stop
from judging.models import Finish
from judging.services import finish_register
from tests.judging.test_concurrency import _role_groups, run_together  # noqa: F401

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="row locks and concurrent transactions need PostgreSQL (SQLite serialises all)",
    ),
]


@pytest.mark.parametrize("round_", range(5))
def test_a_stop_and_a_later_finish_at_once_never_both_land(
    competition, teams, judge, admin_user, start_clock, round_
):
    running = start_clock(competition, ago=timedelta(hours=1))
    stop_at = timezone.now() - timedelta(minutes=10)
    after_stop = int((stop_at - running.started_at).total_seconds()) + 60
    stop, finish = run_together(
        [
            lambda: clock_stop(competition=running, by=admin_user, stopped_at=stop_at),
            lambda: finish_register(
                team=teams[0], position=1, by=judge, elapsed_seconds=after_stop
            ),
        ]
    )
    if isinstance(stop, Refusal):  # the finish came first: the stop names it
        assert stop.code == "finishes_after_stop"
        assert stop.extra["teams"] == [{"id": teams[0].pk, "name": "Hold 1", "table": 1}]
        assert isinstance(finish, Finish)
        assert Competition.objects.get(pk=competition.pk).stopped_at is None
    else:  # the stop came first: the finish is after the end
        assert isinstance(finish, Refusal) and finish.code == "after_end", finish
        assert not Finish.objects.exists()


@pytest.mark.parametrize("round_", range(5))
def test_a_correction_and_a_finish_at_once(
    competition, teams, judge, admin_user, start_clock, round_
):
    running = start_clock(competition, ago=timedelta(minutes=30))
    earlier = running.started_at - timedelta(minutes=1)
    correct, finish = run_together(
        [
            lambda: clock_correct(competition=running, by=admin_user, started_at=earlier),
            lambda: finish_register(team=teams[0], position=1, by=judge),
        ]
    )
    assert isinstance(finish, Finish), finish
    entries = list(AuditEntry.objects.order_by("pk").values_list("action", flat=True))
    if isinstance(correct, Refusal):  # the finish came first: the start stays
        assert correct.code == "has_finishes"
        assert Competition.objects.get(pk=competition.pk).started_at == running.started_at
        assert "clock_correct" not in entries
    else:  # the correction came first, and the finish is measured from the new start
        assert entries.index("clock_correct") < entries.index("finish_register")
        finish.refresh_from_db()
        assert finish.elapsed_seconds >= 31 * 60
