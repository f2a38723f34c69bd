"""The judge's pages (R5, R8, R9, R10, R14): the tablet's board, its htmx fragment, the
worker, and the paper judge sheets for when a tablet dies.

Championships and competitions share one namespace of slugs: `/judge/<slug>/` of a
competition is its tablet page; of a championship (a slug no competition has), the
championship's tablet: the entrants of every competition on now (running, counting, or about
to start) at the tables the judge watches, each card naming its competition and taking its
taps to that competition's API through the same outbox (docs/offline.md)."""

import json
import time
from pathlib import Path
from uuid import UUID

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.vary import vary_on_headers

from competition.models import Championship, Competition, Team
from competition.roles import JUDGE, staff_view
from judging import judge_texts
from judging.selectors import judge_board, judge_boards, parse_tables, tablet_competitions
from puzzle_rules import rules


def _texts() -> dict:
    """Every sentence the page's script shows, in the current language: the JavaScript
    catalogue's (static/js/judge/texts.mjs, locale/*/LC_MESSAGES/djangojs.po)."""
    return judge_texts.texts()


def _judge_name(user) -> str:
    """How another judge on the same tablet sees this one's waiting taps: "Mette (mette)"."""
    full = user.get_full_name().strip()
    username = user.get_username()
    return f"{full} ({username})" if full and full != username else username


def _board_context(request, competition: Competition) -> dict:
    tables = parse_tables(request.GET.getlist("t"))
    return {
        "competition": competition,
        "cards": judge_board(competition, tables=tables),
        "chosen_tables": tables,
        "clock": competition.clock(),
    }


def _competition_urls(slug: str) -> dict:
    """Where a tablet sends a competition's taps (static/js/judge/)."""
    # The tablet appends a request id and "/cancel" to `requests` (static/js/judge/undo.mjs).
    any_id = UUID(int=0)
    requests = reverse("api:request-cancel", args=[slug, any_id])
    return {
        "finishes": reverse("api:finishes", args=[slug]),
        "counts": reverse("api:counts", args=[slug]),
        "teams": reverse("api:teams", args=[slug]),
        "requests": requests.removesuffix(f"{any_id}/cancel"),
        "heartbeat": reverse("api:tablet-heartbeat", args=[slug]),
    }


def _page_config(request, slug: str) -> dict:
    """What every tablet page's script reads (static/js/judge/page.mjs readConfig)."""
    return {
        "slug": slug,
        "user": request.user.get_username(),
        "user_name": _judge_name(request.user),
        "language": request.LANGUAGE_CODE,
        "urls": {
            "time": reverse("api-time"),
            "login": reverse("login"),
            "logout": reverse("logout"),
            "worker": reverse("judge:worker"),
        },
        "version": settings.APP_VERSION,
        # when the server made the page: a copy the tablet opens offline says from when
        "rendered_ms": int(time.time() * 1000),
        "texts": _texts(),
    }


def _puzzles(competition: Competition) -> list[dict]:
    return [
        {"position": p.position, "pieces": p.pieces, "title": p.title}
        for p in sorted(competition.puzzles.all(), key=lambda p: p.position)
    ]


def tablet_label(competition: Competition) -> str:
    """How a championship's tablet names a competition: its round and its discipline
    ("Indledende runde A · Individuel"), the discipline once when the round is named so."""
    name = competition.round or competition.name
    discipline = str(competition.get_discipline_display())
    return name if name.casefold() == discipline.casefold() else f"{name} · {discipline}"


def _championship_context(request, championship: Championship) -> dict:
    """The championship's tablet: the competitions on now and their entrants' cards at the
    chosen tables."""
    tables = parse_tables(request.GET.getlist("t"))
    competitions = tablet_competitions(championship)
    clocks = {c.pk: c.clock() for c in competitions}
    cards = judge_boards(competitions, tables=tables)
    return {
        "championship": championship,
        "competitions": [
            {"competition": c, "clock": clocks[c.pk], "label": tablet_label(c)}
            for c in competitions
        ],
        "cards": [
            {
                "card": card,
                "competition": card.competition,
                "clock": clocks[card.competition.pk],
                "label": tablet_label(card.competition),
            }
            for card in cards
        ],
        "clocks": json.dumps(
            {c.slug: clocks[c.pk].page() for c in competitions}, separators=(",", ":")
        ),
        "chosen_tables": tables,
    }


def _ranking(competition: Competition) -> dict:
    """What a missing piece costs on the finish sheet: deducted pieces (`dm`, R8) or
    seconds added to the time (`wjpc`: `penalty` per lone missing piece)."""
    return {"ranking": competition.ranking, "penalty": rules.PENALTY_SECONDS_PER_PIECE}


@never_cache
def championship_board(request, championship: Championship):
    """A championship's tablet (docs/offline.md "A championship's tablet"), at the address of
    a competition's: `staff_view(..., championship=...)` sends a championship's slug here."""
    context = _championship_context(request, championship)
    shown = [item["competition"] for item in context["competitions"]]
    config = _page_config(request, championship.slug)
    config["championship"] = championship.slug
    config["urls"]["board"] = reverse("judge:championship_board", args=[championship.slug])
    # Every competition of the championship: one that comes on later (within the hour before
    # its start) is known to the page, and a tap still waiting for one that went off the page
    # (final) is sent all the same (and answered).
    config["competitions"] = [
        {
            "slug": c.slug,
            "name": tablet_label(c),
            "round": c.round,
            "discipline": c.discipline,
            **_ranking(c),
            "clock": c.clock().page(),
            "puzzles": _puzzles(c),
            "urls": _competition_urls(c.slug),
        }
        for c in Competition.objects.filter(championship=championship)
        .prefetch_related("puzzles")
        .order_by("starts_at", "name")
    ]
    all_tables = sorted(
        set(
            Team.objects.filter(competition__in=shown, withdrawn=False).values_list(
                "table", flat=True
            )
        )
    )
    context.update(all_tables=all_tables, config=config)
    return render(request, "judging/judge_board.html", context)


@never_cache
@vary_on_headers("HX-Request")
def championship_fragment(request, championship: Championship):
    """A championship tablet's cards, as htmx swaps them in (see `board_fragment`)."""
    if not request.htmx:  # a plain visit (a bookmark, no JavaScript): the whole page
        url = reverse("judge:championship", args=[championship.slug])
        query = request.GET.urlencode()
        return redirect(f"{url}?{query}" if query else url)
    context = _championship_context(request, championship)
    return render(request, "judging/_judge_cards_championship.html", context)


@staff_view(JUDGE, competition=True, championship=championship_board)
@never_cache
def board(request, competition):
    """The judge's page: clock, chosen tables, a card per team, the outbox's pill; of a
    championship's slug, the championship's tablet (`championship_board`)."""
    context = _board_context(request, competition)
    all_tables = list(competition.teams.filter(withdrawn=False).values_list("table", flat=True))
    puzzles = list(competition.puzzles.order_by("position").values("position", "pieces", "title"))
    config = _page_config(request, competition.slug)
    config.update(
        clock=context["clock"].page(),
        puzzles=puzzles,
        discipline=competition.discipline,
        **_ranking(competition),
    )
    config["urls"].update(
        _competition_urls(competition.slug),
        board=reverse("judge:board_fragment", args=[competition.slug]),
    )
    context.update(all_tables=all_tables, config=config)
    return render(request, "judging/judge_board.html", context)


@staff_view(JUDGE, competition=True, championship=championship_fragment)
@never_cache
@vary_on_headers("HX-Request")
def board_fragment(request, competition):
    """The cards of the chosen tables: what htmx swaps in on load, every few seconds, and
    whenever the outbox changes."""
    if not request.htmx:  # a plain visit (a bookmark, no JavaScript): the whole page
        url = reverse("judge:board", args=[competition.slug])
        query = request.GET.urlencode()
        return redirect(f"{url}?{query}" if query else url)
    return render(request, "judging/_judge_cards.html", _board_context(request, competition))


_WORKER = Path(settings.BASE_DIR) / "static" / "js" / "sw.js"


def worker(request):
    """The service worker, served under /judge/ so that its scope covers the judge's pages."""
    response = HttpResponse(_WORKER.read_bytes(), content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    return response


@staff_view(JUDGE, competition=True)
def paper_sheets(request, competition):
    """The paper fallback when a tablet dies: one A4 judge sheet per table (`?t=1-8`)."""
    tables = parse_tables(request.GET.getlist("t"))
    teams = Team.objects.filter(competition=competition, withdrawn=False).order_by("table")
    if tables:
        teams = teams.filter(table__in=tables)
    return render(
        request,
        "judging/paper_sheets.html",
        {
            "competition": competition,
            "teams": list(teams),
            "puzzles": list(competition.puzzles.order_by("position")),
            "tables": tables,
            "printed_at": timezone.now(),
        },
    )
