"""1. The pure ranking, in-process: `rules.standings` for 1,000 and 10,000 teams."""

from __future__ import annotations

import math
import random
import time


def _sheets(n: int, puzzles: int, seed: int = 2026):
    from puzzle_rules import rules

    rng = random.Random(seed)
    sheets = []
    for team in range(n):
        finished = rng.randint(0, puzzles)
        seconds, finishes = 0, []
        for position in range(1, finished + 1):
            seconds += rng.randint(300, 1500)
            missing = (1,) if rng.random() < 0.1 else ((2,) if rng.random() < 0.05 else ())
            finishes.append(rules.Finish(position, seconds, missing))
        counted = None
        if finished < puzzles and rng.random() < 0.7:
            counted = rng.choice((0, rng.randint(3, 999)))
        sheets.append(
            rules.Sheet(team, tuple(finishes), counted, disqualified=rng.random() < 0.005)
        )
    return sheets


def bench_rules(repeat: int = 5) -> dict[int, dict[str, float]]:
    """{teams: {"wall", "cpu", "pass"}} in ms, each the best of `repeat` runs.

    "cpu" is the process's own CPU time (less disturbed when other programs load the
    machine); "pass" is a plain loop reading every finish of the same sheets: a linear
    reference that shows what the memory hierarchy alone adds when the data grows 10x.
    """
    from puzzle_rules import rules

    def plain_pass(sheets):
        total = 0
        for sheet in sheets:
            for finish in sheet.finishes:
                total += finish.position + finish.elapsed_seconds + len(finish.missing)
        return total

    puzzles = [rules.Puzzle(i, 1000) for i in range(1, 11)]
    result = {}
    for n in (1_000, 10_000):
        sheets = _sheets(n, 10)
        wall = cpu = reference = math.inf
        for _ in range(repeat):
            start, start_cpu = time.perf_counter(), time.process_time()
            rules.standings(puzzles, sheets)
            wall = min(wall, time.perf_counter() - start)
            cpu = min(cpu, time.process_time() - start_cpu)
            start = time.process_time()
            plain_pass(sheets)
            reference = min(reference, time.process_time() - start)
        result[n] = {"wall": wall * 1000, "cpu": cpu * 1000, "pass": reference * 1000}
    return result


def bench_profiles(n: int = 10_000, repeat: int = 7) -> dict[str, dict[str, float]]:
    """{"dm", "wjpc"}: {"wall", "cpu"} in ms for `n` teams x 10 puzzles, the same sheets
    (a tenth of the finishes with a lone missing piece: penalties under wjpc), the two
    profiles run in turn, the best of `repeat` runs each."""
    from puzzle_rules import rules

    puzzles = [rules.Puzzle(i, 1000) for i in range(1, 11)]
    sheets = _sheets(n, 10)
    best = {p: {"wall": math.inf, "cpu": math.inf} for p in rules.PROFILES}
    for _ in range(repeat):
        for profile in rules.PROFILES:
            start, start_cpu = time.perf_counter(), time.process_time()
            rules.standings(puzzles, sheets, profile)
            wall, cpu = time.perf_counter() - start, time.process_time() - start_cpu
            best[profile]["wall"] = min(best[profile]["wall"], wall * 1000)
            best[profile]["cpu"] = min(best[profile]["cpu"], cpu * 1000)
    return best


def report_rules() -> dict:
    """Part 1, printed: the timings of `bench_rules`, their growth, and the profiles."""
    print("\n== rules.standings, in-process, 10 puzzles (best of 5 runs)")
    timings = bench_rules()
    for n, t in timings.items():
        print(
            f"  {n:>6,} teams: {t['wall']:8.1f} ms ({t['cpu']:.1f} ms CPU; a plain pass "
            f"reading every finish: {t['pass']:.1f} ms)"
        )
    nlogn = (10_000 * math.log(10_000)) / (1_000 * math.log(1_000))
    for label, key in (("wall", "wall"), ("CPU", "cpu")):
        growth = timings[10_000][key] / timings[1_000][key]
        print(
            f"  {label:>4}: 10x the teams took {growth:.1f}x the time; n log n predicts "
            f"{nlogn:.1f}x (ratio {growth / nlogn:.2f}: <= 1 grows no faster than n log n)"
        )
    linear = timings[10_000]["pass"] / timings[1_000]["pass"]
    print(
        f"  the plain pass grew {linear:.1f}x for 10x the data ({linear / 10:.2f} x linear): "
        "what the memory hierarchy adds here"
    )
    profiles = bench_profiles()
    print(
        "\n== rules.standings by ranking profile, 10,000 teams x 10 puzzles (the same "
        "sheets, in turn, best of 7 runs)"
    )
    for profile, t in profiles.items():
        print(f"  {profile:>5}: {t['wall']:8.1f} ms ({t['cpu']:.1f} ms CPU)")
    for label, key in (("wall", "wall"), ("CPU", "cpu")):
        ratio = profiles["wjpc"][key] / profiles["dm"][key]
        mark = "ok" if ratio <= 1.2 else "ABOVE 1.2"
        print(f"  {label:>4}: wjpc / dm = {ratio:.2f}  {mark} (target <= 1.2)")
    return timings
