"""`make hall` (config/hall.py): the app as in production on the laptop, for the
hall's network. Started on a spare port; the tests talk to 127.0.0.1 only."""

import json
import re
import sqlite3
import threading

import pytest

from tests.project.hall.server import start_hall


@pytest.fixture(scope="module")
def hall(tmp_path_factory):
    yield from start_hall(tmp_path_factory.mktemp("hall"))


def test_it_serves_as_in_production_with_debug_off(hall):
    status, _headers, body = hall.request("/no-such-page/at-all/")
    assert status == 404
    assert b"URLconf" not in body and b"technical" not in body  # Django's debug page
    status, headers, body = hall.request("/accounts/login/")
    assert status == 200
    # DEBUG off: the manifest's hashed names, served by WhiteNoise.
    css = re.search(rb'href="(/static/css/app\.[0-9a-f]{12}\.css)"', body)
    assert css, body[:500]
    status, static_headers, _ = hall.request(css[1].decode())
    assert status == 200
    assert "max-age=315360000" in static_headers["Cache-Control"]
    # Plain http in the hall: no redirect to https, no HSTS, no secure-only cookie.
    assert "Strict-Transport-Security" not in headers
    assert "Secure" not in headers["Set-Cookie"]


def test_it_prints_the_addresses_and_qr_codes(hall):
    printed = hall.output.read_text()
    assert "http://" in printed
    assert "█" in printed  # a QR code drawn in the terminal
    assert "0.0.0.0:" in printed  # gunicorn on every interface


def test_only_the_laptops_own_names_are_accepted_as_host(hall):
    assert hall.request("/healthz", headers={"Host": "evil.example"})[0] == 400
    assert hall.request("/healthz", headers={"Host": "localhost"})[0] == 200


def test_sqlite_in_wal_mode_takes_many_writers_at_once(hall):
    """24 tables × 3 puzzles from 8 judges at the same moment: every finish is saved, none
    answers "database is locked"."""
    with sqlite3.connect(hall.db) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    status, _h, body = hall.request("/api/v1/competitions/hal/teams/")
    teams = sorted(json.loads(body), key=lambda t: t["table"])
    answers: list[tuple[int, bytes]] = []
    barrier = threading.Barrier(8)

    def judge(mine):
        barrier.wait()
        for puzzle in (1, 2, 3):
            for team in mine:
                status, _h, body = hall.request(
                    "/api/v1/competitions/hal/finishes/",
                    method="POST",
                    body={
                        "team": team["id"],
                        "puzzle": puzzle,
                        "elapsed_seconds": 600 * puzzle,
                        "confirm_implausible": True,
                    },
                    token="judge",
                )
                answers.append((status, body))

    threads = [threading.Thread(target=judge, args=(teams[i::8],)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [s for s, _b in answers] == [201] * 72, [b for s, b in answers if s != 201][:3]
    with sqlite3.connect(hall.db) as db:
        assert db.execute("SELECT count(*) FROM judging_finish").fetchone()[0] == 72


def test_a_clock_stop_takes_a_backup(hall):
    status, _h, _b = hall.request(
        "/api/v1/competitions/hal/clock/stop", method="POST", body={}, token="admin"
    )
    assert status == 200
    stops = list(hall.backups.glob("*-clock_stop.sqlite3"))
    assert len(stops) == 1
    with sqlite3.connect(stops[0]) as copy:
        assert copy.execute("SELECT stopped_at FROM competition_competition").fetchone()[0]
