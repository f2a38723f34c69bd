"""The control room of a championship (docs/contracts.md "A championship of several
competitions"): its competitions with their discipline, round, status and live clock, each
linking to its own control room, desk and big screen, and the championship's big screen and
desk. The address is a competition's control room with the championship's slug:
`staff_view(..., championship=...)` (competition/roles.py) sends a championship's slug here,
after the same login and role checks (admin)."""

from django.db.models import Count as CountOf
from django.db.models import Q
from django.shortcuts import render
from django.utils import timezone

from competition.clock import Status
from competition.models import Championship, Team
from competition.selectors import championship_competitions
from puzzle_rules.formatting import format_hms

POLL_SECONDS = 5  # a clock started or stopped in a competition's own room shows within this


def _entrants(championship: Championship) -> dict[int, dict]:
    """Per competition: its competing entrants and how many of them are checked in (R2); one
    query whatever the number of competitions and entrants."""
    competing = Q(withdrawn=False, disqualified=False)
    rows = (
        Team.objects.filter(competition__championship=championship)
        .values("competition_id")
        .annotate(
            competing=CountOf("pk", filter=competing),
            checked_in=CountOf("pk", filter=competing & Q(checked_in_at__isnull=False)),
        )
    )
    return {row["competition_id"]: row for row in rows}


def room(request, championship: Championship):
    """The championship's control room: three queries whatever its size (the championship,
    its competitions, their entrants counted); with htmx only the live list (polled)."""
    competitions = championship_competitions(championship=championship)
    entrants = _entrants(championship)
    now = timezone.now()
    items = []
    for competition in competitions:
        clock = competition.clock(now)
        counted = entrants.get(competition.pk, {"competing": 0, "checked_in": 0})
        items.append(
            {
                "c": competition,
                "status": str(clock.status),
                "status_label": Status(clock.status).label,
                "clock": clock,
                "elapsed_hms": format_hms(clock.elapsed_seconds),
                "remaining_hms": format_hms(clock.remaining_seconds),
                "competing": counted["competing"],
                "checked_in": counted["checked_in"],
            }
        )
    context = {
        "championship": championship,
        "items": items,
        "running": sum(1 for item in items if item["status"] == Status.RUNNING),
        "poll_seconds": POLL_SECONDS,
    }
    if request.htmx and request.htmx.target == "championship-live":
        return render(request, "judging/_control_championship_live.html", context)
    return render(request, "judging/control_championship.html", context)
