"""The desk's scoring page: the official results for print (A4, R20). The desk and the head
judge print them at the prize-giving."""

from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from competition.models import Competition, Team
from competition.roles import DESK, role_required
from scoring.selectors import competition_standings


@role_required(DESK)
def official_results(request, slug):
    """The official results for print (A4): ranks, pieces, each puzzle's time and deduction,
    counts, disqualifications with their reasons, and when the results became final."""
    competition = get_object_or_404(Competition.objects.select_related("finalised_by"), slug=slug)
    body = competition_standings(competition, staff=True)
    reasons = dict(
        Team.objects.filter(competition=competition, disqualified=True).values_list(
            "id", "disqualified_reason"
        )
    )
    puzzles = body["puzzles"]
    language = "en" if (get_language() or "da").startswith("en") else "da"
    rows = []
    for row in body["standings"]:
        by_position = {f["puzzle"]: f for f in row["finishes"]}
        cells = []
        for p in puzzles:
            finish = by_position.get(p["position"])
            counted = (
                row["counted"] if finish is None and p["position"] == row["finished"] + 1 else None
            )
            cells.append({"puzzle": p, "finish": finish, "counted": counted})
        if row["disqualified"]:
            note = _("Disqualified: %(reason)s") % {"reason": reasons.get(row["team"]["id"], "")}
        else:
            note = (row.get("tie_break") or {}).get(language, "")
        rows.append({**row, "cells": cells, "note": note})
    return render(
        request,
        "scoring/official_results.html",
        {
            "competition": competition,
            "body": body,
            "rows": rows,
            "printed_at": timezone.now(),
            "note_colspan": len(puzzles) + 2,
            "landscape": len(puzzles) > 5,
        },
    )
