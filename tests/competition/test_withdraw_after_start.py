"""Withdrawing a team: the desk's before the clock starts (a no-show);
after it the head judge's (admin), with a reason, audited, from the control room.

The desk is refused with 409 `already_started` (a refusal of the current state: the same desk
may withdraw before the start), and a refusal writes nothing.
"""

from datetime import timedelta

import pytest
from django.urls import reverse

from competition.models import AuditEntry, Competition, Team
from competition.services import team_withdraw, team_withdraw_undo
from scoring.selectors import competition_standings

pytestmark = pytest.mark.django_db

SLUG = "dm-2026"
BASE = f"/api/v1/competitions/{SLUG}"


@pytest.fixture
def running(competition, teams, start_clock):
    return start_clock(competition, ago=timedelta(minutes=40))


def version(competition) -> int:
    return Competition.objects.get(pk=competition.pk).standings_version


def on_the_board(competition) -> list[str]:
    body = competition_standings(competition, staff=True)  # current, not 1 s old
    return [row["team"]["name"] for row in body["standings"]]


def test_the_desk_cannot_withdraw_a_competing_team_mid_competition(running, teams, desk, refused):
    error = refused("already_started", team_withdraw, team=teams[0], by=desk)
    assert "overdommeren" in str(error.message)
    refused("already_started", team_withdraw, team=teams[0], by=desk, reason="Syg")
    assert "Hold 1" in on_the_board(running)


def test_the_desk_api_withdrawal_after_the_start_is_refused_409(
    running, teams, desk, api_as, state
):
    before = state()
    response = api_as(desk).patch(f"{BASE}/teams/{teams[0].pk}/", {"withdrawn": True}, "json")
    assert response.status_code == 409
    assert response.json()["code"] == "already_started"
    assert state() == before
    # Other changes in the same request are not half done either (one transaction).
    both = {"withdrawn": True, "fee_paid": True, "reason": "Syg"}
    response = api_as(desk).patch(f"{BASE}/teams/{teams[0].pk}/", both, "json")
    assert response.status_code == 409
    assert state() == before


def test_the_desk_page_withdrawal_after_the_start_is_refused_with_a_message(
    running, teams, desk, client, state
):
    client.force_login(desk)
    page = client.get(reverse("desk:team_edit", args=[SLUG, teams[0].pk])).content.decode()
    assert reverse("desk:withdraw", args=[SLUG, teams[0].pk]) not in page
    assert "kun overdommeren" in page
    before = state()
    response = client.post(reverse("desk:withdraw", args=[SLUG, teams[0].pk]), follow=True)
    assert "kun overdommeren" in response.content.decode()
    assert state() == before


def test_an_unchanged_withdrawn_flag_is_no_refusal(running, teams, desk, api_as):
    """A desk client that sends the flag as it is (false) with another change is not refused."""
    body = {"withdrawn": False, "fee_paid": True}
    response = api_as(desk).patch(f"{BASE}/teams/{teams[0].pk}/", body, "json")
    assert response.status_code == 200
    assert response.json()["fee_paid"] is True


def test_before_the_start_the_desk_withdraws_as_before(competition, teams, desk, api_as):
    team_withdraw(team=teams[0], by=desk)
    assert Team.objects.get(pk=teams[0].pk).withdrawn
    team_withdraw_undo(team=teams[0], by=desk)
    response = api_as(desk).patch(f"{BASE}/teams/{teams[1].pk}/", {"withdrawn": True}, "json")
    assert (response.status_code, response.json()["withdrawn"]) == (200, True)


def test_after_the_start_the_admin_withdraws_with_a_reason(
    running, teams, admin_user, invalid, state
):
    invalid("reason", team_withdraw, team=teams[0], by=admin_user)
    invalid("reason", team_withdraw, team=teams[0], by=admin_user, reason="   ")
    v, n = version(running), AuditEntry.objects.count()
    team_withdraw(team=teams[0], by=admin_user, reason="Syg, går hjem")
    assert version(running) == v + 1
    assert AuditEntry.objects.count() == n + 1
    entry = AuditEntry.objects.order_by("-pk").first()
    assert (entry.action, entry.user, entry.reason) == (
        "team_withdraw",
        admin_user,
        "Syg, går hjem",
    )
    assert (entry.before, entry.after) == ({"withdrawn": False}, {"withdrawn": True})
    assert "Hold 1" not in on_the_board(running)
    # Undoing it after the start: the admin too, with a reason.
    invalid("reason", team_withdraw_undo, team=teams[0], by=admin_user)
    team_withdraw_undo(team=teams[0], by=admin_user, reason="Fejl: det var hold 2")
    entry = AuditEntry.objects.order_by("-pk").first()
    assert (entry.action, entry.reason) == ("team_withdraw_undo", "Fejl: det var hold 2")
    assert "Hold 1" in on_the_board(running)


def test_after_the_start_the_desk_cannot_undo_a_withdrawal(
    running, teams, desk, admin_user, refused
):
    team_withdraw(team=teams[0], by=admin_user, reason="Udeblevet")
    refused("already_started", team_withdraw_undo, team=teams[0], by=desk)


def test_the_admin_through_the_api(running, teams, admin_user, api_as, state):
    url = f"{BASE}/teams/{teams[0].pk}/"
    before = state()
    response = api_as(admin_user).patch(url, {"withdrawn": True}, "json")
    assert response.status_code == 400
    assert "reason" in response.json()
    assert state() == before
    response = api_as(admin_user).patch(url, {"withdrawn": True, "reason": "Syg"}, "json")
    assert (response.status_code, response.json()["withdrawn"]) == (200, True)
    assert AuditEntry.objects.filter(action="team_withdraw", reason="Syg").count() == 1


def test_the_control_room_withdraws_with_a_reason(running, teams, admin_user, client, state):
    client.force_login(admin_user)
    page = client.get(reverse("control:team", args=[SLUG, teams[0].pk])).content.decode()
    assert reverse("control:withdraw", args=[SLUG, teams[0].pk]) in page
    url = reverse("control:withdraw", args=[SLUG, teams[0].pk])
    before = state()
    response = client.post(url, {"wd-reason": ""})
    assert response.status_code == 400
    assert state() == before
    response = client.post(url, {"wd-reason": "Syg, går hjem"}, follow=True)
    assert "er trukket" in response.content.decode()
    assert Team.objects.get(pk=teams[0].pk).withdrawn
    entry = AuditEntry.objects.order_by("-pk").first()
    assert (entry.action, entry.reason) == ("team_withdraw", "Syg, går hjem")
    undo = reverse("control:withdraw_undo", args=[SLUG, teams[0].pk])
    assert undo in response.content.decode()
    client.post(undo, {"wd-reason": "Kom tilbage"})
    assert not Team.objects.get(pk=teams[0].pk).withdrawn
