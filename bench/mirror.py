"""7. The public mirror: its pages under load, and the hall's judges with a dead mirror."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

from bench.build import make_judges
from bench.common import MIRROR_DB, MIRROR_TOKEN, PG, ROOT, ROUNDS, SLUG, VENV_BIN, fmt, ratio_table
from bench.load import free_port, load, percentile, wait_until_up, warm_up


class Unreachable:
    """A mirror that accepts every connection and never answers: the pusher's worst line."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", free_port()))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.held: list = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                self.held.append(self.sock.accept()[0])
            except OSError:
                return

    def close(self):
        self.sock.close()
        for conn in self.held:
            conn.close()


def judges_round(tokens, port, seconds: int, pause: float) -> tuple[list[float], int]:
    """The judges post finishes for `seconds` (no spectators); their latencies in ms."""
    from django.db import connections

    judges = make_judges(tokens, port, pause)
    connections.close_all()
    deadline = time.monotonic() + seconds
    threads = [threading.Thread(target=j.run, args=(deadline,)) for j in judges]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    errors = sum(len(j.stats.errors) for j in judges)
    return [x for j in judges for x in j.stats.latencies], errors


def bench_mirror(wrk, env: dict, hall_port: int, tokens: list[str], args) -> dict:
    """(a) a mirror (gunicorn, its own database, the hall's snapshot pushed to it): its
    standings JSON and leaderboard page against its own /healthz; (b) the hall's judges'
    posts with the pusher on a mirror that never answers, against no mirror at all."""
    import json

    from competition.models import Competition
    from scoring import mirror

    out: dict = {"errors": 0}
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    mirror_env = {
        **env,
        "DATABASE_URL": f"{PG}/{MIRROR_DB}",
        "MIRROR_TOKEN": MIRROR_TOKEN,
        "MIRROR_URL": "",
        "CACHE_PREFIX": "bench-mirror",
        "VAR_DIR": tempfile.mkdtemp(prefix="bench-mirror-"),  # its own version stamps
    }
    print(f"\n== The public mirror: gunicorn, {args.workers} sync workers, on {base}", flush=True)
    log = open(ROOT / "var" / "bench-mirror.log", "w")  # noqa: SIM115
    server = subprocess.Popen(
        [
            str(VENV_BIN / "gunicorn"),
            "config.wsgi:application",
            f"--workers={args.workers}",
            f"--bind=127.0.0.1:{port}",
            "--log-level=warning",
        ],
        cwd=ROOT,
        env=mirror_env,
        start_new_session=True,
        stderr=log,
    )
    try:
        wait_until_up(base)
        snapshot = mirror.build(Competition.objects.get(slug=SLUG))
        body = json.dumps(snapshot, separators=(",", ":")).encode()
        request = urllib.request.Request(
            f"{base}/api/v1/mirror/push",
            data=body,
            method="POST",
            headers={"Content-Type": "application/json", "Authorization": f"Mirror {MIRROR_TOKEN}"},
        )
        with urllib.request.urlopen(request, timeout=30) as r:
            out["push"] = (r.status, len(body))
        standings = f"{base}/api/v1/competitions/{SLUG}/standings"
        warm_up([f"{base}/healthz", standings, f"{base}/{SLUG}/"])
        targets = [
            ("mirror /healthz", f"{base}/healthz", {}),
            ("mirror standings JSON", standings, {}),
            ("mirror leaderboard page", f"{base}/{SLUG}/", {}),
            ("mirror /healthz (again)", f"{base}/healthz", {}),
        ]
        per_round = max(2, args.seconds // ROUNDS)
        rounds: dict[str, list[dict]] = {name: [] for name, _u, _h in targets}
        for _ in range(ROUNDS):
            for name, url, headers in targets:
                rounds[name].append(load(wrk, url, headers, per_round, args.connections))
        out["endpoints"] = []
        for name, _u, _h in targets:
            best = max(rounds[name], key=lambda r: r["rps"])
            best["errors"] = sum(r["errors"] for r in rounds[name])
            out["endpoints"].append((name, best))
            out["errors"] += best["errors"]
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=10)
        log.close()

    print(
        f"  the hall's judges: {args.mirror_seconds} s rounds, no mirror / the pusher on a "
        "mirror that never answers, in turn",
        flush=True,
    )
    dead = Unreachable()
    pusher_env = {
        **env,
        "MIRROR_URL": f"http://127.0.0.1:{dead.port}",
        "MIRROR_TOKEN": MIRROR_TOKEN,
        "LOG_LEVEL": "INFO",
    }
    latencies: dict[str, list[float]] = {"none": [], "unreachable": []}
    pusher_log = open(ROOT / "var" / "bench-pusher.log", "w")  # noqa: SIM115
    try:
        for mode in ("none", "unreachable", "none", "unreachable"):
            pusher = None
            if mode == "unreachable":
                pusher = subprocess.Popen(
                    [sys.executable, "manage.py", "mirror_push"],
                    cwd=ROOT,
                    env=pusher_env,
                    stderr=pusher_log,
                    stdout=pusher_log,
                )
                deadline = time.monotonic() + 30
                while not dead.held and time.monotonic() < deadline:
                    time.sleep(0.1)  # until the pusher hangs on the dead line
            got, errors = judges_round(tokens, hall_port, args.mirror_seconds, 1.0)
            latencies[mode] += got
            out["errors"] += errors
            if pusher is not None:
                pusher.terminate()
                pusher.wait(timeout=10)
    finally:
        dead.close()
        pusher_log.close()
    out["judges"] = {}
    for mode, values in latencies.items():
        values.sort()
        out["judges"][mode] = {
            "requests": len(values),
            "p50": percentile(values, 0.50),
            "p99": percentile(values, 0.99),
        }
    out["hung"] = len(dead.held)
    return out


def mirror_report(result: dict, args) -> tuple[int, list[str]]:
    """Print the mirror part; return its errors and the targets it missed."""
    status, size = result["push"]
    endpoints = result["endpoints"]
    floor = (endpoints[0][1]["rps"] + endpoints[-1][1]["rps"]) / 2
    print(
        f"\n== Results, the public mirror ({args.connections} connections, best of {ROUNDS} "
        f"rounds; ratio to the mean of the mirror's two /healthz rows, {floor:.1f} req/s; "
        f"the snapshot pushed: {size:,} B, HTTP {status})"
    )
    missed = ratio_table(endpoints, floor)
    none, dead = result["judges"]["none"], result["judges"]["unreachable"]
    print(
        f"\n  the hall's judges' posts (2 rounds of {args.mirror_seconds} s each way; the "
        f"dead mirror held {result['hung']} connections of the pusher):"
    )
    for label, r in (("no mirror set", none), ("mirror unreachable", dead)):
        print(f"  {label:<30} {r['requests']:>8} {'':>8} {fmt(r['p50']):>7} {fmt(r['p99']):>7}")
    for key in ("p50", "p99"):
        if none[key] and dead[key]:
            factor = dead[key] / none[key]
            mark = "ok" if factor <= 1.2 else "ABOVE 1.2"
            print(f"  {key}: unreachable / none = {factor:.2f}  {mark}")
            if factor > 1.2:
                missed.append(f"judges' {key} with the mirror unreachable {factor:.2f}x")
    return result["errors"], missed
