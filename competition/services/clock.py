"""The clock (R4, R10): start, correct the start, stop early; the automatic end is start +
duration.

Every time a judge registers is measured from the start (R4) and lies before the clock's end
(R10), so the clock never moves under a registered record: a stop before a registered finish
is refused (`finishes_after_stop`, naming the teams), and the start is corrected only while
nothing is registered (`has_finishes`). A start in the future, or so far back that the clock
would already have ended (a day's typo), is a 400: it could never be right.
"""

from datetime import datetime, timedelta

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from competition.audit_actions import (
    CLOCK_CORRECT,
    CLOCK_START,
    CLOCK_STOP,
    CLOCK_STOP_UNDO,
    Action,
)
from competition.errors import Refusal
from competition.models import AuditEntry, Competition, Team
from competition.services.table_plan import ensure_clock_free
from competition.writes import Write, write
from puzzle_rules import rules
from puzzle_rules.formatting import format_hms

__all__ = [
    "STOP_UNDO_WINDOW",
    "clock_correct",
    "clock_start",
    "clock_stop",
    "clock_stop_undo",
    "stop_undo_until",
]

# A mistaken "Stop the clock" can be undone this long after it was pressed.
STOP_UNDO_WINDOW = timedelta(minutes=2)


def _saved(w: Write, action: Action, before: dict) -> None:
    """Save the clock's moments and audit them; `write` bumps the standings version."""
    w.competition.save(update_fields=["started_at", "stopped_at"])
    w.audit(action, before=before, after=w.competition.clock().moments())


def _written(competition: Competition) -> Competition:
    """The competition as the write left it (its standings version bumped on exit)."""
    competition.refresh_from_db(fields=["standings_version"])
    return competition


def _moment(value: datetime) -> str:
    return timezone.localtime(value).strftime("%d.%m.%Y %H:%M:%S")


def _check_start(competition: Competition, started_at: datetime, now: datetime) -> None:
    """R4: a start is not in the future, and not so far back that the clock has ended."""
    if started_at > now:
        raise ValidationError(
            {"started_at": _("The start cannot be in the future; leave it empty to start now.")}
        )
    if started_at + competition.duration <= now:
        raise ValidationError(
            {
                "started_at": ngettext(
                    "Started at %(start)s, the %(minutes)s minute would already be over: "
                    "check the date and the time.",
                    "Started at %(start)s, the %(minutes)s minutes would already be over: "
                    "check the date and the time.",
                    competition.duration_minutes,
                )
                % {"start": _moment(started_at), "minutes": competition.duration_minutes}
            }
        )


def _ensure_started(competition: Competition) -> None:
    if competition.started_at is None:
        raise Refusal("clock_not_started", _("The clock has not been started yet."))


def _has_registrations(competition: Competition) -> bool:
    """Has any team of `competition` a finish or a count? (Through the teams' relations.)"""
    teams = Team.objects.filter(competition=competition)
    return (
        teams.filter(finishes__isnull=False).exists() or teams.filter(count__isnull=False).exists()
    )


def _ensure_no_finish_after(competition: Competition, end: datetime) -> None:
    """R10: refuse an end that would put a registered finish after it (naming the teams)."""
    end_s = int((end - competition.started_at).total_seconds())
    late = list(
        Team.objects.filter(competition=competition, finishes__elapsed_seconds__gt=end_s)
        .distinct()
        .order_by("table")
        .only("id", "name", "table")
    )
    if not late:
        return
    names = ", ".join(
        _("%(name)s (table %(table)d)") % {"name": t.name, "table": t.table} for t in late
    )
    raise Refusal(
        "finishes_after_stop",
        _(
            "The clock cannot end at %(time)s: finishes are registered after it for %(names)s. "
            "Correct those finishes first, or stop the clock at their time or later."
        )
        % {"time": format_hms(end_s), "names": names},
        teams=[{"id": t.pk, "name": t.name, "table": t.table} for t in late],
    )


def clock_start(*, competition: Competition, by, started_at: datetime | None = None) -> Competition:
    """R4: start the clock; `started_at` back-dates it (when it really started), never later,
    and not so far back that the clock would already have ended."""
    with write(competition=competition, by=by) as w:
        competition = w.competition
        if competition.started_at is not None:
            raise Refusal("already_started", _("The clock has already been started."))
        if not competition.puzzles.exists():
            raise Refusal(
                "no_puzzles",
                _("The competition has no puzzles yet; add the puzzle sequence first."),
            )
        positions = list(competition.puzzles.values_list("position", flat=True))
        try:
            rules.check_puzzle_sequence(positions)
        except rules.RuleViolation:
            raise Refusal(
                "puzzle_sequence",
                _(
                    "The puzzles are numbered %(positions)s: the sequence must be 1 to %(n)d "
                    "without gaps (rule 7). Correct the sequence in the setup first."
                )
                % {"positions": ", ".join(map(str, sorted(positions))), "n": len(positions)},
            ) from None
        now = timezone.now()
        if started_at is None:
            started_at = now
        _check_start(competition, started_at, now)
        # one hall, one table plan: not while another competition's entrant holds a table
        ensure_clock_free(competition, started_at=started_at)
        before = competition.clock().moments()
        competition.started_at = started_at
        _saved(w, CLOCK_START, before)
    return _written(competition)


def clock_correct(*, competition: Competition, by, started_at: datetime) -> Competition:
    """R4, docs/day.md: move the start of a running clock to when it really started.

    Only while no finish or count is registered (`has_finishes`): their times are measured
    from the start, and moving it would move them. The same rules as a start apply to the
    new time (not in the future, the clock not already over).
    """
    with write(competition=competition, by=by) as w:
        competition = w.competition
        _ensure_started(competition)
        now = timezone.now()
        if competition.has_ended(now):
            raise Refusal(
                "clock_stopped",
                _("The clock has already stopped; the start can no longer be moved."),
            )
        if _has_registrations(competition):
            raise Refusal(
                "has_finishes",
                _(
                    "Finishes or counts are already registered, and their times are measured "
                    "from the start: it can no longer be moved. Correct the times of the "
                    "finishes instead."
                ),
            )
        _check_start(competition, started_at, now)
        if started_at == competition.started_at:
            return competition  # already so: nothing to write (a second click)
        ensure_clock_free(competition, started_at=started_at)
        before = competition.clock().moments()
        competition.started_at = started_at
        _saved(w, CLOCK_CORRECT, before)
    return _written(competition)


def clock_stop(*, competition: Competition, by, stopped_at: datetime | None = None) -> Competition:
    """R10: stop the clock early; it also ends by itself at start + duration. Not before a
    registered finish (`finishes_after_stop`, naming the teams)."""
    with write(competition=competition, by=by) as w:
        competition = w.competition
        _ensure_started(competition)
        now = timezone.now()
        if competition.has_ended(now):
            raise Refusal("clock_stopped", _("The clock has already stopped; time is up."))
        if stopped_at is None:
            stopped_at = now
        elif stopped_at > now:
            raise ValidationError({"stopped_at": _("The stop cannot be in the future.")})
        elif stopped_at < competition.started_at:
            raise ValidationError({"stopped_at": _("The stop cannot be before the clock started.")})
        _ensure_no_finish_after(competition, stopped_at)
        before = competition.clock().moments()
        competition.stopped_at = stopped_at
        _saved(w, CLOCK_STOP, before)
    return _written(competition)


def stop_undo_until(competition: Competition) -> datetime | None:
    """Until when the early stop of `competition` may be undone (None: there is none).

    The window counts from when "Stop" was pressed (its audit entry), not from the stop's
    time, which the head judge may have back-dated."""
    if competition.stopped_at is None:
        return None
    pressed = (
        AuditEntry.objects.filter(competition=competition, action=CLOCK_STOP.name)
        .order_by("-at", "-id")
        .values_list("at", flat=True)
        .first()
    )
    return (pressed or competition.stopped_at) + STOP_UNDO_WINDOW


def clock_stop_undo(*, competition: Competition, by) -> Competition:
    """R10: undo a mistaken early stop for a short while, so the official clock
    runs on to start + duration. Refused once a count exists (counting began on the stop),
    once the automatic end has passed meanwhile, and after `STOP_UNDO_WINDOW`."""
    with write(competition=competition, by=by) as w:
        competition = w.competition
        _ensure_started(competition)
        if competition.stopped_at is None:
            raise Refusal("clock_not_stopped", _("The clock has not been stopped early."))
        now = timezone.now()
        if now >= competition.ends_at:
            raise Refusal(
                "clock_ended",
                _("The planned end has passed meanwhile: time is up, the stop stays."),
            )
        if Team.objects.filter(competition=competition, count__isnull=False).exists():
            raise Refusal(
                "has_counts",
                _("A count is already registered: the stop can no longer be undone."),
            )
        if now > stop_undo_until(competition):
            raise Refusal(
                "undo_too_late",
                ngettext(
                    "The stop can only be undone within %(minutes)d minute.",
                    "The stop can only be undone within %(minutes)d minutes.",
                    minutes := STOP_UNDO_WINDOW.seconds // 60,
                )
                % {"minutes": minutes},
            )
        ensure_clock_free(competition, started_at=competition.started_at)
        before = competition.clock().moments()
        competition.stopped_at = None
        _saved(w, CLOCK_STOP_UNDO, before)
    return _written(competition)
