"""Standings from the database: correct by the rules, constant queries, cached per version,
and the last good standings when the data breaks a rule."""

import pytest
from django.core.cache import cache
from django.utils import timezone

from competition.models import Competition, Team
from judging.models import Finish, Objection
from puzzle_rules import rules
from scoring import selectors
from scoring.selectors import competition_standings, memo_clear
from tests.factories import TeamFactory
from tests.scoring.standings_data import count, finish, many_teams, running_competition


def bump(competition):
    competition.bump_standings()
    memo_clear()  # as another process would see it, or this one a second later


@pytest.fixture
def board(db):
    """Four competing teams, one withdrawn, one disqualified (R11, R14)."""
    c, (p1, p2, p3) = running_competition()
    a = TeamFactory(competition=c, name="Kantsøgerne", table=1)
    b = TeamFactory(competition=c, name="Brikkebanden", table=2)
    d = TeamFactory(competition=c, name="Puslingerne", table=3)
    e = TeamFactory(competition=c, name="Hjørnestenene", table=4)
    gone = TeamFactory(competition=c, name="Udeblevet", table=5, withdrawn=True)
    dq = TeamFactory(
        competition=c, name="Snydepelsene", table=6, disqualified=True, disqualified_reason="R18"
    )
    finish(a, p1, 1800)
    finish(a, p2, 4000, missing=[1, 2])  # a lone piece deducted, a pair not (R8)
    finish(b, p1, 1700)
    finish(b, p2, 4200, missing=[1])  # 1499 like a, but later
    finish(d, p1, 1500)
    finish(gone, p1, 1000)
    for p in (p1, p2, p3):
        finish(dq, p, 1000 * p.position)
    Objection.objects.create(team=d, text="Tiden blev noteret forkert")
    Objection.objects.create(team=b, text="Løst", decision="rejected", resolved_at=timezone.now())
    return c, {"a": a, "b": b, "d": d, "e": e, "gone": gone, "dq": dq}


def test_ranks_follow_the_rules_and_withdrawn_teams_are_left_out(board):
    c, t = board
    body = competition_standings(c)
    rows = body["standings"]
    assert [r["team"]["name"] for r in rows] == [
        "Kantsøgerne",
        "Brikkebanden",
        "Puslingerne",
        "Hjørnestenene",
        "Snydepelsene",
    ]
    assert [r["rank"] for r in rows] == [1, 2, 3, 4, None]
    assert [r["pieces"] for r in rows] == [1499, 1499, 500, 0, 2500]
    assert rows[0]["finishes"][1] == {
        "puzzle": 2,
        "elapsed_seconds": 4000,
        "deducted": 1,
        "missing": [1, 2],
        "split": 2200,
        "ppm": 27.3,
    }
    assert rows[-1]["disqualified"] is True
    assert all(r["team"]["id"] != t["gone"].pk for r in rows)
    assert body["competition"] == "dm-live" and body["status"] == "running"
    assert body["final"] is False
    assert body["puzzles"][0] == {"position": 1, "title": "Motiv 1", "pieces": 500}


def test_the_selector_agrees_with_the_pure_rules(board):
    c, t = board
    body = competition_standings(c)
    sheets = []
    for team in Team.objects.filter(competition=c, withdrawn=False):
        sheets.append(
            rules.Sheet(
                team=team.pk,
                finishes=tuple(
                    rules.Finish(f.puzzle.position, f.elapsed_seconds, tuple(f.missing))
                    for f in Finish.objects.filter(team=team)
                ),
                disqualified=team.disqualified,
            )
        )
    expected = rules.standings(
        [rules.Puzzle(p.position, p.pieces) for p in c.puzzles.all()], sheets
    )
    got = [
        (r["rank"], r["team"]["id"], r["pieces"], r["last_finish_seconds"])
        for r in body["standings"]
    ]
    assert got == [(s.rank, s.team, s.pieces, s.last_finish_seconds) for s in expected]


def test_under_review_means_an_open_objection(board):
    c, t = board
    rows = {r["team"]["id"]: r for r in competition_standings(c)["standings"]}
    assert rows[t["d"].pk]["under_review"] is True
    assert rows[t["b"].pk]["under_review"] is False  # its objection was resolved


def test_current_puzzle_progress_and_tie_break_reason(board):
    c, t = board
    rows = {r["team"]["id"]: r for r in competition_standings(c)["standings"]}
    assert rows[t["a"].pk]["current"]["position"] == 3
    assert rows[t["e"].pk]["current"]["position"] == 1
    assert [p["state"] for p in rows[t["a"].pk]["progress"]] == ["done", "done", "current"]
    reason = rows[t["b"].pk]["tie_break"]
    assert reason["da"] == (
        "Samme antal brikker; Kantsøgerne lagde deres sidste hele puslespil færdigt "
        "på 1:06:40, 3 minutter og 20 sekunder tidligere."
    )
    assert reason["en"].startswith("Same pieces; Kantsøgerne finished")
    assert rows[t["a"].pk]["tie_break"] is None  # nobody above it
    assert rows[t["d"].pk]["tie_break"] is None  # fewer pieces than the team above


def test_an_individuals_tie_break_says_sit_sidste(board):
    """An individual entrant is one puzzler: "Erik lagde sit sidste", not "deres"."""
    c, t = board
    Competition.objects.filter(pk=c.pk).update(discipline="individual")
    Team.objects.filter(pk=t["a"].pk).update(name="Erik")
    bump(c)
    c = Competition.objects.get(pk=c.pk)
    rows = {r["team"]["id"]: r for r in competition_standings(c)["standings"]}
    assert rows[t["b"].pk]["tie_break"]["da"] == (
        "Samme antal brikker; Erik lagde sit sidste hele puslespil færdigt "
        "på 1:06:40, 3 minutter og 20 sekunder tidligere."
    )


def test_count_adds_to_the_pieces_after_the_clock(db):
    c, (p1, p2, p3) = running_competition(minutes_ago=200)
    team = TeamFactory(competition=c, table=1)
    finish(team, p1, 3000)
    count(team, p2, 345)
    row = competition_standings(c)["standings"][0]
    assert row["pieces"] == 845 and row["counted"] == 345
    assert [p["state"] for p in row["progress"]] == ["done", "counted", "todo"]
    assert row["progress"][1]["percent"] == 34


@pytest.mark.parametrize("n", [5, 300])
def test_loaded_in_the_same_number_of_queries_for_5_and_300_teams(
    db, n, django_assert_max_num_queries
):
    c, puzzles = running_competition(pieces=(500, 1000, 1000, 1000, 500, 1000, 1000, 2000))
    many_teams(c, puzzles, n)
    with django_assert_max_num_queries(4):
        body = competition_standings(c)
    assert len(body["standings"]) == n


def test_a_second_reader_costs_one_small_query_and_none_within_a_second(
    board, django_assert_num_queries, memo_clock
):
    c, _ = board
    competition_standings(c)
    memo_clear()  # another process: reads the version, finds the standings in the cache
    with django_assert_num_queries(1):
        competition_standings(c)
    memo_clock.advance(0.9)
    with django_assert_num_queries(0):  # the same process within the second
        competition_standings(c)
    memo_clock.advance(0.2)
    with django_assert_num_queries(1):  # the second is over: the version is read again
        competition_standings(c)


def test_a_new_version_gives_new_standings_at_once_in_every_process(board):
    c, t = board
    before = competition_standings(c)
    finish(t["e"], c.puzzles.get(position=1), 5000)
    bump(c)
    after = competition_standings(c)
    assert after["version"] == before["version"] + 1
    row = next(r for r in after["standings"] if r["team"]["id"] == t["e"].pk)
    assert row["pieces"] == 500


def test_staff_always_read_the_current_version(board):
    c, t = board
    competition_standings(c)  # memo now holds version 0 for a second
    finish(t["e"], c.puzzles.get(position=1), 5000)
    c.bump_standings()  # the writer's own next read is current, with no memo_clear
    row = next(
        r for r in competition_standings(c, staff=True)["standings"] if r["team"]["id"] == t["e"].pk
    )
    assert row["pieces"] == 500


def test_the_clock_ending_by_itself_changes_the_key(board):
    c, _ = board
    assert competition_standings(c)["status"] == "running"
    Competition.objects.filter(pk=c.pk).update(
        started_at=timezone.now() - timezone.timedelta(hours=4)
    )
    memo_clear()
    assert competition_standings(c)["status"] == "stopped"


def test_broken_data_keeps_the_last_good_standings_for_the_public_and_staff_see_the_error(board):
    c, t = board
    good = competition_standings(c)
    # A finish of puzzle 3 without puzzle 2 (R7): written around the services.
    finish(t["d"], c.puzzles.get(position=3), 6000)
    bump(c)
    public = competition_standings(c)
    assert public["error"] is None and public["stale"] is True
    assert public["standings"] == good["standings"]
    staff = competition_standings(c, staff=True)
    assert staff["error"]["code"] == "out_of_order"
    assert "none for puzzle 2" in staff["error"]["message"]
    assert staff["standings"] == good["standings"]


def test_broken_data_without_any_good_standings_gives_an_empty_table(db):
    c, (p1, p2, p3) = running_competition()
    team = TeamFactory(competition=c, table=1)
    finish(team, p2, 100)
    cache.clear()
    body = competition_standings(c)
    assert body["standings"] == [] and body["stale"] is True and body["error"] is None
    assert competition_standings(c, staff=True)["error"]["code"] == "out_of_order"


def test_cache_key_carries_version_and_status(board):
    c, _ = board
    c.refresh_from_db()
    assert (
        selectors.standings_key(c, "running") == f"standings:{c.pk}:{c.standings_version}:running"
    )


def test_no_tie_break_sentence_while_nobody_has_pieces(db):
    """Before the first finish every team shares place 1 (R11); there is nothing to explain."""
    c, _ = running_competition()
    for table in (1, 2, 3):
        TeamFactory(competition=c, table=table)
    rows = competition_standings(c)["standings"]
    assert [row["rank"] for row in rows] == [1, 1, 1]
    assert [row["tie_break"] for row in rows] == [None, None, None]
