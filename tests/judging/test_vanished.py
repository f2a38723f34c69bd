"""A record that vanished between the view and the lock (docs/contracts.md "The edges
that stay true") (an undo, a void, a second delete at the same moment) answers 404, or
409 with its code, never 500, and the refused request writes nothing.

The views load the record before the service takes the team's lock; the services read it
again under the lock. First the services handed a record that is gone (any database), then
the real race through the API and the control room on PostgreSQL, with the requests
waiting on the lock while the undo commits (tests/judging/lockstep.py).
"""

import pytest
from django.db import connection
from django.test import Client
from rest_framework.test import APIClient

from competition.errors import Vanished
from judging.models import Count, Finish, Objection
from judging.services import (
    count_correct,
    count_record,
    finish_correct,
    finish_delete,
    finish_register,
    objection_file,
    objection_resolve,
)
from tests.judging.lockstep import behind_the_lock

API = "/api/v1/competitions/dm-2026"


# --- the services, handed a record that is gone ----------------------------------------------


@pytest.mark.django_db
def test_a_correction_of_a_finish_undone_meanwhile_is_vanished(running, teams, judge, state):
    finish = finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=1000)
    stale = Finish.objects.select_related("team", "puzzle").get(pk=finish.pk)
    finish_delete(finish=finish, by=judge)
    before = state()
    with pytest.raises(Vanished):
        finish_correct(finish=stale, by=judge, reason="rettet", elapsed_seconds=900)
    with pytest.raises(Vanished):
        finish_delete(finish=stale, by=judge)  # the second delete
    assert state() == before


@pytest.mark.django_db
def test_a_correction_of_a_count_voided_meanwhile_is_vanished(ended, teams, judge, state):
    count = count_record(team=teams[0], by=judge, pieces=300)
    stale = Count.objects.select_related("team", "puzzle").get(pk=count.pk)
    # A finish of the counted puzzle noted on paper before the end voids the count.
    finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=10000)
    assert not Count.objects.filter(pk=count.pk).exists()
    before = state()
    with pytest.raises(Vanished):
        count_correct(count=stale, by=judge, reason="rettet", pieces=310)
    assert state() == before


@pytest.mark.django_db
def test_resolving_with_a_correction_of_a_finish_undone_meanwhile_is_vanished(
    running, teams, judge, desk, admin_user, state
):
    finish = finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=1000)
    objection = objection_file(team=teams[0], by=desk, text="For sent", finish=finish)
    stale = Objection.objects.select_related("finish__puzzle", "team").get(pk=objection.pk)
    finish_delete(finish=finish, by=judge)
    before = state()
    with pytest.raises(Vanished):
        objection_resolve(
            objection=stale,
            by=admin_user,
            decision="upheld",
            note="Rettet",
            elapsed_seconds=900,
            missing=[1],
        )
    assert state() == before


# --- the race through HTTP, on PostgreSQL ----------------------------------------------------

postgres = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="row locks and concurrent transactions need PostgreSQL (SQLite serialises all)",
)


@pytest.fixture
def _role_groups():
    # A transactional test empties the tables afterwards, the migration's groups too.
    from django.contrib.auth.models import Group

    from competition.roles import ROLES

    for role in ROLES:
        Group.objects.get_or_create(name=role)


def as_user(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def status(result):
    assert not isinstance(result, Exception), result
    return result.status_code


@postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("_role_groups")
def test_a_correction_while_the_undo_of_the_same_finish_commits(running, teams, judge, admin_user):
    finish = finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=1000)
    url = f"{API}/finishes/{finish.pk}/"
    body = {"elapsed_seconds": 900, "reason": "rettet"}
    page = Client()
    page.force_login(admin_user)
    page_url = f"/control/dm-2026/teams/{teams[0].pk}/finishes/{finish.pk}/correct"
    results = behind_the_lock(
        teams[0],
        [
            lambda: as_user(judge).patch(url, body, format="json"),
            lambda: page.post(
                page_url, {f"f{finish.pk}-time": "0:15:00", f"f{finish.pk}-reason": "x"}
            ),
        ],
        inside=lambda: finish_delete(finish=finish, by=judge),
    )
    api, control = results
    assert status(api) == 404, api.content
    assert "slettet" in api.json()["detail"]
    assert status(control) == 302  # back to the team page, which says why
    assert not Finish.objects.exists()


@postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("_role_groups")
def test_two_deletes_of_one_finish_at_once(running, teams, judge, admin_user):
    finish = finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=1000)
    url = f"{API}/finishes/{finish.pk}/"
    results = behind_the_lock(
        teams[0],
        [lambda: as_user(judge).delete(url), lambda: as_user(admin_user).delete(url)],
    )
    assert sorted(status(r) for r in results) == [204, 404]
    assert not Finish.objects.exists()

    # The control room's delete clicked twice (two tabs), the same.
    finish = finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=1000)
    page_url = f"/control/dm-2026/teams/{teams[0].pk}/finishes/{finish.pk}/delete"

    def click():
        page = Client()
        page.force_login(admin_user)
        return page.post(page_url, {f"d{finish.pk}-reason": "fejl"})

    results = behind_the_lock(teams[0], [click, click])
    assert [status(r) for r in results] == [302, 302]
    assert not Finish.objects.exists()


@postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("_role_groups")
def test_a_count_correction_while_a_late_paper_finish_voids_the_count(
    ended, teams, judge, admin_user
):
    count = count_record(team=teams[0], by=judge, pieces=300)
    url = f"{API}/counts/{count.pk}/"
    results = behind_the_lock(
        teams[0],
        [lambda: as_user(judge).patch(url, {"pieces": 310, "reason": "rettet"}, format="json")],
        inside=lambda: finish_register(
            team=teams[0], position=1, by=admin_user, elapsed_seconds=10000
        ),
    )
    assert status(results[0]) == 404, results[0].content
    assert not Count.objects.exists()
    assert Finish.objects.filter(team=teams[0]).count() == 1
