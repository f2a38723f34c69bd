"""How a sign-up sheet's cell is read when it holds a mark ("paid", "under 15": "x", "ja",
"Betalt", "ja (MobilePay)", "nej") or ages ("55, 55, 44, 10"): each problem a sentence for the
desk, appended to the row's problems."""

import re

from django.utils.translation import gettext as _

from competition.inputs import whole_number

# What a "paid" or "under 15" cell may say ("Betalt", "ja (MobilePay)", ✓ ...).
YES = {"x", "ja", "j", "yes", "y", "1", "true", "sand", "✓", "✔", "☑", "betalt", "paid", "ok"}
YES_FIRST = YES | {"mobilepay", "kontant", "cash", "overført", "bank"}
NO = {"", "nej", "n", "no", "0", "false", "falsk", "-", "ubetalt", "unpaid"}
NO_FIRST = NO - {""} | {"ikke", "not", "mangler", "endnu"}

# One cell of ages, one per member: "55, 55, 44, 10", "34 og 12 år".
_AGES = re.compile(r"[\s,;/+&]+|\bog\b|\band\b")


def mark_value(value: str) -> bool | None:
    """True (yes), False (no or empty) or None (not understood) for a mark cell: "x", "ja",
    "Betalt", "ja (MobilePay)", "✓", "nej", "ikke betalt"..."""
    text = value.strip().lower()
    outside = re.sub(r"\(.*?\)", " ", text)
    text = " ".join(re.sub(r"[.!,:;]+", " ", outside if outside.strip() else text).split())
    if text in NO:
        return False
    if text in YES:
        return True
    first = text.split(" ", 1)[0]
    if first in NO_FIRST:
        return False
    if first in YES_FIRST:
        return True
    return None


def mark(value: str, column: str, problems: list[str]) -> bool:
    understood = mark_value(value)
    if understood is None:
        problems.append(
            _(
                "The “%(column)s” column does not take “%(value)s”: write ja or x, or leave "
                "the cell empty."
            )
            % {"value": value, "column": column}
        )
    return bool(understood)


def _age(text: str) -> int | None:
    text = text.strip().lower().removesuffix("år").removesuffix("years").strip()
    return whole_number(text, low=0, high=150)


def age_under_15(value: str, problems: list[str]) -> bool:
    if not value.strip():
        return False
    age = _age(value)
    if age is None:
        problems.append(_("“%(value)s” is not an age in years.") % {"value": value})
        return False
    return age < 15


def read_ages(value: str, problems: list[str]) -> list[int | None]:
    """ "55, 55, 44, 10" -> [55, 55, 44, 10]: one age per member, in the members' order."""
    text = value.lower().replace("år", " ").replace("years", " ")
    parts = [part for part in _AGES.split(text) if part.strip()]
    ages = [_age(part) for part in parts]
    if any(age is None for age in ages):
        problems.append(_("“%(value)s” is not an age in years.") % {"value": value})
    return ages
