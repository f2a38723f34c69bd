"""The control room's big-screen panel ("Storskærm"): what every `/<slug>/screen/`
shows, the hold of the final order, the prize-giving reveal, and a preview of the screen.
Admin only; every write is a service call (competition.services.screen)."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _

from competition import services
from competition.errors import Refusal
from competition.inputs import whole_number
from competition.models import ScreenMode, Status
from competition.roles import ADMIN, staff_view
from puzzle_rules.rules import next_place
from scoring.selectors import reveal_places, standings_for
from scoring.views_stream import speaker_context


def _refused(request, exc) -> None:
    if isinstance(exc, Refusal):
        messages.error(request, exc.message)
    else:
        for error in exc.messages:
            messages.error(request, error)


@staff_view(ADMIN, competition=True)
def screen(request, competition):
    status = competition.status_at(timezone.now())
    body = standings_for(competition, staff=True, status=status)
    ranked = [r for r in body["standings"] if r["rank"] is not None]
    places = sorted({r["rank"] for r in ranked})
    at = competition.reveal_at
    context = {
        "competition": competition,
        "status": status,
        "status_label": Status(status).label,
        "modes": ScreenMode.choices,
        "ranked": len(ranked),
        "reveal_default": min(10, len(ranked)) or 1,
        # Staff see the next place before the hall does.
        "next_rows": [r for r in ranked if at is not None and r["rank"] == next_place(places, at)],
        "final": status == Status.FINAL,
    }
    return render(request, "scoring/control_screen.html", context)


def _write(request, competition, call, success):
    try:
        call(competition)
    except (Refusal, ValidationError) as exc:
        _refused(request, exc)
    else:
        messages.success(request, success)
    return redirect("control:screen", slug=competition.slug)


@staff_view(ADMIN, competition=True, post=True)
def screen_mode(request, competition):
    mode = request.POST.get("mode", "")
    message = request.POST.get("message", "")[:200]
    return _write(
        request,
        competition,
        lambda c: services.screen_set(competition=c, by=request.user, mode=mode, message=message),
        _("The big screen is switched."),
    )


@staff_view(ADMIN, competition=True, post=True)
def screen_hold(request, competition):
    hold = request.POST.get("hold") == "1"
    return _write(
        request,
        competition,
        lambda c: services.screen_hold(competition=c, by=request.user, hold=hold),
        _("The public pages hold the final order until the reveal is over.")
        if hold
        else _("The public pages show the final order at once."),
    )


@staff_view(ADMIN, competition=True, post=True)
def reveal_start(request, competition):
    text = request.POST.get("from_place", "").strip()
    place = whole_number(text, high=99_999) or 0
    return _write(
        request,
        competition,
        lambda c: services.reveal_start(competition=c, by=request.user, from_place=place),
        _("The reveal has started: show the places one by one."),
    )


@staff_view(ADMIN, competition=True, post=True)
def reveal_next(request, competition):
    return _write(
        request,
        competition,
        lambda c: services.reveal_next(competition=c, by=request.user, places=reveal_places(c)),
        _("The next place is on the big screen."),
    )


@staff_view(ADMIN, competition=True)
def speaker(request, competition):
    """The speaker's page in the control room: the public feed (never an unconfirmed count,
    so nothing is announced that the judges have not settled), live, beside the control
    room's menu."""
    now = timezone.now()
    status = competition.status_at(now)
    body = standings_for(competition, staff=False, status=status)
    context = speaker_context(competition, now, str(status), body)
    return render(request, "scoring/control_speaker.html", context)
