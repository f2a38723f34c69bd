"""The competition's setup (admin): create it (in a championship, an existing or a new one,
or on its own, with its discipline and round), edit it and its puzzle sequence, move it
into another championship before its start."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import transaction
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from competition import selectors, services
from competition.errors import Refusal
from competition.forms import (
    NEW,
    OWN,
    PLACEMENT,
    ChampionshipForm,
    CompetitionForm,
    PuzzleFormSet,
    puzzles_from,
)
from competition.models import DEFAULT_AT_TABLE, Championship, Discipline, Ranking
from competition.roles import ADMIN, staff_view
from competition.services.championships import is_own


class _NewChampionshipInvalid(Exception):
    """The new championship typed on the page was refused (its short name is taken, ...)."""

    def __init__(self, error: ValidationError):
        super().__init__(str(error))
        self.error = error


def errors_to_form(form, exc: ValidationError) -> None:
    if hasattr(exc, "error_dict"):
        for field, errors in exc.message_dict.items():
            for error in errors:
                form.add_error(field if field in form.fields else None, error)
    else:
        for error in exc.messages:
            form.add_error(None, error)


def _new_championship_form(request) -> ChampionshipForm:
    """The new championship's fields: bound only when the page chose a new one."""
    chosen = request.method == "POST" and request.POST.get("championship") == NEW
    return ChampionshipForm(request.POST if chosen else None, prefix="championship")


def _championship(choice: str | None, new: ChampionshipForm, by):
    """The championship the form chose: `services.KEEP` (not sent), None (on its own), a
    new one made now (call inside the page's transaction), or an existing one."""
    if not choice:
        return services.KEEP
    if choice == OWN:
        return None
    if choice == NEW:
        try:
            return services.championship_create(by=by, **new.cleaned_data)
        except ValidationError as exc:
            raise _NewChampionshipInvalid(exc) from None
    found = selectors.championship_get(slug=choice)
    if found is None:
        raise ValidationError({"championship": _("This championship no longer exists.")})
    return found


def _ready(form: CompetitionForm, new: ChampionshipForm, *more: bool) -> bool:
    """Every form valid; the new championship's only when one is chosen."""
    valid = form.is_valid() and all(more)
    if valid and form.cleaned_data["championship"] == NEW:
        valid = new.is_valid()
    return valid


def _page(request, form, new, **context):
    return render(
        request,
        "competition/setup.html",
        {"form": form, "new_championship": new, "competition": None, **context},
    )


@staff_view(ADMIN)
def competition_new(request):
    """A new competition: `?championship=<slug>` (the championship's "Add competition")
    chooses that championship, `?championship=_new` a new one."""
    choices = selectors.championship_choices()
    initial: dict = {"championship": OWN, "discipline": Discipline.TEAM}
    asked = request.GET.get("championship")
    if asked == NEW:  # "A new championship", its fields shown
        initial["championship"] = NEW
    elif asked in dict(choices):
        held = selectors.championship_get(slug=asked)
        initial.update(championship=asked, venue=held.venue if held else "")
    form = CompetitionForm(request.POST or None, initial=initial, championships=choices)
    new = _new_championship_form(request)
    if request.method == "POST" and _ready(form, new):
        data = dict(form.cleaned_data)
        placement = {name: data.pop(name) for name in PLACEMENT}
        data["ranking"] = data["ranking"] or Ranking.DM
        try:
            with transaction.atomic():  # a new championship and its competition, or neither
                held_in = _championship(placement["championship"] or OWN, new, request.user)
                competition = services.competition_create(
                    by=request.user,
                    championship=held_in,
                    discipline=placement["discipline"] or Discipline.TEAM,
                    round=placement["round"] or "",
                    **data,
                )
        except _NewChampionshipInvalid as exc:
            errors_to_form(new, exc.error)
        except ValidationError as exc:
            errors_to_form(form, exc)
        else:
            messages.success(request, _("The competition is created; now add its puzzles."))
            return redirect("desk:setup", slug=competition.slug)
    return _page(request, form, new)


def _saved(request, competition, form, new, formset, started: bool):
    """Save the setup page: the ranking, the fields, where it belongs, the puzzles: all of
    it or, on a refusal, nothing."""
    data = dict(form.cleaned_data)
    ranking = data.pop("ranking") or competition.ranking
    placement = {name: data.pop(name) for name in PLACEMENT}
    discipline = placement["discipline"] or None
    if started:  # the disabled fields only echo what is stored
        data = {f: data[f] for f in ("name", "venue")}
    elif data["max_at_table"] is None:  # empty: the discipline's own
        data["max_at_table"] = DEFAULT_AT_TABLE[Discipline(discipline or competition.discipline)]
    with transaction.atomic():  # a refusal anywhere: nothing saved
        if ranking != competition.ranking:
            services.competition_ranking_set(
                competition=competition, by=request.user, ranking=ranking
            )
        competition = services.competition_update(competition=competition, by=request.user, **data)
        competition = services.competition_placement_set(
            competition=competition,
            by=request.user,
            championship=_championship(placement["championship"], new, request.user),
            discipline=discipline,
            round=placement["round"],
        )
        if not started:
            services.puzzle_sequence_set(
                competition=competition, by=request.user, puzzles=puzzles_from(formset)
            )
    return competition


def _setup_context(competition) -> dict:
    """What the page says of where the competition belongs and what deleting it takes."""
    counts = selectors.team_counts_get(competition=competition)
    held_in: Championship | None = None if is_own(competition) else competition.championship
    return {"held_in": held_in, "entrants": counts["all"] + counts["withdrawn"]}


@staff_view(ADMIN, puzzles=True, related=("championship",))
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
    initial = {f: getattr(competition, f) for f in (*fields, "ranking", "discipline", "round")}
    initial["championship"] = OWN if is_own(competition) else competition.championship.slug
    choices = selectors.championship_choices()
    puzzles_initial = [
        {"id": p.pk, "title": p.title, "brand": p.brand, "pieces": p.pieces, "ORDER": p.position}
        for p in competition.puzzles.all()
    ]
    new = _new_championship_form(request)
    if request.method == "POST":
        form = CompetitionForm(
            request.POST, initial=initial, started=started, championships=choices
        )
        formset = PuzzleFormSet(request.POST, prefix="puzzles", initial=puzzles_initial)
        if _ready(form, new, started or formset.is_valid()):
            try:
                competition = _saved(request, competition, form, new, formset, started)
            except _NewChampionshipInvalid as exc:
                errors_to_form(new, exc.error)
            except ValidationError as exc:
                errors_to_form(form, exc)
            except Refusal as refusal:
                form.add_error(None, str(refusal.message))
            else:
                messages.success(request, _("The competition is saved."))
                return redirect("desk:setup", slug=competition.slug)
    else:
        form = CompetitionForm(initial=initial, started=started, championships=choices)
        formset = PuzzleFormSet(prefix="puzzles", initial=puzzles_initial)
    return _page(
        request,
        form,
        new,
        formset=formset,
        competition=competition,
        started=started,
        **_setup_context(competition),
    )
