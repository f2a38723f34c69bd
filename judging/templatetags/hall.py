"""The control room's hall panel (issue 13): the tablets, the last backup, the judges' QR."""

from django import template
from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from competition.qr import only_here, qr_svg
from judging import backups
from judging.selectors import tablets_health
from judging.views_hall import judge_url

register = template.Library()

BACKUP_REASONS = {
    "auto": _("periodic"),
    "clock_end": _("time is up"),
    "clock_stop": _("clock stopped"),
    "final": _("final results"),
    "manual": _("by hand"),
    "pre_restore": _("before a restore"),
}


@register.simple_tag(takes_context=True)
def hall_panel(context, competition) -> dict:
    """What the panel shows; three queries."""
    url = judge_url(context["request"], competition)
    status = backups.status()
    return {
        "tablets": tablets_health(competition, timezone.now()),
        "backup": status,
        "backup_reason": BACKUP_REASONS.get(status["last"].reason, "") if status["last"] else "",
        "judge_url": url,
        "judge_qr": qr_svg(url, scale=3),
        "only_here": only_here(url),
        "app_version": settings.APP_VERSION,
    }


@register.filter
def silence(seconds: int) -> str:
    """How long a tablet has been quiet: "12 s", "4 min", "2 h"."""
    seconds = int(seconds)
    if seconds < 60:
        return _("%(n)d s") % {"n": seconds}
    if seconds < 3600:
        return _("%(n)d min") % {"n": seconds // 60}
    return _("%(n)d h") % {"n": seconds // 3600}
