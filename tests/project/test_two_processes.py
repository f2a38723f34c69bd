"""Scale-out: two app processes on one PostgreSQL. A write through one is served by the other.

Each process has its own local-memory cache on purpose: nothing correct may depend on
process-local state (docs/contracts.md "Running"); the standings version in the database decides.
"""

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.utils import timezone

from competition.services import staff_upsert

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db(transaction=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _request(url, *, method="GET", body=None, token=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method)
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", f"Token {token}")
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, json.loads(resp.read() or b"null")
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read() or b"null")


@pytest.fixture
def two_servers():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: two processes share one database (run with DATABASE_URL)")
    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DEBUG": "0",
        "SECRET_KEY": "two-processes-test-key-" + "x" * 40,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_PROXY": "0",
        "CACHE_URL": "",
        "REDIS_URL": "",
        "AXES_ENABLED": "0",
    }
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    procs, bases = [], []
    for _ in range(2):
        port = _free_port()
        procs.append(
            subprocess.Popen(
                [gunicorn, "config.wsgi", "--workers", "1", "--bind", f"127.0.0.1:{port}"],
                cwd=ROOT,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            )
        )
        bases.append(f"http://127.0.0.1:{port}")
    try:
        for base in bases:
            for _ in range(100):
                try:
                    if _request(base + "/healthz")[0] == 200:
                        break
                except OSError:
                    time.sleep(0.1)
            else:
                pytest.fail(f"server {base} did not start")
        yield bases
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait(timeout=10)


def test_a_finish_through_one_process_is_served_by_the_other(two_servers, competition, teams):
    a, b = two_servers
    competition.started_at = timezone.now() - timedelta(minutes=40)
    competition.save()
    _, _, token = staff_upsert(
        username="mette", role="judge", password="pw-judge-1", issue_token=True
    )
    standings = f"/api/v1/competitions/{competition.slug}/standings"

    status, before = _request(b + standings)
    assert status == 200
    assert {row["pieces"] for row in before["standings"]} == {0}
    time.sleep(1.1)  # past the 1-second window in which a reader may reuse a version it read

    status, finish = _request(
        a + f"/api/v1/competitions/{competition.slug}/finishes/",
        method="POST",
        body={"team": teams[1].pk, "puzzle": 1, "missing": [1]},
        token=token,
    )
    assert status == 201, finish

    status, after = _request(b + standings)
    assert status == 200
    row = next(r for r in after["standings"] if r["team"]["id"] == teams[1].pk)
    assert row["pieces"] == 499  # 500 pieces, one lone missing piece deducted (R8)
    assert row["rank"] == 1
