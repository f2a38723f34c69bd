"""Request ids kept for the whole competition (OFFLINE.md "On the server", issue 11 defect 3).

A request id outlives the record it created: once that record is deleted, voided by a later
finish, or cancelled, a resend of the id answers 409 `undone` and writes nothing; it never
writes the record again (or, for a count, against the next puzzle).
"""

import uuid

import pytest

from judging.models import Count, Finish, Warning
from judging.services import count_record, finish_delete, finish_register

pytestmark = pytest.mark.django_db

BASE = "/api/v1/competitions/dm-2026"


# --- issue 11, defect 3, exactly as reported ------------------------------------------------


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
        from judging.services import IdempotencyConflict

        rid = uuid.uuid4()
        finish = finish_register(team=teams[0], position=1, by=judge, request_id=rid)
        finish_delete(finish=finish, by=judge)
        before = state()
        with pytest.raises(IdempotencyConflict):
            finish_register(team=teams[1], position=1, by=judge, request_id=rid)
        assert state() == before
