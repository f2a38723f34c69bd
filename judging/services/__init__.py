"""Writes for judging: the one place for its rules.

Import from here: `from judging.services import finish_register, objection_resolve`.
Each concept has its module: request ids (`requests`), finishes, counts, discipline
(warnings, disqualification), objections (and finalising), tablets.
"""

from judging.services.counts import (
    check_count,
    confirmation_state,
    count_correct,
    count_record,
    count_sentence,
)
from judging.services.discipline import team_disqualify, team_reinstate, warning_log
from judging.services.finishes import finish_correct, finish_delete, finish_register, plausibility
from judging.services.objections import (
    competition_finalise,
    objection_file,
    objection_resolve,
    tablet_dict,
)
from judging.services.requests import IdempotencyConflict, request_cancel
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
