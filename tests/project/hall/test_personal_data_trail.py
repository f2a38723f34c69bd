"""The personal-data trail, by construction (docs/contracts.md
"Personal data and the hall's files").

A whole day under `make hall`'s own script and settings (gunicorn, DEBUG off, the hall's
secret key, SQLite in WAL mode, backups on), every file in one temporary folder, every
process started with umask 022: marker values for a child, her adult and the contact go
in through the import (and an upload left in the import store), the desk's search
(`?q=`, into the access log), an edit of the child's name (its old spelling then lives only
in the audit trail and the earlier snapshots), a warning and an objection that name her,
snapshots (by hand, periodic, at finalise), finalise, and `erase_personal_data`. Then
every file the app wrote is read:
- no file or folder is readable by group or others, before and after the erase;
- no marker is left anywhere after the erase (the database, -wal, every snapshot, the
  access log, the ledger, the secret key's folder);
- every snapshot is restored in turn: each one is refused or brings back no marker.
"""

import http.cookiejar
import os
import re
import stat
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from tests.project.hall.server import ROOT, free_port

CHILD, CHILD_EDITED = "Emmaquix Barnemark", "Emmaquix Barnemarck"
ADULT = "Wilhelmina Voksenmark"
EMAIL = "kontaktmark@privatmail.example"
# What must never be found in a file after the erase (also URL-encoded: Emmaquix%20...).
MARKERS = ("Barnemark", "Barnemarck", "Voksenmark", "kontaktmark", "privatmail")
PASSWORD = "skranke-kodeord-26"

SETUP = f"""
from datetime import timedelta
from django.utils import timezone
from competition import imports
from competition.models import Competition, Puzzle
from competition.services import staff_upsert
from judging import backups

c = Competition.objects.create(slug="dm", name="DM", starts_at=timezone.now(),
                               duration_minutes=180, second_count=False)
for position in (1, 2):
    Puzzle.objects.create(competition=c, position=position, pieces=500, title=f"M{{position}}")
desk = staff_upsert(username="skranke", role="desk", password="{PASSWORD}")[0]
staff_upsert(username="chef", role="admin", password="chef-kodeord-26")
sheet = (
    "hold;medlem 1;medlem 2;medlem 2 under 15;medlem 2 ledsagende voksen;e-mail\\n"
    "Brikkerne;{ADULT};{CHILD};x;{ADULT};{EMAIL}\\n"
    "Kanterne;Ole Olsen;;;;\\n"
).encode()
imports.confirm(c, sheet, "tilmelding.csv", by=desk)
imports.preview_store(c, sheet, "tilmelding-igen.csv", by=desk)  # never confirmed
assert backups.snapshot("manual").ok
print("ok")
"""

DAY = f"""
from datetime import timedelta
from django.utils import timezone
from competition.models import Competition, Team
from competition.services import team_update
from django.contrib.auth import get_user_model
from judging import backups
from judging.services import (competition_finalise, count_record, objection_file,
                              objection_resolve, warning_log)

c = Competition.objects.get(slug="dm")
chef = get_user_model().objects.get(username="chef")
team = Team.objects.get(competition=c, name="Brikkerne")
members = [dict(m) for m in team.members.values("name", "under_15", "guardian")]
for m in members:
    if m["name"] == "{CHILD}":
        m["name"] = "{CHILD_EDITED}"
team_update(team=team, by=chef, members=members)
Competition.objects.filter(pk=c.pk).update(started_at=timezone.now() - timedelta(hours=4))
warning_log(team=team, by=chef, reason="{CHILD} talte højt")
objection = objection_file(team=team, by=chef, text="{ADULT} mener tiden er forkert")
assert backups.snapshot("clock_stop").ok  # as at a clock stop: rotation never deletes it
objection_resolve(objection=objection, by=chef, decision="rejected", note="Set af {ADULT}")
for t in Team.objects.filter(competition=c):
    count_record(team=t, by=chef, pieces=100)
competition_finalise(competition=Competition.objects.get(pk=c.pk), by=chef)
print("ok")
"""


def _env(folder: Path, port: int) -> dict:
    drop = ("DEBUG", "SECRET_KEY", "DATABASE_URL", "CACHE_URL", "REDIS_URL", "BACKUP_DIR")
    return {
        **{k: v for k, v in os.environ.items() if k not in drop},
        "PORT": str(port),
        "VAR_DIR": str(folder / "var"),
        "BACKUP_DIR": str(folder / "backups"),
        "BACKUP_CHECK_SECONDS": "0",
        "HALL_WORKERS": "2",
        "PYTHONUNBUFFERED": "1",
    }


def _loose_umask():
    os.umask(0o022)  # what a laptop's shell usually has: the app must not rely on better


def manage(env, *args, check=True) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "config.hall", "manage", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=check,
        preexec_fn=_loose_umask,
        timeout=300,
    )


def shell(env, code: str) -> None:
    result = manage(env, "shell", "-c", code, check=False)
    assert result.returncode == 0 and "ok" in result.stdout, result.stderr[-3000:]


class Browser:
    """A desk volunteer's browser: cookies, the CSRF token, the login form."""

    def __init__(self, base: str):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def get(self, path: str) -> tuple[int, str]:
        with self.opener.open(self.base + path, timeout=30) as resp:
            return resp.status, resp.read().decode()

    def login(self, username: str, password: str) -> None:
        self.get("/accounts/login/")
        token = next(c.value for c in self.jar if c.name == "csrftoken")
        data = urllib.parse.urlencode(
            {"username": username, "password": password, "csrfmiddlewaretoken": token}
        ).encode()
        req = urllib.request.Request(self.base + "/accounts/login/", data=data)
        req.add_header("Referer", self.base + "/accounts/login/")
        with self.opener.open(req, timeout=30) as resp:
            assert "/accounts/login/" not in resp.url, "the login failed"


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file())


def _open_to_others(folder: Path) -> list[str]:
    return [
        f"{p.relative_to(folder)} {stat.filemode(p.stat().st_mode)}"
        for p in [*folder.rglob("*")]
        if p.stat().st_mode & 0o077 and not p.is_symlink()
    ]


def _markers_in(folder: Path) -> dict[str, list[str]]:
    found = {}
    for path in _files(folder):
        data = path.read_bytes()
        hits = [m for m in MARKERS if m.encode() in data or m.encode("utf-16-le") in data]
        if hits:
            found[str(path.relative_to(folder))] = hits
    return found


def start(env, output: Path) -> subprocess.Popen:
    with open(output, "ab") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "config.hall"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=log,
            preexec_fn=_loose_umask,
        )
    deadline = time.monotonic() + 180
    while True:
        if proc.poll() is not None:
            pytest.fail(f"make hall's script ended:\n{output.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{env['PORT']}/healthz", timeout=5):
                return proc
        except OSError:
            if time.monotonic() > deadline:
                pytest.fail(f"make hall did not answer:\n{output.read_text()[-3000:]}")
            time.sleep(0.5)


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def test_no_marker_survives_the_erase_and_no_file_is_readable_by_others(tmp_path):
    folder = tmp_path / "hall"
    folder.mkdir()
    output = tmp_path / "hall-terminal.txt"  # the terminal, not a file the app writes
    env = _env(folder, free_port())
    base = f"http://127.0.0.1:{env['PORT']}"
    proc = start(env, output)
    try:
        shell(env, SETUP)
        desk = Browser(base)
        desk.login("skranke", PASSWORD)
        status, page = desk.get("/desk/dm/?q=" + urllib.parse.quote(CHILD))
        assert status == 200 and CHILD in page  # the desk's search found her
        team_id = re.search(r"/desk/dm/teams/(\d+)/", page)[1]
        status, page = desk.get(f"/desk/dm/teams/{team_id}/")
        assert status == 200 and ADULT in page and EMAIL in page
        shell(env, DAY)
        desk.get("/desk/dm/?q=" + urllib.parse.quote(CHILD_EDITED))
        desk.get("/dm/")  # a periodic snapshot after a request, if one is due

        before = _markers_in(folder)
        # The markers were where a leak would be: the database, the snapshots, the log's
        # request lines (paths only: no query string was written).
        assert any(name.startswith("backups/") for name in before), before
        assert "var/hall-access.log" not in before, before
        assert "/desk/dm/" in (folder / "var" / "hall-access.log").read_text()
        assert _open_to_others(folder) == []

        erased = manage(env, "erase_personal_data", "dm", "--yes")
        assert "Erased" in erased.stdout
    finally:
        stop(proc)

    assert _markers_in(folder) == {}
    assert _open_to_others(folder) == []
    snapshots = sorted((folder / "backups").glob("*.sqlite3"))
    reasons = {re.sub(r"^[\d_-]+-|(-\d+)?\.sqlite3$", "", p.name) for p in snapshots}
    assert {"manual", "clock_stop", "final"} <= reasons, reasons

    for snapshot in snapshots:
        result = manage(env, "restore", str(snapshot), "--noinput", check=False)
        refused = result.returncode != 0
        assert refused or "restored" in result.stdout, result.stderr[-2000:]
        assert _markers_in(folder) == {}, (snapshot.name, "refused" if refused else "restored")
    assert _open_to_others(folder) == []
