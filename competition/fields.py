"""The two form fields every form that takes a clock time or missing spots uses.

They check only the shape and have one message each; the rules (a time within the
competition, pieces that fit the puzzle, R8) stay with the services and puzzle_rules/rules.py.
The judge's tablet accepts the same times (static/js: `^(?:(\\d+):)?([0-5]?\\d):([0-5]\\d)$`).
"""

import re

from django import forms
from django.utils.translation import gettext_lazy

# h:mm:ss or m:ss, ASCII digits only (`\d` is any script's); hours up to 999 (int() and the
# database column stay far away from their limits; the service refuses a time too late).
_HMS = re.compile(r"(?:([0-9]{1,3}):)?([0-5]?[0-9]):([0-5][0-9])")
_SPOT_SEPARATORS = re.compile(r"[,;\s]+")
_SPOT = re.compile(r"[0-9]{1,5}")


def parse_hms(text: str) -> int | None:
    """ "1:23:45" (h:mm:ss) or "23:45" (m:ss) -> whole seconds; None when it is not that shape
    (a bare number such as "95" is not a time)."""
    match = _HMS.fullmatch((text or "").strip())
    if match is None:
        return None
    hours, minutes, seconds = (int(part or 0) for part in match.groups())
    return hours * 3600 + minutes * 60 + seconds


def parse_missing(text: str) -> list[int] | None:
    """ "1, 1, 3" -> [1, 1, 3]; "" or "0" alone -> [] (none); None when a part is not a whole
    number of at least 1 (a 0 among other spots, a negative, a word)."""
    parts = [p for p in _SPOT_SEPARATORS.split((text or "").strip()) if p]
    if parts == ["0"]:
        return []
    if not all(_SPOT.fullmatch(p) and int(p) >= 1 for p in parts):
        return None
    return [int(p) for p in parts]


class HmsField(forms.CharField):
    """A time on the competition clock, "h:mm:ss" or "m:ss"; cleans to whole seconds (None
    when empty and not required)."""

    default_error_messages = {
        "invalid": gettext_lazy("Write the time as h:mm:ss or m:ss, for example 1:23:45 or 23:45.")
    }

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.widget.attrs.setdefault("maxlength", "12")
        self.widget.attrs.setdefault("inputmode", "numeric")
        self.widget.attrs.setdefault("autocomplete", "off")

    def to_python(self, value):
        text = super().to_python(value)
        if text in self.empty_values:
            return None
        seconds = parse_hms(text) if len(text) <= 12 else None
        if seconds is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return seconds


class MissingSpotsField(forms.CharField):
    """The spots with missing pieces, one size per spot: "1, 1, 3". Blank or "0" alone is
    none ([]); `empty_value=None` lets a form tell "blank: unchanged" from "0: none"."""

    default_error_messages = {
        "invalid": gettext_lazy(
            "Write the size of each spot with missing pieces as a whole number of at least 1, "
            "for example 1, 1, 3; leave it empty or write 0 for none."
        )
    }

    def __init__(self, *, empty_value=(), **kwargs):
        kwargs.setdefault("required", False)
        self.spots_empty = empty_value
        super().__init__(**kwargs)
        self.widget.attrs.setdefault("maxlength", "200")

    def to_python(self, value):
        text = super().to_python(value)
        if text in self.empty_values:
            return None if self.spots_empty is None else list(self.spots_empty)
        spots = parse_missing(text) if len(text) <= 200 else None
        if spots is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return spots
