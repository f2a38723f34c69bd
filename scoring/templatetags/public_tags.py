"""Filters for the public pages: texts stored per language (clock times: `clock_time`)."""

from django import template
from django.utils.translation import get_language

register = template.Library()


@register.filter
def in_language(texts):
    """A {"da": ..., "en": ...} dict's text in the current language (Danish by default)."""
    if not texts:
        return ""
    lang = (get_language() or "da")[:2]
    return texts.get(lang) or texts.get("da", "")
