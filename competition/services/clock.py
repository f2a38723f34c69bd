"""The clock (R4, R10): start, stop early; the automatic end is start + duration."""

from datetime import datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from competition.errors import Refusal, ensure_not_final
from competition.models import Competition
from judging.audit import audit_record

__all__ = ["clock_start", "clock_stop"]


def _clock(competition: Competition) -> dict:
    return {
        "started_at": competition.started_at,
        "ends_at": competition.ends_at,
        "stopped_at": competition.stopped_at,
    }


def _saved(competition: Competition, by, action: str, before: dict) -> Competition:
    competition.save(update_fields=["started_at", "stopped_at"])
    audit_record(
        competition=competition, user=by, action=action, before=before, after=_clock(competition)
    )
    competition.bump_standings()
    competition.refresh_from_db(fields=["standings_version"])
    return competition


@transaction.atomic
def clock_start(*, competition: Competition, by, started_at: datetime | None = None) -> Competition:
    """R4: start the clock; `started_at` back-dates it (when it really started), never later."""
    competition = Competition.objects.select_for_update().get(pk=competition.pk)
    ensure_not_final(competition)
    if competition.started_at is not None:
        raise Refusal("already_started", _("The clock has already been started."))
    if not competition.puzzles.exists():
        raise Refusal(
            "no_puzzles", _("The competition has no puzzles yet; add the puzzle sequence first.")
        )
    now = timezone.now()
    if started_at is None:
        started_at = now
    elif started_at > now:
        raise ValidationError(
            {"started_at": _("The start cannot be in the future; leave it empty to start now.")}
        )
    before = _clock(competition)
    competition.started_at = started_at
    return _saved(competition, by, "clock_start", before)


@transaction.atomic
def clock_stop(*, competition: Competition, by, stopped_at: datetime | None = None) -> Competition:
    """R10: stop the clock early; it also ends by itself at start + duration."""
    competition = Competition.objects.select_for_update().get(pk=competition.pk)
    ensure_not_final(competition)
    if competition.started_at is None:
        raise Refusal("clock_not_started", _("The clock has not been started yet."))
    now = timezone.now()
    if competition.has_ended(now):
        raise Refusal("clock_stopped", _("The clock has already stopped; time is up."))
    if stopped_at is None:
        stopped_at = now
    elif stopped_at > now:
        raise ValidationError({"stopped_at": _("The stop cannot be in the future.")})
    elif stopped_at < competition.started_at:
        raise ValidationError({"stopped_at": _("The stop cannot be before the clock started.")})
    before = _clock(competition)
    competition.stopped_at = stopped_at
    return _saved(competition, by, "clock_stop", before)
