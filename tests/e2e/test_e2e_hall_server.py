"""`make hall` in a browser: the judge page it serves on 127.0.0.1, a tap that
arrives, the tablet's heartbeat, and not one request that leaves the hall."""

import json
import sqlite3
import time

import pytest
from playwright.sync_api import expect

from tests.project.hall.server import start_hall

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def hall(tmp_path_factory):
    yield from start_hall(tmp_path_factory.mktemp("hall-e2e"))


def test_e2e_make_hall_serves_the_judge_page_and_a_tap_arrives(page, hall, shot):
    seen = []
    page.on("request", lambda r: seen.append(r.url))
    page.goto(f"{hall.url}/judge/hal/")  # anonymous: the login page first
    page.fill("input[name=username]", "dommer")
    page.fill("input[name=password]", "hall-judge-pw-1")
    page.locator("form button[type=submit], form input[type=submit]").last.click()
    expect(page.locator("#outbox-pill")).to_have_text("Alt sendt ✓")
    shot(page, "judge-page-from-make-hall")

    page.locator('.jcard[data-table="1"] [data-action="finish"]').click()
    page.locator("#finish-save").click()
    expect(page.locator("#outbox-pill")).to_have_text("Alt sendt ✓")

    deadline = time.monotonic() + 15
    while True:
        status, _h, body = hall.request("/api/v1/competitions/hal/finishes/", token="judge")
        finishes = json.loads(body)
        if finishes or time.monotonic() > deadline:
            break
        page.wait_for_timeout(200)  # wait-ok: the next look, bounded by the deadline
    assert status == 200
    assert [(f["table"], f["puzzle"], f["registered_by"]) for f in finishes] == [(1, 1, "dommer")]

    def tablets():
        with sqlite3.connect(hall.db) as db:
            return db.execute("SELECT device_id, waiting FROM judging_tablet").fetchall()

    deadline = time.monotonic() + 20  # the tablet's report of its empty outbox
    while [w for _d, w in tablets()] != [0] and time.monotonic() < deadline:
        page.wait_for_timeout(200)  # wait-ok: the next look, bounded by the deadline
    assert [w for _d, w in tablets()] == [0]

    away = [u for u in seen if not u.startswith((hall.url, "data:", "blob:"))]
    assert away == [], f"requests left the hall: {away}"
