"""GET /api/v1/competitions/{slug}/standings: the standings body, cheap to poll.

The ETag derives from the competition, its standings version and the clock's status, so a
matching If-None-Match is answered 304 after one small query (or none, when this process
read the version less than a second ago). The JSON itself is cached per version.
"""

import json

from django.core.cache import cache
from django.http import HttpResponse, HttpResponseNotModified
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.views import APIView

from competition.roles import ADMIN, DESK, JUDGE, has_role
from scoring.selectors import CACHE_SECONDS, api_body, competition_state, standings_for

PUBLIC_CACHE_CONTROL = "public, max-age=1"
STAFF_CACHE_CONTROL = "private, no-cache"


def if_none_match(request, etag: str) -> bool:
    """True when the request's If-None-Match names `etag` (weak or strong) or is `*`."""
    header = request.headers.get("If-None-Match")
    if not header:
        return False
    wanted = etag.removeprefix("W/")
    for tag in header.split(","):
        tag = tag.strip()
        if tag == "*" or tag.removeprefix("W/") == wanted:
            return True
    return False


def is_staff(user) -> bool:
    return has_role(user, JUDGE, DESK, ADMIN)


def _dumps(data: dict) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


class _TeamSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    table = serializers.IntegerField()


class _FinishSerializer(serializers.Serializer):
    puzzle = serializers.IntegerField(help_text="The puzzle's position in the sequence.")
    elapsed_seconds = serializers.IntegerField()
    deducted = serializers.IntegerField(help_text="Lone missing pieces subtracted (R8).")


class _StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField(allow_null=True, help_text="None when disqualified.")
    team = _TeamSerializer()
    pieces = serializers.IntegerField()
    finished = serializers.IntegerField()
    last_finish_seconds = serializers.IntegerField(allow_null=True)
    finishes = _FinishSerializer(many=True)
    counted = serializers.IntegerField(allow_null=True)
    disqualified = serializers.BooleanField()
    under_review = serializers.BooleanField(help_text="The team has an open objection.")


class _PuzzleSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    title = serializers.CharField()
    pieces = serializers.IntegerField()


class StandingsSerializer(serializers.Serializer):
    competition = serializers.CharField(help_text="The competition's slug.")
    status = serializers.ChoiceField(choices=["setup", "running", "stopped", "final"])
    final = serializers.BooleanField()
    puzzles = _PuzzleSerializer(many=True)
    standings = _StandingSerializer(many=True)


class StandingsView(APIView):
    """The standings (R11). Withdrawn teams are not listed; no personal data."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="competition_standings",
        parameters=[
            OpenApiParameter(
                "If-None-Match",
                OpenApiTypes.STR,
                OpenApiParameter.HEADER,
                description="The ETag of a previous answer: 304 when nothing changed.",
            )
        ],
        responses={
            200: StandingsSerializer,
            304: OpenApiResponse(description="Not modified since the ETag sent."),
            404: OpenApiResponse(description="No such competition."),
        },
    )
    def get(self, request, slug):
        staff = is_staff(request.user)
        state = competition_state(slug, fresh=staff)
        if state is None:
            raise NotFound("No such competition.")
        status = state.status_at(timezone.now())
        etag = f'"s{state.pk}-{state.standings_version}-{status}{"-staff" if staff else ""}"'
        cache_control = STAFF_CACHE_CONTROL if staff else PUBLIC_CACHE_CONTROL
        if if_none_match(request, etag):
            response = HttpResponseNotModified()
        elif staff:
            body = standings_for(state, staff=True, status=status)
            data = api_body(body)
            if body["error"]:
                data["error"] = body["error"]
            response = HttpResponse(_dumps(data), content_type="application/json")
        else:
            key = f"standings-json:{state.pk}:{state.standings_version}:{status}"
            content = cache.get(key)
            if content is None:
                content = _dumps(api_body(standings_for(state, status=status)))
                cache.set(key, content, CACHE_SECONDS)
            response = HttpResponse(content, content_type="application/json")
        response["ETag"] = etag
        response["Cache-Control"] = cache_control
        return response
