"""Objections (R20).

An objection is filed at the desk before the prize-giving and resolved by an admin; an
upheld objection's correction goes through the same correction services as any other, so
the audit entry names the objection. Finalise waits for every open objection
(`judging.services.finalise`).
"""

from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

from competition.audit_actions import OBJECTION_FILE, OBJECTION_RESOLVE
from competition.errors import Refusal, Vanished
from competition.models import Team
from competition.writes import write
from judging.models import Count, Finish, Objection
from judging.services.counts import check_count_form, count_correct
from judging.services.finishes import check_missing, finish_correct

__all__ = ["objection_file", "objection_resolve"]


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
    # `final` with R20's own sentence: objections are made before the prize-giving.
    with write(team=team, by=by, check_final=False) as w:
        team, competition = w.team, w.competition
        if competition.is_final:
            raise Refusal(
                "final",
                _(
                    "The results are final: objections must be made at the desk before the "
                    "prize-giving (rule 20)."
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
        # The standings mark the team "under review" while the objection is open: the
        # write bumps the standings version.
        w.audit(OBJECTION_FILE, after=_objection_dict(objection), objection=objection)
        return objection


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
    with write(team=objection.team, by=by) as w:
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
            errors["decision"] = _(
                "A rejected objection changes nothing: leave the correction out."
            )
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
        w.audit(
            OBJECTION_RESOLVE,
            team=objection.team,
            before=before,
            after=_objection_dict(objection),
            reason=note,
            objection=objection,
        )
        return objection
