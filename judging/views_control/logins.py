"""Logins locked by too many wrong passwords (login throttling, docs/contracts.md "Running")."""

import logging

from django.contrib import messages
from django.db.models import Max
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _

from competition.roles import ADMIN, staff_view
from judging.forms import UnlockForm

log = logging.getLogger(__name__)


@staff_view(ADMIN, competition=True)
def logins(request, competition):
    """Logins locked by too many wrong passwords from one address, to unlock by hand (the
    command line does the same: `manage.py axes_reset_username NAME`)."""
    from axes.helpers import get_cool_off
    from axes.models import AccessAttempt
    from django.conf import settings
    from django.db.models import Sum

    locked = (
        AccessAttempt.objects.filter(attempt_time__gte=timezone.now() - get_cool_off(request))
        .values("username", "ip_address")
        .annotate(failures=Sum("failures_since_start"), last=Max("attempt_time"))
        .filter(failures__gte=settings.AXES_FAILURE_LIMIT)
        .order_by("-last")
    )
    return render(
        request, "judging/control_logins.html", {"competition": competition, "locked": locked}
    )


@staff_view(ADMIN, competition=True, post=True)
def unlock(request, competition):
    from axes.utils import reset

    form = UnlockForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a locked login to unlock."))
        return redirect("control:logins", slug=competition.slug)
    username, address = form.cleaned_data["username"], form.cleaned_data["ip_address"] or None
    if reset(username=username, ip=address):
        log.warning("Login %r from %s unlocked by %s", username, address, request.user)
        messages.success(request, _("“%(name)s” may log in again.") % {"name": username})
    return redirect("control:logins", slug=competition.slug)
