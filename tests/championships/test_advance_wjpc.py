"""Advancing follows the sources' ranking (issue 34): heats ranked by the World rules send on
their finishers by time plus penalty before any entrant that did not finish, even one with
more pieces; the same heats under the Danish rules send on the most pieces."""

import pytest

from competition.models import Competition
from judging.models import Finish
from tests.championships.conftest import heat

pytestmark = pytest.mark.django_db


@pytest.fixture
def world_heats(dm):
    a = heat(
        dm,
        "heat-a",
        "Indledende runde A",
        [("Anna", 1000, None, False), ("Bo", 1020, None, False), ("Cille", None, 499, False)],
    )
    b = heat(dm, "heat-b", "Indledende runde B", [("Eva", 1025, None, False)])
    # Anna: 3 lone missing pieces, 497 pieces (dm: behind Cille's 499), 1000 + 30 s (wjpc)
    Finish.objects.filter(team__competition=a, team__name="Anna").update(missing=[1, 1, 1])
    for c in (a, b):
        Competition.objects.filter(pk=c.pk).update(ranking="wjpc")
        c.bump_standings()
    return a, b


def advance(api, final, body):
    response = api.post(f"/api/v1/competitions/{final.slug}/advance", body, format="json")
    assert response.status_code == 200, response.content
    return [e["name"] for e in response.json()["entrants"]]


def test_the_world_rules_send_on_the_finishers(api_as, admin_user, world_heats, final):
    body = {"from": ["heat-a"], "best": 2}
    assert advance(api_as(admin_user), final, body) == ["Bo", "Anna"]


def test_the_best_overall_by_time_with_the_penalty(api_as, admin_user, world_heats, final):
    body = {"from": ["heat-a", "heat-b"], "best": 3, "per_source": False}
    assert advance(api_as(admin_user), final, body) == ["Bo", "Eva", "Anna"]


def test_the_same_heats_under_the_danish_rules(api_as, admin_user, world_heats, final):
    for c in world_heats:
        Competition.objects.filter(pk=c.pk).update(ranking="dm")
        c.bump_standings()
    body = {"from": ["heat-a", "heat-b"], "best": 3, "per_source": False}
    assert advance(api_as(admin_user), final, body) == ["Bo", "Eva", "Cille"]
