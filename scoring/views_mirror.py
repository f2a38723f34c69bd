"""The mirror's two own addresses (docs/contracts.md "The public mirror"): the hall's push, and how
old the newest snapshot is (for the pages' "Sidste nyt fra hallen for 14 sek. siden").

Both answer 404 on the hall: only a mirror takes a push or has an age to tell.
"""

import hmac
import json
import logging

from django.conf import settings
from django.http import Http404, JsonResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.csrf import csrf_exempt

from competition.inputs import whole_number
from scoring import mirror
from scoring.models import MirrorState
from scoring.selectors import short_duration

log = logging.getLogger(__name__)

PUSH_MAX_BYTES = 8 * 1024 * 1024  # a championship of 1000 teams is well under 1 MB


def _refused(status: int, code: str, detail: str) -> JsonResponse:
    return JsonResponse({"code": code, "detail": detail}, status=status)


def _not_the_halls_post(request, method_detail: str) -> JsonResponse | None:
    """404 in the hall (only a mirror takes a push), 405 not a POST, 403 a wrong token."""
    if not mirror.is_mirror():
        raise Http404("Not a mirror.")
    if request.method != "POST":
        return _refused(405, "method_not_allowed", method_detail)
    header = request.headers.get("Authorization", "")
    given = header.removeprefix("Mirror ").strip() if header.startswith("Mirror ") else ""
    if not given or not hmac.compare_digest(given.encode(), settings.MIRROR_TOKEN.encode()):
        log.warning("Mirror push refused: wrong token")
        return _refused(403, "wrong_token", "Not the mirror's token.")
    return None


class _Refusal(Exception):
    def __init__(self, response: JsonResponse):
        self.response = response


def _body(request):
    """The JSON body; _Refusal for a length that is no number (400) or too large (413),
    ValueError for a body that is not JSON."""
    length = whole_number(request.headers.get("Content-Length", ""), high=2**62)
    if length is None:
        raise _Refusal(_refused(400, "bad_snapshot", "Content-Length is not a whole number."))
    if length > PUSH_MAX_BYTES:
        raise _Refusal(_refused(413, "too_large", "The snapshot is too large."))
    return json.loads(request.read(PUSH_MAX_BYTES + 1))


@csrf_exempt
def held(request):
    """POST /api/v1/mirror/held with the token and `{"competitions": [id, ...]}`, every
    competition the hall holds: the mirror drops the others (deleted in the hall before
    their start) and answers `{"removed": [slug, ...]}`."""
    if (refused := _not_the_halls_post(request, "POST the competitions held.")) is not None:
        return refused
    try:
        ids = mirror.validate_held(_body(request))
    except _Refusal as refusal:
        return refusal.response
    except (ValueError, mirror.SnapshotError) as exc:
        return _refused(400, "bad_snapshot", str(exc))
    removed = mirror.keep_only(ids)
    if removed:
        log.info("Mirror dropped %s: the hall no longer holds them", ", ".join(removed))
    return JsonResponse({"removed": removed})


@csrf_exempt
def push(request):
    """POST /api/v1/mirror/push with `Authorization: Mirror <MIRROR_TOKEN>` and a snapshot:
    200 taken in (or already held), 403 a wrong token, 409 `older_version`, 400 not the
    schema's."""
    if (refused := _not_the_halls_post(request, "POST a snapshot.")) is not None:
        return refused
    try:
        snapshot = _body(request)
        mirror.validate(snapshot)
    except _Refusal as refusal:
        return refusal.response
    except (ValueError, mirror.SnapshotError) as exc:
        return _refused(400, "bad_snapshot", str(exc))
    try:
        status, answer = mirror.apply(snapshot)
    except mirror.SnapshotError as exc:
        return _refused(400, "bad_snapshot", str(exc))
    if status != 200:
        log.info(
            "Mirror push of %s v%s refused: %s",
            snapshot["competition"]["slug"],
            snapshot["version"],
            answer["code"],
        )
    return JsonResponse(answer, status=status)


def age(request, slug):
    """GET /api/v1/competitions/{slug}/mirror: the age of the newest snapshot, and the
    sentence the pages show, in the reader's language."""
    if not mirror.is_mirror():
        raise Http404("Not a mirror.")
    state = MirrorState.objects.filter(competition__slug=slug).first()
    if state is None:
        raise Http404("No snapshot of this competition.")
    seconds = max(0, int((timezone.now() - state.heard_at).total_seconds()))
    response = JsonResponse(
        {
            "version": state.version,
            "heard_at": state.heard_at.isoformat(),
            "age_seconds": seconds,
            "sentence": age_sentence(seconds),
            # The page counts on between polls with these (static/js/public.mjs).
            "words": {
                "sentence": _("Latest from the hall %(age)s ago"),
                "hour": pgettext("duration", "%(n)s h"),
                "minute": pgettext("duration", "%(n)s min."),
                "second": pgettext("duration", "%(n)s sec."),
            },
        }
    )
    response["Cache-Control"] = "no-cache"
    return response


def age_sentence(seconds: int) -> str:
    return _("Latest from the hall %(age)s ago") % {"age": short_duration(seconds)}
