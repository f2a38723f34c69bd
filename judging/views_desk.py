"""The desk's judging page (R20): filing a team's objection. The head judge resolves it in
the control room (judging.views_control.objections). Every write is a service call."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from competition.errors import Refusal
from competition.inputs import whole_number
from competition.roles import DESK, staff_view
from judging.forms import ObjectionForm, add_service_errors
from judging.models import Count, Finish
from judging.selectors import objection_about_choices, objections_of
from judging.services import objection_file


@staff_view(DESK, competition=True)
def objection_new(request, competition):
    """The desk takes an objection (R20): team, optionally the finish or count, the text."""
    team_id = request.POST.get("team") or request.GET.get("team")
    team_id = whole_number(team_id)
    about = objection_about_choices(competition, team_id)
    if request.method == "POST":
        form = ObjectionForm(request.POST, competition=competition, about=about)
        if form.is_valid():
            team = form.cleaned_data["team"]
            kind, _sep, pk = form.cleaned_data["about"].partition(":")
            try:
                objection = objection_file(
                    team=team,
                    by=request.user,
                    text=form.cleaned_data["text"],
                    # Not filtered by team: the service refuses another team's record
                    # with a message, rather than the objection silently losing it.
                    finish=Finish.objects.filter(pk=pk, team__competition=competition).first()
                    if kind == "finish"
                    else None,
                    count=Count.objects.filter(pk=pk, team__competition=competition).first()
                    if kind == "count"
                    else None,
                )
            except Refusal as refusal:
                messages.error(request, refusal.message)
            except ValidationError as exc:
                add_service_errors(form, exc)
            else:
                messages.success(
                    request,
                    _("Objection no. %(id)d from table %(table)d (%(name)s) is filed.")
                    % {"id": objection.pk, "table": team.table, "name": team.name},
                )
                return redirect("desk:objection_new", slug=competition.slug)
    else:
        # The team select sends the "about" already chosen (hx-include): when it is one of
        # the team's own records it stays chosen, so a quick hand never loses it to the swap.
        chosen = request.GET.get("about", "")
        kept = chosen if any(chosen == value for value, _label in _flat(about)) else ""
        form = ObjectionForm(
            competition=competition, about=about, initial={"team": team_id, "about": kept}
        )
    if request.htmx and request.method == "GET":
        # The team select narrows the "about" choices to that team's finishes and count.
        return render(request, "judging/_objection_about.html", {"form": form, "team_id": team_id})
    return render(
        request,
        "judging/objection_new.html",
        {"competition": competition, "form": form, "objections": objections_of(competition)},
    )


def _flat(choices):
    """The (value, label) pairs of a choice list whose groups are (name, [pairs])."""
    for value, label in choices:
        if isinstance(label, list | tuple):
            yield from label
        else:
            yield value, label
