"""The public standings body as the pure functions' input, a team's projection and the
feed's lines: shared by the team page, the speaker's feed, the stream overlay and the big
screen's ticker (no query: the body is read)."""

from django.core.cache import cache

from puzzle_rules.pace import feed, projected_finish
from puzzle_rules.rules import Finish, Puzzle, Sheet
from scoring.selectors import CACHE_SECONDS, version_of

FEED_ITEMS = 30


def rules_input(body: dict) -> tuple[list[Puzzle], list[Sheet]]:
    """The public standings as the rules' input (a deduction is its lone missing pieces)."""
    puzzles = [Puzzle(p["position"], p["pieces"]) for p in body["puzzles"]]
    sheets = [
        Sheet(
            team=r["team"]["id"],
            finishes=tuple(
                Finish(f["puzzle"], f["elapsed_seconds"], (1,) * f["deducted"])
                for f in r["finishes"]
            ),
            disqualified=r["disqualified"],
        )
        for r in body["standings"]
    ]
    return puzzles, sheets


def projection(body: dict, row: dict, state, now) -> int | None:
    """The team's projected finish of its current puzzle (elapsed seconds), while the clock
    runs and the moment is still ahead and before the end; else None."""
    if not state.is_running(now):
        return None
    puzzles = [Puzzle(p["position"], p["pieces"]) for p in body["puzzles"]]
    finishes = [Finish(f["puzzle"], f["elapsed_seconds"]) for f in row["finishes"]]
    elapsed = state.elapsed_seconds(now)
    at = projected_finish(puzzles, finishes, end=elapsed + state.remaining_seconds(now))
    # A projected moment already past says only that the team is slower now: no guess.
    return at if at is not None and at >= elapsed else None


def feed_items(state, status: str, body: dict) -> list[dict]:
    """The feed's lines, computed once per standings version (the rules replayed)."""
    ranking = body.get("ranking", "dm")  # the places as the competition ranks them
    key = f"feed:{state.pk}:{version_of(state)}:{status}:{ranking}"
    items = cache.get(key)
    if items is None:
        puzzles, sheets = rules_input(body)
        teams = {r["team"]["id"]: r["team"] for r in body["standings"]}
        items = [
            {
                "team": teams[i.team],
                "position": i.position,
                "elapsed_seconds": i.elapsed_seconds,
                "rank": i.rank,
                "change": i.change,
                "change_abs": abs(i.change or 0),
                "new_leader": i.new_leader,
            }
            for i in feed(puzzles, sheets, last=FEED_ITEMS, profile=ranking)
        ]
        cache.set(key, items, CACHE_SECONDS)
    return items
