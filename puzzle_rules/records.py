"""The rules' plain data (rules.py is the entry): a puzzle of the sequence, a finish, a team's
sheet, a team's standing, and `RuleViolation`, which every broken rule raises."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "PENALTY_SECONDS_PER_PIECE",
    "PROFILES",
    "Finish",
    "Puzzle",
    "RuleViolation",
    "Sheet",
    "Standing",
    "check_profile",
]

# The ranking profiles: "dm" the Danish federation's (R8: a lone missing piece is deducted
# from the pieces; R11: most pieces, then the earlier last whole puzzle), "wjpc" the World
# Jigsaw Puzzle Championship's (and the UKJPA's): a team that finished every puzzle ranks by
# its time plus PENALTY_SECONDS_PER_PIECE a lone missing piece, before every team that did
# not, which rank by their pieces, equal pieces sharing the place (docs/rules.md).
PROFILES = ("dm", "wjpc")
PENALTY_SECONDS_PER_PIECE = 10


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
    # Ranking profile "wjpc" only (0 and None under "dm", the default): the seconds added to
    # a team that finished every puzzle, 10 a lone missing piece (PENALTY_SECONDS_PER_PIECE),
    # and the time it ranks by (last_finish_seconds + penalty_seconds); None for a team
    # that did not finish every puzzle, which ranks by its pieces.
    penalty_seconds: int = 0
    ranking_seconds: int | None = None


class RuleViolation(ValueError):
    """A record that breaks a rule; `.code` is a short machine-readable string."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return self.message


def check_profile(profile: object) -> str:
    """The ranking profile, one of PROFILES; anything else raises RuleViolation("profile")."""
    if isinstance(profile, str) and profile in PROFILES:
        return profile
    raise RuleViolation(
        "profile",
        f"The ranking must be one of {', '.join(PROFILES)}, not {profile!r}.",
    )
