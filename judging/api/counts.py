"""Counts (judge): record, correct and the second, blind count (R9)."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import (
    extend_schema,
)
from rest_framework import serializers
from rest_framework.response import Response

from competition.roles import IsJudge
from judging.api.common import (
    CONFLICT,
    INVALID,
    REFUSED,
    REPLAYED_HEADER,
    CompetitionAPIView,
    TeamField,
    created,
    created_once,
)
from judging.models import Count
from judging.services import (
    count_confirm,
    count_correct,
    count_record,
)


class CountOutSerializer(serializers.ModelSerializer):
    puzzle = serializers.IntegerField(source="puzzle.position", help_text="Its position.")
    registered_by = serializers.CharField(source="registered_by.username", default=None)
    confirmed = serializers.SerializerMethodField(
        help_text="A second, blind count (or the head judge) confirmed it (`second_count`)."
    )

    class Meta:
        model = Count
        fields = [
            "id",
            "team",
            "puzzle",
            "pieces",
            "unplaced",
            "loose",
            "registered_by",
            "registered_at",
            "request_id",
            "confirmed",
        ]

    def get_confirmed(self, count) -> bool:
        return count.confirmed_at is not None


class CountInSerializer(serializers.Serializer):
    team = TeamField(help_text="The team's id.")
    pieces = serializers.IntegerField(
        min_value=0, required=False, allow_null=True, help_text="Placed pieces (0 or ≥ 3)."
    )
    unplaced = serializers.IntegerField(
        min_value=0,
        required=False,
        allow_null=True,
        help_text="Unplaced pieces (piles of 10 + rest): pieces = puzzle − unplaced − loose.",
    )
    loose = serializers.IntegerField(
        min_value=0, default=0, help_text="Loose pieces and pairs on the table (not counted)."
    )
    request_id = serializers.UUIDField(required=False, allow_null=True)


class CountPatchSerializer(serializers.Serializer):
    pieces = serializers.IntegerField(min_value=0, required=False, allow_null=True)
    unplaced = serializers.IntegerField(min_value=0, required=False, allow_null=True)
    loose = serializers.IntegerField(min_value=0, required=False, allow_null=True)
    reason = serializers.CharField(max_length=2000)


class CountConfirmInSerializer(serializers.Serializer):
    pieces = serializers.IntegerField(min_value=0, required=False, allow_null=True)
    unplaced = serializers.IntegerField(min_value=0, required=False, allow_null=True)
    loose = serializers.IntegerField(min_value=0, default=0)
    request_id = serializers.UUIDField(required=False, allow_null=True)


class CountCreateView(CompetitionAPIView):
    permission_classes = [IsJudge]

    @extend_schema(
        request=CountInSerializer,
        responses=created_once(CountOutSerializer),
        parameters=[REPLAYED_HEADER],
        description="Count a team's unfinished puzzle once time is up (judge): `{team, "
        "pieces}` or `{team, unplaced, loose}`. Refused (409): `final`, `clock_not_started`, "
        "`clock_running`, `not_competing`, `all_finished`, `already_counted`, and `undone`: "
        "the same `request_id` once its count was voided by a later finish or cancelled.",
    )
    def post(self, request, slug):
        competition = self.get_competition()
        data = self.read(CountInSerializer, competition=competition)
        count = count_record(
            team=data["team"],
            by=request.user,
            pieces=data.get("pieces"),
            unplaced=data.get("unplaced"),
            loose=data["loose"],
            request_id=data.get("request_id"),
            answer=lambda count: CountOutSerializer(count).data,
        )
        return created(count.answer, count.replayed)


class CountDetailView(CompetitionAPIView):
    permission_classes = [IsJudge]

    @extend_schema(
        request=CountPatchSerializer,
        responses={200: CountOutSerializer, 400: INVALID, 409: REFUSED},
        description="Correct a count with a `reason` (judge, admin). Refused (409): `final`, "
        "`count_confirmed` (a judge, once a second count confirmed it), `count_not_yours` "
        "(`second_count`: a judge other than the one who counted, or anyone but the head "
        "judge after `count_differs`), `decided` (a resolved objection decided it). The head "
        "judge's correction confirms the count "
        "(`second_count`). 404 when the count was deleted meanwhile.",
    )
    def patch(self, request, slug, pk):
        count = get_object_or_404(Count, pk=pk, team__competition__slug=slug)
        data = self.read(CountPatchSerializer)
        count = count_correct(count=count, by=request.user, **data)
        return Response(CountOutSerializer(count).data)


class CountConfirmView(CompetitionAPIView):
    permission_classes = [IsJudge]

    @extend_schema(
        request=CountConfirmInSerializer,
        responses={200: CountOutSerializer, 400: INVALID, 409: REFUSED, 422: CONFLICT},
        description="The second, blind count (`second_count`; a judge who did not count, or "
        "an admin): `{pieces}` or `{unplaced, loose}`. Equal: 200, the count confirmed. "
        "Different: 409 `count_differs` with `first` and `second`, and the team is flagged for "
        "a recount (the head judge's PATCH of the count settles it). Refused (409) also: "
        "`final`, `already_confirmed`, `own_count`, `undone`. The same `request_id` again "
        "answers the same.",
    )
    def post(self, request, slug, pk):
        count = get_object_or_404(Count, pk=pk, team__competition__slug=slug)
        data = self.read(CountConfirmInSerializer)
        count = count_confirm(
            count=count,
            by=request.user,
            pieces=data.get("pieces"),
            unplaced=data.get("unplaced"),
            loose=data["loose"],
            request_id=data.get("request_id"),
        )
        replayed = count.replayed
        response = Response(CountOutSerializer(count).data)
        if replayed:
            response["Idempotent-Replayed"] = "true"
        return response
