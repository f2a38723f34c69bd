"""Real threads on PostgreSQL: never two finishes, never a lost one, standings consistent."""

import threading
import uuid
from datetime import timedelta

import pytest
from django.db import connection

from competition.errors import Refusal
from competition.models import AuditEntry, Puzzle
from judging.models import Count, Finish
from judging.services import count_record, finish_correct, finish_register
from puzzle_rules import rules

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="row locks and concurrent transactions need PostgreSQL (SQLite serialises all)",
    ),
]

THREADS = 8


@pytest.fixture(autouse=True)
def _role_groups():
    # A transactional test empties the tables afterwards, the migration's groups too.
    from django.contrib.auth.models import Group

    from competition.roles import ROLES

    for role in ROLES:
        Group.objects.get_or_create(name=role)


def run_together(jobs):
    """Run the callables at the same moment, each in its own thread and connection."""
    barrier = threading.Barrier(len(jobs))
    results: list = [None] * len(jobs)

    def work(i, job):
        try:
            barrier.wait()
            results[i] = job()
        except Exception as error:  # noqa: BLE001 - collected for the assertions
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=work, args=(i, job)) for i, job in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def assert_standings_consistent(competition):
    """The DB state passes the pure rules: puzzle_rules.rules.standings does not raise."""
    puzzles = [
        rules.Puzzle(position=p.position, pieces=p.pieces)
        for p in Puzzle.objects.filter(competition=competition)
    ]
    sheets = []
    for team in competition.teams.all():
        finishes = tuple(
            rules.Finish(f.puzzle.position, f.elapsed_seconds, tuple(f.missing))
            for f in Finish.objects.filter(team=team).select_related("puzzle")
        )
        count = Count.objects.filter(team=team).select_related("puzzle").first()
        if count is not None:
            assert count.puzzle.position == len(finishes) + 1
        sheets.append(
            rules.Sheet(
                team=team.pk,
                finishes=finishes,
                counted=count.pieces if count else None,
                disqualified=team.disqualified,
            )
        )
    return rules.standings(puzzles, sheets)


def test_eight_judges_tap_the_same_finish(running, teams, make_user):
    judges = [make_user("judge", f"dommer{i}") for i in range(THREADS)]
    team = teams[0]
    results = run_together(
        [
            lambda j=j: finish_register(team=team, position=1, by=j, request_id=uuid.uuid4())
            for j in judges
        ]
    )
    saved = [r for r in results if isinstance(r, Finish)]
    refused = [r for r in results if isinstance(r, Refusal)]
    assert len(saved) == 1, results
    assert len(refused) == THREADS - 1, results
    assert {r.code for r in refused} == {"already_finished"}
    who = saved[0].registered_by.username
    assert all(f"Registreret af {who} kl. " in str(r.message) for r in refused)
    assert Finish.objects.count() == 1
    assert AuditEntry.objects.filter(action="finish_register").count() == 1


def test_the_same_request_eight_times_at_once(running, teams, judge):
    rid = uuid.uuid4()
    team = teams[0]
    results = run_together(
        [
            lambda: finish_register(
                team=team, position=1, by=judge, missing=[1], elapsed_seconds=3600, request_id=rid
            )
        ]
        * THREADS
    )
    assert all(isinstance(r, Finish) for r in results), results
    assert len({r.pk for r in results}) == 1
    assert sorted(r.replayed for r in results) == [False] + [True] * (THREADS - 1)
    assert Finish.objects.count() == 1


def test_same_request_id_with_different_bodies_at_once(running, teams, judge):
    rid = uuid.uuid4()
    results = run_together(
        [lambda t=t: finish_register(team=t, position=1, by=judge, request_id=rid) for t in teams]
    )
    assert len([r for r in results if isinstance(r, Finish)]) == 1, results
    assert {getattr(r, "code", None) for r in results if not isinstance(r, Finish)} == {
        "idempotency_conflict"
    }
    assert Finish.objects.count() == 1


def test_eight_teams_at_once_are_all_saved(running, judge):
    from tests.factories import TeamFactory

    many = [TeamFactory(competition=running, table=10 + i) for i in range(THREADS)]
    version = running.__class__.objects.get(pk=running.pk).standings_version
    results = run_together(
        [
            lambda t=t: finish_register(team=t, position=1, by=judge, request_id=uuid.uuid4())
            for t in many
        ]
    )
    assert all(isinstance(r, Finish) for r in results), results
    assert Finish.objects.count() == THREADS
    assert running.__class__.objects.get(pk=running.pk).standings_version == version + THREADS
    assert_standings_consistent(running)


def test_finish_count_and_correction_at_once_stay_consistent(
    competition, judge, admin_user, start_clock
):
    from tests.factories import TeamFactory

    start_clock(competition, ago=timedelta(hours=4))  # time is up
    many = [TeamFactory(competition=competition, table=20 + i) for i in range(4)]
    firsts = [
        finish_register(team=t, position=1, by=judge, elapsed_seconds=3000 + i)
        for i, t in enumerate(many)
    ]
    jobs = []
    for team, first in zip(many, firsts, strict=True):
        jobs += [
            # a finish noted on paper before the end, entered after it
            lambda t=team: finish_register(team=t, position=2, by=judge, elapsed_seconds=10700),
            # the count of the puzzle the team is on
            lambda t=team: count_record(team=t, by=judge, pieces=640),
            # a correction of the first finish
            lambda f=first: finish_correct(
                finish=f, by=admin_user, reason="Indsigelse", elapsed_seconds=2900, missing=[1]
            ),
        ]
    results = run_together(jobs)
    unexpected = [
        r
        for r in results
        if isinstance(r, Exception)
        and not (isinstance(r, Refusal) and r.code in {"already_counted", "all_finished"})
    ]
    assert not unexpected, unexpected
    table = assert_standings_consistent(competition)
    assert len(table) == 4
    for first in firsts:
        first.refresh_from_db()
        assert (first.elapsed_seconds, first.missing) == (2900, [1])
    for team in many:
        assert Finish.objects.filter(team=team).count() == 2
