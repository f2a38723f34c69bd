"""The stable address of the formatting of times for outside programs (DESIGN.md, the pure
scoring module): it lives in `puzzle_rules/formatting.py`, the pure core below every app
(docs/architecture.md "Floors"), where the project imports it from. Nothing is defined here."""

from puzzle_rules.formatting import *  # noqa: F403
from puzzle_rules.formatting import __all__ as __all__
