"""The competition's setup (admin): create it, edit it and its puzzle sequence."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import transaction
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from competition import services
from competition.errors import Refusal
from competition.forms import CompetitionForm, PuzzleFormSet, puzzles_from
from competition.models import Ranking
from competition.roles import ADMIN, staff_view


@staff_view(ADMIN)
def competition_new(request):
    form = CompetitionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            data = {**form.cleaned_data, "ranking": form.cleaned_data["ranking"] or Ranking.DM}
            competition = services.competition_create(by=request.user, **data)
        except ValidationError as exc:
            _errors_to_form(form, exc)
        else:
            messages.success(request, _("The competition is created; now add its puzzles."))
            return redirect("desk:setup", slug=competition.slug)
    return render(request, "competition/setup.html", {"form": form, "competition": None})


def _errors_to_form(form, exc: ValidationError) -> None:
    if hasattr(exc, "error_dict"):
        for field, errors in exc.message_dict.items():
            for error in errors:
                form.add_error(field if field in form.fields else None, error)
    else:
        for error in exc.messages:
            form.add_error(None, error)


@staff_view(ADMIN, puzzles=True)
def setup(request, competition):
    """Edit the competition and its puzzle sequence while it is in setup."""
    started = competition.started_at is not None
    fields = (
        "name",
        "slug",
        "venue",
        "starts_at",
        "duration_minutes",
        "max_at_table",
        "hide_motifs",
    )
    initial = {f: getattr(competition, f) for f in (*fields, "ranking")}
    puzzles_initial = [
        {"id": p.pk, "title": p.title, "brand": p.brand, "pieces": p.pieces, "ORDER": p.position}
        for p in competition.puzzles.all()
    ]
    if request.method == "POST":
        form = CompetitionForm(request.POST, initial=initial, started=started)
        formset = PuzzleFormSet(request.POST, prefix="puzzles", initial=puzzles_initial)
        sequence_ok = started or formset.is_valid()
        if form.is_valid() and sequence_ok:
            try:
                data = dict(form.cleaned_data)
                ranking = data.pop("ranking") or competition.ranking
                if started:  # the disabled fields only echo what is stored
                    data = {f: data[f] for f in ("name", "venue")}
                with transaction.atomic():  # the ranking refused after the start: nothing saved
                    if ranking != competition.ranking:
                        services.competition_ranking_set(
                            competition=competition, by=request.user, ranking=ranking
                        )
                    competition = services.competition_update(
                        competition=competition, by=request.user, **data
                    )
                    if not started:
                        services.puzzle_sequence_set(
                            competition=competition,
                            by=request.user,
                            puzzles=puzzles_from(formset),
                        )
            except ValidationError as exc:
                _errors_to_form(form, exc)
            except Refusal as refusal:
                form.add_error(None, str(refusal.message))
            else:
                messages.success(request, _("The competition is saved."))
                return redirect("desk:setup", slug=competition.slug)
    else:
        form = CompetitionForm(initial=initial, started=started)
        formset = PuzzleFormSet(prefix="puzzles", initial=puzzles_initial)
    return render(
        request,
        "competition/setup.html",
        {"form": form, "formset": formset, "competition": competition, "started": started},
    )
