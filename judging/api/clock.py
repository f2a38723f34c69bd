"""The clock (admin): start, correct, stop and undo a stop."""

from drf_spectacular.utils import (
    extend_schema,
)
from rest_framework import serializers
from rest_framework.response import Response

from competition.api import CompetitionOutSerializer
from competition.inputs import DateTimeField
from competition.models import Competition
from competition.roles import IsAdmin
from competition.services import clock_correct, clock_start, clock_stop, clock_stop_undo
from judging.api.common import (
    INVALID,
    REFUSED,
    CompetitionAPIView,
)


class ClockStartInSerializer(serializers.Serializer):
    started_at = DateTimeField(
        required=False, allow_null=True, help_text="When it really started (a correction)."
    )


class ClockCorrectInSerializer(serializers.Serializer):
    started_at = serializers.DateTimeField(help_text="When the clock really started.")


class ClockStopInSerializer(serializers.Serializer):
    stopped_at = DateTimeField(required=False, allow_null=True)


def _competition_answer(competition: Competition) -> Response:
    competition = (
        Competition.objects.prefetch_related("puzzles")
        .select_related("championship")
        .get(pk=competition.pk)
    )
    return Response(CompetitionOutSerializer(competition, context={"staff": True}).data)


class ClockStartView(CompetitionAPIView):
    permission_classes = [IsAdmin]

    @extend_schema(
        request=ClockStartInSerializer,
        responses={200: CompetitionOutSerializer, 400: INVALID, 409: REFUSED},
        description="Start the clock (admin). Refused (409): `already_started`, "
        "`no_puzzles`, `final`. `started_at` back-dates it; 400 when it is in the future or "
        "so far back that the clock would already have ended.",
    )
    def post(self, request, slug):
        data = self.read(ClockStartInSerializer)
        competition = clock_start(
            competition=self.get_competition(), by=request.user, started_at=data.get("started_at")
        )
        return _competition_answer(competition)


class ClockCorrectView(CompetitionAPIView):
    permission_classes = [IsAdmin]

    @extend_schema(
        request=ClockCorrectInSerializer,
        responses={200: CompetitionOutSerializer, 400: INVALID, 409: REFUSED},
        description="Move the start of a running clock to when it really started (admin), "
        "while no finish or count is registered. Refused (409): `has_finishes`, "
        "`clock_not_started`, `clock_stopped`, `final`; 400 when `started_at` is in the "
        "future or so far back that the clock would already have ended. Audited.",
    )
    def post(self, request, slug):
        data = self.read(ClockCorrectInSerializer)
        competition = clock_correct(
            competition=self.get_competition(), by=request.user, started_at=data["started_at"]
        )
        return _competition_answer(competition)


class ClockStopView(CompetitionAPIView):
    permission_classes = [IsAdmin]

    @extend_schema(
        request=ClockStopInSerializer,
        responses={200: CompetitionOutSerializer, 400: INVALID, 409: REFUSED},
        description="Stop the clock early (admin). Refused (409): `clock_not_started`, "
        "`clock_stopped` (time is already up), `final`, and `finishes_after_stop` when "
        "`stopped_at` is before a registered finish (the body's `teams` names them: "
        "`[{id, name, table}]`).",
    )
    def post(self, request, slug):
        data = self.read(ClockStopInSerializer)
        competition = clock_stop(
            competition=self.get_competition(), by=request.user, stopped_at=data.get("stopped_at")
        )
        return _competition_answer(competition)


class ClockStopUndoView(CompetitionAPIView):
    permission_classes = [IsAdmin]

    @extend_schema(
        request=None,
        responses={200: CompetitionOutSerializer, 409: REFUSED},
        description="Undo a mistaken early stop (admin) within 2 minutes of pressing it: the "
        "clock runs on to start + duration. Refused (409): `clock_not_stopped`, "
        "`has_counts`, `clock_ended` (the planned end has passed meanwhile), "
        "`undo_too_late`, `clock_not_started`, `final`. Audited.",
    )
    def post(self, request, slug):
        competition = clock_stop_undo(competition=self.get_competition(), by=request.user)
        return _competition_answer(competition)
