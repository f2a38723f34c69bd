"""The pure scoring rules, one test per rule (R7, R8, R9, R11) and per refusal code."""

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from puzzle_rules.formatting import format_duration, format_hms
from puzzle_rules.rules import (
    Finish,
    Puzzle,
    RuleViolation,
    Sheet,
    Standing,
    check_count,
    deducted,
    standings,
    tie_break_reason,
)

REPO = Path(__file__).resolve().parents[2]

PUZZLES = (Puzzle(1, 500), Puzzle(2, 1000), Puzzle(3, 1000))


def by_team(rows):
    return {s.team: s for s in rows}


def one(sheet, puzzles=PUZZLES):
    (row,) = standings(puzzles, [sheet])
    return row


def refused(code, sheets, puzzles=PUZZLES):
    with pytest.raises(RuleViolation) as info:
        standings(puzzles, sheets)
    assert info.value.code == code
    return info.value


# --- The module itself ------------------------------------------------------------------


def test_importing_the_rules_loads_no_django():
    """The rules are pure: importing puzzle_rules.rules must not import Django."""
    code = (
        "import puzzle_rules.rules, sys; "
        "assert not any(m == 'django' or m.startswith('django.') for m in sys.modules), "
        "sorted(m for m in sys.modules if m.startswith('django'))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr


def test_rule_violation_has_a_code_and_a_message():
    error = RuleViolation("time_order", "A sentence.")
    assert isinstance(error, ValueError)
    assert error.code == "time_order"
    assert str(error) == "A sentence."
    assert error.args == ("A sentence.",)  # what logging and pickling see


def test_no_sheets_no_standings():
    assert standings(PUZZLES, []) == []


def test_standing_fields():
    """R8, R9: pieces of whole puzzles plus the count; finished and the last finish time."""
    row = one(Sheet("a", (Finish(1, 1800), Finish(2, 4000, (1,))), counted=120))
    assert row == Standing(
        rank=1, team="a", pieces=500 + 999 + 120, finished=2, last_finish_seconds=4000,
        disqualified=False,
    )  # fmt: skip


def test_finishes_in_any_input_order():
    """R7: finishes are sorted by position before they are checked."""
    row = one(Sheet("a", (Finish(3, 9000), Finish(1, 1000), Finish(2, 5000))))
    assert (row.pieces, row.finished, row.last_finish_seconds) == (2500, 3, 9000)


# --- R8: missing pieces -----------------------------------------------------------------


def test_r8_lone_missing_piece_is_deducted():
    """R8: a spot of 1 missing piece is subtracted."""
    assert deducted([1]) == 1
    assert deducted([1, 1, 1]) == 3


def test_r8_adjacent_missing_pieces_are_a_production_fault():
    """R8: a spot of 2 or more adjacent missing pieces is not subtracted."""
    assert deducted([2]) == 0
    assert deducted([5, 2]) == 0
    assert deducted([1, 4, 1, 2]) == 2
    assert deducted([]) == 0


def test_r8_finish_pieces_subtract_lone_missing_only():
    """R8: the finish counts the puzzle's pieces less the lone missing pieces."""
    row = one(Sheet("a", (Finish(1, 1000, (1, 3, 1)),)))
    assert row.pieces == 498


@pytest.mark.parametrize("size", [0, -1])
def test_r8_refuses_missing_not_positive(size):
    """R8, code missing_not_positive: a missing spot must have at least 1 piece."""
    with pytest.raises(RuleViolation) as info:
        deducted([1, size])
    assert info.value.code == "missing_not_positive"
    refused("missing_not_positive", [Sheet("a", (Finish(1, 1000, (size,)),))])


def test_r8_refuses_missing_too_many():
    """R8, code missing_too_many: the spots add up to more than the puzzle's pieces."""
    refused("missing_too_many", [Sheet("a", (Finish(1, 1000, (400, 101)),))])
    # Exactly the puzzle's pieces is the most there can be.
    assert one(Sheet("a", (Finish(1, 1000, (400, 100)),))).pieces == 500


# --- R7: the fixed order ----------------------------------------------------------------


def test_r7_refuses_a_gap_out_of_order():
    """R7, code out_of_order: a finish for puzzle 2 without one for puzzle 1."""
    refused("out_of_order", [Sheet("a", (Finish(2, 1000),))])
    refused("out_of_order", [Sheet("a", (Finish(1, 1000), Finish(3, 2000)))])


def test_r7_refuses_two_finishes_for_one_puzzle():
    """R7, code already_finished: the same position twice."""
    refused("already_finished", [Sheet("a", (Finish(1, 1000), Finish(1, 2000)))])


def test_r7_refuses_unknown_position():
    """R7, code unknown_position: a finish for a puzzle not in the sequence."""
    refused(
        "unknown_position", [Sheet("a", (Finish(1, 1), Finish(2, 2), Finish(3, 3), Finish(4, 4)))]
    )
    refused("unknown_position", [Sheet("a", (Finish(0, 1000),))])


def test_r7_refuses_time_order():
    """R7, code time_order: a puzzle finished before the puzzle ahead of it in the sequence."""
    error = refused("time_order", [Sheet("a", (Finish(1, 2000), Finish(2, 1999)))])
    assert "0:33:19" in str(error)
    # The same second twice is not earlier.
    assert one(Sheet("a", (Finish(1, 2000), Finish(2, 2000)))).last_finish_seconds == 2000


def test_refuses_negative_time():
    """R5, code negative_time: a time before the clock started."""
    refused("negative_time", [Sheet("a", (Finish(1, -1),))])


def test_refuses_duplicate_team():
    """Code duplicate_team: one sheet per team."""
    refused("duplicate_team", [Sheet(7), Sheet(8), Sheet(7, counted=3)])


def test_refuses_puzzle_sequence_not_1_to_n():
    """R7, code puzzle_sequence: the puzzles are positions 1..N."""
    refused("puzzle_sequence", [], puzzles=(Puzzle(1, 10), Puzzle(3, 10)))
    refused("puzzle_sequence", [], puzzles=(Puzzle(1, 10), Puzzle(1, 10)))


def test_refuses_puzzle_without_pieces():
    """Code puzzle_not_positive: a puzzle has at least 1 piece."""
    refused("puzzle_not_positive", [], puzzles=(Puzzle(1, 0),))


@pytest.mark.parametrize(
    ("sheets", "puzzles", "message"),
    [
        (
            [Sheet("a", (Finish(1, 1000, (0,)),))],
            PUZZLES,
            "A missing spot must have at least 1 piece, not 0.",
        ),
        (
            [Sheet("a", (Finish(1, 1000, (400, 101)),))],
            PUZZLES,
            "Team 'a': puzzle 1 has 500 pieces, fewer than the 501 noted as missing.",
        ),
        (
            [Sheet("a", (Finish(1, 1000), Finish(3, 2000)))],
            PUZZLES,
            "Team 'a' has a finish for puzzle 3 but none for puzzle 2 (R7: no skipping).",
        ),
        (
            [Sheet(7, (Finish(1, 1000), Finish(1, 2000)))],
            PUZZLES,
            "Team 7 has more than one finish for puzzle 1.",
        ),
        (
            [Sheet("a", (Finish(1, 1), Finish(2, 2), Finish(3, 3), Finish(4, 4)))],
            PUZZLES,
            "Team 'a': there is no puzzle 4 in the sequence.",
        ),
        (
            [Sheet("a", (Finish(1, 2000), Finish(2, 1999)))],
            PUZZLES,
            "Team 'a' finished puzzle 2 at 0:33:19, before puzzle 1 at 0:33:20.",
        ),
        (
            [Sheet("a", (Finish(1, 100), Finish(2, 2000), Finish(3, 1999)))],
            PUZZLES,
            "Team 'a' finished puzzle 3 at 0:33:19, before puzzle 2 at 0:33:20.",
        ),
        (
            [Sheet("a", (Finish(1, -1),))],
            PUZZLES,
            "Team 'a': the finish of puzzle 1 has a negative time.",
        ),
        ([Sheet(7), Sheet(7)], PUZZLES, "Team 7 has more than one sheet."),
        (
            [],
            (Puzzle(1, 10), Puzzle(3, 10)),
            "The puzzles must be positions 1..2, not [1, 3].",
        ),
        ([], (Puzzle(1, 0),), "Puzzle 1 must have at least 1 piece, not 0."),
        (
            [Sheet("a", counted=1)],
            PUZZLES,
            "Team 'a', puzzle 1: A count is 0 or at least 3, not 1 "
            "(R9: only groups of at least 3 pieces count).",
        ),
        (
            [Sheet("a", counted=501)],
            PUZZLES,
            "Team 'a', puzzle 1: The puzzle has only 500 pieces, fewer than the 501 counted.",
        ),
        ([Sheet("a", counted=-3)], PUZZLES, "Team 'a', puzzle 1: A count cannot be below 0 (-3)."),
        (
            [Sheet("a", (Finish(1, 10), Finish(2, 20), Finish(3, 30)), counted=0)],
            PUZZLES,
            "Team 'a' finished every puzzle; there is nothing to count.",
        ),
    ],
)
def test_every_refusal_says_what_is_wrong(sheets, puzzles, message):
    """The head judge reads the refusal: it names the team, the puzzle and the numbers."""
    with pytest.raises(RuleViolation) as info:
        standings(puzzles, sheets)
    assert str(info.value) == info.value.message == message


def test_puzzles_in_any_input_order():
    rows = standings((Puzzle(2, 1000), Puzzle(1, 500)), [Sheet("a", (Finish(1, 10),), 30)])
    assert rows[0].pieces == 530


# --- R9: the count of the unfinished puzzle ---------------------------------------------


def test_r9_count_adds_to_the_pieces():
    """R9: the count of the unfinished puzzle adds to the whole puzzles' pieces."""
    assert one(Sheet("a", counted=3)).pieces == 3
    assert one(Sheet("a", counted=0)).pieces == 0
    assert one(Sheet("a", (Finish(1, 10),), counted=999)).pieces == 1499


def test_r9_refuses_count_too_small():
    """R9, code count_too_small: only groups of at least 3 pieces count, so never 1 or 2."""
    refused("count_too_small", [Sheet("a", counted=1)])
    refused("count_too_small", [Sheet("a", counted=2)])


def test_r9_refuses_count_too_large():
    """R9, code count_too_large: more than the unfinished puzzle's pieces."""
    refused("count_too_large", [Sheet("a", counted=501)])
    refused("count_too_large", [Sheet("a", (Finish(1, 10),), counted=1001)])
    assert one(Sheet("a", counted=499)).pieces == 499


def test_r9_refuses_a_count_of_every_piece():
    """R9, code count_is_finish: a count is of a puzzle "not fully finished", so it is below
    the puzzle's pieces; all of them placed is a finish, which the judge registers as one."""
    error = refused("count_is_finish", [Sheet("a", counted=500)])
    assert "'a'" in error.message and "finish" in error.message
    refused("count_is_finish", [Sheet("a", (Finish(1, 10),), counted=1000)])
    assert one(Sheet("a", (Finish(1, 10),), counted=999)).pieces == 1499


def test_r9_a_count_of_every_piece_cannot_rank_above_a_real_finish():
    """Team A finished puzzle 1 early and "counted" all 1,000 pieces of
    puzzle 2; team B really finished puzzle 2. Both would have 1,500 pieces and A would win on
    its earlier last finish. The count is refused, so the sheets can never rank like that."""
    early_count = Sheet("A", (Finish(1, 1800),), counted=1000)
    real_finish = Sheet("B", (Finish(1, 2400), Finish(2, 10200)))
    refused("count_is_finish", [early_count, real_finish])
    rows = standings(PUZZLES, [dataclasses.replace(early_count, counted=999), real_finish])
    assert [(s.team, s.rank, s.pieces) for s in rows] == [("B", 1, 1500), ("A", 2, 1499)]


@pytest.mark.parametrize(
    ("pieces", "counted", "code"),
    [
        (500, -1, "count_negative"),
        (500, 1, "count_too_small"),
        (500, 2, "count_too_small"),
        (500, 500, "count_is_finish"),
        (500, 501, "count_too_large"),
        (3, 3, "count_is_finish"),
        (1, 1, "count_too_small"),
    ],
)
def test_r9_check_count_refuses(pieces, counted, code):
    """R9, `check_count(pieces_of_puzzle, counted)`: the one check every count goes through."""
    with pytest.raises(RuleViolation) as info:
        check_count(pieces, counted)
    assert info.value.code == code


@pytest.mark.parametrize(("pieces", "counted"), [(500, 0), (500, 3), (500, 499), (4, 3), (1, 0)])
def test_r9_check_count_accepts(pieces, counted):
    """R9: 0, or at least 3 and fewer than the puzzle's pieces; the count is returned."""
    assert check_count(pieces, counted) == counted


def test_r9_refuses_count_negative():
    """R9, code count_negative: a count below 0."""
    refused("count_negative", [Sheet("a", counted=-3)])


@pytest.mark.parametrize("counted", [0, 3])
def test_r9_refuses_count_when_all_finished(counted):
    """R9, code all_finished: any count, even 0, for a team with no unfinished puzzle."""
    done = (Finish(1, 10), Finish(2, 20), Finish(3, 30))
    refused("all_finished", [Sheet("a", done, counted=counted)])
    assert one(Sheet("a", done)).pieces == 2500


# --- R11: ranking -----------------------------------------------------------------------


@pytest.fixture(params=["str", "int"])
def ids(request):
    """Team ids for the R11 examples, in the order the teams are expected to come.

    Each example runs with string ids and with integer ids (the database's, which
    standings() sorts on a key of its own). The ids go against the expected order (the
    first has the largest id, in number and in text), so only R11 can put a team first.
    """
    if request.param == "int":
        return [1000, 100, 10, 1]
    return ["z", "y", "x", "w"]


def test_r11_more_pieces_first(ids):
    """R11: the team with the most pieces wins, whatever its time."""
    slow, fast = ids[:2]
    rows = standings(
        PUZZLES,
        [Sheet(fast, (Finish(1, 100),)), Sheet(slow, (Finish(1, 3000),), counted=10)],
    )
    assert [(s.team, s.rank, s.pieces) for s in rows] == [(slow, 1, 510), (fast, 2, 500)]


def test_r11_equal_pieces_earlier_last_finish_first(ids):
    """R11: on equal pieces, the team that finished its last whole puzzle first is ahead."""
    early, late = ids[:2]
    rows = standings(
        PUZZLES,
        [Sheet(late, (Finish(1, 1201),), counted=20), Sheet(early, (Finish(1, 1200),), counted=20)],
    )
    assert [(s.team, s.rank) for s in rows] == [(early, 1), (late, 2)]


def test_r11_the_last_finish_decides_not_the_first(ids):
    """R11: the time of the last whole puzzle decides, not an earlier one."""
    ahead, behind = ids[:2]
    rows = standings(
        PUZZLES,
        [
            Sheet(behind, (Finish(1, 100), Finish(2, 5000))),
            Sheet(ahead, (Finish(1, 900), Finish(2, 4999))),
        ],
    )
    assert [(s.team, s.rank) for s in rows] == [(ahead, 1), (behind, 2)]


def test_r11_no_finish_after_a_team_with_one(ids):
    """R11: on equal pieces, a team with no whole puzzle comes after every team with one."""
    one_, none = ids[:2]
    rows = standings(
        (Puzzle(1, 500), Puzzle(2, 1000)),
        [Sheet(none, counted=499), Sheet(one_, (Finish(1, 7200, (1,)),))],
    )
    assert [(s.team, s.rank) for s in rows] == [(one_, 1), (none, 2)]


def test_r11_a_finish_at_second_0_is_still_a_finish(ids):
    """R11: a last finish at 0:00:00 is a finish (not "no finish"): it comes first."""
    zero, none = ids[:2]
    rows = standings(
        (Puzzle(1, 5), Puzzle(2, 10)), [Sheet(none, counted=4), Sheet(zero, (Finish(1, 0, (1,)),))]
    )
    assert [(s.team, s.rank, s.last_finish_seconds) for s in rows] == [
        (zero, 1, 0),
        (none, 2, None),
    ]


def test_r11_still_equal_shares_the_rank_and_the_next_skips(ids):
    """R11: equal pieces and equal time share a rank, and the next rank skips (1, 2, 2, 4)."""
    a, b, c, d = ids
    rows = standings(
        PUZZLES,
        [
            Sheet(d, counted=100),
            Sheet(c, (Finish(1, 900),), counted=10),
            Sheet(b, (Finish(1, 900),), counted=10),
            Sheet(a, (Finish(1, 800),), counted=400),
        ],
    )
    tied = sorted([b, c])  # exactly tied: listed by id
    assert [(s.team, s.rank) for s in rows] == [(a, 1), (tied[0], 2), (tied[1], 2), (d, 4)]


def test_r11_teams_without_finish_and_equal_pieces_share_a_rank(ids):
    """R11: two teams with the same count and no finish are still equal."""
    a, b, c = ids[:3]
    rows = standings(PUZZLES, [Sheet(c, counted=0), Sheet(a, counted=10), Sheet(b, counted=10)])
    tied = sorted([a, b])
    assert [(s.team, s.rank) for s in rows] == [(tied[0], 1), (tied[1], 1), (c, 3)]


def test_r11_exact_ties_listed_by_team_id_not_input_order():
    """Exactly tied teams are listed by id (numbers numerically), never by input order."""
    sheets = [Sheet(10, counted=5), Sheet(9, counted=5), Sheet(100, counted=5)]
    assert [s.team for s in standings(PUZZLES, sheets)] == [9, 10, 100]
    assert [s.team for s in standings(PUZZLES, sheets[::-1])] == [9, 10, 100]
    texts = [Sheet("b", counted=5), Sheet("a", counted=5), Sheet("c", counted=5)]
    assert [s.team for s in standings(PUZZLES, texts)] == ["a", "b", "c"]
    finished = [Sheet(10, (Finish(1, 60),)), Sheet(9, (Finish(1, 60),))]
    assert [s.team for s in standings(PUZZLES, finished)] == [9, 10]


@pytest.mark.parametrize("finishes", [(), (Finish(1, 60),)])
def test_r11_exact_ties_of_mixed_ids_numbers_then_text_then_the_rest(finishes):
    """Tied teams of any hashable id: numbers (not booleans) in numeric order, then strings,
    then the rest by type name and repr; with or without a finish."""
    ids = ["z", ("t",), 2.5, True, "a", 10, 1.5]
    rows = standings(PUZZLES, [Sheet(team, finishes, counted=5) for team in ids])
    assert [s.team for s in rows] == [1.5, 2.5, 10, "a", "z", True, ("t",)]
    assert {s.rank for s in rows} == {1}


@pytest.mark.parametrize(
    "sheet",
    [
        Sheet("a"),
        Sheet(1, counted=0),
        Sheet(2, counted=3),
        Sheet(3, counted=499),  # all but one: a count (all of them is a finish)
        Sheet(4, (Finish(1, 60), Finish(2, 60)), counted=999),  # the same second twice
        Sheet(5, (Finish(1, 60, (1,)),)),
        Sheet(6, (Finish(1, 60, (250, 250)),)),  # as many missing as pieces
        Sheet(7, (Finish(1, 0), Finish(2, 10), Finish(3, 20))),  # all finished
        Sheet("b", (Finish(1, 60, (2, 1)),), counted=3, disqualified=True),
    ],
)
def test_a_valid_sheet_at_the_edge_of_a_rule_takes_the_fast_path(sheet):
    """Sheets right at the edge of R7, R8 and R9 are valid: standings() scores them in its
    fast pass, without the rule-by-rule check (`_score`), and scores them right."""
    from unittest import mock

    from puzzle_rules import ranking

    expected = one(sheet)
    with mock.patch.object(ranking, "_score", side_effect=AssertionError("slow path")):
        assert one(sheet) == expected
    whole = sum(PUZZLES[f.position - 1].pieces - f.missing.count(1) for f in sheet.finishes)
    assert expected.pieces == whole + (sheet.counted or 0)


@pytest.mark.parametrize(
    "sheet",
    [Sheet("a", (Finish(1, None),)), Sheet("a", counted="12"), Sheet("a", (Finish(1, 9, ("1",)),))],
)
def test_a_malformed_sheet_is_never_ranked(sheet):
    """A time, count or spot that is not a number is an error, not a place in the list."""
    with pytest.raises(TypeError):
        standings(PUZZLES, [sheet])


def test_r11_disqualified_last_without_rank(ids):
    """R11 (R14, R18): disqualified teams have rank None and come after all ranked teams,
    ordered among themselves by R11 too."""
    mid, low, dq_best, dq_low = ids
    rows = standings(
        PUZZLES,
        [
            Sheet(dq_low, counted=3, disqualified=True),
            Sheet(dq_best, (Finish(1, 10), Finish(2, 20)), disqualified=True),
            Sheet(low, counted=0),
            Sheet(mid, counted=300),
        ],
    )
    assert [(s.team, s.rank) for s in rows] == [
        (mid, 1),
        (low, 2),
        (dq_best, None),
        (dq_low, None),
    ]
    assert rows[2].pieces == 1500
    assert rows[2].disqualified and not rows[1].disqualified


def test_disqualified_sheet_is_still_checked():
    """A disqualified team's records obey the rules too."""
    refused("count_too_small", [Sheet("a", counted=2, disqualified=True)])


# --- Sentences for people ---------------------------------------------------------------


def st(team, pieces, last, rank=1, disqualified=False):
    return Standing(rank, team, pieces, 1 if last is not None else 0, last, disqualified)


def test_format_hms():
    assert format_hms(0) == "0:00:00"
    assert format_hms(45) == "0:00:45"
    assert format_hms(5025) == "1:23:45"
    assert format_hms(36000) == "10:00:00"
    with pytest.raises(ValueError, match="^seconds must not be negative, not -1$"):
        format_hms(-1)


@pytest.mark.parametrize(
    ("seconds", "da", "en"),
    [
        (1, "1 sekund", "1 second"),
        (45, "45 sekunder", "45 seconds"),
        (60, "1 minut", "1 minute"),
        (120, "2 minutter", "2 minutes"),
        (125, "2 minutter og 5 sekunder", "2 minutes and 5 seconds"),
        (3600, "1 time", "1 hour"),
        (3600 + 60 + 7, "1 time og 1 minut", "1 hour and 1 minute"),
        (2 * 3600 + 30 * 60, "2 timer og 30 minutter", "2 hours and 30 minutes"),
    ],
)
def test_format_duration(seconds, da, en):
    assert format_duration(seconds) == da
    assert format_duration(seconds, "da") == da
    assert format_duration(seconds, "en") == en


def test_format_duration_of_nothing_and_of_less():
    assert format_duration(0) == "0 sekunder"
    assert format_duration(0, "en") == "0 seconds"
    with pytest.raises(ValueError, match="^seconds must not be negative, not -1$"):
        format_duration(-1)


def test_r11_tie_break_reason_earlier_danish():
    """R11: the tie-break sentence of the glossary, in Danish."""
    reason = tie_break_reason(st(1, 900, 5025), st(2, 900, 5145, 2), ahead_name="Kantsøgerne")
    assert reason == (
        "Samme antal brikker; Kantsøgerne lagde deres sidste hele puslespil færdigt "
        "2 minutter tidligere."
    )


def test_r11_tie_break_reason_of_one_puzzler_says_sit():
    """R11 for an individual entrant: one person lays "sit" puzzle, a team "deres"."""
    reason = tie_break_reason(
        st(1, 900, 5025), st(2, 900, 5145, 2), ahead_name="Erik", alone=True, with_time=True
    )
    assert reason == (
        "Samme antal brikker; Erik lagde sit sidste hele puslespil færdigt på 1:23:45, "
        "2 minutter tidligere."
    )
    english = tie_break_reason(
        st(1, 900, 5025), st(2, 900, 5145, 2), ahead_name="Erik", alone=True, language="en"
    )
    assert english == "Same pieces; Erik finished their last whole puzzle 2 minutes earlier."


def test_r11_tie_break_reason_earlier_english():
    """R11: the tie-break sentence in English."""
    reason = tie_break_reason(
        st(1, 900, 5025), st(2, 900, 5145, 2), ahead_name="Kantsøgerne", language="en"
    )
    assert reason == "Same pieces; Kantsøgerne finished their last whole puzzle 2 minutes earlier."


def test_r11_tie_break_reason_with_time():
    """R11: the sentence may give the time the team finished its last whole puzzle."""
    ahead, behind = st(1, 900, 5025), st(2, 900, 5070, 2)
    assert tie_break_reason(ahead, behind, ahead_name="K", language="en", with_time=True) == (
        "Same pieces; K finished their last whole puzzle at 1:23:45, 45 seconds earlier."
    )
    assert tie_break_reason(ahead, behind, ahead_name="K", with_time=True) == (
        "Samme antal brikker; K lagde deres sidste hele puslespil færdigt på 1:23:45, "
        "45 sekunder tidligere."
    )


def test_r11_tie_break_reason_only_one_finished():
    """R11: a team with a whole puzzle is ahead of one without."""
    ahead, behind = st(1, 900, 5025), st(2, 900, None, 2)
    assert tie_break_reason(ahead, behind, ahead_name="K", language="en") == (
        "Same pieces; only K finished a whole puzzle."
    )
    assert tie_break_reason(ahead, behind, ahead_name="K", language="da") == (
        "Samme antal brikker; kun K lagde et helt puslespil færdigt."
    )


def test_r11_tie_break_reason_shared_place():
    """R11: equal pieces and equal time is a shared place."""
    ahead, behind = st(1, 900, 5025), st(2, 900, 5025)
    assert tie_break_reason(ahead, behind, ahead_name="K") == (
        "Samme antal brikker og samme tid: delt placering."
    )
    assert tie_break_reason(ahead, behind, ahead_name="K", language="en") == (
        "Same pieces and same time: shared place."
    )
    nobody = st(1, 900, None), st(2, 900, None)
    assert tie_break_reason(*nobody, ahead_name="K", language="en") == (
        "Same pieces and no whole puzzle finished: shared place."
    )
    assert tie_break_reason(*nobody, ahead_name="K") == (
        "Samme antal brikker og intet helt puslespil færdigt: delt placering."
    )


def test_r11_tie_break_reason_none_without_a_tie():
    """R11: different pieces need no tie-break; a disqualified team has no place to explain."""
    assert tie_break_reason(st(1, 901, 9000), st(2, 900, 10, 2), ahead_name="K") is None
    dq = st(2, 900, 6000, None, disqualified=True)
    assert tie_break_reason(st(1, 900, 5000), dq, ahead_name="K") is None


def test_tie_break_reason_language_codes():
    """Region variants use their language; an unknown language gets Danish, the default."""
    ahead, behind = st(1, 900, 5025), st(2, 900, 5025)
    assert tie_break_reason(ahead, behind, ahead_name="K", language="en-gb").startswith("Same")
    assert tie_break_reason(ahead, behind, ahead_name="K", language="en_GB").startswith("Same")
    assert tie_break_reason(ahead, behind, ahead_name="K", language="EN").startswith("Same")
    assert tie_break_reason(ahead, behind, ahead_name="K", language="de").startswith("Samme")
    assert format_duration(61, "en_US") == "1 minute and 1 second"


def test_tie_break_reason_refuses_wrong_order():
    """The team named ahead must come first by R11."""
    message = r"^`ahead` finished its last whole puzzle after `behind` \(R11\)$"
    with pytest.raises(ValueError, match=message):
        tie_break_reason(st(1, 900, 6000), st(2, 900, 5000), ahead_name="K")
    with pytest.raises(ValueError, match=message):
        tie_break_reason(st(1, 900, None), st(2, 900, 5000), ahead_name="K")


def test_tie_break_reason_matches_standings():
    """The sentence explains the order standings() gives."""
    rows = standings(PUZZLES, [Sheet("b", (Finish(1, 700),)), Sheet("a", (Finish(1, 600),))])
    assert tie_break_reason(rows[0], rows[1], ahead_name="A", language="en") == (
        "Same pieces; A finished their last whole puzzle 1 minute and 40 seconds earlier."
    )
