"""API for objections and finalising (R20): the desk files, an admin resolves and finalises."""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from competition.models import Competition, Team
from competition.roles import IsAdmin, IsDesk
from competition.selectors import competition_get
from judging.api.common import created
from judging.models import Count, Finish, Objection
from judging.services import (
    competition_finalise,
    objection_file,
    objection_resolve,
)

_REFUSAL = inline_serializer(
    "Refusal",
    {
        "detail": serializers.CharField(),
        "code": serializers.CharField(),
    },
)


class TeamRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    table = serializers.IntegerField()


_FINALISE_REFUSAL = inline_serializer(
    "FinaliseRefusal",
    {
        "detail": serializers.CharField(),
        "code": serializers.CharField(),
        "teams": serializers.ListField(child=TeamRefSerializer(), required=False),
        "tablets": serializers.ListField(
            child=inline_serializer(
                "WaitingTablet",
                {
                    "device_id": serializers.CharField(),
                    "user": serializers.CharField(allow_null=True),
                    "tables": serializers.ListField(child=serializers.IntegerField()),
                    "waiting": serializers.IntegerField(),
                    "oldest_waiting_seconds": serializers.IntegerField(allow_null=True),
                    "last_seen_at": serializers.DateTimeField(),
                },
            ),
            required=False,
            help_text="taps_waiting: the tablets that still hold unsent taps.",
        ),
    },
)


class FinaliseInSerializer(serializers.Serializer):
    override = serializers.BooleanField(
        default=False, help_text="Finalise although a tablet reported taps waiting."
    )
    reason = serializers.CharField(
        max_length=2000, required=False, allow_blank=True, default="", help_text="Why (audited)."
    )

    def validate(self, data):
        if data["override"] and not data["reason"].strip():
            raise serializers.ValidationError(
                {"reason": _("Give the reason for finalising while taps are waiting.")}
            )
        return data


class ObjectionOutSerializer(serializers.ModelSerializer):
    team = TeamRefSerializer()
    puzzle = serializers.SerializerMethodField()
    filed_by = serializers.CharField(source="filed_by.username", default=None)
    resolved_by = serializers.CharField(source="resolved_by.username", default=None)

    class Meta:
        model = Objection
        fields = [
            "id",
            "team",
            "finish",
            "count",
            "puzzle",
            "text",
            "filed_by",
            "filed_at",
            "decision",
            "note",
            "resolved_by",
            "resolved_at",
        ]

    def get_puzzle(self, objection) -> int | None:
        """The position of the puzzle the objection is about (its finish's or count's)."""
        record = objection.finish or objection.count
        return record.puzzle.position if record else None


class ObjectionInSerializer(serializers.Serializer):
    team = serializers.IntegerField()
    text = serializers.CharField(max_length=5000)
    finish = serializers.IntegerField(required=False, allow_null=True)
    count = serializers.IntegerField(required=False, allow_null=True)

    def validate(self, data):
        competition = self.context["competition"]
        team = Team.objects.filter(competition=competition, pk=data["team"]).first()
        if team is None:
            raise serializers.ValidationError({"team": _("There is no such team here.")})
        data["team"] = team
        # Another team's finish or count is the service's refusal (`other_team`).
        here = {"team__competition": competition}
        if data.get("finish") is not None:
            data["finish"] = Finish.objects.filter(**here, pk=data["finish"]).first()
            if data["finish"] is None:
                raise serializers.ValidationError({"finish": _("This team has no such finish.")})
        if data.get("count") is not None:
            data["count"] = Count.objects.filter(**here, pk=data["count"]).first()
            if data["count"] is None:
                raise serializers.ValidationError({"count": _("This team has no such count.")})
        return data


class ResolveInSerializer(serializers.Serializer):
    decision = serializers.ChoiceField(choices=["upheld", "rejected"])
    note = serializers.CharField(max_length=5000)
    elapsed_seconds = serializers.IntegerField(required=False, allow_null=True, min_value=0)
    missing = serializers.ListField(
        child=serializers.IntegerField(min_value=1), required=False, allow_null=True
    )
    pieces = serializers.IntegerField(required=False, allow_null=True, min_value=0)


class FinalisedCompetitionSerializer(serializers.ModelSerializer):
    status = serializers.CharField()
    final = serializers.BooleanField(source="is_final")
    finalised_by = serializers.CharField(source="finalised_by.username", default=None)

    class Meta:
        model = Competition
        fields = ["slug", "name", "status", "final", "finalised_at", "finalised_by"]


def _objections(competition):
    return (
        Objection.objects.filter(team__competition=competition)
        .select_related("team", "filed_by", "resolved_by", "finish__puzzle", "count__puzzle")
        .order_by("-filed_at", "-id")
    )


class ObjectionListCreate(APIView):
    permission_classes = [IsDesk]  # the desk and admins (an admin holds every role)

    @extend_schema(
        summary="The competition's objections, newest first (desk, admin)",
        responses=ObjectionOutSerializer(many=True),
    )
    def get(self, request, slug):
        competition = competition_get(slug=slug)
        return Response(ObjectionOutSerializer(_objections(competition), many=True).data)

    @extend_schema(
        summary="File an objection at the desk (R20)",
        request=ObjectionInSerializer,
        responses={
            201: ObjectionOutSerializer,
            200: OpenApiResponse(
                ObjectionOutSerializer,
                description="The same open objection was filed before (a resend): that one",
            ),
            400: OpenApiResponse(description="A field is wrong"),
            409: OpenApiResponse(_REFUSAL, description="final: after the prize-giving"),
        },
    )
    def post(self, request, slug):
        competition = competition_get(slug=slug)
        data = ObjectionInSerializer(data=request.data, context={"competition": competition})
        data.is_valid(raise_exception=True)
        filed = objection_file(by=request.user, **data.validated_data)
        objection = _objections(competition).get(pk=filed.pk)
        return created(ObjectionOutSerializer(objection).data, filed.replayed)


class ObjectionResolve(APIView):
    permission_classes = [IsAdmin]

    @extend_schema(
        summary="Uphold or reject an objection, with a note (admin)",
        description=(
            "Upheld with `elapsed_seconds` and/or `missing` corrects the objection's finish; "
            "with `pieces`, its count. The correction's audit entry names the objection."
        ),
        request=ResolveInSerializer,
        responses={
            200: ObjectionOutSerializer,
            400: OpenApiResponse(description="A field is wrong"),
            409: OpenApiResponse(
                _REFUSAL, description="already_resolved, final, or the correction's refusal"
            ),
        },
    )
    def post(self, request, slug, pk):
        competition = competition_get(slug=slug)
        objection = get_object_or_404(_objections(competition), pk=pk)
        data = ResolveInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        objection_resolve(objection=objection, by=request.user, **data.validated_data)
        objection = _objections(competition).get(pk=objection.pk)
        return Response(ObjectionOutSerializer(objection).data)


class Finalise(APIView):
    permission_classes = [IsAdmin]

    @extend_schema(
        summary="Make the results final at the prize-giving (admin, R20)",
        request=FinaliseInSerializer,
        responses={
            200: FinalisedCompetitionSerializer,
            400: OpenApiResponse(description="override without a reason"),
            409: OpenApiResponse(
                _FINALISE_REFUSAL,
                description=(
                    "final, clock_not_started, clock_running, taps_waiting with the "
                    "tablets, objections_open, or counts_missing with the teams"
                ),
            ),
        },
    )
    def post(self, request, slug):
        competition = competition_get(slug=slug)
        data = FinaliseInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        competition = competition_finalise(
            competition=competition,
            by=request.user,
            override_taps_waiting=data.validated_data["override"],
            reason=data.validated_data["reason"],
        )
        return Response(FinalisedCompetitionSerializer(competition).data)
