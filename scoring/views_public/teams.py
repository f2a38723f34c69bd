"""A team's public page: its timeline (split times, pieces per minute, deductions, the count, a
projection labelled as a guess), or a note while its place waits for the reveal; its address
to pass to a phone."""

from django.http import Http404
from django.shortcuts import render
from django.utils import timezone

from competition.models import Status
from competition.qr import absolute_url, qr_svg
from scoring.api import (
    sees_unconfirmed_counts,
)
from scoring.charts import race_chart
from scoring.follow import projection
from scoring.selectors import standings_for
from scoring.views_public.live import _state


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
    wjpc = body.get("ranking") == "wjpc"
    # The World rules: each finish's share of the time penalty (its lone missing pieces).
    per_piece = row["penalty_seconds"] // row["lone_missing"] if row["lone_missing"] else 0
    timeline = []
    for p in body["puzzles"]:
        f = finishes.get(p["position"])
        entry = {"puzzle": p, "finish": f, "counted": None, "current": False}
        entry["penalty"] = f["deducted"] * per_piece if f else 0
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
        "wjpc": wjpc,
        # the World rules time a finisher (its penalty); one that did not finish ranks by pieces
        "finished_all": row["ranking_seconds"] is not None,
        "time_penalty": wjpc and row["ranking_seconds"] is not None,
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
