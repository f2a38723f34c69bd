"""Pace, projections and the speaker's feed: pure functions beside the rules (no Django).

Nothing here is a result. A projection ("forventet") is a guess from a team's own pace, shown
on the team page and in the speaker's feed, never in the standings, a CSV or the official
results. The feed's places are the rules' own (`rules.standings`, R11) over the finishes
registered up to each moment.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from puzzle_rules.rules import Finish, Puzzle, Sheet, standings

__all__ = ["FeedItem", "feed", "pieces_per_minute", "projected_finish"]


def pieces_per_minute(puzzles: Sequence[Puzzle], finishes: Sequence[Finish]) -> float | None:
    """The team's pace on its whole puzzles: their pieces over the time until the last one
    (the puzzles are solved one at a time, in order, from the clock's start: R6, R7)."""
    if not finishes:
        return None
    pieces = {p.position: p.pieces for p in puzzles}
    last = max(f.elapsed_seconds for f in finishes)
    if last <= 0:
        return None
    return sum(pieces[f.position] for f in finishes) * 60 / last


def projected_finish(
    puzzles: Sequence[Puzzle], finishes: Sequence[Finish], *, end: int | None = None
) -> int | None:
    """When the team would finish its current puzzle at its pace so far, in elapsed seconds;
    None without a finished puzzle to learn the pace from, when every puzzle is finished,
    or when the projection falls after the clock's `end` (it would not make it)."""
    pace = pieces_per_minute(puzzles, finishes)
    ordered = sorted(puzzles, key=lambda p: p.position)
    if pace is None or len(finishes) >= len(ordered):
        return None
    current = ordered[len(finishes)]
    last = max(f.elapsed_seconds for f in finishes)
    at = last + round(current.pieces * 60 / pace)
    return None if end is not None and at > end else at


@dataclass(frozen=True)
class FeedItem:
    """One finish as the speaker reads it: who, which puzzle, when, and the place it gave."""

    team: object
    position: int
    elapsed_seconds: int
    rank: int | None  # the team's place just after this finish
    change: int | None  # places gained by it (positive), None for a first ranking
    new_leader: bool  # first place now, not before


def feed(
    puzzles: Sequence[Puzzle], sheets: Sequence[Sheet], *, last: int = 30, profile: str = "dm"
) -> list[FeedItem]:
    """The newest `last` finishes, newest first, each with the team's place just before and
    just after it, by the rules over the finishes registered until then (in the order of
    their times; counts come only after the clock and are not part of the feed), ranked by
    the competition's `profile` (dm, wjpc). Disqualified teams are left out."""
    competing = [s for s in sheets if not s.disqualified]
    events = sorted(
        (
            (f.elapsed_seconds, f.position, i, f)
            for i, s in enumerate(competing)
            for f in s.finishes
        ),
        key=lambda e: e[:3],
    )
    first = max(0, len(events) - last)

    def places(upto: int) -> dict[int, int | None]:
        """Each team's rank over the first `upto` events (index of the team's sheet)."""
        kept: dict[int, list[Finish]] = {}
        for _t, _p, i, f in events[:upto]:
            kept.setdefault(i, []).append(f)
        cut = [
            replace(s, team=i, counted=None, finishes=tuple(kept.get(i, ())))
            for i, s in enumerate(competing)
        ]
        ranked = standings(puzzles, cut, profile=profile)
        return {st.team: st.rank for st in ranked}  # type: ignore[misc]

    items = []
    before = places(first)
    finished_before = {i for _t, _p, i, _f in events[:first]}
    for n in range(first, len(events)):
        seconds, position, i, _f = events[n]
        after = places(n + 1)
        had = before.get(i) if i in finished_before else None
        rank = after.get(i)
        items.append(
            FeedItem(
                team=competing[i].team,
                position=position,
                elapsed_seconds=seconds,
                rank=rank,
                change=None if had is None or rank is None else had - rank,
                new_leader=rank == 1 and had != 1,
            )
        )
        before = after
        finished_before.add(i)
    return items[::-1]
