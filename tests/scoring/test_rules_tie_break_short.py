"""R11's tie-break told from the team behind, for a phone's row: ahead of
whom it is placed and by how much, in one place (rules.tie_break) and one sentence."""

import pytest

from puzzle_rules.formatting import duration_parts
from puzzle_rules.rules import Standing, tie_break, tie_break_reason
from scoring.selectors import short_duration, tie_break_sentence


def st(team, pieces, last, rank=1, dq=False) -> Standing:
    return Standing(rank, team, pieces, 1 if last is not None else 0, last, dq)


@pytest.mark.parametrize(
    ("ahead", "behind", "gap"),
    [
        (st(1, 900, 5025), st(2, 900, 5083, 2), ("earlier", 58)),
        (st(1, 500, 1800), st(2, 500, None, 2), ("only", None)),
        (st(1, 900, 5025), st(2, 900, 5025), ("same_time", None)),
        (st(1, 0, None), st(2, 0, None), ("none_finished", None)),
        (st(1, 901, 5025), st(2, 900, 5000, 2), None),  # no tie
        (st(1, 900, 5025, dq=True), st(2, 900, 5083, 2), None),  # disqualified
    ],
)
def test_tie_break_says_which_case_and_by_how_much(ahead, behind, gap):
    assert tie_break(ahead, behind) == gap


def test_tie_break_refuses_the_wrong_order():
    with pytest.raises(ValueError, match="R11"):
        tie_break(st(1, 900, 5083), st(2, 900, 5025, 2))


@pytest.mark.parametrize(
    ("seconds", "parts", "da"),
    [
        (58, [("second", 58)], "58 sek."),
        (60, [("minute", 1)], "1 min."),
        (100, [("minute", 1), ("second", 40)], "1 min. 40 sek."),
        (3725, [("hour", 1), ("minute", 2)], "1 t. 2 min."),
        (7200, [("hour", 2)], "2 t."),
    ],
)
def test_a_gap_is_written_short_as_on_a_scoreboard(seconds, parts, da):
    assert duration_parts(seconds) == parts
    assert short_duration(seconds) == da  # tests run in Danish


@pytest.mark.parametrize(
    ("ahead", "behind", "da"),
    [
        (
            st(1, 900, 5025),
            st(2, 900, 5083, 2),
            "Samme antal brikker som Brikkebanden, men sidste hele puslespil blev færdigt "
            "58 sek. senere.",
        ),
        (
            st(1, 900, 5025),
            st(2, 900, 5125, 2),
            "Samme antal brikker som Brikkebanden, men sidste hele puslespil blev færdigt "
            "1 min. 40 sek. senere.",
        ),
        (
            st(1, 500, 1800),
            st(2, 500, None, 2),
            "Samme antal brikker som Brikkebanden, men intet helt puslespil færdigt.",
        ),
        (
            st(1, 900, 5025),
            st(2, 900, 5025),
            "Samme antal brikker som Brikkebanden, og sidste hele puslespil blev færdigt i "
            "samme sekund: delt placering.",
        ),
    ],
)
def test_the_short_sentence_names_the_team_ahead_and_the_gap(ahead, behind, da):
    assert tie_break_sentence(tie_break(ahead, behind), "Brikkebanden", "da") == da


def test_the_short_sentence_in_english():
    gap = tie_break(st(1, 900, 5025), st(2, 900, 5083, 2))
    assert tie_break_sentence(gap, "Brikkebanden", "en") == (
        "Same number of pieces as Brikkebanden, but the last whole puzzle was finished "
        "58 sec. later."
    )


def test_the_full_sentence_uses_the_same_gap():
    ahead, behind = st(1, 900, 5025), st(2, 900, 5125, 2)
    assert tie_break_reason(ahead, behind, ahead_name="K") == (
        "Samme antal brikker; K lagde deres sidste hele puslespil færdigt "
        "1 minut og 40 sekunder tidligere."
    )
