"""Refusals: the rules say no in the current state (HTTP 409 with a code, docs/contracts.md)."""

from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiResponse, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError as DRFValidationError
from rest_framework.response import Response
from rest_framework.views import exception_handler


class Refusal(Exception):
    """A rule refuses this write now. `code` is a 409 code of docs/contracts.md "The HTTP API";
    nothing was written."""

    def __init__(self, code: str, message, **extra):
        super().__init__(str(message))
        self.code = code
        self.message = message
        self.extra = extra

    def as_dict(self) -> dict:
        return {"detail": str(self.message), "code": self.code, **self.extra}


class Vanished(Http404):
    """The record is gone: deleted between the view's read and the service's lock (an undo,
    a void, a second delete at the same moment; docs/contracts.md "The edges that stay true"). A
    404 with a sentence for a person, never a 500; nothing was written."""

    def __init__(self, message):
        super().__init__(str(message))
        self.message = message


FINAL_MESSAGE = _("The results are final; nothing can be changed any more.")


def ensure_not_final(competition) -> None:
    """Checked before anything else in every write (R20)."""
    if competition.finalised_at is not None:
        raise Refusal("final", FINAL_MESSAGE)


# The schema of a 409 of the competition's own writes: {detail, code} (docs/contracts.md).
REFUSED = OpenApiResponse(
    inline_serializer(
        "CompetitionRefusal",
        {
            "detail": serializers.CharField(help_text="A sentence for a person."),
            "code": serializers.CharField(help_text="final, started."),
        },
    ),
    description="Refused by the rules now; nothing written.",
)


def api_exception_handler(exc, context):
    """DRF's handler, plus: Refusal -> 409 {detail, code}; Django's ValidationError -> 400."""
    if isinstance(exc, Refusal):
        return Response(exc.as_dict(), status=status.HTTP_409_CONFLICT)
    if isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else {"detail": exc.messages}
        exc = DRFValidationError(detail=detail)
    return exception_handler(exc, context)
