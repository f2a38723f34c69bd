"""The tablet's undo of a tap whose answer never came (docs/offline.md): `request_cancel`.

It deletes what the request created, or, when the request has not arrived, makes sure it
never will: the id is kept as cancelled, and the request answers 409 `undone` when it does.

Locks: a cancel of a request that arrived locks the request's team, then its competition
(the one lock order); a cancel of an id nobody has sent yet holds the competition's row
while it records it, so a request and its cancel never pass each other.

A floor above the records it undoes (finishes, counts, the second count) and the request
ids (`judging.services.requests`), which never import it.
"""

from uuid import UUID

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from competition.audit import user_or_none
from competition.audit_actions import REQUEST_CANCEL, WARNING_DELETE
from competition.models import Competition, Team
from competition.writes import Write, write
from judging.models import Count, Finish, RequestId
from judging.services._shared import decided_refusal, deciding_objection
from judging.services.counts import void_count
from judging.services.finishes import finish_delete
from judging.services.requests import MODEL, RELATED, IdempotencyConflict
from judging.services.second_count import confirm_cancel

__all__ = ["request_cancel"]

Outcome = RequestId.Outcome
DELETED, NEVER_ARRIVED = "deleted", "never_arrived"


class _Arrived(Exception):
    """The request arrived while the cancel waited for the competition's lock."""


def request_cancel(*, competition: Competition, request_id: UUID, by) -> str:
    """Undo a tap whose answer never came (docs/offline.md): "deleted" or "never_arrived".

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


def _cancel(competition: Competition, request_id: UUID, by) -> str:
    row = RequestId.objects.filter(request_id=request_id).first()
    if row is None or row.team_id is None:
        return _cancel_unknown(competition, request_id, by)

    def answered(_locked) -> str | None:
        """Under the locks, before `final`: the answer when nothing is left to undo."""
        row.refresh_from_db()
        if row.competition_id != competition.pk:
            raise IdempotencyConflict()
        return DELETED if row.outcome != Outcome.CREATED else None

    with write(team=row.team, by=by, recall=answered) as w:
        if w.stored is not None:
            return w.stored
        if row.kind == RequestId.Kind.CONFIRM:
            confirm_cancel(w, row)
        else:
            model = MODEL[row.kind]
            related = model.objects.select_related(*RELATED[model])
            record = related.filter(request_id=request_id).first()
            if record is not None:
                _ensure_undecided(record, w.team)
                _delete(w, record)
        row.outcome = Outcome.CANCELLED
        row.save(update_fields=["outcome", "changed_at"])
        return DELETED


def _cancel_unknown(competition: Competition, request_id: UUID, by) -> str:
    """No request with this id has arrived (as far as we know before the lock)."""

    def answered(locked: Competition) -> str | None:
        """Under the competition's lock, before `final`: the request's answer if it came."""
        row = RequestId.objects.filter(request_id=request_id).first()
        if row is None:
            return None
        if row.competition_id != locked.pk:
            raise IdempotencyConflict()
        if row.team_id is not None:
            raise _Arrived()
        return NEVER_ARRIVED if not row.kind else DELETED

    with write(competition=competition, by=by, recall=answered) as w:
        if w.stored is not None:
            return w.stored
        try:
            with transaction.atomic():
                RequestId.objects.create(
                    request_id=request_id,
                    competition=w.competition,
                    outcome=Outcome.CANCELLED,
                    user=user_or_none(by),
                )
        except IntegrityError:  # taken meanwhile in another competition
            raise IdempotencyConflict() from None
        w.audit(
            REQUEST_CANCEL,
            after={"request_id": str(request_id), "cancelled": NEVER_ARRIVED},
            reason=_("Undone on the tablet before the request arrived."),
        )
        return NEVER_ARRIVED


def _ensure_undecided(record, team: Team) -> None:
    """docs/contracts.md `decided`: a late cancel from a tablet never undoes what a resolved
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


def _delete(w: Write, record) -> None:
    """Delete what the cancelled request created, audited (the write bumps the standings
    version; a finish's own write does)."""
    reason = _("Undone on the tablet.")
    if isinstance(record, Finish):
        finish_delete(finish=record, by=w.by, reason=reason)  # or `not_latest`
    elif isinstance(record, Count):
        void_count(w, reason)
    else:
        before = {"id": record.pk, "reason": record.reason}
        record.delete()
        w.audit(WARNING_DELETE, before=before, reason=reason)
