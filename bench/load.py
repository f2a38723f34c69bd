"""3. The server's shared cache (its own redis-server), the chaos, and the load generators
(wrk, or Python threads)."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import threading
import time
import urllib.request

from bench.common import SLUG


class OwnRedis:
    """A redis-server of the bench's own on a spare loopback port, without persistence (a
    fresh, empty cache each run): the shared cache of the gunicorn it starts, killed and
    started again during the day (the chaos part)."""

    def __init__(self) -> None:
        self.binary = shutil.which("redis-server")
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--loglevel",
                "warning",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        deadline = time.monotonic() + 10
        while not self.answers():
            if time.monotonic() > deadline:
                raise SystemExit(f"redis-server did not answer on port {self.port} within 10 s")
            time.sleep(0.02)

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def kill(self) -> None:
        """As a crash: SIGKILL, no goodbye to the clients."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)


def chaos(redis: OwnRedis, day_started: float, at: float, down: float, events: dict) -> None:
    """`at` seconds into the day kill Redis; `down` seconds later start it again."""
    time.sleep(max(0.0, day_started + at - time.monotonic()))
    redis.kill()
    events["stopped"] = time.monotonic() - day_started
    time.sleep(down)
    events["restarting"] = time.monotonic() - day_started
    redis.start()
    events["back"] = time.monotonic() - day_started


PUBLIC = ("leaderboard", "big screen", "fragment", "team page", "results.csv", "standings API")


def watch_public(base: str, team_id: int, day_started: float, deadline: float) -> list:
    """A spectator of every kind at once (the leaderboard, the big screen and its fragment,
    a team page, results.csv, the standings API), each polling for the whole day: a list
    of (seconds into the day, page, status or the error's name)."""
    import http.client

    paths = {
        "leaderboard": (f"/{SLUG}/", {}),
        "big screen": (f"/{SLUG}/screen/", {}),
        "fragment": (f"/{SLUG}/", {"HX-Request": "true"}),
        "team page": (f"/{SLUG}/teams/{team_id}/", {}),
        "results.csv": (f"/{SLUG}/results.csv", {}),
        "standings API": (f"/api/v1/competitions/{SLUG}/standings", {}),
    }
    host, port = base.removeprefix("http://").split(":")
    seen: list = []

    def poll(name: str) -> None:
        path, headers = paths[name]
        while time.monotonic() < deadline:
            conn = http.client.HTTPConnection(host, int(port), timeout=10)
            try:
                conn.request("GET", path, headers={"Accept-Encoding": "gzip", **headers})
                response = conn.getresponse()
                response.read()
                status: int | str = response.status
            except (OSError, http.client.HTTPException) as exc:
                status = type(exc).__name__
            finally:
                conn.close()
            seen.append((time.monotonic() - day_started, name, status))

    threads = [threading.Thread(target=poll, args=(name,)) for name in PUBLIC]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sorted(seen)


def warm_up(urls: list[str], seconds: float = 3) -> None:
    """A few seconds of requests first, so that every worker has loaded what it needs."""
    deadline = time.monotonic() + seconds

    def worker():
        while time.monotonic() < deadline:
            for url in urls:
                with urllib.request.urlopen(url, timeout=10) as r:
                    r.read()

    threads = [threading.Thread(target=worker) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def free_port() -> int:
    """A free loopback port: in BENCH_PORTS (e.g. `8400-8499`) when set, else any."""
    low, _dash, high = os.environ.get("BENCH_PORTS", "").partition("-")
    for port in range(int(low), int(high) + 1) if low and high else [0]:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            if port in _TAKEN:
                continue
            _TAKEN.add(s.getsockname()[1])
            return s.getsockname()[1]
    raise SystemExit("no free port in BENCH_PORTS")


_TAKEN: set[int] = set()


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


def parse_wrk(out: str) -> dict:
    """requests/s, p50/p99 (ms) and errors (non-2xx/3xx answers, socket errors) of wrk."""
    result = {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))}
    for pct in ("50", "99"):
        m = re.search(rf"^\s+{pct}%\s+([\d.]+(?:us|ms|s))\s*$", out, re.M)
        result[f"p{pct}"] = _ms(m.group(1)) if m else None
    bad = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    sock = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    result["errors"] = (int(bad.group(1)) if bad else 0) + (
        sum(int(g) for g in sock.groups()) if sock else 0
    )
    total = re.search(r"(\d+) requests in", out)
    result["requests"] = int(total.group(1)) if total else None
    return result


def run_wrk(wrk: str, url: str, headers: dict, seconds: int, connections: int) -> dict:
    cmd = [wrk, "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", "--timeout", "10s"]
    for name, value in headers.items():
        cmd += ["-H", f"{name}: {value}"]
    out = subprocess.run(
        [*cmd, url], capture_output=True, text=True, timeout=seconds + 30, check=True
    ).stdout
    return parse_wrk(out)


def run_python_load(url: str, headers: dict, seconds: int, connections: int) -> dict:
    """Threads with keep-alive where the server allows it (http.client).

    With the header `If-None-Match: track`, each thread sends the ETag it last got.
    """
    import http.client
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    track = headers.get("If-None-Match") == "track"
    deadline = time.monotonic() + seconds
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    errors = [0]
    lock = threading.Lock()

    def worker():
        conn, mine, bad, etag, seen = None, [], 0, None, {}
        sent = {k: v for k, v in headers.items() if not (track and k == "If-None-Match")}
        while time.monotonic() < deadline:
            try:
                if conn is None:
                    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
                start = time.perf_counter()
                extra = {"If-None-Match": etag} if track and etag else {}
                conn.request("GET", path, headers={**sent, **extra})
                response = conn.getresponse()
                response.read()
                mine.append((time.perf_counter() - start) * 1000)
                seen[response.status] = seen.get(response.status, 0) + 1
                if track and response.status == 200:
                    etag = response.getheader("ETag")
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
            for status, n in seen.items():
                statuses[status] = statuses.get(status, 0) + n

    threads = [threading.Thread(target=worker) for _ in range(connections)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    latencies.sort()
    return {
        "requests": len(latencies),
        "rps": len(latencies) / seconds,
        "p50": percentile(latencies, 0.50),
        "p99": percentile(latencies, 0.99),
        "errors": errors[0],
        "n200": statuses.get(200, 0),
        "n304": statuses.get(304, 0),
        "nother": sum(n for s, n in statuses.items() if s not in (200, 304)),
    }


def percentile(sorted_values: list[float], p: float) -> float | None:
    if not sorted_values:
        return None
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * p))]


def load(wrk, url, headers, seconds, connections) -> dict:
    headers = {"Accept-Encoding": "gzip", **headers}  # as every phone and browser sends it
    if wrk:
        return run_wrk(wrk, url, headers, seconds, connections)
    return run_python_load(url, headers, seconds, connections)
