"""The control room's objections panel and clock-time formatting (R20)."""

from django import template
from django.utils import timezone

from judging.models import Objection
from judging.services.counts import counts_unconfirmed
from judging.services.objections import finalise_blockers
from scoring.rules import format_hms

register = template.Library()


@register.filter
def hms(seconds) -> str:
    """Whole seconds on the competition clock as h:mm:ss ("1:02:03"); "" for None."""
    if seconds is None or seconds == "":
        return ""
    return format_hms(int(seconds))


@register.simple_tag
def objections_panel(competition) -> dict:
    """What the panel shows: the objections, and what blocks finalising. Five queries."""
    objections = list(
        Objection.objects.filter(team__competition=competition)
        .select_related("team", "filed_by", "resolved_by", "finish__puzzle", "count__puzzle")
        .order_by("filed_at", "id")
    )
    now = timezone.now()
    blockers = [] if competition.is_final else _blockers(competition, now)
    # Taps waiting on a tablet block finalise unless the head judge overrides with a reason.
    taps_waiting = next((b["tablets"] for b in blockers if b["code"] == "taps_waiting"), [])
    return {
        "open": [o for o in objections if o.is_open],
        "resolved": [o for o in objections if not o.is_open][::-1],
        "blockers": blockers,
        "taps_waiting": taps_waiting,
        "can_finalise": not competition.is_final
        and all(b["code"] == "taps_waiting" for b in blockers),
    }


def _blockers(competition, now) -> list[dict]:
    """The reasons competition_finalise would refuse now, as {code, teams?} for the page."""
    if competition.started_at is None:
        return [{"code": "clock_not_started"}]
    if competition.is_running(now):
        return [{"code": "clock_running"}]
    found = finalise_blockers(competition)
    out = []
    if found["taps_waiting"]:
        out.append({"code": "taps_waiting", "tablets": found["taps_waiting"]})
    if found["open_objections"]:
        out.append(
            {
                "code": "objections_open",
                "teams": [o.team for o in found["open_objections"]],
            }
        )
    if found["counts_missing"]:
        out.append({"code": "counts_missing", "teams": found["counts_missing"]})
    unconfirmed = counts_unconfirmed(competition)  # DESIGN.md `second_count`
    if unconfirmed:
        out.append({"code": "counts_unconfirmed", "teams": unconfirmed})
    return out
