"""The ranking (R7, R8, R9, R11; rules.py is the entry and says the codes and the order):
`standings(puzzles, sheets, profile)` checks every sheet and ranks the teams, under the
Danish rules ("dm", the default) or the World championship's ("wjpc"); `next_place` steps the
prize-giving reveal up through the ranks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from puzzle_rules.checks import check_count, deducted
from puzzle_rules.formatting import format_hms
from puzzle_rules.records import (
    PENALTY_SECONDS_PER_PIECE,
    Puzzle,
    RuleViolation,
    Sheet,
    Standing,
    check_profile,
)

__all__ = ["next_place", "standings"]


def standings(
    puzzles: Sequence[Puzzle], sheets: Sequence[Sheet], profile: str = "dm"
) -> list[Standing]:
    """R7, R8, R9, R11: check every sheet and rank the teams, by the ranking `profile`.

    "dm" (R11): more pieces first, then the earlier last whole puzzle. "wjpc": a team that
    finished every puzzle ranks by its last finish plus 10 s a lone missing piece
    (`penalty_seconds`; the pieces are R8's either way), before every team that did not,
    which rank by their pieces alone, equal pieces sharing the place. Another profile
    raises RuleViolation("profile"), before any sheet is read.

    Built for speed (10,000 teams in a few tens of milliseconds): one pass scores the
    sheets with the puzzles' pieces in a list indexed by position; a sheet that is not
    plainly valid (finishes not listed as 1..k, a time going back, odd missing spots or
    count) goes to `_score`, which names the first broken rule. The ranked and the
    disqualified teams are each sorted once on a precomputed flat key, and each `Standing`
    is built once, with its rank.
    """
    wjpc = check_profile(profile) == "wjpc"
    by_position = _check_puzzles(puzzles)
    pieces_of = [0] * (len(puzzles) + 1)  # pieces_of[position]; index 0 unused
    for position in range(1, len(pieces_of)):
        pieces_of[position] = by_position[position].pieces
    size = len(pieces_of)
    every = len(puzzles) or -1  # finished == every: a finisher under wjpc (none without puzzles)
    seen: set[object] = set()
    rows: list[tuple[object, int, int, int | None, bool, int]] = []
    ranked: list[tuple[Any, ...]] = []
    out_of_it: list[tuple[Any, ...]] = []
    for sheet in sheets:
        team = sheet.team
        if team in seen:
            raise RuleViolation("duplicate_team", f"Team {team!r} has more than one sheet.")
        seen.add(team)
        pieces = last = finished = lone = 0
        valid = False  # True only when every rule surely holds; else _score decides
        try:
            for finish in sheet.finishes:
                finished += 1
                seconds = finish.elapsed_seconds
                if finish.position != finished or finished >= size or not seconds >= last:
                    break
                last = seconds
                missing = finish.missing
                if missing:
                    whole = pieces_of[finished]
                    if not (min(missing) > 0 and sum(missing) <= whole):
                        break
                    alone = missing.count(1)  # R8: lone pieces only
                    lone += alone
                    pieces += whole - alone
                else:
                    pieces += pieces_of[finished]
            else:
                counted = sheet.counted
                if counted is None:
                    valid = True
                elif finished + 1 < size and (
                    counted == 0 or 3 <= counted < pieces_of[finished + 1]
                ):
                    pieces += counted
                    valid = True
        except TypeError:
            valid = False
        last_finish: int | None
        if valid:
            last_finish = last if finished else None
        else:
            pieces, finished, last_finish, lone = _score(by_position, sheet)
        disqualified = sheet.disqualified
        index = len(rows)
        keys = out_of_it if disqualified else ranked
        if wjpc:
            # wjpc: finishers first, by time plus penalty; then the rest by pieces alone.
            if finished == every:
                assert last_finish is not None
                penalty = PENALTY_SECONDS_PER_PIECE * lone
                head: tuple[int, int] = (0, last_finish + penalty)
            else:
                penalty = 0
                head = (1, -pieces)
            rows.append((team, pieces, finished, last_finish, disqualified, penalty))
            if type(team) is int:
                keys.append((*head, 0, team, "", index))
            else:
                keys.append((*head, *_team_key(team), index))
            continue
        rows.append((team, pieces, finished, last_finish, disqualified, 0))
        # The sort key: R11 (more pieces; then the earlier last finish, no finish last),
        # then _team_key (spelt out for an int id, the usual case), then the input order.
        if type(team) is int:
            if last_finish is None:
                keys.append((-pieces, 1, 0, 0, team, "", index))
            else:
                keys.append((-pieces, 0, last_finish, 0, team, "", index))
        elif last_finish is None:
            keys.append((-pieces, 1, 0, *_team_key(team), index))
        else:
            keys.append((-pieces, 0, last_finish, *_team_key(team), index))
    ranked.sort()
    out_of_it.sort()

    # Each Standing gets its fields set directly, as the frozen dataclass's __init__ would
    # (it calls object.__setattr__ once per field): half the cost, the same objects.
    # The ranking part of a key: dm (-pieces, no finish, last finish); wjpc (not a
    # finisher, time plus penalty or -pieces). Equal parts share a rank (1, 2, 2, 4).
    width = 2 if wjpc else 3
    new = object.__new__
    out: list[Standing] = []
    rank: int | None = 0
    previous = None
    for key in ranked + out_of_it:
        team, pieces, finished, last, disqualified, penalty = rows[key[-1]]
        if disqualified:
            rank = None
        elif key[:width] != previous:
            rank = len(out) + 1
            previous = key[:width]
        standing = new(Standing)
        standing.__dict__.update(
            rank=rank,
            team=team,
            pieces=pieces,
            finished=finished,
            last_finish_seconds=last,
            disqualified=disqualified,
            penalty_seconds=penalty,
            ranking_seconds=key[1] if wjpc and key[0] == 0 else None,
        )
        out.append(standing)
    return out


def next_place(places: Sequence[int], at: int) -> int:
    """The prize-giving reveal goes up through the places that exist: after place `at`, the
    nearest rank above it among `places` (the ranks of the standings; shared ranks skip, so
    ranks 1, 1, 3 go 3, then 1). 1 when there is none."""
    higher = [place for place in places if place is not None and place < at]
    return max(higher, default=1)


def _check_puzzles(puzzles: Sequence[Puzzle]) -> dict[int, Puzzle]:
    by_position = {p.position: p for p in puzzles}
    if len(by_position) != len(puzzles) or set(by_position) != set(range(1, len(puzzles) + 1)):
        positions = sorted(p.position for p in puzzles)
        raise RuleViolation(
            "puzzle_sequence",
            f"The puzzles must be positions 1..{len(puzzles)}, not {positions}.",
        )
    for p in puzzles:
        if p.pieces <= 0:
            raise RuleViolation(
                "puzzle_not_positive",
                f"Puzzle {p.position} must have at least 1 piece, not {p.pieces}.",
            )
    return by_position


def _score(by_position: dict[int, Puzzle], sheet: Sheet) -> tuple[int, int, int | None, int]:
    """One sheet rule by rule (the first broken rule raises): its pieces, whole puzzles
    finished, last finish time (None without one) and lone missing pieces (R8)."""
    team = sheet.team
    lone = 0
    finishes = sorted(sheet.finishes, key=lambda f: f.position)
    pieces = 0
    previous_seconds = 0
    for expected, finish in enumerate(finishes, start=1):
        puzzle = by_position.get(finish.position)
        if puzzle is None:
            raise RuleViolation(
                "unknown_position",
                f"Team {team!r}: there is no puzzle {finish.position} in the sequence.",
            )
        if finish.position < expected:
            raise RuleViolation(
                "already_finished",
                f"Team {team!r} has more than one finish for puzzle {finish.position}.",
            )
        if finish.position > expected:
            raise RuleViolation(
                "out_of_order",
                f"Team {team!r} has a finish for puzzle {finish.position} "
                f"but none for puzzle {expected} (R7: no skipping).",
            )
        if finish.elapsed_seconds < 0:
            raise RuleViolation(
                "negative_time",
                f"Team {team!r}: the finish of puzzle {finish.position} has a negative time.",
            )
        if finish.elapsed_seconds < previous_seconds:
            raise RuleViolation(
                "time_order",
                f"Team {team!r} finished puzzle {finish.position} at "
                f"{format_hms(finish.elapsed_seconds)}, before puzzle {finish.position - 1} "
                f"at {format_hms(previous_seconds)}.",
            )
        previous_seconds = finish.elapsed_seconds
        lost = deducted(finish.missing)
        if sum(finish.missing) > puzzle.pieces:
            raise RuleViolation(
                "missing_too_many",
                f"Team {team!r}: puzzle {puzzle.position} has {puzzle.pieces} pieces, "
                f"fewer than the {sum(finish.missing)} noted as missing.",
            )
        pieces += puzzle.pieces - lost
        lone += lost

    finished = len(finishes)
    if sheet.counted is not None:
        unfinished = by_position.get(finished + 1)
        if unfinished is None:
            raise RuleViolation(
                "all_finished",
                f"Team {team!r} finished every puzzle; there is nothing to count.",
            )
        try:
            pieces += check_count(unfinished.pieces, sheet.counted)
        except RuleViolation as exc:
            raise RuleViolation(
                exc.code, f"Team {team!r}, puzzle {unfinished.position}: {exc.message}"
            ) from None

    last = finishes[-1].elapsed_seconds if finishes else None
    return pieces, finished, last, lone


def _team_key(team: object) -> tuple[int, object, str]:
    if isinstance(team, int | float) and not isinstance(team, bool):
        return (0, team, "")
    if isinstance(team, str):
        return (1, 0, team)
    return (2, 0, f"{type(team).__qualname__}:{team!r}")
