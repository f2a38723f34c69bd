"""A championship's big screen, its stage (`/<championship-slug>/screen/`: docs/contracts.md "A
championship of several competitions"). Slugs of championships and competitions share one
namespace, so the address is a competition's screen with the championship's slug
(`screen` below: a competition's big screen, else a championship's stage).

While competitions run, the stage shows one of them at a time as its own big screen shows
it (the same live part, cached per version, without its own poll), under a bar that names
the championship, the competition's discipline and round and which of the running ones it
is. When none runs it shows the programme: what comes next and each competition's status
and leaders.

The page's script (static/js/public.mjs `setupStage`) polls this address with one timer:
`?show=<slug>` asks for the competition on show, or for the next one (`data-next`) once the
rotation is due; the answer shows the asked one if it still runs, else the first that runs,
else the programme. The next poll is set only when the answer is in, so a rotation never
races a poll. The rotation interval is `settings.STAGE_ROTATE_SECONDS` (15 s), in the page
as `data-rotate-ms`.

Everyone reads the public, blind standings here (it is the café's screen). The bytes are
cached per (championship, each competition's standings version and clock status, the one on
show, language) and a poll with their ETag is answered 304: two queries a read whatever the
number of competitions and entrants once the standings are cached (`selectors.programme`).
"""

import hashlib

from csp.constants import SELF
from csp.decorators import csp_replace
from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpResponseNotModified
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.views.decorators.clickjacking import xframe_options_sameorigin

from competition.models import Championship, Competition, Status
from scoring import selectors
from scoring.api import cached_response, if_none_match
from scoring.selectors import CACHE_SECONDS, version_of

# This module extends the public pages: their live parts, language and programme entries.
from scoring.views_public.live import (
    SCREEN_POLL_SECONDS,
    _language,
    _live_html,
    competition_screen,
)
from scoring.views_public.programmes import programme_items

HTML = "text/html; charset=utf-8"


def _signature(championship: Championship, competitions, statuses: dict) -> str:
    """Everything the stage's bytes depend on but the one on show and the language: the
    championship's words and each competition's standings version and clock status (the
    version is bumped by every write to a competition, its screen's mode included)."""
    parts = [championship.name, championship.venue, str(settings.STAGE_ROTATE_SECONDS)]
    parts += [f"{c.pk}.{version_of(c)}.{statuses[c.pk]}" for c in competitions]
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:20]


def _context(championship, competitions, statuses, shown: Competition | None, lang) -> dict:
    running = [c for c in competitions if statuses[c.pk] == Status.RUNNING]
    context = {
        "championship": championship,
        "url": reverse("public:screen", args=[championship.slug]),
        "rotate_ms": int(settings.STAGE_ROTATE_SECONDS * 1000),
        "poll_ms": SCREEN_POLL_SECONDS * 1000,
        "shown": shown,
        "running": running,
    }
    if shown is not None:
        at = running.index(shown)
        context.update(
            {
                "position": at + 1,
                "total": len(running),
                "next": running[(at + 1) % len(running)].slug if len(running) > 1 else "",
                "live": _live_html(shown, Status.RUNNING, False, lang, "stage"),
            }
        )
        return context
    items = programme_items(competitions, timezone.now())
    context.update(
        {
            "items": items,
            # What comes next: the first in the programme whose clock has not started.
            "next_up": next((i for i in items if i["status"] == Status.SETUP), None),
            "qr_url": reverse("public:qr", args=[championship.slug]),
            "programme_url": reverse("public:programme", args=[championship.slug]),
            "public_host": settings.PUBLIC_URL.split("://", 1)[-1],
        }
    )
    return context


def stage(request, slug):
    """The championship `slug`'s big screen (404 when no championship has it)."""
    found = selectors.programme(slug)
    if found is None:
        raise Http404("No such competition.")
    championship, competitions = found
    now = timezone.now()
    statuses = {c.pk: str(c.status_at(now)) for c in competitions}
    running = [c for c in competitions if statuses[c.pk] == Status.RUNNING]
    asked = request.GET.get("show", "")
    shown = next((c for c in running if c.slug == asked), running[0] if running else None)
    lang = _language()
    name = "{}:{}:{}:{}".format(
        championship.pk,
        _signature(championship, competitions, statuses),
        shown.pk if shown is not None else "-",
        lang,
    )

    def live() -> str:
        return render_to_string(
            "scoring/_stage_live.html", _context(championship, competitions, statuses, shown, lang)
        )

    if request.htmx:
        etag = f'W/"stage-{name.replace(":", "-")}"'
        if if_none_match(request, etag):
            response = HttpResponseNotModified()
        else:
            response = cached_response(request, None, f"stage-live:{name}", live, HTML)
        response["ETag"] = etag
        response["Cache-Control"] = "no-cache"
        patch_vary_headers(response, ("HX-Request",))
        return response

    def page_context() -> dict:
        html = cache.get(f"stage-live:{name}")
        if html is None:
            html = live().encode()
            cache.set(f"stage-live:{name}", html, CACHE_SECONDS)
        return {"championship": championship, "live": html.decode()}

    anonymous = not request.user.is_authenticated
    if anonymous and "messages" not in request.COOKIES:
        # The same bytes for every anonymous reader: no token, no session.
        response = cached_response(
            request,
            None,
            f"stage-page:{name}",
            lambda: render_to_string("scoring/stage.html", page_context(), request),
            HTML,
        )
    else:
        response = render(request, "scoring/stage.html", page_context())
    patch_vary_headers(response, ("HX-Request",))
    return response


@csp_replace({"frame-ancestors": [SELF]})
@xframe_options_sameorigin
def screen(request, slug):
    """`/<slug>/screen/`: the big screen of the competition `slug` (views_public), or of a
    championship its stage, rotating between its running competitions. The control room
    shows it in a frame as its preview: only our own pages may frame it."""
    return competition_screen(request, slug, otherwise=stage)
