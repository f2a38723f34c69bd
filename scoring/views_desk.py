"""The desk's scoring page: the official results for print (A4, R20). The desk and the head
judge print them at the prize-giving."""

from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from competition.models import Team
from competition.roles import DESK, staff_view
from scoring.api import label_of
from scoring.selectors import competition_standings, label_body


@staff_view(DESK, related=("finalised_by",))
def official_results(request, competition):
    """The official results for print (A4): ranks, pieces, each puzzle's time and deduction,
    counts, disqualifications with their reasons, and when the results became final; with
    `?label=`, one label's own ranking (its own ranks, the same rules) under its heading."""
    body = competition_standings(competition, staff=True)
    url = reverse("desk:official", args=[competition.slug])
    label = label_of(request)
    chips = [
        {"label": name, "url": f"{url}?{urlencode({'label': name})}", "current": name == label}
        for name in body.get("labels", [])
    ]
    if label is not None:
        body = label_body(competition, body, label)
    reasons = dict(
        Team.objects.filter(competition=competition, disqualified=True).values_list(
            "id", "disqualified_reason"
        )
    )
    puzzles = body["puzzles"]
    language = "en" if (get_language() or "da").startswith("en") else "da"
    wjpc = body.get("ranking") == "wjpc"  # the World rules: a time penalty, not a deduction
    rows = []
    for row in body["standings"]:
        by_position = {f["puzzle"]: f for f in row["finishes"]}
        per_piece = row["penalty_seconds"] // row["lone_missing"] if row["lone_missing"] else 0
        cells = []
        for p in puzzles:
            finish = by_position.get(p["position"])
            counted = (
                row["counted"] if finish is None and p["position"] == row["finished"] + 1 else None
            )
            penalty = finish["deducted"] * per_piece if finish else 0
            cells.append({"puzzle": p, "finish": finish, "counted": counted, "penalty": penalty})
        if row["disqualified"]:
            note = _("Disqualified: %(reason)s") % {"reason": reasons.get(row["team"]["id"], "")}
        else:
            note = (row.get("tie_break") or {}).get(language, "")
        finished_all = row["ranking_seconds"] is not None  # wjpc: timed, with its penalty
        rows.append({**row, "cells": cells, "note": note, "finished_all": finished_all})
    return render(
        request,
        "scoring/official_results.html",
        {
            "competition": competition,
            "body": body,
            "label": label,
            "chips": chips,
            "url": url,
            "rows": rows,
            "printed_at": timezone.now(),
            "wjpc": wjpc,
            "note_colspan": len(puzzles) + (4 if wjpc else 2),
            "landscape": len(puzzles) > 5,
        },
    )
