"""The judge's pages (R5, R8, R9, R10, R14): the tablet's board, its htmx fragment, the
worker, and the paper judge sheets for when a tablet dies."""

from pathlib import Path
from uuid import UUID

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.vary import vary_on_headers

from competition.models import Competition, Team
from competition.roles import JUDGE, staff_view
from judging.selectors import judge_board, parse_tables


def _ms(moment) -> int | None:
    return int(moment.timestamp() * 1000) if moment else None


def _clock(competition: Competition) -> dict:
    """The clock as the page's script needs it: epoch milliseconds, no time zone games."""
    return {
        "status": competition.status,
        "started_at_ms": _ms(competition.started_at),
        "end_ms": _ms(competition.clock_end),
        "duration_s": competition.duration_minutes * 60,
    }


def _texts() -> dict:
    """Every sentence the page's script shows, in the current language."""
    return {
        "all_sent": _("All sent ✓"),
        "pending": _("Not yet sent: %(n)s"),
        "paused": _("Sign in again: %(n)s waiting"),
        "attention": _("%(n)s need attention"),
        "sending": _("Sending …"),
        "deduct_none": _("Nothing is deducted"),
        "deduct_one": _("1 piece deducted"),
        "deduct_many": _("%(n)s pieces deducted"),
        "fault": _("Production fault, not deducted: %(n)s pieces"),
        "spot_one": _("Lone missing piece"),
        "spot_many": _("Spot of %(n)s adjacent missing pieces"),
        "remove": _("Remove"),
        "puzzle_n_of": _("Puzzle %(n)s of %(total)s (%(pieces)s pieces)"),
        "finish_button": _("Finished puzzle %(n)s"),
        "all_finished": _("All %(total)s puzzles finished ✓"),
        "since_last": _("since its last finish"),
        "since_start": _("since the start"),
        "bad_time": _("Write the time as h:mm:ss, for example 2:59:40."),
        "spot_size": _("A spot of adjacent missing pieces has at least 2 pieces."),
        "too_many_missing": _("More pieces missing than the puzzle has."),
        "count_result": _("= %(n)s pieces count"),
        "undo_label": _("Undo puzzle %(n)s (%(time)s)"),
        "saved_note": _("Saved ✓ Table %(table)s · puzzle %(n)s · %(time)s · %(deducted)s"),
        # A tap the server has not answered is not "saved"
        "noted_note": _(
            "Noted on the tablet – sent when there is a connection · Table %(table)s · puzzle "
            "%(n)s · %(time)s · %(deducted)s"
        ),
        "refused_already": _(
            "Not saved: %(user)s already registered puzzle %(n)s at table %(table)s at %(time)s."
        ),
        "refused": _("Not saved: %(detail)s"),
        "refused_undo": _("Not undone: %(detail)s"),
        "refused_confirm": _("Not confirmed: %(detail)s"),
        "fix_time": _("Correct the time"),
        "count_is_finish": _(
            "All %(pieces)s pieces placed is not a count: the puzzle is finished. Register it "
            "as finished with its time (rule 9)."
        ),
        "confirm_button": _("Second count of puzzle %(n)s"),
        "recount_button": _("Correct the count of puzzle %(n)s"),
        "recount_reason": _("Corrected on the tablet by the judge who counted."),
        "confirmed": _("Table %(table)s: the two counts agree; the count is confirmed ✓"),
        "recounted": _("Table %(table)s: the count is corrected to %(n)s pieces."),
        "what_confirm": _("the second count of %(n)s pieces"),
        "kind_confirm": _("Second count: %(n)s pieces"),
        "kind_recount": _("Corrected count: %(n)s pieces"),
        "count_one": _(
            "1 piece cannot be counted: only groups of at least 3 joined pieces count (rule 9)."
        ),
        "count_two": _(
            "%(n)s pieces cannot be counted: only groups of at least 3 joined pieces count "
            "(rule 9)."
        ),
        "count_too_many": _("The puzzle has only %(pieces)s pieces."),
        "count_negative": _("More unplaced and loose pieces than the puzzle has."),
        "count_missing": _("Fill in the number of pieces."),
        "reason_missing": _("Write the reason for the warning."),
        "undo_confirm": _("Undo the finish of puzzle %(n)s for table %(table)s?"),
        "undo_pending_confirm": _(
            "Undo the finish of puzzle %(n)s for table %(table)s? It has not been sent yet."
        ),
        "undo_sending": _("It is being sent right now; try again in a moment."),
        "undone": _("Undone: %(what)s at table %(table)s."),
        "what_puzzle": _("puzzle %(n)s"),
        "what_count": _("the count of %(n)s pieces"),
        "what_warning": _("the warning (%(reason)s)"),
        "undo_tried_confirm": _(
            "Undo the finish of puzzle %(n)s for table %(table)s? It may already have reached "
            "the server; the undo is sent there too."
        ),
        "undo_waiting": _(
            "The undo of %(what)s at table %(table)s waits to be sent; it says Undone when the "
            "server has answered."
        ),
        "undo_pending_line": _("Undo of %(what)s waiting to be sent"),
        "kind_undo": _("Undo: %(what)s"),
        "unsaved_one": _(
            "1 registration is kept only in this page: the tablet cannot store it. A reload "
            "would lose it; keep this page open until it is sent."
        ),
        "unsaved": _(
            "%(n)s registrations are kept only in this page: the tablet cannot store them. A "
            "reload would lose them; keep this page open until they are sent."
        ),
        "others_waiting_one": _(
            "1 registration from %(name)s waits: log in as %(name)s to send it."
        ),
        "others_waiting": _(
            "%(n)s registrations from %(name)s wait: log in as %(name)s to send them."
        ),
        "login_as": _("Log in as %(name)s"),
        "other_tab": _(
            "The judge's page is open in another tab on this tablet. Use that tab (or close "
            "it): only one tab can send registrations here."
        ),
        "warning_saved": _("Warning saved for table %(table)s."),
        "logout_pending_one": _("1 registration has not been sent yet. Log out anyway?"),
        "logout_pending": _("%(n)s registrations have not been sent yet. Log out anyway?"),
        "table": _("Table %(table)s"),
        "implausible_title": _("Is the time right?"),
        "counted_pending": _("Count waiting to be sent: %(n)s pieces"),
        "time_remaining": _("time remaining"),
        "clock_not_synced": _("the tablet's clock is not yet set by the server"),
        "clock_synced": _("in step with the server ±%(ms)s ms"),
        "clock_setup": _("The clock has not started"),
        "clock_running": _("The clock is running"),
        "clock_stopped": _("Time is up"),
        "clock_final": _("Final results"),
        "state_pending": _("waiting"),
        "state_sending": _("sending"),
        "state_paused": _("sign in again"),
        "state_attention": _("needs attention"),
        "state_confirm": _("asks for confirmation"),
        "kind_finish": _("Puzzle %(n)s finished at %(time)s"),
        "kind_count": _("Count: %(n)s pieces"),
        "kind_warning": _("Warning: %(reason)s"),
        "all_tables": _("all"),
        "elapsed": _("%(time)s gone"),
        "count_button": _("Count puzzle %(n)s"),
        "add_spot": _("+ spot of %(n)s adjacent missing pieces"),
        "undo_title": _("Undo"),
        "yes_undo": _("Yes, undo"),
        "no": _("No"),
        "save_anyway": _("Yes, save anyway"),
        "delete_it": _("Delete it"),
        "warn_title": _("Warning"),
        "discard_confirm": _("Delete this registration from the tablet? It will not be sent."),
        "discard_tried_confirm": _(
            "Undo this registration? It may already have reached the server; the undo is sent "
            "there too."
        ),
    }


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
        "clock": _clock(competition),
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
            "clock": context["clock"],
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
