"""Filters for the public pages: texts stored per language (clock times: `clock_time`), and
what the World rules add to a time (issue 34)."""

from django import template
from django.utils.translation import get_language, ngettext

from scoring.selectors.tie_break import short_duration

register = template.Library()


@register.filter
def in_language(texts):
    """A {"da": ..., "en": ...} dict's text in the current language (Danish by default)."""
    if not texts:
        return ""
    lang = (get_language() or "da")[:2]
    return texts.get(lang) or texts.get("da", "")


@register.filter
def penalty_words(row) -> str:
    """Under the World rules (`wjpc`), what a standings row's lone missing pieces add to its
    time: "+10 sek. for 1 manglende brik"; "" without a penalty."""
    seconds = (row or {}).get("penalty_seconds") or 0
    if seconds <= 0:
        return ""
    n = row.get("lone_missing") or 0
    return ngettext(
        "+%(time)s for %(n)d missing piece", "+%(time)s for %(n)d missing pieces", n
    ) % {"time": short_duration(seconds), "n": n}


@register.filter
def penalty_short(seconds) -> str:
    """A time penalty in a few words: "+10 sek."; "" for none."""
    return f"+{short_duration(seconds)}" if seconds and seconds > 0 else ""


@register.filter
def ranked_seconds(row) -> int | None:
    """Under the World rules, the time a row ranks by: its last whole puzzle plus its
    penalty (None for one that did not finish every puzzle)."""
    return (row or {}).get("ranking_seconds")
