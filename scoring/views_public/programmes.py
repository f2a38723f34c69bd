"""`/<slug>/`: a competition's leaderboard or, for a championship's slug, its programme (each
competition with its status, clock and first three, rendered once per state and language);
and `/<slug>/qr.svg`, that address as a QR code for the big screen."""

import hashlib
import io

import segno
from django.http import Http404, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers

from competition.models import Championship, Status
from competition.qr import absolute_url
from scoring import selectors
from scoring.api import (
    cached_response,
    if_none_match,
    is_staff,
)
from scoring.selectors import competition_state, standings_for
from scoring.views_public import live
from scoring.views_public.live import _language, _live_page


def leaderboard(request, slug):
    """R1, R11: the live leaderboard; with `HX-Request: true` only its live part. Slugs of
    championships and competitions share `/<slug>/`: a slug that is no competition's but a
    championship's shows that championship's programme."""
    if selectors.programme_read(slug):  # a championship's, read this second: no query
        return programme(request, slug)
    return _live_page(request, slug, "leaderboard", otherwise=programme)


LEADERS = 3  # the programme shows each competition's first three


# What a programme's bytes depend on, of each competition (beside its standings version and
# status): its card, its clock and the reveal that may hold its places back.
_PROGRAMME_FIELDS = (
    "pk",
    "slug",
    "name",
    "discipline",
    "round",
    "starts_at",
    "duration_minutes",
    "started_at",
    "stopped_at",
    "finalised_at",
    "standings_version",
    "ranking",  # the leaders shown rank by it
    "hold_results",
    "reveal_from",
    "reveal_at",
)


def _programme_key(championship, competitions, statuses, lang) -> str:
    """One key for the programme as it shows now: it changes with any competition's
    standings version, status, clock, card or reveal, and with the language."""
    shown = [
        (championship.pk, championship.name, championship.venue),
        (championship.starts_on, championship.ends_on),
        *[
            (status, *(getattr(c, f) for f in _PROGRAMME_FIELDS))
            for c, status in zip(competitions, statuses, strict=True)
        ],
    ]
    digest = hashlib.sha256(repr(shown).encode()).hexdigest()[:32]
    return f"programme:{championship.pk}:{digest}:{lang}"


def programme_items(competitions, now) -> list[dict]:
    """The programme's entry of each competition (a state of `selectors.programme`): its
    status, clock and first three from the public, blind standings (cached per version)."""
    items = []
    for c in competitions:
        status = str(c.status_at(now))
        body = standings_for(c, status=status)
        leaders = []
        if status != "setup" and not body["held"]:
            leaders = [r for r in body["standings"] if r["pieces"] > 0 and not r["disqualified"]]
        items.append(
            {
                "c": c,
                "status": status,
                "status_label": Status(status).label,
                "clock": c.clock(now),
                "leaders": leaders[:LEADERS],
                "held": body["held"],
            }
        )
    return items


def programme(request, slug):
    """A championship's programme: each competition with its discipline, round, status, clock
    and leaders (the public, blind standings: no personal data), linking to its leaderboard.
    With `HX-Request: true` only its live part (polled while one is not final). As a
    competition's leaderboard, rendered once per state of its competitions and language and
    kept in the cache (the same bytes for every reader; a poll that has them gets 304), so a
    public reader costs at most the two queries of its 1 s memo."""
    found = selectors.programme(slug, fresh=is_staff(request.user))
    if found is None:
        raise Http404("No such competition.")
    championship, competitions = found
    now = timezone.now()
    blobs = selectors.programme_blobs(slug, found)
    # Within this process's 1 s memo of the programme, its clocks' statuses and its key are
    # worked out once (docs/contracts.md: a public reader may be a second behind).
    lang = _language()
    known = blobs.get(f"state:{lang}")
    if known is None:
        statuses = [str(c.status_at(now)) for c in competitions]
        known = blobs[f"state:{lang}"] = (
            statuses,
            _programme_key(championship, competitions, statuses, lang),
        )
    statuses, key = known

    def context() -> dict:
        return {
            "championship": championship,
            "items": programme_items(competitions, now),
            "url": reverse("public:programme", args=[championship.slug]),
            "live": any(status != "final" for status in statuses),
            "poll_seconds": live.POLL_SECONDS,  # the live pages' one constant
        }

    html = "text/html; charset=utf-8"
    if request.htmx:
        etag = f'W/"{key.replace(":", "-")}"'
        if if_none_match(request, etag):
            response = HttpResponseNotModified()
        else:
            response = cached_response(
                request,
                None,
                f"{key}:live",
                lambda: render_to_string("scoring/_programme_live.html", context(), request),
                html,
                blobs=blobs,
            )
        response["ETag"] = etag
        response["Cache-Control"] = "no-cache"
    elif (
        not request.user.is_authenticated and not request.GET and "messages" not in request.COOKIES
    ):
        # The same bytes for every anonymous reader (no token, no session in the page).
        response = cached_response(
            request,
            None,
            f"{key}:page",
            lambda: render_to_string("scoring/programme.html", context(), request),
            html,
            blobs=blobs,
        )
    else:
        response = render(request, "scoring/programme.html", context())
    patch_vary_headers(response, ("HX-Request",))
    return response


def qr(request, slug):
    """The big screen's QR code: the leaderboard's address on the hall's network (SVG); of a
    championship's slug, its programme's (the same `/<slug>/`)."""
    if competition_state(slug) is None and not Championship.objects.filter(slug=slug).exists():
        raise Http404("No such competition.")
    url = absolute_url(request, reverse("public:leaderboard", args=[slug]))
    buffer = io.BytesIO()
    segno.make(url, error="m").save(buffer, kind="svg", scale=10, border=2, light="#fff")
    response = HttpResponse(buffer.getvalue(), content_type="image/svg+xml")
    response["Cache-Control"] = "max-age=300"
    patch_vary_headers(response, ("Host",))
    return response
