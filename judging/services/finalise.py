"""Finalising the results (R20): after it every write refuses with `final`.

Finalising before the clock has started is refused with `clock_not_started` (there are no
results to make final); while the clock runs, with `clock_running`.
"""

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

from competition.audit import user_or_none
from competition.audit_actions import COMPETITION_FINALISE
from competition.models import Competition
from competition.writes import write
from judging import selectors

__all__ = ["competition_finalise"]


def competition_finalise(
    *, competition: Competition, by, override_taps_waiting: bool = False, reason: str = ""
) -> Competition:
    """R20: the results are final at the prize-giving; after this nothing changes.

    Refused with the first of `selectors.finalise_blockers` (the rule the control room and
    the API read too): the clock not started or running, a judge's tablet with taps it has
    not sent (`taps_waiting`, naming the tablets; `override_taps_waiting` with a `reason`
    finalises anyway, audited), an open objection, a competing team with an unfinished
    puzzle and no count (`counts_missing`), a count waiting for a second count.
    """
    with write(competition=competition.pk, by=by) as w:
        competition = w.competition
        now = timezone.now()
        blockers = selectors.finalise_blockers(competition, now)
        reason = (reason or "").strip()
        waiting: list = []
        for blocker in blockers:
            if blocker.code != "taps_waiting" or not override_taps_waiting:
                raise blocker.refusal()
            if not reason:
                why = _("Give the reason for finalising while taps are waiting on a tablet.")
                raise ValidationError({"reason": why})
            waiting = blocker.tablets
        before = {"finalised_at": None}
        competition.finalised_at = now
        competition.finalised_by = user_or_none(by)
        competition.save(update_fields=["finalised_at", "finalised_by"])
        after = {"finalised_at": competition.finalised_at}
        if waiting:
            after["taps_waiting_overridden"] = [selectors.tablet_dict(t) for t in waiting]
        w.audit(COMPETITION_FINALISE, before=before, after=after, reason=reason if waiting else "")
    competition.refresh_from_db()
    return competition
