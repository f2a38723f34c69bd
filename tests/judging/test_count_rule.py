"""R9 everywhere: a count is below the unfinished puzzle's pieces.

A count of every piece is a finish: counted, it ranked the team by its earlier finish above
a team that really finished that puzzle. Every path that records or corrects a count (the
API's placed and unplaced forms, the count correction, an upheld objection, the control
room) refuses it with HTTP 400 and the same sentence, and writes nothing.
"""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from competition.services import clock_stop
from judging.models import Count
from judging.services import (
    count_correct,
    count_record,
    finish_register,
    objection_file,
    objection_resolve,
)
from scoring.selectors import competition_standings

pytestmark = pytest.mark.django_db

BASE = "/api/v1/competitions/dm-2026"


def _ranking(competition):
    body = competition_standings(competition, staff=True)  # current, not 1 s old
    return [(row["team"]["name"], row["rank"], row["pieces"]) for row in body["standings"]]


def test_a_count_of_every_piece_cannot_rank_above_a_real_finish(
    competition, teams, judge, admin_user, start_clock, invalid
):
    """Hold 1 finished puzzle 1 early; Hold 2 finished puzzles 1 and 2. A "count" of all
    1,000 pieces of puzzle 2 for Hold 1 would tie the pieces and win on the earlier finish."""
    running = start_clock(competition, ago=timedelta(hours=2, minutes=59))
    hold1, hold2, hold3 = teams
    finish_register(team=hold1, position=1, by=judge, elapsed_seconds=30 * 60)
    finish_register(team=hold2, position=1, by=judge, elapsed_seconds=40 * 60)
    finish_register(team=hold2, position=2, by=judge, elapsed_seconds=170 * 60)
    clock_stop(competition=running, by=admin_user)
    error = invalid("pieces", count_record, team=hold1, by=judge, pieces=1000)
    assert "1.000" in error.message_dict["pieces"][0]  # Danish: the puzzle's pieces, grouped
    invalid("pieces", count_record, team=hold1, by=judge, unplaced=0, loose=0)
    count_record(team=hold1, by=judge, pieces=999)
    count_record(team=hold2, by=judge, pieces=0)
    count_record(team=hold3, by=judge, pieces=0)
    assert _ranking(competition)[:2] == [("Hold 2", 1, 1500), ("Hold 1", 2, 1499)]


@pytest.mark.parametrize("count", [{"pieces": 500}, {"unplaced": 0}, {"unplaced": 0, "loose": 0}])
def test_the_api_answers_400_for_a_count_of_every_piece(ended, teams, api_as, judge, state, count):
    before = state()
    response = api_as(judge).post(f"{BASE}/counts/", {"team": teams[0].pk, **count}, "json")
    assert response.status_code == 400, response.json()
    assert "registrér" in response.json()["pieces"][0]
    assert state() == before


def test_every_path_gives_the_same_sentence(ended, teams, judge, admin_user, desk, invalid):
    """Placed or unplaced, recorded or corrected, directly or by an upheld objection."""
    placed = invalid("pieces", count_record, team=teams[0], by=judge, pieces=500)
    unplaced = invalid("pieces", count_record, team=teams[0], by=judge, unplaced=0, loose=0)
    count = count_record(team=teams[0], by=judge, pieces=100)
    corrected = invalid(
        "pieces", count_correct, count=count, by=admin_user, reason="Talt igen", pieces=500
    )
    loose = invalid(
        "pieces", count_correct, count=count, by=admin_user, reason="x", unplaced=0, loose=0
    )
    objection = objection_file(team=teams[0], by=desk, text="Vi lagde alle", count=count)
    upheld = invalid(
        "pieces",
        objection_resolve,
        objection=objection,
        by=admin_user,
        decision="upheld",
        note="Alle lagt",
        pieces=500,
    )
    sentences = {e.message_dict["pieces"][0] for e in (placed, unplaced, corrected, loose, upheld)}
    assert len(sentences) == 1, sentences
    assert Count.objects.get(pk=count.pk).pieces == 100


@pytest.mark.parametrize(
    ("pieces", "ok"), [(499, True), (500, False), (501, False), (2, False), (0, True)]
)
def test_the_api_count_correction(ended, teams, api_as, judge, state, pieces, ok):
    count = count_record(team=teams[0], by=judge, pieces=100)
    before = state()
    url = f"{BASE}/counts/{count.pk}/"
    response = api_as(judge).patch(url, {"pieces": pieces, "reason": "Talt igen"}, "json")
    if ok:
        assert (response.status_code, response.json()["pieces"]) == (200, pieces)
    else:
        assert response.status_code == 400, response.json()
        assert state() == before


def test_the_control_room_refuses_a_count_of_every_piece(
    ended, teams, judge, admin_user, client, state
):
    count_record(team=teams[0], by=judge, pieces=100)
    client.force_login(admin_user)
    before = state()
    response = client.post(
        reverse("control:count_correct", args=["dm-2026", teams[0].pk]),
        {"count-pieces": 500, "count-reason": "Talt igen"},
    )
    assert response.status_code == 400
    assert "registrér" in response.content.decode()
    assert state() == before


def test_an_objection_upheld_through_the_api_is_refused_too(
    ended, teams, judge, admin_user, desk, api_as, state
):
    count = count_record(team=teams[0], by=judge, pieces=100)
    objection = objection_file(team=teams[0], by=desk, text="Alle lagt", count=count)
    before = state()
    response = api_as(admin_user).post(
        f"{BASE}/objections/{objection.pk}/resolve",
        {"decision": "upheld", "note": "Alle lagt", "pieces": 500},
        "json",
    )
    assert response.status_code == 400, response.json()
    assert "pieces" in response.json()
    assert state() == before


def test_a_count_just_below_every_piece_ranks_below_the_finish(
    competition, teams, judge, admin_user, start_clock
):
    """The nearest a count can come: 499 of 500 pieces, against a finish at the last second."""
    running = start_clock(competition, ago=timedelta(hours=2, minutes=59, seconds=30))
    finish_register(team=teams[1], position=1, by=judge, elapsed_seconds=3 * 3600 - 31)
    clock_stop(competition=running, by=admin_user, stopped_at=timezone.now())
    count_record(team=teams[0], by=judge, pieces=499)
    assert _ranking(competition)[:2] == [("Hold 2", 1, 500), ("Hold 1", 2, 499)]
