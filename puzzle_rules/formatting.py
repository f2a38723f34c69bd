"""Times and gaps as people read them: h:mm:ss and "2 minutter og 5 sekunder".

Pure like the rules (no Django, no project module), so every floor may use it: the rules'
refusals, the pages, the exports and the audit log all say a time the same way."""

from __future__ import annotations

__all__ = ["duration_parts", "format_duration", "format_hms", "language_of", "plural_count"]

_UNITS = {
    "da": {
        "hour": ("time", "timer"),
        "minute": ("minut", "minutter"),
        "second": ("sekund", "sekunder"),
        "and": "og",
    },
    "en": {
        "hour": ("hour", "hours"),
        "minute": ("minute", "minutes"),
        "second": ("second", "seconds"),
        "and": "and",
    },
}


def language_of(language: str) -> str:
    """ "da", "en", "en-gb", "da_DK" ... -> "da" or "en"; anything else -> "da" (the default)."""
    code = language.replace("_", "-").split("-")[0].lower()
    return code if code in _UNITS else "da"


def format_hms(seconds: int) -> str:
    """Whole seconds as h:mm:ss ("1:23:45", "0:00:45"), the clock format in both languages."""
    if seconds < 0:
        raise ValueError(f"seconds must not be negative, not {seconds}")
    seconds = int(seconds)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}"


def duration_parts(seconds: int) -> list[tuple[str, int]]:
    """A gap between two times in the units a person says it in, largest first.

    Under a minute: seconds ([("second", 45)]); under an hour: minutes and any seconds
    ([("minute", 2), ("second", 5)]); an hour or more: hours and any minutes, the seconds
    left out ([("hour", 1), ("minute", 5)]).
    """
    if seconds < 0:
        raise ValueError(f"seconds must not be negative, not {seconds}")
    seconds = int(seconds)
    if seconds < 60:
        return [("second", seconds)]
    if seconds < 3600:
        minutes, secs = divmod(seconds, 60)
        return [("minute", minutes)] + ([("second", secs)] if secs else [])
    hours, rest = divmod(seconds, 3600)
    minutes = rest // 60
    return [("hour", hours)] + ([("minute", minutes)] if minutes else [])


def format_duration(seconds: int, language: str = "da") -> str:
    """A gap between two times, as a person says it (duration_parts, in words):
    "45 sekunder", "2 minutter og 5 sekunder", "1 time og 5 minutter"."""
    units = _UNITS[language_of(language)]
    parts = []
    for unit, n in duration_parts(seconds):
        one, many = units[unit]
        parts.append(f"{n} {one if n == 1 else many}")
    return f" {units['and']} ".join(parts)


def plural_count(value: str | float) -> int:
    """The number a sentence's plural form is chosen by, for a setting that may be a fraction
    ("every 0.5 minutes"): a whole value as itself, anything else as many (2)."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return 2
    return int(number) if number.is_integer() else 2
