"""Filters for the public pages: clock times and texts stored per language."""

from django import template
from django.utils.translation import get_language

from scoring.rules import format_hms

register = template.Library()


@register.filter
def hms(seconds) -> str:
    """Whole seconds as h:mm:ss; a dash when there is no time."""
    if seconds is None or seconds == "":
        return "–"
    return format_hms(int(seconds))


@register.filter
def in_language(texts):
    """A {"da": ..., "en": ...} dict's text in the current language (Danish by default)."""
    if not texts:
        return ""
    lang = (get_language() or "da")[:2]
    return texts.get(lang) or texts.get("da", "")
