"""Counts checked twice (docs/contracts.md "The second count", `counts/{id}/confirm`,
`count_differs`, `counts_unconfirmed`): through the services and the API."""

import uuid

import pytest
from django.urls import reverse

from competition.errors import Refusal
from competition.models import AuditEntry, Competition
from judging.models import Count
from judging.services import (
    competition_finalise,
    count_confirm,
    count_correct,
    count_record,
    request_cancel,
)
from puzzle_rules import rules

BASE = "/api/v1/competitions/dm-2026"


@pytest.fixture(autouse=True)
def _second_count_on(competition):
    Competition.objects.filter(pk=competition.pk).update(second_count=True)
    competition.second_count = True


@pytest.fixture
def judge2(make_user):
    return make_user("judge", "judge2")


@pytest.fixture
def counted(ended, teams, judge):
    """Every team counted by `judge` (puzzle 1 of 500 pieces is unfinished for all)."""
    return [count_record(team=team, by=judge, pieces=100 + team.table) for team in teams]


# --- the pure rule -----------------------------------------------------------------------


def test_rule_equal_confirms_different_refuses():
    assert rules.check_second_count(420, 420) == 420
    with pytest.raises(rules.RuleViolation) as caught:
        rules.check_second_count(420, 410)
    assert caught.value.code == "count_differs"


# --- services ----------------------------------------------------------------------------


def test_equal_blind_count_confirms(counted, judge2):
    count = count_confirm(count=counted[0], by=judge2, pieces=101)
    count.refresh_from_db()
    assert count.confirmed_at is not None and count.confirmed_by == judge2
    assert AuditEntry.objects.filter(action="count_confirm", team=count.team).exists()


def test_unplaced_form_confirms(counted, judge2):
    # 500 − 390 − 9 = 101
    count_confirm(count=counted[0], by=judge2, unplaced=390, loose=9)
    assert Count.objects.get(pk=counted[0].pk).confirmed_at is not None


def test_different_count_is_refused_with_both_numbers_and_flags_a_recount(counted, judge2):
    with pytest.raises(Refusal) as caught:
        count_confirm(count=counted[0], by=judge2, pieces=110)
    assert caught.value.code == "count_differs"
    assert caught.value.extra == {"first": 101, "second": 110}
    count = Count.objects.get(pk=counted[0].pk)
    assert count.confirmed_at is None and count.second_pieces == 110  # flagged, kept
    assert count.pieces == 101  # the first count is not changed


def test_the_judge_who_counted_cannot_confirm(counted, judge, refused):
    refused("own_count", count_confirm, count=counted[0], by=judge, pieces=101)


def test_an_admin_may_confirm_even_their_own(ended, teams, admin_user):
    count = count_record(team=teams[0], by=admin_user, pieces=200)
    count_confirm(count=count, by=admin_user, pieces=200)
    assert Count.objects.get(pk=count.pk).confirmed_at is not None


def test_confirm_twice_is_refused(counted, judge2, make_user, refused):
    count_confirm(count=counted[0], by=judge2, pieces=101)
    refused(
        "already_confirmed",
        count_confirm,
        count=counted[0],
        by=make_user("judge", "judge3"),
        pieces=101,
    )


def test_head_judge_correction_settles_a_difference(counted, judge2, admin_user):
    with pytest.raises(Refusal):
        count_confirm(count=counted[0], by=judge2, pieces=110)
    count_correct(count=counted[0], by=admin_user, pieces=110, reason="Talt igen sammen")
    count = Count.objects.get(pk=counted[0].pk)
    assert (count.pieces, count.second_pieces) == (110, None)
    assert count.confirmed_at is not None and count.confirmed_by == admin_user


def test_a_judge_corrects_until_confirmed_then_not(counted, judge, judge2, refused):
    count_correct(count=counted[0], by=judge, pieces=120, reason="Tastefejl")
    assert Count.objects.get(pk=counted[0].pk).pieces == 120
    count_confirm(count=counted[0], by=judge2, pieces=120)
    refused("count_confirmed", count_correct, count=counted[0], by=judge, pieces=130, reason="x")


def test_another_judge_cannot_correct_an_unconfirmed_count(counted, judge, judge2, refused):
    """Judge 2 corrected judge 1's 101 to 400 and confirmed 400 alone."""
    caught = refused(
        "count_not_yours", count_correct, count=counted[0], by=judge2, pieces=400, reason="x"
    )
    assert "talt af mette kl. " in str(caught.message)
    assert caught.extra["registered_by"] == "mette"
    count_correct(count=counted[0], by=judge, pieces=120, reason="Tastefejl")  # their own


def test_after_count_differs_only_the_head_judge_settles(
    counted, judge, judge2, admin_user, refused
):
    with pytest.raises(Refusal):
        count_confirm(count=counted[0], by=judge2, pieces=110)
    for who in (judge, judge2):  # neither the first nor the second judge
        caught = refused(
            "count_not_yours", count_correct, count=counted[0], by=who, pieces=110, reason="x"
        )
        assert "101 og 110" in str(caught.message)
    count_correct(count=counted[0], by=admin_user, pieces=110, reason="Talt igen sammen")
    assert Count.objects.get(pk=counted[0].pk).confirmed_at is not None


def test_api_the_second_judge_cannot_correct_then_confirm_alone(counted, api_as, judge2, state):
    count = counted[0]
    second = api_as(judge2)
    before = state()
    response = second.patch(
        f"{BASE}/counts/{count.pk}/", {"pieces": 400, "reason": "rettet"}, format="json"
    )
    assert response.status_code == 409, response.content
    assert response.json()["code"] == "count_not_yours"
    assert state() == before
    # The blind count of 400 now differs from the first judge's 101: not confirmed.
    response = second.post(f"{BASE}/counts/{count.pk}/confirm", {"pieces": 400}, format="json")
    assert response.json()["code"] == "count_differs"
    assert Count.objects.get(pk=count.pk).confirmed_at is None


def test_finalise_waits_for_every_second_count(counted, judge2, admin_user, refused):
    count_confirm(count=counted[0], by=judge2, pieces=101)
    caught = refused(
        "counts_unconfirmed",
        competition_finalise,
        competition=counted[0].team.competition,
        by=admin_user,
    )
    assert [t["table"] for t in caught.extra["teams"]] == [2, 3]
    count_confirm(count=counted[1], by=judge2, pieces=102)
    count_confirm(count=counted[2], by=admin_user, pieces=103)
    assert competition_finalise(competition=counted[0].team.competition, by=admin_user).is_final


def test_with_second_count_off_everything_works_as_before(counted, admin_user):
    Competition.objects.filter(slug="dm-2026").update(second_count=False)
    competition = Competition.objects.get(slug="dm-2026")
    assert competition_finalise(competition=competition, by=admin_user).is_final


def test_a_judge_corrects_a_count_with_second_count_off_as_before(counted, judge, judge2):
    Competition.objects.filter(slug="dm-2026").update(second_count=False)
    count_correct(count=counted[0], by=judge, pieces=150, reason="Tastefejl")
    count_correct(count=counted[0], by=judge2, pieces=160, reason="Tastefejl")
    assert Count.objects.get(pk=counted[0].pk).confirmed_at is None


def test_the_same_request_id_answers_the_same_and_writes_once(counted, judge2, state):
    rid = uuid.uuid4()
    count_confirm(count=counted[0], by=judge2, pieces=101, request_id=rid)
    before = state()
    again = count_confirm(count=counted[0], by=judge2, pieces=101, request_id=rid)
    assert again.replayed and state() == before


def test_a_resent_difference_answers_the_same_409_and_writes_nothing(counted, judge2, state):
    rid = uuid.uuid4()
    with pytest.raises(Refusal):
        count_confirm(count=counted[0], by=judge2, pieces=110, request_id=rid)
    before = state()
    with pytest.raises(Refusal) as caught:
        count_confirm(count=counted[0], by=judge2, pieces=110, request_id=rid)
    assert caught.value.code == "count_differs" and caught.value.extra["second"] == 110
    assert state() == before


def test_cancel_of_a_confirm_takes_the_confirmation_back(counted, judge2):
    rid = uuid.uuid4()
    count_confirm(count=counted[0], by=judge2, pieces=101, request_id=rid)
    competition = counted[0].team.competition
    assert request_cancel(competition=competition, request_id=rid, by=judge2) == "deleted"
    assert Count.objects.get(pk=counted[0].pk).confirmed_at is None
    with pytest.raises(Refusal) as caught:
        count_confirm(count=counted[0], by=judge2, pieces=101, request_id=rid)
    assert caught.value.code == "undone"


def test_a_confirm_cancelled_before_it_arrived_is_undone(counted, judge2, state):
    rid = uuid.uuid4()
    competition = counted[0].team.competition
    assert request_cancel(competition=competition, request_id=rid, by=judge2) == "never_arrived"
    before = state()
    with pytest.raises(Refusal) as caught:
        count_confirm(count=counted[0], by=judge2, pieces=101, request_id=rid)
    assert caught.value.code == "undone" and state() == before


# --- API ---------------------------------------------------------------------------------


def test_api_create_competition_second_count_default_and_off(api_as, admin_user):
    client = api_as(admin_user)
    body = {"slug": "a-2026", "name": "A", "starts_at": "2026-12-20T10:00:00+01:00"}
    assert client.post("/api/v1/competitions/", body).json()["second_count"] is True
    off = client.post(
        "/api/v1/competitions/", {**body, "slug": "b-2026", "second_count": False}, format="json"
    )
    assert off.status_code == 201 and off.json()["second_count"] is False
    assert Competition.objects.get(slug="b-2026").second_count is False


def test_api_confirm_equal_200(counted, api_as, judge2):
    answer = api_as(judge2).post(
        f"{BASE}/counts/{counted[0].pk}/confirm", {"pieces": 101}, format="json"
    )
    assert answer.status_code == 200 and answer.json()["confirmed"] is True


def test_api_confirm_different_409_with_both_numbers(counted, api_as, judge2):
    answer = api_as(judge2).post(
        f"{BASE}/counts/{counted[0].pk}/confirm", {"unplaced": 300, "loose": 0}, format="json"
    )
    assert answer.status_code == 409
    assert answer.json()["code"] == "count_differs"
    assert (answer.json()["first"], answer.json()["second"]) == (101, 200)


def test_api_confirm_replay_and_conflict(counted, api_as, judge2):
    client = api_as(judge2)
    rid = str(uuid.uuid4())
    url = f"{BASE}/counts/{counted[0].pk}/confirm"
    first = client.post(url, {"pieces": 101, "request_id": rid}, format="json")
    again = client.post(url, {"pieces": 101, "request_id": rid}, format="json")
    assert first.status_code == again.status_code == 200
    assert again["Idempotent-Replayed"] == "true"
    other = client.post(url, {"pieces": 105, "request_id": rid}, format="json")
    assert other.status_code == 422


@pytest.mark.parametrize(
    "body", [{}, {"pieces": 1}, {"pieces": "x"}, {"pieces": 101, "unplaced": 399}, {"pieces": 500}]
)
def test_api_confirm_bad_bodies_400(counted, api_as, judge2, state, body):
    before = state()
    answer = api_as(judge2).post(f"{BASE}/counts/{counted[0].pk}/confirm", body, format="json")
    assert answer.status_code == 400
    assert state() == before


def test_api_finalise_counts_unconfirmed(counted, api_as, admin_user):
    answer = api_as(admin_user).post(f"{BASE}/finalise")
    assert answer.status_code == 409 and answer.json()["code"] == "counts_unconfirmed"
    assert [t["table"] for t in answer.json()["teams"]] == [1, 2, 3]


# --- pages -------------------------------------------------------------------------------


def test_control_room_flags_the_team_whose_counts_differ(client, counted, judge2, admin_user):
    with pytest.raises(Refusal):
        count_confirm(count=counted[1], by=judge2, pieces=150)
    client.force_login(admin_user)
    page = client.get(reverse("control:finalise", kwargs={"slug": "dm-2026"})).text
    assert "Venter på kontroloptælling:" in page
    assert "Optællingerne er forskellige: 102 og 150 brikker" in page
    assert "Du afgør det som overdommer" in page  # Who settles it
    assert 'name="confirm" value="yes" required disabled' in page


def test_judge_page_never_shows_the_first_number_to_the_second_judge(
    client, counted, judge, judge2
):
    board = reverse("judge:board", args=["dm-2026"])
    client.force_login(judge2)
    page = client.get(board).text
    assert "Kontroloptælling af puslespil 1" in page
    assert "Optalt: 101 brikker" not in page and 'data-counted="101"' not in page
    client.force_login(judge)  # the judge who counted sees it, waiting, and may correct it
    page = client.get(board).text
    assert "Optalt: 101 brikker" in page
    assert "Venter på kontroloptælling af en anden dommer" in page
    assert "Ret optælling" in page
    count_confirm(count=counted[0], by=judge2, pieces=101)
    client.force_login(judge2)
    assert "Optalt: 101 brikker ✓ bekræftet" in client.get(board).text
