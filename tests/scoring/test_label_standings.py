"""Rankings by label (docs/contracts.md "A championship of several competitions"): the desk
gives entrants labels (ung, senior, gæst); `GET .../standings?label=ung` ranks only those
entrants, among themselves, by the same rules: their own ranks (1, 2, 2, 4), disqualified
last with none."""

import pytest

from competition.models import AuditEntry, Team
from scoring.selectors import memo_clear
from tests.factories import TeamFactory
from tests.scoring.standings_data import count, finish, running_competition

URL = "/api/v1/competitions/{}/standings"
pytestmark = pytest.mark.django_db


@pytest.fixture
def live(db):
    """Five entrants: Alfa 1500 pieces; Bravo and Charlie 500 at 1900 s (shared); Delta 500
    at 2000 s; Echo disqualified. Bravo, Charlie, Delta and Echo are young."""
    c, (p1, p2, _p3) = running_competition(pieces=(500, 1000, 1000))
    young = ["ung"]
    alfa = TeamFactory(competition=c, name="Alfa", table=1)
    bravo = TeamFactory(competition=c, name="Bravo", table=2, labels=young)
    charlie = TeamFactory(competition=c, name="Charlie", table=3, labels=["ung", "gæst"])
    delta = TeamFactory(competition=c, name="Delta", table=4, labels=young)
    echo = TeamFactory(
        competition=c,
        name="Echo",
        table=5,
        labels=young,
        disqualified=True,
        disqualified_reason="x",
    )
    finish(alfa, p1, 1000)
    finish(alfa, p2, 1500)
    for team, seconds in ((bravo, 1900), (charlie, 1900), (delta, 2000), (echo, 100)):
        finish(team, p1, seconds)
    count(delta, p2, 0)
    return c


def ranking(response):
    return [(r["team"]["name"], r["rank"]) for r in response.json()["standings"]]


def test_a_labels_ranking_has_its_own_ranks(api, live):
    whole = api.get(URL.format(live.slug))
    assert ranking(whole) == [
        ("Alfa", 1),
        ("Bravo", 2),
        ("Charlie", 2),
        ("Delta", 4),
        ("Echo", None),
    ]
    assert "label" not in whole.json()  # the body without ?label= is as it always was
    young = api.get(URL.format(live.slug), {"label": "Ung"})
    assert young.json()["label"] == "ung"
    assert ranking(young) == [("Bravo", 1), ("Charlie", 1), ("Delta", 3), ("Echo", None)]
    guests = api.get(URL.format(live.slug), {"label": "gæst"})
    assert ranking(guests) == [("Charlie", 1)]
    assert ranking(api.get(URL.format(live.slug), {"label": "senior"})) == []


def test_a_labels_ranking_has_its_own_etag(api, live):
    whole = api.get(URL.format(live.slug))
    young = api.get(URL.format(live.slug), {"label": "ung"})
    assert whole["ETag"] != young["ETag"]
    again = api.get(URL.format(live.slug), {"label": "ung"}, HTTP_IF_NONE_MATCH=young["ETag"])
    assert again.status_code == 304


def test_the_desk_gives_labels_and_the_ranking_follows_at_once(api, api_as, desk, live):
    alfa = Team.objects.get(competition=live, name="Alfa")
    assert ranking(api_as(None).get(URL.format(live.slug), {"label": "ung"}))[0] == ("Bravo", 1)
    r = api_as(desk).patch(
        f"/api/v1/competitions/{live.slug}/teams/{alfa.pk}/",
        {"labels": [" Ung ", "ung", "senior"]},
        format="json",
    )
    assert r.status_code == 200, r.content
    assert r.json()["labels"] == ["ung", "senior"]
    entry = AuditEntry.objects.get(action="team_labels")
    assert (entry.before, entry.after) == ({"labels": []}, {"labels": ["ung", "senior"]})
    memo_clear()  # a public reader may see standings up to a second old
    young = api_as(None).get(URL.format(live.slug), {"label": "ung"})
    assert ranking(young)[:2] == [("Alfa", 1), ("Bravo", 2)]


def test_labels_are_given_when_the_entrant_is_registered(api_as, desk, live):
    r = api_as(desk).post(
        f"/api/v1/competitions/{live.slug}/teams/",
        {"name": "Foxtrot", "table": 9, "labels": ["Senior"]},
        format="json",
    )
    assert r.status_code == 201
    assert Team.objects.get(name="Foxtrot").labels == ["senior"]


def test_too_many_or_too_long_labels_are_refused_with_a_sentence(api_as, desk, live):
    alfa = Team.objects.get(competition=live, name="Alfa")
    path = f"/api/v1/competitions/{live.slug}/teams/{alfa.pk}/"
    for labels in ([f"l{i}" for i in range(11)], ["x" * 31]):
        r = api_as(desk).patch(path, {"labels": labels}, format="json")
        assert r.status_code == 400
        assert r.json()["labels"]
    assert Team.objects.get(pk=alfa.pk).labels == []


def test_a_team_answer_to_the_public_holds_no_labels(api, live):
    alfa = Team.objects.get(competition=live, name="Bravo")
    assert "labels" not in api.get(f"/api/v1/competitions/{live.slug}/teams/{alfa.pk}/").json()
