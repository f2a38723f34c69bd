"""Fixtures for judging: a competition whose clock runs, or has ended, and a state snapshot."""

from datetime import timedelta

import pytest
from django.utils import timezone

from competition.models import Competition, Team
from competition.services import clock_start
from judging.models import AuditEntry, Count, Finish, Warning


@pytest.fixture
def start_clock(admin_user):
    def start(competition: Competition, *, ago: timedelta) -> Competition:
        return clock_start(competition=competition, by=admin_user, started_at=timezone.now() - ago)

    return start


@pytest.fixture
def running(competition, teams, start_clock) -> Competition:
    """The clock started 2 hours ago (of 3): one hour left."""
    return start_clock(competition, ago=timedelta(hours=2))


@pytest.fixture
def ended(competition, teams, start_clock) -> Competition:
    """The clock started 4 hours ago: time is up (it ended by itself an hour ago)."""
    return start_clock(competition, ago=timedelta(hours=4))


@pytest.fixture
def state():
    """Everything a refused write must leave alone."""

    def snapshot() -> dict:
        return {
            "finishes": list(Finish.objects.order_by("pk").values()),
            "counts": list(Count.objects.order_by("pk").values()),
            "warnings": Warning.objects.count(),
            "audit": AuditEntry.objects.count(),
            "teams": list(Team.objects.order_by("pk").values("disqualified", "withdrawn")),
            "competitions": list(
                Competition.objects.order_by("pk").values(
                    "started_at", "stopped_at", "standings_version"
                )
            ),
        }

    return snapshot


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    # The role fixtures set passwords; the default hasher is slow on purpose.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
