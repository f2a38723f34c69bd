"""The day under load for `make bench`: spectators poll while judges post finishes.

`run_day()` runs, for a bounded time and on loopback only:
- spectators: two wrk processes of `spectators // 2` connections each on the standings JSON,
  one sending the ETag it last got (`If-None-Match`, mostly 304), one without (all 200);
- judges: one Python thread per judge (http.client, token auth), each owning
  `teams // judges` tables; it posts each team's next finish through the real API with a
  fresh `request_id`, `confirm_implausible: true` and a time after the team's previous
  finish and before the clock's now. Some taps are sent twice: again after the answer
  with the same `request_id` (a retry: 200, the same finish), twice at once on two
  connections (one 201, one 200), or with a new `request_id` (a second tap on the same
  puzzle: 409 `already_finished`, expected, not an error).

`check_database()` then proves that every finish a judge got 201 for is in the database
exactly once, with its id, time and request id, and nothing else was written.
"""

from __future__ import annotations

import http.client
import json
import random
import re
import subprocess
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

LUA = Path(__file__).resolve().parent / "spectators.lua"
PUZZLERS = 4  # members per bench team: the plausible pace is per puzzler
PLAUSIBLE_PACE = 12  # pieces per minute per puzzler, under the limit of 15


def plausible_gap(pieces: int, rng: random.Random) -> int:
    """Seconds a team of PUZZLERS plausibly needs for a puzzle of `pieces`."""
    return int(pieces / (PLAUSIBLE_PACE * PUZZLERS) * 60 * rng.uniform(1.0, 1.5))


@dataclass
class TeamState:
    id: int
    table: int
    finished: int
    last_seconds: int


@dataclass
class JudgeStats:
    latencies: list[float] = field(default_factory=list)
    statuses: Counter = field(default_factory=Counter)
    created: dict = field(default_factory=dict)  # (team, position) -> (id, seconds, request_id)
    replays: int = 0  # 200 with the first answer for a request id sent again
    concurrent: int = 0  # pairs sent at once: one 201, one 200
    duplicate_taps: int = 0  # 409 already_finished for a second tap, as expected
    errors: list[str] = field(default_factory=list)


class Judge:
    """One judge's device: posts finishes for its tables over a keep-alive connection."""

    def __init__(self, host, port, slug, token, teams, pieces, started_at, seed, pause):
        self.host, self.port = host, port
        self.path = f"/api/v1/competitions/{slug}/finishes/"
        self.headers = {
            "Authorization": f"Token {token}",
            "Content-Type": "application/json",
            "Accept": "application/json",
        }
        self.teams = teams
        self.pieces = pieces  # pieces[position]
        self.started_at = started_at  # epoch seconds of the clock's start
        self.rng = random.Random(seed)
        self.pause = pause
        self.connection: dict = {}  # {"conn": HTTPConnection}, reopened when closed
        self.lock = threading.Lock()  # two threads post at once in tap_twice_at_once
        self.stats = JudgeStats()

    # --- one request --------------------------------------------------------------------

    def post(self, body: dict, conn_holder: dict | None = None):
        """(status, json body, headers) of one POST; reconnects when the server closes."""
        holder = conn_holder if conn_holder is not None else self.connection
        data = json.dumps(body)
        for attempt in range(3):
            try:
                if holder.get("conn") is None:
                    holder["conn"] = http.client.HTTPConnection(self.host, self.port, timeout=30)
                start = time.perf_counter()
                holder["conn"].request("POST", self.path, body=data, headers=self.headers)
                response = holder["conn"].getresponse()
                payload = response.read()
                with self.lock:
                    self.stats.latencies.append((time.perf_counter() - start) * 1000)
                    self.stats.statuses[response.status] += 1
                if response.getheader("Connection", "").lower() == "close":
                    holder["conn"].close()
                    holder["conn"] = None
                try:
                    answer = json.loads(payload) if payload else {}
                except ValueError:
                    answer = {"raw": payload[:200].decode(errors="replace")}
                return response.status, answer, response
            except (OSError, http.client.HTTPException) as exc:
                # Sent again with the same request id: a finish the server saved before the
                # connection broke comes back as a replay (200), never twice.
                with self.lock:
                    self.stats.errors.append(f"{type(exc).__name__}: {exc} (try {attempt + 1})")
                if holder.get("conn") is not None:
                    holder["conn"].close()
                holder["conn"] = None
        return None, {}, None

    # --- the judge's day ----------------------------------------------------------------

    def next_body(self, team: TeamState) -> dict:
        position = team.finished + 1
        now = int(time.time() - self.started_at) - 2
        seconds = min(now, team.last_seconds + plausible_gap(self.pieces[position], self.rng))
        roll = self.rng.random()
        missing = [1] if roll < 0.1 else ([2] if roll < 0.15 else [])
        return {
            "team": team.id,
            "puzzle": position,
            "missing": missing,
            "elapsed_seconds": max(seconds, team.last_seconds),
            "request_id": str(uuid.uuid4()),
            "confirm_implausible": True,
        }

    def record(self, team: TeamState, body: dict, answer: dict) -> None:
        key = (team.id, body["puzzle"])
        self.stats.created[key] = (answer.get("id"), body["elapsed_seconds"], body["request_id"])
        team.finished += 1
        team.last_seconds = body["elapsed_seconds"]

    def tap_twice_at_once(self, body: dict):
        """The same tap on two connections at the same moment (a retry racing the first)."""
        results = [None, None]

        def send(i):
            results[i] = self.post(body, conn_holder={})

        threads = [threading.Thread(target=send, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return results

    def run(self, deadline: float) -> None:
        rng, stats = self.rng, self.stats
        while time.monotonic() < deadline:
            open_teams = [t for t in self.teams if t.finished < len(self.pieces) - 1]
            if not open_teams:
                return
            team = min(open_teams, key=lambda t: (t.finished, rng.random()))
            body = self.next_body(team)
            roll = rng.random()
            if roll < 0.05:
                (s1, a1, _r1), (s2, a2, _r2) = self.tap_twice_at_once(body)
                if sorted((s1, s2)) == [200, 201] and a1.get("id") == a2.get("id"):
                    stats.concurrent += 1
                    self.record(team, body, a1)
                else:
                    stats.errors.append(f"tap twice at once: {s1} {a1} / {s2} {a2}")
                    if 201 in (s1, s2):
                        self.record(team, body, a1 if s1 == 201 else a2)
            else:
                status, answer, response = self.post(body)
                if status == 201:
                    self.record(team, body, answer)
                elif status == 200 and answer.get("id"):
                    # A retry after a lost answer (see post): the first answer, replayed.
                    self.record(team, body, answer)
                else:
                    stats.errors.append(f"finish {body}: {status} {answer}")
                    time.sleep(self.pause)
                    continue
                if roll < 0.15:
                    again, replay, response = self.post(body)
                    replayed = response is not None and response.getheader("Idempotent-Replayed")
                    if again == 200 and replay.get("id") == answer.get("id") and replayed:
                        stats.replays += 1
                    else:
                        stats.errors.append(f"retry of {body}: {again} {replay}")
                elif roll < 0.22:
                    second = {**body, "request_id": str(uuid.uuid4())}
                    again, refusal, _response = self.post(second)
                    if again == 409 and refusal.get("code") == "already_finished":
                        stats.duplicate_taps += 1
                    else:
                        stats.errors.append(f"second tap {second}: {again} {refusal}")
            time.sleep(rng.uniform(0.4, 1.6) * self.pause)


# --- the spectators (wrk) ------------------------------------------------------------------


def start_wrk(wrk: str, url: str, connections: int, seconds: int, mode: str):
    cmd = [
        wrk,
        "-t2",
        f"-c{connections}",
        f"-d{seconds}s",
        "--latency",
        "--timeout",
        "10s",
        "-s",
        str(LUA),
        url,
        "--",
        mode,
    ]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def read_wrk(process, seconds: int, parse) -> dict:
    out, _ = process.communicate(timeout=seconds + 60)
    result = parse(out)
    m = re.search(r"STATUS 200=(\d+) 304=(\d+) other=(\d+)", out)
    result["n200"], result["n304"], result["nother"] = (int(g) for g in m.groups())
    total = re.search(r"(\d+) requests in", out)
    result["requests"] = int(total.group(1)) if total else 0
    return result


def run_day(*, wrk, parse_wrk, host, port, slug, judges, spectators, seconds, pause):
    """Spectators and judges together for `seconds`; returns (spectator results, judges)."""
    url = f"http://{host}:{port}/api/v1/competitions/{slug}/standings"
    half = spectators // 2
    deadline = time.monotonic() + seconds
    procs = {
        "etag": start_wrk(wrk, url, half, seconds, "etag"),
        "plain": start_wrk(wrk, url, spectators - half, seconds, "plain"),
    }
    threads = [threading.Thread(target=j.run, args=(deadline,)) for j in judges]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=seconds + 60)
    results = {mode: read_wrk(p, seconds, parse_wrk) for mode, p in procs.items()}
    return results


# --- the proof in the database -------------------------------------------------------------


def check_database(competition, prebuilt: dict, judges) -> dict:
    """Every finish a judge got 201 (or a replayed 200) for is in the database exactly once.

    `prebuilt` maps (team id, position) -> finish id for the finishes built before the load.
    """
    from competition.models import AuditEntry
    from judging.models import Finish

    rows = list(
        Finish.objects.filter(team__competition=competition).values_list(
            "id", "team_id", "puzzle__position", "elapsed_seconds", "request_id"
        )
    )
    per_key = Counter((team, position) for _id, team, position, _s, _r in rows)
    doubled = sorted(k for k, n in per_key.items() if n > 1)
    stored = {(team, position): (pk, s, r) for pk, team, position, s, r in rows}
    created = {}
    for judge in judges:
        created.update(judge.stats.created)
    lost, wrong = [], []
    for key, (pk, seconds, request_id) in created.items():
        if key not in stored:
            lost.append(key)
        elif stored[key] != (pk, seconds, uuid.UUID(request_id)):
            wrong.append((key, stored[key], (pk, seconds, request_id)))
    unexpected = sorted(set(stored) - set(created) - set(prebuilt))
    audited = AuditEntry.objects.filter(competition=competition, action="finish_register").count()
    return {
        "rows": len(rows),
        "prebuilt": len(prebuilt),
        "created": len(created),
        "doubled": doubled,
        "lost": lost,
        "wrong": wrong,
        "unexpected": unexpected,
        "audited": audited,
    }
