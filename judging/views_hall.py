"""The hall (issue 13): the tablets' panel, the judges' join sheet, the paper judge sheets
("dommerseddel") and entering them in the control room. Every write is a service call."""

from django import forms
from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from competition.errors import Refusal
from competition.models import Competition, Team
from competition.qr import absolute_url, only_here, qr_svg
from competition.roles import ADMIN, JUDGE, role_required
from judging import services
from judging.selectors import parse_tables
from judging.views_control import parse_hms, parse_spots


def judge_url(request, competition: Competition) -> str:
    """The judges' page: it asks an anonymous visitor to log in first."""
    return absolute_url(request, reverse("judge:board", args=[competition.slug]))


def leaderboard_url(request, competition: Competition) -> str:
    return absolute_url(request, reverse("public:leaderboard", args=[competition.slug]))


@role_required(ADMIN)
def hall_fragment(request, slug):
    """The control room's hall panel alone: what its polling swaps in."""
    competition = get_object_or_404(Competition, slug=slug)
    return render(request, "judging/_control_hall.html", {"competition": competition})


@role_required(ADMIN)
def join_sheet(request, slug):
    """A4 for the judges' table: the address, its QR code and how to log in."""
    competition = get_object_or_404(Competition, slug=slug)
    judges, spectators = judge_url(request, competition), leaderboard_url(request, competition)
    return render(
        request,
        "judging/hall_join.html",
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


@role_required(JUDGE)
def paper_sheets(request, slug):
    """The paper fallback when a tablet dies: one A4 judge sheet per table (`?t=1-8`)."""
    competition = get_object_or_404(Competition, slug=slug)
    tables = parse_tables(request.GET.getlist("t"))
    teams = Team.objects.filter(competition=competition, withdrawn=False).order_by("table")
    if tables:
        teams = teams.filter(table__in=tables)
    return render(
        request,
        "judging/paper_sheets.html",
        {
            "competition": competition,
            "teams": list(teams),
            "puzzles": list(competition.puzzles.order_by("position")),
            "tables": tables,
            "printed_at": timezone.now(),
        },
    )


# --- entering a paper sheet in the control room ----------------------------------------------
class PaperFinishForm(forms.Form):
    puzzle = forms.IntegerField(min_value=1, max_value=10_000, widget=forms.HiddenInput)
    time = forms.CharField(label=gettext_lazy("Time (h:mm:ss)"), max_length=12)
    missing = forms.CharField(label=gettext_lazy("Missing spots"), required=False, max_length=200)
    confirm = forms.BooleanField(
        label=gettext_lazy("The time is right, even if it is fast"), required=False
    )

    def clean_time(self):
        return parse_hms(self.cleaned_data["time"])

    def clean_missing(self):
        return parse_spots(self.cleaned_data["missing"])


class PaperCountForm(forms.Form):
    pieces = forms.IntegerField(
        label=gettext_lazy("Placed pieces"), min_value=0, max_value=1_000_000
    )


def _paper_write(request, competition, team, form, call, success):
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
    else:
        try:
            call(form.cleaned_data)
        except Refusal as refusal:
            messages.error(request, refusal.message)
        except ValidationError as exc:
            for error in exc.messages:
                messages.error(request, error)
        else:
            messages.success(request, success)
    return redirect("control:team", slug=competition.slug, pk=team.pk)


@role_required(ADMIN)
@require_POST
def paper_finish(request, slug, pk):
    """A finish written on the paper sheet: the time on the competition clock (h:mm:ss)."""
    competition = get_object_or_404(Competition, slug=slug)
    team = get_object_or_404(Team, competition=competition, pk=pk)
    form = PaperFinishForm(request.POST, prefix="paper")
    return _paper_write(
        request,
        competition,
        team,
        form,
        lambda data: services.finish_register(
            team=team,
            position=data["puzzle"],
            by=request.user,
            missing=data["missing"],
            elapsed_seconds=data["time"],
            check_plausible=not data["confirm"],
        ),
        _("Puzzle %(position)s from the paper sheet is registered.")
        % {"position": form.data.get("paper-puzzle", "")},
    )


@role_required(ADMIN)
@require_POST
def paper_count(request, slug, pk):
    """The count written on the paper sheet once time is up (R9)."""
    competition = get_object_or_404(Competition, slug=slug)
    team = get_object_or_404(Team, competition=competition, pk=pk)
    form = PaperCountForm(request.POST, prefix="papercount")
    return _paper_write(
        request,
        competition,
        team,
        form,
        lambda data: services.count_record(team=team, by=request.user, pieces=data["pieces"]),
        _("The count from the paper sheet is saved."),
    )
