"""Shared by the judging API: the refusal shapes, the base view, the team field."""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from competition.models import Competition, Team
from competition.selectors import competition_get
from judging.services import (
    IdempotencyConflict,
)

REFUSAL = inline_serializer(
    "JudgingRefusal",
    {
        "detail": serializers.CharField(help_text="A sentence for a person."),
        "code": serializers.CharField(
            help_text='The code of docs/contracts.md "The HTTP API", e.g. already_finished.'
        ),
        "finish": serializers.IntegerField(
            required=False, help_text="already_finished: the finish that is already there."
        ),
        "registered_by": serializers.CharField(required=False),
        "registered_at": serializers.DateTimeField(required=False),
        "plausibility": serializers.DictField(
            required=False,
            help_text="implausible: pieces_per_minute_per_puzzler, limit, puzzlers, seconds.",
        ),
        "outcome": serializers.ChoiceField(
            ["deleted", "voided", "cancelled"],
            required=False,
            help_text="undone: what became of the record the request created.",
        ),
        "objection": serializers.IntegerField(
            required=False, help_text="decided: the resolved objection that decided it."
        ),
        "decided_by": serializers.CharField(required=False),
        "decided_at": serializers.DateTimeField(required=False),
        "teams": serializers.ListField(
            child=serializers.DictField(),
            required=False,
            help_text="finishes_after_stop: the teams with a finish after it, [{id, name, table}].",
        ),
    },
)


REFUSED = OpenApiResponse(REFUSAL, description="Refused by the rules now; nothing written.")


INVALID = OpenApiResponse(
    OpenApiTypes.OBJECT, description="Field errors: the request could never be right."
)


CONFLICT = OpenApiResponse(
    REFUSAL,
    description="code `idempotency_conflict`: the request id was used with a different body.",
)


def created_once(out) -> dict:
    """The answers of a write that takes a `request_id`: 201, the replay's 200 with the first
    answer, 400, 409, and 422 for the same id with another body."""
    return {
        201: out,
        200: OpenApiResponse(
            out, description="An idempotent replay: the first answer for this request_id."
        ),
        400: INVALID,
        409: REFUSED,
        422: CONFLICT,
    }


REPLAYED_HEADER = OpenApiParameter(
    "Idempotent-Replayed",
    OpenApiTypes.STR,
    location=OpenApiParameter.HEADER,
    response=[200],
    description="`true` when the answer is the stored answer of an earlier request.",
)


class TeamField(serializers.IntegerField):
    """A team id that must be of the competition in the URL (else 400)."""

    def to_internal_value(self, data):
        pk = super().to_internal_value(data)
        team = Team.objects.filter(competition=self.context["competition"], pk=pk).first()
        if team is None:
            raise serializers.ValidationError(_("There is no such team in this competition."))
        return team


class ReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=2000)


class OptionalReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")


class CompetitionAPIView(APIView):
    """Finds the competition of the URL; a reused request id answers 422."""

    def handle_exception(self, exc):
        if isinstance(exc, IdempotencyConflict):
            return Response(exc.as_dict(), status=status.HTTP_422_UNPROCESSABLE_ENTITY)
        return super().handle_exception(exc)

    def get_competition(self) -> Competition:
        return competition_get(slug=self.kwargs["slug"])

    def read(self, serializer_class, **context):
        serializer = serializer_class(data=self.request.data, context=context)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data


class TeamActionView(CompetitionAPIView):
    def get_team(self) -> Team:
        return get_object_or_404(Team, pk=self.kwargs["pk"], competition__slug=self.kwargs["slug"])


def created(data, replayed: bool) -> Response:
    if replayed:
        response = Response(data, status=status.HTTP_200_OK)
        response["Idempotent-Replayed"] = "true"
        return response
    return Response(data, status=status.HTTP_201_CREATED)
