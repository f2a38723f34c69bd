"""Finalising the results (R20): after it every write refuses with `final`.

Finalising before the clock has started is refused with `clock_not_started` (there are no
results to make final); while the clock runs, with `clock_running`.
"""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from competition.audit import audit_record
from competition.errors import Refusal, ensure_not_final
from competition.locking import lock_competition
from competition.models import Competition, Team
from judging import selectors
from judging.models import Tablet

__all__ = ["competition_finalise", "tablet_dict"]


def _team_dict(team: Team) -> dict:
    return {"id": team.pk, "name": team.name, "table": team.table}


def tablet_dict(tablet: Tablet) -> dict:
    """A tablet as `taps_waiting` names it: who, which tables, how many taps, since when."""
    return {
        "device_id": tablet.device_id,
        "user": tablet.user.get_username() if tablet.user else None,
        "tables": tablet.tables,
        "waiting": tablet.waiting,
        "oldest_waiting_seconds": tablet.oldest_waiting_seconds,
        "last_seen_at": tablet.last_seen_at,
    }


def _tablet_label(tablet: Tablet) -> str:
    tables = ", ".join(map(str, tablet.tables)) or _("all")
    return _("%(user)s's tablet (tables %(tables)s): %(n)d waiting, last heard from %(time)s") % {
        "user": tablet.user.get_username() if tablet.user else "?",
        "tables": tables,
        "n": tablet.waiting,
        "time": timezone.localtime(tablet.last_seen_at).strftime("%H:%M:%S"),
    }


@transaction.atomic
def competition_finalise(
    *, competition: Competition, by, override_taps_waiting: bool = False, reason: str = ""
) -> Competition:
    """R20: the results are final at the prize-giving; after this nothing changes.

    Refused while the clock has not started (`clock_not_started`) or runs (`clock_running`),
    while a judge's tablet reported taps it has not sent (`taps_waiting`, naming the
    tablets; `override_taps_waiting` with a `reason` finalises anyway, audited), while an
    objection is open (`objections_open`), or while a competing team with an unfinished
    puzzle has no count (`counts_missing`, naming the teams).
    """
    competition = lock_competition(competition.pk)
    ensure_not_final(competition)
    now = timezone.now()
    if competition.started_at is None:
        raise Refusal(
            "clock_not_started",
            _("The clock has not been started: there are no results to make final."),
        )
    if competition.is_running(now):
        raise Refusal(
            "clock_running",
            _("The clock is still running: the results can be made final when time is up."),
        )
    blockers = selectors.finalise_blockers(competition)
    waiting = blockers["taps_waiting"]
    reason = (reason or "").strip()
    if waiting and not override_taps_waiting:
        raise Refusal(
            "taps_waiting",
            _(
                "A judge's tablet has taps it has not sent yet: %(tablets)s. Bring it "
                "onto the Wi-Fi, or finalise anyway with a reason."
            )
            % {"tablets": "; ".join(_tablet_label(t) for t in waiting)},
            tablets=[tablet_dict(t) for t in waiting],
        )
    if waiting and not reason:
        raise ValidationError(
            {"reason": _("Give the reason for finalising while taps are waiting on a tablet.")}
        )
    if blockers["open_objections"]:
        objections = blockers["open_objections"]
        tables = ", ".join(str(o.team.table) for o in objections)
        raise Refusal(
            "objections_open",
            _("Objections are still open (tables %(tables)s): resolve them first.")
            % {"tables": tables},
            objections=[{"id": o.pk, "team": _team_dict(o.team)} for o in objections],
        )
    if blockers["counts_missing"]:
        teams = blockers["counts_missing"]
        names = ", ".join(
            _("%(name)s (table %(table)d)") % {"name": t.name, "table": t.table} for t in teams
        )
        raise Refusal(
            "counts_missing",
            _("Counts are missing for: %(names)s.") % {"names": names},
            teams=[_team_dict(t) for t in teams],
        )
    unconfirmed = selectors.counts_unconfirmed(competition)  # DESIGN.md `second_count`
    if unconfirmed:
        names = ", ".join(
            _("%(name)s (table %(table)d)") % {"name": t.name, "table": t.table}
            for t in unconfirmed
        )
        raise Refusal(
            "counts_unconfirmed",
            _("Counts wait for a second count: %(names)s.") % {"names": names},
            teams=[_team_dict(t) for t in unconfirmed],
        )
    before = {"finalised_at": None}
    competition.finalised_at = now
    competition.finalised_by = by if getattr(by, "is_authenticated", False) else None
    competition.save(update_fields=["finalised_at", "finalised_by"])
    after = {"finalised_at": competition.finalised_at}
    if waiting:
        after["taps_waiting_overridden"] = [tablet_dict(t) for t in waiting]
    audit_record(
        competition=competition,
        user=by,
        action="competition_finalise",
        before=before,
        after=after,
        reason=reason if waiting else "",
    )
    competition.bump_standings()
    competition.refresh_from_db()
    return competition
