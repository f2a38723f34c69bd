"""The forms of judging's pages: the control room's (corrections, paper sheets, resolving an
objection, logins) and the desk's objection; the clock's are beside its views
(judging/views_control/clock.py). They check shapes only; the services check the rules.
Times and missing spots use competition.fields everywhere."""

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from competition.fields import HmsField, MissingSpotsField
from competition.models import Team
from competition.words import entrant_text
from judging.spot_picker import MissingSpotsMixin
from puzzle_rules.formatting import format_hms


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Reason"), widget=forms.Textarea(attrs={"rows": 2}), max_length=2000
    )


class FinishCorrectForm(MissingSpotsMixin, ReasonForm):
    """The time and the missing pieces with the tablet's picker, and a reason."""

    time = HmsField(label=gettext_lazy("Time (h:mm:ss)"))
    field_order = ["time", "lone", "reason"]


class CountCorrectForm(ReasonForm):
    pieces = forms.IntegerField(label=gettext_lazy("Placed pieces"), min_value=0)


class UnlockForm(forms.Form):
    username = forms.CharField(max_length=255)
    ip_address = forms.GenericIPAddressField(required=False)


class JudgeLoginForm(forms.Form):
    """A judge's login from the control room: the password is checked by the service
    (Django's validators); left empty, a strong one is made."""

    username = forms.RegexField(
        label=gettext_lazy("Username"),
        regex=r"^[\w.@+-]+\Z",
        max_length=150,
        error_messages={"invalid": gettext_lazy("Letters, digits and . @ + - _ only.")},
    )
    password = forms.CharField(
        label=gettext_lazy("Password (empty: a strong one is made)"),
        required=False,
        max_length=128,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )


# --- entering a paper sheet in the control room ----------------------------------
class PaperFinishForm(forms.Form):
    puzzle = forms.IntegerField(min_value=1, max_value=10_000, widget=forms.HiddenInput)
    time = HmsField(label=gettext_lazy("Time (h:mm:ss)"))
    missing = MissingSpotsField(label=gettext_lazy("Missing spots"))
    confirm = forms.BooleanField(
        label=gettext_lazy("The time is right, even if it is fast"), required=False
    )


class PaperCountForm(forms.Form):
    pieces = forms.IntegerField(
        label=gettext_lazy("Placed pieces"), min_value=0, max_value=1_000_000
    )


# --- objections (R20) -------------------------------------------------------------------------
class ObjectionForm(forms.Form):
    """The desk's: the team, optionally the finish or count it is about, the text.
    `about` is the choices of judging.selectors.objection_about_choices."""

    team = forms.ModelChoiceField(
        label=gettext_lazy("Team"),
        queryset=Team.objects.none(),
        empty_label=gettext_lazy("Choose the team"),
    )
    about = forms.ChoiceField(
        label=gettext_lazy("About (optional)"),
        required=False,
        help_text=gettext_lazy("The finish or the count the team objects to, if any."),
    )
    text = forms.CharField(
        label=gettext_lazy("The objection"),
        widget=forms.Textarea(attrs={"rows": 4}),
        max_length=5000,
        help_text=gettext_lazy("In the team's words: what they think is wrong and why."),
    )

    def __init__(self, *args, competition, about, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["team"].queryset = Team.objects.filter(competition=competition).order_by(
            "table"
        )
        self.fields["team"].label_from_instance = lambda t: (
            _("Table %(table)d: %(name)s") % {"table": t.table, "name": t.name}
        )
        self.fields["about"].choices = about
        # In the words of the competition's discipline (deltager, par, hold).
        team, about_field, text = self.fields["team"], self.fields["about"], self.fields["text"]
        team.label = entrant_text(competition, "Team")
        team.empty_label = entrant_text(competition, "Choose the team")
        about_field.help_text = entrant_text(
            competition, "The finish or the count the team objects to, if any."
        )
        text.help_text = entrant_text(
            competition, "In the team's words: what they think is wrong and why."
        )


class ResolveForm(forms.Form):
    """The head judge's: upheld or rejected, a note, and optionally a corrected time, missing
    spots or count (empty: unchanged)."""

    decision = forms.ChoiceField(
        label=gettext_lazy("Decision"),
        choices=[
            ("upheld", gettext_lazy("Upheld")),
            ("rejected", gettext_lazy("Rejected")),
        ],
        widget=forms.RadioSelect,
    )
    note = forms.CharField(
        label=gettext_lazy("Note"),
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=5000,
        help_text=gettext_lazy("Why: it is kept with the objection and any correction."),
    )
    elapsed = HmsField(label=gettext_lazy("Corrected time (h:mm:ss)"), required=False)
    missing = MissingSpotsField(label=gettext_lazy("Corrected missing spots"), empty_value=None)
    pieces = forms.IntegerField(
        label=gettext_lazy("Corrected count (placed pieces)"), required=False, min_value=0
    )

    def __init__(self, *args, objection, **kwargs):
        super().__init__(*args, **kwargs)
        if objection.finish is None:
            del self.fields["elapsed"], self.fields["missing"]
        else:
            now = format_hms(objection.finish.elapsed_seconds)
            self.fields["elapsed"].help_text = _(
                "Now after %(time)s on the competition clock. Empty: unchanged."
            ) % {"time": now}
            self.fields["missing"].help_text = _(
                "Now: %(missing)s. The size of each spot with missing pieces, e.g. 1, 1, 3; "
                "0 for none. Empty: unchanged."
            ) % {"missing": ", ".join(map(str, objection.finish.missing)) or "0"}
        if objection.count is None:
            del self.fields["pieces"]
        else:
            self.fields["pieces"].help_text = _("Now %(pieces)d. Empty: unchanged.") % {
                "pieces": objection.count.pieces
            }

    def corrections(self) -> dict:
        data = self.cleaned_data
        out = {
            "elapsed_seconds": data.get("elapsed"),
            "missing": data.get("missing"),
            "pieces": data.get("pieces"),
        }
        return {k: v for k, v in out.items() if v is not None}


def add_service_errors(form, exc: ValidationError) -> None:
    """Put a service's ValidationError on the form, on a field when the form has it."""
    aliases = {"elapsed_seconds": "elapsed"}
    if hasattr(exc, "error_dict"):
        for field, errors in exc.message_dict.items():
            field = aliases.get(field, field)
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, exc.messages)
