"""The stable address of the table plan's pure comparison for outside programs: it lives in
`puzzle_rules/table_plan.py`, the pure core below every app (docs/architecture.md "Floors"),
where the project imports it from. Nothing is defined here."""

from puzzle_rules.table_plan import *  # noqa: F403
from puzzle_rules.table_plan import __all__ as __all__
