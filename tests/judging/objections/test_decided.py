"""A resolved objection binds (docs/contracts.md "A decided record"). Only the head judge changes
the finish or count it decided (upheld or rejected), with a reason, and the audit entry names the
objection; anyone else gets 409 `decided`, and a tablet's late cancel of the request that created it
answers `decided` too. A refusal writes nothing and says who decided it and when.
"""

import uuid

import pytest

from competition.models import AuditEntry
from judging.models import Count, Finish
from judging.services import (
    count_record,
    finish_register,
    objection_file,
    objection_resolve,
)

pytestmark = pytest.mark.django_db

API = "/api/v1/competitions/dm-2026"


def refused(response, code="decided"):
    assert response.status_code == 409, (response.status_code, response.content)
    body = response.json()
    assert body["code"] == code
    return body


@pytest.fixture
def upheld(running, teams, judge, desk, admin_user):
    """A tablet's tap registered table 1's puzzle 1 at 0:31:40; the objection is upheld and
    the finish corrected to 0:29:00."""
    rid = uuid.uuid4()
    finish = finish_register(
        team=teams[0], position=1, by=judge, elapsed_seconds=1900, request_id=rid
    )
    objection = objection_file(team=teams[0], by=desk, text="Vi var færdige før", finish=finish)
    objection_resolve(
        objection=objection, by=admin_user, decision="upheld", note="Video", elapsed_seconds=1740
    )
    finish.refresh_from_db()
    assert finish.elapsed_seconds == 1740
    return finish, objection, rid


def test_a_judges_correction_of_an_upheld_finish_is_refused(upheld, api_as, judge, state):
    finish, objection, _rid = upheld
    before = state()
    body = refused(
        api_as(judge).patch(
            f"{API}/finishes/{finish.pk}/",
            {"elapsed_seconds": 1900, "reason": "tabletten"},
            format="json",
        )
    )
    assert body["objection"] == objection.pk
    assert "bord 1" in body["detail"] and "overdommer" in body["detail"]
    assert body["decided_by"] == "overdommer" and body["decided_at"]
    refused(api_as(judge).delete(f"{API}/finishes/{finish.pk}/"))
    assert state() == before


def test_a_late_cancel_of_the_original_tap_is_refused_even_for_the_head_judge(
    upheld, api_as, judge, admin_user, state
):
    finish, _objection, rid = upheld
    before = state()
    for user in (judge, admin_user):
        refused(api_as(user).post(f"{API}/requests/{rid}/cancel", {}, format="json"))
    assert state() == before
    assert Finish.objects.get(pk=finish.pk).elapsed_seconds == 1740


def test_the_head_judge_changes_it_with_a_reason_naming_the_objection(
    upheld, api_as, admin_user, state
):
    finish, objection, _rid = upheld
    admin = api_as(admin_user)
    url = f"{API}/finishes/{finish.pk}/"
    before = state()
    assert admin.delete(url).status_code == 400  # no reason
    assert state() == before
    response = admin.patch(url, {"elapsed_seconds": 1750, "reason": "Ny video"}, format="json")
    assert response.status_code == 200, response.content
    entry = AuditEntry.objects.filter(action="finish_correct").latest("pk")
    assert entry.objection_id == objection.pk and entry.reason == "Ny video"
    assert admin.delete(f"{url}?reason=Fejl%20i%20indsigelsen").status_code == 204
    entry = AuditEntry.objects.filter(action="finish_delete").latest("pk")
    assert entry.objection_id == objection.pk


def test_the_control_room_asks_the_head_judge_for_the_reason(upheld, client, admin_user, teams):
    finish, objection, _rid = upheld
    client.force_login(admin_user)
    page = f"/control/dm-2026/teams/{teams[0].pk}/finishes/{finish.pk}/delete"
    response = client.post(page, {f"d{finish.pk}-reason": ""}, follow=True)
    assert "Angiv en begrundelse" in response.content.decode()
    assert Finish.objects.filter(pk=finish.pk).exists()


@pytest.fixture
def rejected_count(ended, teams, judge, desk, admin_user):
    """Table 1 counted 300 on puzzle 1 by a tablet's tap; the objection to it is rejected."""
    rid = uuid.uuid4()
    count = count_record(team=teams[0], by=judge, pieces=300, request_id=rid)
    objection = objection_file(team=teams[0], by=desk, text="Vi havde flere", count=count)
    objection_resolve(objection=objection, by=admin_user, decision="rejected", note="Talt igen")
    return count, objection, rid


def test_a_rejected_objection_about_a_count_binds_too(rejected_count, api_as, judge, teams, state):
    count, objection, rid = rejected_count
    judging = api_as(judge)
    before = state()
    body = refused(
        judging.patch(f"{API}/counts/{count.pk}/", {"pieces": 350, "reason": "x"}, format="json")
    )
    assert body["objection"] == objection.pk and "afvist" in body["detail"]
    # A late paper finish of the counted puzzle would void the decided count.
    refused(
        judging.post(
            f"{API}/finishes/",
            {"team": teams[0].pk, "puzzle": 3, "elapsed_seconds": 10000},
            format="json",
        )
    )
    refused(judging.post(f"{API}/requests/{rid}/cancel", {}, format="json"))
    assert state() == before
    assert Count.objects.get(pk=count.pk).pieces == 300


def test_an_undecided_finish_is_corrected_by_a_judge_as_before(running, teams, judge, api_as):
    finish = finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=1900)
    objection_file(team=teams[0], by=judge, text="åben", finish=finish)  # open: binds nothing
    response = api_as(judge).patch(
        f"{API}/finishes/{finish.pk}/", {"elapsed_seconds": 1800, "reason": "x"}, format="json"
    )
    assert response.status_code == 200
