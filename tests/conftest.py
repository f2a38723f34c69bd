"""Shared fixtures: users per role, a competition with its puzzle sequence and teams."""

import pytest
from rest_framework.test import APIClient

from competition.management.commands.create_staff import staff_upsert
from competition.models import Competition
from tests.factories import CompetitionFactory, PuzzleFactory, TeamFactory


@pytest.fixture(autouse=True)
def _clear_cache():
    # Cached standings are keyed by version; a fresh test database restarts versions at 0.
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def make_user(db):
    def make(role: str | None, username: str | None = None):
        from django.contrib.auth import get_user_model

        if role is None:
            return get_user_model().objects.create_user(username or "nobody", password="x")
        user, _, _ = staff_upsert(username=username or role, role=role, password="pw-" + role)
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
