"""The mirror's snapshot carries the competition's ranking (schema 4, issue 34); a snapshot of
schema 3 from a hall not yet updated is still taken, as the Danish rules."""

import pytest

from competition.models import Competition
from scoring import mirror
from tests.scoring.test_mirror import ON_MIRROR, _push, day  # noqa: F401  (the fixture)

pytestmark = pytest.mark.django_db


def test_the_snapshot_carries_the_ranking_and_the_mirror_takes_it(client, day):  # noqa: F811
    Competition.objects.filter(pk=day.pk).update(ranking="wjpc")
    day.bump_standings()
    day.refresh_from_db()
    snapshot = mirror.build(day)
    assert snapshot["schema"] == 4 and snapshot["competition"]["ranking"] == "wjpc"
    Competition.objects.filter(pk=day.pk).update(ranking="dm")
    with ON_MIRROR:
        assert _push(client, snapshot).status_code == 200
    assert Competition.objects.get(pk=day.pk).ranking == "wjpc"


def test_a_schema_3_snapshot_is_read_as_the_danish_rules(client, day):  # noqa: F811
    Competition.objects.filter(pk=day.pk).update(ranking="wjpc")
    snapshot = mirror.build(day)
    snapshot["schema"] = 3
    del snapshot["competition"]["ranking"]
    with ON_MIRROR:
        assert _push(client, snapshot).status_code == 200
    assert Competition.objects.get(pk=day.pk).ranking == "dm"


def test_an_unknown_ranking_is_outside_the_schema(client, day):  # noqa: F811
    snapshot = mirror.build(day)
    snapshot["competition"]["ranking"] = "bold"
    with ON_MIRROR:
        answer = _push(client, snapshot)
    assert answer.status_code == 400 and answer.json()["code"] == "bad_snapshot"
