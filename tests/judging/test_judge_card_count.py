"""The judge's card says its count's one state, as the server renders it (issue 33 item 5):
the same rule as the control room and finalise (judging/count_state.py), in
`data-count-state` for the tablet's script, and "✓ bekræftet" only for a confirmed count."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from judging.models import Count

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


@pytest.fixture
def ended(competition, teams):
    competition.started_at = timezone.now() - timedelta(hours=4)
    competition.second_count = True
    competition.save()
    return competition


def _card(client, user, competition, table: int) -> tuple[str, str]:
    """(data-count-state, the card's text) of the card at `table`, as `user` sees it."""
    client.force_login(user)
    html = client.get(reverse("judge:board_fragment", args=[competition.slug]), headers=HX)
    html = html.content.decode()
    match = re.search(rf'<article[^>]*data-table="{table}"[^>]*>.*?</article>', html, re.S)
    assert match, table
    state = re.search(r'data-count-state="(\w+)"', match.group(0)).group(1)
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", match.group(0)))
    return state, text


def _count(team, judge, **fields):
    puzzle = team.competition.puzzles.get(position=1)
    return Count.objects.create(team=team, puzzle=puzzle, pieces=420, registered_by=judge, **fields)


def test_no_count_yet(client, ended, teams, judge):
    state, text = _card(client, judge, ended, 1)
    assert state == "missing"
    assert "Optælling af puslespil 1" in text and "bekræftet" not in text


def test_first_count_waits_for_the_second(client, ended, teams, judge, make_user):
    _count(teams[0], judge)
    state, text = _card(client, judge, ended, 1)
    assert state == "waiting"
    assert "Optalt: 420 brikker" in text
    assert "Venter på kontroloptælling af en anden dommer" in text
    assert "bekræftet" not in text
    state, text = _card(client, make_user("judge", "judge2"), ended, 1)
    assert state == "waiting"
    assert "420" not in text  # blind
    assert "Kontroloptælling af puslespil 1" in text


def test_counts_differ(client, ended, teams, judge, make_user):
    _count(teams[0], judge, second_pieces=410)
    state, text = _card(client, make_user("judge", "judge2"), ended, 1)
    assert state == "differs"
    assert "Optællingerne er forskellige: tæl igen" in text and "bekræftet" not in text
    # the judge who counted is told the truth too, and has no correction to offer (refused
    # with count_not_yours): another judge counts again or the head judge settles it
    state, text = _card(client, judge, ended, 1)
    assert state == "differs"
    assert "Venter på kontroloptælling" not in text
    assert "Ret optælling" not in text
    assert (
        "Optællingerne er forskellige: en anden dommer tæller igen, eller overdommeren afgør det"
        in text
    )


def test_confirmed(client, ended, teams, judge, make_user):
    _count(teams[0], judge, confirmed_at=timezone.now(), confirmed_by=make_user("judge", "j2"))
    for user in (judge, make_user("judge", "judge3")):
        state, text = _card(client, user, ended, 1)
        assert state == "done"
        assert "Optalt: 420 brikker ✓ bekræftet" in text
        assert "Venter" not in text


def test_without_the_second_count_a_count_is_done_and_not_called_confirmed(
    client, ended, teams, judge
):
    ended.second_count = False
    ended.save()
    _count(teams[0], judge)
    state, text = _card(client, judge, ended, 1)
    assert state == "done"
    assert "Optalt: 420 brikker" in text and "bekræftet" not in text
    assert "Ret optælling" in text
