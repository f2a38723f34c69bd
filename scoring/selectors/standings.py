"""A competition's standings body from the database (R7, R8, R9, R11): ranked by the pure rules,
cached per (competition, standings version, clock status), the last good one kept when the
data breaks a rule, held back for the reveal; and the body cut to the HTTP API's contract."""

from __future__ import annotations

import logging

from django.core.cache import cache
from django.db.models import Exists, OuterRef
from django.utils import timezone

from competition.models import Competition, Discipline, Puzzle, Team
from judging.models import Finish, Objection
from puzzle_rules import rules
from scoring.selectors.memo import version_of
from scoring.selectors.state import competition_state
from scoring.selectors.tie_break import _tie_break

__all__ = [
    "CACHE_SECONDS",
    "api_body",
    "competition_standings",
    "reveal_places",
    "standings_for",
    "standings_key",
]

log = logging.getLogger("scoring.selectors")  # the name it always logged under

CACHE_SECONDS = 6 * 3600


def standings_key(state: Competition, status: str) -> str:
    # The ranking too: a ranking changed without a write (a mirror, a restore) is no stale order.
    return f"standings:{state.pk}:{version_of(state)}:{status}"


def _good_key(state: Competition) -> str:
    return f"standings:{state.pk}:good{'' if state.ranking == 'dm' else state.ranking}"


def competition_standings(competition: Competition, *, staff: bool = False) -> dict:
    """The standings body (docs/contracts.md "The HTTP API") of `competition`, plus what the pages
    need.

    Extra keys: `name`, `version`, `duration_seconds`, `error` (staff only: `{code,
    message}` when the data breaks a rule, else None), `stale` (the last good standings
    are shown because the current data breaks a rule); per row `current` (the puzzle the
    team is on), `progress` (one entry per puzzle), `tie_break` (`{"da", "en"}` sentences
    when the team has the same pieces as the team above it) and `tie_break_short` (the same in a
    few words, for a phone), per finish `missing`, `split`,
    `ppm`. Staff read the version from the database; public readers may reuse the one
    read within the last second.
    """
    state = competition_state(competition.slug, fresh=staff)
    if state is None:
        raise Competition.DoesNotExist(competition.slug)
    return standings_for(state, staff=staff)


def standings_for(
    state: Competition,
    *,
    staff: bool = False,
    status: str | None = None,
    blind: bool | None = None,
) -> dict:
    """The standings for an already-read state (see `competition_state`); `status` is the
    clock's status the caller already worked out (default: now).

    `blind` (default: not `staff`): with `second_count` on, a count not yet confirmed is
    left out (docs/contracts.md: `counted: null`, `pieces` without it, `counting: true`), so that
    no public page shows its number and the second judge counts blind even from the café.
    Staff who may see it (`blind=False`) get it with `confirmed: false`."""
    status = status or state.status_at(timezone.now())
    blind = not staff if blind is None else blind
    which = "public" if blind else "body"
    key = standings_key(state, status)
    entry = cache.get(key)
    if entry is None or "public" not in entry:  # (an entry cached before the blind count)
        entry = _compute_entry(state, status)
        cache.set(key, entry, CACHE_SECONDS)
    if entry["error"] is None:
        body = entry[which]
        stale = False
    else:
        good = cache.get(_good_key(state))
        body = good[which] if good and "public" in good else _empty_body(state, status)
        stale = True
    result = dict(body)
    result["stale"] = stale
    result["error"] = entry["error"] if staff else None
    result["held"] = 0
    if not staff:
        _hold(state, status, result)
    return result


def reveal_places(competition: Competition) -> list[int]:
    """The places the prize-giving reveal steps through: the ranks that exist in the staff
    standings (shared ranks 1, 1, 3 are the places 1 and 3)."""
    body = standings_for(competition, staff=True)
    return sorted({r["rank"] for r in body["standings"] if r["rank"] is not None})


def _hold(state: Competition, status: str, result: dict) -> None:
    """With `hold_results`, a public reader sees no place the reveal has not
    shown yet (`held` says how many rows wait); staff see everything at once."""
    above = state.held_above(status)
    if above == 0:
        return
    rows = result["standings"]
    shown = [r for r in rows if r["rank"] is None or (above is not None and r["rank"] >= above)]
    if above is not None and shown and shown[0]["rank"] is not None:
        # Its tie-break sentence names the team above it, which is not revealed yet.
        shown[0] = {**shown[0], "tie_break": None, "tie_break_short": None}
    result["held"] = len(rows) - len(shown)
    result["standings"] = shown


def _compute_entry(state: Competition, status: str) -> dict:
    try:
        body, public = _compute(state, status)
    except rules.RuleViolation as exc:
        log.error("Standings of %s v%s break a rule: %s", state.slug, state.standings_version, exc)
        return {"body": None, "public": None, "error": {"code": exc.code, "message": exc.message}}
    good = {"body": body, "public": public}
    cache.set(_good_key(state), good, None)
    return {**good, "error": None}


def _empty_body(state: Competition, status: str) -> dict:
    return {
        **_head(state, status),
        "puzzles": [],
        "standings": [],
        "total_pieces": 0,
        "labels": [],
    }


def _head(state: Competition, status: str) -> dict:
    return {
        "competition": state.slug,
        "status": str(status),
        "final": status == "final",
        "name": state.name,
        "version": state.standings_version,
        "ranking": state.ranking,  # the profile the rows are ranked by (dm, wjpc)
        "duration_seconds": state.duration_minutes * 60,
        # When the clock ended, in seconds since its start: earlier when stopped early.
        "end_seconds": (
            int((state.clock_end - state.started_at).total_seconds())
            if state.started_at
            else state.duration_minutes * 60
        ),
    }


def _compute(state: Competition, status: str) -> tuple[dict, dict]:
    """(the staff body, the public body): three queries whatever the number of teams:
    puzzles, teams, finishes. The public body is the same object unless a count waits for
    its second, blind count (`second_count`): then it is ranked without that count."""
    puzzles = list(
        Puzzle.objects.filter(competition_id=state.pk)
        .order_by("position")
        .values("position", "title", "pieces")
    )
    # docs/day.md: the organiser keeps the motifs secret until the start
    if not state.motifs_public():
        for puzzle in puzzles:
            puzzle["title"] = ""
    open_objection = Objection.objects.filter(team=OuterRef("pk"), decision="open")
    teams = list(
        Team.objects.filter(competition_id=state.pk, withdrawn=False)
        .annotate(under_review=Exists(open_objection))
        .values(
            "id",
            "name",
            "table",
            "disqualified",
            "count__pieces",
            "count__confirmed_at",
            "under_review",
            "labels",
        )
    )
    for t in teams:
        # docs/contracts.md "The second count": a count waiting for its second, blind count.
        t["counting"] = bool(
            state.second_count and t["count__pieces"] is not None and not t["count__confirmed_at"]
        )
        t["confirmed"] = (
            None if t["count__pieces"] is None or not state.second_count else not t["counting"]
        )
    finishes: dict[int, list[dict]] = {t["id"]: [] for t in teams}
    for f in (
        Finish.objects.filter(team__competition_id=state.pk, team__withdrawn=False)
        .order_by("team_id", "puzzle__position")
        .values("team_id", "puzzle__position", "elapsed_seconds", "missing")
    ):
        if f["team_id"] in finishes:  # a team added since the teams were read waits
            finishes[f["team_id"]].append(f)

    labels = sorted(
        {label for t in teams if isinstance(t["labels"], list) for label in t["labels"]}
    )
    sheet_finishes_of: dict[int, tuple] = {}
    for t in teams:
        try:
            sheet_finishes = tuple(
                rules.Finish(
                    position=f["puzzle__position"],
                    elapsed_seconds=int(f["elapsed_seconds"]),
                    missing=tuple(int(size) for size in (f["missing"] or ())),
                )
                for f in finishes[t["id"]]
            )
        except (TypeError, ValueError) as exc:
            raise rules.RuleViolation(
                "bad_missing", f"Team {t['id']}: the missing pieces are not a list of sizes."
            ) from exc
        sheet_finishes_of[t["id"]] = sheet_finishes

    alone = state.discipline == Discipline.INDIVIDUAL  # the sentences' "sit" or "deres"

    def body(public: bool) -> dict:
        sheets = [
            rules.Sheet(
                team=t["id"],
                finishes=sheet_finishes_of[t["id"]],
                counted=None if public and t["counting"] else t["count__pieces"],
                disqualified=t["disqualified"],
            )
            for t in teams
        ]
        ranked = rules.standings(
            [rules.Puzzle(p["position"], p["pieces"]) for p in puzzles],
            sheets,
            profile=state.ranking,
        )
        by_id = {t["id"]: t for t in teams}
        pieces_at = {p["position"]: p["pieces"] for p in puzzles}
        rows = []
        previous: rules.Standing | None = None
        for s in ranked:
            team = by_id[s.team]
            row = _row(
                s,
                team,
                finishes[s.team],
                puzzles,
                pieces_at,
                status,
                previous,
                by_id,
                alone,
                state.ranking,
            )
            if public and team["counting"]:
                row["counted"] = None
                row["progress"] = [
                    {**p, "state": "counting", "percent": 0} if p["state"] == "counted" else p
                    for p in row["progress"]
                ]
            rows.append(row)
            previous = s
        return {
            **_head(state, status),
            "puzzles": puzzles,
            "standings": rows,
            "total_pieces": sum(pieces_at.values()),
            # The labels the listed entrants carry: each has its own ranking (`label_body`).
            "labels": labels,
        }

    staff = body(public=False)
    if not any(t["counting"] for t in teams):
        return staff, staff
    return staff, body(public=True)


def _row(s, team, finishes, puzzles, pieces_at, status, previous, by_id, alone, profile) -> dict:
    out_finishes = []
    before = 0
    for f in finishes:
        missing = list(f["missing"] or [])
        split = f["elapsed_seconds"] - before
        before = f["elapsed_seconds"]
        pieces = pieces_at[f["puzzle__position"]]
        out_finishes.append(
            {
                "puzzle": f["puzzle__position"],
                "elapsed_seconds": f["elapsed_seconds"],
                "deducted": rules.deducted(missing),
                "missing": missing,
                "split": split,
                "ppm": round(pieces * 60 / split, 1) if split > 0 else None,
            }
        )
    counted = team["count__pieces"]
    current = None
    if s.finished < len(puzzles) and not s.disqualified and status != "final":
        current = dict(puzzles[s.finished])
    progress = []
    for p in puzzles:
        if p["position"] <= s.finished:
            progress.append({"position": p["position"], "state": "done", "percent": 100})
        elif p["position"] == s.finished + 1 and counted is not None:
            percent = round(100 * counted / p["pieces"]) if p["pieces"] else 0
            progress.append({"position": p["position"], "state": "counted", "percent": percent})
        elif p["position"] == s.finished + 1 and status in ("running", "setup"):
            progress.append({"position": p["position"], "state": "current", "percent": 0})
        else:
            progress.append({"position": p["position"], "state": "todo", "percent": 0})
    tie_break = tie_break_short = None
    if previous is not None:
        ahead = by_id[previous.team]["name"]
        tie_break, tie_break_short = _tie_break(previous, s, ahead, alone, profile)
    return {
        "rank": s.rank,
        "team": {"id": team["id"], "name": team["name"], "table": team["table"]},
        "pieces": s.pieces,
        "finished": s.finished,
        "last_finish_seconds": s.last_finish_seconds,
        # wjpc: the seconds added for the lone missing pieces (0 under dm), and how many
        "penalty_seconds": s.penalty_seconds,
        "ranking_seconds": s.ranking_seconds,  # wjpc: a finisher's time plus it; else None
        "lone_missing": sum(f["deducted"] for f in out_finishes),
        "finishes": out_finishes,
        "counted": counted,
        "disqualified": s.disqualified,
        "under_review": bool(team["under_review"]),
        # docs/contracts.md "The second count": the count waits for its second, blind count
        # ("tælles").
        "counting": team["counting"],
        "confirmed": team["confirmed"],
        "current": current,
        "progress": progress,
        "tie_break": tie_break,
        "tie_break_short": tie_break_short,
        # The organiser's labels (ung, senior, gæst): each has its own ranking (`label_body`).
        "labels": list(team["labels"]) if isinstance(team["labels"], list) else [],
    }


def api_body(body: dict, *, confirmed: bool = False) -> dict:
    """Exactly the standings body of docs/contracts.md (no page extras); with `confirmed` (staff who
    may see an unconfirmed count) each row says whether its count is confirmed. Under the
    World rules (`wjpc`) the body says `ranking` and each row its `penalty_seconds` and
    `ranking_seconds` (a finisher's time plus the penalty; None for one that did not finish)."""
    wjpc = body.get("ranking") == "wjpc"
    out = {
        **({"label": body["label"]} if "label" in body else {}),
        "competition": body["competition"],
        "status": body["status"],
        "final": body["final"],
        "puzzles": [
            {"position": p["position"], "title": p["title"], "pieces": p["pieces"]}
            for p in body["puzzles"]
        ],
        "standings": [
            {
                "rank": r["rank"],
                "team": r["team"],
                "pieces": r["pieces"],
                "finished": r["finished"],
                "last_finish_seconds": r["last_finish_seconds"],
                "finishes": [
                    {
                        "puzzle": f["puzzle"],
                        "elapsed_seconds": f["elapsed_seconds"],
                        "deducted": f["deducted"],
                    }
                    for f in r["finishes"]
                ],
                "counted": r["counted"],
                # docs/contracts.md: `counting: true` for a team whose count waits for its second
                # count; the staff who may see it also get `confirmed` for a team counted.
                **({"counting": True} if r["counting"] else {}),
                **(
                    {"confirmed": r["confirmed"]}
                    if confirmed and r["confirmed"] is not None
                    else {}
                ),
                "disqualified": r["disqualified"],
                "under_review": r["under_review"],
                # issue 34: under the World rules the seconds added for missing pieces
                **(
                    {
                        "penalty_seconds": r["penalty_seconds"],
                        "ranking_seconds": r["ranking_seconds"],
                    }
                    if wjpc
                    else {}
                ),
            }
            for r in body["standings"]
        ],
    }
    if wjpc:  # under the Danish rules the body is exactly DESIGN.md's
        out["ranking"] = "wjpc"
    return out
