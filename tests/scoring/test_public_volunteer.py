"""The spectator: the leaderboard's filter box and whole-row links, "on puzzle 2"
said in words, the tie-break short on a phone and full on the team page, the first puzzle's
time shown once, and the big screen giving the room to the results once time is up."""

import html
import re

import pytest
from django.utils import timezone

from scoring.selectors import memo_clear
from tests.factories import TeamFactory
from tests.scoring.standings_data import finish, running_competition

pytestmark = pytest.mark.django_db


@pytest.fixture
def tied(db):
    """Kantsøgerne and Brikkebanden both have 1.499 pieces; Kantsøgerne finished first."""
    c, (p1, p2, _p3) = running_competition()
    a = TeamFactory(competition=c, name="Kantsøgerne", table=7)
    b = TeamFactory(competition=c, name="Brikkebanden", table=8)
    finish(a, p1, 1800, missing=[1, 2])
    finish(a, p2, 4000)
    finish(b, p1, 1700)
    finish(b, p2, 4120, missing=[1])
    return c, a, b


def get(client, url, **headers) -> str:
    return html.unescape(client.get(url, **headers).content.decode())


def row_of(page: str, name: str) -> str:
    return re.search(rf'<tr data-team="{name}".*?</tr>', page, re.S).group(0)


# --- 15: filter box, whole row ----------------------------------------------------------------


def test_the_filter_box_is_on_the_page_but_not_in_the_shared_live_part(client, tied):
    c, a, b = tied
    page = get(client, f"/{c.slug}/")
    assert "data-board-filter-box hidden" in page  # shown by public.mjs: useless without it
    assert '<label for="board-filter">Find et hold</label>' in page
    assert page.index("data-board-filter") < page.index('<section id="live"')
    fragment = get(client, f"/{c.slug}/", HTTP_HX_REQUEST="true")
    assert "data-board-filter" not in fragment  # a poll never replaces what the reader typed
    # What the filter reads: the team's name and table on every row.
    assert '<tr data-team="Kantsøgerne" data-table="7"' in fragment
    assert '<tr data-team="Brikkebanden" data-table="8"' in fragment


def test_each_row_holds_one_link_to_its_team(client, tied):
    c, a, b = tied
    fragment = get(client, f"/{c.slug}/", HTTP_HX_REQUEST="true")
    row = row_of(fragment, "Kantsøgerne")
    assert re.findall(r'href="([^"]+)"', row) == [f"/{c.slug}/teams/{a.pk}/"]


# --- 16: "on puzzle 3" in words; the tie-break short on a phone ----------------------------------


def test_the_phone_line_says_which_puzzle_the_team_is_on(client, tied):
    c, a, b = tied
    row = row_of(get(client, f"/{c.slug}/", HTTP_HX_REQUEST="true"), "Kantsøgerne")
    phone = re.search(r'<div class="meta-phone muted">(.*?)</div>', row, re.S).group(1)
    assert re.sub(r"<[^>]+>", "", phone) == (
        "Bord 7 · i gang med puslespil 3 · sidst færdig efter 1:06:40"
    )


def test_before_the_start_no_team_is_said_to_be_on_a_puzzle(client, competition):
    c = competition  # in setup: the clock has not started
    TeamFactory(competition=c, name="Kantsøgerne", table=7)
    fragment = get(client, f"/{c.slug}/", HTTP_HX_REQUEST="true")
    assert "Bord 7" in fragment and "i gang med" not in fragment


def test_the_tie_break_is_short_on_a_phone_and_full_on_the_team_page(client, tied):
    c, a, b = tied
    row = row_of(get(client, f"/{c.slug}/", HTTP_HX_REQUEST="true"), "Brikkebanden")
    # Ahead of whom and by how much.
    short = (
        "Samme antal brikker som Kantsøgerne, men sidste hele puslespil blev færdigt 2 min. senere."
    )
    assert f'<span class="tb-short">{short}</span>' in row
    full = "Samme antal brikker; Kantsøgerne lagde deres sidste hele puslespil færdigt"
    assert f'<span class="tb-full">{full}' in row  # shown from 641 px (public.css)
    team = get(client, f"/{c.slug}/teams/{b.pk}/")
    assert full in team and "tb-short" not in team
    english = get(client, f"/{c.slug}/", HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en")
    short = (
        "Same number of pieces as Kantsøgerne, but the last whole puzzle was finished 2 min. later."
    )
    assert f'<span class="tb-short">{short}</span>' in english


# --- 17: the first puzzle's time once ---------------------------------------------------------


def test_the_first_puzzle_shows_its_time_once(client, tied):
    c, a, b = tied
    page = get(client, f"/{c.slug}/teams/{a.pk}/")
    rows = re.findall(r'<tr class="done">(.*?)</tr>', page, re.S)
    assert rows[0].count("0:30:00") == 1  # "Færdig på" only: its split is the same time
    assert '<td class="num split-same">–</td>' in rows[0]
    assert "1:06:40" in rows[1] and "0:36:40" in rows[1]  # puzzle 2: finish and split differ


# --- 18: the big screen after the clock --------------------------------------------------------


def screen(client, c) -> str:
    memo_clear()
    return get(client, f"/{c.slug}/screen/")


def test_the_big_screen_shows_the_clock_while_it_runs(client, tied):
    c, *_ = tied
    page = screen(client, c)
    assert "clock-big" in page and "screen-outcome" not in page


def test_the_big_screen_says_time_is_up_without_a_clock_at_zero(client, tied):
    c, *_ = tied
    c.stopped_at = timezone.now()
    c.save()
    page = screen(client, c)
    outcome = re.search(r'<div class="screen-outcome">(.*?)</div>', page, re.S).group(1)
    assert "Tiden er gået" in outcome and "Foreløbige resultater" in outcome
    assert "0:00:00" not in page and "clock-big" not in page


def test_the_big_screen_after_final_gives_the_room_to_the_results(client, tied):
    c, *_ = tied
    c.stopped_at = c.finalised_at = timezone.now()
    c.save()
    page = screen(client, c)
    outcome = re.search(r'<div class="screen-outcome">(.*?)</div>', page, re.S).group(1)
    assert outcome == "Endelige resultater"
    assert "0:00:00" not in page and "Tiden er gået" not in page
    assert page.index("Kantsøgerne") < page.index("Brikkebanden")  # the results, ranked
