"""The desk's team list and its one-tap actions, registering and editing a team, refunds
(R2, R3, R17, P2)."""

from datetime import timedelta

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from competition import selectors, services
from competition.errors import Refusal
from competition.forms import TeamForm, member_formset, members_from
from competition.inputs import redirect_next, whole_number
from competition.models import Competition, Discipline, Team
from competition.roles import DESK, staff_view
from competition.views_desk import championship
from competition.views_desk.lists import FILTERS, added_first, is_missing, matches
from competition.words import member_limit


def _desk_context(request, competition: Competition) -> dict:
    teams = selectors.team_list(competition=competition)
    q = request.GET.get("q", "").strip()
    f = request.GET.get("f", "")
    shown = [t for t in teams if matches(t, q) and FILTERS.get(f, lambda t: True)(t)]
    now = timezone.now()
    past_deadline = now >= competition.check_in_deadline
    if past_deadline:  # After the deadline the missing teams first (stable: by table)
        shown.sort(key=lambda t: not is_missing(t))
    # A team just registered (a walk-in at table 41) first and marked; one just edited whose
    # table card is out of date: the reprint suggestion.
    added = added_first(shown, whole_number(request.GET.get("added", "")))
    changed = whole_number(request.GET.get("reprint", ""))
    return {
        "competition": competition,
        "teams": shown,
        "counts": selectors.team_counts(teams),
        "q": q,
        "f": f if f in FILTERS else "",
        "past_deadline": past_deadline,
        "deadline_iso": competition.check_in_deadline.isoformat(),
        "added": added,
        "reprint": next((t for t in teams if t.pk == changed), None),
        "filters": [
            ("", _("All"), "all"),
            ("in", _("Checked in"), "in"),
            ("missing", _("Not checked in"), "missing"),
            ("unpaid", _("Fee unpaid"), "unpaid"),
            ("withdrawn", _("Withdrawn"), "withdrawn"),
        ],
    }


@staff_view(DESK, competition=True, championship=championship.desk)
def teams(request, competition):
    """The desk's team list: search, filters, counts, check-in in one tap. A championship's
    slug: the desk across its competitions (competition/views_desk/championship.py)."""
    context = _desk_context(request, competition)
    if request.htmx and request.htmx.target == "team-list":
        return render(request, "competition/_desk_list_answer.html", context)
    return render(request, "competition/desk_teams.html", context)


def _row_answer(request, competition: Competition, team: Team, status: str = ""):
    """After a tap: the htmx row plus the counts and what was done (out of band), or back to
    the list."""
    if not request.htmx:
        if status:
            messages.success(request, status)
        return redirect_next(request, reverse("desk:teams", args=[competition.slug]))
    team = selectors.team_with_members(team=team)
    return render(
        request,
        "competition/_desk_row_answer.html",
        {
            "competition": competition,
            "team": team,
            "counts": selectors.team_counts_get(competition=competition),
            "past_deadline": timezone.now() >= competition.check_in_deadline,
            "status": status,
        },
    )


def _team_action(service, status, across=False, **extra):
    """A one-tap write on a team's row; `status(team)` says what was done (the
    desk sees that a fee was marked paid). `across`: also on the desk across a championship
    (its slug in the address: competition/views_desk/championship.py)."""

    def arguments(request) -> dict:
        return {k: v(request) if callable(v) else v for k, v in extra.items()}

    @staff_view(
        DESK,
        competition=True,
        post=True,
        championship=championship.row_action(service, status, arguments) if across else None,
    )
    def view(request, competition, pk):
        team = selectors.team_get(competition=competition, pk=pk)
        try:
            team = service(team=team, by=request.user, **arguments(request))
        except Refusal as refusal:
            if request.htmx:
                return HttpResponse(str(refusal.message), status=409)
            messages.error(request, refusal.message)
            return _row_answer(request, competition, team)
        team.competition = competition
        return _row_answer(request, competition, team, status(team))

    return view


def _checked_in(team: Team) -> str:
    at = timezone.localtime(team.checked_in_at).strftime("%H:%M")
    if team.checked_in_at > team.competition.check_in_deadline:
        return _("Table %(table)s “%(team)s” is checked in at %(time)s, after the deadline.") % {
            "table": team.table,
            "team": team.name,
            "time": at,
        }
    return _("Table %(table)s “%(team)s” is checked in at %(time)s.") % {
        "table": team.table,
        "team": team.name,
        "time": at,
    }


check_in = _team_action(services.team_check_in, _checked_in, across=True)
check_in_undo = _team_action(
    services.team_check_in_undo,
    lambda t: (
        _("The check-in of table %(table)s “%(team)s” is undone.")
        % {"table": t.table, "team": t.name}
    ),
    across=True,
)
fee = _team_action(
    services.team_fee_set,
    lambda t: (
        (
            _("Table %(table)s “%(team)s”: the fee is marked paid.")
            if t.fee_paid
            else _("Table %(table)s “%(team)s”: the fee is marked unpaid.")
        )
        % {"table": t.table, "team": t.name}
    ),
    across=True,
    paid=lambda r: r.POST.get("paid") == "1",
)


def _withdraw_action(service, message):
    @staff_view(DESK, competition=True, post=True)
    def view(request, competition, pk):
        team = selectors.team_get(competition=competition, pk=pk)
        try:
            service(team=team, by=request.user)
            messages.success(request, message % {"team": team.name})
        except Refusal as refusal:  # after the start: the head judge's
            messages.error(request, refusal.message)
        except ValidationError as error:  # an admin here after the start: no reason field
            for text in error.messages:
                messages.error(request, text)
        return redirect("desk:team_edit", slug=competition.slug, pk=pk)

    return view


withdraw = _withdraw_action(services.team_withdraw, gettext_lazy("“%(team)s” is withdrawn."))
withdraw_undo = _withdraw_action(
    services.team_withdraw_undo, gettext_lazy("“%(team)s” competes again.")
)


def _card_text(team: Team) -> tuple:
    """What the team's table card prints: after a change, the desk is asked to reprint it."""
    return (team.name, team.table, [m.name for m in team.members.all()])


# The desk's morning: within this of the planned start, a team registered at the desk is here.
DESK_MORNING = timedelta(hours=12)


def _competition_day(competition: Competition) -> bool:
    """The competition starts within the desk's morning and its clock has not started: a team
    registered at the desk now is here (a walk-in), checked in as it registers. Measured from
    now, not by the local date, which would say "not today" at 23:55 for a start at 00:05."""
    near = abs(competition.starts_at - timezone.now()) <= DESK_MORNING
    return near and not competition.started_at


def _save_team(request, competition: Competition, team: Team | None, desk: str = ""):
    """Register (team None) or edit a team with its members and labels. An individual entrant
    is one puzzler (its name is the entrant's), a pair two (competition/words/). `desk`: the
    slug of the desk the form was opened from and goes back to (a championship's walk-in),
    the competition's own by default."""
    desk = desk or competition.slug
    check_in = "check_in" in request.POST
    solo = competition.discipline == Discipline.INDIVIDUAL
    MemberFormSet = member_formset(
        extra=competition.max_at_table if team is None else 1,
        most=member_limit(competition.discipline),
    )
    rows = {"prefix": "members", "form_kwargs": {"solo": solo}}
    if request.method == "POST":
        form = TeamForm(request.POST, discipline=competition.discipline)
        formset = MemberFormSet(request.POST, **rows)
        if form.is_valid() and formset.is_valid():
            data = dict(form.cleaned_data)
            labels = data.pop("labels")
            members = members_from(formset, name=data["name"] if solo else None)
            try:
                teams_url = reverse("desk:teams", args=[desk])
                if team is None:
                    new = services.team_create(
                        competition=competition,
                        by=request.user,
                        members=members,
                        check_in=check_in,
                        labels=labels,
                        **data,
                    )
                    text = (
                        _("“%(team)s” is registered at table %(table)s and checked in.")
                        if check_in
                        else _("“%(team)s” is registered at table %(table)s.")
                    )
                    messages.success(request, text % {"team": new.name, "table": new.table})
                    if "another" in request.POST:
                        return redirect(request.get_full_path())
                    return redirect(f"{teams_url}?added={new.pk}")
                card = _card_text(team)
                services.team_update(
                    team=team, by=request.user, members=members, labels=labels, **data
                )
                messages.success(request, _("“%(team)s” is saved.") % {"team": team.name})
                if _card_text(selectors.team_with_members(team=team)) != card:
                    return redirect(f"{teams_url}?reprint={team.pk}")
                return redirect(teams_url)
            except ValidationError as exc:
                for field, errors in exc.message_dict.items():
                    for error in errors:
                        form.add_error(field if field in form.fields else None, error)
            except Refusal as refusal:
                form.add_error(None, str(refusal.message))
    elif team is None:
        form = TeamForm(
            initial={"table": services.next_free_table(competition)},
            discipline=competition.discipline,
        )
        check_in = _competition_day(competition)
        formset = MemberFormSet(**rows)
    else:
        initial = {f: getattr(team, f) for f in TeamForm.base_fields if hasattr(team, f)}
        initial["labels"] = ", ".join(team.labels or [])
        form = TeamForm(initial=initial, discipline=competition.discipline)
        formset = MemberFormSet(
            **rows,
            initial=[
                {"name": m.name, "under_15": m.under_15, "guardian": m.guardian}
                for m in team.members.all()
            ],
        )
    return render(
        request,
        "competition/desk_team_form.html",
        {
            "competition": competition,
            "team": team,
            "form": form,
            "formset": formset,
            # An individual's one puzzler or a pair's two: no rows to add or remove.
            "rows_fixed": member_limit(competition.discipline) is not None,
            "next_free": services.next_free_table(competition),
            "check_in": check_in,
            "desk_slug": desk,
        },
    )


def _walk_in(request, **held):
    """A walk-in at the championship's desk (`held`: its championship): which competition
    first (those not final), then that competition's own form, back to the championship's
    desk."""
    chosen = championship.walk_in_competition(request, **held)
    if chosen is None:
        return championship.walk_in_choice(request, **held)
    return _save_team(request, chosen, None, desk=held["championship"].slug)


@staff_view(DESK, competition=True, championship=_walk_in)
def team_new(request, competition):
    return _save_team(request, competition, None)


@staff_view(DESK, competition=True)
def team_edit(request, competition, pk):
    return _save_team(request, competition, selectors.team_get(competition=competition, pk=pk))


@staff_view(DESK, competition=True, championship=championship.missing)
def missing(request, competition):
    """After the check-in deadline (R2): the teams not here, with the contact's phone, to call
    round or print ("Mangler")."""
    return render(
        request,
        "competition/desk_missing.html",
        {
            "competition": competition,
            "teams": selectors.team_list_missing(competition=competition),
            "now": timezone.now(),
            "past_deadline": timezone.now() >= competition.check_in_deadline,
        },
    )


@staff_view(DESK, competition=True, championship=championship.refunds)
def refunds(request, competition):
    """P2: the teams that paid their entry fee (refunded on a cancellation)."""
    paid = selectors.team_list_paid(competition=competition)
    return render(
        request, "competition/desk_refunds.html", {"competition": competition, "teams": paid}
    )
