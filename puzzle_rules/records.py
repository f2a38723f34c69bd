"""The rules' plain data (rules.py is the entry): a puzzle of the sequence, a finish, a team's
sheet, a team's standing, and `RuleViolation`, which every broken rule raises."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Finish", "Puzzle", "RuleViolation", "Sheet", "Standing"]


@dataclass(frozen=True)
class Puzzle:
    position: int  # 1-based place in the sequence
    pieces: int  # > 0


@dataclass(frozen=True)
class Finish:
    """A whole puzzle, registered by a judge (R5, R8)."""

    position: int
    elapsed_seconds: int  # whole seconds since the clock started
    missing: tuple[int, ...] = ()  # one entry per spot with missing pieces: its size


@dataclass(frozen=True)
class Sheet:
    """Everything the judges recorded for one team."""

    team: object  # the team's id; opaque to the rules
    finishes: tuple[Finish, ...] = ()
    counted: int | None = None  # R9: pieces in groups of >= 3 on the unfinished puzzle
    disqualified: bool = False


@dataclass(frozen=True)
class Standing:
    rank: int | None  # None when disqualified
    team: object
    pieces: int
    finished: int  # whole puzzles finished
    last_finish_seconds: int | None
    disqualified: bool


class RuleViolation(ValueError):
    """A record that breaks a rule; `.code` is a short machine-readable string."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return self.message
