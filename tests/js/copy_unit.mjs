// Unit tests of the tablet's own copy of the judge's page (static/js/judge/copy.mjs): what the
// worker keeps on the first load, and when the page says its cards are a copy.
// Run by test_js_units.py: node --test tests/js/copy_unit.mjs
import test from "node:test";
import assert from "node:assert/strict";
import { cardsFrom, filesToKeep, timeOfDay } from "../../static/js/judge/copy.mjs";

const ORIGIN = "http://127.0.0.1:8000";
const PAGE = `${ORIGIN}/judge/dm-2026/?t=1-8`;

test("the first load keeps the page itself and its own static files, nothing else", () => {
  const resources = [
    `${ORIGIN}/static/css/judge.css`,
    `${ORIGIN}/static/js/judge/main.mjs`,
    `${ORIGIN}/static/fonts/inter.woff2`,
    `${ORIGIN}/static/js/judge/main.mjs`, // twice in the timeline: once kept
    `${ORIGIN}/api/v1/time`, // the clock's sync: never a copy
    `${ORIGIN}/judge/dm-2026/board/?t=1`, // the cards: kept by the worker as htmx asks for them
    "https://cdn.example.com/static/x.js", // another origin
  ];
  assert.deepEqual(filesToKeep(PAGE, resources, ORIGIN), [
    PAGE,
    `${ORIGIN}/static/css/judge.css`,
    `${ORIGIN}/static/js/judge/main.mjs`,
    `${ORIGIN}/static/fonts/inter.woff2`,
  ]);
});

test("the cards are the server's answer, the worker's copy, or what was shown before", () => {
  const start = { copy: false, at: 1000 };
  // the server answered: not a copy, as of now
  assert.deepEqual(cardsFrom(start, { status: 200 }, 5000), { copy: false, at: 5000 });
  // the worker answered with its copy: a copy, from when the server made it
  assert.deepEqual(cardsFrom(start, { status: 200, copyAt: 800 }, 5000), { copy: true, at: 800 });
  // no answer at all (offline, no copy): the cards shown stay, and they are no fresh answer
  assert.deepEqual(cardsFrom(start, { status: 0 }, 5000), { copy: true, at: 1000 });
  // an error answer from a server that is there: nothing changes
  assert.deepEqual(cardsFrom(start, { status: 500 }, 5000), start);
  // online again: the next answer clears it
  const copy = cardsFrom(start, { status: 0 }, 5000);
  assert.deepEqual(cardsFrom(copy, { status: 200 }, 9000), { copy: false, at: 9000 });
});

test("the copy's time of day is Danish time, h:mm:ss on a 24-hour clock", () => {
  // 2026-03-01 10:41:12 UTC is 11:41:12 in Copenhagen (winter time)
  assert.equal(timeOfDay(Date.UTC(2026, 2, 1, 10, 41, 12)), "11:41:12");
  // 2026-07-01 22:05:09 UTC is 00:05:09 in Copenhagen (summer time)
  assert.equal(timeOfDay(Date.UTC(2026, 6, 1, 22, 5, 9)), "00:05:09");
});
