"""The judge's page: roles, the board fragment's cards, constant queries."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from judging.models import Count, Finish, Warning
from judging.selectors import judge_board, parse_tables
from tests.factories import TeamFactory

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


def start(competition, minutes_ago=30):
    competition.started_at = timezone.now() - timedelta(minutes=minutes_ago)
    competition.save()


def finish(team, position, seconds, missing=()):
    puzzle = team.competition.puzzles.get(position=position)
    return Finish.objects.create(
        team=team, puzzle=puzzle, elapsed_seconds=seconds, missing=list(missing)
    )


@pytest.mark.parametrize("name", ["judge:board", "judge:board_fragment"])
def test_anonymous_is_sent_to_login(client, competition, name):
    url = reverse(name, args=[competition.slug])
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("name", ["judge:board", "judge:board_fragment"])
def test_desk_is_refused(client, competition, desk, name):
    client.force_login(desk)
    assert client.get(reverse(name, args=[competition.slug])).status_code == 403


@pytest.mark.parametrize("who", ["judge", "admin_user"])
def test_judge_and_admin_see_the_page_in_danish(client, competition, teams, who, request):
    client.force_login(request.getfixturevalue(who))
    response = client.get(reverse("judge:board", args=[competition.slug]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Puslespil 1 af 3 (500 brikker)" in html
    assert "Uret er ikke startet" in html
    assert 'id="judge-config"' in html
    assert "Alt sendt ✓" in html


def test_unknown_competition_is_404(client, judge):
    client.force_login(judge)
    assert client.get(reverse("judge:board", args=["nope"])).status_code == 404


def test_fragment_shows_current_puzzle_and_finish_button(client, competition, teams, judge):
    start(competition)
    finish(teams[0], 1, 600, missing=[1])
    finish(teams[0], 2, 1500)
    finish(teams[1], 1, 700)
    client.force_login(judge)
    html = client.get(
        reverse("judge:board_fragment", args=[competition.slug]), headers=HX
    ).content.decode()
    assert "Puslespil 3 af 3 (1.000 brikker)" in html  # table 1, two finished
    assert "Puslespil 2 af 3 (1.000 brikker)" in html  # table 2
    assert "Puslespil 1 af 3 (500 brikker)" in html  # table 3
    assert "Registrér færdig\npuslespil 3" in html
    assert 'data-since="1500"' in html
    assert "siden sidste registrering" in html
    assert html.count('data-action="finish"') == 3


def test_a_card_with_every_puzzle_finished_keeps_its_finish_button_hidden(
    client, competition, teams, judge
):
    """The script only lays the outbox over the server's cards: while the undo of the last
    finish waits on the tablet it shows this button again, it does not build one."""
    start(competition, minutes_ago=150)
    for position, seconds in ((1, 600), (2, 1500), (3, 3000)):
        finish(teams[0], position, seconds)
    client.force_login(judge)
    html = client.get(
        reverse("judge:board_fragment", args=[competition.slug]), headers=HX
    ).content.decode()
    assert "Alle 3 puslespil færdige ✓" in html
    assert 'data-action="finish" hidden>Registrér færdig\npuslespil 3</button>' in html
    assert html.count('data-action="finish"') == 3  # tables 2 and 3: shown


def test_fragment_filters_the_chosen_tables(client, competition, teams, judge):
    client.force_login(judge)
    url = reverse("judge:board_fragment", args=[competition.slug])
    html = client.get(url, {"t": ["1", "3"]}, headers=HX).content.decode()
    assert 'data-table="1"' in html and 'data-table="3"' in html
    assert 'data-table="2"' not in html
    html = client.get(url, {"t": "2-3"}, headers=HX).content.decode()
    assert 'data-table="1"' not in html and 'data-table="2"' in html


def test_after_the_end_unfinished_teams_are_counted(client, competition, teams, judge):
    start(competition, minutes_ago=200)  # 180 minutes: the clock has ended
    for position, seconds in ((1, 600), (2, 1500), (3, 3000)):
        finish(teams[0], position, seconds)
    Count.objects.create(team=teams[1], puzzle=competition.puzzles.get(position=1), pieces=480)
    client.force_login(judge)
    html = client.get(
        reverse("judge:board_fragment", args=[competition.slug]), headers=HX
    ).content.decode()
    assert "Alle 3 puslespil færdige ✓" in html
    assert "Optalt: 480 brikker" in html
    assert "Optælling af puslespil 1" in html  # table 3 only
    assert html.count('data-action="count"') == 1
    assert 'data-action="finish"' not in html


def test_warnings_and_disqualified_are_shown(client, competition, teams, judge):
    start(competition)
    Warning.objects.create(team=teams[0], reason="Larm")
    Warning.objects.create(team=teams[0], reason="Larm igen")
    teams[1].disqualified = True
    teams[1].disqualified_reason = "R18"
    teams[1].save()
    client.force_login(judge)
    html = client.get(
        reverse("judge:board_fragment", args=[competition.slug]), headers=HX
    ).content.decode()
    assert "⚠ 2" in html
    assert "diskvalificeret" in html
    assert html.count('data-action="finish"') == 2


def test_withdrawn_teams_are_not_on_the_board(competition, teams):
    teams[2].withdrawn = True
    teams[2].save()
    assert [c.table for c in judge_board(competition)] == [1, 2]


def test_board_selector_latest_finish(competition, teams):
    start(competition)
    finish(teams[0], 1, 600)
    last = finish(teams[0], 2, 1500)
    card = judge_board(competition, tables=[1])[0]
    assert (card.finished, card.current.position, card.total) == (2, 3, 3)
    assert card.latest_finish_id == last.pk and card.latest_finish_position == 2
    assert card.last_finish_seconds == 1500 and card.counted is None


def test_parse_tables():
    assert parse_tables(["1-3", "7", "x", "5-4", ""]) == [1, 2, 3, 7]
    assert parse_tables(["2, 4"]) == [2, 4]


@pytest.mark.parametrize("n", [5, 100])
def test_fragment_queries_do_not_grow(client, competition, judge, n, django_assert_max_num_queries):
    start(competition)
    for i in range(n):
        team = TeamFactory(competition=competition, name=f"H{i}", table=i + 1)
        finish(team, 1, 600 + i)
        Warning.objects.create(team=team, reason="støj")
    client.force_login(judge)
    url = reverse("judge:board_fragment", args=[competition.slug])
    with django_assert_max_num_queries(8):
        response = client.get(url, headers=HX)
    assert response.content.decode().count('<article class="jcard') == n
    with django_assert_max_num_queries(10):
        assert client.get(reverse("judge:board", args=[competition.slug])).status_code == 200


def test_worker_is_served_under_judge(client):
    response = client.get(reverse("judge:worker"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert reverse("judge:worker") == "/judge/sw.js"


def test_config_for_the_script_carries_clock_puzzles_and_danish_texts(
    client, competition, teams, judge
):
    import json
    import re

    start(competition)
    client.force_login(judge)
    html = client.get(reverse("judge:board", args=[competition.slug])).content.decode()
    raw = re.search(r'<script id="judge-config" type="application/json">(.*?)</script>', html, re.S)
    config = json.loads(raw.group(1))
    assert config["slug"] == "dm-2026" and config["user"] == "mette"
    assert config["clock"]["status"] == "running"
    assert config["clock"]["started_at_ms"] == int(competition.started_at.timestamp() * 1000)
    assert [p["pieces"] for p in config["puzzles"]] == [500, 1000, 1000]
    assert config["urls"]["finishes"] == "/api/v1/competitions/dm-2026/finishes/"
    assert config["texts"]["pending"] == "Ikke sendt endnu: %(n)s"
    assert config["texts"]["deduct_one"] == "1 brik trækkes fra"
    assert config["texts"]["add_spot"] == "+ sted med %(n)s sammenhængende manglende brikker"


def test_english_with_the_language_switch(client, competition, teams, judge, settings):
    start(competition)
    client.force_login(judge)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    html = client.get(reverse("judge:board", args=[competition.slug])).content.decode()
    assert "Puzzle 1 of 3 (500 pieces)" in html
    assert "Finished puzzle 1" in html
    assert "Not yet sent: %(n)s" in html


def test_fragment_without_htmx_sends_to_the_page(client, competition, judge):
    client.force_login(judge)
    response = client.get(reverse("judge:board_fragment", args=[competition.slug]), {"t": "2"})
    assert response.status_code == 302
    assert response["Location"] == "/judge/dm-2026/?t=2"
