"""The judges' tablets report their health."""

from drf_spectacular.utils import (
    extend_schema,
)
from rest_framework import serializers, status
from rest_framework.response import Response

from competition.roles import IsJudge
from judging.api.common import (
    INVALID,
    CompetitionAPIView,
)
from judging.services import (
    tablet_report,
)


class HeartbeatInSerializer(serializers.Serializer):
    device_id = serializers.RegexField(
        r"^[A-Za-z0-9_-]{8,64}$", help_text="The tablet's own id, kept in its storage."
    )
    tables = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=100_000),
        max_length=1000,
        default=list,
        help_text="The tables the judge watches; empty = all.",
    )
    waiting = serializers.IntegerField(
        min_value=0, max_value=100_000, help_text="Taps in the outbox not yet sent."
    )
    oldest_waiting_seconds = serializers.IntegerField(
        min_value=0, max_value=10**7, required=False, allow_null=True, default=None
    )
    clock_offset_ms = serializers.IntegerField(
        min_value=-(10**13), max_value=10**13, required=False, allow_null=True, default=None
    )
    clock_rtt_ms = serializers.IntegerField(
        min_value=0, max_value=10**7, required=False, allow_null=True, default=None
    )
    version = serializers.CharField(max_length=40, required=False, allow_blank=True, default="")


class HeartbeatView(CompetitionAPIView):
    permission_classes = [IsJudge]

    @extend_schema(
        request=HeartbeatInSerializer,
        responses={204: None, 400: INVALID},
        description="A judge's tablet reports its health every 15 s or so (judge): the "
        "latest report per `device_id` is kept, without an audit entry. `waiting` > 0 makes "
        "finalise answer 409 `taps_waiting` until the same device reports 0.",
    )
    def post(self, request, slug):
        competition = self.get_competition()
        data = self.read(HeartbeatInSerializer)
        tablet_report(competition=competition, by=request.user, **data)
        return Response(status=status.HTTP_204_NO_CONTENT)
