"""The judges' tablets in the control room: their panel (with the last backup), the judges'
join sheet and entering a paper judge sheet ("dommerseddel"). Every write is a service call."""

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from competition.errors import Refusal
from competition.models import Competition, Team
from competition.qr import absolute_url, only_here, qr_svg
from competition.roles import ADMIN, staff_view
from judging import backups, services
from judging.forms import PaperCountForm, PaperFinishForm
from judging.selectors import tablets_health
from judging.views_control.common import form_errors, refused

BACKUP_REASONS = {
    "auto": gettext_lazy("periodic"),
    "clock_end": gettext_lazy("time is up"),
    "clock_stop": gettext_lazy("clock stopped"),
    "final": gettext_lazy("final results"),
    "manual": gettext_lazy("by hand"),
    "pre_restore": gettext_lazy("before a restore"),
}


def judge_url(request, competition: Competition) -> str:
    """The judges' page: it asks an anonymous visitor to log in first."""
    return absolute_url(request, reverse("judge:board", args=[competition.slug]))


def leaderboard_url(request, competition: Competition) -> str:
    return absolute_url(request, reverse("public:leaderboard", args=[competition.slug]))


# A tablet quiet this long with nothing waiting is put away (a judge who
# went home, a tablet swapped); one with taps waiting always stays in sight.
QUIET_HIDDEN_SECONDS = 30 * 60


def tablets_context(request, competition: Competition, now) -> dict:
    """What the tablets panel shows: the tablets, the last backup, the judges' QR. Three
    queries."""
    url = judge_url(request, competition)
    status = backups.status()
    rows = tablets_health(competition, now)
    shown = [r for r in rows if r.tablet.waiting or r.silent_seconds <= QUIET_HIDDEN_SECONDS]
    return {
        "tablets": shown,
        "tablets_hidden": len(rows) - len(shown),
        "backup": status,
        "backup_reason": BACKUP_REASONS.get(status["last"].reason, "") if status["last"] else "",
        "judge_url": url,
        "judge_qr": qr_svg(url, scale=3),
        "only_here": only_here(url),
        "app_version": settings.APP_VERSION,
    }


@staff_view(ADMIN, competition=True)
def tablets_panel(request, competition):
    """The control room's tablets panel alone: what its polling swaps in."""
    return render(
        request,
        "judging/_control_tablets.html",
        {
            "competition": competition,
            "tablets_panel": tablets_context(request, competition, timezone.now()),
        },
    )


@staff_view(ADMIN, competition=True)
def join_sheet(request, competition):
    """A4 for the judges' table: the address, its QR code and how to log in."""
    judges, spectators = judge_url(request, competition), leaderboard_url(request, competition)
    return render(
        request,
        "judging/join_sheet.html",
        {
            "competition": competition,
            "judge_url": judges,
            "judge_qr": qr_svg(judges, scale=8),
            "leaderboard_url": spectators,
            "leaderboard_qr": qr_svg(spectators, scale=4),
            "only_here": only_here(judges),
            "wifi": settings.HALL_WIFI,
        },
    )


# --- entering a paper sheet ------------------------------------------------------------------
def _paper_write(request, competition, pk, form_class, prefix, call, success):
    """One paper-sheet write for the team `pk`: `call(team, cleaned_data)`, then back to the
    team's page with `success` or each refusal."""
    team = get_object_or_404(Team, competition=competition, pk=pk)
    form = form_class(request.POST, prefix=prefix)
    if not form.is_valid():
        form_errors(request, form)
    else:
        try:
            call(team, form.cleaned_data)
        except (Refusal, ValidationError) as exc:
            refused(request, exc)
        else:
            messages.success(request, success)
    return redirect("control:team", slug=competition.slug, pk=team.pk)


@staff_view(ADMIN, competition=True, post=True)
def paper_finish(request, competition, pk):
    """A finish written on the paper sheet: the time on the competition clock (h:mm:ss)."""
    return _paper_write(
        request,
        competition,
        pk,
        PaperFinishForm,
        "paper",
        lambda team, data: services.finish_register(
            team=team,
            position=data["puzzle"],
            by=request.user,
            missing=data["missing"],
            elapsed_seconds=data["time"],
            check_plausible=not data["confirm"],
        ),
        _("Puzzle %(position)s from the paper sheet is registered.")
        % {"position": request.POST.get("paper-puzzle", "")},
    )


@staff_view(ADMIN, competition=True, post=True)
def paper_count(request, competition, pk):
    """The count written on the paper sheet once time is up (R9)."""
    return _paper_write(
        request,
        competition,
        pk,
        PaperCountForm,
        "papercount",
        lambda team, data: services.count_record(team=team, by=request.user, pieces=data["pieces"]),
        _("The count from the paper sheet is saved."),
    )
