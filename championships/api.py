"""HTTP API of championships (docs/contracts.md "A championship of several competitions"):
create and read a championship with its competitions; advance entrants into a round, and
take the advance back before the round starts."""

from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from championships import selectors, services
from competition import services as competition_services
from competition.models import Championship, Competition, Discipline
from competition.roles import IsAdmin
from competition.selectors import competition_get


# --- output ----------------------------------------------------------------------------------
class ChampionshipCompetitionSerializer(serializers.ModelSerializer):
    status = serializers.SerializerMethodField()
    discipline = serializers.ChoiceField(choices=Discipline.choices)

    class Meta:
        model = Competition
        fields = ["slug", "name", "discipline", "round", "status"]

    def get_status(self, obj) -> str:
        return str(obj.status)


class ChampionshipOutSerializer(serializers.ModelSerializer):
    competitions = ChampionshipCompetitionSerializer(many=True, read_only=True)

    class Meta:
        model = Championship
        fields = ["slug", "name", "venue", "starts_on", "ends_on", "competitions"]


# --- input -----------------------------------------------------------------------------------
class ChampionshipInSerializer(serializers.Serializer):
    slug = serializers.SlugField(max_length=50)
    name = serializers.CharField(max_length=200)
    venue = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    starts_on = serializers.DateField(required=False, allow_null=True, default=None)
    ends_on = serializers.DateField(required=False, allow_null=True, default=None)


class AdvanceInSerializer(serializers.Serializer):
    # `from` is a word of Python: the field is declared by its name in the class's namespace.
    locals()["from"] = serializers.ListField(
        child=serializers.SlugField(max_length=50),
        min_length=1,
        max_length=50,
        help_text="The short names of the earlier rounds the entrants come from.",
    )
    best = serializers.IntegerField(
        min_value=1, max_value=100_000, help_text="How many go on (of each, or of all)."
    )
    per_source = serializers.BooleanField(
        default=True, help_text="true: the best of each round; false: the best of all rounds."
    )
    include_tied = serializers.BooleanField(
        default=False, help_text="A tie at the cut: all the tied entrants go on."
    )
    choose = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**63 - 1),
        required=False,
        allow_null=True,
        default=None,
        max_length=100_000,
        help_text="A tie at the cut: the ids of the tied entrants who go on (as many as "
        "there are places left).",
    )


ENTRANT = {
    "id": serializers.IntegerField(help_text="The entrant's id in this round."),
    "name": serializers.CharField(),
    "from": serializers.SlugField(help_text="The round it went on from."),
}
ADVANCED = inline_serializer(
    "Advanced", {"entrants": serializers.ListField(child=inline_serializer("Entrant", ENTRANT))}
)
REMOVED = inline_serializer(
    "AdvanceTakenBack",
    {
        "removed": serializers.ListField(
            child=inline_serializer(
                "RemovedEntrant",
                {
                    **ENTRANT,
                    "id": serializers.IntegerField(
                        help_text="The removed entrant's id in this round (gone now)."
                    ),
                },
            )
        )
    },
)
ADVANCE_REFUSED = OpenApiResponse(
    inline_serializer(
        "AdvanceRefusal",
        {
            "detail": serializers.CharField(help_text="A sentence for a person."),
            "code": serializers.CharField(
                help_text="final, already_started, sources_not_final, tie_at_cut, already_advanced."
            ),
            "sources": serializers.ListField(
                child=serializers.SlugField(), required=False, help_text="Not final yet."
            ),
            "tied": serializers.ListField(
                child=inline_serializer(
                    "TiedEntrant",
                    {
                        **ENTRANT,
                        "id": serializers.IntegerField(help_text="The entrant's id in its round."),
                    },
                ),
                required=False,
                help_text="tie_at_cut: the tied entrants.",
            ),
            "ties": serializers.ListField(
                child=serializers.DictField(),
                required=False,
                help_text="tie_at_cut: each cut inside a tie: {from (null: all rounds), "
                "seats, tied}.",
            ),
        },
    ),
    description="Refused by the rules now; nothing written.",
)


# --- views -----------------------------------------------------------------------------------
class ChampionshipListView(APIView):
    def get_permissions(self):
        return [IsAdmin()] if self.request.method == "POST" else [AllowAny()]

    @extend_schema(responses=ChampionshipOutSerializer(many=True))
    def get(self, request):
        return Response(ChampionshipOutSerializer(selectors.championship_list(), many=True).data)

    @extend_schema(
        request=ChampionshipInSerializer,
        responses={
            201: ChampionshipOutSerializer,
            400: OpenApiResponse(description="Field errors."),
        },
        description="Make a championship (admin); its short name may not be a championship's "
        "or a competition's.",
    )
    def post(self, request):
        data = ChampionshipInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        championship = competition_services.championship_create(
            by=request.user, **data.validated_data
        )
        return Response(
            ChampionshipOutSerializer(selectors.championship_get(slug=championship.slug)).data,
            status=status.HTTP_201_CREATED,
        )


class ChampionshipDetailView(APIView):
    def get_permissions(self):
        return [IsAdmin()] if self.request.method == "DELETE" else [AllowAny()]

    @extend_schema(responses=ChampionshipOutSerializer)
    def get(self, request, slug):
        return Response(ChampionshipOutSerializer(selectors.championship_get(slug=slug)).data)

    @extend_schema(
        responses={
            204: None,
            409: OpenApiResponse(
                inline_serializer(
                    "ChampionshipRefusal",
                    {
                        "detail": serializers.CharField(help_text="A sentence for a person."),
                        "code": serializers.CharField(help_text="has_competitions."),
                    },
                ),
                description="It still holds competitions; nothing written.",
            ),
        },
        description="Delete a championship that holds no competitions (admin); else 409 "
        "`has_competitions`.",
    )
    def delete(self, request, slug):
        championship = selectors.championship_get(slug=slug)
        competition_services.championship_delete(championship=championship, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class AdvanceView(APIView):
    permission_classes = [IsAdmin]

    @extend_schema(
        request=AdvanceInSerializer,
        responses={
            200: ADVANCED,
            400: OpenApiResponse(description="Field errors."),
            409: ADVANCE_REFUSED,
        },
        description="Advance the best entrants of earlier rounds into this one (admin). "
        "Refused (409): `already_started`, `sources_not_final`, `tie_at_cut` (names the tied "
        "entrants; `include_tied` or `choose` decides), `already_advanced`, `final`. The same "
        "advance again answers the same entrants.",
    )
    def post(self, request, slug):
        competition = competition_get(slug=slug)
        data = AdvanceInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = data.validated_data
        advanced = services.advance(
            competition=competition,
            sources=fields["from"],
            best=fields["best"],
            per_source=fields["per_source"],
            include_tied=fields["include_tied"],
            choose=fields["choose"],
            by=request.user,
        )
        entrants = [{"id": a.team.pk, "name": a.team.name, "from": a.source.slug} for a in advanced]
        return Response({"entrants": entrants})

    @extend_schema(
        request=None,
        responses={
            200: REMOVED,
            409: OpenApiResponse(
                inline_serializer(
                    "AdvanceUndoRefusal",
                    {
                        "detail": serializers.CharField(help_text="A sentence for a person."),
                        "code": serializers.CharField(
                            help_text="final, already_started, nothing_advanced."
                        ),
                    },
                ),
                description="Refused by the rules now; nothing written.",
            ),
        },
        description="Take back the advance into this round before it starts (admin): the "
        "entrants that went on into it from earlier rounds are removed (those the desk "
        "registered stay), audited; then the same or another advance can be made. Refused "
        "(409): `already_started` (its clock started or it has results), `nothing_advanced`, "
        "`final`.",
    )
    def delete(self, request, slug):
        competition = competition_get(slug=slug)
        removed = services.advance_undo(competition=competition, by=request.user)
        entrants = [{"id": a.team.pk, "name": a.team.name, "from": a.source.slug} for a in removed]
        return Response({"removed": entrants})
