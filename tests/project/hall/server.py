"""`make hall`'s script (config/hall.py) started on a spare port, for the tests that talk to
it: on 127.0.0.1 only, never another address of the machine. A database of its own (SQLite
in a temporary folder), seeded by a second process while it runs."""

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

SEED = """
import json
from datetime import timedelta

import django

django.setup()
from django.utils import timezone

from competition.services import staff_upsert
from competition.models import Competition, Puzzle, Team

now = timezone.now()
c = Competition.objects.create(
    slug="hal", name="Hal-DM", starts_at=now, duration_minutes=180,
    started_at=now - timedelta(minutes=170),
)
for position, pieces in enumerate((500, 1000, 1000), start=1):
    Puzzle.objects.create(competition=c, position=position, pieces=pieces, title=f"M {position}")
for table in range(1, 25):
    Team.objects.create(competition=c, name=f"Hold {table}", table=table)
_, _, judge = staff_upsert(
    username="dommer", role="judge", password="hall-judge-pw-1", issue_token=True
)
_, _, admin = staff_upsert(
    username="chef", role="admin", password="hall-admin-pw-1", issue_token=True
)
print(json.dumps({"judge": judge, "admin": admin}))
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Hall:
    url: str  # http://127.0.0.1:<port>
    folder: Path
    db: Path
    backups: Path
    output: Path
    tokens: dict

    def request(self, path, *, method="GET", body=None, token=None, headers=None):
        """(status, headers, body bytes); never raises for an HTTP status."""
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.url + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        for name, value in (headers or {}).items():
            req.add_header(name, value)
        if token:
            req.add_header("Authorization", f"Token {self.tokens[token]}")
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                return resp.status, resp.headers, resp.read()
        except urllib.error.HTTPError as err:
            return err.code, err.headers, err.read()


def start_hall(folder: Path):
    """Start the script; yield a Hall once /healthz answers and the data is seeded."""
    port = free_port()
    db, backups, output = folder / "db.sqlite3", folder / "backups", folder / "hall.log"
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY")},
        "PORT": str(port),
        "DATABASE_URL": f"sqlite:///{db}",
        "BACKUP_DIR": str(backups),
        "HALL_WORKERS": "3",
        "CACHE_URL": "",
        "REDIS_URL": "",
        "PYTHONUNBUFFERED": "1",
    }
    with open(output, "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "config.hall"], cwd=ROOT, env=env, stdout=log, stderr=log
        )
    hall = Hall(f"http://127.0.0.1:{port}", folder, db, backups, output, {})
    try:
        deadline = time.monotonic() + 180  # migrate + collectstatic on a busy machine
        while True:
            if proc.poll() is not None:
                pytest.fail(f"make hall's script ended:\n{output.read_text()}")
            try:
                if hall.request("/healthz")[0] == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"make hall did not answer:\n{output.read_text()}")
            time.sleep(0.5)
        seed_env = {**env, "DEBUG": "1", "DJANGO_SETTINGS_MODULE": "config.settings"}
        seeded = subprocess.run(
            [sys.executable, "-c", SEED],
            cwd=ROOT,
            env=seed_env,
            capture_output=True,
            text=True,
            check=True,
        )
        hall.tokens.update(json.loads(seeded.stdout.strip().splitlines()[-1]))
        yield hall
    finally:
        proc.terminate()  # gunicorn's master (the script replaced itself with it)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
