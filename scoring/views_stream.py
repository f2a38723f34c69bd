"""Followers beyond the hall's tables: the speaker's feed and the stream overlay (public).

Both read only the public standings (never an unconfirmed count, never a personal value)
and say what they guess: a projection is "forventet", never a result (puzzle_rules/pace.py).
"""

from django.http import HttpResponseBadRequest
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _

from competition.inputs import whole_number
from scoring.follow import feed_items, projection
from scoring.selectors import standings_for
from scoring.views_public.live import _language, _state

CLOSE_SECONDS = 5 * 60  # "close to finishing": projected within the next five minutes
OVERLAY_TOP = (1, 20)


def _page_context(request, slug):
    state, staff = _state(request, slug)
    now = timezone.now()
    status = str(state.status_at(now))
    body = standings_for(state, staff=False, status=status)  # the public view, also for staff
    return state, now, status, body


def speaker_context(state, now, status, body) -> dict:
    """What the speaker reads: the newest finishes with the places they gave, and the teams
    close to finishing their current puzzle (projected); empty while places are held back
    for the prize-giving's reveal."""
    held = bool(body.get("held"))
    close = []
    if not held:
        elapsed = state.elapsed_seconds(now)
        for r in body["standings"]:
            at = projection(body, r, state, now)
            if at is not None and 0 <= at - elapsed <= CLOSE_SECONDS and r["current"]:
                minutes = max(1, -(-(at - elapsed) // 60))  # rounded up, at least 1
                close.append({"row": r, "at": at, "minutes": minutes})
        close.sort(key=lambda c: c["at"])
    return {
        "competition": state,
        "status": status,
        "clock": state.clock(),
        "items": [] if held else feed_items(state, status, body),
        "close": close,
        "held": held,
        "final": body["final"],
    }


def speaker_feed(request, slug):
    """/<slug>/feed/: the speaker's feed, newest first, live (its part polls)."""
    state, now, status, body = _page_context(request, slug)
    context = speaker_context(state, now, status, body)
    template = "scoring/_feed_live.html" if request.htmx else "scoring/feed.html"
    return render(request, template, context)


def overlay(request, slug):
    """/<slug>/overlay/?top=N: a transparent 1920x1080 browser source for a stream: the top
    N (default 5) and the clock, live."""
    raw = request.GET.get("top", "5")
    top = whole_number(raw, high=99) or 0
    if not OVERLAY_TOP[0] <= top <= OVERLAY_TOP[1]:
        return HttpResponseBadRequest(
            _("top must be a whole number from %(low)s to %(high)s.")
            % {"low": OVERLAY_TOP[0], "high": OVERLAY_TOP[1]}
        )
    state, _now, status, body = _page_context(request, slug)
    ranked = [r for r in body["standings"] if r["rank"] is not None]
    context = {
        "competition": state,
        "status": status,
        "clock": state.clock(),
        "rows": ranked[:top],
        "top": top,
        "held": body.get("held"),
        "final": body["final"],
        "lang": _language(),
    }
    template = "scoring/_overlay_live.html" if request.htmx else "scoring/overlay.html"
    return render(request, template, context)
