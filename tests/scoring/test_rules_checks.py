"""The one-record checks of puzzle_rules/rules.py that the judging services call (R5, R7-R10)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from puzzle_rules.rules import (
    RuleViolation,
    check_clock_time,
    check_count,
    check_count_size,
    check_finish_time,
    check_missing,
    check_next_position,
    placed_from_unplaced,
)


def _code(call) -> str:
    with pytest.raises(RuleViolation) as caught:
        call()
    return caught.value.code


def test_check_missing_r8():
    """R8: spots of at least 1 piece adding up to at most the puzzle's pieces."""
    assert check_missing(500, [1, 3]) == (1, 3)
    assert check_missing(4, [1, 3]) == (1, 3)
    assert _code(lambda: check_missing(500, [0])) == "missing_not_positive"
    assert _code(lambda: check_missing(500, [-2])) == "missing_not_positive"
    assert _code(lambda: check_missing(500, [True])) == "missing_not_positive"
    assert _code(lambda: check_missing(3, [1, 3])) == "missing_too_many"


def test_check_next_position_r7():
    """R7: the next puzzle is the one after the last finished; no skipping, no repeat."""
    assert check_next_position(0, 1) == 1
    assert check_next_position(2, 3) == 3
    assert _code(lambda: check_next_position(2, 2)) == "already_finished"
    assert _code(lambda: check_next_position(2, 1)) == "already_finished"
    assert _code(lambda: check_next_position(0, 2)) == "out_of_order"


def test_check_finish_time_r7():
    """R5, R7: a time not below 0 and between the finishes before and after it."""
    assert check_finish_time(60, after=60) == 60
    assert check_finish_time(60, after=0, before=60) == 60
    assert _code(lambda: check_finish_time(-1)) == "negative_time"
    assert _code(lambda: check_finish_time(59, after=60)) == "time_order"
    assert _code(lambda: check_finish_time(61, after=0, before=60)) == "time_order"


def test_check_clock_time_r10():
    """R10: not after the end, not later than now; a few seconds ahead of now is now."""
    assert check_clock_time(100, now=200, end=300) == 100
    assert check_clock_time(203, now=200, end=300, tolerance=5) == 200
    assert _code(lambda: check_clock_time(-1, now=200, end=300)) == "negative_time"
    assert _code(lambda: check_clock_time(301, now=400, end=300)) == "after_end"
    assert _code(lambda: check_clock_time(206, now=200, end=300, tolerance=5)) == "in_future"
    # In the last seconds, while the clock runs, a tap ahead is now too.
    assert check_clock_time(62, now=57, end=60, tolerance=5) == 57
    assert check_clock_time(60, now=60, end=60, tolerance=5) == 60
    assert _code(lambda: check_clock_time(63, now=57, end=60, tolerance=5)) == "after_end"
    assert _code(lambda: check_clock_time(62, now=61, end=60, tolerance=5)) == "after_end"


def test_check_count_size_r9():
    """R9: a count is 0 or at least 3, whatever the puzzle."""
    assert check_count_size(0) == 0
    assert check_count_size(3) == 3
    assert _code(lambda: check_count_size(-1)) == "count_negative"
    assert _code(lambda: check_count_size(1)) == "count_too_small"
    assert _code(lambda: check_count_size(2)) == "count_too_small"


def test_placed_from_unplaced_r9():
    """R9: placed = the puzzle's pieces - unplaced - loose, never below 0."""
    assert placed_from_unplaced(500, 200, 7) == 293
    assert placed_from_unplaced(500, 500) == 0
    assert _code(lambda: placed_from_unplaced(500, -1)) == "count_negative"
    assert _code(lambda: placed_from_unplaced(500, 1, -1)) == "count_negative"
    assert _code(lambda: placed_from_unplaced(500, 499, 2)) == "unplaced_too_many"


@given(pieces=st.integers(1, 5000), counted=st.integers(-10, 6000))
def test_check_count_is_check_count_size_and_below_the_puzzle(pieces, counted):
    """R9: check_count accepts exactly the sizes check_count_size accepts below the puzzle."""
    size_ok = counted == 0 or counted >= 3
    expected = size_ok and counted < pieces
    try:
        assert check_count(pieces, counted) == counted
        accepted = True
    except RuleViolation:
        accepted = False
    assert accepted == expected


@given(
    pieces=st.integers(1, 2000),
    missing=st.lists(st.integers(-3, 50), max_size=20),
)
def test_check_missing_accepts_exactly_positive_spots_that_fit(pieces, missing):
    """R8: accepted iff every spot is positive and they fit the puzzle."""
    fits = all(m >= 1 for m in missing) and sum(missing) <= pieces
    try:
        check_missing(pieces, missing)
        accepted = True
    except RuleViolation:
        accepted = False
    assert accepted == fits
