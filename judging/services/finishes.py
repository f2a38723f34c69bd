"""Finishes (R5, R7, R8, R10): register, correct, undo; and the plausibility warning.

Every write locks the team row, then the competition row (always in that order), checks
that the results are not final, refuses with a `Refusal` (409) or a `ValidationError`
(400) before anything is written, records an audit entry and bumps the standings version.

Idempotency (docs/offline.md): a `request_id` is looked up after the locks, so two requests
with the same id serialise and the second returns the first one's answer (`.replayed`,
`.answer`); the request ids themselves are `judging.services.requests`' business.
"""

from collections.abc import Callable, Sequence
from uuid import UUID

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from competition.audit import user_or_none
from competition.audit_actions import FINISH_CORRECT, FINISH_DELETE, FINISH_REGISTER
from competition.errors import Refusal, Vanished
from competition.models import Competition, Puzzle, Team
from competition.words import entrant_text
from competition.writes import write
from judging.models import Count, Finish, RequestId
from judging.services import requests as request_ids
from judging.services._shared import (
    ensure_competing,
    ensure_may_change,
    require_reason,
    when,
    who,
)
from judging.services.counts import void_count
from puzzle_rules import rules
from puzzle_rules.formatting import format_hms as _hms
from puzzle_rules.rules import deducted

__all__ = ["finish_correct", "finish_delete", "finish_register", "plausibility"]


def check_missing(missing: Sequence[int], puzzle: Puzzle) -> list[int]:
    """R8 (`rules.check_missing`): the spots, or a ValidationError on `missing`."""
    try:
        return list(rules.check_missing(puzzle.pieces, missing))
    except rules.RuleViolation as exc:
        if exc.code == "missing_not_positive":
            message = _("Each missing spot must have at least 1 piece.")
        else:
            message = _("The missing pieces add up to more than the puzzle's %(pieces)s.") % {
                "pieces": puzzle.pieces
            }
        raise ValidationError({"missing": message}) from None


def _puzzle(competition_id: int, position: int) -> Puzzle:
    puzzle = Puzzle.objects.filter(competition_id=competition_id, position=position).first()
    if puzzle is None:
        raise ValidationError(
            {"puzzle": _("The competition has no puzzle %(position)s.") % {"position": position}}
        )
    return puzzle


def _finish_dict(finish: Finish) -> dict:
    return {
        "id": finish.pk,
        "team": finish.team_id,
        "puzzle": finish.puzzle.position,
        "elapsed_seconds": finish.elapsed_seconds,
        "missing": list(finish.missing),
        "deducted": deducted(finish.missing),
    }


def _already_finished(finish: Finish) -> Refusal:
    return Refusal(
        "already_finished",
        _("%(team)s has already finished puzzle %(position)s. Registered by %(user)s at %(time)s.")
        % {
            "team": finish.team.name,
            "position": finish.puzzle.position,
            "user": who(finish.registered_by),
            "time": when(finish.registered_at),
        },
        finish=finish.pk,
        registered_by=who(finish.registered_by),
        registered_at=timezone.localtime(finish.registered_at).isoformat(),
    )


def _clock_bounds(competition: Competition, now=None) -> tuple[int, int]:
    """(the clock's now, its end), both in whole seconds since the start."""
    now = now or timezone.now()
    now_s = int((now - competition.started_at).total_seconds())
    end_s = int((competition.clock_end - competition.started_at).total_seconds())
    return now_s, end_s


# A tablet's synced clock may run a little ahead of the server's (its offset is measured
# to within half a round trip, and is stale after a sleep): a tap up to this many seconds
# "in the future" is the clock's now, not a refusal that would make the judge tap again.
CLOCK_TOLERANCE_SECONDS = 5


def _check_time(competition: Competition, elapsed_seconds: int, arrived=None) -> int:
    """R10 (`rules.check_clock_time`): a time neither after the clock's end nor later than
    its now (`arrived`: when the request came, before it waited for the locks); returns the
    time."""
    now_s, end_s = _clock_bounds(competition, arrived)
    try:
        return rules.check_clock_time(
            elapsed_seconds, now=now_s, end=end_s, tolerance=CLOCK_TOLERANCE_SECONDS
        )
    except rules.RuleViolation as exc:
        if exc.code == "negative_time":
            raise ValidationError({"elapsed_seconds": _("The time cannot be negative.")}) from None
        if exc.code == "after_end":
            message = _("%(time)s is after the end of the competition (%(end)s).") % {
                "time": _hms(elapsed_seconds),
                "end": _hms(end_s),
            }
        else:
            message = _("%(time)s is later than the clock's now (%(now)s).") % {
                "time": _hms(elapsed_seconds),
                "now": _hms(now_s),
            }
        raise Refusal(exc.code, message) from None


# --- plausibility ----------------------------------------------------------------------


def plausibility(team: Team, position: int, elapsed_seconds: int) -> dict | None:
    """A warning when finishing puzzle `position` at `elapsed_seconds` is implausibly fast.

    The pace is the puzzle's pieces per minute per puzzler since the team's previous
    finish (or the start); puzzlers = min(members, the table's limit), at least 1.
    None when the pace is within settings.PLAUSIBLE_PIECES_PER_MINUTE_PER_PUZZLER.
    """
    puzzle = Puzzle.objects.get(competition_id=team.competition_id, position=position)
    previous = (
        Finish.objects.filter(team=team, puzzle__position=position - 1)
        .values_list("elapsed_seconds", flat=True)
        .first()
        or 0
    )
    competition = team.competition
    puzzlers = max(1, min(team.members.count(), competition.max_at_table))
    seconds = max(1, elapsed_seconds - previous)
    pace = puzzle.pieces / (seconds / 60) / puzzlers
    limit = settings.PLAUSIBLE_PIECES_PER_MINUTE_PER_PUZZLER
    if pace <= limit:
        return None
    return {
        "pieces_per_minute_per_puzzler": round(pace, 1),
        "limit": limit,
        "puzzlers": puzzlers,
        "seconds": seconds,
        "message": _(
            "%(pieces)s pieces in %(time)s is %(pace)s pieces per minute per puzzler "
            "(%(puzzlers)s at the table), more than the plausible %(limit)s. Is the time right?"
        )
        % {
            "pieces": formats.number_format(puzzle.pieces, force_grouping=True),
            "time": _hms(seconds),
            "puzzlers": puzzlers,
            "pace": formats.number_format(pace, 1),
            "limit": formats.number_format(limit, 1),
        },
    }


# --- finishes --------------------------------------------------------------------------


def finish_register(
    *,
    team: Team,
    position: int,
    by,
    missing: Sequence[int] = (),
    elapsed_seconds: int | None = None,
    request_id: UUID | None = None,
    check_plausible: bool = False,
    answer: Callable[[Finish], dict] | None = None,
) -> Finish:
    """R5, R7, R8, R10: register that `team` finished puzzle `position`.

    The time is the clock's now unless `elapsed_seconds` is given (a tap taken on a
    device, or a time noted on paper): then it lies between the team's previous finish
    and min(the clock's now, its end). With `check_plausible`, an implausibly fast finish
    is refused with the code `implausible` (the judge confirms and sends it again).
    `answer` makes the answer kept for a replay (the API's JSON; default `_finish_dict`).
    """
    # docs/contracts.md "The edges that stay true": a tap that arrived while the clock ran is
    # judged at that moment, not after the wait for the locks.
    arrived = timezone.now()
    # What could never be right answers 400 before the state is looked at (docs/contracts.md).
    puzzle = _puzzle(team.competition_id, position)
    spots = check_missing(missing, puzzle)
    fingerprint = request_ids.fingerprint(
        team=team.pk, position=position, missing=list(missing), elapsed_seconds=elapsed_seconds
    )
    answer = answer or _finish_dict
    once = request_ids.recaller(
        Finish, request_id=request_id, fingerprint=fingerprint, answer=answer
    )
    with write(team=team, by=by, recall=once) as w:
        if w.stored is not None:
            return w.stored
        team, competition = w.team, w.competition
        ensure_competing(team)
        if competition.started_at is None:
            raise Refusal("clock_not_started", _("The clock has not been started yet."))
        finishes = list(
            Finish.objects.filter(team=team)
            .select_related("puzzle", "registered_by", "team")
            .order_by("puzzle__position")
        )
        try:
            rules.check_next_position(len(finishes), position)
        except rules.RuleViolation as exc:
            if exc.code == "already_finished":
                done = next(f for f in finishes if f.puzzle.position == position)
                raise _already_finished(done) from None
            raise Refusal(
                "out_of_order",
                _("%(team)s is on puzzle %(next)s; the puzzles are done in order (rule 7).")
                % {"team": team.name, "next": len(finishes) + 1},
            ) from None
        if elapsed_seconds is None:
            if competition.has_ended():
                message = _(
                    "Time is up; give the time the puzzle was finished, if it was before the end."
                )
                raise Refusal("after_end", message)
            elapsed_seconds = competition.elapsed_seconds()
        else:
            elapsed_seconds = _check_time(competition, elapsed_seconds, arrived)
        previous = finishes[-1].elapsed_seconds if finishes else 0
        try:
            rules.check_finish_time(elapsed_seconds, after=previous)
        except rules.RuleViolation:
            raise Refusal(
                "time_order",
                entrant_text(
                    competition,
                    "%(time)s is earlier than the team's previous finish at %(previous)s.",
                    time=_hms(elapsed_seconds),
                    previous=_hms(previous),
                ),
            ) from None
        if check_plausible:
            warning = plausibility(team, position, elapsed_seconds)
            if warning is not None:
                raise Refusal("implausible", warning.pop("message"), plausibility=warning)
        try:
            finish = once.create(
                team=team,
                by=by,
                puzzle=puzzle,
                elapsed_seconds=elapsed_seconds,
                missing=spots,
                registered_by=user_or_none(by),
            )
        except IntegrityError:
            # Another transaction saved the same finish meanwhile.
            other = Finish.objects.select_related("puzzle", "registered_by", "team").filter(
                team=team, puzzle=puzzle
            )
            if other.exists():
                raise _already_finished(other.get()) from None
            raise
        if finish.replayed:
            return finish
        count = Count.objects.filter(team=team, puzzle=puzzle).exists()
        if count:
            void_count(w, _("The counted puzzle was registered as finished."))
        w.audit(FINISH_REGISTER, after=_finish_dict(finish))
        return finish


def _relocked(finish: Finish) -> Finish:
    """The finish read again under the team's lock: the view read it before, and an undo, a
    cancel or a second delete may have removed it meanwhile (then 404, never a 500)."""
    fresh = Finish.objects.select_related("puzzle", "registered_by").filter(pk=finish.pk).first()
    if fresh is None:
        raise Vanished(
            _("This finish has since been deleted (undone on a tablet or in the control room).")
        )
    return fresh


def finish_correct(
    *,
    finish: Finish,
    by,
    reason: str,
    elapsed_seconds: int | None = None,
    missing: Sequence[int] | None = None,
    objection=None,
) -> Finish:
    """Correct a finish's time or missing spots (R5, R8), with a reason; audited."""
    reason = require_reason(reason)
    spots = None if missing is None else check_missing(missing, finish.puzzle)
    with write(team=finish.team, by=by) as w:
        team, competition = w.team, w.competition
        finish = _relocked(finish)
        before = _finish_dict(finish)
        # A resolved objection about the finish binds: the head judge's change names it.
        if objection is None:
            objection = ensure_may_change(by=by, reason=reason, finish=finish)
        if elapsed_seconds is not None and elapsed_seconds != finish.elapsed_seconds:
            elapsed_seconds = _check_time(competition, elapsed_seconds)
            neighbours = Finish.objects.filter(team=team).exclude(pk=finish.pk)
            earlier = neighbours.filter(puzzle__position__lt=finish.puzzle.position)
            later = neighbours.filter(puzzle__position__gt=finish.puzzle.position)
            floor = max(earlier.values_list("elapsed_seconds", flat=True), default=0)
            ceiling = min(later.values_list("elapsed_seconds", flat=True), default=None)
            try:
                rules.check_finish_time(elapsed_seconds, after=floor, before=ceiling)
            except rules.RuleViolation:
                raise Refusal(
                    "time_order",
                    entrant_text(
                        w.competition,
                        "%(time)s does not lie between the team's finishes before and after it.",
                        time=_hms(elapsed_seconds),
                    ),
                ) from None
            finish.elapsed_seconds = elapsed_seconds
        if spots is not None:
            finish.missing = spots
        finish.save(update_fields=["elapsed_seconds", "missing"])
        w.audit(
            FINISH_CORRECT,
            before=before,
            after=_finish_dict(finish),
            reason=reason,
            objection=objection,
        )
        return finish


def finish_delete(*, finish: Finish, by, reason: str = "") -> None:
    """Undo a finish: only the team's latest (a count of the next puzzle goes with it)."""
    with write(team=finish.team, by=by) as w:
        team = w.team
        finish = _relocked(finish)
        if Finish.objects.filter(team=team, puzzle__position__gt=finish.puzzle.position).exists():
            raise Refusal(
                "not_latest",
                entrant_text(
                    w.competition,
                    "Only the team's latest finish can be deleted; puzzle %(position)s is not.",
                    position=finish.puzzle.position,
                ),
            )
        decided = ensure_may_change(by=by, reason=reason, finish=finish)
        before = _finish_dict(finish)
        void_count(w, _("The finish before the counted puzzle was deleted."))
        finish.delete()
        request_ids.record_gone(finish, RequestId.Outcome.DELETED)
        w.audit(FINISH_DELETE, before=before, reason=(reason or "").strip(), objection=decided)
