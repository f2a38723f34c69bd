"""Real threads on PostgreSQL: two desks in two competitions of one championship that run at
the same time save the same table at the same moment. Each desk holds only its own
competition's row; the table plan's check locks the championship's row (last in the one
lock order, competition/locking.py), so the second waits, then sees the first's entrant and
is refused. Without that lock both would read an empty table and both would save it."""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.utils import timezone

from competition.locking import lock_championship
from competition.models import Competition, Team
from competition.services import championship_create, competition_create, team_create
from tests.judging.lockstep import behind_the_lock
from tests.judging.test_concurrency import _role_groups  # noqa: F401

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="row locks and concurrent transactions need PostgreSQL (SQLite serialises all)",
    ),
]


@pytest.fixture
def heats(db):
    dm = championship_create(by=None, slug="dm-2027", name="DM i puslespil 2027")
    starts = timezone.now() + timedelta(days=1)
    return [
        competition_create(
            by=None,
            slug=slug,
            name=name,
            starts_at=starts,
            duration_minutes=60,
            championship=dm,
            discipline="individual",
        )
        for slug, name in (("heat-a", "Indledende runde A"), ("heat-b", "Indledende runde B"))
    ]


def _save(competition, name, by):
    return lambda: team_create(competition=competition, by=by, name=name, table=7)


@pytest.mark.parametrize("round_", range(3))
def test_two_desks_saving_one_table_in_two_heats_at_once_one_is_refused(
    heats, desk, make_user, round_
):
    heat_a, heat_b = heats
    other_desk = make_user("desk", "skranke-2")
    # Both desks have read their forms and wait at the championship's lock; then it opens.
    results = behind_the_lock(
        None,
        [_save(heat_a, "Anna", desk), _save(heat_b, "Eva", other_desk)],
        lock=lambda: lock_championship(Competition.objects.get(pk=heat_a.pk)),
    )
    saved = [r for r in results if isinstance(r, Team)]
    refused = [r for r in results if isinstance(r, ValidationError)]
    assert len(saved) == 1 and len(refused) == 1, results
    assert f"»{saved[0].name}«" in " ".join(refused[0].message_dict["table"])
    assert list(Team.objects.filter(table=7).values_list("name", flat=True)) == [saved[0].name]
