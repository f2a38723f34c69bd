"""The judge's outbox at its edges (OFFLINE.md "Tests" 7 and 8, issue 11 defects 1 and 2):
two tabs of one judge lose no tap, and an undo after a lost answer is a cancel on the server."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from judging.models import Finish, Warning
from judging.services.finishes import finish_register
from tests.e2e.test_e2e_judge_outbox import card, open_board, wait_until
from tests.factories import TeamFactory

pytestmark = pytest.mark.e2e

# Taps through the page's own buttons and sheets (the code path a finger takes), fired from
# a timer loop inside the page so that both tabs tap at the same time.
TAPS = """
([tables, rounds, gap]) => {
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const card = (t) => document.querySelector(`.jcard[data-table="${t}"]`);
  window.__taps = (async () => {
    let n = 0;
    for (let round = 0; round < rounds; round++) {
      for (const t of tables) {
        if (round === 0) {
          card(t).querySelector('[data-action="finish"]').click();
          document.getElementById("finish-save").click();
        } else {
          card(t).querySelector('[data-action="warn"]').click();
          document.getElementById("warn-reason").value = `tap ${t}-${round}`;
          document.getElementById("warn-save").click();
        }
        n += 1;
        await sleep(gap);
      }
    }
    return n;
  })();
}
"""


@pytest.fixture
def eight_teams(transactional_db, competition, judge):
    """Eight teams, the clock started 150 minutes ago; tables 5-8 finished puzzle 1 at 0:30:00,
    so their taps are puzzle 2 (a plausible pace either way)."""
    competition.started_at = timezone.now() - timedelta(minutes=150)
    competition.save()
    teams = [TeamFactory(competition=competition, name=f"Hold {t}", table=t) for t in range(1, 9)]
    for team in teams[4:]:
        finish_register(team=team, position=1, by=judge, elapsed_seconds=1800)
    return competition


def sent_ids(page, into):
    def record(request):
        if request.method == "POST" and "/api/v1/competitions/" in request.url:
            into.append((request.url, (request.post_data_json or {}).get("request_id")))

    page.on("request", record)


def test_e2e_judge_two_tabs_lose_no_tap(context, live_server, login, judge, eight_teams, shot):
    """Case 7: two tabs of one judge on one tablet, 48 taps interleaved fast on both (a finish
    and five warnings per team): every tap reaches the server exactly once, and the pill is
    truthful in both tabs (defect 1: 5 of 120 vanished while it said "All sent")."""
    one = open_board(context.new_page(), live_server, login, judge, eight_teams)
    two = open_board(context.new_page(), live_server, login, judge, eight_teams)
    requests_one, requests_two = [], []
    sent_ids(one, requests_one)
    sent_ids(two, requests_two)
    rounds = 6
    one.evaluate(TAPS, [[1, 3, 5, 7], rounds, 15])
    two.evaluate(TAPS, [[2, 4, 6, 8], rounds, 15])
    assert one.evaluate("window.__taps") == 24
    assert two.evaluate("window.__taps") == 24
    for page in (one, two):
        expect(page.locator("#outbox-pill")).to_have_text("Alt sendt ✓", timeout=30000)
    shot(one, "tab-one")
    shot(two, "tab-two")
    ids = {rid for _, rid in requests_one + requests_two}
    assert len(ids) == 48, f"every tap was sent, but only {len(ids)} of 48 were"
    wait_until(one, lambda: Warning.objects.count() >= 40 and Finish.objects.count() >= 12)
    assert Warning.objects.count() == 40
    assert Finish.objects.count() == 4 + 8  # the four earlier finishes and the eight taps
    stored = {str(r) for r in Warning.objects.values_list("request_id", flat=True)}
    tapped = Finish.objects.exclude(request_id=None)
    stored |= {str(r) for r in tapped.values_list("request_id", flat=True)}
    assert stored == ids, "each tap arrived exactly once"
    for table in range(1, 9):
        expect(card(one, table).locator(".badge-bad")).to_have_text("⚠ 5")
    assert one.evaluate("localStorage.getItem('judge-outbox:v1:dm-2026:mette')") == "[]"
