"""Writes for judging: the one place for its rules.

Import from here: `from judging.services import finish_register, objection_resolve`.
Each concept has its module, in floors that import only the floors below (no cycle; the
import-linter contract in pyproject.toml): request ids (`requests`) and the small helpers
(`_shared`) at the bottom; counts, discipline (warnings, disqualification) and tablets;
finishes and the second count; objections; the tablet's undo (`cancel`) and finalising
(`finalise`) on top.
"""

from judging.selectors import tablet_dict
from judging.services.cancel import request_cancel
from judging.services.counts import (
    check_count,
    confirmation_state,
    count_correct,
    count_record,
    count_sentence,
)
from judging.services.discipline import team_disqualify, team_reinstate, warning_log
from judging.services.finalise import competition_finalise
from judging.services.finishes import finish_correct, finish_delete, finish_register, plausibility
from judging.services.objections import objection_file, objection_resolve
from judging.services.requests import IdempotencyConflict
from judging.services.second_count import count_confirm
from judging.services.tablets import tablet_report

__all__ = [
    "IdempotencyConflict",
    "check_count",
    "competition_finalise",
    "confirmation_state",
    "count_confirm",
    "count_correct",
    "count_record",
    "count_sentence",
    "finish_correct",
    "finish_delete",
    "finish_register",
    "objection_file",
    "objection_resolve",
    "plausibility",
    "request_cancel",
    "tablet_dict",
    "tablet_report",
    "team_disqualify",
    "team_reinstate",
    "warning_log",
]
