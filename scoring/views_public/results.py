"""`/<slug>/results.csv`: the results for a Danish Excel, or a label's own ranking."""

import io

from django.http import HttpResponse
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import gettext as _

from competition.cells import csv_writer
from competition.words import entrant_text
from puzzle_rules.formatting import format_hms
from scoring import selectors
from scoring.api import (
    label_of,
    sees_unconfirmed_counts,
)
from scoring.selectors import standings_for
from scoring.views_public.live import _state


def ranked_time(row: dict) -> str:
    """Under the World rules, a finisher's time with its penalty, as h:mm:ss ("" for an
    entrant that has not finished every puzzle: it ranks by its pieces)."""
    seconds = row["ranking_seconds"]
    return "" if seconds is None else format_hms(seconds)


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
    wjpc = body.get("ranking") == "wjpc"  # the World rules: the time plus its penalty ranks
    if wjpc:
        header += [_("Time penalty (seconds)"), _("Time with penalty")]
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
        if wjpc:
            line += [r["penalty_seconds"], ranked_time(r)]
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
