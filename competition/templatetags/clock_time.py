"""`{{ seconds|hms }}`: a time on the competition clock as h:mm:ss ("1:02:03"), a dash when
there is none. The one template filter for clock times; it calls puzzle_rules.formatting.format_hms,
the one formatter (puzzle_rules/formatting.py is pure: every app may use it)."""

from django import template

from puzzle_rules.formatting import format_hms

register = template.Library()


@register.filter
def hms(seconds) -> str:
    if seconds is None or seconds == "":
        return "–"
    return format_hms(int(seconds))
