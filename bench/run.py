"""`make bench`: the pure ranking in-process, then the public endpoints and the day under
load, all in one run.

1. Times `rules.standings` for 1,000 and 10,000 teams x 10 puzzles (best of 5 runs) and
   compares the growth with n log n; then 10,000 teams under the ranking profile `wjpc`
   against `dm` (the same sheets, runs in turn, best of each): the ratio (target <= 1.2).
   `--rules-only` stops there (no database, no server).
2. Drops and recreates the PostgreSQL database `puslespil_bench`, migrates, and builds a
   running competition of 200 teams x 8 puzzles (clock started 6 hours ago, plausible
   finishes) and 20 judges with API tokens; beside it a championship of 360 individuals in
   4 heats, 120 pairs and 60 teams, every clock running.
3. Starts its own redis-server on a spare port (no persistence) as the shared cache and
   gunicorn (3 sync workers, DEBUG off) on a free loopback port, and runs wrk (or, without
   wrk, a small threaded Python load generator) for ~10 s each against /healthz, the
   standings JSON, the leaderboard page and its htmx fragment, the championship's programme
   and a heat's standings JSON; prints requests/s, p50/p99
   latency, errors and each ratio to /healthz (target >= 0.8).
4. The day (bench/day.py): /healthz with 200 connections, then 200 spectators poll the
   standings (half with If-None-Match) while 20 judges post finishes through the API
   (retries with the same request_id, taps twice at once, second taps); prints each
   endpoint's figures and proves in the database that every finish is there exactly once.
   The chaos part: during the day the bench kills its redis-server, waits a few seconds and
   starts it again, while a watcher polls every public page; every answer must still be a
   success (the cache is an optimisation: docs/contracts.md "Running") and no finish may be lost.

The server is stopped at the end, whatever happens. Exit status 1 on any error, a lost,
doubled or changed finish, or a standings JSON ratio below 0.8 (the other ratios below
0.8 are printed). Loopback only; about two and a half minutes. See README.md.

The parts live beside this entry: bench/common.py (constants, helpers), ranking.py (1),
build.py (2), load.py (3), hall.py (the hall's run and the day), day.py (the judges and
spectators), mirror.py (the mirror), report.py (the results).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

# The repository on the path for `bench.*`, `puzzle_rules`, `config`; bench/ itself off it, so
# that its modules (build, load, report...) never stand in for another's of the same name.
HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path.insert(0, str(HERE.parent))

from bench.common import load_average  # noqa: E402
from bench.hall import run_hall  # noqa: E402
from bench.ranking import report_rules  # noqa: E402


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=200, help="teams in the competition (200)")
    parser.add_argument("--puzzles", type=int, default=8, help="puzzles in the sequence (8)")
    parser.add_argument(
        "--seconds", type=int, default=12, help="seconds per endpoint, in 3 rounds (12)"
    )
    parser.add_argument("--connections", type=int, default=12, help="open connections (12)")
    parser.add_argument("--spectators", type=int, default=200, help="the day: pollers (200)")
    parser.add_argument("--day-seconds", type=int, default=25, help="the day: length (25)")
    parser.add_argument(
        "--judge-pause", type=float, default=0.5, help="the day: mean seconds between taps (0.5)"
    )
    parser.add_argument("--workers", type=int, default=3, help="gunicorn sync workers (3)")
    parser.add_argument(
        "--chaos-seconds",
        type=float,
        default=5,
        help="the day: seconds Redis is down (5; 0: no chaos part)",
    )
    parser.add_argument(
        "--chaos-at",
        type=float,
        default=None,
        help="the day: seconds into the day Redis is killed (a third of the day)",
    )
    parser.add_argument(
        "--championship-scale",
        type=float,
        default=1.0,
        help="the championship's size: 1 = 360 individuals in 4 heats, 120 pairs, 60 teams; "
        "0.05 for a quick check",
    )
    parser.add_argument("--no-mirror", action="store_true", help="skip the mirror part")
    parser.add_argument(
        "--mirror-seconds",
        type=int,
        default=20,
        # 6 s rounds gave some 300 posts a side: a p99 of three requests, 0.79-1.72 x
        help="the mirror: seconds per judges' round, 2 rounds with and 2 without (20)",
    )
    parser.add_argument("--python-load", action="store_true", help="skip wrk")
    parser.add_argument("--keep-db", action="store_true", help="keep puslespil_bench afterwards")
    parser.add_argument(
        "--rules-only",
        action="store_true",
        help="only the pure ranking (part 1): no database, no server",
    )
    return parser.parse_args()


def main() -> int:
    args = parse_args()
    started = time.monotonic()
    print(f"== {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, {load_average()}")
    timings = report_rules()
    if args.rules_only:
        print(f"\n  {load_average()}; {time.monotonic() - started:.0f} s in all")
        return 0
    return run_hall(args, timings, started)


if __name__ == "__main__":
    sys.exit(main())
