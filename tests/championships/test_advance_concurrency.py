"""Real threads on PostgreSQL: two advances of the same round at the same moment make its
entrants once. The advance locks the round's row, so the second waits, then finds what the
first made and answers it (or refuses another advance). Its undo takes the same lock: an
undo racing an advance, or two undos (two tabs), never leave half of an advance."""

import pytest
from django.db import connection

from championships.services import advance, advance_undo
from competition.errors import Refusal
from competition.models import Team
from tests.judging.test_concurrency import _role_groups, run_together  # noqa: F401

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="row locks and concurrent transactions need PostgreSQL (SQLite serialises all)",
    ),
]


@pytest.mark.parametrize("round_", range(3))
def test_the_same_advance_twice_at_once_makes_the_entrants_once(heats, final, admin_user, round_):
    def job():
        return advance(
            competition=final, sources=["heat-a", "heat-b"], best=2, per_source=True, by=admin_user
        )

    first, second = run_together([job, job])
    assert not isinstance(first, Exception) and not isinstance(second, Exception), (first, second)
    assert [a.team.pk for a in first] == [a.team.pk for a in second]
    assert Team.objects.filter(competition=final).count() == 4


def test_two_different_advances_at_once_one_is_refused(heats, final, admin_user):
    def job(best):
        return lambda: advance(
            competition=final, sources=["heat-a"], best=best, per_source=True, by=admin_user
        )

    results = run_together([job(1), job(2)])
    refused = [r for r in results if isinstance(r, Refusal)]
    assert [r.code for r in refused] == ["already_advanced"], results
    assert Team.objects.filter(competition=final).count() in (1, 2)


def _advance():
    from competition.models import Competition

    final = Competition.objects.get(slug="finale")
    user = _admin()
    return advance(competition=final, sources=["heat-a", "heat-b"], best=2, by=user)


def _undo():
    from competition.models import Competition

    return advance_undo(competition=Competition.objects.get(slug="finale"), by=_admin())


def _admin():
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(username="overdommer")


@pytest.mark.parametrize("round_", range(3))
def test_an_undo_racing_an_advance_leaves_one_or_the_other_whole(heats, final, admin_user, round_):
    """The undo and the advance lock the round's row: one waits for the other. Either the
    undo came first (nothing to take back) and the advance made its four, or the advance
    came first and the undo removed all four: never a half."""
    advanced, undone = run_together([_advance, _undo])
    assert not isinstance(advanced, Exception), advanced
    left = Team.objects.filter(competition=final).count()
    if isinstance(undone, Refusal):
        assert undone.code == "nothing_advanced" and left == 4
    else:
        assert {a.team.pk for a in undone} == {a.team.pk for a in advanced}
        assert left == 0


def test_two_undos_at_once_take_it_back_once(heats, final, admin_user):
    from competition.models import AuditEntry

    _advance()
    results = run_together([_undo, _undo])
    refused = [r for r in results if isinstance(r, Refusal)]
    assert [r.code for r in refused] == ["nothing_advanced"], results
    assert not Team.objects.filter(competition=final).exists()
    assert AuditEntry.objects.filter(competition=final, action="advance_undo").count() == 1
