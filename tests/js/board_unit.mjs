// Unit tests of what the judge page lays over the server's cards (static/js/judge/board.mjs):
// the cards are the server's; taps still in the outbox move them on until the next swap.
// Run by test_js_units.py: node --test tests/js/board_unit.mjs
import test from "node:test";
import assert from "node:assert/strict";
import { cardView } from "../../static/js/judge/board.mjs";

const card = (over) => Object.assign({ finished: 1, since: 600, latestPosition: 1, counted: "" }, over);
const finish = (puzzle, seconds, extra) =>
  Object.assign({ kind: "finish", puzzle, elapsed_seconds: seconds, state: "pending" }, extra);

test("nothing waiting: the server's card as it is", () => {
  const v = cardView(card(), [], []);
  assert.deepEqual(
    { pos: v.pos, since: v.since, lastPos: v.lastPos, undoing: v.undoing },
    { pos: 2, since: 600, lastPos: 1, undoing: null },
  );
});

test("waiting finishes move the card on, one puzzle each, in order", () => {
  const taps = [finish(2, 1500), finish(3, 2400)];
  const v = cardView(card(), taps, taps);
  assert.equal(v.pos, 4);
  assert.equal(v.since, 2400);
  assert.equal(v.lastPos, 3);
});

test("a finish of another puzzle than the next one does not move the card", () => {
  const taps = [finish(3, 2400)];
  assert.equal(cardView(card(), taps, taps).pos, 2);
});

test("an undo of the latest finish moves it back, and is what the card waits for", () => {
  const undo = { kind: "cancel", cancels_kind: "finish", puzzle: 2, state: "pending" };
  const taps = [finish(2, 1500, { state: "sending" }), undo];
  const v = cardView(card(), taps, taps);
  assert.equal(v.pos, 2);
  assert.equal(v.lastPos, null);
  assert.equal(v.undoing, undo);
  assert.equal(v.undoWaiting, undo);
  const saved = { kind: "delete", puzzle: 1, state: "pending" };
  assert.equal(cardView(card(), [saved], [saved]).pos, 1);
});

test("asked or attention is not saved (a count waiting: count_unit.mjs)", () => {
  const asked = finish(2, 100, { state: "confirm" });
  assert.equal(cardView(card(), [asked], [asked]).asked, true);
  // answered taps (not waiting any more) still move the card until the next swap
  const done = finish(2, 1500, { state: "sending" });
  const v = cardView(card(), [done], []);
  assert.equal(v.pos, 3);
  assert.equal(v.asked, false);
});
