"""A warning (R14) sent twice with the same request id is one warning (docs/offline.md)."""

import uuid
from unittest import mock

import pytest
from django.db import connection
from django.utils import timezone

from competition.models import AuditEntry, Competition
from judging.models import RequestId, Warning
from judging.services import IdempotencyConflict, warning_log
from tests.judging.test_concurrency import THREADS, run_together

BASE = "/api/v1/competitions/dm-2026"


def url(team) -> str:
    return f"{BASE}/teams/{team.pk}/warnings/"


@pytest.mark.django_db
class TestService:
    def test_same_request_replays_the_stored_warning(self, running, teams, judge, state):
        rid = uuid.uuid4()
        first = warning_log(team=teams[0], by=judge, reason="Larm ved bordet", request_id=rid)
        assert first.replayed is False
        kept = RequestId.objects.get(request_id=rid)
        assert (first.request_id, kept.kind, len(kept.fingerprint)) == (rid, "warning", 64)
        assert (kept.record_id, kept.outcome) == (first.pk, "created")
        before = state()
        again = warning_log(team=teams[0], by=judge, reason="Larm ved bordet", request_id=rid)
        assert (again.pk, again.replayed, again.reason) == (first.pk, True, "Larm ved bordet")
        assert state() == before
        assert Warning.objects.count() == 1
        assert AuditEntry.objects.filter(action="warning_log").count() == 1

    def test_surrounding_spaces_are_the_same_reason(self, running, teams, judge):
        rid = uuid.uuid4()
        first = warning_log(team=teams[0], by=judge, reason="Larm", request_id=rid)
        again = warning_log(team=teams[0], by=judge, reason="  Larm\n", request_id=rid)
        assert (again.pk, again.replayed) == (first.pk, True)

    @pytest.mark.parametrize("other", ["reason", "team"])
    def test_different_payload_conflicts_and_writes_nothing(
        self, running, teams, judge, state, other
    ):
        rid = uuid.uuid4()
        warning_log(team=teams[0], by=judge, reason="Larm", request_id=rid)
        before = state()
        changed = {"team": teams[0], "reason": "Larm"}
        changed[other] = teams[1] if other == "team" else "Snyd"
        with pytest.raises(IdempotencyConflict) as caught:
            warning_log(by=judge, request_id=rid, **changed)
        assert caught.value.code == "idempotency_conflict"
        assert state() == before

    @pytest.mark.parametrize(("reason", "replayed"), [("Larm", True), ("Snyd", False)])
    def test_the_loser_of_a_race_gets_the_winners_answer(
        self, running, teams, judge, reason, replayed
    ):
        """Two requests with one id at once (docs/offline.md): the second looked before the first
        had saved, so its insert breaks the unique request id; it then answers with the
        saved warning (the same reason) or 422 (another), and writes nothing. Played here
        by hiding the saved warning from the second request's first look."""
        from judging.services import requests

        rid = uuid.uuid4()
        first = warning_log(team=teams[0], by=judge, reason="Larm", request_id=rid)
        looks = []

        def late(*args, **kwargs):
            looks.append(args)
            return None if len(looks) == 1 else real(*args, **kwargs)

        real = requests.recall
        with mock.patch.object(requests, "recall", late):
            if replayed:
                again = warning_log(team=teams[0], by=judge, reason=reason, request_id=rid)
                assert (again.pk, again.replayed, again.reason) == (first.pk, True, "Larm")
            else:
                with pytest.raises(IdempotencyConflict):
                    warning_log(team=teams[0], by=judge, reason=reason, request_id=rid)
        assert len(looks) == 2
        assert Warning.objects.count() == 1
        assert AuditEntry.objects.filter(action="warning_log").count() == 1

    def test_without_request_id_each_call_is_a_new_warning(self, running, teams, judge):
        warning_log(team=teams[0], by=judge, reason="Larm")
        second = warning_log(team=teams[0], by=judge, reason="Larm")
        assert second.replayed is False
        assert Warning.objects.filter(team=teams[0]).count() == 2
        assert set(Warning.objects.values_list("request_id", flat=True)) == {None}
        assert not RequestId.objects.exists()

    def test_replay_after_the_results_are_final(self, running, teams, judge):
        # The answer was lost; the tablet resends after finalising: still the first answer.
        rid = uuid.uuid4()
        first = warning_log(team=teams[0], by=judge, reason="Larm", request_id=rid)
        Competition.objects.filter(pk=running.pk).update(finalised_at=timezone.now())
        again = warning_log(team=teams[0], by=judge, reason="Larm", request_id=rid)
        assert (again.pk, again.replayed) == (first.pk, True)


@pytest.mark.django_db
class TestAPI:
    def test_replay_answers_200_with_the_first_answer(self, running, teams, api_as, judge, state):
        client = api_as(judge)
        body = {"reason": "Larm ved bordet", "request_id": str(uuid.uuid4())}
        first = client.post(url(teams[0]), body, format="json")
        assert first.status_code == 201
        assert "Idempotent-Replayed" not in first.headers
        assert first.json()["request_id"] == body["request_id"]
        before = state()
        again = client.post(url(teams[0]), body, format="json")
        assert again.status_code == 200
        assert again.headers["Idempotent-Replayed"] == "true"
        assert again.json() == first.json()
        assert state() == before
        assert Warning.objects.count() == 1

    def test_changed_reason_or_team_answers_422(self, running, teams, api_as, judge, state):
        client = api_as(judge)
        rid = str(uuid.uuid4())
        assert client.post(url(teams[0]), {"reason": "Larm", "request_id": rid}).status_code == 201
        before = state()
        for team, reason in ((teams[0], "Snyd"), (teams[1], "Larm")):
            answer = client.post(url(team), {"reason": reason, "request_id": rid}, format="json")
            assert answer.status_code == 422
            assert answer.json()["code"] == "idempotency_conflict"
            assert answer.json()["detail"]
        assert state() == before

    def test_without_request_id_still_201(self, running, teams, api_as, judge):
        answer = api_as(judge).post(url(teams[0]), {"reason": "Larm"}, format="json")
        assert answer.status_code == 201
        assert answer.json()["request_id"] is None

    @pytest.mark.parametrize(
        "body",
        [{"reason": "Larm", "request_id": "not-a-uuid"}, {"reason": "", "request_id": None}],
    )
    def test_bad_body_is_400_and_writes_nothing(self, running, teams, api_as, judge, body, state):
        before = state()
        answer = api_as(judge).post(url(teams[0]), body, format="json")
        assert answer.status_code == 400
        assert set(answer.json()) <= {"reason", "request_id"}
        assert state() == before


@pytest.fixture
def role_groups():
    """A transactional test empties the tables afterwards, the migration's groups too."""
    from django.contrib.auth.models import Group

    from competition.roles import ROLES

    for role in ROLES:
        Group.objects.get_or_create(name=role)


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="row locks and concurrent transactions need PostgreSQL (SQLite serialises all)",
)
def test_the_same_warning_eight_times_at_once(role_groups, running, teams, judge):
    rid = uuid.uuid4()
    results = run_together(
        [lambda: warning_log(team=teams[0], by=judge, reason="Larm", request_id=rid)] * THREADS
    )
    assert all(isinstance(r, Warning) for r in results), results
    assert len({r.pk for r in results}) == 1
    assert sorted(r.replayed for r in results) == [False] + [True] * (THREADS - 1)
    assert Warning.objects.count() == 1
    assert AuditEntry.objects.filter(action="warning_log").count() == 1
