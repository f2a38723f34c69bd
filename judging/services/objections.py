"""Objections and finalising the results (R20).

An objection is filed at the desk before the prize-giving and resolved by an admin; an
upheld objection's correction goes through the same correction services as any other, so
the audit entry names the objection. Finalising makes the competition final: after it every
write service refuses with `final` (`ensure_not_final`).

Finalising before the clock has started is refused with `clock_not_started` (there are no
results to make final); while the clock runs, with `clock_running`.
"""

from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from competition.audit import audit_record
from competition.errors import Refusal, Vanished, ensure_not_final
from competition.locking import lock_competition, lock_team
from competition.models import Competition, Team
from judging import selectors
from judging.models import Count, Finish, Objection, Tablet
from judging.services.counts import check_count_form, count_correct
from judging.services.finishes import check_missing, finish_correct

__all__ = [
    "competition_finalise",
    "objection_file",
    "objection_resolve",
    "tablet_dict",
]


def _objection_dict(objection: Objection) -> dict:
    return {
        "id": objection.pk,
        "team": objection.team_id,
        "finish": objection.finish_id,
        "count": objection.count_id,
        "text": objection.text,
        "decision": objection.decision,
        "note": objection.note,
        "resolved_at": objection.resolved_at,
    }


@transaction.atomic
def objection_file(
    *, team: Team, by, text: str, finish: Finish | None = None, count: Count | None = None
) -> Objection:
    """R20: the desk takes a team's objection, before the prize-giving.

    The finish or count it is about must be the team's own (400 `other_team`), checked
    before the state, like every input that could never be right."""
    text = (text or "").strip()
    errors = {}
    if not text:
        errors["text"] = _("Write what the team objects to.")
    if finish is not None and finish.team_id != team.pk:
        errors["finish"] = ValidationError(
            _("This finish belongs to another team."), code="other_team"
        )
    if count is not None and count.team_id != team.pk:
        errors["count"] = ValidationError(
            _("This count belongs to another team."), code="other_team"
        )
    if errors:
        raise ValidationError(errors)
    team, competition = lock_team(team)
    if competition.is_final:
        raise Refusal(
            "final",
            _(
                "The results are final: objections must be made at the desk before the "
                "prize-giving (R20)."
            ),
        )
    # A double tap at the desk, a second tab or a resend after a lost answer files the same
    # open objection again: it is that one, not a second that finalise would wait for.
    same = Objection.objects.filter(
        team=team, finish=finish, count=count, text=text, decision=Objection.Decision.OPEN
    ).first()
    if same is not None:
        same.replayed = True
        return same
    objection = Objection(team=team, finish=finish, count=count, text=text, filed_by=by)
    objection.full_clean()
    objection.save()
    objection.replayed = False
    audit_record(
        competition=competition,
        user=by,
        action="objection_file",
        team=team,
        after=_objection_dict(objection),
        objection=objection,
    )
    # The standings mark the team "under review" while the objection is open.
    competition.bump_standings()
    return objection


@transaction.atomic
def objection_resolve(
    *,
    objection: Objection,
    by,
    decision: str,
    note: str,
    elapsed_seconds: int | None = None,
    missing: Sequence[int] | None = None,
    pieces: int | None = None,
) -> Objection:
    """R20: an admin upholds or rejects an objection, with a note.

    Upheld with a correction: the finish's time or missing spots, or the count's pieces, are
    corrected through `finish_correct` / `count_correct` with the note as the reason, and
    their audit entries name this objection.
    """
    # R8, R9 on the correction's input first: it could never be right (400 before 409).
    if pieces is not None:
        check_count_form(pieces, None)
    about_finish, about_count = objection.finish_id, objection.count_id
    finish = Finish.objects.select_related("puzzle").filter(pk=about_finish).first()
    if missing is not None and finish is not None:
        check_missing(missing, finish.puzzle)
    _team, competition = lock_team(objection.team)
    ensure_not_final(competition)
    objection = Objection.objects.select_for_update().filter(pk=objection.pk).first()
    if objection is None:
        raise Vanished(_("This objection no longer exists."))
    if not objection.is_open:
        raise Refusal(
            "already_resolved",
            _("This objection was already %(decision)s by %(user)s.")
            % {
                "decision": objection.get_decision_display().lower(),
                "user": objection.resolved_by.get_username() if objection.resolved_by else "?",
            },
        )
    note = (note or "").strip()
    corrects_finish = elapsed_seconds is not None or missing is not None
    corrects_count = pieces is not None
    # What it corrects was deleted since the page was read (an undo, a void): 404.
    if (corrects_finish and about_finish and objection.finish_id is None) or (
        corrects_count and about_count and objection.count_id is None
    ):
        raise Vanished(
            _("What this objection is about has since been deleted; nothing was changed.")
        )
    errors = {}
    if decision not in (Objection.Decision.UPHELD, Objection.Decision.REJECTED):
        errors["decision"] = _("Choose upheld or rejected.")
    if not note:
        errors["note"] = _("Write the reason for the decision: it is kept with the objection.")
    if decision == Objection.Decision.REJECTED and (corrects_finish or corrects_count):
        errors["decision"] = _("A rejected objection changes nothing: leave the correction out.")
    if corrects_finish and objection.finish_id is None:
        errors["elapsed_seconds"] = _(
            "This objection is not about a finish, so there is no time or missing pieces to "
            "correct."
        )
    if corrects_count and objection.count_id is None:
        errors["pieces"] = _(
            "This objection is not about a count, so there is no count to correct."
        )
    if errors:
        raise ValidationError(errors)

    before = _objection_dict(objection)
    if decision == Objection.Decision.UPHELD:
        if corrects_finish:
            finish_correct(
                finish=objection.finish,
                by=by,
                reason=note,
                elapsed_seconds=elapsed_seconds,
                missing=missing,
                objection=objection,
            )
        if corrects_count:
            count_correct(
                count=objection.count, by=by, reason=note, pieces=pieces, objection=objection
            )
    objection.decision = decision
    objection.note = note
    objection.resolved_by = by
    objection.resolved_at = timezone.now()
    objection.save(update_fields=["decision", "note", "resolved_by", "resolved_at"])
    audit_record(
        competition=competition,
        user=by,
        action="objection_resolve",
        team=objection.team,
        before=before,
        after=_objection_dict(objection),
        reason=note,
        objection=objection,
    )
    competition.bump_standings()
    return objection


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
