"""Forms of the desk and the setup pages. They only read input; the services decide."""

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from competition.imports import MAX_BYTES, too_large_message
from competition.models import Discipline, Ranking
from competition.services.teams import labels_clean
from competition.slugs import SLUG_MAX, slug_from
from competition.words import entrant_text

DATETIME_LOCAL = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


class TeamForm(forms.Form):
    name = forms.CharField(label=_("Team name"), max_length=120)
    table = forms.IntegerField(label=_("Table number"), min_value=1)
    fee_paid = forms.BooleanField(label=_("Entry fee paid"), required=False)
    contact_name = forms.CharField(label=_("Contact person"), max_length=120, required=False)
    contact_email = forms.EmailField(label=_("Contact e-mail"), required=False)
    contact_phone = forms.CharField(label=_("Contact phone"), max_length=40, required=False)
    notes = forms.CharField(
        label=_("Notes"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )
    labels = forms.CharField(
        label=_("Labels"),
        required=False,
        max_length=400,
        help_text=_(
            "For example ung, senior, gæst, separated by commas: each label has its own "
            "ranking on the leaderboard."
        ),
    )

    def __init__(self, *args, discipline: str = Discipline.TEAM, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["name"].label = entrant_text(discipline, "Team name")

    def clean_labels(self) -> list[str]:
        """ "ung, Senior" -> ["ung", "senior"] (the service's rule for each label)."""
        try:
            return labels_clean(self.cleaned_data.get("labels", "").split(","))
        except ValidationError as exc:
            raise forms.ValidationError(exc.messages) from exc


class MemberForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120, required=False)
    under_15 = forms.BooleanField(label=_("Under 15"), required=False)
    guardian = forms.CharField(label=_("Accompanying adult"), max_length=120, required=False)

    def __init__(self, *args, solo: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.solo = solo
        if solo:  # an individual entrant: the puzzler's name is the entrant's own
            del self.fields["name"]

    def clean(self):
        data = super().clean()
        if data.get("under_15") and not (data.get("guardian") or "").strip():
            self.add_error(
                "guardian",
                _("A member under 15 needs the name of the accompanying adult (rule 3)."),
            )
        missing_name = not self.solo and not (data.get("name") or "").strip()
        if missing_name and (data.get("under_15") or data.get("guardian")):
            self.add_error("name", _("Write the member's name."))
        return data


# A posted TOTAL_FORMS of any size builds (and shows again) at most this many forms, not
# Django's 1,000: no table seats 50 puzzlers, no championship has 100 puzzles.
MAX_MEMBER_FORMS = 50
MAX_PUZZLE_FORMS = 100


def member_formset(extra: int, most: int | None = None):
    """The member rows: `extra` empty ones, any number; or exactly `most` rows and never more
    (an individual's one puzzler, a pair's two: competition/words/ `member_limit`)."""
    if most is not None:
        return forms.formset_factory(
            MemberForm, extra=most, max_num=most, absolute_max=most, validate_max=True
        )
    return forms.formset_factory(
        MemberForm,
        extra=extra,
        can_delete=True,
        max_num=MAX_MEMBER_FORMS,
        absolute_max=MAX_MEMBER_FORMS,
    )


def members_from(formset, *, name: str | None = None) -> list[dict]:
    """The kept, non-empty member rows of a valid formset, in order. `name`: the rows are
    an individual entrant's one puzzler (no name of its own), who is called `name`."""
    if name is not None:
        data = formset.forms[0].cleaned_data if formset.forms else {}
        return [
            {
                "name": name,
                "under_15": bool(data.get("under_15")),
                "guardian": data.get("guardian") or "",
            }
        ]
    return [
        {
            "name": f.cleaned_data["name"],
            "under_15": f.cleaned_data["under_15"],
            "guardian": f.cleaned_data["guardian"],
        }
        for f in formset.forms
        if f.cleaned_data
        and not f.cleaned_data.get("DELETE")
        and (f.cleaned_data.get("name") or "").strip()
    ]


SLUG_LABEL = _("Short name in the address")


def _slug_field(label=SLUG_LABEL) -> forms.CharField:
    return forms.CharField(
        label=label,
        max_length=SLUG_MAX,
        required=False,
        help_text=_(
            "Suggested from the name. Small letters a–z, digits and hyphens; æ, ø and å are "
            "written ae, oe and aa."
        ),
    )


def _slug_suggested(form: forms.Form) -> None:
    """The short name field as static/js/slug.mjs suggests it as the name is typed."""
    slug_attrs = form.fields["slug"].widget.attrs
    slug_attrs.update(autocapitalize="none", autocomplete="off", spellcheck="false")
    if not form.initial.get("slug"):  # a new one: suggested as the name is typed
        slug_attrs["data-slug-from"] = form["name"].auto_id


def _slug_clean(form: forms.Form, data: dict) -> dict:
    """The short name as static/js/slug.mjs suggests it: typed or from the name, written
    with a-z, digits and hyphens (a stored one that is left unchanged is kept as it is)."""
    typed = (form.data.get(form.add_prefix("slug")) or "").strip()
    if form.fields["slug"].disabled or (typed and typed == form.initial.get("slug")):
        return data
    slug = slug_from(typed or data.get("name") or "")
    if slug:
        data["slug"] = slug
    elif "slug" not in form.errors and "name" not in form.errors:
        form.add_error(
            "slug",
            _("Write a short name with the letters a–z or digits, e.g. dm-2027."),
        )
    return data


DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


class ChampionshipForm(forms.Form):
    """A championship of several competitions: its name, short name, venue and days."""

    # Its own words: on the new-competition page they stand beside the competition's.
    name = forms.CharField(label=_("Name of the championship"), max_length=200)
    slug = _slug_field(_("The championship's short name in the address"))
    venue = forms.CharField(label=_("The championship's venue"), max_length=200, required=False)
    starts_on = forms.DateField(label=_("First day"), required=False, widget=DATE)
    ends_on = forms.DateField(label=_("Last day"), required=False, widget=DATE)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _slug_suggested(self)

    def clean(self):
        data = _slug_clean(self, super().clean())
        first, last = data.get("starts_on"), data.get("ends_on")
        if first and last and last < first:
            self.add_error("ends_on", _("The last day cannot be before the first day."))
        return data


# The championship choice's own values: never a slug (a slug has no "_").
OWN, NEW = "_own", "_new"
# Where a competition belongs: absent from a form sent from a page whose fields were disabled
# (the clock had started): unchanged, not emptied.
PLACEMENT = ("championship", "discipline", "round")
DISCIPLINE_CHOICES = [
    (Discipline.INDIVIDUAL, _("Individuals: one puzzler at a table")),
    (Discipline.PAIR, _("Pairs: two at a table")),
    (Discipline.TEAM, _("Teams: up to four at a table")),
]


class CompetitionForm(forms.Form):
    championship = forms.ChoiceField(
        label=_("Championship"),
        required=False,
        help_text=_(
            "A championship holds several competitions (heats, a final, pairs, teams) with one "
            "programme, big screen and desk."
        ),
    )
    discipline = forms.ChoiceField(
        label=_("Discipline"),
        choices=DISCIPLINE_CHOICES,
        initial=Discipline.TEAM,
        required=False,
    )
    round = forms.CharField(
        label=_("Round"),
        max_length=100,
        required=False,
        help_text=_("For example Indledende runde A or Finale; empty for a single round."),
    )
    name = forms.CharField(label=_("Name"), max_length=200)
    slug = _slug_field()
    venue = forms.CharField(label=_("Venue"), max_length=200, required=False)
    starts_at = forms.DateTimeField(label=_("Planned start"), widget=DATETIME_LOCAL)
    duration_minutes = forms.IntegerField(label=_("Duration (minutes)"), min_value=1, initial=180)
    max_at_table = forms.IntegerField(
        label=_("Puzzlers at the table at most"),
        min_value=1,
        required=False,
        help_text=_("Empty: the discipline's, 1 for individuals, 2 for pairs, 4 for teams."),
    )
    hide_motifs = forms.BooleanField(
        label=_("Keep the motifs off the public pages until the clock starts"), required=False
    )
    # Not `disabled` once started: a change from a page opened before the start is refused
    # with a sentence (the service), not dropped in silence.
    ranking = forms.ChoiceField(
        label=_("Ranking"),
        choices=Ranking.choices,
        initial=Ranking.DM,
        required=False,
        help_text=_(
            "The Danish rules: most pieces first. The World rules: a team that finished ranks "
            "by its time, 10 seconds added per lone missing piece, before every team that did "
            "not. Locked once the clock has started."
        ),
    )

    def __init__(self, *args, started: bool = False, championships=(), **kwargs):
        """`championships`: (slug, name) of the championships a competition may join."""
        super().__init__(*args, **kwargs)
        _slug_suggested(self)
        self.fields["championship"].choices = [
            (OWN, _("None: on its own")),
            *championships,
            (NEW, _("A new championship …")),
        ]
        self.fields["championship"].widget.attrs["data-championship-choice"] = ""
        self.fields["discipline"].widget.attrs["data-discipline"] = ""
        self.fields["max_at_table"].widget.attrs["data-at-table"] = ""
        if started:  # the clock has started: only the name and the venue may change
            for name in ("slug", "starts_at", "duration_minutes", "max_at_table", "hide_motifs"):
                self.fields[name].disabled = True
            for name in ("ranking", *PLACEMENT):
                self.fields[name].widget.attrs["disabled"] = True

    def clean(self):
        data = _slug_clean(self, super().clean())
        for name in PLACEMENT:  # not sent (a disabled field): unchanged
            if self.is_bound and self.add_prefix(name) not in self.data:
                data[name] = None
        return data


class PuzzleForm(forms.Form):
    id = forms.IntegerField(required=False, widget=forms.HiddenInput)
    title = forms.CharField(label=_("Title (motif)"), max_length=200, required=False)
    brand = forms.CharField(label=_("Brand"), max_length=100, required=False)
    pieces = forms.IntegerField(label=_("Pieces"), min_value=1, required=False)

    def clean(self):
        data = super().clean()
        if (data.get("title") or data.get("brand")) and not data.get("pieces"):
            self.add_error("pieces", _("How many pieces has the puzzle?"))
        return data


PuzzleFormSet = forms.formset_factory(
    PuzzleForm,
    extra=0,
    can_delete=True,
    can_order=True,
    max_num=MAX_PUZZLE_FORMS,
    absolute_max=MAX_PUZZLE_FORMS,
)


def puzzles_from(formset) -> list[dict]:
    """The kept puzzles in the order the organiser gave (ties keep the row order)."""
    rows = [
        (f.cleaned_data.get("ORDER") or 10_000 + i, i, f.cleaned_data)
        for i, f in enumerate(formset.forms)
        if f.cleaned_data and not f.cleaned_data.get("DELETE") and f.cleaned_data.get("pieces")
    ]
    return [
        {"id": d.get("id"), "title": d["title"], "brand": d["brand"], "pieces": d["pieces"]}
        for _o, _i, d in sorted(rows, key=lambda r: (r[0], r[1]))
    ]


class ImportForm(forms.Form):
    file = forms.FileField(
        label=_("Spreadsheet (CSV or Excel .xlsx)"),
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,.xlsx,.txt"}),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_BYTES:
            raise forms.ValidationError(too_large_message())
        if not upload.name.lower().endswith((".csv", ".xlsx", ".txt")):
            raise forms.ValidationError(_("Upload a CSV file (.csv) or an Excel file (.xlsx)."))
        return upload
