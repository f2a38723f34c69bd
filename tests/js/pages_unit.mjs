// Unit tests of the pure parts of the public, control room and desk pages' scripts
// (static/js/public.mjs, control.mjs, desk.mjs), imported as the ES modules the browser
// loads: without a document they wire nothing. Run by test_js_units.py.
import test from "node:test";
import assert from "node:assert/strict";
import { clockFace, followButton, matches, mirrorAge, pager, stageTurn, startCountdown } from "../../static/js/public.mjs";
import { clockNumbers, deductionText } from "../../static/js/control.mjs";
import { deadlineText, formRow } from "../../static/js/desk.mjs";

const START = 1_773_482_400_000;
const running = { status: "running", started_at_ms: START, end_ms: START + 3 * 3600_000, duration_s: 10800 };

test("public clock: counts down to the end, low in the last 5 minutes, still unless running", () => {
  assert.deepEqual(clockFace(running, START + 3600_000), { text: "2:00:00", low: false });
  assert.deepEqual(clockFace(running, running.end_ms - 299_500), { text: "0:05:00", low: true });
  assert.deepEqual(clockFace(running, running.end_ms + 5000), { text: "0:00:00", low: true });
  assert.equal(clockFace({ ...running, status: "stopped" }, START), null);
  assert.equal(clockFace({ status: "setup", started_at_ms: null, end_ms: null, duration_s: 10800 }, START), null);
  assert.equal(clockFace(null, START), null);
});

test("big screen's countdown to the start: h:mm:ss from an hour, m:ss closer, then the page's word", () => {
  assert.equal(startCountdown(START, START - 2 * 3600_000, "Nu"), "2:00:00");
  assert.equal(startCountdown(START, START - 3600_000, "Nu"), "1:00:00");
  assert.equal(startCountdown(START, START - 59 * 60_000 - 59_000, "Nu"), "59:59");
  assert.equal(startCountdown(START, START - 500, "Nu"), "00:01");
  assert.equal(startCountdown(START, START, "Nu"), "Nu");
});

test("big screen's pages: the rows the height holds, stretched when there are more pages", () => {
  assert.deepEqual(pager({ rows: 25, room: 500, rowHeight: 48, page: 0 }), {
    size: 10,
    pages: 3,
    page: 0,
    first: 0,
    last: 10,
    height: "50px",
  });
  const last = pager({ rows: 25, room: 500, rowHeight: 48, page: 2 });
  assert.deepEqual([last.first, last.last], [20, 30]);
  assert.equal(pager({ rows: 25, room: 500, rowHeight: 48, page: 3 }).page, 0); // wraps
  assert.deepEqual(pager({ rows: 8, room: 500, rowHeight: 48, page: 0 }).height, ""); // one page
  assert.equal(pager({ rows: 3, room: 10, rowHeight: 48, page: 0 }).size, 1); // at least a row
});

test("leaderboard filter: a part of the team's name, or exactly the table typed", () => {
  const row = { team: "Brikkerne Ærø", table: "7" };
  assert.ok(matches("", row));
  assert.ok(matches("  ærø ", row));
  assert.ok(matches("BRIK", row));
  assert.ok(matches("7", row));
  assert.ok(matches("07", row));
  assert.ok(!matches("17", row));
  assert.ok(!matches("x", row));
});

test("follow button: the star and the page's word, the team named for a screen reader", () => {
  const words = { follow: "Følg", following: "Følger" };
  assert.deepEqual(followButton(true, "Hold 1", words), { text: "★ Følger", label: "Følger: Hold 1", pressed: "true" });
  assert.deepEqual(followButton(false, "Hold 1", words), { text: "☆ Følg", label: "Følg: Hold 1", pressed: "false" });
});

test("control room clock: elapsed and remaining, over at the end", () => {
  assert.deepEqual(clockNumbers(running, START + 5400_500), { elapsed: "1:30:00", remaining: "1:29:59", over: false });
  assert.deepEqual(clockNumbers(running, running.end_ms + 1000), { elapsed: "3:00:00", remaining: "0:00:00", over: true });
});

test("correction's picker: lone pieces deducted (R8), spots of 2 or more said as a fault", () => {
  const d = { tNone: "Intet", tOne: "1 brik", tMany: "%(n)s brikker", tFault: "fejl: %(n)s" };
  assert.equal(deductionText("0", [""], d), "Intet");
  assert.equal(deductionText("1", [""], d), "1 brik");
  assert.equal(deductionText("3", ["2", "1", "4"], d), "3 brikker · fejl: 6");
  assert.equal(deductionText("-2", ["x"], d), "Intet");
  assert.equal(deductionText("2.7", [], d), "2 brikker");
});

test("desk: the check-in countdown in the page's words, none once it has passed", () => {
  const out = { prefix: "om", days: "dage", hours: "timer" };
  assert.equal(deadlineText(3 * 86400, out), "om 3 dage");
  assert.equal(deadlineText(7 * 3600, out), "om 7 timer");
  assert.equal(deadlineText(65, out), "om 0:01:05");
  assert.equal(deadlineText(0, out), null);
});

test("desk: a formset's empty form numbered", () => {
  assert.equal(formRow('<input name="members-__prefix__-name" id="id_members-__prefix__-name">', 4),
    '<input name="members-4-name" id="id_members-4-name">');
});

test("the mirror's age: seconds, then minutes and seconds, then hours and minutes", () => {
  const words = { second: "%(n)s sek.", minute: "%(n)s min.", hour: "%(n)s t." };
  assert.equal(mirrorAge(14, words), "14 sek.");
  assert.equal(mirrorAge(60, words), "1 min.");
  assert.equal(mirrorAge(75, words), "1 min. 15 sek.");
  assert.equal(mirrorAge(3600, words), "1 t.");
  assert.equal(mirrorAge(3725, words), "1 t. 2 min.");
});

test("championship's big screen: a turn shows the board's next page, then the next competition", () => {
  // Three pages of heat A: pages 2 and 3 first, then heat B from its first page.
  assert.deepEqual(stageTurn({ page: 0, pages: 3, showing: "heat-a", next: "heat-b" }), { page: 1, show: "heat-a" });
  assert.deepEqual(stageTurn({ page: 1, pages: 3, showing: "heat-a", next: "heat-b" }), { page: 2, show: "heat-a" });
  assert.deepEqual(stageTurn({ page: 2, pages: 3, showing: "heat-a", next: "heat-b" }), { page: 0, show: "heat-b" });
  // One page: straight on to the next; back to the first of two.
  assert.deepEqual(stageTurn({ page: 0, pages: 1, showing: "heat-b", next: "heat-a" }), { page: 0, show: "heat-a" });
  // Only one runs (no next, or the next is itself): its pages go round.
  assert.deepEqual(stageTurn({ page: 1, pages: 2, showing: "hold", next: "" }), { page: 0, show: "hold" });
  assert.deepEqual(stageTurn({ page: 0, pages: 1, showing: "hold", next: "hold" }), { page: 0, show: "hold" });
  // None runs (the programme): nothing to ask for but the programme again.
  assert.deepEqual(stageTurn({ page: 0, pages: 1, showing: "", next: "" }), { page: 0, show: "" });
});
