"""R20 on PostgreSQL: an objection filed while the head judge finalises never slips past."""

import threading

import pytest
from django.db import connection

from competition.errors import Refusal
from competition.models import Competition
from judging.models import Objection
from judging.services import competition_finalise, objection_file


@pytest.mark.django_db(transaction=True)
def test_filing_and_finalising_at_once_never_both_succeed(counted, teams, desk, admin_user):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL row locks")
    results: dict[str, str] = {}
    barrier = threading.Barrier(2)

    def run(name, call):
        try:
            barrier.wait()
            call()
            results[name] = "ok"
        except Refusal as refusal:
            results[name] = refusal.code
        finally:
            connection.close()

    threads = [
        threading.Thread(
            target=run,
            args=("file", lambda: objection_file(team=teams[0], by=desk, text="For sent")),
        ),
        threading.Thread(
            target=run,
            args=("final", lambda: competition_finalise(competition=counted, by=admin_user)),
        ),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    final = Competition.objects.get(pk=counted.pk).is_final
    open_objections = Objection.objects.filter(decision="open").count()
    assert results in (
        {"file": "ok", "final": "objections_open"},
        {"file": "final", "final": "ok"},
    )
    assert (final, open_objections) in ((True, 0), (False, 1))


@pytest.mark.django_db(transaction=True)
def test_the_same_objection_from_two_tabs_at_once_is_one(counted, teams, desk):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL row locks")
    barrier = threading.Barrier(2)
    filed: list[int] = []

    def run():
        try:
            barrier.wait()
            filed.append(objection_file(team=teams[0], by=desk, text="For sent").pk)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(filed) == 2 and filed[0] == filed[1]
    assert Objection.objects.count() == 1
