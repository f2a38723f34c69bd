"""The stable address of pace, projections and the speaker's feed for outside programs (DESIGN.md,
the pure scoring module): they live in `puzzle_rules/pace.py`, the pure core below every app
(docs/architecture.md "Floors"), where the project imports them from. Nothing is defined here."""

from puzzle_rules.pace import *  # noqa: F403
from puzzle_rules.pace import __all__ as __all__
