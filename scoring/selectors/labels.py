"""A label's own ranking (ung, senior, gæst): a standings body with only the entrants that carry
the label, ranked among themselves by the same rules."""

from __future__ import annotations

from competition.models import Competition, Discipline
from puzzle_rules import championship, rules
from scoring.selectors.tie_break import _tie_break

__all__ = ["label_body"]


def label_body(state: Competition, body: dict, label: str) -> dict:
    """`body` (a standings body) with only the entrants that carry `label`, ranked among
    themselves by the same rules (`championship.label_ranking`: 1, 2, 2, 4; disqualified
    last); `label` says which. No query: each row holds its entrant's labels. While the
    final order is held for the reveal (`held`) a label's ranking would tell it: no rows
    then."""
    label = label.strip().lower()
    if body.get("held"):
        return {**body, "label": label, "standings": []}
    carrying = {r["team"]["id"] for r in body["standings"] if label in r.get("labels", ())}
    rows = {r["team"]["id"]: r for r in body["standings"]}
    ranked = championship.label_ranking(
        [
            rules.Standing(
                rank=r["rank"],
                team=pk,
                pieces=r["pieces"],
                finished=r["finished"],
                last_finish_seconds=r["last_finish_seconds"],
                disqualified=r["disqualified"],
                penalty_seconds=r.get("penalty_seconds", 0),
                ranking_seconds=r.get("ranking_seconds"),
            )
            for pk, r in rows.items()
        ],
        carrying,
    )
    # The tie-break sentences of the whole ranking name the entrant above there: each is
    # told again from the entrant above in this one.
    standings = []
    previous: rules.Standing | None = None
    alone = state.discipline == Discipline.INDIVIDUAL
    for s in ranked:
        row = rows[s.team]
        told = (None, None)
        if previous is not None and s.rank is not None:
            ahead = rows[previous.team]["team"]["name"]
            told = _tie_break(previous, s, ahead, alone, body.get("ranking", "dm"))
        standings.append({**row, "rank": s.rank, "tie_break": told[0], "tie_break_short": told[1]})
        previous = s
    return {**body, "label": label, "standings": standings}
