"""The public standings body as the pure functions' input, and a team's projection: shared by
the team page, the speaker's feed and the stream overlay (no query: the body is read)."""

from scoring.pace import projected_finish
from scoring.rules import Finish, Puzzle, Sheet


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
