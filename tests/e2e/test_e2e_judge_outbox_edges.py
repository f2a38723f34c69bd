"""The judge's outbox at its edges (docs/offline.md "Tests"):
two tabs of one judge lose no tap, and an undo after a lost answer is a cancel on the server."""

import json
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from judging.models import Finish, Warning
from judging.services.finishes import finish_register
from tests.e2e.measure import press
from tests.e2e.test_e2e_judge_outbox import (
    API,
    back_online,
    card,
    open_board,
    tap_and_save,
    wait_until,
)
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
        url = request.url
        if request.method == "POST" and "/api/v1/competitions/" in url and "/tablets/" not in url:
            into.append((url, (request.post_data_json or {}).get("request_id")))

    page.on("request", record)


def test_e2e_judge_two_tabs_lose_no_tap(context, live_server, login, judge, eight_teams, shot):
    """Case 7: two tabs of one judge on one tablet, 48 taps interleaved fast on both (a finish
    and five warnings per team): every tap reaches the server exactly once, and the pill is
    truthful in both tabs (once 5 of 120 vanished while it said "All sent")."""
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


NO_LOCKS = "Object.defineProperty(Navigator.prototype, 'locks', { get: () => undefined });"


def test_e2e_judge_without_locks_the_second_tab_says_so(
    context, live_server, login, judge, running, shot
):
    """On the venue's plain http there is no navigator.locks: one tab owns the outbox, the
    second says so plainly and takes no tap, until the first is closed."""
    context.add_init_script(NO_LOCKS)
    one = open_board(context.new_page(), live_server, login, judge, running)
    assert one.evaluate("navigator.locks") is None
    two = open_board(context.new_page(), live_server, login, judge, running)
    banner = two.locator("#outbox-other-tab")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("Dommersiden er åben i en anden fane på denne tablet.")
    expect(one.locator("#outbox-other-tab")).to_be_hidden()
    shot(two, "second-tab")
    press(card(two, 1).locator('[data-action="finish"]'))
    expect(two.locator("#finish-sheet")).to_be_hidden()
    expect(two.locator("#judge-messages")).to_contain_text("Brug den fane (eller luk den)")
    tap_and_save(one, 2)
    expect(one.locator("#outbox-pill")).to_have_text("Alt sendt ✓")
    wait_until(one, lambda: Finish.objects.count() == 1)
    one.close()  # the owner is gone: the second tab takes over
    expect(banner).to_be_hidden(timeout=10000)
    tap_and_save(two, 1)
    expect(two.locator("#outbox-pill")).to_have_text("Alt sendt ✓")
    wait_until(two, lambda: Finish.objects.count() == 2)


def test_e2e_judge_another_judges_waiting_taps_stay_visible(
    page, live_server, login, judge, make_user, running, shot
):
    """Mette's taps wait offline; Lars logs in on the same tablet: he sees them, named, with
    the way to send them; when Mette logs in again they are sent."""
    open_board(page, live_server, login, judge, running)
    page.route(API, lambda route: route.abort("internetdisconnected"))
    for table in (1, 2, 3):
        tap_and_save(page, table)
    expect(page.locator("#outbox-pill")).to_have_text("Ikke sendt endnu: 3")
    lars = make_user("judge", "lars")
    login(page.context, lars)
    page.reload()
    others = page.locator("#others-waiting")
    expect(others).to_have_text(
        "3 registreringer fra mette venter: log ind som mette for at sende dem. Log ind som mette"
    )
    expect(page.locator("#outbox-pill")).to_have_text("Alt sendt ✓")  # Lars's own: none
    for table in (1, 2, 3):  # the cards show that something waits for them
        expect(card(page, table).locator('[data-role="dot"]')).to_be_visible()
    warn = card(page, 1).locator('[data-action="warn"]')
    warn.click()
    page.fill("#warn-reason", "Larm ved bordet")
    page.locator("#warn-save").click()
    expect(page.locator("#outbox-pill")).to_have_text("Ikke sendt endnu: 1")
    page.locator("#outbox-pill").click()
    expect(page.locator("#outbox-others li")).to_have_count(3)
    expect(page.locator("#outbox-others li").first).to_contain_text("mette · Bord 1 · Hold 1")
    page.locator("#outbox-sheet [data-close]").click()
    path = shot(page, "lars-sees-mettes-taps")
    assert path.exists()
    assert Finish.objects.count() == 0
    back_online(page)
    expect(page.locator("#outbox-pill")).to_have_text("Alt sendt ✓")
    expect(others).to_be_visible()  # still Mette's to send
    assert Finish.objects.count() == 0
    login(page.context, judge)
    page.reload()
    expect(page.locator("#outbox-pill")).to_have_text("Alt sendt ✓")
    wait_until(page, lambda: Finish.objects.count() == 3)
    expect(others).to_be_hidden()


def test_e2e_judge_full_storage_is_said_plainly_and_the_tap_still_sent(
    page, live_server, login, judge, running, shot
):
    """localStorage refuses the outbox (full): the tap is kept in the page, sent all the
    same, and the judge is told that a reload would lose it until then."""
    page.add_init_script(
        """
        const setItem = Storage.prototype.setItem;
        Storage.prototype.setItem = function (key, value) {
          if (String(key).startsWith("judge-outbox:")) {
            throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
          }
          return setItem.call(this, key, value);
        };
        """
    )
    open_board(page, live_server, login, judge, running)
    page.route(API, lambda route: route.abort("internetdisconnected"))
    tap_and_save(page, 1)
    unsaved = page.locator("#outbox-unsaved")
    expect(unsaved).to_have_text(
        "1 registrering findes kun i denne side: tabletten kan ikke gemme den. "
        "En genindlæsning ville miste den; hold siden åben, til den er sendt."
    )
    expect(page.locator("#outbox-pill")).to_have_text("Ikke sendt endnu: 1")
    shot(page, "unsaved")
    back_online(page)
    expect(page.locator("#outbox-pill")).to_have_text("Alt sendt ✓")
    expect(unsaved).to_be_hidden()
    wait_until(page, lambda: Finish.objects.count() == 1)


def test_e2e_judge_undo_of_a_saved_finish_waits_offline_then_deletes(
    page, live_server, login, judge, running, teams, shot
):
    """The undo of a saved finish goes through the outbox: offline it waits (and says so),
    and "Fortrudt" comes when the server has deleted it."""
    finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=1800)
    open_board(page, live_server, login, judge, running)
    page.route(API, lambda route: route.abort("internetdisconnected"))
    press(card(page, 1).locator('[data-action="undo"]'))
    page.locator("#confirm-yes").click()
    messages = page.locator("#judge-messages")
    expect(messages).to_contain_text("Fortrydelsen af puslespil 1 ved bord 1 venter")
    expect(page.locator("#outbox-pill")).to_have_text("Ikke sendt endnu: 1")
    expect(card(page, 1).locator('[data-role="pending"]')).to_have_text(
        "Fortrydelse af puslespil 1 venter på at blive sendt"
    )
    expect(card(page, 1).locator('[data-action="undo"]')).to_be_hidden()
    shot(page, "undo-waiting")
    assert Finish.objects.count() == 1
    expect(messages).not_to_contain_text("Fortrudt: puslespil")
    back_online(page)
    expect(messages).to_contain_text("Fortrudt: puslespil 1 ved bord 1.")
    # "Fortrudt" on the card too, and "it waits" is gone once untrue
    expect(card(page, 1).locator('[data-role="saved"]')).to_have_text(
        "Fortrudt: puslespil 1 ved bord 1."
    )
    expect(messages).not_to_contain_text("venter på at blive sendt")
    expect(page.locator("#outbox-pill")).to_have_text("Alt sendt ✓")
    wait_until(page, lambda: Finish.objects.count() == 0)
    expect(card(page, 1).locator('[data-role="puzzle"]')).to_have_text(
        "Puslespil 1 af 3 (500 brikker)"
    )


def resend(page, url, body):
    """A late copy of an old request (a retry the network held back), with the page's
    session and CSRF token."""
    token = page.evaluate("JSON.parse(document.body.getAttribute('hx-headers'))['X-CSRFToken']")
    return page.request.post(
        url,
        data=json.dumps(body),
        headers={"Content-Type": "application/json", "X-CSRFToken": token},
    )


def test_e2e_judge_lost_answer_then_undo_cancels_on_the_server(
    page, live_server, login, judge, running, shot
):
    """Case 8: the finish reached the server but its answer was lost; the judge
    undoes it: a cancel of its request_id goes through the outbox, "Fortrudt" comes with the
    server's answer, the finish is gone, and a late resend of the first request is refused
    `undone`."""
    open_board(page, live_server, login, judge, running)
    first = {}

    def lose_the_answer(route):
        if route.request.method == "POST" and not first:
            first.update(url=route.request.url, body=route.request.post_data_json)
            route.fetch()  # the server saves it ...
            route.abort("connectionreset")  # ... and the answer is lost
        else:
            route.abort("internetdisconnected")  # the retries do not get through

    page.route("**/finishes/", lose_the_answer)
    tap_and_save(page, 1)
    wait_until(page, lambda: Finish.objects.count() == 1)
    expect(page.locator("#outbox-pill")).to_have_text("Ikke sendt endnu: 1")
    press(card(page, 1).locator('[data-action="undo"]'))
    expect(page.locator("#confirm-text")).to_have_text(
        "Fortryd registreringen af puslespil 1 ved bord 1? Den kan allerede være nået frem til "
        "serveren; fortrydelsen sendes også dertil."
    )
    cancels = []
    page.on(
        "response",
        lambda r: cancels.append((r.url, r.status)) if r.url.endswith("/cancel") else None,
    )
    page.locator("#confirm-yes").click()
    messages = page.locator("#judge-messages")
    expect(messages).to_contain_text("Fortrudt: puslespil 1 ved bord 1.")
    expect(page.locator("#outbox-pill")).to_have_text("Alt sendt ✓")
    wait_until(page, lambda: Finish.objects.count() == 0)
    rid = first["body"]["request_id"]
    assert cancels == [
        (f"{live_server.url}/api/v1/competitions/{running.slug}/requests/{rid}/cancel", 200)
    ]
    expect(card(page, 1).locator('[data-role="puzzle"]')).to_have_text(
        "Puslespil 1 af 3 (500 brikker)"
    )
    shot(page, "undone")
    late = resend(page, first["url"], first["body"])
    assert late.status == 409
    assert late.json()["code"] == "undone"
    assert Finish.objects.count() == 0


def test_e2e_judge_undo_of_a_tap_that_never_arrived_is_a_cancel_too(
    page, live_server, login, judge, running, shot
):
    """A tap tried while the network was down may or may not have arrived; its undo waits
    as a cancel, says "Fortrudt" only when the server answers (`never_arrived`), and the
    request can never arrive afterwards."""
    open_board(page, live_server, login, judge, running)
    tapped = []
    page.on(
        "request",
        lambda r: (
            tapped.append((r.url, r.post_data_json)) if r.url.endswith("/finishes/") else None
        ),
    )
    page.route(API, lambda route: route.abort("internetdisconnected"))
    tap_and_save(page, 2)
    wait_until(page, lambda: len(tapped) >= 1)  # tried once
    press(card(page, 2).locator('[data-action="undo"]'))
    expect(page.locator("#confirm-text")).to_contain_text("Den kan allerede være nået frem")
    page.locator("#confirm-yes").click()
    messages = page.locator("#judge-messages")
    expect(messages).to_contain_text(
        "Fortrydelsen af puslespil 1 ved bord 2 venter på at blive sendt"
    )
    expect(page.locator("#outbox-pill")).to_have_text("Ikke sendt endnu: 1")
    expect(card(page, 2).locator('[data-role="pending"]')).to_have_text(
        "Fortrydelse af puslespil 1 venter på at blive sendt"
    )
    page.locator("#outbox-pill").click()
    expect(page.locator("#outbox-list")).to_contain_text(
        "Bord 2 · Hold 2 · Fortryd: puslespil 1 — venter"
    )
    shot(page, "cancel-waiting")
    page.locator("#outbox-sheet [data-close]").click()
    expect(messages).not_to_contain_text("Fortrudt: puslespil")
    back_online(page)
    expect(messages).to_contain_text("Fortrudt: puslespil 1 ved bord 2.")
    expect(page.locator("#outbox-pill")).to_have_text("Alt sendt ✓")
    url, body = tapped[0]
    late = resend(page, url, body)
    assert (late.status, late.json()["code"]) == (409, "undone")
    assert Finish.objects.count() == 0


def test_e2e_judge_deleting_a_tried_warning_from_the_outbox_cancels_it(
    page, live_server, login, judge, running
):
    """ "Slet registreringen" in the outbox's list follows the same rule as Undo: a warning that was
    tried is cancelled on the server, never just dropped on the tablet."""
    open_board(page, live_server, login, judge, running)
    tried = []
    page.on("request", lambda r: tried.append(r) if r.url.endswith("/warnings/") else None)
    page.route(API, lambda route: route.abort("internetdisconnected"))
    press(card(page, 1).locator('[data-action="warn"]'))
    page.fill("#warn-reason", "Larm")
    page.locator("#warn-save").click()
    wait_until(page, lambda: len(tried) >= 1)
    page.locator("#outbox-pill").click()
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    page.locator("#outbox-list").get_by_role("button", name="Slet registreringen").click()
    expect(page.locator("#outbox-list")).to_contain_text("Fortryd: advarslen (Larm) — venter")
    assert asked == [
        "Fortryd registreringen? Den kan allerede være nået frem til serveren; fortrydelsen "
        "sendes også dertil."
    ]
    page.locator("#outbox-sheet [data-close]").click()
    back_online(page)
    expect(page.locator("#judge-messages")).to_contain_text(
        "Fortrudt: advarslen (Larm) ved bord 1."
    )
    late = resend(page, tried[0].url, tried[0].post_data_json)
    assert (late.status, late.json()["code"]) == (409, "undone")
    assert Warning.objects.count() == 0
