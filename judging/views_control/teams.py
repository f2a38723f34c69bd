"""One team in the control room: its page, the corrections of its finishes and count,
warnings (R14), disqualification (R18) and withdrawal. Every write is a service
call; a refusal comes back as a message, a form's errors on the team page."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Prefetch
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from competition import audit_text
from competition import services as competition_services
from competition.errors import Refusal, Vanished
from competition.models import Competition, Team
from competition.roles import ADMIN, staff_view
from judging import services as judging_services
from judging.count_state import count_state
from judging.forms import CountCorrectForm, FinishCorrectForm, ReasonForm, add_service_errors
from judging.models import Count, Finish
from judging.selectors import team_audit
from judging.spot_picker import MissingSpotsMixin
from judging.views_control.common import refused
from puzzle_rules.formatting import format_hms


def _team(competition: Competition, pk: int) -> Team:
    team = get_object_or_404(
        Team.objects.prefetch_related(
            Prefetch(
                "finishes",
                queryset=Finish.objects.select_related("puzzle", "registered_by").order_by(
                    "puzzle__position"
                ),
            ),
            "warnings__given_by",
        ),
        competition=competition,
        pk=pk,
    )
    team.competition = competition
    return team


def _team_context(competition: Competition, team: Team, **forms_) -> dict:
    finishes = list(team.finishes.all())
    for f in finishes:
        f.hms = format_hms(f.elapsed_seconds)
        f.spots = audit_text.missing_words(f.missing) if f.missing else ""
        f.form = forms_.get(f"finish_{f.pk}") or FinishCorrectForm(
            prefix=f"f{f.pk}", initial={"time": f.hms, **MissingSpotsMixin.initial_from(f.missing)}
        )
    count = (
        Count.objects.filter(team=team)
        .select_related("puzzle", "registered_by", "confirmed_by")
        .first()
    )
    return {
        "competition": competition,
        "team": team,
        "finishes": finishes,
        "latest_finish": finishes[-1] if finishes else None,
        "count": count,
        "count_state": count_state(
            competing=team.competing,
            count=count,
            finished=len(finishes),
            puzzles=len(competition.puzzles.all()),
            second_count=competition.second_count,
        ),
        "count_form": forms_.get("count")
        or CountCorrectForm(prefix="count", initial={"pieces": count.pieces if count else None}),
        "warning_form": forms_.get("warning") or ReasonForm(prefix="warning"),
        "dq_form": forms_.get("dq") or ReasonForm(prefix="dq"),
        "wd_form": forms_.get("wd") or ReasonForm(prefix="wd"),
        "audit": team_audit(team, 50),
    }


@staff_view(ADMIN, puzzles=True)
def team(request, competition, pk):
    return render(
        request, "judging/control_team.html", _team_context(competition, _team(competition, pk))
    )


def _team_write(request, competition, team, call, success, form_key=None, form=None):
    """Run a service; on success back to the team page, else the page with the errors."""
    try:
        call()
    except (Refusal, Vanished) as refusal:  # Vanished: undone meanwhile (a second click)
        messages.error(request, refusal.message)
    except ValidationError as exc:
        if form is not None:
            add_service_errors(form, exc)
            team = _team(competition, team.pk)
            return render(
                request,
                "judging/control_team.html",
                _team_context(competition, team, **{form_key: form}),
                status=400,
            )
        refused(request, exc)
    else:
        messages.success(request, success)
    return redirect("control:team", slug=competition.slug, pk=team.pk)


def _invalid(request, competition, team, form_key, form):
    return render(
        request,
        "judging/control_team.html",
        _team_context(competition, _team(competition, team.pk), **{form_key: form}),
        status=400,
    )


def _reason_action(service, success, prefix: str):
    """A team action that needs only a reason: a warning (R14), disqualify, reinstate (R18),
    withdraw or undo it (after the start the head judge's)."""

    @staff_view(ADMIN, puzzles=True, post=True)
    def view(request, competition, pk):
        team = _team(competition, pk)
        form = ReasonForm(request.POST, prefix=prefix)
        if not form.is_valid():
            return _invalid(request, competition, team, prefix, form)
        return _team_write(
            request,
            competition,
            team,
            lambda: service(team=team, by=request.user, reason=form.cleaned_data["reason"]),
            success(team),
            prefix,
            form,
        )

    return view


warning = _reason_action(
    judging_services.warning_log, lambda team: _("The warning is logged."), "warning"
)
disqualify = _reason_action(
    judging_services.team_disqualify,
    lambda team: _("“%(team)s” is disqualified.") % {"team": team.name},
    "dq",
)
reinstate = _reason_action(
    judging_services.team_reinstate,
    lambda team: _("“%(team)s” competes again.") % {"team": team.name},
    "dq",
)
withdraw = _reason_action(
    competition_services.team_withdraw,
    lambda team: _("“%(team)s” is withdrawn.") % {"team": team.name},
    "wd",
)
withdraw_undo = _reason_action(
    competition_services.team_withdraw_undo,
    lambda team: _("“%(team)s” competes again.") % {"team": team.name},
    "wd",
)


@staff_view(ADMIN, puzzles=True, post=True)
def finish_correct(request, competition, pk, finish_id):
    team = _team(competition, pk)
    finish = get_object_or_404(Finish, pk=finish_id, team=team)
    form = FinishCorrectForm(request.POST, prefix=f"f{finish.pk}")
    key = f"finish_{finish.pk}"
    if not form.is_valid():
        return _invalid(request, competition, team, key, form)
    data = form.cleaned_data
    return _team_write(
        request,
        competition,
        team,
        lambda: judging_services.finish_correct(
            finish=finish,
            by=request.user,
            reason=data["reason"],
            elapsed_seconds=data["time"],
            missing=data["missing"],
        ),
        _("The finish of puzzle %(position)s is corrected.") % {"position": finish.puzzle.position},
        key,
        form,
    )


@staff_view(ADMIN, puzzles=True, post=True)
def finish_delete(request, competition, pk, finish_id):
    team = _team(competition, pk)
    finish = get_object_or_404(Finish, pk=finish_id, team=team)
    form = ReasonForm(request.POST, prefix=f"d{finish.pk}")
    form.fields["reason"].required = False
    if not form.is_valid():  # e.g. a NUL character, which PostgreSQL's text cannot hold
        refused(request, ValidationError(sum(form.errors.values(), [])))
        return redirect("control:team", slug=competition.slug, pk=pk)
    reason = form.cleaned_data["reason"]
    return _team_write(
        request,
        competition,
        team,
        lambda: judging_services.finish_delete(finish=finish, by=request.user, reason=reason),
        _("The finish of puzzle %(position)s is deleted.") % {"position": finish.puzzle.position},
    )


@staff_view(ADMIN, puzzles=True, post=True)
def count_correct(request, competition, pk):
    team = _team(competition, pk)
    count = get_object_or_404(Count, team=team)
    form = CountCorrectForm(request.POST, prefix="count")
    if not form.is_valid():
        return _invalid(request, competition, team, "count", form)
    return _team_write(
        request,
        competition,
        team,
        lambda: judging_services.count_correct(
            count=count,
            by=request.user,
            reason=form.cleaned_data["reason"],
            pieces=form.cleaned_data["pieces"],
        ),
        _("The count is corrected."),
        "count",
        form,
    )
