"""Warnings (judge) and disqualification (admin) (R14, R18)."""

from drf_spectacular.utils import (
    extend_schema,
)
from rest_framework import serializers
from rest_framework.response import Response

from competition.models import Team
from competition.roles import IsAdmin, IsJudge
from judging.api.common import (
    INVALID,
    REFUSED,
    REPLAYED_HEADER,
    OptionalReasonSerializer,
    ReasonSerializer,
    TeamActionView,
    created,
    created_once,
)
from judging.models import Warning
from judging.services import (
    team_disqualify,
    team_reinstate,
    warning_log,
)


class WarningOutSerializer(serializers.ModelSerializer):
    given_by = serializers.CharField(source="given_by.username", default=None)

    class Meta:
        model = Warning
        fields = ["id", "team", "reason", "given_by", "given_at", "request_id"]


class TeamStateOutSerializer(serializers.ModelSerializer):
    class Meta:
        model = Team
        fields = ["id", "name", "table", "withdrawn", "disqualified", "disqualified_reason"]


class WarningInSerializer(ReasonSerializer):
    request_id = serializers.UUIDField(
        required=False, allow_null=True, help_text="The device's id for this warning."
    )


class WarningCreateView(TeamActionView):
    permission_classes = [IsJudge]

    @extend_schema(
        request=WarningInSerializer,
        responses=created_once(WarningOutSerializer),
        parameters=[REPLAYED_HEADER],
        description="Log a warning to a team (judge, R14). Refused (409): `final`. The same "
        "`request_id` again answers 200 with the first answer and `Idempotent-Replayed: "
        "true`; with another team or reason 422; once the warning was cancelled, 409 `undone`.",
    )
    def post(self, request, slug, pk):
        team = self.get_team()
        data = self.read(WarningInSerializer)
        warning = warning_log(
            team=team,
            by=request.user,
            reason=data["reason"],
            request_id=data.get("request_id"),
            answer=lambda warning: WarningOutSerializer(warning).data,
        )
        return created(warning.answer, warning.replayed)


class DisqualifyView(TeamActionView):
    permission_classes = [IsAdmin]

    @extend_schema(
        request=ReasonSerializer,
        responses={200: TeamStateOutSerializer, 400: INVALID, 409: REFUSED},
        description="Disqualify a team with a reason (admin, R14, R18). Refused (409): "
        "`final`, `already_disqualified`.",
    )
    def post(self, request, slug, pk):
        team = self.get_team()
        data = self.read(ReasonSerializer)
        team = team_disqualify(team=team, by=request.user, reason=data["reason"])
        return Response(TeamStateOutSerializer(team).data)


class ReinstateView(TeamActionView):
    permission_classes = [IsAdmin]

    @extend_schema(
        request=OptionalReasonSerializer,
        responses={200: TeamStateOutSerializer, 409: REFUSED},
        description="Undo a disqualification (admin). Refused (409): `final`, `not_disqualified`.",
    )
    def post(self, request, slug, pk):
        team = self.get_team()
        data = self.read(OptionalReasonSerializer)
        team = team_reinstate(team=team, by=request.user, reason=data["reason"])
        return Response(TeamStateOutSerializer(team).data)
