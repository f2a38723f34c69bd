"""`{{ finish.missing|missing_words }}`: R8 in words, as the audit log says it ("1 enkelt
manglende brik trukket fra"), never a bare list of spot sizes."""

from django import template
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from competition.audit_text import missing_words as _missing_words

register = template.Library()


@register.filter
def missing_words(missing) -> str:
    return _missing_words(missing)


@register.filter
def missing_spots(missing) -> str:
    """The spots without R8's deduction, for the World rules where a lone missing piece costs
    time instead: "1 enkelt manglende brik; 3 sammenhængende manglende brikker:
    produktionsfejl"."""
    from competition.inputs import whole_number

    spots = [n for n in (whole_number(str(s), low=1) for s in missing or []) if n]
    lone = sum(1 for s in spots if s == 1)
    parts = []
    if lone:
        parts.append(
            ngettext("%(n)d lone missing piece", "%(n)d lone missing pieces", lone) % {"n": lone}
        )
    for size in (s for s in spots if s > 1):
        parts.append(_("%(n)d adjacent missing pieces: production fault") % {"n": size})
    return "; ".join(parts)
