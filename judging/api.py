"""HTTP API for the judges: the clock, finishes, counts, warnings, disqualification.

DESIGN.md's contract: 400 with field errors for a request that could never be right,
409 `{detail, code}` when the rules refuse it now, 422 for a request id reused with a
different body, and an idempotent replay answers 200 with `Idempotent-Replayed: true`.
Every write goes through the services; a refused request writes nothing.
"""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from competition.api import CompetitionOutSerializer
from competition.inputs import ID_MAX, SMALLINT_MAX, DateTimeField, query_number
from competition.models import Competition, Team
from competition.roles import IsAdmin, IsJudge
from competition.services import clock_correct, clock_start, clock_stop, clock_stop_undo
from judging.models import Count, Finish, Warning
from judging.services import (
    IdempotencyConflict,
    count_confirm,
    count_correct,
    count_record,
    finish_correct,
    finish_delete,
    finish_register,
    request_cancel,
    tablet_report,
    team_disqualify,
    team_reinstate,
    warning_log,
)
from scoring.rules import deducted

_REFUSAL = inline_serializer(
    "JudgingRefusal",
    {
        "detail": serializers.CharField(help_text="A sentence for a person."),
        "code": serializers.CharField(help_text="DESIGN.md's code, e.g. already_finished."),
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
        "teams": serializers.ListField(
            child=serializers.DictField(),
            required=False,
            help_text="finishes_after_stop: the teams with a finish after it, [{id, name, table}].",
        ),
    },
)
_REFUSED = OpenApiResponse(_REFUSAL, description="Refused by the rules now; nothing written.")
_INVALID = OpenApiResponse(
    OpenApiTypes.OBJECT, description="Field errors: the request could never be right."
)
_CONFLICT = OpenApiResponse(
    _REFUSAL,
    description="code `idempotency_conflict`: the request id was used with a different body.",
)
_REPLAYED_HEADER = OpenApiParameter(
    "Idempotent-Replayed",
    OpenApiTypes.STR,
    location=OpenApiParameter.HEADER,
    response=[200],
    description="`true` when the answer is the stored answer of an earlier request.",
)


# --- output ----------------------------------------------------------------------------


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


class WarningOutSerializer(serializers.ModelSerializer):
    given_by = serializers.CharField(source="given_by.username", default=None)

    class Meta:
        model = Warning
        fields = ["id", "team", "reason", "given_by", "given_at", "request_id"]


class TeamStateOutSerializer(serializers.ModelSerializer):
    class Meta:
        model = Team
        fields = ["id", "name", "table", "withdrawn", "disqualified", "disqualified_reason"]


# --- input -----------------------------------------------------------------------------


class _TeamField(serializers.IntegerField):
    """A team id that must be of the competition in the URL (else 400)."""

    def to_internal_value(self, data):
        pk = super().to_internal_value(data)
        team = Team.objects.filter(competition=self.context["competition"], pk=pk).first()
        if team is None:
            raise serializers.ValidationError(_("There is no such team in this competition."))
        return team


class FinishInSerializer(serializers.Serializer):
    team = _TeamField(help_text="The team's id.")
    puzzle = serializers.IntegerField(min_value=1, help_text="The puzzle's position (1, 2, …).")
    missing = serializers.ListField(
        child=serializers.IntegerField(),
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
    missing = serializers.ListField(child=serializers.IntegerField(), required=False)
    reason = serializers.CharField(max_length=2000, help_text="Why it is corrected (required).")


class ReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=2000)


class WarningInSerializer(ReasonSerializer):
    request_id = serializers.UUIDField(
        required=False, allow_null=True, help_text="The device's id for this warning."
    )


class OptionalReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")


class CountInSerializer(serializers.Serializer):
    team = _TeamField(help_text="The team's id.")
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


class ClockStartInSerializer(serializers.Serializer):
    started_at = DateTimeField(
        required=False, allow_null=True, help_text="When it really started (a correction)."
    )


class ClockCorrectInSerializer(serializers.Serializer):
    started_at = serializers.DateTimeField(help_text="When the clock really started.")


class ClockStopInSerializer(serializers.Serializer):
    stopped_at = DateTimeField(required=False, allow_null=True)


# --- views -----------------------------------------------------------------------------


class _CompetitionAPIView(APIView):
    """Finds the competition of the URL; a reused request id answers 422."""

    def handle_exception(self, exc):
        if isinstance(exc, IdempotencyConflict):
            return Response(exc.as_dict(), status=status.HTTP_422_UNPROCESSABLE_ENTITY)
        return super().handle_exception(exc)

    def get_competition(self) -> Competition:
        return get_object_or_404(Competition, slug=self.kwargs["slug"])

    def read(self, serializer_class, **context):
        serializer = serializer_class(data=self.request.data, context=context)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data


def _created(data, replayed: bool) -> Response:
    if replayed:
        response = Response(data, status=status.HTTP_200_OK)
        response["Idempotent-Replayed"] = "true"
        return response
    return Response(data, status=status.HTTP_201_CREATED)


def _competition_answer(competition: Competition) -> Response:
    competition = Competition.objects.prefetch_related("puzzles").get(pk=competition.pk)
    return Response(CompetitionOutSerializer(competition, context={"staff": True}).data)


class ClockStartView(_CompetitionAPIView):
    permission_classes = [IsAdmin]

    @extend_schema(
        request=ClockStartInSerializer,
        responses={200: CompetitionOutSerializer, 400: _INVALID, 409: _REFUSED},
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


class ClockCorrectView(_CompetitionAPIView):
    permission_classes = [IsAdmin]

    @extend_schema(
        request=ClockCorrectInSerializer,
        responses={200: CompetitionOutSerializer, 400: _INVALID, 409: _REFUSED},
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


class ClockStopView(_CompetitionAPIView):
    permission_classes = [IsAdmin]

    @extend_schema(
        request=ClockStopInSerializer,
        responses={200: CompetitionOutSerializer, 400: _INVALID, 409: _REFUSED},
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


class ClockStopUndoView(_CompetitionAPIView):
    permission_classes = [IsAdmin]

    @extend_schema(
        request=None,
        responses={200: CompetitionOutSerializer, 409: _REFUSED},
        description="Undo a mistaken early stop (admin) within 2 minutes of pressing it: the "
        "clock runs on to start + duration. Refused (409): `clock_not_stopped`, "
        "`has_counts`, `clock_ended` (the planned end has passed meanwhile), "
        "`undo_too_late`, `clock_not_started`, `final`. Audited.",
    )
    def post(self, request, slug):
        competition = clock_stop_undo(competition=self.get_competition(), by=request.user)
        return _competition_answer(competition)


class FinishListView(_CompetitionAPIView):
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
        responses={
            201: FinishOutSerializer,
            200: OpenApiResponse(
                FinishOutSerializer,
                description="An idempotent replay: the first answer for this request_id.",
            ),
            400: _INVALID,
            409: _REFUSED,
            422: _CONFLICT,
        },
        parameters=[_REPLAYED_HEADER],
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
        return _created(finish.answer, finish.replayed)


class FinishDetailView(_CompetitionAPIView):
    permission_classes = [IsJudge]

    def get_finish(self) -> Finish:
        return get_object_or_404(
            Finish.objects.select_related("team", "puzzle"),
            pk=self.kwargs["pk"],
            team__competition__slug=self.kwargs["slug"],
        )

    @extend_schema(
        request=FinishPatchSerializer,
        responses={200: FinishOutSerializer, 400: _INVALID, 409: _REFUSED},
        description="Correct a finish's time or missing spots, with a `reason` (judge, "
        "admin). Refused (409): `final`, `time_order`, `after_end`, `in_future`.",
    )
    def patch(self, request, slug, pk):
        finish = self.get_finish()
        data = self.read(FinishPatchSerializer)
        finish = finish_correct(finish=finish, by=request.user, **data)
        finish = Finish.objects.select_related("team", "puzzle", "registered_by").get(pk=finish.pk)
        return Response(FinishOutSerializer(finish).data)

    @extend_schema(
        request=OptionalReasonSerializer,
        responses={204: None, 409: _REFUSED},
        description="Delete a team's latest finish (judge, admin); else 409 `not_latest`.",
    )
    def delete(self, request, slug, pk):
        finish = self.get_finish()
        reason = request.data.get("reason") or request.query_params.get("reason") or ""
        finish_delete(finish=finish, by=request.user, reason=str(reason))
        return Response(status=status.HTTP_204_NO_CONTENT)


class CountCreateView(_CompetitionAPIView):
    permission_classes = [IsJudge]

    @extend_schema(
        request=CountInSerializer,
        responses={
            201: CountOutSerializer,
            200: OpenApiResponse(CountOutSerializer, description="An idempotent replay."),
            400: _INVALID,
            409: _REFUSED,
            422: _CONFLICT,
        },
        parameters=[_REPLAYED_HEADER],
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
        return _created(count.answer, count.replayed)


class CountDetailView(_CompetitionAPIView):
    permission_classes = [IsJudge]

    @extend_schema(
        request=CountPatchSerializer,
        responses={200: CountOutSerializer, 400: _INVALID, 409: _REFUSED},
        description="Correct a count with a `reason` (judge, admin). Refused (409): `final`, "
        "`count_confirmed` (a judge, once a second count confirmed it). The head judge's "
        "correction confirms the count (`second_count`).",
    )
    def patch(self, request, slug, pk):
        count = get_object_or_404(Count, pk=pk, team__competition__slug=slug)
        data = self.read(CountPatchSerializer)
        count = count_correct(count=count, by=request.user, **data)
        count = Count.objects.select_related("puzzle", "registered_by").get(pk=count.pk)
        return Response(CountOutSerializer(count).data)


class CountConfirmView(_CompetitionAPIView):
    permission_classes = [IsJudge]

    @extend_schema(
        request=CountConfirmInSerializer,
        responses={200: CountOutSerializer, 400: _INVALID, 409: _REFUSED, 422: _CONFLICT},
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
        count = Count.objects.select_related("puzzle", "registered_by").get(pk=count.pk)
        response = Response(CountOutSerializer(count).data)
        if replayed:
            response["Idempotent-Replayed"] = "true"
        return response


class _TeamActionView(_CompetitionAPIView):
    def get_team(self) -> Team:
        return get_object_or_404(Team, pk=self.kwargs["pk"], competition__slug=self.kwargs["slug"])


class WarningCreateView(_TeamActionView):
    permission_classes = [IsJudge]

    @extend_schema(
        request=WarningInSerializer,
        responses={
            201: WarningOutSerializer,
            200: OpenApiResponse(WarningOutSerializer, description="An idempotent replay."),
            400: _INVALID,
            409: _REFUSED,
            422: _CONFLICT,
        },
        parameters=[_REPLAYED_HEADER],
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
        return _created(warning.answer, warning.replayed)


class DisqualifyView(_TeamActionView):
    permission_classes = [IsAdmin]

    @extend_schema(
        request=ReasonSerializer,
        responses={200: TeamStateOutSerializer, 400: _INVALID, 409: _REFUSED},
        description="Disqualify a team with a reason (admin, R14, R18). Refused (409): "
        "`final`, `already_disqualified`.",
    )
    def post(self, request, slug, pk):
        team = self.get_team()
        data = self.read(ReasonSerializer)
        team = team_disqualify(team=team, by=request.user, reason=data["reason"])
        return Response(TeamStateOutSerializer(team).data)


class ReinstateView(_TeamActionView):
    permission_classes = [IsAdmin]

    @extend_schema(
        request=OptionalReasonSerializer,
        responses={200: TeamStateOutSerializer, 409: _REFUSED},
        description="Undo a disqualification (admin). Refused (409): `final`, `not_disqualified`.",
    )
    def post(self, request, slug, pk):
        team = self.get_team()
        data = self.read(OptionalReasonSerializer)
        team = team_reinstate(team=team, by=request.user, reason=data["reason"])
        return Response(TeamStateOutSerializer(team).data)


class RequestCancelView(_CompetitionAPIView):
    permission_classes = [IsJudge]

    @extend_schema(
        request=None,
        responses={
            200: inline_serializer(
                "RequestCancelled",
                {"cancelled": serializers.ChoiceField(["deleted", "never_arrived"])},
            ),
            409: _REFUSED,
            422: _CONFLICT,
        },
        description=(
            "Undo a tap whose answer never came (judge, OFFLINE.md). If the request created a "
            "finish that is still the team's latest, or a count or warning, it is deleted "
            '(audited): `{"cancelled": "deleted"}`; a finish that is not the latest is '
            "refused (409 `not_latest`). If the request never arrived, it never will: a later "
            'arrival answers 409 `undone`, and this answers `{"cancelled": "never_arrived"}`. '
            "The same cancel again answers the same. Refused (409): `final`, `not_latest`; "
            "422 for a request id of another competition."
        ),
    )
    def post(self, request, slug, request_id):
        cancelled = request_cancel(
            competition=self.get_competition(), request_id=request_id, by=request.user
        )
        return Response({"cancelled": cancelled})


# --- the tablets' health ---------------------------------------------------------------


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


class HeartbeatView(_CompetitionAPIView):
    permission_classes = [IsJudge]

    @extend_schema(
        request=HeartbeatInSerializer,
        responses={204: None, 400: _INVALID},
        description="A judge's tablet reports its health every 15 s or so (judge): the "
        "latest report per `device_id` is kept, without an audit entry. `waiting` > 0 makes "
        "finalise answer 409 `taps_waiting` until the same device reports 0.",
    )
    def post(self, request, slug):
        competition = self.get_competition()
        data = self.read(HeartbeatInSerializer)
        tablet_report(competition=competition, by=request.user, **data)
        return Response(status=status.HTTP_204_NO_CONTENT)
