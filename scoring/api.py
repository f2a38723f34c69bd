"""GET /api/v1/competitions/{slug}/standings: the standings body, cheap to poll.

The ETag derives from the competition, its standings version and the clock's status, so a
matching If-None-Match is answered 304 after one small query (or none, when this process
read the version less than a second ago). The JSON itself is cached per version.
"""

import gzip
import json

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse, HttpResponseNotModified, JsonResponse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.views import APIView

from competition.roles import ADMIN, DESK, JUDGE, has_role
from scoring.selectors import (
    CACHE_SECONDS,
    api_body,
    competition_state,
    label_body,
    memo_blobs,
    standings_for,
    version_of,
)

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


def cached_response(
    request, state, key: str, build, content_type: str, blobs: dict | None = None
) -> HttpResponse:
    """Bytes kept in the cache under `key` (built by `build()` when missing), sent gzipped
    (compressed once, also kept) to a client that accepts gzip. Within the public
    reader's 1 s memo of `state` (or the memo `blobs` of another read: a championship's
    programme) the bytes already fetched are reused (`state` None and no `blobs`: bytes of
    no one competition, as a championship's big screen: no memo)."""
    gzipped = "gzip" in request.headers.get("Accept-Encoding", "")
    if blobs is None:
        blobs = memo_blobs(state) if state is not None else {}
    memo_key = key + (":gz" if gzipped else "")
    data = blobs.get(memo_key)
    if data is None:
        data = cache.get(memo_key)
    if data is None:
        raw = cache.get(key) if gzipped else None
        if raw is None:
            raw = build()
            if isinstance(raw, str):
                raw = raw.encode()
            cache.set(key, raw, CACHE_SECONDS)
        data = raw
        if gzipped:
            data = gzip.compress(raw, compresslevel=6, mtime=0)
            cache.set(key + ":gz", data, CACHE_SECONDS)
    blobs[memo_key] = data
    response = HttpResponse(data, content_type=content_type)
    if gzipped:
        response["Content-Encoding"] = "gzip"
    patch_vary_headers(response, ("Accept-Encoding",))
    return response


def is_staff(user) -> bool:
    return has_role(user, JUDGE, DESK, ADMIN)


def sees_unconfirmed_counts(user) -> bool:
    """docs/contracts.md "The second count": the desk and the head judge see a count that waits for
    its second, blind count (with `confirmed: false`); a judge, who may be the second to count,
    and the public do not (the judge who counted sees it on the tablet)."""
    return has_role(user, DESK, ADMIN)


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
    counted = serializers.IntegerField(
        allow_null=True, help_text="Null while `counting` for everyone but the desk and admin."
    )
    counting = serializers.BooleanField(
        required=False,
        help_text="Only `true`, for a team whose count waits for its second, blind count "
        "(`second_count`).",
    )
    confirmed = serializers.BooleanField(
        required=False,
        help_text="Desk and admin only, for a team counted with `second_count` on: whether a "
        "second count confirmed it.",
    )
    disqualified = serializers.BooleanField()
    under_review = serializers.BooleanField(help_text="The team has an open objection.")


class _PuzzleSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    title = serializers.CharField()
    pieces = serializers.IntegerField()


class StandingsSerializer(serializers.Serializer):
    label = serializers.CharField(
        required=False, help_text="With `?label=`: the label whose own ranking this is."
    )
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
            ),
            OpenApiParameter(
                "label",
                OpenApiTypes.STR,
                OpenApiParameter.QUERY,
                description="Only the entrants with this label (ung, senior, gæst), ranked "
                "among themselves by the same rules (their own ranks: 1, 2, 2, 4).",
            ),
        ],
        responses={
            200: StandingsSerializer,
            304: OpenApiResponse(description="Not modified since the ETag sent."),
            404: OpenApiResponse(description="No such competition."),
        },
    )
    def get(self, request, slug):
        return standings_answer(request, slug, staff=is_staff(request.user))


def standings_answer(request, slug: str, *, staff: bool) -> HttpResponse:
    state = competition_state(slug, fresh=staff)
    if state is None:
        raise NotFound("No such competition.")
    status = state.status_at(timezone.now())
    blind = not sees_unconfirmed_counts(request.user)
    audience = ("-staff" if staff else "") + ("-blind" if staff and blind else "")
    label = label_of(request)
    labelled = label_tag(label)
    etag = f'"s{state.pk}-{version_of(state)}-{status}{audience}{labelled}"'

    def of_label(body: dict) -> dict:
        return body if label is None else label_body(state, body, label)

    if if_none_match(request, etag):
        response = HttpResponseNotModified()
    elif staff:
        body = standings_for(state, staff=True, status=status, blind=blind)
        data = api_body(of_label(body), confirmed=not blind)
        if body["error"]:
            data["error"] = body["error"]
        response = HttpResponse(_dumps(data), content_type="application/json")
    else:
        response = cached_response(
            request,
            state,
            f"standings-json:{state.pk}:{version_of(state)}:{status}{labelled}",
            lambda: _dumps(api_body(of_label(standings_for(state, status=status)))),
            "application/json",
        )
    response["ETag"] = etag
    response["Cache-Control"] = STAFF_CACHE_CONTROL if staff else PUBLIC_CACHE_CONTROL
    return response


def label_of(request) -> str | None:
    """`?label=` (trimmed, small letters, at most 30 characters as stored), or None: the
    label whose own ranking the standings, a page or a CSV show."""
    label = request.GET.get("label")
    if label is None or not label.strip():
        return None
    return label.strip().lower()[:30]


def label_tag(label: str | None) -> str:
    """A label in an ETag or a cache key: its hex, any text as one safe token ("" for none)."""
    return f"-l{label.encode().hex()}" if label is not None else ""


_standings_view = StandingsView.as_view()


@csrf_exempt
def standings(request, slug):
    """The URL's view. A reader with neither a session nor a token is anonymous for sure:
    answered without DRF's authentication and negotiation (the thousand phones polling);
    everyone else goes through `StandingsView`."""
    anonymous = (
        request.method in ("GET", "HEAD")
        and "HTTP_AUTHORIZATION" not in request.META
        and settings.SESSION_COOKIE_NAME not in request.COOKIES
    )
    if not anonymous:
        return _standings_view(request, slug=slug)
    try:
        return standings_answer(request, slug, staff=False)
    except NotFound as exc:
        return JsonResponse({"detail": str(exc.detail)}, status=404)


# drf-spectacular documents the URL from the view class.
standings.cls = StandingsView
standings.initkwargs = {}
