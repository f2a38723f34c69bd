"""The pure championship rules (puzzle_rules/championship.py): advancing from earlier rounds and
one label's own ranking, one test per case and per refusal code."""

import subprocess
import sys
from pathlib import Path

import pytest

from puzzle_rules.championship import Entrant, advancing, decide, label_ranking
from puzzle_rules.rules import Finish, Puzzle, RuleViolation, Sheet, Standing, standings

REPO = Path(__file__).resolve().parents[2]
PUZZLES = (Puzzle(1, 1000), Puzzle(2, 1000))


def heat(*rows):
    """A heat's final standings from (team, pieces, last finish seconds or None[, True:
    disqualified]); advancing reads only these fields (the rank only for None)."""
    out = []
    for team, pieces, last, *dq in rows:
        disqualified = bool(dq and dq[0])
        finished = 0 if last is None else 1
        rank = None if disqualified else 0
        out.append(Standing(rank, team, pieces, finished, last, disqualified))
    return out


def ranked(*rows):
    """Standings by the rules from (team, pieces, last finish or None[, disqualified]):
    a finish of puzzle 1 (1000 pieces) at `last`, then a count on puzzle 2."""
    sheets = []
    for team, pieces, last, *dq in rows:
        if last is None:
            sheet = Sheet(team, (), pieces)
        else:
            sheet = Sheet(team, (Finish(1, last),), pieces - 1000)
        sheets.append(Sheet(sheet.team, sheet.finishes, sheet.counted, bool(dq and dq[0])))
    return standings(PUZZLES, sheets)


def teams(entrants):
    return [(e.source, e.team) for e in entrants]


def refused(code, **kwargs):
    with pytest.raises(RuleViolation) as info:
        decide(**kwargs)
    assert info.value.code == code


A = heat(("a1", 1500, 3000), ("a2", 1500, 3100), ("a3", 700, 2000), ("a4", 600, None))
B = heat(("b1", 1500, 2900), ("b2", 800, 2500), ("b3", 700, 2000), ("b4", 0, None, True))


def test_importing_the_championship_rules_loads_no_django():
    code = (
        "import puzzle_rules.championship, sys; "
        "assert not any(m == 'django' or m.startswith('django.') for m in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr


def test_best_n_of_each_source():
    result = advancing({"a": A, "b": B}, best=2, per_source=True)
    assert result.ties == ()
    # In R11 order across the sources: b1 finished both puzzles first.
    assert teams(result.sure) == [("b", "b1"), ("a", "a1"), ("a", "a2"), ("b", "b2")]
    assert teams(decide(result)) == teams(result.sure)


def test_best_n_overall_ranks_across_the_sources_by_r11():
    result = advancing({"a": A, "b": B}, best=4, per_source=False)
    assert teams(decide(result)) == [("b", "b1"), ("a", "a1"), ("a", "a2"), ("b", "b2")]


def test_a_tie_at_the_cut_across_sources_is_named_with_its_seats():
    # a3 and b3: 700 pieces, last finish at 2000 s each: tied for the 5th seat.
    result = advancing({"a": A, "b": B}, best=5, per_source=False)
    assert teams(result.sure) == [("b", "b1"), ("a", "a1"), ("a", "a2"), ("b", "b2")]
    (tie,) = result.ties
    assert tie.source is None
    assert tie.seats == 1
    assert teams(tie.tied) == [("a", "a3"), ("b", "b3")]
    refused("tie_at_cut", result=result)


def test_include_tied_takes_the_whole_tie():
    result = advancing({"a": A, "b": B}, best=5, per_source=False)
    assert len(decide(result, include_tied=True)) == 6


def test_choose_takes_exactly_the_seats_of_the_tie():
    result = advancing({"a": A, "b": B}, best=5, per_source=False)
    chosen = decide(result, choose=[("b", "b3")])
    assert teams(chosen)[-1] == ("b", "b3")
    assert len(chosen) == 5
    refused("choose_count", result=result, choose=[])
    refused("choose_count", result=result, choose=[("a", "a3"), ("b", "b3")])
    refused("choose_not_tied", result=result, choose=[("a", "a1")])


def test_a_tie_inside_one_source_per_source():
    tied = heat(("x", 700, 2000), ("y", 700, 2000), ("z", 600, 2000))
    result = advancing({"t": tied}, best=1, per_source=True)
    assert result.sure == ()
    (tie,) = result.ties
    assert (tie.source, tie.seats, len(tie.tied)) == ("t", 1, 2)


def test_a_tie_below_the_cut_is_no_tie_at_the_cut():
    tied = heat(("x", 900, 2000), ("y", 700, 2000), ("z", 700, 2000))
    result = advancing({"t": tied}, best=1, per_source=True)
    assert (teams(result.sure), result.ties) == ([("t", "x")], ())


def test_disqualified_never_advance_even_with_seats_left():
    dq = heat(("x", 1500, 100, True), ("y", 10, None))
    assert teams(decide(advancing({"d": dq}, best=5, per_source=True))) == [("d", "y")]


def test_fewer_entrants_than_seats_all_go_on():
    assert len(decide(advancing({"a": A}, best=10, per_source=False))) == 4


def test_best_must_be_positive():
    with pytest.raises(ValueError, match="at least 1"):
        advancing({"a": A}, best=0, per_source=True)


def test_no_finish_comes_after_any_finish():
    rows = heat(("late", 600, None), ("early", 600, 4000))
    # 600 pieces each; only "early" finished a whole puzzle: it ranks first (R11).
    assert teams(decide(advancing({"s": rows}, best=1, per_source=True))) == [("s", "early")]


def test_an_entrant_is_its_source_and_standing():
    e = Entrant("a", A[0])
    assert (e.source, e.team) == ("a", "a1")


# --- a label's own ranking --------------------------------------------------------------------
def ranks(rows):
    return [(s.team, s.rank) for s in rows]


def test_label_ranking_has_its_own_ranks():
    rows = ranked(("p", 1800, 3000), ("q", 1700, 2000), ("r", 1700, 2000), ("s", 1600, 2000))
    assert ranks(label_ranking(rows, {"q", "r", "s"})) == [("q", 1), ("r", 1), ("s", 3)]


def test_label_ranking_skips_after_a_shared_rank():
    rows = ranked(
        ("p", 1800, 3000), ("q", 1700, 2000), ("r", 1700, 2000), ("s", 1600, 2000), ("t", 1000, 2)
    )
    assert ranks(label_ranking(rows, {"p", "q", "r", "s"})) == [
        ("p", 1),
        ("q", 2),
        ("r", 2),
        ("s", 4),
    ]


def test_label_ranking_puts_the_disqualified_last_without_a_rank():
    rows = ranked(("p", 1500, 3000, True), ("q", 1700, 2000), ("r", 600, None))
    assert ranks(label_ranking(rows, {"p", "q"})) == [("q", 1), ("p", None)]


def test_label_ranking_of_nobody_is_empty():
    assert label_ranking(ranked(("x", 1000, 5)), set()) == []


def test_label_ranking_keeps_everything_but_the_rank():
    rows = ranked(("p", 1800, 3000), ("q", 1700, 2000))
    (row,) = label_ranking(rows, {"q"})
    assert row == Standing(1, "q", 1700, 1, 2000, False)
