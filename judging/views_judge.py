"""The judge's pages (R5, R8, R9, R10, R14): the tablet's board, its htmx fragment, the
worker, and the paper judge sheets for when a tablet dies."""

from pathlib import Path
from uuid import UUID

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.vary import vary_on_headers

from competition.models import Competition, Team
from competition.roles import JUDGE, staff_view
from judging import judge_texts
from judging.selectors import judge_board, parse_tables


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


@staff_view(JUDGE, competition=True)
@never_cache
def board(request, competition):
    """The judge's page: clock, chosen tables, a card per team, the outbox's pill."""
    context = _board_context(request, competition)
    all_tables = list(competition.teams.filter(withdrawn=False).values_list("table", flat=True))
    puzzles = list(competition.puzzles.order_by("position").values("position", "pieces", "title"))
    slug = competition.slug
    # The tablet appends a request id and "/cancel" to `requests` (static/js/judge/undo.mjs).
    any_id = UUID(int=0)
    requests = reverse("api:request-cancel", args=[slug, any_id])
    context.update(
        all_tables=all_tables,
        config={
            "slug": competition.slug,
            "user": request.user.get_username(),
            "user_name": _judge_name(request.user),
            "language": request.LANGUAGE_CODE,
            "clock": context["clock"].page(),
            "puzzles": puzzles,
            "urls": {
                "time": reverse("api-time"),
                "finishes": reverse("api:finishes", args=[slug]),
                "counts": reverse("api:counts", args=[slug]),
                "teams": reverse("api:teams", args=[slug]),
                "requests": requests.removesuffix(f"{any_id}/cancel"),
                "board": reverse("judge:board_fragment", args=[competition.slug]),
                "login": reverse("login"),
                "logout": reverse("logout"),
                "worker": reverse("judge:worker"),
                "heartbeat": reverse("api:tablet-heartbeat", args=[slug]),
            },
            "version": settings.APP_VERSION,
            "texts": _texts(),
        },
    )
    return render(request, "judging/judge_board.html", context)


@staff_view(JUDGE, competition=True)
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
