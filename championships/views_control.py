"""The head judge advances entrants into a round from the control room (docs/contracts.md "A
championship of several competitions"): /control/<round>/advance/.

GET: the earlier rounds to take the entrants from (`competition.selectors.source_rounds`: of
the round's championship and discipline, planned to start before it; a first round has none
and the page says so), how many go on (of each round or of all together) and, once those are
given, the preview of who goes on by the sources' final standings (R11), with each tie at the
cut and its entrants' pieces and times. It says how many go on only once that is true: while
a tie at the cut is undecided, who is sure and how many places the tie holds. The preview is
a plain GET (a link that can be reloaded, the tie's decision included); htmx swaps only its
part. POST: the advance itself, with the tie decided (all the tied go on, or the chosen ones),
through the service (`championships.services.advance`, audited). Every refusal is said on
the page with the preview kept; nothing is written then. POST …/advance/undo takes the
advance back before the round starts (`advance_undo`, audited).
"""

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from championships import selectors, services
from competition.errors import Refusal
from competition.inputs import whole_number
from competition.models import Competition, Status
from competition.roles import ADMIN, staff_view
from puzzle_rules import championship
from puzzle_rules.formatting import format_hms
from puzzle_rules.rules import RuleViolation

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
                "invalid_choice": _(
                    "“%(value)s” is not an earlier round of this round's discipline in the "
                    "championship."
                ),
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
        chosen = self.cleaned_data.get("choose") or []
        tie = self.cleaned_data.get("tie") or (CHOOSE if chosen else "")
        return {"include_tied": tie == TAKE_ALL, "choose": chosen if tie == CHOOSE else None}


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
        "tie_seats": sum(t["seats"] for t in ties),
        "tied_count": len(preview.result.tied),
        "going": _going(form, preview),
        "went_on": [c.name for c in rounds if c.slug in by_slug and c.has_advanced],
        "chosen": set(data.get("choose") or []),
        "tie_choice": data.get("tie") or "",
    }


def _going(form: AdvanceForm, preview) -> int | None:
    """How many go on, once it is true: with no tie at the cut, or with each tie decided as
    the form says (all the tied, or exactly its places of them); None while undecided."""
    result = preview.result
    if not result.ties:
        return len(result.sure)
    decision = form.decision()
    pairs = None
    if decision["choose"] is not None:
        source_of = {e.team: e.source for e in result.tied}
        pairs = [(source_of.get(pk), pk) for pk in decision["choose"]]
    try:
        return len(championship.decide(result, choose=pairs, include_tied=decision["include_tied"]))
    except RuleViolation:
        return None


def _round_rows(form: AdvanceForm, rounds: list[Competition]) -> list[dict]:
    """Each earlier round with its status and whether it is ticked."""
    ticked = set(form["from"].value() or [])
    return [
        {"c": c, "status": c.status, "label": Status(c.status).label, "checked": c.slug in ticked}
        for c in rounds
    ]


def _page(request, competition, rounds, form: AdvanceForm, data: dict | None):
    # The preview alone, for htmx: the whole of it, or its heading when the tie is decided.
    fragment = bool(request.htmx and request.htmx.target in ("advance-preview", "advance-going"))
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
    initial = {"from": [c.slug for c in _likely_sources(rounds)], "per": EACH}
    form = AdvanceForm(request.GET if asked else None, rounds=rounds, initial=initial)
    data = form.cleaned_data if asked and form.is_valid() else None
    return _page(request, competition, rounds, form, data)


def _likely_sources(rounds: list[Competition]) -> list[Competition]:
    """Ticked at first: the earlier rounds whose entrants have not gone on to another round
    (a final's heats; not the heats behind its semifinal)."""
    return [c for c in rounds if not c.went_elsewhere]


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


@staff_view(ADMIN, competition=True, post=True)
def advance_undo(request, competition):
    """ "Fortryd videregangen": the entrants that went on into this round are removed before
    its start, through the service (audited); back to the advance page, where the same or
    another advance can be made. A refusal is said there; nothing is written then."""
    try:
        removed = services.advance_undo(competition=competition, by=request.user)
    except Refusal as refusal:
        messages.error(request, str(refusal.message))
    else:
        messages.success(
            request,
            ngettext(
                "The advance is taken back: %(n)s entrant is no longer in “%(name)s”: %(names)s.",
                "The advance is taken back: %(n)s entrants are no longer in “%(name)s”: %(names)s.",
                len(removed),
            )
            % {
                "n": len(removed),
                "name": competition.name,
                "names": ", ".join(a.team.name for a in removed),
            },
        )
    return redirect(reverse("control:advance", args=[competition.slug]))
