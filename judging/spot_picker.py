"""The missing-pieces picker for corrections in the control room (R8): the
tablet's picker on a laptop. Lone missing pieces are a number (each is deducted); each spot of
adjacent missing pieces is its own number of at least 2 (a production fault, not deducted).
Works without JavaScript (number fields); control.mjs adds the tablet's steppers and keeps the
deduction sentence up to date."""

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from competition.inputs import whole_number
from puzzle_rules.rules import deducted

MAX_SPOTS = 50


def deduction_text(missing) -> str:
    """What R8 makes of the spots, in the tablet's words: "1 brik trækkes fra · Produktionsfejl,
    trækkes ikke fra: 3 brikker"."""
    lone = deducted(missing)
    fault = sum(size for size in missing if size >= 2)
    text = (
        _("Nothing is deducted")
        if lone == 0
        else _("1 piece deducted")
        if lone == 1
        else _("%(n)s pieces deducted") % {"n": lone}
    )
    if fault:
        text += " · " + _("Production fault, not deducted: %(n)s pieces") % {"n": fault}
    return text


def picker_texts() -> dict:
    """The sentences control.mjs needs, as data attributes (no inline script under the CSP)."""
    return {
        "none": _("Nothing is deducted"),
        "one": _("1 piece deducted"),
        "many": _("%(n)s pieces deducted"),
        "fault": _("Production fault, not deducted: %(n)s pieces"),
    }


class MissingSpotsMixin(forms.Form):
    """`lone` and a list of `adjacent` spot sizes; `cleaned_data["missing"]` is R8's list."""

    lone = forms.IntegerField(
        label=gettext_lazy("Lone missing pieces (deducted)"),
        min_value=0,
        max_value=10000,
        required=False,
        widget=forms.NumberInput(attrs={"class": "num", "inputmode": "numeric", "min": 0}),
    )

    @staticmethod
    def initial_from(missing) -> dict:
        missing = list(missing or [])
        return {"lone": missing.count(1), "adjacent": [s for s in missing if s >= 2]}

    def adjacent_values(self) -> list[str]:
        """The spots as typed (bound) or as saved (unbound), plus one empty field to add one."""
        if self.is_bound:
            values = [v for v in self.data.getlist(self.add_prefix("adjacent")) if v.strip()]
        else:
            values = [str(v) for v in self.initial.get("adjacent", [])]
        return [*values[:MAX_SPOTS], ""]

    def clean(self):
        data = super().clean()
        sizes = []
        for raw in self.data.getlist(self.add_prefix("adjacent"))[: MAX_SPOTS + 1]:
            raw = raw.strip()
            if not raw:
                continue
            size = whole_number(raw, low=2, high=10000)
            if size is None:
                self.add_error(
                    None,
                    _(
                        "A spot of adjacent missing pieces has at least 2 pieces; "
                        "count a single piece as a lone missing piece."
                    ),
                )
                return data
            sizes.append(size)
        data["missing"] = [1] * (data.get("lone") or 0) + sizes
        return data

    def picker(self) -> dict:
        """What templates/judging/_spot_picker.html shows."""
        if self.is_bound and hasattr(self, "cleaned_data") and "missing" in self.cleaned_data:
            missing = self.cleaned_data["missing"]
        elif self.is_bound:
            missing = []
        else:
            missing = [1] * (self.initial.get("lone") or 0) + list(self.initial.get("adjacent", []))
        return {
            "lone": self["lone"],
            "adjacent": self.adjacent_values(),
            "adjacent_name": self.add_prefix("adjacent"),
            "deduction": deduction_text(missing),
            "texts": picker_texts(),
        }
