"""The blind count in public (docs/contracts.md "The second count"): with the second count on, a
count that is not yet confirmed is not public. Judge 1 counts 437 pieces on table 1's puzzle 2: no
public surface (the standings API, the leaderboard and its fragment, the big screen and its
fragment, the team page, results.csv) shows 437, nor the 937 pieces it would make, to the public or
to a judge (who may be the second to count); they show "tælles" instead. The desk and the head judge
see it with `confirmed: false`. Once a second judge confirms it, it is public.
"""

import csv
import io
import re
from datetime import timedelta

import pytest
from django.test import Client

from competition.models import Competition
from competition.services import staff_upsert
from judging.services import count_confirm, count_record, finish_register
from scoring.selectors import memo_clear

pytestmark = pytest.mark.django_db

SECRET = ("437", "937")  # the count, and table 1's pieces with it (500 + 437)
HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def unconfirmed(competition, teams, judge, start_clock):
    """Time is up; table 1 finished puzzle 1 (500) and is counted 437 on puzzle 2 by a
    judge, not yet confirmed; table 2 is counted 212 and confirmed by a second judge."""
    Competition.objects.filter(pk=competition.pk).update(second_count=True)
    start_clock(competition, ago=timedelta(hours=4))
    finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=3000)
    count = count_record(team=teams[0], by=judge, pieces=437)
    other = count_record(team=teams[1], by=judge, pieces=212)
    judge2 = staff_upsert(username="dommer2", role="judge", password="pw-judge-2")[0]
    count_confirm(count=other, by=judge2, pieces=212)
    return count, judge2


def _surfaces(client, team_id):
    """Every public surface: (name, text)."""
    slug = "dm-2026"
    out = []
    for name, path, headers in (
        ("standings API", f"/api/v1/competitions/{slug}/standings", {}),
        ("leaderboard", f"/{slug}/", {}),
        ("leaderboard fragment", f"/{slug}/", HX),
        ("screen", f"/{slug}/screen/", {}),
        ("screen fragment", f"/{slug}/screen/", HX),
        ("team page", f"/{slug}/teams/{team_id}/", {}),
        ("results.csv", f"/{slug}/results.csv", {}),
    ):
        memo_clear()
        response = client.get(path, **headers)
        assert response.status_code == 200, (name, response.status_code)
        out.append((name, response.content.decode("utf-8-sig")))
    return out


def _shows(text, number) -> bool:
    return re.search(rf"(?<![\w.,]){number}(?![\w])", text) is not None


@pytest.mark.parametrize("who", ["anonymous", "the judge", "another judge"])
def test_no_public_surface_shows_an_unconfirmed_count(unconfirmed, judge, who):
    count, judge2 = unconfirmed
    client = Client()
    if who == "the judge":
        client.force_login(judge)
    elif who == "another judge":
        client.force_login(judge2)
    for name, text in _surfaces(client, count.team_id):
        for number in SECRET:
            assert not _shows(text, number), f"{name} shows {number} to {who}"
        assert _shows(text, "212") or name == "team page", f"{name}: the confirmed count is public"
        if name != "standings API":
            assert "tælles" in text, f"{name} does not say the count is being counted"


def test_the_public_body_has_counted_null_pieces_without_it_and_counting(unconfirmed, api):
    count, _judge2 = unconfirmed
    memo_clear()
    body = api.get("/api/v1/competitions/dm-2026/standings").json()
    row = next(r for r in body["standings"] if r["team"]["id"] == count.team_id)
    assert (row["counted"], row["pieces"], row["counting"]) == (None, 500, True)
    assert "confirmed" not in row
    confirmed = next(r for r in body["standings"] if r["counted"] == 212)
    assert "counting" not in confirmed and confirmed["pieces"] == 212
    # Ranked without the count: table 2 (212) is behind table 1 (500) either way, and
    # table 3 (nothing) last.
    assert [r["pieces"] for r in body["standings"]] == [500, 212, 0]


def test_csv_says_counting(unconfirmed, client):
    memo_clear()
    text = client.get("/dm-2026/results.csv").content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text), delimiter=";"))
    header, first = rows[0], rows[1]
    assert first[header.index("Optælling")] == "tælles"


@pytest.mark.parametrize("role", ["admin", "desk"])
def test_the_desk_and_the_head_judge_see_it_unconfirmed(unconfirmed, make_user, role):
    count, _judge2 = unconfirmed
    user = make_user(role, f"m-{role}")
    client = Client()
    client.force_login(user)
    body = client.get("/api/v1/competitions/dm-2026/standings").json()
    row = next(r for r in body["standings"] if r["team"]["id"] == count.team_id)
    assert (row["counted"], row["pieces"], row["counting"], row["confirmed"]) == (
        437,
        937,
        True,
        False,
    )
    memo_clear()
    assert _shows(client.get(f"/dm-2026/teams/{count.team_id}/").content.decode(), "437")


def test_once_confirmed_it_is_public(unconfirmed, django_assert_max_num_queries):
    count, judge2 = unconfirmed
    count_confirm(count=count, by=judge2, pieces=437)
    client = Client()
    for name, text in _surfaces(client, count.team_id):
        if name != "team page":
            assert _shows(text, "937"), name
        assert "tælles" not in text or name == "standings API", name
    memo_clear()
    with django_assert_max_num_queries(4):  # state, puzzles, teams, finishes
        assert client.get("/dm-2026/", **HX).status_code == 200
