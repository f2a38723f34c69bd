"""Shared fixtures: users per role, a competition with its puzzle sequence and teams."""

import pytest
from rest_framework.test import APIClient

from competition.models import Competition
from competition.services import staff_upsert
from tests.ci_no_skips import pytest_runtest_makereport  # noqa: F401  (CI: no skips)
from tests.factories import STAFF_PASSWORD, CompetitionFactory, PuzzleFactory, TeamFactory
from tests.slow_first import pytest_collection_modifyitems  # noqa: F401  (slowest first)


@pytest.fixture(autouse=True)
def _clear_cache():
    # Cached standings are keyed by version; a fresh test database restarts versions at 0.
    # The public pages' 1 s memo of a competition (by slug) is process memory: a test must
    # not read the competition an earlier test made under the same slug.
    from django.core.cache import cache

    from scoring.selectors import memo_clear

    cache.clear()
    memo_clear()


@pytest.fixture
def memo_clock(monkeypatch):
    """The public reads' 1 s memo (scoring/selectors/) on a clock the test moves with
    `.advance(seconds)`: a query count "within the second" holds however slow the machine
    is (on a busy one, 300 teams' standings took longer than the second)."""
    import types

    from scoring.selectors import programmes, state

    now = [1000.0]

    def advance(seconds: float) -> None:
        now[0] += seconds

    clock = types.SimpleNamespace(monotonic=lambda: now[0], advance=advance)
    monkeypatch.setattr(state, "time", clock)  # a competition's state
    monkeypatch.setattr(programmes, "time", clock)  # a championship's programme
    return clock


@pytest.fixture(autouse=True)
def _memo_clock_where_queries_are_counted(request):
    """A test that counts queries counts them on the memo's own clock: on the wall clock a
    slow machine lets the second pass between two reads, and the count is one more."""
    if {"django_assert_num_queries", "django_assert_max_num_queries"} & set(request.fixturenames):
        request.getfixturevalue("memo_clock")


@pytest.fixture
def make_user(db):
    def make(role: str | None, username: str | None = None):
        from django.contrib.auth import get_user_model

        if role is None:
            return get_user_model().objects.create_user(username or "nobody", password="x")
        user, _, _ = staff_upsert(username=username or role, role=role, password=STAFF_PASSWORD)
        return user

    return make


@pytest.fixture
def judge(make_user):
    return make_user("judge", "mette")


@pytest.fixture
def desk(make_user):
    return make_user("desk", "skranke")


@pytest.fixture
def admin_user(make_user):
    return make_user("admin", "overdommer")


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture
def api_as(api):
    def as_user(user):
        if user is None:
            api.force_authenticate(None)
            api.logout()
        else:
            api.force_authenticate(user)
        return api

    return as_user


@pytest.fixture
def competition(db) -> Competition:
    """A competition in setup with the demo's sequence: 500, 1000, 1000 pieces."""
    competition = CompetitionFactory(slug="dm-2026", name="DM i puslespil 2026")
    for position, pieces in enumerate((500, 1000, 1000), start=1):
        PuzzleFactory(competition=competition, position=position, pieces=pieces)
    return competition


@pytest.fixture
def teams(competition):
    return [TeamFactory(competition=competition, name=f"Hold {i}", table=i) for i in (1, 2, 3)]


@pytest.fixture(autouse=True, scope="session")
def _fast_password_hasher():
    # Hashing a password the production way takes ~0.3 s; tests make hundreds of users.
    from django.conf import settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def start_clock(admin_user):
    """Start a competition's clock `ago` before now, through the service (R4).

    The service refuses a start so far back that the clock would already have ended (issue
    11); for a competition whose time is up (`ago` >= the duration) the clock is started
    through the service and its start then moved back in the database, as if the hours had
    passed.
    """
    from datetime import timedelta

    from django.utils import timezone

    from competition.services import clock_start

    def start(competition: Competition, *, ago: timedelta) -> Competition:
        started_at = timezone.now() - ago
        if ago < timedelta(minutes=competition.duration_minutes):
            return clock_start(competition=competition, by=admin_user, started_at=started_at)
        competition = clock_start(competition=competition, by=admin_user)
        Competition.objects.filter(pk=competition.pk).update(started_at=started_at)
        competition.refresh_from_db()
        return competition

    return start


@pytest.fixture
def state():
    """Everything a refused write must leave alone: call it before and after, compare."""
    from competition.models import AuditEntry, Team
    from judging.models import Count, Finish, Objection, RequestId, Warning

    def snapshot() -> dict:
        return {
            "request_ids": list(RequestId.objects.order_by("pk").values()),
            "finishes": list(Finish.objects.order_by("pk").values()),
            "counts": list(Count.objects.order_by("pk").values()),
            "warnings": Warning.objects.count(),
            "objections": list(Objection.objects.order_by("pk").values()),
            "audit": AuditEntry.objects.count(),
            "teams": list(Team.objects.order_by("pk").values()),
            "competitions": list(Competition.objects.order_by("pk").values()),
        }

    return snapshot


@pytest.fixture
def refused(state):
    """Call a service, expect the refusal `code` (HTTP 409) and nothing written."""
    from competition.errors import Refusal

    def check(code, service, **kwargs):
        before = state()
        with pytest.raises(Refusal) as caught:
            service(**kwargs)
        assert caught.value.code == code, caught.value.message
        assert state() == before
        return caught.value

    return check


@pytest.fixture
def invalid(state):
    """Call a service, expect a ValidationError on `field` (HTTP 400) and nothing written."""
    from django.core.exceptions import ValidationError

    def check(field, service, **kwargs):
        before = state()
        with pytest.raises(ValidationError) as caught:
            service(**kwargs)
        assert field in caught.value.message_dict, caught.value.message_dict
        assert state() == before
        return caught.value

    return check
