"""What the control room's views share: refusals as messages, where to go back to."""

from django.contrib import messages
from django.urls import reverse

from competition.errors import Refusal
from competition.inputs import redirect_next


def refused(request, exc) -> None:
    """A service's Refusal or ValidationError as error messages."""
    if isinstance(exc, Refusal):
        messages.error(request, exc.message)
    else:
        for error in exc.messages:
            messages.error(request, error)


def form_errors(request, form) -> None:
    """Each of a form's errors as an error message (forms with no page of their own)."""
    for errors in form.errors.values():
        for error in errors:
            messages.error(request, error)


def back(request, slug):
    """Where to go after an action: a safe `next`, else the control room."""
    return redirect_next(request, reverse("control:room", args=[slug]))
