"""Finishes (judge): list, register, correct, delete (R5, R7, R8, R10)."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
)
from rest_framework import serializers, status
from rest_framework.response import Response

from competition.inputs import ID_MAX, SMALLINT_MAX, query_number
from competition.roles import IsJudge
from judging.api.common import (
    INVALID,
    REFUSED,
    REPLAYED_HEADER,
    CompetitionAPIView,
    OptionalReasonSerializer,
    TeamField,
    created,
    created_once,
)
from judging.models import Finish
from judging.services import (
    finish_correct,
    finish_delete,
    finish_register,
)
from puzzle_rules.rules import deducted


class FinishOutSerializer(serializers.ModelSerializer):
    puzzle = serializers.IntegerField(source="puzzle.position", help_text="Its position.")
    table = serializers.IntegerField(source="team.table")
    missing = serializers.ListField(child=serializers.IntegerField())
    deducted = serializers.SerializerMethodField(help_text="Pieces subtracted (R8).")
    registered_by = serializers.CharField(source="registered_by.username", default=None)

    class Meta:
        model = Finish
        fields = [
            "id",
            "team",
            "table",
            "puzzle",
            "elapsed_seconds",
            "missing",
            "deducted",
            "registered_by",
            "registered_at",
            "request_id",
        ]

    def get_deducted(self, finish) -> int:
        return deducted(finish.missing)


class FinishInSerializer(serializers.Serializer):
    team = TeamField(help_text="The team's id.")
    puzzle = serializers.IntegerField(min_value=1, help_text="The puzzle's position (1, 2, …).")
    missing = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        default=list,
        help_text="One entry per spot with missing pieces: its size (1 = a lone piece).",
    )
    elapsed_seconds = serializers.IntegerField(
        min_value=0,
        required=False,
        allow_null=True,
        help_text="Seconds since the start, taken at the tap; default: the clock's now.",
    )
    request_id = serializers.UUIDField(
        required=False, allow_null=True, help_text="The device's id for this tap."
    )
    confirm_implausible = serializers.BooleanField(
        default=False,
        help_text="Save even when the pace is implausible (after a 409 `implausible`).",
    )


class FinishPatchSerializer(serializers.Serializer):
    elapsed_seconds = serializers.IntegerField(min_value=0, required=False)
    missing = serializers.ListField(child=serializers.IntegerField(min_value=1), required=False)
    reason = serializers.CharField(max_length=2000, help_text="Why it is corrected (required).")


class FinishListView(CompetitionAPIView):
    permission_classes = [IsJudge]

    @extend_schema(
        parameters=[
            OpenApiParameter("team", int, description="Only this team's finishes."),
            OpenApiParameter("puzzle", int, description="Only finishes of this position."),
        ],
        responses={200: FinishOutSerializer(many=True)},
        description="The competition's finishes, by table and puzzle (judge, admin).",
    )
    def get(self, request, slug):
        competition = self.get_competition()
        finishes = Finish.objects.filter(team__competition=competition).select_related(
            "team", "puzzle", "registered_by"
        )
        for name, lookup, high in (
            ("team", "team_id", ID_MAX),
            ("puzzle", "puzzle__position", SMALLINT_MAX),
        ):
            value = query_number(request.query_params, name, high=high)
            if value is not None:
                finishes = finishes.filter(**{lookup: value})
        finishes = finishes.order_by("team__table", "puzzle__position")
        return Response(FinishOutSerializer(finishes, many=True).data)

    @extend_schema(
        request=FinishInSerializer,
        responses=created_once(FinishOutSerializer),
        parameters=[REPLAYED_HEADER],
        description=(
            "Register a finish (judge). Without `elapsed_seconds` the time is the clock's "
            "now. Refused (409): `final`, `not_competing`, `clock_not_started`, "
            "`already_finished` (the detail says who registered it and when), `out_of_order`, "
            "`after_end`, `in_future`, `time_order`, and `implausible`: the pace (pieces per "
            "minute per puzzler since the previous finish) is above the configured limit; "
            "the body's `plausibility` gives the pace; send it again with "
            "`confirm_implausible: true` to save it. The same `request_id` again answers 200 "
            "with the first answer and `Idempotent-Replayed: true`; with a different body 422; "
            "once what it registered was deleted or cancelled, 409 `undone` (nothing written)."
        ),
    )
    def post(self, request, slug):
        competition = self.get_competition()
        data = self.read(FinishInSerializer, competition=competition)
        finish = finish_register(
            team=data["team"],
            position=data["puzzle"],
            by=request.user,
            missing=data["missing"],
            elapsed_seconds=data.get("elapsed_seconds"),
            request_id=data.get("request_id"),
            check_plausible=not data["confirm_implausible"],
            answer=lambda finish: FinishOutSerializer(finish).data,
        )
        return created(finish.answer, finish.replayed)


class FinishDetailView(CompetitionAPIView):
    permission_classes = [IsJudge]

    def get_finish(self) -> Finish:
        return get_object_or_404(
            Finish.objects.select_related("team", "puzzle"),
            pk=self.kwargs["pk"],
            team__competition__slug=self.kwargs["slug"],
        )

    @extend_schema(
        request=FinishPatchSerializer,
        responses={200: FinishOutSerializer, 400: INVALID, 409: REFUSED},
        description="Correct a finish's time or missing spots, with a `reason` (judge, "
        "admin). Refused (409): `final`, `time_order`, `after_end`, `in_future`, `decided` (a "
        "resolved objection decided it: only the head judge changes it). 404 when the finish "
        "was deleted meanwhile.",
    )
    def patch(self, request, slug, pk):
        finish = self.get_finish()
        data = self.read(FinishPatchSerializer)
        finish = finish_correct(finish=finish, by=request.user, **data)
        return Response(FinishOutSerializer(finish).data)

    @extend_schema(
        request=OptionalReasonSerializer,
        responses={204: None, 409: REFUSED},
        description="Delete a team's latest finish (judge, admin); else 409 `not_latest`; "
        "409 `decided` when a resolved objection decided it (the head judge deletes it with a "
        "`reason`); 404 when it was deleted meanwhile.",
    )
    def delete(self, request, slug, pk):
        finish = self.get_finish()
        reason = request.data.get("reason") or request.query_params.get("reason") or ""
        finish_delete(finish=finish, by=request.user, reason=str(reason))
        return Response(status=status.HTTP_204_NO_CONTENT)
