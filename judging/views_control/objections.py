"""Objections in the control room (R20): the head judge resolves one, and finalises the
results at the prize-giving. The desk files them (judging.views_desk)."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.translation import gettext as _

from competition.errors import Refusal, Vanished
from competition.roles import ADMIN, staff_view
from judging.forms import ResolveForm, add_service_errors
from judging.models import Count, Objection
from judging.selectors import objections_panel, team_audit
from judging.services import competition_finalise, objection_resolve
from judging.views_control.common import back, refused


@staff_view(ADMIN, competition=True)
def objection_resolve_page(request, competition, pk):
    """An admin upholds or rejects an objection, with a note and an optional correction."""
    objection = get_object_or_404(
        Objection.objects.select_related(
            "team", "filed_by", "resolved_by", "finish__puzzle", "count__puzzle"
        ),
        pk=pk,
        team__competition=competition,
    )
    if request.method == "POST":
        form = ResolveForm(request.POST, objection=objection)
        if form.is_valid():
            try:
                objection_resolve(
                    objection=objection,
                    by=request.user,
                    decision=form.cleaned_data["decision"],
                    note=form.cleaned_data["note"],
                    **form.corrections(),
                )
            except Refusal as refusal:
                messages.error(request, refusal.message)
                if refusal.code in ("final", "already_resolved"):
                    return back(request, competition.slug)
            except Vanished as gone:  # what it corrects was undone since the page was read
                messages.error(request, gone.message)
                return back(request, competition.slug)
            except ValidationError as exc:
                add_service_errors(form, exc)
            else:
                messages.success(
                    request,
                    _("The objection from table %(table)d is %(decision)s.")
                    % {
                        "table": objection.team.table,
                        "decision": _("upheld")
                        if form.cleaned_data["decision"] == "upheld"
                        else _("rejected"),
                    },
                )
                return back(request, competition.slug)
    else:
        form = ResolveForm(objection=objection)
    team = objection.team
    return render(
        request,
        "judging/objection_resolve.html",
        {
            "competition": competition,
            "objection": objection,
            "form": form,
            "finishes": team.finishes.select_related("puzzle").order_by("puzzle__position"),
            "count": Count.objects.filter(team=team).select_related("puzzle").first(),
            "audit": team_audit(team, 20),  # in sentences, as the change log
            "warnings": team.warnings.select_related("given_by"),
        },
    )


@staff_view(ADMIN, competition=True)
def finalise(request, competition):
    """R20: make the results final at the prize-giving (POST); GET shows the panel alone."""
    if request.method != "POST":
        return render(
            request,
            "judging/objection_finalise.html",
            {"competition": competition, "panel": objections_panel(competition, timezone.now())},
        )
    if request.POST.get("confirm") != "yes":
        messages.error(
            request, _("Tick the box to confirm that the results become final and unchangeable.")
        )
        return back(request, competition.slug)
    override = request.POST.get("override") == "yes"
    try:
        competition = competition_finalise(
            competition=competition,
            by=request.user,
            override_taps_waiting=override,
            reason=request.POST.get("reason", "")[:2000],
        )
    except (Refusal, ValidationError) as exc:
        refused(request, exc)
    else:
        messages.success(
            request,
            _("The results are final (%(time)s). Nothing can be changed any more.")
            % {"time": timezone.localtime(competition.finalised_at).strftime("%H:%M:%S")},
        )
    return back(request, competition.slug)
