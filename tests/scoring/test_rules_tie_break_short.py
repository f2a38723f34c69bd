"""R11's tie-break in a few words, for a phone's row (issue 15): told from the team behind."""

import pytest

from scoring.rules import Standing, tie_break_reason


def st(team, pieces, last, rank=1) -> Standing:
    return Standing(rank, team, pieces, 1 if last is not None else 0, last, False)


@pytest.mark.parametrize(
    ("ahead", "behind", "da"),
    [
        (st(1, 900, 5025), st(2, 900, 5145, 2), "Samme brikker, senere færdig."),
        (st(1, 500, 1800), st(2, 500, None, 2), "Samme brikker, intet helt puslespil."),
        (st(1, 900, 5025), st(2, 900, 5025), "Samme brikker: delt placering."),
        (st(1, 0, None), st(2, 0, None), "Samme brikker: delt placering."),
    ],
)
def test_short_tie_break_in_danish(ahead, behind, da):
    assert tie_break_reason(ahead, behind, ahead_name="Kantsøgerne", short=True) == da
    # Never longer than the full sentence, and without the other team's name.
    full = tie_break_reason(ahead, behind, ahead_name="Kantsøgerne", with_time=True)
    assert len(da) < len(full) and "Kantsøgerne" not in da


def test_short_tie_break_in_english():
    ahead, behind = st(1, 900, 5025), st(2, 900, 5145, 2)
    assert (
        tie_break_reason(ahead, behind, ahead_name="K", language="en", short=True)
        == "Same pieces, finished later."
    )


def test_short_tie_break_is_none_without_a_tie():
    assert (
        tie_break_reason(st(1, 901, 5025), st(2, 900, 5000, 2), ahead_name="K", short=True) is None
    )
