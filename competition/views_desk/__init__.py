"""The desk (R2, R3, R15, R17, P1, P2) and the competition setup pages.

Every write goes through competition.services and every shared read through
competition.selectors; the views only read input, build the context and show answers.
One module per page group: teams, spreadsheets (import and export), cards, setup.
"""

from competition.views_desk.cards import cards
from competition.views_desk.placement import championship_new, delete
from competition.views_desk.setup import competition_new, setup
from competition.views_desk.spreadsheets import export, import_example, import_teams
from competition.views_desk.teams import (
    check_in,
    check_in_undo,
    fee,
    missing,
    refunds,
    team_edit,
    team_new,
    teams,
    withdraw,
    withdraw_undo,
)

__all__ = [
    "cards",
    "championship_new",
    "check_in",
    "check_in_undo",
    "competition_new",
    "delete",
    "export",
    "fee",
    "import_example",
    "import_teams",
    "missing",
    "refunds",
    "setup",
    "team_edit",
    "team_new",
    "teams",
    "withdraw",
    "withdraw_undo",
]
