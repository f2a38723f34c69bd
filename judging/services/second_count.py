"""The second, blind count (docs/contracts.md `second_count`).

While the competition's `second_count` is on, a second judge (not the one who counted) or
the head judge counts again without seeing the first number. Equal: the count is
confirmed. Different: 409 `count_differs` with both numbers, and the team is flagged for a
recount (the difference is kept; a correction of the count by the head judge settles it, or
an equal second count). Finalise is refused while a count is unconfirmed.

Idempotent like every write: a confirm's `request_id` keeps its answer, 200 or the 409, and
the same id again answers the same without writing (`judging.services.requests`).
"""

from uuid import UUID

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from competition.audit_actions import COUNT_CONFIRM, COUNT_DIFFERS, COUNT_UNCONFIRM
from competition.errors import Refusal
from competition.models import Competition
from competition.roles import ADMIN, has_role
from competition.writes import Write, write
from judging.models import Count, RequestId
from judging.services import requests as request_ids
from judging.services.counts import check_count_form, confirmation_state, placed_pieces
from puzzle_rules import rules

__all__ = ["count_confirm"]

Outcome = RequestId.Outcome


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


def _confirm(*, count: Count, by, pieces, unplaced, loose, request_id, fingerprint):
    """One write; returns (count, refusal or None): a difference is written, then told."""

    def replayed(competition: Competition):
        row = RequestId.objects.filter(request_id=request_id).first() if request_id else None
        return None if row is None else (_replay(row, fingerprint, competition), None)

    with write(team=count.team, by=by, recall=replayed) as w:
        if w.stored is not None:
            return w.stored
        team, competition = w.team, w.competition
        count = (
            Count.objects.select_related("puzzle", "registered_by", "confirmed_by")
            .filter(pk=count.pk)
            .first()
        )
        if count is None:
            raise Refusal(
                "undone", _("This count has since been deleted."), outcome=Outcome.DELETED
            )
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
        second, _unplaced, _loose = placed_pieces(count.puzzle, pieces, unplaced, loose)
        before = {"pieces": count.pieces, **confirmation_state(count)}
        refusal = None
        try:
            rules.check_second_count(count.pieces, second)
            count.confirmed_by, count.confirmed_at = by, timezone.now()
            count.second_pieces = None
            action, answer = COUNT_CONFIRM, None
        except rules.RuleViolation:
            count.second_pieces = second
            refusal = _differs(count.pieces, second)
            action, answer = COUNT_DIFFERS, refusal.as_dict()
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
        after = {"pieces": count.pieces, "second": second, **confirmation_state(count)}
        w.audit(action, before=before, after=after)
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


def confirm_cancel(w: Write, row: RequestId) -> None:
    """The tablet's undo of a confirm (inside `request_cancel`'s write, under its locks):
    the confirmation it made is taken back, audited; a difference it reported stays for the
    head judge."""
    count = Count.objects.filter(pk=row.record_id).first()
    if count is None or row.answer or count.confirmed_at is None:
        return
    if count.confirmed_by_id != row.user_id:
        return
    before = confirmation_state(count)
    count.confirmed_by = count.confirmed_at = None
    count.save(update_fields=["confirmed_by", "confirmed_at"])
    w.audit(
        COUNT_UNCONFIRM,
        before=before,
        after=confirmation_state(count),
        reason=_("Undone on the tablet."),
    )
