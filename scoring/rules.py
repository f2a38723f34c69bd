"""The stable address of the pure rules (R7-R11) for outside programs and for DESIGN.md, which
names `scoring/rules.py` and its names: they live in `puzzle_rules/rules.py`, the pure core
below every app (docs/architecture.md "Floors"), where the project imports them from. Nothing
is defined here; every name of `puzzle_rules.rules` is the same object here."""

from puzzle_rules.rules import *  # noqa: F403
from puzzle_rules.rules import __all__ as __all__
from puzzle_rules.rules import check_new_position as check_new_position
from puzzle_rules.rules import check_puzzle_sequence as check_puzzle_sequence
from puzzle_rules.rules import check_ranking_change as check_ranking_change
from puzzle_rules.rules import next_place as next_place
