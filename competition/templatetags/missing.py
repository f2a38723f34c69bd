"""`{{ finish.missing|missing_words }}`: R8 in words, as the audit log says it ("1 enkelt
manglende brik trukket fra"), never a bare list of spot sizes."""

from django import template

from competition.audit_text import missing_words as _missing_words

register = template.Library()


@register.filter
def missing_words(missing) -> str:
    return _missing_words(missing)
