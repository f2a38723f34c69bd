"""Public pages (R1): the competitions, the live leaderboard, the big screen, team pages,
results.csv and the rules. No login; no personal data (members, guardians, contacts).

The live parts are rendered once per (competition, standings version, clock status,
language) and kept in Django's cache; a poll with the fragment's ETag is answered 304.
"""

import hashlib
import io
from datetime import date

import segno
from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.http import content_disposition_header, urlencode
from django.utils.text import slugify
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from competition.cells import csv_writer
from competition.models import Championship, Competition, Status
from competition.qr import absolute_url, qr_svg
from competition.words import entrant_text
from puzzle_rules.formatting import format_hms
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
from scoring.follow import feed_items, projection
from scoring.rules_text import UPDATED, rules_in
from scoring.selectors import CACHE_SECONDS, competition_state, standings_for

POLL_SECONDS = 5


def home(request):
    """The championships of several competitions (each links to its programme), then the
    competitions, newest first. One query."""
    competitions = Competition.objects.select_related("championship").only(
        "slug",
        "name",
        "venue",
        "starts_at",
        "started_at",
        "stopped_at",
        "finalised_at",
        "duration_minutes",
        "championship__slug",
        "championship__name",
        "championship__venue",
    )
    now = timezone.now()
    items = []
    held: dict[int, dict] = {}
    for c in competitions:
        status = c.status_at(now)
        items.append({"c": c, "status": str(status), "label": Status(status).label})
        held.setdefault(c.championship_id, {"championship": c.championship, "competitions": []})
        held[c.championship_id]["competitions"].append(items[-1])
    # A competition's own championship (its slug, its one competition) is the competition.
    championships = [
        group
        for group in held.values()
        if group["championship"].slug != group["competitions"][0]["c"].slug
        or len(group["competitions"]) > 1
    ]
    for group in championships:
        group["competitions"].sort(key=lambda item: (item["c"].starts_at, item["c"].pk))
        running = [item for item in group["competitions"] if item["status"] == "running"]
        group["running"] = len(running)
    return render(
        request, "scoring/home.html", {"competitions": items, "championships": championships}
    )


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
        # The speaker's feed, newest first, as many lines as a TV shows (scoring/pace.py).
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
    return f"live:{kind}:{state.pk}:{state.standings_version}:{status}:{lang}{label_tag(label)}"


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
        etag = f'W/"{kind}-{state.pk}-{state.standings_version}-{status}-{lang}{label_tag(label)}"'
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
            "poll_seconds": POLL_SECONDS,
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


def competition_screen(request, slug, otherwise=None):
    """A competition's big screen for the café TV or a projector (1920x1080); when no
    competition has the slug, `otherwise` answers. The route is `views_stage.screen`, which
    answers a championship's slug with its stage: the import goes one way, stage to here."""
    return _live_page(request, slug, "screen", otherwise=otherwise)


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
    """The results for a Danish Excel: `;` between fields, UTF-8 with a BOM, header first;
    with `?label=`, that label's own ranking (its name in the file's name)."""
    state, staff = _state(request, slug)
    status = str(state.status_at(timezone.now()))
    blind = not sees_unconfirmed_counts(request.user)
    body = standings_for(state, staff=staff, status=status, blind=blind)
    label = label_of(request)
    if label is not None:
        body = selectors.label_body(state, body, label)
    final = body["final"]
    out = io.StringIO()
    writer = csv_writer(out, delimiter=";", lineterminator="\r\n")
    header = [_("No."), entrant_text(state, "Team"), _("Table"), _("Pieces"), _("Puzzles finished")]
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
    labelled = "" if label is None else f"-{slugify(label, allow_unicode=True)}"
    name = f"{state.slug}-{words[0]}{labelled}-{words[1]}.csv"
    response = HttpResponse(
        ("\ufeff" + out.getvalue()).encode("utf-8"), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = content_disposition_header(True, name)
    response["Cache-Control"] = "no-cache"
    return response
