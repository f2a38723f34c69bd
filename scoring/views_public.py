"""Public pages (R1): the competitions, the live leaderboard, the big screen, team pages,
results.csv and the rules. No login; no personal data (members, guardians, contacts).

The live parts are rendered once per (competition, standings version, clock status,
language) and kept in Django's cache; a poll with the fragment's ETag is answered 304.
"""

import io
from datetime import date

import segno
from csp.constants import SELF
from csp.decorators import csp_replace
from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.http import content_disposition_header
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.clickjacking import xframe_options_sameorigin

from competition.cells import csv_writer
from competition.models import Championship, Competition, Status
from competition.qr import absolute_url, qr_svg
from scoring import selectors
from scoring.api import cached_response, if_none_match, is_staff, sees_unconfirmed_counts
from scoring.charts import race_chart
from scoring.follow import feed_items, projection
from scoring.formatting import format_hms
from scoring.rules_text import UPDATED, rules_in
from scoring.selectors import CACHE_SECONDS, competition_state, standings_for

POLL_SECONDS = 5


def home(request):
    """The competitions, newest first."""
    competitions = Competition.objects.only(
        "slug",
        "name",
        "venue",
        "starts_at",
        "started_at",
        "stopped_at",
        "finalised_at",
        "duration_minutes",
    )
    now = timezone.now()
    items = []
    for c in competitions:
        status = c.status_at(now)
        items.append({"c": c, "status": str(status), "label": Status(status).label})
    return render(request, "scoring/home.html", {"competitions": items})


def rules(request):
    """R1-R20, P1, P2: the organiser's Danish text, or the English rendering."""
    return render(
        request,
        "scoring/rules.html",
        {**rules_in(_language()), "updated": date(*UPDATED)},
    )


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


def _render_live(state, status, staff, kind, blind=True) -> str:
    body = standings_for(state, staff=staff, status=status, blind=blind)
    context = _live_context(state, status, staff, body)
    # "stage": the screen's live part on a championship's big screen, which polls for it.
    context["on_stage"] = kind == "stage"
    context["url"] = reverse(
        "public:screen" if kind == "stage" else f"public:{kind}", args=[state.slug]
    )
    context["leaderboard_url"] = reverse("public:leaderboard", args=[state.slug])
    context["qr_url"] = reverse("public:qr", args=[state.slug])
    # The hall's address when `make hall` knows it; else the page fills in its own.
    context["public_host"] = settings.PUBLIC_URL.split("://", 1)[-1]
    if kind == "leaderboard":
        context["chart"] = race_chart(body)
    else:
        context.update(screen_context(state, body))
    return render_to_string(LIVE[kind][1], context)


TICKER_LINES = 6  # the big screen's ticker: the newest lines of the speaker's feed
SCREEN_POLL_SECONDS = 1  # A switch in the control room shows within about a second


def screen_context(state, body) -> dict:
    """What the big screen's mode needs: the countdown, the announcement, the
    reveal's current place(s) with the tie-break sentence that names them."""
    rows = body["standings"]
    context = {
        "mode": state.screen_mode,
        "message": state.screen_message,
        "poll_seconds": SCREEN_POLL_SECONDS,
        "starts_ms": int(state.starts_at.timestamp() * 1000),
        "reveal": None,
        "ticker": None,
    }
    if state.screen_mode == "ticker" and not body.get("held"):
        # The speaker's feed, newest first, as many lines as a TV shows (scoring/pace.py).
        context["ticker"] = feed_items(state, body["status"], body)[:TICKER_LINES]
    at, first = state.reveal_at, state.reveal_from
    if state.screen_mode == "reveal" and at is not None:
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


def _live_key(kind, state, status, lang) -> str:
    return f"live:{kind}:{state.pk}:{state.standings_version}:{status}:{lang}"


def _live_html(state, status, staff, lang, kind, blind=True) -> str:
    """The live part, rendered once per version, status and language (public readers)."""
    if staff:
        return _render_live(state, status, staff, kind, blind)
    key = _live_key(kind, state, status, lang)
    html = cache.get(key)
    if html is None:
        html = _render_live(state, status, staff, kind).encode()
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
    if request.htmx:
        etag = f'W/"{kind}-{state.pk}-{state.standings_version}-{status}-{lang}"'
        if staff:
            response = HttpResponse(_live_html(state, status, staff, lang, kind, blind))
        elif if_none_match(request, etag):
            response = HttpResponseNotModified()
        else:
            response = cached_response(
                request,
                state,
                _live_key(kind, state, status, lang),
                lambda: _render_live(state, status, staff, kind),
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
            "live": _live_html(state, status, staff, lang, kind, blind),
            "kind": kind,
        }

    anonymous = not request.user.is_authenticated
    if not staff and anonymous and not request.GET and "messages" not in request.COOKIES:
        # The same bytes for every anonymous reader of this version: no token, no session.
        response = cached_response(
            request,
            state,
            f"page:{kind}:{state.pk}:{state.standings_version}:{status}:{lang}",
            lambda: render_to_string(page_template, context(), request),
            "text/html; charset=utf-8",
        )
    else:
        response = render(request, page_template, context())
    patch_vary_headers(response, ("HX-Request",))
    return response


def leaderboard(request, slug):
    """R1, R11: the live leaderboard; with `HX-Request: true` only its live part. Slugs of
    championships and competitions share `/<slug>/`: a slug that is no competition's but a
    championship's shows that championship's programme."""
    return _live_page(request, slug, "leaderboard", otherwise=programme)


LEADERS = 3  # the programme shows each competition's first three


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
    Two queries whatever the number of competitions and entrants once their standings are
    cached; with `HX-Request: true` only its live part (polled while one is not final)."""
    found = selectors.programme(slug)
    if found is None:
        raise Http404("No such competition.")
    championship, competitions = found
    items = programme_items(competitions, timezone.now())
    context = {
        "championship": championship,
        "items": items,
        "url": reverse("public:programme", args=[championship.slug]),
        "live": any(item["status"] != "final" for item in items),
        "poll_seconds": POLL_SECONDS,
    }
    if request.htmx:
        response = render(request, "scoring/_programme_live.html", context)
        response["Cache-Control"] = "no-cache"
    else:
        response = render(request, "scoring/programme.html", context)
    patch_vary_headers(response, ("HX-Request",))
    return response


@csp_replace({"frame-ancestors": [SELF]})
@xframe_options_sameorigin
def screen(request, slug):
    """The big screen for the café TV or a projector (1920x1080). The control room shows
    it in a frame as its preview: only our own pages may frame it. A championship's slug: its
    stage, rotating between its running competitions (scoring/views_stage.py)."""
    from scoring.views_stage import stage  # it builds on this module's live parts

    return _live_page(request, slug, "screen", otherwise=stage)


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


def team(request, slug, team_id):
    """A team's timeline: split times, pieces per minute, deductions, the count."""
    state, staff = _state(request, slug)
    status = str(state.status_at(timezone.now()))
    blind = not sees_unconfirmed_counts(request.user)
    body = standings_for(state, staff=staff, status=status, blind=blind)
    row = next((r for r in body["standings"] if r["team"]["id"] == team_id), None)
    if row is None and body["held"]:
        # Its place waits for the reveal; the page says so instead of a 404.
        full = standings_for(state, staff=True, status=status)
        held = next((r for r in full["standings"] if r["team"]["id"] == team_id), None)
        if held is not None:
            team = {"name": held["team"]["name"], "table": held["team"]["table"]}
            context = {"competition": state, "team": team, **_share(request)}
            return render(request, "scoring/team_held.html", context)
    if row is None:
        raise Http404("No such team in this competition.")
    finishes = {f["puzzle"]: f for f in row["finishes"]}
    timeline = []
    for p in body["puzzles"]:
        f = finishes.get(p["position"])
        entry = {"puzzle": p, "finish": f, "counted": None, "current": False}
        if f is None and p["position"] == row["finished"] + 1:
            entry["counted"] = row["counted"]
            entry["counting"] = row["counting"] and row["counted"] is None
            entry["current"] = row["current"] is not None
            # A guess from the team's own pace, labelled "forventet", never a result.
            entry["projected"] = projection(body, row, state, timezone.now())
        timeline.append(entry)
    context = {
        "competition": state,
        "status": status,
        "status_label": Status(status).label,
        "body": body,
        "row": row,
        "timeline": timeline,
        "deducted": sum(f["deducted"] for f in row["finishes"]),
        "chart": race_chart(body, team_id=team_id),
        "staff": staff,
        **_share(request),
    }
    return render(request, "scoring/team.html", context)


def _share(request) -> dict:
    """Follow a team: the page's own address as a link and a QR code (segno
    SVG, as on the table cards), to pass to a phone."""
    url = absolute_url(request, request.path)  # the hall's address, not the laptop's own
    return {"share_url": url, "share_qr": qr_svg(url)}


def results_csv(request, slug):
    """The results for a Danish Excel: `;` between fields, UTF-8 with a BOM, header first."""
    state, staff = _state(request, slug)
    status = str(state.status_at(timezone.now()))
    blind = not sees_unconfirmed_counts(request.user)
    body = standings_for(state, staff=staff, status=status, blind=blind)
    final = body["final"]
    out = io.StringIO()
    writer = csv_writer(out, delimiter=";", lineterminator="\r\n")
    header = [_("No."), _("Team"), _("Table"), _("Pieces"), _("Puzzles finished")]
    header.append(_("Last finish"))
    for p in body["puzzles"]:
        header += [
            _("Puzzle %(n)s time") % {"n": p["position"]},
            _("Puzzle %(n)s deduction") % {"n": p["position"]},
        ]
    header += [_("Count"), _("Status")]
    writer.writerow(header)
    for r in body["standings"]:
        finishes = {f["puzzle"]: f for f in r["finishes"]}
        line = [
            r["rank"] if r["rank"] is not None else "",
            r["team"]["name"],
            r["team"]["table"],
            r["pieces"],
            r["finished"],
            format_hms(r["last_finish_seconds"]) if r["last_finish_seconds"] is not None else "",
        ]
        for p in body["puzzles"]:
            f = finishes.get(p["position"])
            line += [format_hms(f["elapsed_seconds"]), f["deducted"]] if f else ["", ""]
        if r["disqualified"]:
            row_status = _("disqualified")
        elif r["under_review"]:
            row_status = _("under review")
        else:
            row_status = _("final") if final else _("provisional")
        if r["counted"] is not None:
            counted = r["counted"]
        else:
            counted = _("counting") if r["counting"] else ""
        line += [counted, row_status]
        writer.writerow(line)
    words = (_("results"), _("final") if final else _("provisional"))
    name = f"{state.slug}-{words[0]}-{words[1]}.csv"
    response = HttpResponse(
        ("\ufeff" + out.getvalue()).encode("utf-8"), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = content_disposition_header(True, name)
    response["Cache-Control"] = "no-cache"
    return response
