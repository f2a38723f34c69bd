"""Counts (R9, R10): record and correct a count after time is up.

A finish of the counted puzzle (or the undo of the finish before it) makes the count void.
The second, blind count is `judging.services.second_count`; finalise is refused while a
count waits for it (`counts_unconfirmed`).
"""

from collections.abc import Callable
from uuid import UUID

from django.core.exceptions import ValidationError
from django.db import IntegrityError
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from competition.audit import user_or_none
from competition.audit_actions import COUNT_CORRECT, COUNT_DELETE, COUNT_RECORD
from competition.errors import Refusal, Vanished
from competition.models import Puzzle, Team
from competition.roles import ADMIN, has_role
from competition.writes import Write, write
from judging.models import Count, Finish, RequestId
from judging.services import requests as request_ids
from judging.services._shared import (
    ensure_competing,
    ensure_may_change,
    require_reason,
    when,
    who,
)
from puzzle_rules import rules

__all__ = [
    "check_count",
    "confirmation_state",
    "count_correct",
    "count_record",
    "count_sentence",
    "placed_pieces",
    "void_count",
]


def _count_dict(count: Count) -> dict:
    return {
        "id": count.pk,
        "team": count.team_id,
        "puzzle": count.puzzle.position,
        "pieces": count.pieces,
        "unplaced": count.unplaced,
        "loose": count.loose,
    }


def void_count(w: Write, reason: str) -> None:
    """A finish of the counted puzzle (or an undo before it) makes the count void (R9),
    inside the write `w` of the finish (its team's). A count a resolved objection decided
    is voided only by the head judge (else 409 `decided`, and the write writes nothing)."""
    count = Count.objects.select_related("puzzle").filter(team=w.team).first()
    if count is None:
        return
    decided = ensure_may_change(by=w.by, reason=reason, count=count)
    before = _count_dict(count)
    count.delete()
    request_ids.record_gone(count, RequestId.Outcome.VOIDED)
    w.audit(COUNT_DELETE, before=before, reason=reason, objection=decided)


# R9's refusals (`rules.check_count`), one sentence each, the same from every path: the
# judge's count (placed or unplaced), its correction, an upheld objection, the control room.
_COUNT_SENTENCES = {
    "count_negative": gettext_lazy("Pieces cannot be negative."),
    "count_too_small": gettext_lazy(
        "Only groups of at least 3 joined pieces count (rule 9): 0 or at least 3."
    ),
    "count_too_large": gettext_lazy("The puzzle has only %(pieces)s pieces."),
    "count_is_finish": gettext_lazy(
        "All %(pieces)s pieces placed is not a count: the puzzle is finished. If it was "
        "finished before time was up, register it as finished with its time (rule 9)."
    ),
}


def count_sentence(code: str, puzzle_pieces: int = 0) -> str:
    """The sentence for a person of R9's refusal `code` (see `rules.check_count`)."""
    grouped = formats.number_format(puzzle_pieces, force_grouping=True)
    return str(_COUNT_SENTENCES[code]) % {"pieces": grouped}


def check_count(puzzle: Puzzle, pieces: int) -> int:
    """R9 (`rules.check_count`): the count of `puzzle`, or a ValidationError on `pieces`."""
    try:
        return rules.check_count(puzzle.pieces, pieces)
    except rules.RuleViolation as exc:
        raise ValidationError({"pieces": count_sentence(exc.code, puzzle.pieces)}) from None


def check_count_form(pieces, unplaced, *, recording: bool = True) -> None:
    """Either form of a count, and R9's 0 or at least 3 (`rules.check_count_size`): what
    could never be right answers 400 before the state is looked at (docs/contracts.md)."""
    if (pieces is not None and unplaced is not None) or (
        recording and pieces is None and unplaced is None
    ):
        raise ValidationError(
            {"pieces": _("Give either the placed pieces or the unplaced (and loose) pieces.")}
        )
    if pieces is not None:
        try:
            rules.check_count_size(pieces)
        except rules.RuleViolation as exc:
            raise ValidationError({"pieces": count_sentence(exc.code)}) from None


def placed_pieces(puzzle: Puzzle, pieces, unplaced, loose) -> tuple[int, int | None, int | None]:
    """(placed, unplaced, loose) from either form of the count (the placed pieces, or the
    unplaced and loose ones), R9 checked; ValidationError if wrong. The first count, its
    correction and the second count all read a count through here."""
    check_count_form(pieces, unplaced)
    if pieces is None:
        loose = loose or 0
        try:
            pieces = rules.placed_from_unplaced(puzzle.pieces, unplaced, loose)
        except rules.RuleViolation as exc:
            if exc.code == "count_negative":
                raise ValidationError({"unplaced": _("Pieces cannot be negative.")}) from None
            raise ValidationError(
                {
                    "unplaced": _(
                        "Unplaced and loose pieces add up to more than the puzzle's %(pieces)s."
                    )
                    % {"pieces": puzzle.pieces}
                }
            ) from None
    else:
        unplaced = loose = None
    return check_count(puzzle, pieces), unplaced, loose


def count_record(
    *,
    team: Team,
    by,
    pieces: int | None = None,
    unplaced: int | None = None,
    loose: int = 0,
    request_id: UUID | None = None,
    answer: Callable[[Count], dict] | None = None,
) -> Count:
    """R9, R10: after the clock ended, the placed pieces of the team's unfinished puzzle."""
    check_count_form(pieces, unplaced)
    fingerprint = request_ids.fingerprint(
        team=team.pk, pieces=pieces, unplaced=unplaced, loose=loose
    )
    answer = answer or _count_dict
    once = request_ids.recaller(
        Count, request_id=request_id, fingerprint=fingerprint, answer=answer
    )
    with write(team=team, by=by, recall=once) as w:
        if w.stored is not None:
            return w.stored
        team, competition = w.team, w.competition
        if competition.started_at is None:
            raise Refusal("clock_not_started", _("The clock has not been started yet."))
        if not competition.has_ended():
            raise Refusal("clock_running", _("Counts are entered when time is up."))
        ensure_competing(team)
        done = Finish.objects.filter(team=team).count()
        puzzle = Puzzle.objects.filter(competition=competition, position=done + 1).first()
        if puzzle is None:
            raise Refusal(
                "all_finished",
                _("%(team)s finished every puzzle; nothing to count.") % {"team": team.name},
            )
        existing = Count.objects.select_related("registered_by").filter(team=team).first()
        if existing is not None:
            raise Refusal(
                "already_counted",
                _("%(team)s has already been counted. Registered by %(user)s at %(time)s.")
                % {
                    "team": team.name,
                    "user": who(existing.registered_by),
                    "time": when(existing.registered_at),
                },
                count=existing.pk,
            )
        pieces, unplaced, loose = placed_pieces(puzzle, pieces, unplaced, loose)
        try:
            count = once.create(
                team=team,
                by=by,
                puzzle=puzzle,
                pieces=pieces,
                unplaced=unplaced,
                loose=loose,
                registered_by=user_or_none(by),
            )
        except IntegrityError:
            raise Refusal(
                "already_counted", _("%(team)s has already been counted.") % {"team": team.name}
            ) from None
        if count.replayed:
            return count
        w.audit(COUNT_RECORD, after=_count_dict(count))
        return count


def _ensure_judge_may_correct(count: Count, team: Team, by) -> None:
    """docs/contracts.md `count_not_yours`: before a blind second count confirms it, only the judge
    who counted corrects a count (the second judge would otherwise count, correct and
    confirm alone); once the counts differed, the head judge settles it."""
    if count.second_pieces is not None:
        raise Refusal(
            "count_not_yours",
            _(
                "The two counts of %(team)s differ (%(first)s and %(second)s pieces): the head "
                "judge settles it by correcting the count."
            )
            % {"team": team.name, "first": count.pieces, "second": count.second_pieces},
        )
    if count.registered_by_id is None or count.registered_by_id != getattr(by, "pk", None):
        raise Refusal(
            "count_not_yours",
            _(
                "%(team)s was counted by %(user)s at %(time)s: only that judge or the head judge "
                "corrects the count before a second count confirms it."
            )
            % {
                "team": team.name,
                "user": who(count.registered_by),
                "time": when(count.registered_at),
            },
            registered_by=who(count.registered_by),
            registered_at=timezone.localtime(count.registered_at).isoformat(),
        )


def count_correct(
    *,
    count: Count,
    by,
    reason: str,
    pieces: int | None = None,
    unplaced: int | None = None,
    loose: int | None = None,
    objection=None,
) -> Count:
    """Correct a count (R9) with a reason; either form, as when it was recorded."""
    reason = require_reason(reason)
    check_count_form(pieces, unplaced, recording=False)
    with write(team=count.team, by=by) as w:
        team, competition = w.team, w.competition
        count = Count.objects.select_related("puzzle", "registered_by").filter(pk=count.pk).first()
        if count is None:  # voided by a finish of its puzzle, or undone, since the view read it
            raise Vanished(
                _(
                    "This count has since been deleted (its puzzle was registered as finished, "
                    "or it was undone)."
                )
            )
        before = _count_dict(count)
        # A resolved objection about the count binds: the head judge's change names it.
        if objection is None:
            objection = ensure_may_change(by=by, reason=reason, count=count)
        # docs/contracts.md `second_count`: a judge corrects a count until it is confirmed; the head
        # judge's correction settles it (confirmed, a difference cleared).
        settles = competition.second_count and has_role(by, ADMIN)
        if competition.second_count and count.confirmed_at is not None and not settles:
            raise Refusal(
                "count_confirmed",
                _("%(team)s's count is confirmed; only the head judge can correct it now.")
                % {"team": team.name},
            )
        if competition.second_count and not settles:
            _ensure_judge_may_correct(count, team, by)
        if pieces is None and unplaced is None:
            if loose is None or count.unplaced is None:
                raise ValidationError({"pieces": _("Give the corrected count.")})
            unplaced = count.unplaced
        count.pieces, count.unplaced, count.loose = placed_pieces(
            count.puzzle, pieces, unplaced, loose
        )
        fields = ["pieces", "unplaced", "loose"]
        if settles:
            count.confirmed_by, count.confirmed_at, count.second_pieces = by, timezone.now(), None
            fields += ["confirmed_by", "confirmed_at", "second_pieces"]
        count.save(update_fields=fields)
        w.audit(
            COUNT_CORRECT,
            before=before,
            after=_count_dict(count),
            reason=reason,
            objection=objection,
        )
        return count


def confirmation_state(count: Count) -> dict:
    return {
        "confirmed": count.confirmed_at is not None,
        "confirmed_by": getattr(count.confirmed_by, "username", None),
        "second_pieces": count.second_pieces,
    }
