"""The start names what is odd; a mistaken stop can be undone."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from competition.models import AuditEntry, Competition, Team
from competition.services import STOP_UNDO_WINDOW, clock_stop, clock_stop_undo
from judging.models import Count
from judging.services import count_record, finish_register

pytestmark = pytest.mark.django_db
SLUG = "dm-2026"


def room(client):
    return client.get(reverse("control:room", args=[SLUG])).content.decode()


# --- point 7: before the start -------------------------------------------------------------
def test_start_names_a_far_date_and_teams_not_checked_in(client, admin_user, competition, teams):
    Competition.objects.filter(pk=competition.pk).update(
        starts_at=timezone.now() + timedelta(days=101, minutes=5)
    )
    Team.objects.filter(pk=teams[0].pk).update(checked_in_at=timezone.now())
    client.force_login(admin_user)
    page = room(client)
    assert "Før du starter uret" in page
    assert "om 101 dage. Er datoen rigtig?" in page
    assert "2 hold er ikke tjekket ind" in page
    assert "Træk Hold 2" in page and "Træk Hold 3" in page and "Træk Hold 1" not in page
    assert "Start uret alligevel" in page
    # The dialog's question names the oddities too.
    assert "Start uret nu? Den planlagte start er" in page
    assert "2 hold er ikke tjekket ind og vil vente på en optælling" in page


def test_nothing_odd_asks_only_to_start(client, admin_user, competition, teams):
    Competition.objects.filter(pk=competition.pk).update(starts_at=timezone.now())
    Team.objects.filter(competition=competition).update(checked_in_at=timezone.now())
    client.force_login(admin_user)
    page = room(client)
    assert "Før du starter uret" not in page and "alligevel" not in page
    assert 'data-confirm="Start uret nu?"' in page


def test_withdraw_a_team_not_checked_in_one_tap_before_the_start(
    client, admin_user, competition, teams
):
    client.force_login(admin_user)
    url = reverse("control:start_withdraw", args=[SLUG, teams[1].pk])
    page = client.post(url, follow=True).content.decode()
    assert "»Hold 2« er trukket." in page
    assert Team.objects.get(pk=teams[1].pk).withdrawn
    assert "Træk Hold 2" not in page and "Træk Hold 1" in page
    entry = AuditEntry.objects.get(action="team_withdraw")
    assert entry.user == admin_user and entry.team_id == teams[1].pk


def test_withdraw_before_the_start_asks_first_as_after_it(client, admin_user, competition, teams):
    """The start panel's "Træk" asks the same question as the team page's after the start
    (data-confirm, static/js/confirm.mjs): showing it withdraws nobody."""
    client.force_login(admin_user)
    page = room(client)
    action = reverse("control:start_withdraw", args=[SLUG, teams[1].pk])
    form = re.search(rf'<form method="post" action="{re.escape(action)}"[^>]*>', page)
    assert form and 'data-confirm="Træk »Hold 2«?"' in form.group(0)
    assert not Team.objects.filter(withdrawn=True).exists()


def test_withdraw_from_the_start_panel_after_the_start_needs_a_reason(
    client, admin_user, competition, teams, start_clock
):
    start_clock(competition, ago=timedelta(minutes=1))
    client.force_login(admin_user)
    url = reverse("control:start_withdraw", args=[SLUG, teams[1].pk])
    page = client.post(url, follow=True).content.decode()
    assert not Team.objects.get(pk=teams[1].pk).withdrawn
    assert "Skriv begrundelsen: når uret er startet, skal den med." in page


def test_start_withdraw_needs_the_head_judge(client, desk, judge, competition, teams):
    url = reverse("control:start_withdraw", args=[SLUG, teams[1].pk])
    for user in (desk, judge):
        client.force_login(user)
        assert client.post(url).status_code == 403
    assert not Team.objects.get(pk=teams[1].pk).withdrawn


# --- point 8: undo the stop ----------------------------------------------------------------
@pytest.fixture
def stopped(competition, teams, admin_user, start_clock):
    start_clock(competition, ago=timedelta(minutes=60))
    return clock_stop(competition=competition, by=admin_user)


def test_undo_the_stop_gives_the_official_clock_back(stopped, admin_user):
    competition = clock_stop_undo(competition=stopped, by=admin_user)
    competition.refresh_from_db()
    assert competition.stopped_at is None
    assert competition.status == "running"
    entry = AuditEntry.objects.filter(action="clock_stop_undo").get()
    assert entry.before["stopped_at"] is not None and entry.after["stopped_at"] is None


def test_undo_refused_once_a_count_exists(stopped, admin_user, judge, teams, refused):
    finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=600)
    count_record(team=teams[1], pieces=100, by=judge)
    assert Count.objects.exists()
    refused("has_counts", clock_stop_undo, competition=stopped, by=admin_user)


def test_undo_refused_after_the_window(stopped, admin_user, refused):
    AuditEntry.objects.filter(action="clock_stop").update(
        at=timezone.now() - STOP_UNDO_WINDOW - timedelta(seconds=1)
    )
    refused("undo_too_late", clock_stop_undo, competition=stopped, by=admin_user)


def test_undo_refused_when_the_planned_end_passed_meanwhile(stopped, admin_user, refused):
    # The stop was pressed a minute ago, and the planned end came in between.
    Competition.objects.filter(pk=stopped.pk).update(
        started_at=timezone.now() - timedelta(minutes=181),
        stopped_at=timezone.now() - timedelta(minutes=2),
    )
    stopped.refresh_from_db()
    refused("clock_ended", clock_stop_undo, competition=stopped, by=admin_user)


def test_undo_refused_without_an_early_stop(competition, teams, admin_user, start_clock, refused):
    start_clock(competition, ago=timedelta(minutes=5))
    refused("clock_not_stopped", clock_stop_undo, competition=competition, by=admin_user)


def test_control_room_button_undoes_the_stop(client, admin_user, stopped):
    client.force_login(admin_user)
    page = room(client)
    assert "Fortryd stop" in page and "Muligt indtil" in page
    page = client.post(
        reverse("control:clock_stop_undo", args=[SLUG]), follow=True
    ).content.decode()
    assert "Stoppet er fortrudt: uret kører videre." in page
    assert "Fortryd stop" not in page
    stopped.refresh_from_db()
    assert stopped.stopped_at is None


def test_control_room_hides_the_button_after_the_window(client, admin_user, stopped):
    AuditEntry.objects.filter(action="clock_stop").update(at=timezone.now() - timedelta(hours=1))
    client.force_login(admin_user)
    assert "Fortryd stop" not in room(client)
    response = client.post(reverse("control:clock_stop_undo", args=[SLUG]), follow=True)
    assert "Stoppet kan kun fortrydes inden for 2 minutter." in response.content.decode()


def test_api_undo_the_stop(api_as, admin_user, judge, stopped):
    url = reverse("api:clock-stop-undo", args=[SLUG])
    assert api_as(judge).post(url).status_code == 403
    response = api_as(admin_user).post(url)
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "running"
    again = api_as(admin_user).post(url)
    assert again.status_code == 409 and again.json()["code"] == "clock_not_stopped"
