"""The stable address of the championship's pure rules (advancing, a label's ranking) for outside
programs (DESIGN.md, the pure scoring module): they live in `puzzle_rules/championship.py`, the
pure core below every app (docs/architecture.md "Floors"), where the project imports them from.
Nothing is defined here."""

from puzzle_rules.championship import *  # noqa: F403
from puzzle_rules.championship import __all__ as __all__
