"""A competition's live pages (the leaderboard's and the big screen's): the live part rendered
once per (competition, standings version, clock status, language, label) and kept in Django's
cache, a poll with the fragment's ETag answered 304; the page around it; what the big
screen's mode shows."""

from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.http import urlencode
from django.utils.translation import get_language

from competition.models import Status
from scoring import selectors
from scoring.api import (
    cached_response,
    if_none_match,
    is_staff,
    label_of,
    label_tag,
    sees_unconfirmed_counts,
)
from scoring.charts import race_chart
from scoring.follow import feed_items
from scoring.selectors import CACHE_SECONDS, competition_state, standings_for, version_of

POLL_SECONDS = 5


def _language() -> str:
    return "en" if (get_language() or "da").startswith("en") else "da"


def _state(request, slug):
    """(competition state, staff?) or 404. Staff always read the current version."""
    staff = is_staff(request.user)
    state = competition_state(slug, fresh=staff)
    if state is None:
        raise Http404("No such competition.")
    return state, staff


def _live_context(state, status, staff, body) -> dict:
    return {
        "competition": state,
        "status": status,
        "status_label": Status(status).label,
        "body": body,
        "rows": body["standings"],
        "clock": state.clock(),
        "poll_seconds": POLL_SECONDS,
        "staff": staff,
    }


LIVE = {
    "leaderboard": ("scoring/leaderboard.html", "scoring/_leaderboard_live.html"),
    "screen": ("scoring/screen.html", "scoring/_screen_live.html"),
    "stage": ("scoring/screen.html", "scoring/_screen_live.html"),
}


def _with_label(url: str, label: str | None) -> str:
    return url if label is None else f"{url}?{urlencode({'label': label})}"


def _render_live(state, status, staff, kind, blind=True, label=None) -> str:
    """The live part; with `label`, that label's own ranking under its heading (the same
    rules, its own ranks: selectors.label_body) and, on the leaderboard, a chip for each
    label in use to choose another."""
    body = standings_for(state, staff=staff, status=status, blind=blind)
    leaderboard_url = reverse("public:leaderboard", args=[state.slug])
    chips = [
        {"label": name, "url": _with_label(leaderboard_url, name), "current": name == label}
        for name in body.get("labels", [])
    ]
    if label is not None:
        body = selectors.label_body(state, body, label)
    context = _live_context(state, status, staff, body)
    # "stage": the screen's live part on a championship's big screen, which polls for it.
    context["on_stage"] = kind == "stage"
    page = "public:screen" if kind == "stage" else f"public:{kind}"
    context["url"] = _with_label(reverse(page, args=[state.slug]), label)
    context["label"] = label
    context["chips"] = chips
    context["leaderboard_url"] = leaderboard_url
    context["qr_url"] = reverse("public:qr", args=[state.slug])
    # The hall's address when `make hall` knows it; else the page fills in its own.
    context["public_host"] = settings.PUBLIC_URL.split("://", 1)[-1]
    if kind == "leaderboard":
        context["chart"] = race_chart(body)
    else:
        context.update(screen_context(state, body, label=label))
    return render_to_string(LIVE[kind][1], context)


TICKER_LINES = 6  # the big screen's ticker: the newest lines of the speaker's feed
SCREEN_POLL_SECONDS = 1  # A switch in the control room shows within about a second


def screen_context(state, body, label=None) -> dict:
    """What the big screen's mode needs: the countdown, the announcement, the
    reveal's current place(s) with the tie-break sentence that names them. A label's screen
    shows its own ranking where the others show the reveal or the ticker (the places
    and the finishes of the whole ranking)."""
    rows = body["standings"]
    mode = state.screen_mode
    if label is not None and mode in ("reveal", "ticker"):
        mode = "standings"
    context = {
        "mode": mode,
        "message": state.screen_message,
        "poll_seconds": SCREEN_POLL_SECONDS,
        "starts_ms": int(state.starts_at.timestamp() * 1000),
        "reveal": None,
        "ticker": None,
    }
    if mode == "ticker" and not body.get("held"):
        # The speaker's feed, newest first, as many lines as a TV shows (puzzle_rules/pace.py).
        context["ticker"] = feed_items(state, body["status"], body)[:TICKER_LINES]
    at, first = state.reveal_at, state.reveal_from
    if mode == "reveal" and at is not None:
        current = [r for r in rows if r["rank"] == at]
        below = next((r for r in rows if r["rank"] is not None and r["rank"] > at), None)
        sentence = None
        if current and below and below["rank"] <= first and below["tie_break"]:
            sentence = below["tie_break"][_language()]
        context["reveal"] = {
            "at": at,
            "first": first,
            "started": at <= first,
            "over": at == 1,
            "current": current,
            "sentence": sentence,
            "shown": [r for r in rows if r["rank"] is not None and at < r["rank"] <= first],
        }
    return context


def _live_key(kind, state, status, lang, label=None) -> str:
    return f"live:{kind}:{state.pk}:{version_of(state)}:{status}:{lang}{label_tag(label)}"


def _kept(state, status, label) -> bool:
    """Whether the public live part is kept in the cache: the whole ranking, or the ranking
    of a label an entrant carries (not one for every text someone types after ?label=)."""
    return label is None or label in standings_for(state, status=status).get("labels", [])


def _live_html(state, status, staff, lang, kind, blind=True, label=None) -> str:
    """The live part, rendered once per version, status, language and label (public
    readers)."""
    if staff or not _kept(state, status, label):
        return _render_live(state, status, staff, kind, blind, label)
    key = _live_key(kind, state, status, lang, label)
    html = cache.get(key)
    if html is None:
        html = _render_live(state, status, staff, kind, label=label).encode()
        cache.set(key, html, CACHE_SECONDS)
    return html.decode()


def _live_page(request, slug, kind, otherwise=None):
    """The live page of the competition `slug`; when there is none, `otherwise(request, slug)`
    answers (default: 404)."""
    try:
        state, staff = _state(request, slug)
    except Http404:
        if otherwise is None:
            raise
        return otherwise(request, slug)
    blind = not sees_unconfirmed_counts(request.user)
    status = str(state.status_at(timezone.now()))
    lang = _language()
    label = label_of(request)
    if request.htmx:
        etag = f'W/"{kind}-{state.pk}-{version_of(state)}-{status}-{lang}{label_tag(label)}"'
        if staff:
            response = HttpResponse(_live_html(state, status, staff, lang, kind, blind, label))
        elif if_none_match(request, etag):
            response = HttpResponseNotModified()
        elif not _kept(state, status, label):
            response = HttpResponse(_render_live(state, status, staff, kind, label=label))
        else:
            response = cached_response(
                request,
                state,
                _live_key(kind, state, status, lang, label),
                lambda: _render_live(state, status, staff, kind, label=label),
                "text/html; charset=utf-8",
            )
        if not staff:
            response["ETag"] = etag
        response["Cache-Control"] = "no-cache"
        patch_vary_headers(response, ("HX-Request",))
        return response

    page_template = LIVE[kind][0]

    def context():
        return {
            "competition": state,
            "clock": state.clock(),
            "live": _live_html(state, status, staff, lang, kind, blind, label),
            "kind": kind,
            "label": label,
        }

    anonymous = not request.user.is_authenticated
    if not staff and anonymous and not request.GET and "messages" not in request.COOKIES:
        # The same bytes for every anonymous reader of this version: no token, no session.
        response = cached_response(
            request,
            state,
            f"page:{kind}:{state.pk}:{version_of(state)}:{status}:{lang}",
            lambda: render_to_string(page_template, context(), request),
            "text/html; charset=utf-8",
        )
    else:
        response = render(request, page_template, context())
    patch_vary_headers(response, ("HX-Request",))
    return response


def competition_screen(request, slug, otherwise=None):
    """A competition's big screen for the café TV or a projector (1920x1080); when no
    competition has the slug, `otherwise` answers. The route is `views_stage.screen`, which
    answers a championship's slug with its stage: the import goes one way, stage to here."""
    return _live_page(request, slug, "screen", otherwise=otherwise)
