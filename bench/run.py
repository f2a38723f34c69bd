"""`make bench`: the pure ranking in-process, then the public endpoints under gunicorn.

1. Times `rules.standings` for 1,000 and 10,000 teams x 10 puzzles (best of several runs)
   and compares the growth with n log n.
2. Drops and recreates the PostgreSQL database `puslespil_bench`, migrates, and builds a
   running competition of 300 teams x 8 puzzles with finishes.
3. Starts gunicorn (3 sync workers, DEBUG off, Redis db 5 as the cache when Redis answers)
   on a free loopback port and runs wrk (or, without wrk, a small threaded Python load
   generator) for ~10 s each against /healthz, the standings JSON, the leaderboard page and
   its htmx fragment; prints requests/s, p50/p99 latency, errors and each ratio to
   /healthz (target >= 0.8). The server is stopped at the end, whatever happens.

Loopback only; bounded in time (about two minutes). See bench/README.md.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent
PG = "postgres://postgres@127.0.0.1:5432"
DB_NAME = "puslespil_bench"
SLUG = "bench"
REDIS = ("127.0.0.1", 6379, 5)

sys.path.insert(0, str(ROOT))


# --- 1. the pure ranking -------------------------------------------------------------------


def _sheets(n: int, puzzles: int, seed: int = 2026):
    from scoring import rules

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


def bench_rules(repeat: int = 7) -> dict[int, float]:
    from scoring import rules

    puzzles = [rules.Puzzle(i, 1000) for i in range(1, 11)]
    result = {}
    for n in (1_000, 10_000):
        sheets = _sheets(n, 10)
        best = math.inf
        for _ in range(repeat):
            start = time.perf_counter()
            rules.standings(puzzles, sheets)
            best = min(best, time.perf_counter() - start)
        result[n] = best * 1000
    return result


# --- 2. the database -----------------------------------------------------------------------


def redis_available() -> bool:
    try:
        with socket.create_connection(REDIS[:2], timeout=0.5) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def redis_flush() -> None:
    """Versions restart at 0 in a fresh database: forget the previous run's cache."""
    with socket.create_connection(REDIS[:2], timeout=2) as s:
        s.sendall(f"SELECT {REDIS[2]}\r\nFLUSHDB\r\n".encode())
        time.sleep(0.1)
        s.recv(64)


def recreate_database() -> None:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{DB_NAME}"')


def build_competition(teams: int, puzzles: int) -> int:
    """A running competition (started 100 min ago, 5 hours long) with finishes."""
    from datetime import timedelta

    from django.utils import timezone

    from competition.models import Competition, Member, Puzzle, Team
    from judging.models import Finish, Objection

    rng = random.Random(300)
    now = timezone.now()
    competition = Competition.objects.create(
        slug=SLUG,
        name="Benchmark-DM",
        venue="Loopback",
        starts_at=now - timedelta(minutes=100),
        started_at=now - timedelta(minutes=100),
        duration_minutes=300,
    )
    sequence = Puzzle.objects.bulk_create(
        Puzzle(competition=competition, position=i, title=f"Motiv {i}", pieces=(500, 1000)[i % 2])
        for i in range(1, puzzles + 1)
    )
    rows = Team.objects.bulk_create(
        Team(
            competition=competition,
            name=f"Hold {i:03d}",
            table=i,
            contact_name=f"Kontakt {i}",
            contact_email=f"hold{i}@example.dk",
        )
        for i in range(1, teams + 1)
    )
    Member.objects.bulk_create(Member(team=t, name=f"Pusler {t.table}") for t in rows)
    finishes = []
    for team in rows:
        seconds = 0
        for puzzle in sequence[: rng.randint(0, puzzles)]:
            seconds += rng.randint(400, 740)
            missing = [1] if rng.random() < 0.1 else ([2] if rng.random() < 0.05 else [])
            finishes.append(
                Finish(team=team, puzzle=puzzle, elapsed_seconds=seconds, missing=missing)
            )
    Finish.objects.bulk_create(finishes)
    Objection.objects.bulk_create(Objection(team=t, text="Tiden?") for t in rows[::50])
    competition.bump_standings()
    return len(finishes)


# --- 3. the server and the load ------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until_up(base: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=1) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("gunicorn did not answer /healthz within 30 s")


def ensure_wrk() -> str | None:
    if shutil.which("wrk"):
        return shutil.which("wrk")
    print("wrk is missing: trying apt-get install -y wrk ...", flush=True)
    try:
        subprocess.run(
            ["apt-get", "install", "-y", "-qq", "wrk"],
            check=True,
            timeout=180,
            capture_output=True,
            env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"},
        )
    except (OSError, subprocess.SubprocessError):
        print("could not install wrk: using the Python load generator", flush=True)
    return shutil.which("wrk")


UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0}


def _ms(text: str) -> float:
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s)", text).groups()
    return float(number) * UNITS[unit]


def run_wrk(wrk: str, url: str, headers: dict, seconds: int, connections: int) -> dict:
    cmd = [wrk, "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", "--timeout", "5s"]
    for name, value in headers.items():
        cmd += ["-H", f"{name}: {value}"]
    out = subprocess.run(
        [*cmd, url], capture_output=True, text=True, timeout=seconds + 30, check=True
    ).stdout
    result = {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))}
    for pct in ("50", "99"):
        m = re.search(rf"^\s+{pct}%\s+([\d.]+(?:us|ms|s))\s*$", out, re.M)
        result[f"p{pct}"] = _ms(m.group(1)) if m else None
    bad = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    sock = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    result["errors"] = (int(bad.group(1)) if bad else 0) + (
        sum(int(g) for g in sock.groups()) if sock else 0
    )
    return result


def run_python_load(url: str, headers: dict, seconds: int, connections: int) -> dict:
    """Threads with keep-alive where the server allows it (http.client)."""
    import http.client
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    deadline = time.monotonic() + seconds
    latencies: list[float] = []
    errors = [0]
    lock = threading.Lock()

    def worker():
        conn, mine, bad = None, [], 0
        while time.monotonic() < deadline:
            try:
                if conn is None:
                    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=5)
                start = time.perf_counter()
                conn.request("GET", path, headers=headers)
                response = conn.getresponse()
                response.read()
                mine.append((time.perf_counter() - start) * 1000)
                if not 200 <= response.status < 400:
                    bad += 1
                if response.getheader("Connection", "").lower() == "close":
                    conn.close()
                    conn = None
            except (OSError, http.client.HTTPException):
                bad += 1
                conn = None
        with lock:
            latencies.extend(mine)
            errors[0] += bad

    threads = [threading.Thread(target=worker) for _ in range(connections)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    latencies.sort()

    def pct(p):
        return latencies[min(len(latencies) - 1, int(len(latencies) * p))] if latencies else None

    return {
        "rps": len(latencies) / seconds,
        "p50": pct(0.50),
        "p99": pct(0.99),
        "errors": errors[0],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=300, help="teams in the competition (300)")
    parser.add_argument("--puzzles", type=int, default=8, help="puzzles in the sequence (8)")
    parser.add_argument("--seconds", type=int, default=10, help="seconds per endpoint (10)")
    parser.add_argument("--connections", type=int, default=12, help="open connections (12)")
    parser.add_argument("--python-load", action="store_true", help="skip wrk")
    parser.add_argument("--keep-db", action="store_true", help="keep puslespil_bench afterwards")
    args = parser.parse_args()

    print("== rules.standings, in-process, 10 puzzles (best of 7)")
    timings = bench_rules()
    for n, ms in timings.items():
        print(f"  {n:>6,} teams: {ms:8.1f} ms")
    growth = timings[10_000] / timings[1_000]
    nlogn = (10_000 * math.log(10_000)) / (1_000 * math.log(1_000))
    print(
        f"  10x the teams took {growth:.1f}x the time; n log n predicts {nlogn:.1f}x "
        f"(ratio {growth / nlogn:.2f}: <= 1 grows no faster than n log n)"
    )

    use_redis = redis_available()
    env = {
        **os.environ,
        "DATABASE_URL": f"{PG}/{DB_NAME}",
        "DEBUG": "0",
        "SECRET_KEY": "bench-" + os.urandom(16).hex(),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_PROXY": "0",
        "CONN_MAX_AGE": "60",
        "LOG_LEVEL": "ERROR",
        "CACHE_URL": "redis://{}:{}/{}".format(*REDIS) if use_redis else "",
        "CACHE_PREFIX": "bench",
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    os.environ.update(env)
    print(f"\n== PostgreSQL database {DB_NAME}: drop, create, migrate")
    recreate_database()
    if use_redis:
        redis_flush()
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    call_command("collectstatic", verbosity=0, interactive=False)
    count = build_competition(args.teams, args.puzzles)
    print(f"  {args.teams} teams x {args.puzzles} puzzles, {count} finishes")
    from django.db import connections

    connections.close_all()

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    cache_name = f"Redis db {REDIS[2]}" if use_redis else "process-local memory (no Redis)"
    print(f"\n== gunicorn, 3 sync workers, on {base}; cache: {cache_name}")
    server_log = open(ROOT / "var" / "bench-gunicorn.log", "w")  # noqa: SIM115
    server = subprocess.Popen(
        [
            str(VENV_BIN / "gunicorn"),
            "config.wsgi:application",
            "--workers=3",
            "--worker-class=sync",
            f"--bind=127.0.0.1:{port}",
            "--log-level=warning",
            "--timeout=30",
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
        stderr=server_log,
    )

    def stop_server(*_):
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)

    signal.signal(signal.SIGTERM, lambda *a: (stop_server(), sys.exit(1)))
    results = []
    try:
        wait_until_up(base)
        standings = f"{base}/api/v1/competitions/{SLUG}/standings"
        with urllib.request.urlopen(standings, timeout=10) as r:
            etag = r.headers["ETag"]
        req = urllib.request.Request(f"{base}/{SLUG}/", headers={"HX-Request": "true"})
        with urllib.request.urlopen(req, timeout=10) as r:
            fragment_etag = r.headers["ETag"]
            fragment_bytes = len(r.read())
        with urllib.request.urlopen(f"{base}/{SLUG}/", timeout=10) as r:
            page_bytes = len(r.read())
            # A phone keeps the CSRF cookie of its first visit and sends it on every reload.
            cookie = r.headers["Set-Cookie"].split(";")[0]
        with urllib.request.urlopen(standings, timeout=10) as r:
            json_bytes = len(r.read())
        print(
            f"  sizes: standings JSON {json_bytes:,} B, page {page_bytes:,} B, "
            f"fragment {fragment_bytes:,} B"
        )
        wrk = None if args.python_load else ensure_wrk()
        tool = "wrk" if wrk else "python threads"
        print(f"  load: {tool}, {args.connections} connections, {args.seconds} s per endpoint\n")
        targets = [
            ("/healthz", f"{base}/healthz", {}),
            ("standings JSON", standings, {}),
            ("leaderboard page", f"{base}/{SLUG}/", {"Cookie": cookie}),
            ("leaderboard fragment", f"{base}/{SLUG}/", {"HX-Request": "true"}),
            ("standings JSON, 304", standings, {"If-None-Match": etag}),
            (
                "fragment, 304",
                f"{base}/{SLUG}/",
                {"HX-Request": "true", "If-None-Match": fragment_etag},
            ),
            ("/healthz (again)", f"{base}/healthz", {}),
        ]
        for name, url, headers in targets:
            headers = {"Accept-Encoding": "gzip", **headers}  # as every phone and browser
            if wrk:
                r = run_wrk(wrk, url, headers, args.seconds, args.connections)
            else:
                r = run_python_load(url, headers, args.seconds, args.connections)
            results.append((name, r))
            print(f"  {name:<22} {r['rps']:9.1f} req/s", flush=True)
    finally:
        stop_server()
        server_log.close()
        if not args.keep_db:
            connections.close_all()
            try:
                import psycopg

                with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
                    conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')
            except Exception as exc:  # noqa: BLE001 - cleanup must not hide the results
                print(f"  (could not drop {DB_NAME}: {exc})")

    floor = (results[0][1]["rps"] + results[-1][1]["rps"]) / 2
    print(f"\n== Results (ratio to the mean of the two /healthz runs, {floor:.1f} req/s)")
    print(f"  {'endpoint':<22} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7} {'ratio':>6}")
    failed = False
    for name, r in results:
        ratio = r["rps"] / floor if floor else 0
        p50 = f"{r['p50']:.2f}" if r["p50"] is not None else "-"
        p99 = f"{r['p99']:.2f}" if r["p99"] is not None else "-"
        mark = ""
        if not name.startswith("/healthz"):
            mark = "  ok" if ratio >= 0.8 else "  BELOW 0.8"
            failed |= ratio < 0.8 and "304" not in name
        print(f"  {name:<22} {r['rps']:9.1f} {p50:>8} {p99:>8} {r['errors']:>7} {ratio:6.2f}{mark}")
    http_p50 = results[1][1]["p50"]
    if http_p50:
        verdict = "less" if timings[10_000] < http_p50 else "MORE"
        print(
            f"\n  rules.standings for 10,000 teams: {timings[10_000]:.1f} ms, {verdict} than "
            f"one standings request under load (p50 {http_p50:.2f} ms)"
        )
    errors = sum(r["errors"] for _n, r in results)
    print(f"  errors (non-2xx/3xx, socket): {errors}")
    return 1 if failed or errors else 0


if __name__ == "__main__":
    sys.exit(main())
