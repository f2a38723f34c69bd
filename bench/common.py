"""The bench's constants and small helpers, shared by its parts (bench/run.py is the entry)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent
PG = "postgres://postgres@127.0.0.1:5432"
DB_NAME = os.environ.get("BENCH_DB") or "puslespil_bench"  # BENCH_DB: beside another's bench
MIRROR_DB = f"{DB_NAME}_mirror"
MIRROR_TOKEN = "bench-mirror-" + os.urandom(16).hex()
SLUG = "bench"
# The bench's championship: 360 individuals in 4 heats, 120 pairs and 60 teams (at scale 1).
CHAMPIONSHIP = "bench-dm"
HEATS = 4
HEAT_SLUG = "bench-dm-heat-1"  # the heat whose standings JSON is measured
JUDGES = 20
ROUNDS = 3  # one endpoint at a time: rounds of every endpoint in turn


def fmt(value, spec=".2f") -> str:
    return "-" if value is None else format(value, spec)


def load_average() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f}"


HEAD = f"  {'endpoint':<30} {'requests':>8} {'req/s':>8} {'p50 ms':>7} {'p99 ms':>7}"


def ratio_table(rows, floor: float) -> list[str]:
    """Print one endpoint a row with its ratio to `floor` (the mean of the two /healthz
    rows); return the rows below 0.8 ("name ratio")."""
    missed = []
    print(f"{HEAD} {'errors':>6} {'ratio':>6}")
    for name, r in rows:
        ratio = r["rps"] / floor if floor else 0
        mark = ""
        if "healthz" not in name:
            mark = "  ok" if ratio >= 0.8 else "  BELOW 0.8"
            if ratio < 0.8:
                missed.append(f"{name} {ratio:.2f}")
        print(
            f"  {name:<30} {fmt(r['requests'], 'd'):>8} {r['rps']:8.1f} {fmt(r['p50']):>7} "
            f"{fmt(r['p99']):>7} {r['errors']:>6} {ratio:6.2f}{mark}"
        )
    return missed
