"""The ranking profile "wjpc" of the pure rules (issue 34), one test per rule, beside the
Danish rules ("dm", the default) the same competitions get.

wjpc: a team that finished every puzzle ranks by its last finish plus 10 s a lone missing
piece (a spot of 2 or more adjacent missing pieces is a manufacturing defect: no penalty, as
R8); every such team before every team that did not; those rank by pieces (R8, R9) alone,
equal pieces sharing the place.
"""

import pytest

import scoring.rules
from puzzle_rules import rules
from puzzle_rules.rules import (
    PENALTY_SECONDS_PER_PIECE,
    PROFILES,
    Finish,
    Puzzle,
    RuleViolation,
    Sheet,
    Standing,
    standings,
    tie_break,
    tie_break_reason,
)

ONE = (Puzzle(1, 2000),)
TWO = (Puzzle(1, 500), Puzzle(2, 1000))


def by_team(rows):
    return {s.team: s for s in rows}


def order(rows):
    return [(s.team, s.rank) for s in rows]


# --- The profiles --------------------------------------------------------------------------


def test_the_profiles_and_the_penalty_are_named_in_the_rules_and_the_shim():
    assert PROFILES == ("dm", "wjpc")
    assert PENALTY_SECONDS_PER_PIECE == 10
    assert scoring.rules.PROFILES is rules.PROFILES
    assert scoring.rules.standings is rules.standings
    assert {"PROFILES", "PENALTY_SECONDS_PER_PIECE", "check_profile"} <= set(scoring.rules.__all__)


@pytest.mark.parametrize("profile", ["uk", "DM", "", None, 1, "wjpc "])
def test_another_profile_is_refused_with_a_sentence(profile):
    """Another profile raises RuleViolation("profile"), with no sheet at all too."""
    for sheets in ([], [Sheet("a", (Finish(1, 60),))]):
        with pytest.raises(RuleViolation) as info:
            standings(ONE, sheets, profile=profile)
        assert info.value.code == "profile"
        assert info.value.message == (f"The ranking must be one of dm, wjpc, not {profile!r}.")
    with pytest.raises(RuleViolation) as info:
        tie_break(Standing(1, "a", 1, 0, None, False), Standing(1, "b", 1, 0, None, False), profile)
    assert info.value.code == "profile"


def test_dm_is_the_default_and_has_no_penalty():
    """Without a profile the Danish rules, as before: the lone pieces come off the pieces."""
    sheets = [Sheet("a", (Finish(1, 5000, (1, 1)),)), Sheet("b", counted=1999)]
    assert standings(ONE, sheets) == standings(ONE, sheets, profile="dm")
    a = by_team(standings(ONE, sheets))["a"]
    assert (a.rank, a.pieces, a.penalty_seconds, a.ranking_seconds) == (2, 1998, 0, None)
    assert a == Standing(2, "a", 1998, 1, 5000, False)


# --- wjpc: the finishers ---------------------------------------------------------------------


def test_wjpc_a_lone_missing_piece_adds_10_seconds():
    """Time + 10 s a lone missing piece; the pieces are R8's, as under dm."""
    row = by_team(standings(ONE, [Sheet("a", (Finish(1, 5000, (1, 1, 1)),))], "wjpc"))["a"]
    assert (row.pieces, row.last_finish_seconds) == (1997, 5000)
    assert (row.penalty_seconds, row.ranking_seconds) == (30, 5030)


def test_wjpc_adjacent_missing_pieces_cost_nothing():
    """2 or more adjacent missing pieces: a manufacturing defect, no penalty (as R8)."""
    row = standings(ONE, [Sheet("a", (Finish(1, 5000, (2, 5)),))], "wjpc")[0]
    assert (row.pieces, row.penalty_seconds, row.ranking_seconds) == (2000, 0, 5000)
    row = standings(ONE, [Sheet("a", (Finish(1, 5000, (2, 1, 3, 1)),))], "wjpc")[0]
    assert (row.pieces, row.penalty_seconds, row.ranking_seconds) == (1998, 20, 5020)


def test_wjpc_the_penalty_adds_up_over_every_puzzle():
    sheet = Sheet("a", (Finish(1, 1800, (1,)), Finish(2, 4000, (1, 1, 4))))
    row = standings(TWO, [sheet], "wjpc")[0]
    assert (row.pieces, row.finished, row.penalty_seconds, row.ranking_seconds) == (
        1497,
        2,
        30,
        4030,
    )


def test_wjpc_a_penalty_can_put_a_faster_finisher_behind():
    """4000 s with 2 lone pieces ranks by 4020 s: behind a whole puzzle at 4015 s, ahead of
    one at 4025 s; under dm its 1,998 pieces put it below both."""
    sheets = [
        Sheet("fast", (Finish(1, 4000, (1, 1)),)),
        Sheet("clean", (Finish(1, 4015),)),
        Sheet("slow", (Finish(1, 4025),)),
    ]
    assert order(standings(ONE, sheets, "wjpc")) == [("clean", 1), ("fast", 2), ("slow", 3)]
    # dm: the two whole ones have 2000 pieces, "fast" 1998, below them both.
    assert order(standings(ONE, sheets)) == [("clean", 1), ("slow", 2), ("fast", 3)]


def test_wjpc_equal_time_with_the_penalty_shares_the_place():
    sheets = [
        Sheet("a", (Finish(1, 4000, (1,)),)),
        Sheet("b", (Finish(1, 4010),)),
        Sheet("c", (Finish(1, 4011),)),
    ]
    assert order(standings(ONE, sheets, "wjpc")) == [("a", 1), ("b", 1), ("c", 3)]


# --- wjpc: finishers before everyone else ---------------------------------------------------


def test_wjpc_the_issues_example_finisher_above_1998_pieces():
    """Issue 34: a finisher with 5 lone missing pieces (1,995 of 2,000) ranks below a team
    that did not finish with 1,998 under dm, above it under wjpc."""
    sheets = [Sheet("finisher", (Finish(1, 9000, (1, 1, 1, 1, 1)),)), Sheet("open", counted=1998)]
    dm = by_team(standings(ONE, sheets))
    wjpc = by_team(standings(ONE, sheets, "wjpc"))
    assert (dm["open"].rank, dm["finisher"].rank) == (1, 2)
    assert (wjpc["finisher"].rank, wjpc["open"].rank) == (1, 2)
    assert wjpc["finisher"].penalty_seconds == 50
    assert wjpc["finisher"].pieces == dm["finisher"].pieces == 1995
    assert wjpc["open"].penalty_seconds == 0 and wjpc["open"].ranking_seconds is None


def test_wjpc_a_finisher_at_the_last_second_is_before_every_count():
    sheets = [Sheet("late", (Finish(1, 99_999, (1,) * 40),)), Sheet("open", counted=1999)]
    assert order(standings(ONE, sheets, "wjpc")) == [("late", 1), ("open", 2)]


# --- wjpc: the teams that did not finish ------------------------------------------------------


def test_wjpc_non_finishers_rank_by_pieces_equal_pieces_share_whatever_the_time():
    """Pieces alone: an earlier whole puzzle does not break the tie (dm's R11 does)."""
    sheets = [
        Sheet("early", (Finish(1, 1000),), counted=100),
        Sheet("late", (Finish(1, 3000),), counted=100),
        Sheet("more", (Finish(1, 3500),), counted=101),
        Sheet("less", (Finish(1, 100),), counted=99),
    ]
    assert order(standings(TWO, sheets, "wjpc")) == [
        ("more", 1),
        ("early", 2),
        ("late", 2),
        ("less", 4),
    ]
    assert order(standings(TWO, sheets)) == [("more", 1), ("early", 2), ("late", 3), ("less", 4)]


def test_wjpc_a_non_finisher_keeps_r8_pieces_and_gets_no_penalty():
    """A lone missing piece of a finished puzzle comes off the pieces (R8), no seconds."""
    row = standings(TWO, [Sheet("a", (Finish(1, 1000, (1, 1)),), counted=300)], "wjpc")[0]
    assert (row.pieces, row.penalty_seconds, row.ranking_seconds) == (798, 0, None)


def test_wjpc_nothing_done_shares_the_last_place():
    sheets = [Sheet("a"), Sheet("b", counted=0), Sheet("c", counted=3)]
    assert order(standings(ONE, sheets, "wjpc")) == [("c", 1), ("a", 2), ("b", 2)]


def test_wjpc_disqualified_last_in_the_same_order():
    sheets = [
        Sheet("dq-open", counted=1500, disqualified=True),
        Sheet("dq-fin", (Finish(1, 8000, (1,)),), disqualified=True),
        Sheet("open", counted=10),
    ]
    rows = standings(ONE, sheets, "wjpc")
    assert order(rows) == [("open", 1), ("dq-fin", None), ("dq-open", None)]
    assert rows[1].penalty_seconds == 10 and rows[1].ranking_seconds == 8010


def test_wjpc_a_broken_rule_is_refused_as_under_dm():
    """The same checks and codes under either profile (the rule-by-rule path)."""
    for sheet, code in [
        (Sheet("a", counted=2), "count_too_small"),
        (Sheet("a", (Finish(1, 10, (0,)),)), "missing_not_positive"),
        (Sheet("a", (Finish(2, 10),)), "out_of_order"),
    ]:
        for profile in PROFILES:
            with pytest.raises(RuleViolation) as info:
                standings(TWO, [sheet], profile)
            assert info.value.code == code


def test_wjpc_the_rule_by_rule_path_gives_the_same_penalty():
    """Finishes listed out of order go rule by rule (`_score`): the same standing."""
    listed = (Finish(2, 4000, (1, 1)), Finish(1, 1800, (1,)))
    slow = standings(TWO, [Sheet("a", listed)], "wjpc")[0]
    fast = standings(TWO, [Sheet("a", tuple(reversed(listed)))], "wjpc")[0]
    assert slow == fast
    assert (slow.penalty_seconds, slow.ranking_seconds, slow.pieces) == (30, 4030, 1497)


# --- wjpc: the tie-break told ---------------------------------------------------------------


def rows_of(sheets, puzzles=TWO):
    return by_team(standings(puzzles, sheets, "wjpc"))


def test_wjpc_tie_break_same_pieces_neither_finished():
    rows = rows_of(
        [Sheet("a", (Finish(1, 1000),), counted=100), Sheet("b", (Finish(1, 2000),), counted=100)]
    )
    a, b = sorted(rows.values(), key=lambda s: repr(s.team))
    assert tie_break(a, b, "wjpc") == ("same_pieces", None)
    assert tie_break(b, a, "wjpc") == ("same_pieces", None)
    assert tie_break_reason(a, b, ahead_name="A", profile="wjpc") == (
        "Samme antal brikker og ingen af dem lagde alle puslespil færdigt: delt placering."
    )
    assert tie_break_reason(a, b, ahead_name="A", language="en", profile="wjpc") == (
        "Same pieces and neither finished every puzzle: shared place."
    )
    # Under dm the same two are not tied: the earlier whole puzzle goes first.
    dm = by_team(
        standings(
            TWO,
            [
                Sheet("a", (Finish(1, 1000),), counted=100),
                Sheet("b", (Finish(1, 2000),), counted=100),
            ],
        )
    )
    assert tie_break(dm["a"], dm["b"]) == ("earlier", 1000)


def test_wjpc_tie_break_only_one_finished_every_puzzle():
    rows = rows_of(
        [
            Sheet("fin", (Finish(1, 100, (1,)), Finish(2, 5000))),
            Sheet("open", (Finish(1, 50),), counted=999),
        ]
    )
    fin, open_ = rows["fin"], rows["open"]
    assert fin.pieces == open_.pieces == 1499
    assert tie_break(fin, open_, "wjpc") == ("all_finished", None)
    assert tie_break_reason(fin, open_, ahead_name="Holdet", profile="wjpc") == (
        "Samme antal brikker; kun Holdet lagde alle puslespil færdigt."
    )
    assert tie_break_reason(fin, open_, ahead_name="Team", language="en", profile="wjpc") == (
        "Same pieces; only Team finished every puzzle."
    )
    with pytest.raises(ValueError, match="finished every puzzle and `ahead` did not"):
        tie_break(open_, fin, "wjpc")


def test_wjpc_tie_break_same_time_with_the_penalty():
    rows = rows_of([Sheet("a", (Finish(1, 4000, (1,)),)), Sheet("b", (Finish(1, 4010),))], ONE)
    assert tie_break(rows["a"], rows["b"], "wjpc") == ("same_ranking_time", None)
    assert tie_break_reason(rows["b"], rows["a"], ahead_name="B", profile="wjpc") == (
        "Samme tid med tillæg for manglende brikker: delt placering."
    )
    assert tie_break_reason(
        rows["b"], rows["a"], ahead_name="B", language="en", profile="wjpc"
    ) == ("Same time with the penalty for missing pieces: shared place.")


def test_wjpc_tie_break_nothing_to_tell():
    rows = rows_of(
        [
            Sheet("f1", (Finish(1, 100), Finish(2, 4000))),
            Sheet("f2", (Finish(1, 100), Finish(2, 4001))),
            Sheet("o1", counted=400),
            Sheet("o2", counted=300),
            Sheet("dq", counted=400, disqualified=True),
        ]
    )
    assert tie_break(rows["f1"], rows["f2"], "wjpc") is None  # different times
    assert tie_break(rows["f2"], rows["o1"], "wjpc") is None  # different pieces
    assert tie_break(rows["o1"], rows["o2"], "wjpc") is None
    assert tie_break(rows["o1"], rows["dq"], "wjpc") is None
    assert tie_break_reason(rows["o1"], rows["o2"], ahead_name="x", profile="wjpc") is None
    for ahead, behind in [("f2", "f1"), ("o2", "o1"), ("o1", "f2")]:
        with pytest.raises(ValueError, match=r"\(wjpc\)$"):
            tie_break(rows[ahead], rows[behind], "wjpc")
