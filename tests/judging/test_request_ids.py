"""Request ids kept for the whole competition (docs/offline.md "The server's side").

A request id outlives the record it created: once that record is deleted, voided by a later
finish, or cancelled, a resend of the id answers 409 `undone` and writes nothing; it never
writes the record again (or, for a count, against the next puzzle).
"""

import uuid

import pytest
from django.utils import timezone

from competition.models import AuditEntry, Competition
from judging.models import Count, Finish, RequestId, Warning
from judging.services import (
    IdempotencyConflict,
    count_record,
    finish_correct,
    finish_delete,
    finish_register,
    request_cancel,
    warning_log,
)
from tests.factories import CompetitionFactory

pytestmark = pytest.mark.django_db

BASE = "/api/v1/competitions/dm-2026"
RID = uuid.UUID("3d8f6a52-1c4b-4e0f-9b7a-6c2e5d1f0a84")


# --- Exactly as reported ------------------------------------------------


class TestDefect3ThroughTheAPI:
    def test_a_resend_after_the_finish_was_deleted_is_undone(
        self, running, teams, api_as, judge, state
    ):
        client = api_as(judge)
        body = {"team": teams[0].pk, "puzzle": 1, "request_id": str(uuid.uuid4())}
        first = client.post(f"{BASE}/finishes/", body, format="json")
        assert first.status_code == 201  # ... and the answer is lost on the way back
        deleted = client.delete(f"{BASE}/finishes/{first.json()['id']}/")
        assert deleted.status_code == 204
        before = state()
        again = client.post(f"{BASE}/finishes/", body, format="json")
        assert (again.status_code, again.json()["code"]) == (409, "undone"), again.content
        assert again.json()["detail"]
        assert state() == before
        assert not Finish.objects.exists()

    def test_a_resent_count_voided_by_a_late_finish_is_not_saved_against_the_next_puzzle(
        self, ended, teams, api_as, judge, state
    ):
        client = api_as(judge)
        team = teams[0]
        finish_register(team=team, position=1, by=judge, elapsed_seconds=3000)
        body = {"team": team.pk, "pieces": 680, "request_id": str(uuid.uuid4())}
        counted = client.post(f"{BASE}/counts/", body, format="json")
        assert (counted.status_code, counted.json()["puzzle"]) == (201, 2)  # answer lost
        # A finish of puzzle 2 noted on paper before the end, entered late: the count is void.
        late = {"team": team.pk, "puzzle": 2, "elapsed_seconds": 10700}
        assert client.post(f"{BASE}/finishes/", late, format="json").status_code == 201
        assert not Count.objects.filter(team=team).exists()
        before = state()
        again = client.post(f"{BASE}/counts/", body, format="json")
        assert (again.status_code, again.json()["code"]) == (409, "undone"), again.content
        assert state() == before
        assert not Count.objects.exists()  # not 680 pieces of puzzle 3

    def test_a_warning_resent_after_its_cancel_is_undone(
        self, running, teams, api_as, judge, state
    ):
        client = api_as(judge)
        rid = str(uuid.uuid4())
        url = f"{BASE}/teams/{teams[0].pk}/warnings/"
        assert client.post(url, {"reason": "Larm", "request_id": rid}).status_code == 201
        cancel = client.post(f"{BASE}/requests/{rid}/cancel")
        assert (cancel.status_code, cancel.json()) == (200, {"cancelled": "deleted"})
        before = state()
        again = client.post(url, {"reason": "Larm", "request_id": rid}, format="json")
        assert (again.status_code, again.json()["code"]) == (409, "undone")
        assert state() == before
        assert not Warning.objects.exists()


class TestDefect3InTheServices:
    def test_finish_deleted_then_resent(self, running, teams, judge, refused):
        rid = uuid.uuid4()
        finish = finish_register(team=teams[0], position=1, by=judge, request_id=rid)
        finish_delete(finish=finish, by=judge)
        refused("undone", finish_register, team=teams[0], position=1, by=judge, request_id=rid)

    def test_count_voided_then_resent(self, ended, teams, judge, refused):
        rid = uuid.uuid4()
        finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=3000)
        count_record(team=teams[0], by=judge, pieces=680, request_id=rid)
        finish_register(team=teams[0], position=2, by=judge, elapsed_seconds=10700)
        refused("undone", count_record, team=teams[0], by=judge, pieces=680, request_id=rid)

    def test_count_voided_by_undoing_the_finish_before_it_then_resent(
        self, ended, teams, judge, refused
    ):
        rid = uuid.uuid4()
        finish = finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=3000)
        count_record(team=teams[0], by=judge, pieces=680, request_id=rid)
        finish_delete(finish=finish, by=judge)
        refused("undone", count_record, team=teams[0], by=judge, pieces=680, request_id=rid)

    def test_a_changed_body_is_still_422_after_the_delete(self, running, teams, judge, state):
        rid = uuid.uuid4()
        finish = finish_register(team=teams[0], position=1, by=judge, request_id=rid)
        finish_delete(finish=finish, by=judge)
        before = state()
        with pytest.raises(IdempotencyConflict):
            finish_register(team=teams[1], position=1, by=judge, request_id=rid)
        assert state() == before


# --- the table ------------------------------------------------------------------------------


class TestTheTable:
    def test_each_kind_keeps_its_id_fingerprint_answer_and_user(self, ended, teams, judge):
        ids = [uuid.uuid4() for _ in range(3)]
        finish = finish_register(
            team=teams[0], position=1, by=judge, elapsed_seconds=3000, request_id=ids[0]
        )
        count = count_record(team=teams[0], by=judge, pieces=400, request_id=ids[1])
        warning = warning_log(team=teams[1], by=judge, reason="Larm", request_id=ids[2])
        rows = {r.request_id: r for r in RequestId.objects.all()}
        for rid, record, kind in zip(
            ids, (finish, count, warning), ("finish", "count", "warning"), strict=True
        ):
            row = rows[rid]
            assert (row.kind, row.record_id, row.outcome) == (kind, record.pk, "created")
            assert (row.competition, row.team_id, row.user) == (ended, record.team_id, judge)
            assert len(row.fingerprint) == 64
            assert row.answer["id"] == record.pk
        assert rows[ids[1]].answer["pieces"] == 400

    def test_outcomes_follow_what_became_of_the_record(self, ended, teams, judge):
        first, second = uuid.uuid4(), uuid.uuid4()
        finish = finish_register(
            team=teams[0], position=1, by=judge, elapsed_seconds=3000, request_id=first
        )
        count_record(team=teams[0], by=judge, pieces=400, request_id=second)
        finish_delete(finish=finish, by=judge)  # the count of puzzle 2 goes with it
        outcomes = dict(RequestId.objects.values_list("request_id", "outcome"))
        assert outcomes == {first: "deleted", second: "voided"}

    def test_a_replay_answers_the_first_answer_after_a_correction(
        self, running, teams, api_as, judge, admin_user
    ):
        client = api_as(judge)
        body = {"team": teams[0].pk, "puzzle": 1, "elapsed_seconds": 3600, "request_id": RID}
        first = client.post(f"{BASE}/finishes/", body, format="json")
        fid = first.json()["id"]
        finish_correct(
            finish=Finish.objects.get(pk=fid), by=admin_user, reason="Ur", elapsed_seconds=3500
        )
        again = client.post(f"{BASE}/finishes/", body, format="json")
        assert (again.status_code, again.headers["Idempotent-Replayed"]) == (200, "true")
        assert again.json() == first.json()
        assert again.json()["elapsed_seconds"] == 3600

    def test_an_id_of_another_competition_is_422_and_leaves_it_alone(
        self, running, teams, judge, state
    ):
        from tests.factories import PuzzleFactory, TeamFactory

        other = CompetitionFactory(slug="andet")
        PuzzleFactory(competition=other, position=1, pieces=500)
        Competition.objects.filter(pk=other.pk).update(started_at=running.started_at)
        elsewhere = TeamFactory(competition=other, table=1)
        finish_register(team=elsewhere, position=1, by=judge, request_id=RID)
        before = state()
        with pytest.raises(IdempotencyConflict):
            finish_register(team=teams[0], position=1, by=judge, request_id=RID)
        with pytest.raises(IdempotencyConflict):
            request_cancel(competition=running, request_id=RID, by=judge)
        assert state() == before
        assert Finish.objects.get(team=elsewhere).request_id == RID


# --- the cancel: services -------------------------------------------------------------------


def version(competition) -> int:
    return Competition.objects.get(pk=competition.pk).standings_version


class TestCancel:
    def test_a_finish_still_the_latest_is_deleted(self, running, teams, judge, state):
        finish_register(team=teams[0], position=1, by=judge, request_id=RID)
        v = version(running)
        assert request_cancel(competition=running, request_id=RID, by=judge) == "deleted"
        assert not Finish.objects.exists()
        assert version(running) == v + 1
        entry = AuditEntry.objects.order_by("-pk").first()
        assert (entry.action, entry.user, entry.before["puzzle"]) == ("finish_delete", judge, 1)
        assert entry.reason
        assert RequestId.objects.get(request_id=RID).outcome == "cancelled"
        before = state()
        assert request_cancel(competition=running, request_id=RID, by=judge) == "deleted"
        assert state() == before  # the same cancel again: the same answer, nothing written

    def test_a_finish_that_is_not_the_latest_is_refused(self, running, teams, judge, refused):
        finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=900, request_id=RID)
        finish_register(team=teams[0], position=2, by=judge, elapsed_seconds=2000)
        refused("not_latest", request_cancel, competition=running, request_id=RID, by=judge)
        assert Finish.objects.filter(team=teams[0]).count() == 2

    def test_a_request_that_never_arrived_never_will(self, running, teams, judge, refused, state):
        v = version(running)
        assert request_cancel(competition=running, request_id=RID, by=judge) == "never_arrived"
        assert AuditEntry.objects.order_by("-pk").first().action == "request_cancel"
        assert version(running) == v + 1
        row = RequestId.objects.get(request_id=RID)
        assert (row.outcome, row.kind, row.team, row.record_id) == ("cancelled", "", None, None)
        refused("undone", finish_register, team=teams[0], position=1, by=judge, request_id=RID)
        refused("undone", warning_log, team=teams[0], by=judge, reason="Larm", request_id=RID)
        before = state()
        assert request_cancel(competition=running, request_id=RID, by=judge) == "never_arrived"
        assert state() == before
        assert not Finish.objects.exists()

    def test_a_count_that_never_arrived(self, ended, teams, judge, refused):
        assert request_cancel(competition=ended, request_id=RID, by=judge) == "never_arrived"
        refused("undone", count_record, team=teams[0], by=judge, pieces=300, request_id=RID)

    def test_a_count_is_deleted_and_its_resend_undone(self, ended, teams, judge, refused):
        count_record(team=teams[0], by=judge, pieces=300, request_id=RID)
        v = version(ended)
        assert request_cancel(competition=ended, request_id=RID, by=judge) == "deleted"
        assert not Count.objects.exists()
        assert version(ended) == v + 1
        assert AuditEntry.objects.order_by("-pk").first().action == "count_delete"
        refused("undone", count_record, team=teams[0], by=judge, pieces=300, request_id=RID)

    def test_a_warning_is_deleted(self, running, teams, judge):
        warning_log(team=teams[0], by=judge, reason="Larm", request_id=RID)
        assert request_cancel(competition=running, request_id=RID, by=judge) == "deleted"
        assert not Warning.objects.exists()
        entry = AuditEntry.objects.order_by("-pk").first()
        assert (entry.action, entry.before["reason"]) == ("warning_delete", "Larm")

    def test_a_record_deleted_meanwhile_is_answered_deleted_and_kept_as_it_was(
        self, running, teams, judge, state
    ):
        finish = finish_register(team=teams[0], position=1, by=judge, request_id=RID)
        finish_delete(finish=finish, by=judge)
        before = state()
        assert request_cancel(competition=running, request_id=RID, by=judge) == "deleted"
        assert state() == before
        assert RequestId.objects.get(request_id=RID).outcome == "deleted"

    def test_refused_once_final(self, running, teams, judge, refused):
        finish_register(team=teams[0], position=1, by=judge, request_id=RID)
        Competition.objects.filter(pk=running.pk).update(finalised_at=timezone.now())
        running.refresh_from_db()
        refused("final", request_cancel, competition=running, request_id=RID, by=judge)
        refused("final", request_cancel, competition=running, request_id=uuid.uuid4(), by=judge)
        assert Finish.objects.count() == 1

    def test_a_cancel_done_before_final_still_answers_the_same(self, running, teams, judge):
        assert request_cancel(competition=running, request_id=RID, by=judge) == "never_arrived"
        Competition.objects.filter(pk=running.pk).update(finalised_at=timezone.now())
        assert request_cancel(competition=running, request_id=RID, by=judge) == "never_arrived"


# --- the cancel: API ------------------------------------------------------------------------


class TestCancelAPI:
    def url(self, rid=RID) -> str:
        return f"{BASE}/requests/{rid}/cancel"

    def test_deleted_then_the_same_again(self, running, teams, api_as, judge):
        client = api_as(judge)
        body = {"team": teams[0].pk, "puzzle": 1, "request_id": str(RID)}
        assert client.post(f"{BASE}/finishes/", body, format="json").status_code == 201
        for _ in range(2):
            answer = client.post(self.url())
            assert (answer.status_code, answer.json()) == (200, {"cancelled": "deleted"})
        assert not Finish.objects.exists()
        late = client.post(f"{BASE}/finishes/", body, format="json")
        assert (late.status_code, late.json()["code"]) == (409, "undone")

    def test_never_arrived_then_the_request_arrives(self, running, teams, api_as, judge, state):
        client = api_as(judge)
        for _ in range(2):
            answer = client.post(self.url())
            assert (answer.status_code, answer.json()) == (200, {"cancelled": "never_arrived"})
        before = state()
        body = {"team": teams[0].pk, "puzzle": 1, "request_id": str(RID)}
        late = client.post(f"{BASE}/finishes/", body, format="json")
        assert (late.status_code, late.json()["code"]) == (409, "undone")
        assert late.json()["outcome"] == "cancelled"
        assert state() == before

    def test_an_admin_may_cancel_too(self, running, teams, api_as, judge, admin_user):
        finish_register(team=teams[0], position=1, by=judge, request_id=RID)
        answer = api_as(admin_user).post(self.url())
        assert (answer.status_code, answer.json()) == (200, {"cancelled": "deleted"})

    def test_409_not_latest_and_final_write_nothing(self, running, teams, api_as, judge, state):
        client = api_as(judge)
        finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=900, request_id=RID)
        finish_register(team=teams[0], position=2, by=judge, elapsed_seconds=2000)
        before = state()
        answer = client.post(self.url())
        assert (answer.status_code, answer.json()["code"]) == (409, "not_latest")
        Competition.objects.filter(pk=running.pk).update(finalised_at=timezone.now())
        before = state()
        for rid in (RID, uuid.uuid4()):
            answer = client.post(self.url(rid))
            assert (answer.status_code, answer.json()["code"]) == (409, "final")
        assert state() == before

    def test_not_a_request_id_or_no_such_competition_is_404(self, running, api_as, judge, state):
        client = api_as(judge)
        before = state()
        assert client.post(f"{BASE}/requests/not-a-uuid/cancel").status_code == 404
        assert client.post(f"/api/v1/competitions/nope/requests/{RID}/cancel").status_code == 404
        assert state() == before

    def test_the_schema_describes_it(self, api):
        schema = api.get("/api/schema/", {"format": "json"}).json()
        cancel = schema["paths"]["/api/v1/competitions/{slug}/requests/{request_id}/cancel"]
        assert {"200", "409", "422"} <= set(cancel["post"]["responses"])
