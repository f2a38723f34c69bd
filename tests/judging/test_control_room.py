"""The control room: roles, the clock, status at a glance, corrections, the audit log."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from competition.models import AuditEntry, Competition, Team
from judging.models import Count, Finish, Warning
from tests.factories import TeamFactory

pytestmark = pytest.mark.django_db
SLUG = "dm-2026"


def room():
    return reverse("control:room", args=[SLUG])


def pages(team_pk):
    return [
        room(),
        reverse("control:audit", args=[SLUG]),
        reverse("control:team", args=[SLUG, team_pk]),
    ]


def test_roles(client, make_user, teams):
    for url in pages(teams[0].pk):
        response = client.get(url)
        assert response.status_code == 302 and reverse("login") in response["Location"]
    for role in ("judge", "desk", None):
        client.force_login(make_user(role, f"u-{role}"))
        for url in pages(teams[0].pk):
            assert client.get(url).status_code == 403, (role, url)
    client.force_login(make_user("admin", "chef"))
    for url in pages(teams[0].pk):
        assert client.get(url).status_code == 200, url


def test_posts_need_admin(client, desk, teams):
    client.force_login(desk)
    for name, args in (
        ("control:clock_start", [SLUG]),
        ("control:clock_stop", [SLUG]),
        ("control:disqualify", [SLUG, teams[0].pk]),
        ("control:warning", [SLUG, teams[0].pk]),
    ):
        assert client.post(reverse(name, args=args), {"dq-reason": "x"}).status_code == 403
    assert not Competition.objects.get(slug=SLUG).started_at


def _start(competition, minutes_ago=30):
    Competition.objects.filter(pk=competition.pk).update(
        started_at=timezone.now() - timedelta(minutes=minutes_ago)
    )
    competition.refresh_from_db()


def test_start_the_clock_now_and_refused_twice(client, admin_user, competition):
    client.force_login(admin_user)
    before = timezone.now()
    response = client.post(reverse("control:clock_start", args=[SLUG]), follow=True)
    competition.refresh_from_db()
    assert competition.started_at is not None
    assert before <= competition.started_at <= timezone.now()
    assert "Uret kører" in response.content.decode()
    response = client.post(reverse("control:clock_start", args=[SLUG]), follow=True)
    assert response.status_code == 200
    assert AuditEntry.objects.filter(action="clock_start").count() == 1


def test_start_with_a_correction_in_danish_time(client, admin_user, competition):
    client.force_login(admin_user)
    now = timezone.localtime(timezone.now()).replace(microsecond=0)
    earlier = now - timedelta(seconds=30)
    client.post(
        reverse("control:clock_start", args=[SLUG]),
        {"started_at": earlier.strftime("%Y-%m-%dT%H:%M:%S"), "correct": "1"},
    )
    competition.refresh_from_db()
    assert competition.started_at == earlier


def test_start_in_the_future_is_refused(client, admin_user, competition):
    client.force_login(admin_user)
    later = timezone.localtime(timezone.now()) + timedelta(hours=1)
    response = client.post(
        reverse("control:clock_start", args=[SLUG]),
        {"started_at": later.strftime("%Y-%m-%dT%H:%M:%S"), "correct": "1"},
        follow=True,
    )
    competition.refresh_from_db()
    assert competition.started_at is None
    assert 'class="msg-error"' in response.content.decode()


def test_stop_early(client, admin_user, competition):
    _start(competition)
    client.force_login(admin_user)
    client.post(reverse("control:clock_stop", args=[SLUG]))
    competition.refresh_from_db()
    assert competition.stopped_at is not None
    assert competition.status == "stopped"


def test_status_at_a_glance(client, admin_user, competition, teams):
    _start(competition, minutes_ago=200)  # the clock has ended by itself
    p1, p2, p3 = competition.puzzles.order_by("position")
    Finish.objects.create(team=teams[0], puzzle=p1, elapsed_seconds=600)
    for p, t in ((p1, 700), (p2, 3000), (p3, 6000)):
        Finish.objects.create(team=teams[1], puzzle=p, elapsed_seconds=t)
    Team.objects.filter(pk=teams[2].pk).update(disqualified=True, disqualified_reason="støj")
    client.force_login(admin_user)
    response = client.get(room())
    glance = response.context["glance"]
    on = {p.position: n for p, n in glance["puzzles"]}
    assert on == {1: 0, 2: 1, 3: 0}
    assert glance["all_done"] == 1
    assert [t.pk for t in glance["counts_missing"]] == [teams[0].pk]
    html = response.content.decode()
    assert "optællinger mangler" in html


@pytest.mark.parametrize("n", [5, 300])
def test_room_queries_do_not_grow(
    client, admin_user, competition, django_assert_max_num_queries, n
):
    for i in range(n):
        TeamFactory(competition=competition, table=i + 1)
    client.force_login(admin_user)
    with django_assert_max_num_queries(14):
        client.get(room())


def test_disqualify_and_reinstate_need_a_reason(client, admin_user, teams):
    client.force_login(admin_user)
    team = teams[0]
    response = client.post(reverse("control:disqualify", args=[SLUG, team.pk]), {"dq-reason": ""})
    assert response.status_code == 400
    assert not Team.objects.get(pk=team.pk).disqualified
    client.post(reverse("control:disqualify", args=[SLUG, team.pk]), {"dq-reason": "Hjælp udefra"})
    team.refresh_from_db()
    assert team.disqualified and team.disqualified_reason == "Hjælp udefra"
    client.post(reverse("control:reinstate", args=[SLUG, team.pk]), {"dq-reason": "Fejl"})
    assert not Team.objects.get(pk=team.pk).disqualified
    assert AuditEntry.objects.filter(action="team_reinstate", reason="Fejl").exists()


def test_warning(client, admin_user, teams):
    client.force_login(admin_user)
    client.post(reverse("control:warning", args=[SLUG, teams[0].pk]), {"warning-reason": "Støj"})
    assert Warning.objects.get(team=teams[0]).reason == "Støj"
    html = client.get(reverse("control:team", args=[SLUG, teams[0].pk])).content.decode()
    assert "Støj" in html


def test_correct_a_finish_with_reason_and_audit(client, admin_user, competition, teams):
    _start(competition, minutes_ago=60)
    p1 = competition.puzzles.get(position=1)
    finish = Finish.objects.create(team=teams[0], puzzle=p1, elapsed_seconds=600)
    client.force_login(admin_user)
    url = reverse("control:finish_correct", args=[SLUG, teams[0].pk, finish.pk])
    # The reason is required; a malformed time gets a clear message.
    response = client.post(url, {f"f{finish.pk}-time": "0:09:00", f"f{finish.pk}-lone": ""})
    assert response.status_code == 400
    response = client.post(url, {f"f{finish.pk}-time": "9 min", f"f{finish.pk}-reason": "x"})
    assert "t:mm:ss" in response.content.decode()
    client.post(
        url,
        {
            f"f{finish.pk}-time": "0:09:00",
            f"f{finish.pk}-lone": "1",
            f"f{finish.pk}-adjacent": ["2", ""],
            f"f{finish.pk}-reason": "Dommeren tastede forkert",
        },
    )
    finish.refresh_from_db()
    assert finish.elapsed_seconds == 540 and finish.missing == [1, 2]
    entry = AuditEntry.objects.get(action="finish_correct")
    assert entry.reason == "Dommeren tastede forkert"
    html = client.get(reverse("control:audit", args=[SLUG]), {"action": "finish_correct"})
    text = html.content.decode()
    assert "Dommeren tastede forkert" in text
    assert "Tid: 0:10:00 → 0:09:00" in text  # before and after in words


def test_delete_only_the_latest_finish(client, admin_user, competition, teams):
    _start(competition, minutes_ago=60)
    p1, p2, _p3 = competition.puzzles.order_by("position")
    first = Finish.objects.create(team=teams[0], puzzle=p1, elapsed_seconds=600)
    second = Finish.objects.create(team=teams[0], puzzle=p2, elapsed_seconds=1600)
    client.force_login(admin_user)
    response = client.post(
        reverse("control:finish_delete", args=[SLUG, teams[0].pk, first.pk]), follow=True
    )
    assert Finish.objects.filter(pk=first.pk).exists()
    assert 'class="msg-error"' in response.content.decode()
    client.post(
        reverse("control:finish_delete", args=[SLUG, teams[0].pk, second.pk]),
        {f"d{second.pk}-reason": "Fejltryk"},
    )
    assert not Finish.objects.filter(pk=second.pk).exists()


def test_correct_a_count(client, admin_user, competition, teams):
    _start(competition, minutes_ago=200)
    p1 = competition.puzzles.get(position=1)
    count = Count.objects.create(team=teams[0], puzzle=p1, pieces=100)
    client.force_login(admin_user)
    url = reverse("control:count_correct", args=[SLUG, teams[0].pk])
    assert client.post(url, {"count-pieces": "120"}).status_code == 400  # no reason
    response = client.post(url, {"count-pieces": "2", "count-reason": "Talt igen"})
    assert response.status_code == 400  # R9: a group needs 3 pieces
    count.refresh_from_db()
    assert count.pieces == 100
    client.post(url, {"count-pieces": "120", "count-reason": "Talt igen"})
    count.refresh_from_db()
    assert count.pieces == 120


def test_audit_filters(client, admin_user, desk, teams):
    from competition.services import team_check_in, team_fee_set

    team_check_in(team=teams[0], by=desk)
    team_fee_set(team=teams[1], by=admin_user, paid=True)
    client.force_login(admin_user)
    url = reverse("control:audit", args=[SLUG])

    def actions(**params):
        return [r["entry"].action for r in client.get(url, params).context["rows"]]

    assert set(actions()) >= {"team_check_in", "team_fee_paid"}
    assert actions(team=teams[0].pk) == ["team_check_in"]
    assert actions(user=admin_user.pk) == ["team_fee_paid"]
    assert actions(action="team_check_in") == ["team_check_in"]


def test_objections_panel_is_included(client, admin_user, competition):
    client.force_login(admin_user)
    html = client.get(room()).content.decode()
    assert "control-live" in html
    assert "objections-panel" in html  # the objections helper's panel, included
