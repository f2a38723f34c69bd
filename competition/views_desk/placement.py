"""A championship made from the pages (admin): "New championship"; and deleting what was made
by mistake: a competition before its start (from its setup page), a championship that holds
no competitions (from its control room). The delete's address is a competition's with the
championship's slug (`staff_view(..., championship=...)`), as every championship page is."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from competition import selectors, services
from competition.errors import Refusal
from competition.forms import ChampionshipForm
from competition.models import Championship
from competition.roles import ADMIN, staff_view
from competition.views_desk.setup import errors_to_form
from competition.words import entrant_text

__all__ = ["championship_new", "delete"]


@staff_view(ADMIN)
def championship_new(request):
    """A championship of several competitions; then its control room, to add them."""
    form = ChampionshipForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            championship = services.championship_create(by=request.user, **form.cleaned_data)
        except ValidationError as exc:
            errors_to_form(form, exc)
        else:
            messages.success(request, _("The championship is created; now add its competitions."))
            return redirect("control:room", slug=championship.slug)
    return render(request, "competition/championship_new.html", {"form": form})


def _championship_delete(request, championship: Championship):
    """A championship's slug: delete it when it holds no competitions."""
    try:
        services.championship_delete(championship=championship, by=request.user)
    except Refusal as refusal:
        messages.error(request, str(refusal.message))
        return redirect("control:room", slug=championship.slug)
    messages.success(
        request, _("The championship “%(name)s” is deleted.") % {"name": championship.name}
    )
    return redirect("public:home")


@staff_view(ADMIN, competition=True, post=True, championship=_championship_delete)
def delete(request, competition):
    """Delete a competition made by mistake, before its start; then its championship's
    control room (the home page for one that stood on its own)."""
    counts = selectors.team_counts_get(competition=competition)
    entrants = counts["all"] + counts["withdrawn"]
    try:
        held_in = services.competition_delete(competition=competition, by=request.user)
    except Refusal as refusal:
        messages.error(request, str(refusal.message))
        return redirect("desk:setup", slug=competition.slug)
    said = entrant_text(
        competition, "“%(name)s” is deleted with its %(n)s team.", name=competition.name, n=entrants
    )
    messages.success(request, said)
    if held_in is not None:
        return redirect("control:room", slug=held_in.slug)
    return redirect("public:home")
