"""Writes for competitions, puzzles, teams, staff and the clock: the one place for their rules.

Import from here: `from competition.services import clock_start, team_create`. One module
per concept: setup (competition, puzzle sequence), teams, clock, screen, privacy, staff.
"""

from competition.services.championships import championship_create
from competition.services.clock import (
    STOP_UNDO_WINDOW,
    clock_correct,
    clock_start,
    clock_stop,
    clock_stop_undo,
    stop_undo_until,
)
from competition.services.placement import (
    KEEP,
    championship_delete,
    competition_delete,
    competition_placement_set,
)
from competition.services.privacy import competition_erase_personal_data
from competition.services.ranking import competition_ranking_set
from competition.services.screen import reveal_next, reveal_start, screen_hold, screen_set
from competition.services.setup import (
    competition_create,
    competition_update,
    puzzle_add,
    puzzle_delete,
    puzzle_sequence_set,
    puzzle_update,
)
from competition.services.staff import (
    judge_login_create,
    judge_password_new,
    password_generate,
    staff_revoke,
    staff_token_issue,
    staff_upsert,
)
from competition.services.teams import (
    labels_clean,
    members_clean,
    next_free_table,
    team_check_in,
    team_check_in_undo,
    team_create,
    team_fee_set,
    team_labels_set,
    team_update,
)
from competition.services.withdrawal import team_withdraw, team_withdraw_undo

__all__ = [
    # championships
    "KEEP",
    "championship_create",
    "championship_delete",
    "competition_delete",
    "competition_placement_set",
    # clock
    "STOP_UNDO_WINDOW",
    "clock_correct",
    "clock_start",
    "clock_stop",
    "clock_stop_undo",
    "stop_undo_until",
    # privacy
    "competition_erase_personal_data",
    # screen
    "reveal_next",
    "reveal_start",
    "screen_hold",
    "screen_set",
    # setup
    "competition_create",
    "competition_ranking_set",
    "competition_update",
    "puzzle_add",
    "puzzle_delete",
    "puzzle_sequence_set",
    "puzzle_update",
    # staff
    "judge_login_create",
    "judge_password_new",
    "password_generate",
    "staff_revoke",
    "staff_token_issue",
    "staff_upsert",
    # teams
    "labels_clean",
    "team_labels_set",
    "members_clean",
    "next_free_table",
    "team_check_in",
    "team_check_in_undo",
    "team_create",
    "team_fee_set",
    "team_update",
    "team_withdraw",
    "team_withdraw_undo",
]
