"""The pure scoring rules (R7, R8, R9, R11): plain data in, plain data out.

This module imports neither Django nor the project's models, so the rules can be tested
and reasoned about on their own (a test checks that importing it loads no Django). It is the
one entry to the rules (DESIGN.md fixes its names; `scoring/rules.py` is the same module under
its old address); they are written in `records.py` (the data and `RuleViolation`),
`checks.py` (one record at a time), `ranking.py` (`standings`, R11) and `tie_break.py` (why
two teams with the same pieces are placed as they are).

`standings(puzzles, sheets, profile="dm")` checks everything the judges recorded and ranks
the teams by the ranking profile, one of `PROFILES`: "dm" (the Danish rules, R11 below, the
default) or "wjpc" (the World championship's, below). Whatever breaks a rule raises
`RuleViolation`; its `.code` is one of:

=========================  ======  ==========================================================
code                       rule    when
=========================  ======  ==========================================================
``profile``                --      a ranking profile that is not one of ``PROFILES``
``puzzle_sequence``        R7      the puzzles' positions are not exactly 1..N
``puzzle_not_positive``    --      a puzzle with 0 pieces or fewer
``duplicate_team``         --      two sheets for the same team
``unknown_position``       R7      a finish for a position that is not in the sequence
``already_finished``       R7      two finishes for the same position
``out_of_order``           R7      the finishes are not exactly positions 1..k (a gap)
``negative_time``          R5      a finish with ``elapsed_seconds`` below 0
``time_order``             R7      a finish earlier than the finish of the puzzle before it
``missing_not_positive``   R8      a missing spot of size 0 or less
``missing_too_many``       R8      missing spots adding up to more than the puzzle's pieces
``count_negative``         R9      a count below 0 (or unplaced or loose pieces below 0)
``count_too_small``        R9      a count of 1 or 2 (only groups of at least 3 count)
``count_is_finish``        R9      a count of every piece of the unfinished puzzle: that is
                                   a finish, which the judge registers as one
``count_too_large``        R9      a count above the unfinished puzzle's pieces
``all_finished``           R9      a count (even 0) for a team that finished every puzzle
``unplaced_too_many``      R9      unplaced and loose pieces adding up to more than the puzzle
``after_end``              R10     a finish time after the clock's end
``in_future``              R10     a finish time later than the clock's now
=========================  ======  ==========================================================

The ``check_*`` functions are the same rules one record at a time, for the services that
write a finish or a count (they map each code to a sentence and an HTTP answer).

`check_count(pieces_of_puzzle, counted)` is the count rule on its own (R9), for the services
that record or correct a count; `standings` applies the very same check.

The codes that also exist in the HTTP API (``out_of_order``, ``already_finished``,
``time_order``, ``all_finished``) mean the same there.

Finishes may come in any order; they are sorted by position before they are checked.
The puzzles are checked first, then the sheets one by one, each sheet's finishes in
position order and its count last; the first broken rule raises.

Ranking (R11): more pieces first; on equal pieces the smaller ``last_finish_seconds``
first, a team with no finish after every team with one; still equal means the same rank,
and the next rank skips (1, 2, 2, 4). Disqualified teams have rank None and come after all
ranked teams, ordered among themselves the same way.

Ranking under "wjpc": a team that finished every puzzle ranks by its last finish plus
``PENALTY_SECONDS_PER_PIECE`` (10) per lone missing piece (R8's lone pieces; a spot of 2 or
more is a manufacturing defect, no penalty): ``Standing.penalty_seconds`` and
``Standing.ranking_seconds``; equal times share the rank. Every such team ranks before every
team that did not finish every puzzle; those rank by pieces alone (R8, R9, as under "dm"),
equal pieces sharing the rank whatever their times. Disqualified teams as under "dm".
Under "dm" ``penalty_seconds`` is 0 and ``ranking_seconds`` None.

The output order never depends on the order of the input. Teams that are exactly tied
(same rank) are listed by their id: numbers in numeric order, then strings in string
order, then any other id by ``(type name, repr)``. Team ids must be hashable.
"""

from puzzle_rules.checks import (
    check_clock_time,
    check_count,
    check_count_size,
    check_finish_time,
    check_missing,
    check_next_position,
    check_second_count,
    deducted,
    placed_from_unplaced,
)
from puzzle_rules.checks import check_new_position as check_new_position
from puzzle_rules.checks import check_puzzle_sequence as check_puzzle_sequence
from puzzle_rules.checks import check_ranking_change as check_ranking_change
from puzzle_rules.ranking import next_place as next_place
from puzzle_rules.ranking import standings
from puzzle_rules.records import (
    PENALTY_SECONDS_PER_PIECE,
    PROFILES,
    Finish,
    Puzzle,
    RuleViolation,
    Sheet,
    Standing,
    check_profile,
)
from puzzle_rules.tie_break import tie_break, tie_break_reason

# The names DESIGN.md fixes, one import away. `check_new_position`, `check_puzzle_sequence`
# and `next_place` are here too (imported `as` themselves), outside `__all__` as they always were.
__all__ = [
    "PENALTY_SECONDS_PER_PIECE",
    "PROFILES",
    "Finish",
    "Puzzle",
    "RuleViolation",
    "Sheet",
    "Standing",
    "check_clock_time",
    "check_count",
    "check_count_size",
    "check_finish_time",
    "check_missing",
    "check_next_position",
    "check_profile",
    "check_second_count",
    "placed_from_unplaced",
    "deducted",
    "standings",
    "tie_break",
    "tie_break_reason",
]
