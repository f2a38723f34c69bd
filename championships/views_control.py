"""The head judge advances entrants into a round from the control room (docs/contracts.md "A
championship of several competitions"): /control/<round>/advance/.

GET: the earlier rounds of the championship to take the entrants from, how many go on (of
each round or of all together) and, once those are given, the preview of who goes on by the
sources' final standings (R11), with each tie at the cut and its entrants' pieces and times.
The preview is a plain GET (a link that can be reloaded); htmx swaps only its part. POST:
the advance itself, with the tie decided (all the tied go on, or the chosen ones), through
the service (`championships.services.advance`, audited). Every refusal is said on the page
with the preview kept; nothing is written then.
"""

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from championships import selectors, services
from competition.errors import Refusal
from competition.inputs import whole_number
from competition.models import Competition, Status
from competition.roles import ADMIN, staff_view
from puzzle_rules.formatting import format_hms

EACH, ALL = "each", "all"
TAKE_ALL, CHOOSE = "all", "choose"


class AdvanceForm(forms.Form):
    """Which rounds, how many, of each or of all; on the confirmation also the tie's
    decision. Shapes only: the rules are the service's."""

    best = forms.IntegerField(
        label=gettext_lazy("How many go on"),
        min_value=1,
        max_value=100_000,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "input-short"}),
    )
    per = forms.ChoiceField(
        label=gettext_lazy("The best"),
        choices=[
            (EACH, gettext_lazy("of each round")),
            (ALL, gettext_lazy("of all the rounds together")),
        ],
        initial=EACH,
        widget=forms.RadioSelect,
    )
    tie = forms.ChoiceField(
        label=gettext_lazy("A tie at the cut"),
        choices=[
            (TAKE_ALL, gettext_lazy("all the tied entrants go on")),
            (CHOOSE, gettext_lazy("I choose who goes on")),
        ],
        required=False,
        widget=forms.RadioSelect,
    )
    choose = forms.Field(
        label=gettext_lazy("The tied entrants who go on"),
        required=False,
        widget=forms.MultipleHiddenInput,
    )

    def __init__(self, *args, rounds: list[Competition], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["from"] = forms.MultipleChoiceField(
            label=_("From the rounds"),
            choices=[(c.slug, c.name) for c in rounds],
            widget=forms.CheckboxSelectMultiple,
            error_messages={
                "required": _("Choose at least one earlier round."),
                "invalid_choice": _("“%(value)s” is not an earlier round of this championship."),
            },
        )
        self.order_fields(["from", "best", "per", "tie", "choose"])

    def clean_choose(self) -> list[int]:
        ids = []
        for value in self.cleaned_data.get("choose") or []:
            number = whole_number(value, low=1)
            if number is None:
                raise ValidationError(_("Choose only among the entrants tied at the cut."))
            ids.append(number)
        return ids

    def decision(self) -> dict:
        """The service's `include_tied` / `choose` from the tie's decision."""
        tie = self.cleaned_data.get("tie") or (CHOOSE if self.cleaned_data["choose"] else "")
        return {
            "include_tied": tie == TAKE_ALL,
            "choose": self.cleaned_data["choose"] if tie == CHOOSE else None,
        }


def _entrant(row: dict, source: Competition) -> dict:
    """A candidate as the preview shows it: its place, pieces and last whole puzzle there."""
    last = row["last_finish_seconds"]
    return {
        "id": row["team"]["id"],
        "name": row["team"]["name"],
        "source": source,
        "rank": row["rank"],
        "pieces": row["pieces"],
        "finished": row["finished"],
        "last": format_hms(last) if last is not None else "",
    }


def _say(form: AdvanceForm, exc: Refusal | ValidationError) -> None:
    """A refusal or a service's field errors on the form, each sentence once (the preview
    and the advance may refuse with the same one)."""
    if isinstance(exc, Refusal):
        exc = ValidationError(exc.message)
    said = {str(e) for errors in form.errors.values() for e in errors}
    if hasattr(exc, "error_dict"):
        for field, errors in exc.message_dict.items():
            fresh = [e for e in errors if e not in said]
            if fresh:
                form.add_error(field if field in form.fields else None, fresh)
    else:
        fresh = [e for e in exc.messages if e not in said]
        if fresh:
            form.add_error(None, fresh)


def _preview(form: AdvanceForm, data: dict | None, competition, rounds) -> dict:
    """What the page shows below the form for the rounds and numbers in `data` (the form's
    cleaned data): who goes on, the ties, or why not (on the form)."""
    if data is None:
        return {}
    try:
        preview = selectors.advance_preview(
            competition=competition,
            sources=data["from"],
            best=data["best"],
            per_source=data["per"] == EACH,
        )
    except (Refusal, ValidationError) as exc:
        _say(form, exc)
        return {}
    by_slug = preview.rounds

    def show(entrant) -> dict:
        return _entrant(preview.rows[entrant.team], by_slug[entrant.source])

    ties = [
        {
            "source": by_slug[tie.source] if tie.source is not None else None,
            "seats": tie.seats,
            "entrants": [show(e) for e in tie.tied],
        }
        for tie in preview.result.ties
    ]
    return {
        "sure": [show(e) for e in preview.result.sure],
        "ties": ties,
        "seats": len(preview.result.sure) + sum(t["seats"] for t in ties),
        "went_on": [c.name for c in rounds if c.slug in by_slug and c.has_advanced],
        "chosen": set(data.get("choose") or []),
        "tie_choice": data.get("tie") or "",
    }


def _round_rows(form: AdvanceForm, rounds: list[Competition]) -> list[dict]:
    """Each earlier round with its status and whether it is ticked."""
    ticked = set(form["from"].value() or [])
    return [
        {"c": c, "status": c.status, "label": Status(c.status).label, "checked": c.slug in ticked}
        for c in rounds
    ]


def _page(request, competition, rounds, form: AdvanceForm, data: dict | None):
    fragment = bool(request.htmx and request.htmx.target == "advance-preview")
    context = {
        "competition": competition,
        "form": form,
        "rounds": rounds,
        "round_rows": _round_rows(form, rounds),
        "fragment": fragment,
        "advanced": selectors.advanced_into(competition),
        "setup": competition.status == Status.SETUP,
        **_preview(form, data, competition, rounds),
    }
    if fragment:
        return render(request, "championships/_advance_preview.html", context)
    return render(request, "championships/control_advance.html", context)


@staff_view(ADMIN, competition=True)
def advance(request, competition):
    """The head judge's advance into this round: the preview (GET), the advance (POST)."""
    rounds = selectors.earlier_rounds(competition)
    if request.method == "POST":
        return _confirm(request, competition, rounds)
    asked = "best" in request.GET or "from" in request.GET
    initial = {"from": [c.slug for c in _likely_sources(competition, rounds)], "per": EACH}
    form = AdvanceForm(request.GET if asked else None, rounds=rounds, initial=initial)
    data = form.cleaned_data if asked and form.is_valid() else None
    return _page(request, competition, rounds, form, data)


def _likely_sources(competition: Competition, rounds: list[Competition]) -> list[Competition]:
    """Ticked at first: the earlier rounds of the same discipline (a final's heats)."""
    return [
        c
        for c in rounds
        if c.discipline == competition.discipline and c.starts_at < competition.starts_at
    ]


def _confirm(request, competition: Competition, rounds: list[Competition]):
    form = AdvanceForm(request.POST, rounds=rounds)
    if not form.is_valid():
        return _page(request, competition, rounds, form, None)
    data = dict(form.cleaned_data)
    try:
        advanced = services.advance(
            competition=competition,
            sources=data["from"],
            best=data["best"],
            per_source=data["per"] == EACH,
            by=request.user,
            **form.decision(),
        )
    except Refusal as refusal:
        if refusal.code == "tie_at_cut":  # the API's sentence names its fields
            form.add_error(
                "tie",
                _("Entrants are tied at the cut: choose whether all of them go on, or which."),
            )
        else:
            _say(form, refusal)
        return _page(request, competition, rounds, form, data)
    except ValidationError as exc:
        _say(form, exc)
        return _page(request, competition, rounds, form, data)
    messages.success(
        request,
        _("%(n)s went on to “%(name)s”: %(names)s.")
        % {
            "n": len(advanced),
            "name": competition.name,
            "names": ", ".join(a.team.name for a in advanced),
        },
    )
    return redirect(reverse("control:room", args=[competition.slug]))
