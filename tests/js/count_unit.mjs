// Unit tests of the count's one state on a judge's card (static/js/judge/count.mjs): the
// server's state, laid over only by a count still in the outbox or just answered; a
// "Not confirmed" kept on the card never beside a count the server says is confirmed.
// Run by test_js_units.py: node --test tests/js/count_unit.mjs
import test from "node:test";
import assert from "node:assert/strict";
import { countView, refusalHolds, aboutCount } from "../../static/js/judge/count.mjs";
import { refusalText } from "../../static/js/judge/board.mjs";
import { TEXTS } from "../../static/js/judge/texts.mjs";

const server = (state, countId = 7) => ({ state, countId: state === "missing" || state === "none" ? null : countId });
const entry = (kind, over) => Object.assign({ kind, team: 1, table: 1, pieces: 420, state: "pending", created_ms: 1 }, over);
const notConfirmed = (over) =>
  Object.assign({ team: 1, table: 1, kind: "confirm", count_id: 7, text: "Not confirmed: The two counts differ" }, over);

test("none: no count and nothing waiting is the server's state", () => {
  assert.deepEqual(countView(server("missing"), [], []), { state: "missing", entry: null, refusals: [] });
  assert.equal(countView(server("none"), [], []).state, "none");
  assert.equal(countView({}, [], []).state, "none"); // a card without the attribute
});

test("a count waiting in the outbox offline is pending, whatever the server's card says", () => {
  const count = entry("count");
  assert.deepEqual(countView(server("missing"), [count], [count]), { state: "pending", entry: count, refusals: [] });
  for (const state of ["paused", "sending", "attention"]) {
    const e = entry("count", { state });
    assert.equal(countView(server("missing"), [e], [e]).state, "pending", state);
  }
  // a second count waiting: pending too, over the server's "waits for a second count"
  const confirm = entry("confirm", { count_id: 7 });
  assert.equal(countView(server("waiting"), [confirm], [confirm]).state, "pending");
  const recount = entry("recount", { count_id: 7 });
  assert.equal(countView(server("waiting"), [recount], [recount]).entry, recount);
  // a finish or a warning waiting is no count
  const finish = entry("finish", { puzzle: 3 });
  assert.equal(countView(server("missing"), [finish], [finish]).state, "missing");
});

test("first count sent: answered, then the server's card says it waits for its second count", () => {
  const count = entry("count", { state: "sending" });
  // answered, before the board is fetched again: "sent", never the count button again
  assert.equal(countView(server("missing"), [count], []).state, "sent");
  // the board fetched again: the server's word
  assert.equal(countView(server("waiting"), [], []).state, "waiting");
});

test("confirmed by a second count: no 'Not confirmed' beside it, also after a reload", () => {
  const kept = [notConfirmed()];
  // while the counts differ, the refusal is true and stays
  assert.deepEqual(countView(server("differs"), [], [], kept).refusals, kept);
  assert.equal(countView(server("waiting"), [], [], kept).refusals.length, 1);
  // confirmed (an equal recount, or the head judge's correction in the control room): the
  // card's one word on the count is "confirmed"; the kept refusal is not shown. A reload
  // reads the same storage and the same server card: the same answer.
  const v = countView(server("done"), [], [], kept);
  assert.equal(v.state, "done");
  assert.deepEqual(v.refusals, []);
});

test("counts differ: the server's state, and the refusal that says so", () => {
  const kept = [notConfirmed()];
  const v = countView(server("differs"), [], [], kept);
  assert.equal(v.state, "differs");
  assert.equal(v.refusals.length, 1);
});

test("a refusal about a count that is gone, or another count, is not shown", () => {
  // the count was voided (a late finish) or replaced: the refusal was about the old one
  assert.equal(refusalHolds(notConfirmed(), server("missing")), false);
  assert.equal(refusalHolds(notConfirmed(), server("waiting", 8)), false);
  assert.equal(refusalHolds(notConfirmed({ count_id: null }), server("waiting", 8)), true);
});

test("other refusals stay until the judge dismisses them", () => {
  const finish = { team: 1, kind: "finish", text: "Not saved: …" };
  const count = { team: 1, kind: "count", text: "Not saved: Hold 1 has already been counted." };
  const old = { team: 1, text: "Not saved: …" }; // kept before refusals had a kind
  for (const r of [finish, count, old]) {
    assert.equal(refusalHolds(r, server("done")), true);
    assert.equal(refusalHolds(r, server("waiting")), true);
  }
});

test("a second count replayed after another judge confirmed says so, not 'Not confirmed'", () => {
  const confirm = entry("confirm", { count_id: 7 });
  const text = refusalText(TEXTS, confirm, { code: "already_confirmed", detail: "Hold 1's count is already confirmed." });
  assert.equal(text, "Table 1: the count was already confirmed.");
  assert.doesNotMatch(text, /Not confirmed/);
  const differs = refusalText(TEXTS, confirm, { code: "count_differs", detail: "The two counts differ: 420 and 410 pieces." });
  assert.equal(differs, "Not confirmed: The two counts differ: 420 and 410 pieces.");
});

test("the entries about a count: counts, second counts, corrections and their undo", () => {
  assert.equal(aboutCount(entry("count")), true);
  assert.equal(aboutCount(entry("confirm")), true);
  assert.equal(aboutCount(entry("recount")), true);
  assert.equal(aboutCount({ kind: "cancel", cancels_kind: "confirm" }), true);
  assert.equal(aboutCount({ kind: "cancel", cancels_kind: "finish" }), false);
  assert.equal(aboutCount(entry("warning")), false);
});
