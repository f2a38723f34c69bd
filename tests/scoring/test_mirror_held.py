"""A competition deleted in the hall leaves the mirror too (docs/contracts.md "The public
mirror"): the hall says which competitions it holds (`POST /api/v1/mirror/held`), the mirror
drops the others with their rows and a championship left empty; and a competition made again
under a deleted one's short name is taken in, though its version starts again at 0. One
database plays both sides, as in tests/scoring/test_mirror.py."""

import json
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone

from competition.models import Championship, Competition, Team
from judging.models import Finish
from scoring import mirror
from scoring.models import MirrorState
from scoring.selectors import memo_clear
from tests.factories import CompetitionFactory, PuzzleFactory, TeamFactory
from tests.scoring.test_mirror import ON_MIRROR, TOKEN, _push

pytestmark = pytest.mark.django_db

HELD = "/api/v1/mirror/held"


def _held(client, body, token=TOKEN):
    return _push(client, body, token, path=HELD)


def _fresh(client, path):
    cache.clear()
    memo_clear()
    return client.get(path)


@pytest.fixture
def two(competition, teams):
    """The hall's two competitions: the day's (running, a finish) and a stray one made by
    mistake, with an entrant; their snapshots, and then an empty mirror."""
    Competition.objects.filter(pk=competition.pk).update(
        started_at=timezone.now() - timedelta(minutes=30)
    )
    Finish.objects.create(
        team=teams[0], puzzle=competition.puzzles.get(position=1), elapsed_seconds=1500
    )
    competition.bump_standings()
    stray = CompetitionFactory(slug="fejl-heat", name="Fejloprettet heat")
    PuzzleFactory(competition=stray, position=1, pieces=500)
    TeamFactory(competition=stray, name="Vildfaren", table=1)
    stray.bump_standings()
    snapshots = [mirror.build(c) for c in (competition, stray)]
    Finish.objects.all().delete()  # (a puzzle is protected by its finishes)
    Competition.objects.all().delete()
    Championship.objects.all().delete()
    return competition.pk, stray.pk, snapshots


def test_a_competition_the_hall_no_longer_holds_leaves_the_mirror(client, two):
    day_pk, stray_pk, snapshots = two
    with ON_MIRROR:
        for snapshot in snapshots:
            assert _push(client, snapshot).status_code == 200
        assert "Fejloprettet heat" in _fresh(client, "/").content.decode()
        assert _fresh(client, "/fejl-heat/").status_code == 200

        answer = _held(client, {"competitions": [day_pk]})
        assert answer.status_code == 200, answer.content
        assert answer.json() == {"removed": ["fejl-heat"]}
        home = _fresh(client, "/").content.decode()
        assert "Fejloprettet heat" not in home
        assert "DM i puslespil 2026" in home  # the one the hall holds stays, whole
        assert _fresh(client, "/fejl-heat/").status_code == 404
        assert _fresh(client, "/api/v1/competitions/fejl-heat/").status_code == 404
        slugs = [c["slug"] for c in _fresh(client, "/api/v1/competitions/").json()]
        assert slugs == ["dm-2026"]
        # Its rows and its own championship went with it; the other's rows are untouched.
        assert not Team.objects.filter(competition_id=stray_pk).exists()
        assert not Championship.objects.filter(slug="fejl-heat").exists()
        assert Finish.objects.filter(team__competition_id=day_pk).count() == 1
        assert list(MirrorState.objects.values_list("competition_id", flat=True)) == [day_pk]
        # Said again (the keepalive): nothing more to drop.
        assert _held(client, {"competitions": [day_pk]}).json() == {"removed": []}


def test_a_competition_made_again_under_a_deleted_ones_short_name_is_taken(client, two):
    """The hall deleted a competition and made a new one with the same short name: a new id,
    its version from 0 again. The mirror held the old one at a higher version and used to
    refuse the new one as older (409) for as long as the old one's version was ahead."""
    _day_pk, _stray_pk, (held, _stray) = two
    assert held["version"] >= 1 and held["teams"][0]["finishes"]
    again = json.loads(json.dumps(held))
    again["competition"]["id"] = held["competition"]["id"] + 100
    again["competition"]["started_at"] = None
    again["competition"]["name"] = "DM i puslespil 2026, igen"
    again["version"] = 0
    again["teams"] = []
    with ON_MIRROR:
        assert _push(client, held).status_code == 200
        answer = _push(client, again)
        assert answer.status_code == 200, answer.content
        assert answer.json() == {"applied": True, "version": 0}
        page = _fresh(client, "/dm-2026/").content.decode()
    assert "DM i puslespil 2026, igen" in page
    assert "Hold 1" not in page
    assert list(Competition.objects.values_list("pk", flat=True)) == [again["competition"]["id"]]
    assert not Finish.objects.exists()


@pytest.mark.parametrize(
    "body",
    [
        {"competitions": "1"},
        {"competitions": [1, "2"]},
        {"competitions": [True]},
        {"competitions": [1], "more": 1},
        {"competitions": list(range(1, 40_000))},  # more than SQLite may name in one query
        [1, 2],
    ],
)
def test_a_held_list_outside_its_shape_is_400_and_drops_nothing(client, two, body):
    _day_pk, _stray_pk, snapshots = two
    with ON_MIRROR:
        for snapshot in snapshots:
            _push(client, snapshot)
        answer = _held(client, body)
    assert answer.status_code == 400
    assert answer.json()["code"] == "bad_snapshot"
    assert Competition.objects.count() == 2


def test_only_the_halls_token_drops_and_the_hall_itself_has_no_such_address(client, two):
    _day_pk, _stray_pk, snapshots = two
    assert _held(client, {"competitions": []}).status_code == 404  # the hall
    with ON_MIRROR:
        for snapshot in snapshots:
            _push(client, snapshot)
        for token in ("wrong-token", None):
            answer = _held(client, {"competitions": []}, token=token)
            assert answer.status_code == 403
            assert answer.json()["code"] == "wrong_token"
        assert client.get(HELD).status_code == 405
    assert Competition.objects.count() == 2
