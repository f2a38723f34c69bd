"""Counts (R9, R10): record and correct a count, and the second, blind count.

A count is entered by one judge after time is up; a finish of the counted puzzle (or the
undo of the finish before it) makes it void. While the competition's `second_count` is on
(DESIGN.md, issue 14 item 3), a second judge (not the one who counted) or the head judge
counts again without seeing the first number. Equal: the count is confirmed. Different: 409
`count_differs` with both numbers, and the team is flagged for a recount (the difference is
kept; a correction of the count by the head judge settles it, or an equal second count).
Finalise is refused while a count is unconfirmed (`counts_unconfirmed`).

Idempotent like every write: a confirm's `request_id` keeps its answer, 200 or the 409, and
the same id again answers the same without writing (`judging.services.requests`).
"""

from collections.abc import Callable
from uuid import UUID

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
from judging.models import Count, Finish, RequestId
from judging.services import requests as request_ids
from judging.services._shared import ensure_competing, require_reason, user_or_none, when, who
from scoring import rules

__all__ = [
    "check_count",
    "confirmation_state",
    "count_confirm",
    "count_correct",
    "count_record",
    "count_sentence",
    "counts_unconfirmed",
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


def void_count(team: Team, by, reason: str) -> None:
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


def check_count_form(pieces, unplaced, *, recording: bool = True) -> None:
    """Either form of a count, and R9's 0 or at least 3 (`rules.check_count_size`): what
    could never be right answers 400 before the state is looked at (DESIGN.md)."""
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


def _placed(puzzle: Puzzle, pieces, unplaced, loose) -> tuple[int, int | None, int | None]:
    """(placed, unplaced, loose) from either form of the count; ValidationError if wrong."""
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
    check_count_form(pieces, unplaced)
    fingerprint = request_ids.fingerprint(
        team=team.pk, pieces=pieces, unplaced=unplaced, loose=loose
    )
    answer = answer or _count_dict
    team, competition, stored = request_ids.lock_and_recall(
        Count, team, request_id=request_id, fingerprint=fingerprint, answer=answer
    )
    if stored is not None:
        return stored
    ensure_not_final(competition)
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
            registered_by=user_or_none(by),
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
    reason = require_reason(reason)
    check_count_form(pieces, unplaced, recording=False)
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


Outcome = RequestId.Outcome


def confirmation_state(count: Count) -> dict:
    return {
        "confirmed": count.confirmed_at is not None,
        "confirmed_by": getattr(count.confirmed_by, "username", None),
        "second_pieces": count.second_pieces,
    }


def counts_unconfirmed(competition: Competition) -> list[Team]:
    """The teams whose count waits for a second count (none while `second_count` is off),
    each with `.count` (its `second_pieces` set when the two counts differ)."""
    if not competition.second_count:
        return []
    return list(
        Team.objects.select_related("count")
        .filter(
            competition=competition,
            withdrawn=False,
            disqualified=False,
            count__isnull=False,
            count__confirmed_at__isnull=True,
        )
        .order_by("table")
    )


def _differs(first: int, second: int) -> Refusal:
    return Refusal(
        "count_differs",
        _(
            "The two counts differ: %(first)s and %(second)s pieces. Count again; the head "
            "judge settles it by correcting the count."
        )
        % {"first": first, "second": second},
        first=first,
        second=second,
    )


def _replay(row: RequestId, fingerprint: str, competition: Competition) -> Count:
    if (
        row.competition_id != competition.pk
        or (row.kind and row.kind != RequestId.Kind.CONFIRM)
        or (row.kind and row.fingerprint != fingerprint)
    ):
        raise request_ids.IdempotencyConflict()
    if not row.kind or row.outcome != Outcome.CREATED:
        raise Refusal("undone", _("This tap was undone; nothing was saved."), outcome=row.outcome)
    answer = row.answer or {}
    if answer.get("code") == "count_differs":
        raise _differs(answer["first"], answer["second"])
    count = Count.objects.select_related("puzzle", "registered_by", "confirmed_by").get(
        pk=row.record_id
    )
    count.replayed = True
    return count


@transaction.atomic
def _confirm(*, count: Count, by, pieces, unplaced, loose, request_id, fingerprint):
    """One transaction; returns (count, refusal or None): a difference is written, then told."""
    team, competition = lock_team(count.team)
    row = RequestId.objects.filter(request_id=request_id).first() if request_id else None
    if row is not None:
        return _replay(row, fingerprint, competition), None
    ensure_not_final(competition)
    count = (
        Count.objects.select_related("puzzle", "registered_by", "confirmed_by")
        .filter(pk=count.pk)
        .first()
    )
    if count is None:
        raise Refusal("undone", _("This count has since been deleted."), outcome=Outcome.DELETED)
    if count.confirmed_at is not None:
        raise Refusal(
            "already_confirmed",
            _("%(team)s's count is already confirmed.") % {"team": team.name},
        )
    is_admin = has_role(by, ADMIN)
    if not is_admin and count.registered_by_id is not None and count.registered_by_id == by.pk:
        raise Refusal(
            "own_count",
            _("Another judge must count %(team)s a second time, not the one who counted.")
            % {"team": team.name},
        )
    second, _unplaced, _loose = _placed(count.puzzle, pieces, unplaced, loose)
    before = {"pieces": count.pieces, **confirmation_state(count)}
    refusal = None
    try:
        rules.check_second_count(count.pieces, second)
        count.confirmed_by, count.confirmed_at = by, timezone.now()
        count.second_pieces = None
        action, answer = "count_confirm", None
    except rules.RuleViolation:
        count.second_pieces = second
        refusal = _differs(count.pieces, second)
        action, answer = "count_differs", refusal.as_dict()
    count.save(update_fields=["confirmed_by", "confirmed_at", "second_pieces"])
    if request_id is not None:
        try:
            with transaction.atomic():
                request_ids.remember(
                    request_id,
                    competition_id=competition.pk,
                    team=team,
                    kind=RequestId.Kind.CONFIRM,
                    fingerprint=fingerprint,
                    answer=answer,
                    record_id=count.pk,
                    by=by,
                )
        except IntegrityError:  # the id is another competition's
            raise request_ids.IdempotencyConflict() from None
    audit_record(
        competition=competition,
        user=by,
        action=action,
        team=team,
        before=before,
        after={"pieces": count.pieces, "second": second, **confirmation_state(count)},
    )
    competition.bump_standings()
    count.replayed = False
    return count, refusal


def count_confirm(
    *,
    count: Count,
    by,
    pieces: int | None = None,
    unplaced: int | None = None,
    loose: int = 0,
    request_id: UUID | None = None,
) -> Count:
    """A second judge's blind count of `count`: equal confirms it (`.replayed` on a resend);
    different raises 409 `count_differs` {first, second} AFTER writing the flag, so that the
    control room shows the team for a recount. Refused (409): `final`, `already_confirmed`,
    `own_count` (the judge who counted; an admin may), `undone`."""
    check_count_form(pieces, unplaced)
    fingerprint = request_ids.fingerprint(
        count=count.pk, pieces=pieces, unplaced=unplaced, loose=loose
    )
    count, refusal = _confirm(
        count=count,
        by=by,
        pieces=pieces,
        unplaced=unplaced,
        loose=loose,
        request_id=request_id,
        fingerprint=fingerprint,
    )
    if refusal is not None:
        raise refusal
    return count


def confirm_cancel(row: RequestId, team: Team, competition: Competition, by) -> None:
    """The tablet's undo of a confirm (under `request_cancel`'s locks): the confirmation it
    made is taken back, audited; a difference it reported stays for the head judge."""
    count = Count.objects.filter(pk=row.record_id).first()
    if count is None or row.answer or count.confirmed_at is None:
        return
    if count.confirmed_by_id != row.user_id:
        return
    before = confirmation_state(count)
    count.confirmed_by = count.confirmed_at = None
    count.save(update_fields=["confirmed_by", "confirmed_at"])
    audit_record(
        competition=competition,
        user=by,
        action="count_unconfirm",
        team=team,
        before=before,
        after=confirmation_state(count),
        reason=_("Undone on the tablet."),
    )
    competition.bump_standings()
