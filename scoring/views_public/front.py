"""The fixed public pages: the front page (the championships, then the competitions) and the
rules (`/rules/`, Danish or English)."""

from datetime import date

from django.shortcuts import render
from django.utils import timezone

from competition.models import Competition, Status
from competition.roles import ADMIN, has_role
from competition.selectors import championships_empty
from scoring.rules_text import UPDATED, rules_in
from scoring.views_public.live import _language


def home(request):
    """The championships of several competitions (each links to its programme), then the
    competitions, newest first. One query (two for the head judge: the championships that
    hold no competition yet)."""
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
    # Made and not yet filled: only the head judge, who adds their competitions, sees them.
    empty = championships_empty() if has_role(request.user, ADMIN) else []
    return render(
        request,
        "scoring/home.html",
        {"competitions": items, "championships": championships, "empty": empty},
    )


def rules(request):
    """R1-R20, P1, P2: the organiser's Danish text, or the English rendering; then each
    ranking profile's rules (`#dm`, `#wjpc`). `?ranking=wjpc` (a leaderboard's link) puts
    that profile first, marked as the one the competition ranks by."""
    text = rules_in(_language())
    chosen = request.GET.get("ranking")
    if chosen in {r["id"] for r in text["rankings"]}:
        text["rankings"].sort(key=lambda r: r["id"] != chosen)
    else:
        chosen = None
    return render(
        request,
        "scoring/rules.html",
        {**text, "chosen": chosen, "updated": date(*UPDATED)},
    )
