"""Finishes, counts, warnings, disqualification (R5, R7, R8, R9, R10, R14, R18).

Every write locks the team row, then the competition row (always in that order), checks
that the results are not final, refuses with a `Refusal` (409) or a `ValidationError`
(400) before anything is written, records an audit entry and bumps the standings version.

Idempotency (OFFLINE.md): a `request_id` is looked up after the locks, so two requests
with the same id serialise and the second returns the first one's answer (`.replayed`,
`.answer`); the request ids themselves are `judging.services.requests`' business.
"""

import hashlib
import json
from collections.abc import Callable, Sequence
from uuid import UUID

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from competition.audit import audit_record
from competition.errors import Refusal, ensure_not_final
from competition.locking import lock_team
from competition.models import Competition, Puzzle, Team
from competition.roles import ADMIN, has_role
from judging.models import Count, Finish, RequestId, Warning
from judging.services import requests as request_ids
from scoring import rules
from scoring.rules import deducted
from scoring.rules import format_hms as _hms

__all__ = [
    "check_count",
    "count_sentence",
    "count_correct",
    "count_record",
    "finish_correct",
    "finish_delete",
    "finish_register",
    "plausibility",
    "team_disqualify",
    "team_reinstate",
    "warning_log",
]


# --- helpers ---------------------------------------------------------------------------


def _fingerprint(**payload) -> str:
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _who(user) -> str:
    if user is None:
        return "?"
    return user.get_full_name() or user.get_username()


def _when(moment) -> str:
    return timezone.localtime(moment).strftime("%H:%M:%S")


def _require_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": _("Give a reason for the change.")})
    return reason


def _check_missing(missing: Sequence[int], puzzle: Puzzle) -> list[int]:
    """R8: spots of at least 1 piece, adding up to at most the puzzle's pieces."""
    spots = list(missing)
    if any(isinstance(s, bool) or not isinstance(s, int) or s < 1 for s in spots):
        raise ValidationError({"missing": _("Each missing spot must have at least 1 piece.")})
    if sum(spots) > puzzle.pieces:
        raise ValidationError(
            {
                "missing": _("The missing pieces add up to more than the puzzle's %(pieces)s.")
                % {"pieces": puzzle.pieces}
            }
        )
    return spots


def _finish_dict(finish: Finish) -> dict:
    return {
        "id": finish.pk,
        "team": finish.team_id,
        "puzzle": finish.puzzle.position,
        "elapsed_seconds": finish.elapsed_seconds,
        "missing": list(finish.missing),
        "deducted": deducted(finish.missing),
    }


def _count_dict(count: Count) -> dict:
    return {
        "id": count.pk,
        "team": count.team_id,
        "puzzle": count.puzzle.position,
        "pieces": count.pieces,
        "unplaced": count.unplaced,
        "loose": count.loose,
    }


def _warning_dict(warning: Warning) -> dict:
    return {"id": warning.pk, "team": warning.team_id, "reason": warning.reason}


def _team_dict(team: Team) -> dict:
    return {
        "id": team.pk,
        "withdrawn": team.withdrawn,
        "disqualified": team.disqualified,
        "disqualified_reason": team.disqualified_reason,
    }


def _ensure_competing(team: Team) -> None:
    if not team.competing:
        why = _("withdrawn") if team.withdrawn else _("disqualified")
        raise Refusal(
            "not_competing",
            _("%(team)s does not compete any more (%(why)s).") % {"team": team.name, "why": why},
        )


def _already_finished(finish: Finish) -> Refusal:
    return Refusal(
        "already_finished",
        _("%(team)s has already finished puzzle %(position)s. Registered by %(user)s at %(time)s.")
        % {
            "team": finish.team.name,
            "position": finish.puzzle.position,
            "user": _who(finish.registered_by),
            "time": _when(finish.registered_at),
        },
        finish=finish.pk,
        registered_by=_who(finish.registered_by),
        registered_at=timezone.localtime(finish.registered_at).isoformat(),
    )


def _clock_bounds(competition: Competition) -> tuple[int, int]:
    """(the clock's now, its end), both in whole seconds since the start."""
    now = timezone.now()
    now_s = int((now - competition.started_at).total_seconds())
    end_s = int((competition.clock_end - competition.started_at).total_seconds())
    return now_s, end_s


# A tablet's synced clock may run a little ahead of the server's (its offset is measured
# to within half a round trip, and is stale after a sleep): a tap up to this many seconds
# "in the future" is the clock's now, not a refusal that would make the judge tap again.
CLOCK_TOLERANCE_SECONDS = 5


def _check_time(competition: Competition, elapsed_seconds: int) -> int:
    """R10: a time neither after the clock's end nor later than its now; returns the time."""
    if elapsed_seconds < 0:
        raise ValidationError({"elapsed_seconds": _("The time cannot be negative.")})
    now_s, end_s = _clock_bounds(competition)
    if elapsed_seconds > end_s:
        raise Refusal(
            "after_end",
            _("%(time)s is after the end of the competition (%(end)s).")
            % {"time": _hms(elapsed_seconds), "end": _hms(end_s)},
        )
    if now_s < elapsed_seconds <= now_s + CLOCK_TOLERANCE_SECONDS:
        return now_s
    if elapsed_seconds > now_s:
        raise Refusal(
            "in_future",
            _("%(time)s is later than the clock's now (%(now)s).")
            % {"time": _hms(elapsed_seconds), "now": _hms(now_s)},
        )
    return elapsed_seconds


def _drop_count_for(team: Team, puzzle: Puzzle, by, reason: str) -> None:
    """A finish of the counted puzzle (or an undo before it) makes the count void (R9)."""
    count = Count.objects.select_related("puzzle").filter(team=team).first()
    if count is None:
        return
    before = _count_dict(count)
    count.delete()
    request_ids.record_gone(count, RequestId.Outcome.VOIDED)
    audit_record(
        competition=team.competition,
        user=by,
        action="count_delete",
        team=team,
        before=before,
        reason=reason,
    )


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


@transaction.atomic
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
    fingerprint = _fingerprint(
        team=team.pk, position=position, missing=list(missing), elapsed_seconds=elapsed_seconds
    )
    answer = answer or _finish_dict
    team, competition = lock_team(team)
    stored = request_ids.recall(
        Finish,
        request_id=request_id,
        fingerprint=fingerprint,
        competition=competition,
        answer=answer,
    )
    if stored is not None:
        return stored
    ensure_not_final(competition)
    _ensure_competing(team)
    if competition.started_at is None:
        raise Refusal("clock_not_started", _("The clock has not been started yet."))
    puzzle = Puzzle.objects.filter(competition=competition, position=position).first()
    if puzzle is None:
        raise ValidationError(
            {"puzzle": _("The competition has no puzzle %(position)s.") % {"position": position}}
        )
    finishes = list(
        Finish.objects.filter(team=team)
        .select_related("puzzle", "registered_by", "team")
        .order_by("puzzle__position")
    )
    done = {f.puzzle.position: f for f in finishes}
    if position in done:
        raise _already_finished(done[position])
    if position != len(finishes) + 1:
        raise Refusal(
            "out_of_order",
            _("%(team)s is on puzzle %(next)s; the puzzles are done in order (R7).")
            % {"team": team.name, "next": len(finishes) + 1},
        )
    if elapsed_seconds is None:
        if competition.has_ended():
            raise Refusal(
                "after_end",
                _("Time is up; give the time the puzzle was finished, if it was before the end."),
            )
        elapsed_seconds = competition.elapsed_seconds()
    else:
        elapsed_seconds = _check_time(competition, elapsed_seconds)
    previous = finishes[-1].elapsed_seconds if finishes else 0
    if elapsed_seconds < previous:
        raise Refusal(
            "time_order",
            _("%(time)s is earlier than the team's previous finish at %(previous)s.")
            % {"time": _hms(elapsed_seconds), "previous": _hms(previous)},
        )
    spots = _check_missing(missing, puzzle)
    if check_plausible:
        warning = plausibility(team, position, elapsed_seconds)
        if warning is not None:
            raise Refusal("implausible", warning.pop("message"), plausibility=warning)
    try:
        finish = request_ids.create_once(
            Finish,
            request_id=request_id,
            fingerprint=fingerprint,
            team=team,
            by=by,
            answer=answer,
            puzzle=puzzle,
            elapsed_seconds=elapsed_seconds,
            missing=spots,
            registered_by=by if getattr(by, "is_authenticated", False) else None,
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
        _drop_count_for(team, puzzle, by, _("The counted puzzle was registered as finished."))
    audit_record(
        competition=competition,
        user=by,
        action="finish_register",
        team=team,
        after=_finish_dict(finish),
    )
    competition.bump_standings()
    return finish


@transaction.atomic
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
    reason = _require_reason(reason)
    team, competition = lock_team(finish.team)
    ensure_not_final(competition)
    finish = Finish.objects.select_related("puzzle", "registered_by").get(pk=finish.pk)
    before = _finish_dict(finish)
    if elapsed_seconds is not None and elapsed_seconds != finish.elapsed_seconds:
        elapsed_seconds = _check_time(competition, elapsed_seconds)
        neighbours = Finish.objects.filter(team=team).exclude(pk=finish.pk)
        earlier = neighbours.filter(puzzle__position__lt=finish.puzzle.position)
        later = neighbours.filter(puzzle__position__gt=finish.puzzle.position)
        floor = max(earlier.values_list("elapsed_seconds", flat=True), default=0)
        ceiling = min(later.values_list("elapsed_seconds", flat=True), default=None)
        if elapsed_seconds < floor or (ceiling is not None and elapsed_seconds > ceiling):
            raise Refusal(
                "time_order",
                _("%(time)s does not lie between the team's finishes before and after it.")
                % {"time": _hms(elapsed_seconds)},
            )
        finish.elapsed_seconds = elapsed_seconds
    if missing is not None:
        finish.missing = _check_missing(missing, finish.puzzle)
    finish.save(update_fields=["elapsed_seconds", "missing"])
    audit_record(
        competition=competition,
        user=by,
        action="finish_correct",
        team=team,
        before=before,
        after=_finish_dict(finish),
        reason=reason,
        objection=objection,
    )
    competition.bump_standings()
    return finish


@transaction.atomic
def finish_delete(*, finish: Finish, by, reason: str = "") -> None:
    """Undo a finish: only the team's latest (a count of the next puzzle goes with it)."""
    team, competition = lock_team(finish.team)
    ensure_not_final(competition)
    finish = Finish.objects.select_related("puzzle").get(pk=finish.pk)
    if Finish.objects.filter(team=team, puzzle__position__gt=finish.puzzle.position).exists():
        raise Refusal(
            "not_latest",
            _("Only the team's latest finish can be deleted; puzzle %(position)s is not.")
            % {"position": finish.puzzle.position},
        )
    before = _finish_dict(finish)
    _drop_count_for(team, finish.puzzle, by, _("The finish before the counted puzzle was deleted."))
    finish.delete()
    request_ids.record_gone(finish, RequestId.Outcome.DELETED)
    audit_record(
        competition=competition,
        user=by,
        action="finish_delete",
        team=team,
        before=before,
        reason=(reason or "").strip(),
    )
    competition.bump_standings()


# --- counts (R9) -----------------------------------------------------------------------


# R9's refusals (`rules.check_count`), one sentence each, the same from every path: the
# judge's count (placed or unplaced), its correction, an upheld objection, the control room.
_COUNT_SENTENCES = {
    "count_negative": gettext_lazy("Pieces cannot be negative."),
    "count_too_small": gettext_lazy(
        "Only groups of at least 3 joined pieces count (R9): 0 or at least 3."
    ),
    "count_too_large": gettext_lazy("The puzzle has only %(pieces)s pieces."),
    "count_is_finish": gettext_lazy(
        "All %(pieces)s pieces placed is not a count: the puzzle is finished. If it was "
        "finished before time was up, register it as finished with its time (R9)."
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


def _placed(puzzle: Puzzle, pieces, unplaced, loose) -> tuple[int, int | None, int | None]:
    """(placed, unplaced, loose) from either form of the count; ValidationError if wrong."""
    if (pieces is None) == (unplaced is None):
        raise ValidationError(
            {"pieces": _("Give either the placed pieces or the unplaced (and loose) pieces.")}
        )
    if pieces is None:
        loose = loose or 0
        if unplaced < 0 or loose < 0:
            raise ValidationError({"unplaced": _("Pieces cannot be negative.")})
        pieces = puzzle.pieces - unplaced - loose
        if pieces < 0:
            raise ValidationError(
                {
                    "unplaced": _(
                        "Unplaced and loose pieces add up to more than the puzzle's %(pieces)s."
                    )
                    % {"pieces": puzzle.pieces}
                }
            )
    else:
        unplaced = loose = None
    return check_count(puzzle, pieces), unplaced, loose


@transaction.atomic
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
    fingerprint = _fingerprint(team=team.pk, pieces=pieces, unplaced=unplaced, loose=loose)
    answer = answer or _count_dict
    team, competition = lock_team(team)
    stored = request_ids.recall(
        Count,
        request_id=request_id,
        fingerprint=fingerprint,
        competition=competition,
        answer=answer,
    )
    if stored is not None:
        return stored
    ensure_not_final(competition)
    if competition.started_at is None:
        raise Refusal("clock_not_started", _("The clock has not been started yet."))
    if not competition.has_ended():
        raise Refusal("clock_running", _("Counts are entered when time is up."))
    _ensure_competing(team)
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
                "user": _who(existing.registered_by),
                "time": _when(existing.registered_at),
            },
            count=existing.pk,
        )
    pieces, unplaced, loose = _placed(puzzle, pieces, unplaced, loose)
    try:
        count = request_ids.create_once(
            Count,
            request_id=request_id,
            fingerprint=fingerprint,
            team=team,
            by=by,
            answer=answer,
            puzzle=puzzle,
            pieces=pieces,
            unplaced=unplaced,
            loose=loose,
            registered_by=by if getattr(by, "is_authenticated", False) else None,
        )
    except IntegrityError:
        raise Refusal(
            "already_counted", _("%(team)s has already been counted.") % {"team": team.name}
        ) from None
    if count.replayed:
        return count
    audit_record(
        competition=competition, user=by, action="count_record", team=team, after=_count_dict(count)
    )
    competition.bump_standings()
    return count


@transaction.atomic
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
    reason = _require_reason(reason)
    team, competition = lock_team(count.team)
    ensure_not_final(competition)
    count = Count.objects.select_related("puzzle").get(pk=count.pk)
    before = _count_dict(count)
    # DESIGN.md `second_count`: a judge corrects a count until it is confirmed; the head
    # judge's correction settles it (confirmed, a difference cleared).
    settles = competition.second_count and has_role(by, ADMIN)
    if competition.second_count and count.confirmed_at is not None and not settles:
        raise Refusal(
            "count_confirmed",
            _("%(team)s's count is confirmed; only the head judge can correct it now.")
            % {"team": team.name},
        )
    if pieces is None and unplaced is None:
        if loose is None or count.unplaced is None:
            raise ValidationError({"pieces": _("Give the corrected count.")})
        unplaced = count.unplaced
    count.pieces, count.unplaced, count.loose = _placed(count.puzzle, pieces, unplaced, loose)
    fields = ["pieces", "unplaced", "loose"]
    if settles:
        count.confirmed_by, count.confirmed_at, count.second_pieces = by, timezone.now(), None
        fields += ["confirmed_by", "confirmed_at", "second_pieces"]
    count.save(update_fields=fields)
    audit_record(
        competition=competition,
        user=by,
        action="count_correct",
        team=team,
        before=before,
        after=_count_dict(count),
        reason=reason,
        objection=objection,
    )
    competition.bump_standings()
    return count


# --- warnings and disqualification (R14, R18) ------------------------------------------


@transaction.atomic
def warning_log(
    *,
    team: Team,
    by,
    reason: str,
    request_id: UUID | None = None,
    answer: Callable[[Warning], dict] | None = None,
) -> Warning:
    """R14: a judge's warning to a team, with the reason.

    Idempotent like a finish: the same `request_id` again returns the stored warning
    (`.replayed`), with another team or reason it raises `IdempotencyConflict`.
    """
    reason = _require_reason(reason)
    fingerprint = _fingerprint(team=team.pk, reason=reason)
    answer = answer or _warning_dict
    team, competition = lock_team(team)
    stored = request_ids.recall(
        Warning,
        request_id=request_id,
        fingerprint=fingerprint,
        competition=competition,
        answer=answer,
    )
    if stored is not None:
        return stored
    ensure_not_final(competition)
    warning = request_ids.create_once(
        Warning,
        request_id=request_id,
        fingerprint=fingerprint,
        team=team,
        by=by,
        answer=answer,
        reason=reason,
        given_by=by if getattr(by, "is_authenticated", False) else None,
    )
    if warning.replayed:
        return warning
    audit_record(
        competition=competition,
        user=by,
        action="warning_log",
        team=team,
        after={"id": warning.pk, "reason": reason},
        reason=reason,
    )
    competition.bump_standings()
    return warning


@transaction.atomic
def team_disqualify(*, team: Team, by, reason: str) -> Team:
    """R14, R18: disqualify a team (unranked), with the reason."""
    reason = _require_reason(reason)
    team, competition = lock_team(team)
    ensure_not_final(competition)
    if team.disqualified:
        raise Refusal(
            "already_disqualified", _("%(team)s is already disqualified.") % {"team": team.name}
        )
    before = _team_dict(team)
    team.disqualified, team.disqualified_reason = True, reason
    team.save(update_fields=["disqualified", "disqualified_reason"])
    audit_record(
        competition=competition,
        user=by,
        action="team_disqualify",
        team=team,
        before=before,
        after=_team_dict(team),
        reason=reason,
    )
    competition.bump_standings()
    return team


@transaction.atomic
def team_reinstate(*, team: Team, by, reason: str = "") -> Team:
    """Undo a disqualification."""
    team, competition = lock_team(team)
    ensure_not_final(competition)
    if not team.disqualified:
        raise Refusal("not_disqualified", _("%(team)s is not disqualified.") % {"team": team.name})
    before = _team_dict(team)
    team.disqualified, team.disqualified_reason = False, ""
    team.save(update_fields=["disqualified", "disqualified_reason"])
    audit_record(
        competition=competition,
        user=by,
        action="team_reinstate",
        team=team,
        before=before,
        after=_team_dict(team),
        reason=(reason or "").strip(),
    )
    competition.bump_standings()
    return team
