"""The public mirror with two app processes on loopback: a hall and a mirror, each
gunicorn on a database of its own (two SQLite files, or two PostgreSQL databases when the
tests run on PostgreSQL), and the hall's pusher (`manage.py mirror_push`) beside them.

A day is driven through the hall's API as a judge; halfway the mirror goes down, and in its
place a socket accepts connections and never answers (the worst line: the pusher hangs on
it); then the mirror comes back. Afterwards the mirror's public standings equal the hall's;
polled all along, the mirror never showed an older version after a newer one; and every
judge's request was answered while the mirror hung (judges' requests never wait for it).
Every wait is for a state, with a deadline.
"""

import json
import os
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.utils import timezone

from competition.models import Competition
from competition.services import staff_upsert
from tests.factories import CompetitionFactory, PuzzleFactory, TeamFactory

ROOT = Path(__file__).resolve().parents[2]
PORTS = range(8400, 8500)  # this test's own range
TOKEN = "two-process-mirror-token-" + "m" * 20
TEAMS = 10
pytestmark = pytest.mark.django_db(transaction=True)


def _port(taken=()) -> int:
    for port in PORTS:
        if port in taken:
            continue
        with socket.socket() as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    pytest.fail("no free port in 8400-8499")


def _get(url, timeout=10):
    """(status, ETag, JSON body)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as resp:
            return resp.status, resp.headers.get("ETag"), json.loads(resp.read())
    except urllib.error.HTTPError as err:
        return err.code, None, None


def _post(url, body, token):
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST")
    req.add_header("Content-Type", "application/json")
    req.add_header("Authorization", f"Token {token}")
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            return resp.status
    except urllib.error.HTTPError as err:
        print(err.code, err.read()[:300])  # shown when the test fails
        return err.code


def _version(etag: str) -> int:
    return int(etag.strip('"').split("-")[1])  # "s<pk>-<version>-<status>"


def _until(what, check, seconds=45):
    deadline = time.monotonic() + seconds
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"waited {seconds} s for {what}")
        time.sleep(0.1)  # wait-ok: polling a state with a deadline


class Databases:
    """Two databases of the test's own kind: copies of the test database as it is now."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.settings = connection.settings_dict
        self.pg = connection.vendor == "postgresql"
        self.made: list[str] = []

    def copy(self, name: str) -> str:
        """The test database as it is now, copied; its DATABASE_URL."""
        if not self.pg:
            target = self.folder / f"{name}.sqlite3"
            with sqlite3.connect(self.settings["NAME"]) as src, sqlite3.connect(target) as dst:
                src.backup(dst)
            return f"sqlite:///{target}"
        import psycopg

        db = f"{self.settings['NAME']}_{name}"[:60]
        connection.close()  # a template must have no other session
        with psycopg.connect(**self._params("postgres"), autocommit=True) as pg:
            # Nor a stale one: an earlier browser test's live-server request thread ends
            # with its persistent connection still open (CONN_MAX_AGE). This test closed its
            # own and serves nothing in this process, so every other session is such a one.
            pg.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = %s AND pid <> pg_backend_pid()",
                [self.settings["NAME"]],
            )
            pg.execute(f'DROP DATABASE IF EXISTS "{db}"')
            pg.execute(f'CREATE DATABASE "{db}" TEMPLATE "{self.settings["NAME"]}"')
        self.made.append(db)
        s = self.settings
        password = f":{s['PASSWORD']}" if s.get("PASSWORD") else ""
        return (
            f"postgres://{s['USER']}{password}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{db}"
        )

    def _params(self, dbname):
        s = self.settings
        params = {"dbname": dbname, "user": s["USER"], "host": s["HOST"] or "127.0.0.1"}
        params["port"] = s["PORT"] or 5432
        if s.get("PASSWORD"):
            params["password"] = s["PASSWORD"]
        return params

    def drop(self):
        if not self.made:
            return
        import psycopg

        with psycopg.connect(**self._params("postgres"), autocommit=True) as pg:
            for db in self.made:
                pg.execute(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')


class Hung:
    """A socket on the mirror's port that accepts every connection and never answers."""

    def __init__(self, port: int):
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", port))
        self.sock.listen(16)
        self.held: list[socket.socket] = []
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self):
        while True:
            try:
                conn, _addr = self.sock.accept()
            except OSError:
                return
            self.held.append(conn)

    def close(self):
        self.sock.close()
        for conn in self.held:
            conn.close()


class Poller(threading.Thread):
    """Reads the mirror's standings all along and records each version it shows."""

    def __init__(self, url):
        super().__init__(daemon=True)
        self.url = url
        self.seen: list[int] = []
        self.stop = threading.Event()

    def run(self):
        while not self.stop.is_set():
            try:
                status, etag, _body = _get(self.url, timeout=2)
            except Exception:  # noqa: BLE001 - down, hung, cut off: nothing shown
                status, etag = 0, None
            if status == 200 and etag:
                self.seen.append(_version(etag))
            self.stop.wait(0.1)


@pytest.fixture
def processes(tmp_path):
    started: list[subprocess.Popen] = []
    databases = Databases(tmp_path)
    base_env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": "mirror-two-processes-key-" + "x" * 40,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_PROXY": "0",
        "CACHE_URL": "",
        "REDIS_URL": "",
        "AXES_ENABLED": "0",
        "MIRROR_TOKEN": TOKEN,
        "MIRROR_URL": "",
        "PYTHONUNBUFFERED": "1",
    }
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))

    def start(args, env, log):
        with open(tmp_path / log, "ab") as out:
            proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=out, stderr=out)
        started.append(proc)
        return proc

    def serve(port, env, log):
        args = [gunicorn, "config.wsgi", "--workers", "2", "--bind", f"127.0.0.1:{port}"]
        proc = start(args, env, log)
        _until(f"{log} on :{port}", lambda: _alive(port, proc, tmp_path / log), 60)
        return proc

    yield databases, base_env, serve, start, tmp_path
    for proc in started:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    databases.drop()


def _alive(port, proc, log):
    if proc.poll() is not None:
        pytest.fail(f"the process ended:\n{log.read_text()[-3000:]}")
    try:
        return _get(f"http://127.0.0.1:{port}/healthz", timeout=2)[0] == 200
    except OSError:
        return False


def test_a_day_with_the_mirror_down_and_up(processes):
    databases, base_env, serve, start, folder = processes
    mirror_db = databases.copy("mirror")  # migrated, empty
    competition = CompetitionFactory(slug="spejl", name="Spejl-DM", duration_minutes=180)
    for position, pieces in enumerate((500, 1000, 1000), start=1):
        PuzzleFactory(competition=competition, position=position, pieces=pieces)
    teams = [
        TeamFactory(competition=competition, name=f"Hold {i}", table=i) for i in range(1, TEAMS + 1)
    ]
    Competition.objects.filter(pk=competition.pk).update(
        started_at=timezone.now() - timedelta(minutes=150)
    )
    _, _, token = staff_upsert(
        username="dommer", role="judge", password="mirror-judge-pw-1", issue_token=True
    )
    hall_db = databases.copy("hall")

    hall_port = _port()
    mirror_port = _port(taken={hall_port})
    mirror_url = f"http://127.0.0.1:{mirror_port}"
    hall_env = {
        **base_env,
        "DATABASE_URL": hall_db,
        "MIRROR_URL": mirror_url,
        "MIRROR_TIMEOUT": "2",
        "MIRROR_MAX_BACKOFF": "2",  # the test's day is a minute, not hours
        "PLAUSIBLE_PIECES_PER_MINUTE_PER_PUZZLER": "1000",  # a day in a minute
    }
    mirror_env = {**base_env, "DATABASE_URL": mirror_db, "VAR_DIR": str(folder / "mirror-var")}
    serve(hall_port, hall_env, "hall.log")
    mirror = serve(mirror_port, mirror_env, "mirror.log")
    start([sys.executable, "manage.py", "mirror_push"], hall_env, "pusher.log")

    hall = f"http://127.0.0.1:{hall_port}"
    path = f"/api/v1/competitions/{competition.slug}/standings"
    finishes = f"{hall}/api/v1/competitions/{competition.slug}/finishes/"
    poller = Poller(mirror_url + path)
    poller.start()

    def hall_version():
        return _version(_get(hall + path)[1])

    def caught_up():
        status, etag, body = _get(mirror_url + path)
        h_status, h_etag, h_body = _get(hall + path)
        return status == 200 and _version(etag) == _version(h_etag) and body == h_body

    def post_all(position, start_seconds):
        return [
            _post(
                finishes,
                {"team": t.pk, "puzzle": position, "elapsed_seconds": start_seconds + i * 7},
                token,
            )
            for i, t in enumerate(teams)
        ]

    # Morning: the first puzzle, the mirror up.
    assert post_all(1, 1500) == [201] * TEAMS
    _until("the mirror to catch up", caught_up)

    # The line goes down: the mirror stops, and a socket that never answers takes its port.
    mirror.terminate()
    mirror.wait(timeout=15)
    hung = Hung(mirror_port)
    try:
        assert post_all(2, 3600) == [201] * TEAMS  # every judge's post answered
        _until("the pusher to hang on the dead line", lambda: hung.held)
        assert post_all(3, 6000) == [201] * TEAMS  # still answered while the pusher hangs
    finally:
        hung.close()

    # The line is back: the mirror starts again and catches up with the newest.
    serve(mirror_port, mirror_env, "mirror.log")
    _until("the mirror to catch up after the line came back", caught_up, 60)
    newest = hall_version()
    _until("the poller to read the newest", lambda: newest in poller.seen)
    poller.stop.set()
    poller.join(timeout=10)

    seen = poller.seen
    assert seen, "the poller never read the mirror"
    assert seen == sorted(seen), f"the mirror showed an older version after a newer: {seen}"
    assert seen[-1] == newest
    _status, _etag, body = _get(mirror_url + path)
    assert [r["finished"] for r in body["standings"]][:3] == [3, 3, 3]
    detail = f"/api/v1/competitions/{competition.slug}/"
    assert _get(mirror_url + detail)[2]["puzzles"] == _get(hall + detail)[2]["puzzles"]
    assert "Pushed" in (folder / "pusher.log").read_text()
