"""The desk across a championship (docs/contracts.md "A championship of several competitions"):
every entrant of every competition of the championship on one list, found by a name or a
table number as on a competition's desk, checked in (R2) through the same services, each row
naming its competition. The addresses are the competition desk's with the championship's
slug: `staff_view(..., championship=...)` (competition/roles.py) sends a championship's slug
here, after the same login and role checks."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _

from competition import selectors
from competition.errors import Refusal
from competition.inputs import whole_number
from competition.models import Championship, Competition, Team
from competition.views_desk.lists import FILTERS, added_first, is_missing, matches

__all__ = [
    "desk",
    "missing",
    "refunds",
    "row_action",
    "walk_in_choice",
    "walk_in_competition",
]


def _filters() -> list[tuple[str, str, str]]:
    return [
        ("", _("All"), "all"),
        ("in", _("Checked in"), "in"),
        ("missing", _("Not checked in"), "missing"),
        ("unpaid", _("Fee unpaid"), "unpaid"),
        ("withdrawn", _("Withdrawn"), "withdrawn"),
    ]


def _summary(competitions: list[Competition], teams: list[Team], now) -> list[dict]:
    """Each competition's check-in at a glance: entrants (not withdrawn), checked in, not
    checked in, and whether its deadline (R2) has passed."""
    rows = []
    for competition in competitions:
        active = [t for t in teams if t.competition_id == competition.pk and not t.withdrawn]
        checked = sum(1 for t in active if t.checked_in_at)
        rows.append(
            {
                "competition": competition,
                "all": len(active),
                "in": checked,
                "missing": len(active) - checked,
                "past_deadline": now >= competition.check_in_deadline,
            }
        )
    return rows


def _mark(teams: list[Team], now) -> None:
    """Each row's own deadline (R2): its competition's."""
    for team in teams:
        team.past_deadline = now >= team.competition.check_in_deadline


def _context(request, championship: Championship) -> dict:
    competitions = selectors.championship_competitions(championship=championship)
    teams = selectors.championship_teams(championship=championship, competitions=competitions)
    q = request.GET.get("q", "").strip()[:100]
    f = request.GET.get("f", "")
    f = f if f in FILTERS else ""
    shown = [t for t in teams if matches(t, q) and FILTERS.get(f, lambda t: True)(t)]
    added_first(shown, whole_number(request.GET.get("added", "")))
    now = timezone.now()
    _mark(shown, now)
    return {
        "championship": championship,
        "competitions": competitions,
        "summary": _summary(competitions, teams, now),
        "teams": shown,
        "q": q,
        "f": f,
        "filters": _filters(),
    }


def desk(request, championship: Championship):
    """The desk across the championship: search, filters, each competition's check-in
    counts, check-in in one tap (desk and admin roles)."""
    context = _context(request, championship)
    if request.htmx and request.htmx.target == "team-list":
        return render(request, "competition/_desk_championship_list_answer.html", context)
    return render(request, "competition/desk_championship.html", context)


def _row_answer(request, championship: Championship, team: Team, status: str, refused: bool):
    """After a tap: the entrant's row, the counts and what was done (out of band), or back
    to the list."""
    if not request.htmx:
        (messages.error if refused else messages.success)(request, status)
        return redirect("desk:teams", slug=championship.slug)
    competitions = selectors.championship_competitions(championship=championship)
    teams = selectors.championship_teams(
        championship=championship, competitions=competitions, members=False
    )
    row = selectors.team_with_members(team=team)
    row.competition = next(c for c in competitions if c.pk == row.competition_id)
    now = timezone.now()
    _mark([row], now)
    return render(
        request,
        "competition/_desk_championship_row_answer.html",
        {
            "championship": championship,
            "team": row,
            "summary": _summary(competitions, teams, now),
            "status": status,
            "refused": refused,
        },
    )


def row_action(service, status, arguments=lambda request: {}):
    """The championship's side of a one-tap write on an entrant's row
    (competition/views_desk/teams.py `_team_action`): the entrant of any competition of the
    championship (404 for another's), the same service (its lock, its refusals, its audit
    entry; `arguments(request)`: the tap's own, as the fee's paid or not), the row answered
    with its competition named. A refusal (the results are final) is said in the status line
    and writes nothing."""

    def view(request, championship: Championship, pk: int):
        team = selectors.championship_team_get(championship=championship, pk=pk)
        competition = team.competition
        try:
            team = service(team=team, by=request.user, **arguments(request))
        except Refusal as refusal:
            return _row_answer(request, championship, team, str(refusal.message), True)
        team.competition = competition
        return _row_answer(request, championship, team, status(team), False)

    return view


def _open(championship: Championship) -> list[Competition]:
    """The competitions a walk-in can still join: those whose results are not final."""
    competitions = selectors.championship_competitions(championship=championship)
    return [c for c in competitions if c.finalised_at is None]


def walk_in_competition(request, championship: Championship) -> Competition | None:
    """The competition a walk-in is registered in (`?competition=<slug>`, one of `_open`)."""
    chosen = request.GET.get("competition", "")
    return next((c for c in _open(championship) if c.slug == chosen), None)


def walk_in_choice(request, championship: Championship):
    """A walk-in at the championship's desk: first which competition."""
    return render(
        request,
        "competition/desk_championship_walk_in.html",
        {"championship": championship, "competitions": _open(championship)},
    )


def _across(championship: Championship, keep) -> dict:
    """The championship's pages of entrants: its competitions and the entrants `keep` says,
    each with its competition."""
    competitions = selectors.championship_competitions(championship=championship)
    teams = selectors.championship_teams(championship=championship, competitions=competitions)
    return {
        "championship": championship,
        "competitions": competitions,
        "teams": [t for t in teams if keep(t)],
        "now": timezone.now(),
    }


def missing(request, championship: Championship):
    """ "Mangler" across the championship: the entrants not checked in (R2) of its
    competitions not yet final, with the contact's phone, to call round or print."""
    context = _across(championship, lambda t: is_missing(t) and t.competition.finalised_at is None)
    for team in context["teams"]:
        team.past_deadline = context["now"] >= team.competition.check_in_deadline
    return render(request, "competition/desk_championship_missing.html", context)


def refunds(request, championship: Championship):
    """P2 across the championship: every entrant that paid its fee, with its competition;
    an entrant that went on to a later round with the fee it paid (advancing carries it) is
    listed once, where it paid."""
    context = _across(championship, lambda t: t.fee_paid)
    paid = {t.pk for t in context["teams"]}
    context["teams"] = [t for t in context["teams"] if t.advanced_from_id not in paid]
    return render(request, "competition/desk_championship_refunds.html", context)
