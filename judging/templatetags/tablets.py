"""The control room's tablets panel: how long a tablet has been quiet. The panel's
data comes from the view (judging.views_control.tablets.tablets_context): tags do not query."""

from django import template
from django.utils.translation import gettext_lazy as _

register = template.Library()


@register.filter
def silence(seconds: int) -> str:
    """How long a tablet has been quiet: "12 s", "4 min", "2 h"."""
    seconds = int(seconds)
    if seconds < 60:
        return _("%(n)d s") % {"n": seconds}
    if seconds < 3600:
        return _("%(n)d min") % {"n": seconds // 60}
    return _("%(n)d h") % {"n": seconds // 3600}


@register.filter
def table_ranges(tables) -> str:
    """The tables a judge chose, as a person writes them: "1–8, 12"."""
    numbers = sorted({int(t) for t in tables or []})
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(
        str(a) if a == b else f"{a}, {b}" if b == a + 1 else f"{a}–{b}" for a, b in runs
    )
