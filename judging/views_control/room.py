"""The control room's page: the clock, status at a glance, the teams, the tablets and the
objections panels (R4, R10, R18, R20)."""

from datetime import datetime, timedelta

from django.db.models import Count as CountOf
from django.db.models import Max
from django.shortcuts import render
from django.utils import timezone

from competition.models import Competition, Status, Team
from competition.roles import ADMIN, staff_view
from competition.selectors import later_rounds, source_rounds
from judging.count_state import outstanding, with_count_states
from judging.selectors import objections_panel
from judging.views_control import championship
from judging.views_control.clock import ClockCorrectForm, ClockStartForm, clock_context
from judging.views_control.tablets import tablets_context
from puzzle_rules.formatting import format_hms


def _hms(seconds: int | None) -> str:
    return "" if seconds is None else format_hms(seconds)


def _teams(competition: Competition) -> list[Team]:
    """Every team with its finishes counted, last time, warnings and the state of its count
    (`judging.count_state`, the rule finalise reads): fixed queries."""
    teams = (
        Team.objects.filter(competition=competition)
        .select_related("count")
        .annotate(
            n_finished=CountOf("finishes", distinct=True),
            n_warnings=CountOf("warnings", distinct=True),
            last_seconds=Max("finishes__elapsed_seconds"),
        )
        .order_by("table")
    )
    return with_count_states(competition, list(teams))


def _glance(competition: Competition, teams: list[Team]) -> dict:
    """Status at a glance: teams on each puzzle, finished everything, and once time is up
    the counts finalise waits for: none yet, waiting for the second count, or differing."""
    puzzles = list(competition.puzzles.all())
    total = len(puzzles)
    competing = [t for t in teams if t.competing]
    on = {p.position: 0 for p in puzzles}
    for t in competing:
        if t.n_finished < total:
            on[t.n_finished + 1] += 1
    ended = competition.has_ended()
    missing = outstanding(teams) if ended else []
    return {
        "puzzles": [(p, on[p.position]) for p in puzzles],
        "all_done": sum(1 for t in competing if total and t.n_finished >= total),
        "competing": len(competing),
        "withdrawn": sum(1 for t in teams if t.withdrawn),
        "disqualified": sum(1 for t in teams if t.disqualified),
        "counts_missing": missing,
        "ended": ended,
    }


def _local_input(moment: datetime) -> str:
    """A moment as a datetime-local field's value, in Danish time, to the second."""
    return timezone.localtime(moment).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%S")


# The start corrected by a button, not by typing a date-time to the second.
SHIFTS = (-30, 30)


def _shifts(started_at: datetime) -> list[dict]:
    """The "−30 s" / "+30 s" buttons: each sends the start it moves to (exact, so that a
    double tap sends the same start twice and the service writes it once)."""
    return [
        {
            "seconds": s,
            "label": f"{'−' if s < 0 else '+'}{abs(s)} s",
            "value": timezone.localtime(started_at + timedelta(seconds=s)).strftime(
                "%Y-%m-%dT%H:%M:%S.%f"
            ),
        }
        for s in SHIFTS
    ]


def _search(teams: list[Team], q: str) -> list[Team]:
    """The team table found by a table number or a part of the name."""
    q = q.strip().casefold()
    if not q:
        return teams
    return [t for t in teams if q in t.name.casefold() or q == str(t.table)]


@staff_view(ADMIN, puzzles=True, championship=championship.room)
def room(request, competition):
    """A competition's control room; a championship's slug: the championship's
    (judging/views_control/championship.py)."""
    teams = _teams(competition)
    for t in teams:
        t.last_hms = _hms(t.last_seconds)
    q = request.GET.get("q", "")[:100]
    now = timezone.now()
    clock = competition.clock(now)
    status = clock.status
    registered = any(t.n_finished or getattr(t, "count", None) for t in teams)
    context = {
        "competition": competition,
        "teams": _search(teams, q),
        "teams_total": len(teams),
        "q": q.strip(),
        "glance": _glance(competition, teams),
        "status": status,
        "status_label": Status(status).label,
        "clock": clock,
        "elapsed_hms": _hms(clock.elapsed_seconds),
        "remaining_hms": _hms(clock.remaining_seconds),
        "start_form": ClockStartForm(initial={"started_at": _local_input(now)}),
        # docs/day.md: started 30 seconds late, the head judge corrects the start (R4); only
        # while nothing is registered, whose times are measured from the start.
        "correct_form": (
            ClockCorrectForm(initial={"started_at": _local_input(competition.started_at)})
            if status == Status.RUNNING and not registered
            else None
        ),
        **clock_context(competition, teams, now),
    }
    if context["correct_form"] is not None:
        context["shifts"] = _shifts(competition.started_at)
    if request.htmx and request.htmx.target == "control-live":
        return render(request, "judging/_control_live.html", context)
    context["tablets_panel"] = tablets_context(request, competition, now)
    # A round of a championship takes its entrants from the earlier rounds of its discipline
    # before its start (championships' advance page, control:advance); a first round (a
    # heat) has none, and no link (competition.selectors.source_rounds). A round with
    # entrants of its own (registered or imported, not gone on from a round) and a round
    # after it is a heat too, also one planned after another heat: no link there either (a
    # final with a wildcard entrant keeps it).
    own_entrants = any(team.advanced_from_id is None for team in teams)
    context["advance_rounds"] = (
        (status == Status.SETUP or not teams)
        and source_rounds(competition=competition).exists()
        and not (own_entrants and later_rounds(competition=competition).exists())
    )
    context["panel"] = objections_panel(competition, now)
    return render(request, "judging/control_room.html", context)
