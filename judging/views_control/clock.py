"""The control room's clock: start, correct the start, stop (R4); and what a first-time head
judge needs: before the start, what is odd (a date far from the plan, teams not
checked in, each one tap from withdrawn); after a mistaken stop, "Undo the stop" for a short
while. Every write is a service call."""

from datetime import datetime, timedelta

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect
from django.utils import timezone
from django.utils.dateformat import format as date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from competition import services as competition_services
from competition.errors import Refusal
from competition.models import Competition, Team
from competition.roles import ADMIN, staff_view
from judging.views_control.common import form_errors, refused


# --- the forms: shapes only; the services (competition/services/clock.py) check the rules ---
class ClockStartForm(forms.Form):
    started_at = forms.DateTimeField(
        label=gettext_lazy("It really started at (optional)"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local", "step": 1}),
        input_formats=["%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M"],
    )


class ClockCorrectForm(forms.Form):
    started_at = forms.DateTimeField(
        label=gettext_lazy("The clock really started at"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local", "step": 1}),
        # with microseconds: the "−30 s" / "+30 s" buttons send the start moved exactly
        input_formats=["%Y-%m-%dT%H:%M:%S.%f", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M"],
    )


# A start this far from the planned one is worth a second look (a wrong date, a test day).
FAR_FROM_PLAN = timedelta(hours=1)


def _distance(delta: timedelta) -> str:
    """A duration in the largest whole unit a person would say: "101 dage", "3 timer"."""
    seconds = abs(int(delta.total_seconds()))
    if seconds >= 86400:
        n = seconds // 86400
        return ngettext("%(n)d day", "%(n)d days", n) % {"n": n}
    if seconds >= 3600:
        n = seconds // 3600
        return ngettext("%(n)d hour", "%(n)d hours", n) % {"n": n}
    n = seconds // 60
    return ngettext("%(n)d minute", "%(n)d minutes", n) % {"n": n}


def start_check(competition: Competition, teams, now: datetime) -> dict:
    """What is odd about starting the clock now: {"plan": sentence or "", "missing": [Team]}.

    `teams` are the competition's teams (already loaded by the room). A team neither checked
    in nor withdrawn would wait for a count on every tablet and block finalise."""
    plan = ""
    delta = competition.starts_at - now
    if abs(delta) >= FAR_FROM_PLAN:
        when = date_format(timezone.localtime(competition.starts_at), "j. F Y H:i")
        plan = (
            _("The planned start is %(when)s, in %(distance)s. Is the date right?")
            if delta > timedelta(0)
            else _("The planned start was %(when)s, %(distance)s ago. Is the date right?")
        ) % {"when": when, "distance": _distance(delta)}
    missing = [t for t in teams if t.checked_in_at is None and not t.withdrawn]
    return {"plan": plan, "missing": missing, "odd": bool(plan or missing)}


def start_confirm_text(check: dict) -> str:
    """The confirmation dialog's question, naming what is odd."""
    parts = [_("Start the clock now?")]
    if check["plan"]:
        parts.append(check["plan"])
    if check["missing"]:
        n = len(check["missing"])
        parts.append(
            ngettext(
                "%(n)d team is not checked in and will wait for a count on every tablet.",
                "%(n)d teams are not checked in and will wait for a count on every tablet.",
                n,
            )
            % {"n": n}
        )
    return " ".join(parts)


def stop_undo_until(competition: Competition, now: datetime) -> datetime | None:
    """Until when the head judge may undo the stop (None: not possible now). Only a hint for
    the button; the service decides."""
    until = competition_services.stop_undo_until(competition)
    if until is None or now > until or now >= competition.ends_at:
        return None
    if Team.objects.filter(competition=competition, count__isnull=False).exists():
        return None
    return until


def clock_context(competition: Competition, teams, now: datetime) -> dict:
    """What the clock panel adds to the control room's context."""
    check = start_check(competition, teams, now) if competition.started_at is None else None
    until = stop_undo_until(competition, now) if competition.stopped_at else None
    return {
        "start_check": check,
        "start_confirm": start_confirm_text(check) if check else "",
        "stop_undo_until": until,
    }


@staff_view(ADMIN, puzzles=True, post=True)
def clock_start(request, competition):
    form = ClockStartForm(request.POST)
    if not form.is_valid():
        form_errors(request, form)
        return redirect("control:room", slug=competition.slug)
    # "Start now" ignores the field; "correct" starts from the time the head judge gives.
    started_at: datetime | None = None
    if "correct" in request.POST:
        started_at = form.cleaned_data["started_at"]
        if started_at is None:
            messages.error(request, _("Give the time the clock really started."))
            return redirect("control:room", slug=competition.slug)
    try:
        competition_services.clock_start(
            competition=competition, by=request.user, started_at=started_at
        )
    except (Refusal, ValidationError) as exc:
        refused(request, exc)
    else:
        messages.success(request, _("The clock is running."))
    return redirect("control:room", slug=competition.slug)


@staff_view(ADMIN, puzzles=True, post=True)
def clock_correct(request, competition):
    """R4, docs/day.md: move the start of the running clock, while nothing is registered."""
    form = ClockCorrectForm(request.POST)
    if not form.is_valid():
        form_errors(request, form)
        return redirect("control:room", slug=competition.slug)
    try:
        competition = competition_services.clock_correct(
            competition=competition, by=request.user, started_at=form.cleaned_data["started_at"]
        )
    except (Refusal, ValidationError) as exc:
        refused(request, exc)
    else:
        messages.success(
            request,
            _("The start is corrected to %(time)s; every time is measured from it.")
            % {"time": timezone.localtime(competition.started_at).strftime("%H:%M:%S")},
        )
    return redirect("control:room", slug=competition.slug)


@staff_view(ADMIN, puzzles=True, post=True)
def clock_stop(request, competition):
    try:
        competition_services.clock_stop(competition=competition, by=request.user)
    except (Refusal, ValidationError) as exc:
        refused(request, exc)
    else:
        messages.success(request, _("The clock is stopped: time is up."))
    return redirect("control:room", slug=competition.slug)


@staff_view(ADMIN, competition=True, post=True)
def clock_stop_undo(request, competition):
    try:
        competition_services.clock_stop_undo(competition=competition, by=request.user)
    except Refusal as refusal:
        messages.error(request, refusal.message)
    else:
        messages.success(request, _("The stop is undone: the clock runs on."))
    return redirect("control:room", slug=competition.slug)


@staff_view(ADMIN, competition=True, post=True)
def start_withdraw(request, competition, pk):
    """Before the start: withdraw a team that has not come (the desk's service, no reason)."""
    team = get_object_or_404(Team, competition=competition, pk=pk)
    try:
        competition_services.team_withdraw(team=team, by=request.user)
    except (Refusal, ValidationError) as exc:
        refused(request, exc)
    else:
        messages.success(request, _("“%(team)s” is withdrawn.") % {"team": team.name})
    return redirect("control:room", slug=competition.slug)
