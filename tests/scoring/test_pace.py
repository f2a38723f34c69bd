"""Pace, projections and the speaker's feed (puzzle_rules/pace.py): pure, never a result."""

from hypothesis import given, settings
from hypothesis import strategies as st

from puzzle_rules.pace import feed, pieces_per_minute, projected_finish
from puzzle_rules.rules import Finish, Puzzle, Sheet, standings

PUZZLES = (Puzzle(1, 500), Puzzle(2, 1000), Puzzle(3, 1000))


def test_the_pace_is_the_whole_puzzles_pieces_over_the_time_until_the_last():
    assert pieces_per_minute(PUZZLES, ()) is None
    assert pieces_per_minute(PUZZLES, (Finish(1, 1500),)) == 20.0  # 500 in 25 minutes
    assert pieces_per_minute(PUZZLES, (Finish(1, 1500), Finish(2, 4500))) == 20.0


def test_the_projection_uses_the_teams_own_pace_on_its_current_puzzle():
    # 500 pieces in 25 minutes: 1000 more take 50 minutes -> 1:15:00.
    assert projected_finish(PUZZLES, (Finish(1, 1500),)) == 4500
    assert projected_finish(PUZZLES, ()) is None  # nothing to learn the pace from
    done = (Finish(1, 1500), Finish(2, 4500), Finish(3, 7500))
    assert projected_finish(PUZZLES, done) is None  # every puzzle finished


def test_a_projection_after_the_clocks_end_is_no_projection():
    assert projected_finish(PUZZLES, (Finish(1, 1500),), end=4499) is None
    assert projected_finish(PUZZLES, (Finish(1, 1500),), end=4500) == 4500


def sheet(team, *times):
    return Sheet(team=team, finishes=tuple(Finish(i, t) for i, t in enumerate(times, 1)))


def test_the_feed_reads_newest_first_with_the_place_each_finish_gave():
    sheets = [sheet("A", 1500, 4000), sheet("B", 1400), sheet("C")]
    items = feed(PUZZLES, sheets)
    assert [(i.team, i.position, i.elapsed_seconds) for i in items] == [
        ("A", 2, 4000),
        ("A", 1, 1500),
        ("B", 1, 1400),
    ]
    a2, a1, b1 = items
    assert (b1.rank, b1.change, b1.new_leader) == (1, None, True)  # the first finish leads
    assert (a1.rank, a1.change, a1.new_leader) == (2, None, False)  # B was faster
    assert (a2.rank, a2.change, a2.new_leader) == (1, 1, True)  # up one place, a new leader


def test_the_feed_leaves_out_disqualified_teams_and_keeps_the_last_n():
    dq = Sheet(team="X", finishes=(Finish(1, 100),), disqualified=True)
    items = feed(PUZZLES, [sheet("A", 1500, 4000), dq], last=1)
    assert [(i.team, i.position) for i in items] == [("A", 2)]
    assert items[0].change == 0 and not items[0].new_leader  # A led already


times = st.lists(st.integers(min_value=1, max_value=10_000), min_size=0, max_size=3)


@settings(max_examples=100, deadline=None)
@given(st.lists(times, min_size=1, max_size=6))
def test_the_newest_item_of_a_team_has_the_rank_the_rules_give_now(raw):
    sheets = [sheet(i, *sorted(ts)) for i, ts in enumerate(raw)]
    items = feed(PUZZLES, sheets, last=1000)
    assert len(items) == sum(len(ts) for ts in raw)
    now = {s.team: s.rank for s in standings(PUZZLES, sheets)}
    newest = items[0] if items else None
    if newest is not None:
        assert newest.rank == now[newest.team]
    for item in items:  # a place is never a result: it only reads the rules' own ranks
        assert item.rank is None or item.rank >= 1
