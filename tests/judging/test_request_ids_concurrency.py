"""A request and its cancel racing on PostgreSQL (docs/offline.md): they serialise on the locks.

Whichever reaches the server first, the end state is the same: no record from the request,
its id kept as cancelled, and a later resend answers 409 `undone`. Never a record together
with a "cancelled" outcome.
"""

import uuid

import pytest
from django.db import connection

from competition.errors import Refusal
from judging.models import Count, Finish, RequestId
from judging.services import count_record, finish_register, request_cancel
from tests.factories import TeamFactory
from tests.judging.test_concurrency import THREADS, run_together

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="row locks and concurrent transactions need PostgreSQL (SQLite serialises all)",
    ),
]


@pytest.fixture(autouse=True)
def _role_groups():
    # A transactional test empties the tables afterwards, the migration's groups too.
    from django.contrib.auth.models import Group

    from competition.roles import ROLES

    for role in ROLES:
        Group.objects.get_or_create(name=role)


def assert_cancelled(model, rid, sent, cancelled):
    """One pair's outcome: the request and its cancel agree, and nothing is left."""
    assert not model.objects.filter(request_id=rid).exists()
    assert RequestId.objects.get(request_id=rid).outcome == "cancelled"
    if isinstance(sent, model):
        assert (sent.replayed, cancelled) == (False, "deleted")
    else:
        assert isinstance(sent, Refusal), sent
        assert (sent.code, cancelled) == ("undone", "never_arrived")


def test_finishes_and_their_cancels_at_once(running, judge):
    pairs = [
        (TeamFactory(competition=running, name=f"Kapløb {i}", table=10 + i), uuid.uuid4())
        for i in range(THREADS // 2)
    ]
    jobs = []
    for team, rid in pairs:
        jobs += [
            lambda t=team, r=rid: finish_register(team=t, position=1, by=judge, request_id=r),
            lambda r=rid: request_cancel(competition=running, request_id=r, by=judge),
        ]
    results = run_together(jobs)
    for i, (team, rid) in enumerate(pairs):
        assert_cancelled(Finish, rid, results[2 * i], results[2 * i + 1])
        with pytest.raises(Refusal) as resent:
            finish_register(team=team, position=1, by=judge, request_id=rid)
        assert resent.value.code == "undone"
    assert not Finish.objects.exists()


def test_counts_and_their_cancels_at_once(ended, judge):
    pairs = [
        (TeamFactory(competition=ended, name=f"Kapløb {i}", table=10 + i), uuid.uuid4())
        for i in range(THREADS // 2)
    ]
    jobs = []
    for team, rid in pairs:
        jobs += [
            lambda t=team, r=rid: count_record(team=t, by=judge, pieces=300, request_id=r),
            lambda r=rid: request_cancel(competition=ended, request_id=r, by=judge),
        ]
    results = run_together(jobs)
    for i, (team, rid) in enumerate(pairs):
        assert_cancelled(Count, rid, results[2 * i], results[2 * i + 1])
        with pytest.raises(Refusal) as resent:
            count_record(team=team, by=judge, pieces=300, request_id=rid)
        assert resent.value.code == "undone"
    assert not Count.objects.exists()


def test_one_request_and_many_cancels_of_it_at_once(running, teams, judge):
    rid = uuid.uuid4()
    jobs = [lambda: finish_register(team=teams[0], position=1, by=judge, request_id=rid)]
    jobs += [lambda: request_cancel(competition=running, request_id=rid, by=judge)] * (THREADS - 1)
    sent, *cancels = run_together(jobs)
    assert len(set(cancels)) == 1, cancels  # every cancel answers the same
    assert_cancelled(Finish, rid, sent, cancels[0])
    assert RequestId.objects.count() == 1
