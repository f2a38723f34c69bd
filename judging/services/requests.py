"""Request ids: a device's id for each tap, kept for the whole competition (docs/offline.md).

Every finish, count and warning sent with a `request_id` leaves a `RequestId` row with the
fingerprint of its body, the first answer and the outcome of the record it created. The
row outlives the record:

- the same id and body again answers the first answer (`.replayed`, HTTP 200);
- the same id with another body raises `IdempotencyConflict` (HTTP 422);
- once the record was deleted, voided by a later finish or cancelled, the same id answers
  409 `undone` and nothing is written again.

Locks: the services look a request id up under the write's locks (team, then
competition: `write(recall=recaller(...))`, competition/writes.py).

The bottom floor of `judging.services`: it imports models and the ground floor only, never
another service (pyproject's import-linter contract). The tablet's undo of a tap,
`request_cancel`, is a floor above it (`judging.services.cancel`).
"""

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from uuid import UUID

from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from competition.audit import user_or_none
from competition.errors import Refusal
from competition.models import Team
from judging.models import Count, Finish, RequestId, Warning

__all__ = [
    "IdempotencyConflict",
    "Once",
    "create_once",
    "fingerprint",
    "recall",
    "recaller",
    "record_gone",
    "remember",
]

Outcome = RequestId.Outcome
KIND = {Finish: RequestId.Kind.FINISH, Count: RequestId.Kind.COUNT, Warning: RequestId.Kind.WARNING}
MODEL = {kind: model for model, kind in KIND.items()}
# What each record's answer needs read along with it.
RELATED = {
    Finish: ("team", "puzzle", "registered_by"),
    Count: ("team", "puzzle", "registered_by"),
    Warning: ("team", "given_by"),
}


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
        related = model.objects.select_related(*RELATED[model])
        record = related.filter(request_id=request_id).first()
    if record is None:
        raise _undone(row)
    record.replayed = True
    record.answer = row.answer if row.answer is not None else _plain(answer, record)
    return record


@dataclass(frozen=True)
class Once:
    """One tap's request: `write(recall=once)` looks up, under the locks, the record its id
    created before (`recall`); `once.create(...)` creates the record and its id
    (`create_once`)."""

    model: type
    request_id: UUID | None
    fingerprint: str
    answer: Callable

    def __call__(self, competition):
        return recall(
            self.model,
            request_id=self.request_id,
            fingerprint=self.fingerprint,
            competition=competition,
            answer=self.answer,
        )

    def create(self, *, team: Team, by, **fields):
        return create_once(
            self.model,
            request_id=self.request_id,
            fingerprint=self.fingerprint,
            team=team,
            by=by,
            answer=self.answer,
            **fields,
        )


def recaller(model, *, request_id: UUID | None, fingerprint: str, answer: Callable) -> Once:
    """For `write(recall=...)` and the record's creation: see `Once`."""
    return Once(model, request_id, fingerprint, answer)


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
