"""Request ids: a device's id for each tap, kept for the whole competition (OFFLINE.md).

Every finish, count and warning sent with a `request_id` leaves a `RequestId` row with the
fingerprint of its body, the first answer and the outcome of the record it created. The
row outlives the record:

- the same id and body again answers the first answer (`.replayed`, HTTP 200);
- the same id with another body raises `IdempotencyConflict` (HTTP 422);
- once the record was deleted, voided by a later finish or cancelled, the same id answers
  409 `undone` and nothing is written again (issue 11, defect 3).

`request_cancel` is the tablet's undo of a tap whose answer never came: it deletes what the
request created, or, when the request has not arrived, makes sure it never will.

Locks: the services look a request id up after `lock_team` (team, then competition), and a
cancel of an id nobody has sent yet holds the competition's row while it records it, so a
request and its cancel never pass each other.
"""

import hashlib
import json
from collections.abc import Callable
from uuid import UUID

from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from competition.audit import audit_record
from competition.errors import Refusal, ensure_not_final
from competition.locking import lock_competition, lock_team
from competition.models import Competition, Team
from judging.models import Count, Finish, RequestId, Warning
from judging.services._shared import decided_refusal, deciding_objection, user_or_none

__all__ = ["IdempotencyConflict", "request_cancel"]

Outcome = RequestId.Outcome
KIND = {Finish: RequestId.Kind.FINISH, Count: RequestId.Kind.COUNT, Warning: RequestId.Kind.WARNING}
MODEL = {kind: model for model, kind in KIND.items()}
# What each record's answer needs read along with it.
_RELATED = {
    Finish: ("team", "puzzle", "registered_by"),
    Count: ("team", "puzzle", "registered_by"),
    Warning: ("team", "given_by"),
}
DELETED, NEVER_ARRIVED = "deleted", "never_arrived"


class IdempotencyConflict(Refusal):
    """The request id was used before with a different payload (HTTP 422)."""

    def __init__(self):
        super().__init__(
            "idempotency_conflict",
            _("This request id was already used for a different registration."),
        )


def _undone(row: RequestId) -> Refusal:
    outcome = Outcome.DELETED if row.outcome == Outcome.CREATED else row.outcome
    messages = {
        Outcome.DELETED: _("What this tap registered has since been deleted; nothing was saved."),
        Outcome.VOIDED: _(
            "The count from this tap was voided by a later finish; nothing was saved."
        ),
        Outcome.CANCELLED: _("This tap was undone; nothing was saved."),
    }
    return Refusal("undone", messages[outcome], outcome=outcome)


def fingerprint(**payload) -> str:
    """The SHA-256 of a request's fields as compact JSON with sorted keys (kept per id)."""
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _plain(answer: Callable, record) -> dict:
    return json.loads(json.dumps(answer(record), cls=DjangoJSONEncoder))


def recall(model, *, request_id: UUID | None, fingerprint: str, competition, answer: Callable):
    """After the team's lock: the record this id created, `.replayed` with its first answer.

    None when the id is new (go ahead and create). `IdempotencyConflict` when the id was
    used with another body, kind or competition; a 409 `undone` when its record is gone.
    """
    if request_id is None:
        return None
    row = RequestId.objects.filter(request_id=request_id).first()
    if row is None:
        return None
    used_elsewhere = row.competition_id != competition.pk
    if used_elsewhere or (row.kind and (row.kind != KIND[model] or row.fingerprint != fingerprint)):
        raise IdempotencyConflict()
    record = None
    if row.outcome == Outcome.CREATED:
        related = model.objects.select_related(*_RELATED[model])
        record = related.filter(request_id=request_id).first()
    if record is None:
        raise _undone(row)
    record.replayed = True
    record.answer = row.answer if row.answer is not None else _plain(answer, record)
    return record


def lock_and_recall(model, team: Team, *, request_id, fingerprint: str, answer: Callable):
    """Lock the team (then its competition) and look the request id up: (team, competition,
    the stored record or None). The head of every idempotent write."""
    team, competition = lock_team(team)
    stored = recall(
        model,
        request_id=request_id,
        fingerprint=fingerprint,
        competition=competition,
        answer=answer,
    )
    return team, competition, stored


def remember(
    request_id: UUID, *, competition_id, team: Team, kind, fingerprint: str, answer, record_id, by
) -> RequestId:
    """Keep the request id with its fingerprint and first answer (inside the caller's
    savepoint: an IntegrityError means another transaction took the id)."""
    return RequestId.objects.create(
        request_id=request_id,
        competition_id=competition_id,
        team=team,
        kind=kind,
        fingerprint=fingerprint,
        answer=answer,
        record_id=record_id,
        user=user_or_none(by),
    )


def create_once(
    model, *, request_id: UUID | None, fingerprint: str, team: Team, by, answer: Callable, **fields
):
    """Create the record and its request id; `.replayed` is False, `.answer` its answer.

    If another transaction took the same request id meanwhile (it waited on the unique
    index), that request's answer is returned (or 422, or `undone`). Any other
    IntegrityError (e.g. the team finished that puzzle) is the caller's.
    """
    try:
        with transaction.atomic():
            record = model.objects.create(request_id=request_id, team=team, **fields)
            record.answer = _plain(answer, record)
            if request_id is not None:
                remember(
                    request_id,
                    competition_id=team.competition_id,
                    team=team,
                    kind=KIND[model],
                    fingerprint=fingerprint,
                    answer=record.answer,
                    record_id=record.pk,
                    by=by,
                )
    except IntegrityError:
        stored = recall(
            model,
            request_id=request_id,
            fingerprint=fingerprint,
            competition=team.competition,
            answer=answer,
        )
        if stored is not None:
            return stored
        raise
    record.replayed = False
    return record


def record_gone(record, outcome: str) -> None:
    """The record was deleted or voided: a resend of its request id is now `undone`."""
    if record.request_id is not None:
        RequestId.objects.filter(request_id=record.request_id, outcome=Outcome.CREATED).update(
            outcome=outcome
        )


# --- the cancel -----------------------------------------------------------------------------


class _Arrived(Exception):
    """The request arrived while the cancel waited for the competition's lock."""


def request_cancel(*, competition: Competition, request_id: UUID, by) -> str:
    """Undo a tap whose answer never came (OFFLINE.md): "deleted" or "never_arrived".

    If the request created a record that is still there, it is deleted (a finish only if it
    is the team's latest, else 409 `not_latest`), audited, the standings version bumped. If
    the request has not arrived, its id is kept as cancelled so that it answers `undone`
    when it does. The same cancel again answers the same, and writes nothing.
    """
    try:
        return _cancel(competition, request_id, by)
    except _Arrived:
        # Locks are taken team first: start again, now knowing the request's team.
        return _cancel(competition, request_id, by)


@transaction.atomic
def _cancel(competition: Competition, request_id: UUID, by) -> str:
    row = RequestId.objects.filter(request_id=request_id).first()
    if row is None or row.team_id is None:
        return _cancel_unknown(competition, request_id, by)
    team, competition_locked = lock_team(row.team)
    row = RequestId.objects.get(pk=row.pk)
    if row.competition_id != competition.pk:
        raise IdempotencyConflict()
    if row.outcome != Outcome.CREATED:
        return DELETED
    ensure_not_final(competition_locked)
    if row.kind == RequestId.Kind.CONFIRM:
        from judging.services.second_count import confirm_cancel

        confirm_cancel(row, team, competition_locked, by)
        row.outcome = Outcome.CANCELLED
        row.save(update_fields=["outcome", "changed_at"])
        return DELETED
    model = MODEL[row.kind]
    record = model.objects.select_related(*_RELATED[model]).filter(request_id=request_id).first()
    if record is not None:
        _ensure_undecided(record, team)
        _delete(record, team, competition_locked, by)
    row.outcome = Outcome.CANCELLED
    row.save(update_fields=["outcome", "changed_at"])
    return DELETED


def _cancel_unknown(competition: Competition, request_id: UUID, by) -> str:
    """No request with this id has arrived (as far as we know before the lock)."""
    competition = lock_competition(competition)
    row = RequestId.objects.filter(request_id=request_id).first()
    if row is not None:
        if row.competition_id != competition.pk:
            raise IdempotencyConflict()
        if row.team_id is not None:
            raise _Arrived()
        return NEVER_ARRIVED if not row.kind else DELETED
    ensure_not_final(competition)
    try:
        with transaction.atomic():
            RequestId.objects.create(
                request_id=request_id,
                competition=competition,
                outcome=Outcome.CANCELLED,
                user=user_or_none(by),
            )
    except IntegrityError:  # taken meanwhile in another competition
        raise IdempotencyConflict() from None
    audit_record(
        competition=competition,
        user=by,
        action="request_cancel",
        after={"request_id": str(request_id), "cancelled": NEVER_ARRIVED},
        reason=_("Undone on the tablet before the request arrived."),
    )
    competition.bump_standings()
    return NEVER_ARRIVED


def _ensure_undecided(record, team: Team) -> None:
    """DESIGN.md `decided`: a late cancel from a tablet never undoes what a resolved
    objection decided (the finish, or the count its undo would void), whoever sends it."""
    objection = None
    if isinstance(record, Finish):
        objection = deciding_objection(finish=record)
        count = Count.objects.filter(team=team).first()
        if objection is None and count is not None:
            objection = deciding_objection(count=count)
    elif isinstance(record, Count):
        objection = deciding_objection(count=record)
    if objection is not None:
        raise decided_refusal(objection)


def _delete(record, team: Team, competition: Competition, by) -> None:
    """Delete what the cancelled request created, audited, the standings version bumped."""
    from judging.services.counts import void_count
    from judging.services.finishes import finish_delete

    reason = _("Undone on the tablet.")
    if isinstance(record, Finish):
        finish_delete(finish=record, by=by, reason=reason)  # or `not_latest`
        return
    if isinstance(record, Count):
        void_count(team, by, reason)
    else:
        before = {"id": record.pk, "reason": record.reason}
        record.delete()
        audit_record(
            competition=competition,
            user=by,
            action="warning_delete",
            team=team,
            before=before,
            reason=reason,
        )
    competition.bump_standings()
