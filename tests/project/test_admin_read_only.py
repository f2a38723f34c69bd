"""The Django admin is read-only for competition data (docs/architecture.md "A write"): no add,
change or delete, for superusers too, and no action that writes; every write goes through the
services (rules, audit entry, standings version). The `admin` role (the head judge) may log in and
look."""

from datetime import timedelta
from uuid import uuid4

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone

from competition.models import AuditEntry, Competition, Member, Puzzle, Team
from judging.models import Backup, Count, Finish, Objection, RequestId, Tablet, Warning
from tests.factories import STAFF_PASSWORD, MemberFactory

COMPETITION_APPS = {"competition", "judging"}
EXPECTED = {
    Competition,
    Puzzle,
    Team,
    Member,
    Finish,
    Count,
    Warning,
    Objection,
    AuditEntry,
    RequestId,
    Tablet,
    Backup,
}


def competition_admins():
    return [
        (model, model_admin)
        for model, model_admin in admin.site._registry.items()
        if model._meta.app_label in COMPETITION_APPS
    ]


@pytest.fixture
def superuser(db):
    return get_user_model().objects.create_superuser("chef", password="chef-kode-1")


@pytest.fixture
def world(competition, teams, start_clock):
    """A running competition: team 1 has a finish, a count, a warning and an objection; a
    request id, a tablet's report and a backup exist."""
    start_clock(competition, ago=timedelta(minutes=30))
    puzzle = competition.puzzles.get(position=1)
    finish = Finish.objects.create(team=teams[0], puzzle=puzzle, elapsed_seconds=1500)
    Count.objects.create(team=teams[1], puzzle=puzzle, pieces=40)
    Warning.objects.create(team=teams[0], reason="støj")
    Objection.objects.create(team=teams[0], finish=finish, text="for sent")
    MemberFactory(team=teams[0], name="Alma")
    RequestId.objects.create(
        request_id=uuid4(), competition=competition, team=teams[0], kind="finish"
    )
    Tablet.objects.create(
        competition=competition, device_id="tablet-1", last_seen_at=timezone.now()
    )
    Backup.objects.create(at=timezone.now(), reason="manual", file="x.sqlite3")
    competition.refresh_from_db()
    return competition


def test_every_competition_model_is_in_the_admin():
    assert {model for model, _ in competition_admins()} == EXPECTED


@pytest.mark.django_db
def test_superuser_changing_pieces_after_the_start_is_refused(client, world, superuser, state):
    """Defect 7: a superuser changed a puzzle's pieces after the start via /admin/: no audit
    entry, no version bump, stale standings."""
    puzzle = world.puzzles.get(position=1)
    before = state()
    client.force_login(superuser)
    url = reverse("admin:competition_puzzle_change", args=[puzzle.pk])
    response = client.post(
        url,
        {"competition": world.pk, "position": 1, "title": "Ny", "brand": "", "pieces": 5000},
    )
    assert response.status_code == 403
    puzzle.refresh_from_db()
    assert puzzle.pieces == 500
    assert state() == before


@pytest.mark.django_db
def test_superuser_may_add_change_delete_nothing_and_has_no_writing_action(world, superuser):
    request = RequestFactory().get("/admin/")
    request.user = superuser
    for model, model_admin in competition_admins():
        obj = model.objects.first()
        assert obj is not None, model
        name = model.__name__
        assert not model_admin.has_add_permission(request), name
        assert not model_admin.has_change_permission(request, obj), name
        assert not model_admin.has_delete_permission(request, obj), name
        assert model_admin.has_view_permission(request, obj), name
        assert model_admin.get_actions(request) == {}, name
        for inline in model_admin.get_inline_instances(request, obj):
            assert not inline.has_add_permission(request, obj), (name, inline)
            assert not inline.has_change_permission(request, obj), (name, inline)
            assert not inline.has_delete_permission(request, obj), (name, inline)


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["superuser", "admin role"])
def test_admin_pages_show_but_refuse_every_write(client, world, superuser, admin_user, who, state):
    user = superuser if who == "superuser" else admin_user
    client.force_login(user)
    before = state()
    assert client.get("/admin/").status_code == 200
    for model, _model_admin in competition_admins():
        info = model._meta.app_label, model._meta.model_name
        obj = model.objects.first()
        changelist = client.get(reverse("admin:{}_{}_changelist".format(*info)))
        assert changelist.status_code == 200, model
        change_url = reverse("admin:{}_{}_change".format(*info), args=[obj.pk])
        page = client.get(change_url)
        assert page.status_code == 200, model
        assert 'name="_save"' not in page.content.decode(), model
        assert client.post(change_url, {}).status_code == 403, model
        add = client.post(reverse("admin:{}_{}_add".format(*info)), {})
        assert add.status_code == 403, model
        delete_url = reverse("admin:{}_{}_delete".format(*info), args=[obj.pk])
        assert client.post(delete_url, {"post": "yes"}).status_code == 403, model
        bulk = client.post(
            reverse("admin:{}_{}_changelist".format(*info)),
            {"action": "delete_selected", "_selected_action": [obj.pk], "post": "yes"},
        )
        assert bulk.status_code in (200, 302), model  # "no action selected", nothing deleted
    assert state() == before


@pytest.mark.django_db
def test_the_admin_role_logs_into_the_admin_with_its_password(client, admin_user):
    """The head judge's login (role admin, made by create_staff) opens /admin/."""
    admin_user.is_staff = False  # the role is what counts, not Django's staff flag
    admin_user.save()
    response = client.post(
        "/admin/login/?next=/admin/",
        {"username": admin_user.username, "password": STAFF_PASSWORD, "next": "/admin/"},
    )
    assert response.status_code == 302, response.content.decode()[:500]
    assert client.get("/admin/competition/puzzle/").status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("role", ["judge", "desk"])
def test_judges_and_desk_cannot_open_the_admin(client, make_user, role):
    user = make_user(role, f"u-{role}")
    client.force_login(user)
    response = client.get("/admin/competition/team/")
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]
