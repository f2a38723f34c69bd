"""Standings from the database (R7, R8, R9, R11), ranked by the pure rules and cached.

One computation per change: the computed standings are cached in Django's cache per
(competition, standings version, clock status). The version is bumped in the same
transaction as every write that can change the standings; the status is in the key
because the clock ends by itself without a write. What a reader sees is decided by the
version in the database, never by process-local state, except that a public reader may
reuse the version this process read less than a second ago (`MEMO_SECONDS`).

When the recorded data breaks a rule, the public keeps the last good standings and staff
see the error (`"error"`); nothing raises.
"""

from __future__ import annotations

import logging
import threading
import time

from django.conf import settings
from django.core.cache import cache
from django.db.models import Exists, OuterRef
from django.utils import timezone, translation
from django.utils.translation import gettext, pgettext

from competition.models import Championship, Competition, Discipline, Puzzle, Team
from judging.models import Finish, Objection
from puzzle_rules import championship, formatting, rules
from scoring import mirror_stamp

__all__ = [
    "CACHE_SECONDS",
    "MEMO_SECONDS",
    "api_body",
    "label_body",
    "competition_standings",
    "competition_state",
    "memo_blobs",
    "memo_clear",
    "programme",
    "programme_blobs",
    "programme_read",
    "reveal_places",
    "standings_for",
    "standings_key",
]

log = logging.getLogger(__name__)

CACHE_SECONDS = 6 * 3600
MEMO_SECONDS = 1.0
LANGUAGES = ("da", "en")

# The state fields read on every request: small, one row.
STATE_FIELDS = (
    "id",
    "slug",
    "name",
    "venue",
    "starts_at",
    "duration_minutes",
    "started_at",
    "stopped_at",
    "finalised_at",
    "standings_version",
    "hide_motifs",
    "screen_mode",
    "screen_message",
    "reveal_from",
    "reveal_at",
    "hold_results",
    "second_count",
    "discipline",  # the pages' words for an entrant (competition/words.py)
)

# slug -> (competition state, monotonic time read, bytes sent for that state). Public
# readers only, for 1 s at most: then the version is read again and the bytes forgotten.
_memo: dict[str, tuple[Competition, float, dict]] = {}
_memo_lock = threading.Lock()


def _on_mirror() -> bool:
    """A public mirror (docs/contracts.md "The public mirror": MIRROR_TOKEN set, MIRROR_URL unset):
    one worker's memo must not show a reader an older snapshot after another worker showed
    the newer one (scoring/mirror_stamp.py)."""
    return bool(settings.MIRROR_TOKEN) and not settings.MIRROR_URL


def memo_clear() -> None:
    """Forget the versions this process read (tests use it to act as another process)."""
    with _memo_lock:
        _memo.clear()
        _programmes.clear()


def competition_state(slug: str, *, fresh: bool = False) -> Competition | None:
    """The competition's clock and standings version: one small query, or none when this
    process read it less than `MEMO_SECONDS` ago and the caller is a public reader
    (`fresh=False`); on a mirror only while no worker served a newer version. None when
    there is no such competition."""
    now = time.monotonic()
    mirror = _on_mirror()
    newest = mirror_stamp.seen(slug) if mirror else 0
    if not fresh:
        hit = _memo.get(slug)
        fresh_enough = hit is not None and now - hit[1] < MEMO_SECONDS
        if fresh_enough and hit is not None and hit[0].standings_version >= newest:
            return hit[0]
    state = Competition.objects.only(*STATE_FIELDS).filter(slug=slug).first()
    if mirror and state is not None and state.standings_version > newest:
        mirror_stamp.raise_to(slug, state.standings_version)  # before it is served
    with _memo_lock:
        if state is None:
            _memo.pop(slug, None)
        else:
            if len(_memo) > 1000:
                _memo.clear()
            _memo[slug] = (state, now, {})
    return state


# slug -> ((championship, its competitions' states), monotonic time read, bytes sent for
# them): a championship's programme, for public readers, as `_memo` for a competition.
_programmes: dict[str, tuple[tuple[Championship, list[Competition]], float, dict]] = {}


def programme(slug: str, *, fresh: bool = True) -> tuple[Championship, list[Competition]] | None:
    """A championship's programme (`/<slug>/` of a championship): the championship and its
    competitions' states, by planned start then name, in two queries whatever their number
    (each competition's standings then come from `standings_for`, cached per version), or
    none when this process read them less than `MEMO_SECONDS` ago and the caller is a public
    reader of the programme page (`fresh=False`; on a mirror only while no worker of the host
    served a newer version of one of its competitions, scoring/mirror_stamp.py). None when no
    championship has `slug`."""
    now = time.monotonic()
    mirror = _on_mirror()
    if not fresh:
        hit = _programmes.get(slug)
        fresh_enough = hit is not None and now - hit[1] < MEMO_SECONDS
        if fresh_enough and hit is not None and (not mirror or _not_behind(hit[0][1])):
            return hit[0]
    championship = Championship.objects.filter(slug=slug).first()
    if championship is None:
        return None
    competitions = list(
        Competition.objects.only(*STATE_FIELDS, "championship_id", "discipline", "round")
        .filter(championship_id=championship.pk)
        .order_by("starts_at", "name", "id")
    )
    if mirror:
        for c in competitions:  # before they are served, as competition_state does
            mirror_stamp.raise_to(c.slug, c.standings_version)
    found = (championship, competitions)
    with _memo_lock:
        if len(_programmes) > 1000:
            _programmes.clear()
        _programmes[slug] = (found, now, {})
    return found


def _not_behind(competitions: list[Competition]) -> bool:
    """No worker of this mirror host served a newer version of any of `competitions`."""
    return all(c.standings_version >= mirror_stamp.seen(c.slug) for c in competitions)


def programme_read(slug: str) -> bool:
    """True when this process read the programme of a championship `slug` less than
    `MEMO_SECONDS` ago: `/<slug>/` is that championship's, not a competition's (a slug of a
    championship never becomes a competition's: one namespace)."""
    hit = _programmes.get(slug)
    return hit is not None and time.monotonic() - hit[1] < MEMO_SECONDS


def programme_blobs(slug: str, found: tuple) -> dict:
    """As `memo_blobs`, for the programme `found` of the championship `slug`."""
    hit = _programmes.get(slug)
    if hit is not None and hit[0] is found and time.monotonic() - hit[1] < MEMO_SECONDS:
        return hit[2]
    return {}


def memo_blobs(state: Competition) -> dict:
    """A dict that lives exactly as long as this process's 1 s memo of `state`: answers
    already fetched from the shared cache for this version may be kept in it. Outside the
    memo (a fresh read replaced it, or the second is over) a throwaway dict."""
    hit = _memo.get(state.slug)
    if hit is not None and hit[0] is state and time.monotonic() - hit[1] < MEMO_SECONDS:
        return hit[2]
    return {}


def standings_key(state: Competition, status: str) -> str:
    return f"standings:{state.pk}:{state.standings_version}:{status}"


def _good_key(state: Competition) -> str:
    return f"standings:{state.pk}:good"


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
            [rules.Puzzle(p["position"], p["pieces"]) for p in puzzles], sheets
        )
        by_id = {t["id"]: t for t in teams}
        pieces_at = {p["position"]: p["pieces"] for p in puzzles}
        rows = []
        previous: rules.Standing | None = None
        for s in ranked:
            team = by_id[s.team]
            row = _row(
                s, team, finishes[s.team], puzzles, pieces_at, status, previous, by_id, alone
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


def short_duration(seconds: int) -> str:
    """A gap as a scoreboard writes it: "58 sek.", "1 min. 40 sek.", "1 t. 5 min." (the
    units of formatting.duration_parts), in the active language."""
    units = {
        "hour": pgettext("duration", "%(n)s h"),
        "minute": pgettext("duration", "%(n)s min."),
        "second": pgettext("duration", "%(n)s sec."),
    }
    return " ".join(units[unit] % {"n": n} for unit, n in formatting.duration_parts(seconds))


def tie_break_sentence(gap: tuple[str, int | None], ahead_name: str, language: str) -> str:
    """R11 told from the team behind, for a phone's row: ahead of whom it is placed and by
    how much (`gap` from rules.tie_break)."""
    kind, seconds = gap
    with translation.override(language):
        if kind == "earlier":
            return gettext(
                "Same number of pieces as %(name)s, but the last whole puzzle was finished "
                "%(delta)s later."
            ) % {"name": ahead_name, "delta": short_duration(seconds)}
        if kind == "only":
            return gettext("Same number of pieces as %(name)s, but no whole puzzle finished.") % {
                "name": ahead_name
            }
        if kind == "same_time":
            return gettext(
                "Same number of pieces as %(name)s, and the last whole puzzle finished at the "
                "same second: shared place."
            ) % {"name": ahead_name}
        return gettext(
            "Same number of pieces as %(name)s, and neither finished a whole puzzle: shared place."
        ) % {"name": ahead_name}


def _row(s, team, finishes, puzzles, pieces_at, status, previous, by_id, alone) -> dict:
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
        tie_break, tie_break_short = _tie_break(previous, s, by_id[previous.team]["name"], alone)
    return {
        "rank": s.rank,
        "team": {"id": team["id"], "name": team["name"], "table": team["table"]},
        "pieces": s.pieces,
        "finished": s.finished,
        "last_finish_seconds": s.last_finish_seconds,
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


def _tie_break(previous: rules.Standing, s: rules.Standing, ahead_name: str, alone: bool) -> tuple:
    """R11 told for `s` ranked after `previous` (called `ahead_name`, one puzzler when `alone`):
    ({"da", "en"} sentences, the same in a few words), or (None, None) when there is nothing
    to tell."""
    if s.pieces <= 0:  # nothing to explain while nobody has pieces
        return None, None
    try:
        texts = {
            lang: rules.tie_break_reason(
                previous, s, ahead_name=ahead_name, language=lang, with_time=True, alone=alone
            )
            for lang in LANGUAGES
        }
        gap = rules.tie_break(previous, s)
    except ValueError:
        return None, None
    if not texts.get("da") or gap is None:
        return None, None
    return texts, {lang: tie_break_sentence(gap, ahead_name, lang) for lang in LANGUAGES}


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
            told = _tie_break(previous, s, rows[previous.team]["team"]["name"], alone)
        standings.append({**row, "rank": s.rank, "tie_break": told[0], "tie_break_short": told[1]})
        previous = s
    return {**body, "label": label, "standings": standings}


def api_body(body: dict, *, confirmed: bool = False) -> dict:
    """Exactly the standings body of docs/contracts.md (no page extras); with `confirmed` (staff who
    may see an unconfirmed count) each row says whether its count is confirmed."""
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
            }
            for r in body["standings"]
        ],
    }
    return out
