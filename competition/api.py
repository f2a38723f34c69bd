"""HTTP API for competitions, their puzzle sequence and teams (docs/contracts.md).

Members, guardians and contact details only for desk and admin; the public sees a
team's id, name, table and whether it still competes.
"""

from django.db import transaction
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from competition import selectors, services
from competition.errors import REFUSED
from competition.inputs import DateTimeField
from competition.models import Championship, Competition, Discipline, Puzzle, Ranking, Team
from competition.roles import ADMIN, DESK, JUDGE, IsAdmin, IsDesk, has_role


# --- output ----------------------------------------------------------------------------------
class PuzzleOutSerializer(serializers.ModelSerializer):
    class Meta:
        model = Puzzle
        fields = ["id", "position", "title", "brand", "pieces"]


class ClockSerializer(serializers.Serializer):
    started_at = serializers.DateTimeField(allow_null=True)
    ends_at = serializers.DateTimeField(allow_null=True)
    stopped_at = serializers.DateTimeField(allow_null=True)
    elapsed_seconds = serializers.IntegerField()
    remaining_seconds = serializers.IntegerField()


class CompetitionOutSerializer(serializers.ModelSerializer):
    """A competition with its status, clock and puzzle sequence (reusable for clock answers)."""

    status = serializers.SerializerMethodField()
    final = serializers.SerializerMethodField()
    clock = serializers.SerializerMethodField()
    check_in_deadline = serializers.DateTimeField(read_only=True)
    puzzles = PuzzleOutSerializer(many=True, read_only=True)
    championship = serializers.SlugRelatedField(slug_field="slug", read_only=True)

    class Meta:
        model = Competition
        fields = [
            "id",
            "slug",
            "name",
            "venue",
            "starts_at",
            "duration_minutes",
            "max_at_table",
            "hide_motifs",
            "second_count",
            "check_in_deadline",
            "status",
            "final",
            "clock",
            "puzzles",
            "championship",
            "discipline",
            "round",
            "ranking",
        ]

    def get_status(self, obj) -> str:
        return str(obj.status)

    def get_final(self, obj) -> bool:
        return obj.is_final

    @extend_schema(responses=ClockSerializer)
    def get_clock(self, obj) -> dict:
        return ClockSerializer(obj.clock().api()).data

    def to_representation(self, obj):
        data = super().to_representation(obj)
        if not obj.motifs_public() and not self.context.get("staff"):
            for puzzle in data["puzzles"]:  # docs/day.md: secret until the clock starts
                puzzle["title"] = puzzle["brand"] = ""
        return data


class CompetitionListSerializer(serializers.ModelSerializer):
    status = serializers.SerializerMethodField()

    class Meta:
        model = Competition
        fields = ["id", "slug", "name", "venue", "starts_at", "duration_minutes", "status"]

    def get_status(self, obj) -> str:
        return str(obj.status)


class MemberSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    under_15 = serializers.BooleanField(default=False)
    guardian = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")


class PublicTeamSerializer(serializers.ModelSerializer):
    class Meta:
        model = Team
        fields = ["id", "name", "table", "withdrawn", "disqualified"]


class DeskTeamSerializer(serializers.ModelSerializer):
    """Everything the desk knows about a team, personal data included."""

    checked_in = serializers.SerializerMethodField()
    members = MemberSerializer(many=True, read_only=True)

    class Meta:
        model = Team
        fields = [
            "id",
            "name",
            "table",
            "fee_paid",
            "checked_in",
            "checked_in_at",
            "withdrawn",
            "disqualified",
            "disqualified_reason",
            "members",
            "contact_name",
            "contact_email",
            "contact_phone",
            "notes",
            "labels",
        ]

    def get_checked_in(self, obj) -> bool:
        return obj.checked_in_at is not None


# --- input -----------------------------------------------------------------------------------
def ranking_field(**kwargs) -> serializers.ChoiceField:
    return serializers.ChoiceField(
        choices=Ranking.choices,
        help_text="`dm`: the Danish rules (most pieces, R8/R11); `wjpc`: the World rules (a "
        "finisher by its time, +10 s per lone missing piece, before every non-finisher). "
        "Locked once the clock has started (409 `started`).",
        **kwargs,
    )


class CompetitionInSerializer(serializers.Serializer):
    slug = serializers.SlugField(max_length=50)
    name = serializers.CharField(max_length=200)
    venue = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    starts_at = DateTimeField()
    duration_minutes = serializers.IntegerField(min_value=1, default=180)
    max_at_table = serializers.IntegerField(
        min_value=1, required=False, help_text="Default: the discipline's (1, 2, 4)."
    )
    hide_motifs = serializers.BooleanField(default=False)
    second_count = serializers.BooleanField(
        default=True, help_text="Every count needs a second, blind count before finalise."
    )
    championship = serializers.SlugRelatedField(
        slug_field="slug",
        queryset=Championship.objects.all(),
        required=False,
        allow_null=True,
        default=None,
        help_text="The championship's short name; without it a championship of its own.",
        error_messages={
            "does_not_exist": _("There is no championship with the short name “{value}”.")
        },
    )
    discipline = serializers.ChoiceField(choices=Discipline.choices, default=Discipline.TEAM)
    round = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    ranking = ranking_field(default=Ranking.DM)


class CompetitionPatchSerializer(serializers.Serializer):
    """Only the fields sent change (admin); each goes through its own service."""

    ranking = ranking_field(required=False)
    championship = serializers.SlugRelatedField(
        slug_field="slug",
        queryset=Championship.objects.all(),
        required=False,
        allow_null=True,
        help_text="Move it into this championship (its short name); null: a championship of "
        "its own. Only before the clock starts (else 409 `started`).",
        error_messages={
            "does_not_exist": _("There is no championship with the short name “{value}”.")
        },
    )
    discipline = serializers.ChoiceField(
        choices=Discipline.choices,
        required=False,
        help_text="The table limit follows the discipline's default (1, 2, 4) when it was the "
        "old one's. Only before the clock starts (else 409 `started`).",
    )
    round = serializers.CharField(
        max_length=100,
        required=False,
        allow_blank=True,
        help_text="Only before the clock starts (else 409 `started`).",
    )


class PuzzleInSerializer(serializers.Serializer):
    position = serializers.IntegerField(min_value=1)
    title = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    brand = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    pieces = serializers.IntegerField(min_value=1)


def labels_field() -> serializers.ListField:
    """An entrant's labels, in a new team and in a change of one."""
    return serializers.ListField(
        child=serializers.CharField(max_length=30, allow_blank=True),
        max_length=10,
        required=False,
        help_text="The entrant's labels (ung, senior, gæst): each has its own ranking "
        "(standings `?label=`). When sent, they replace the entrant's labels.",
    )


class TeamInSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    table = serializers.IntegerField(min_value=1)
    members = MemberSerializer(many=True, required=False, default=list)
    fee_paid = serializers.BooleanField(default=False)
    contact_name = serializers.CharField(max_length=120, required=False, allow_blank=True)
    contact_email = serializers.EmailField(required=False, allow_blank=True)
    contact_phone = serializers.CharField(max_length=40, required=False, allow_blank=True)
    notes = serializers.CharField(required=False, allow_blank=True)
    labels = labels_field()


class TeamPatchSerializer(serializers.Serializer):
    """Only the fields sent change; `members`, when sent, replaces the whole list."""

    name = serializers.CharField(max_length=120, required=False)
    table = serializers.IntegerField(min_value=1, required=False)
    members = MemberSerializer(many=True, required=False)
    fee_paid = serializers.BooleanField(required=False)
    checked_in = serializers.BooleanField(required=False)
    withdrawn = serializers.BooleanField(
        required=False,
        help_text="Once the clock has started only an admin may change it, with a `reason` "
        "(else 409 `already_started`).",
    )
    reason = serializers.CharField(
        max_length=2000,
        required=False,
        allow_blank=True,
        default="",
        help_text="Why the team is withdrawn or competes again (required after the start).",
    )
    contact_name = serializers.CharField(max_length=120, required=False, allow_blank=True)
    contact_email = serializers.EmailField(required=False, allow_blank=True)
    contact_phone = serializers.CharField(max_length=40, required=False, allow_blank=True)
    notes = serializers.CharField(required=False, allow_blank=True)
    labels = labels_field()


# --- views -----------------------------------------------------------------------------------
def _competition(slug: str) -> Competition:
    return selectors.competition_get(slug=slug, puzzles=True, related=("championship",))


class CompetitionListView(APIView):
    def get_permissions(self):
        return [IsAdmin()] if self.request.method == "POST" else [AllowAny()]

    @extend_schema(responses=CompetitionListSerializer(many=True))
    def get(self, request):
        return Response(CompetitionListSerializer(Competition.objects.all(), many=True).data)

    @extend_schema(request=CompetitionInSerializer, responses={201: CompetitionOutSerializer})
    def post(self, request):
        data = CompetitionInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        competition = services.competition_create(by=request.user, **data.validated_data)
        return Response(
            CompetitionOutSerializer(_competition(competition.slug), context={"staff": True}).data,
            status=status.HTTP_201_CREATED,
        )


class CompetitionDetailView(APIView):
    def get_permissions(self):
        return [IsAdmin()] if self.request.method in ("PATCH", "DELETE") else [AllowAny()]

    @extend_schema(responses=CompetitionOutSerializer)
    def get(self, request, slug):
        staff = has_role(request.user, JUDGE, DESK, ADMIN)
        return Response(CompetitionOutSerializer(_competition(slug), context={"staff": staff}).data)

    @extend_schema(
        request=CompetitionPatchSerializer,
        responses={200: CompetitionOutSerializer, 409: REFUSED},
        description="Change the competition (admin): only the fields sent. `ranking`, "
        "`championship`, `discipline` and `round` only before the clock starts (else 409 "
        "`started`); a move onto tables its new championship holds at the same time: 400 on "
        "`championship`.",
    )
    def patch(self, request, slug):
        competition = _competition(slug)
        data = CompetitionPatchSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        with transaction.atomic():  # several services, one answer: all or nothing
            if "ranking" in fields:
                services.competition_ranking_set(
                    competition=competition, by=request.user, ranking=fields.pop("ranking")
                )
            if fields:
                services.competition_placement_set(
                    competition=competition,
                    by=request.user,
                    championship=fields.get("championship", services.KEEP),
                    discipline=fields.get("discipline"),
                    round=fields.get("round"),
                )
        return Response(CompetitionOutSerializer(_competition(slug), context={"staff": True}).data)

    @extend_schema(
        responses={204: None, 409: REFUSED},
        description="Delete a competition made by mistake (admin), with its entrants, before "
        "its clock starts (else 409 `started`; a final one `final`). Its own championship goes "
        "with it; a championship of several keeps its other competitions.",
    )
    def delete(self, request, slug):
        services.competition_delete(competition=_competition(slug), by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PuzzleCreateView(APIView):
    permission_classes = [IsAdmin]

    @extend_schema(request=PuzzleInSerializer, responses={201: PuzzleOutSerializer})
    def post(self, request, slug):
        competition = _competition(slug)
        data = PuzzleInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        puzzle = services.puzzle_add(
            competition=competition, by=request.user, **data.validated_data
        )
        return Response(PuzzleOutSerializer(puzzle).data, status=status.HTTP_201_CREATED)


def _team_answer(request, team: Team) -> dict:
    if has_role(request.user, DESK):
        team = selectors.team_with_members(team=team)
        return DeskTeamSerializer(team).data
    return PublicTeamSerializer(team).data


class TeamListView(APIView):
    def get_permissions(self):
        return [IsDesk()] if self.request.method == "POST" else [AllowAny()]

    @extend_schema(
        responses=PublicTeamSerializer(many=True),
        description="Desk and admin also get members, fee, check-in and contact details.",
    )
    def get(self, request, slug):
        competition = selectors.competition_get(slug=slug)
        teams = Team.objects.filter(competition=competition).order_by("table")
        if has_role(request.user, DESK):
            return Response(DeskTeamSerializer(teams.prefetch_related("members"), many=True).data)
        return Response(PublicTeamSerializer(teams, many=True).data)

    @extend_schema(request=TeamInSerializer, responses={201: DeskTeamSerializer})
    def post(self, request, slug):
        competition = selectors.competition_get(slug=slug)
        data = TeamInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        fields["labels"] = fields.get("labels") or ()
        team = services.team_create(competition=competition, by=request.user, **fields)
        return Response(_team_answer(request, team), status=status.HTTP_201_CREATED)


class TeamDetailView(APIView):
    def get_permissions(self):
        return [IsDesk()] if self.request.method == "PATCH" else [AllowAny()]

    def _team(self, slug, id) -> Team:
        return get_object_or_404(
            Team.objects.select_related("competition"), pk=id, competition__slug=slug
        )

    @extend_schema(responses=PublicTeamSerializer)
    def get(self, request, slug, id):
        return Response(_team_answer(request, self._team(slug, id)))

    @extend_schema(
        request=TeamPatchSerializer,
        responses=DeskTeamSerializer,
        description="Change a team (desk). `withdrawn` before the clock starts: the desk; "
        "after it: an admin only, with a `reason` (the desk gets 409 `already_started`, an "
        "admin without a reason 400).",
    )
    def patch(self, request, slug, id):
        team = self._team(slug, id)
        data = TeamPatchSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        by = request.user
        with transaction.atomic():  # several services, one answer: all or nothing
            checked_in = fields.pop("checked_in", None)
            withdrawn = fields.pop("withdrawn", None)
            reason = fields.pop("reason")
            fee_paid = fields.pop("fee_paid", None)
            members = fields.pop("members", None)
            labels = fields.pop("labels", None)
            if fields or members is not None or labels is not None:
                team = services.team_update(
                    team=team, by=by, members=members, labels=labels, **fields
                )
            if fee_paid is not None:
                team = services.team_fee_set(team=team, by=by, paid=fee_paid)
            if checked_in is True:
                team = services.team_check_in(team=team, by=by)
            elif checked_in is False:
                team = services.team_check_in_undo(team=team, by=by)
            if withdrawn is True:
                team = services.team_withdraw(team=team, by=by, reason=reason)
            elif withdrawn is False:
                team = services.team_withdraw_undo(team=team, by=by, reason=reason)
        return Response(_team_answer(request, team))
