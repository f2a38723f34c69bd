"""Property tests of the pure scoring rules (R7, R8, R9, R11) with hypothesis.

Every example exercises its property: a competition has at least two teams, and the
properties about an unfinished puzzle draw a team that has one (no example returns early).
The expectations are worked out here, from the rules as written, not with the code under
test (R8's lone pieces are counted here, not by `deducted()`).
"""

import dataclasses
import os
from unittest import mock

import pytest
from hypothesis import Phase, assume, given, settings
from hypothesis import strategies as st

from puzzle_rules import ranking
from puzzle_rules.rules import (
    Finish,
    Puzzle,
    RuleViolation,
    Sheet,
    Standing,
    check_count,
    standings,
)

# 150 examples a property. `make mutation` runs the tests once per mutant
# (MUTATION_TESTING=1): fewer examples, always the same ones, and no shrinking of a failure.
if os.environ.get("MUTATION_TESTING") == "1":
    SETTINGS = settings(
        max_examples=40,
        derandomize=True,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        deadline=None,
    )
else:
    SETTINGS = settings(max_examples=150, deadline=None)

# Few distinct sizes and times make ties in pieces and in time common, which is where the
# ranking rules (R11) have something to decide.
piece_counts = st.one_of(st.sampled_from([1, 2, 3, 10, 500, 1000]), st.integers(1, 2000))
times = st.one_of(st.integers(0, 20).map(lambda m: m * 300), st.integers(0, 20_000))
team_ids = st.one_of(st.integers(-1000, 1000), st.text(max_size=3))


@st.composite
def missing_spots(draw, pieces: int) -> tuple[int, ...]:
    """R8: spot sizes, each at least 1, adding up to no more than the puzzle's pieces."""
    spots: list[int] = []
    left = pieces
    for _ in range(draw(st.integers(0, 4))):
        if left < 1:
            break
        size = draw(st.one_of(st.just(1), st.integers(1, min(left, 5)), st.integers(1, left)))
        spots.append(size)
        left -= size
    return tuple(spots)


@st.composite
def counts(draw, pieces: int) -> int | None:
    """R9: no count, 0, or 3..pieces - 1 of the unfinished puzzle (all of them is a finish)."""
    options = [st.none(), st.just(0)]
    if pieces >= 4:
        options += [st.sampled_from([3, pieces - 1]), st.integers(3, pieces - 1)]
    return draw(st.one_of(options))


@st.composite
def sheets_for(draw, puzzles: tuple[Puzzle, ...], team: object) -> Sheet:
    """A valid sheet: finishes of positions 1..k with non-decreasing times (R7), then a count."""
    k = draw(st.integers(0, len(puzzles)))
    seconds = sorted(draw(st.lists(times, min_size=k, max_size=k)))
    finishes = tuple(
        Finish(p.position, t, draw(missing_spots(p.pieces)))
        for p, t in zip(puzzles[:k], seconds, strict=True)
    )
    counted = draw(counts(puzzles[k].pieces)) if k < len(puzzles) else None
    disqualified = draw(st.sampled_from([False, False, False, True]))
    return Sheet(team, finishes, counted, disqualified)


@st.composite
def competitions(draw) -> tuple[tuple[Puzzle, ...], list[Sheet]]:
    """Puzzles 1..N and one valid sheet per team, at least two teams (something to rank)."""
    n = draw(st.integers(1, 5))
    puzzles = tuple(Puzzle(i, draw(piece_counts)) for i in range(1, n + 1))
    teams = draw(st.lists(team_ids, unique=True, min_size=2, max_size=12))
    return puzzles, [draw(sheets_for(puzzles, team)) for team in teams]


@st.composite
def with_an_unfinished_puzzle(draw, min_pieces: int = 1):
    """A competition and the index of a team with an unfinished puzzle (of at least
    `min_pieces` pieces): that team keeps only its first k < N finishes and is counted anew."""
    puzzles, sheets = draw(competitions())
    index = draw(st.integers(0, len(sheets) - 1))
    sheet = sheets[index]
    k = min(draw(st.integers(0, len(puzzles) - 1)), len(sheet.finishes))
    if puzzles[k].pieces < min_pieces:  # a bigger puzzle only loosens every other sheet
        bigger = Puzzle(k + 1, draw(st.integers(min_pieces, min_pieces + 2000)))
        puzzles = (*puzzles[:k], bigger, *puzzles[k + 1 :])
    counted = draw(counts(puzzles[k].pieces))
    sheets[index] = dataclasses.replace(sheet, finishes=sheet.finishes[:k], counted=counted)
    return puzzles, sheets, index


def lone_pieces(missing: tuple[int, ...]) -> int:
    """R8 as written: a spot of exactly one missing piece is subtracted, larger ones not."""
    return len([size for size in missing if size == 1])


@SETTINGS
@given(competitions())
def test_a_valid_competition_is_scored_in_one_pass(competition):
    """standings() scores a plainly valid sheet in its one fast pass (its speed, bench/):
    the rule-by-rule check `_score` is only for sheets that may break a rule."""
    puzzles, sheets = competition
    expected = standings(puzzles, sheets)
    with mock.patch.object(ranking, "_score", side_effect=AssertionError("slow path")):
        assert standings(puzzles, sheets) == expected


def ahead(a: Standing, b: Standing) -> bool:
    """R11, written out independently: does `a` rank strictly before `b`?"""
    if a.pieces != b.pieces:
        return a.pieces > b.pieces
    if a.last_finish_seconds is None or b.last_finish_seconds is None:
        return a.last_finish_seconds is not None and b.last_finish_seconds is None
    return a.last_finish_seconds < b.last_finish_seconds


@SETTINGS
@given(competitions())
def test_r11_ranks_ascend_and_disqualified_last(competition):
    """R11: ranks never go down the list; disqualified teams come last with rank None."""
    puzzles, sheets = competition
    rows = standings(puzzles, sheets)
    assert sorted(map(repr, (s.team for s in rows))) == sorted(repr(s.team) for s in sheets)
    flags = [s.disqualified for s in rows]
    assert flags == sorted(flags), "a disqualified team before a ranked one"
    assert all((s.rank is None) == s.disqualified for s in rows)
    ranks = [s.rank for s in rows if not s.disqualified]
    assert ranks == sorted(ranks)
    assert not ranks or ranks[0] == 1


@SETTINGS
@given(competitions())
def test_r11_equal_rank_only_for_equal_pieces_and_time(competition):
    """R11: two ranked teams share a rank exactly when pieces and last finish time are equal."""
    rows = [s for s in standings(*competition) if not s.disqualified]
    assume(len(rows) >= 2)
    for a in rows:
        for b in rows:
            same = (a.pieces, a.last_finish_seconds) == (b.pieces, b.last_finish_seconds)
            assert (a.rank == b.rank) == same


@SETTINGS
@given(competitions())
def test_r11_rank_is_one_plus_teams_strictly_ahead(competition):
    """R11: rank = 1 + ranked teams strictly ahead, so shared ranks skip (1, 2, 2, 4)."""
    rows = [s for s in standings(*competition) if not s.disqualified]
    assume(len(rows) >= 2)
    for s in rows:
        assert s.rank == 1 + sum(ahead(other, s) for other in rows)


@SETTINGS
@given(competitions(), st.data())
def test_r7_r11_input_order_never_matters(competition, data):
    """R7, R11: shuffling the sheets and each team's finishes gives the very same standings."""
    puzzles, sheets = competition
    expected = standings(puzzles, sheets)
    shuffled = [
        dataclasses.replace(s, finishes=tuple(data.draw(st.permutations(s.finishes))))
        for s in data.draw(st.permutations(sheets))
    ]
    shuffled_puzzles = data.draw(st.permutations(puzzles))
    got = standings(shuffled_puzzles, shuffled)
    assert got == expected
    assert {s.team: s for s in got} == {s.team: s for s in expected}


@SETTINGS
@given(competitions())
def test_r8_r9_pieces_add_up(competition):
    """R8, R9: pieces = whole puzzles less lone missing pieces, plus the count."""
    puzzles, sheets = competition
    size = {p.position: p.pieces for p in puzzles}
    rows = {s.team: s for s in standings(puzzles, sheets)}
    for sheet in sheets:
        row = rows[sheet.team]
        whole = sum(size[f.position] - lone_pieces(f.missing) for f in sheet.finishes)
        assert row.pieces == whole + (sheet.counted or 0)
        assert row.finished == len(sheet.finishes)
        assert row.last_finish_seconds == max(
            (f.elapsed_seconds for f in sheet.finishes), default=None
        )


@SETTINGS
@given(with_an_unfinished_puzzle(), st.data())
def test_r8_r9_next_finish_never_lowers_pieces(competition, data):
    """R8, R9: finishing the unfinished puzzle never gives fewer pieces than counting it.

    A count can be at most the pieces on the table, so at most the puzzle's pieces less all
    missing ones (and less than the puzzle's pieces); the finish subtracts only the lone
    missing pieces.
    """
    puzzles, sheets, index = competition
    sheet = sheets[index]
    puzzle = puzzles[len(sheet.finishes)]
    last = max((f.elapsed_seconds for f in sheet.finishes), default=0)
    missing = data.draw(missing_spots(puzzle.pieces))
    on_table = puzzle.pieces - sum(missing)
    countable = 3 <= on_table < puzzle.pieces
    before_count = data.draw(st.sampled_from([None, 0] + ([on_table] if countable else [])))
    before = dataclasses.replace(sheet, counted=before_count)
    after = dataclasses.replace(
        sheet,
        finishes=(
            *sheet.finishes,
            Finish(puzzle.position, data.draw(st.integers(last, last + 9999)), missing),
        ),
        counted=None,
    )
    old = standings(puzzles, [*sheets[:index], before, *sheets[index + 1 :]])
    new = standings(puzzles, [*sheets[:index], after, *sheets[index + 1 :]])
    old_row = next(s for s in old if s.team == sheet.team)
    new_row = next(s for s in new if s.team == sheet.team)
    assert new_row.pieces == old_row.pieces - (before_count or 0) + puzzle.pieces - lone_pieces(
        missing
    )
    assert new_row.pieces >= old_row.pieces
    assert new_row.finished == old_row.finished + 1


@SETTINGS
@given(with_an_unfinished_puzzle(min_pieces=5), st.data())
def test_r9_raising_a_count_never_lowers_pieces_or_rank(competition, data):
    """R9, R11: a higher count gives more pieces and never a worse rank."""
    puzzles, sheets, index = competition
    sheet = sheets[index]
    pieces = puzzles[len(sheet.finishes)].pieces
    low = data.draw(st.one_of(st.none(), st.just(0), st.integers(3, pieces - 2)))
    high = data.draw(st.integers(max(3, (low or 0) + 1), pieces - 1))
    ranks = []
    for counted in (low, high):
        changed = [
            *sheets[:index],
            dataclasses.replace(sheet, counted=counted),
            *sheets[index + 1 :],
        ]
        ranks.append(next(s for s in standings(puzzles, changed) if s.team == sheet.team))
    old, new = ranks
    assert new.pieces - old.pieces == high - (low or 0) > 0
    if sheet.disqualified:
        assert old.rank is None and new.rank is None
    else:
        assert new.rank <= old.rank


@SETTINGS
@given(st.integers(1, 3000), st.integers(-5, 3005))
def test_r9_a_count_is_zero_or_three_up_to_below_the_puzzle(pieces, counted):
    """R9: `check_count` accepts exactly 0 and 3..pieces - 1, and `standings` agrees with it
    (the same code for the same count), whichever puzzle is the unfinished one."""
    valid = counted == 0 or 3 <= counted < pieces
    puzzles = (Puzzle(1, 700), Puzzle(2, pieces))
    sheet = Sheet("t", (Finish(1, 60),), counted=counted)
    if valid:
        assert check_count(pieces, counted) == counted
        assert standings(puzzles, [sheet])[0].pieces == 700 + counted
        return
    with pytest.raises(RuleViolation) as direct:
        check_count(pieces, counted)
    with pytest.raises(RuleViolation) as ranked:
        standings(puzzles, [sheet])
    assert ranked.value.code == direct.value.code
    assert direct.value.code in {
        "count_negative",
        "count_too_small",
        "count_too_large",
        "count_is_finish",
    }


@SETTINGS
@given(competitions(), st.data())
def test_r9_no_count_ranks_above_the_finish_it_counts(competition, data):
    """R9, R11: a team that counts its unfinished puzzle ranks below a team
    with the same finishes that really finished that puzzle, at any later time: whatever count
    the rules accept (a count of every piece or more is refused, never ranked)."""
    puzzles, sheets = competition
    open_ = [s for s in sheets if len(s.finishes) < len(puzzles)]
    assume(open_)
    sheet = data.draw(st.sampled_from(open_))
    puzzle = puzzles[len(sheet.finishes)]
    last = max((f.elapsed_seconds for f in sheet.finishes), default=0)
    counting = dataclasses.replace(sheet, team=("counting",), disqualified=False)
    counted = data.draw(
        st.one_of(counts(puzzle.pieces), st.just(puzzle.pieces), st.integers(0, puzzle.pieces + 9))
    )
    counting = dataclasses.replace(counting, counted=counted)
    finishing = dataclasses.replace(
        counting,
        team=("finishing",),
        finishes=(*sheet.finishes, Finish(puzzle.position, data.draw(st.integers(last, 99_999)))),
        counted=None,
    )
    if counted is not None and (counted >= puzzle.pieces or counted in (1, 2)):
        with pytest.raises(RuleViolation):
            standings(puzzles, [*sheets, counting, finishing])
        return
    rows = {s.team: s for s in standings(puzzles, [*sheets, counting, finishing])}
    assert rows[("finishing",)].rank < rows[("counting",)].rank
