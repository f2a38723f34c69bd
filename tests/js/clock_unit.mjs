// Unit tests of static/js/clock.mjs, the one clock of every page's script: the server-time
// sync and the numbers read from the page's clock JSON (competition/clock.py Clock.page()).
// Run by test_js_units.py: node --test tests/js/clock_unit.mjs
import test from "node:test";
import assert from "node:assert/strict";
import {
  clockOffset,
  countdownSeconds,
  elapsedAt,
  measure,
  readClock,
  remainingAt,
  serverTime,
  statusAt,
} from "../../static/js/clock.mjs";

const START = 1_773_482_400_000; // 2026-03-14 10:00 UTC
const running = { status: "running", started_at_ms: START, end_ms: START + 3 * 3600_000, duration_s: 10800 };
const setup = { status: "setup", started_at_ms: null, end_ms: null, duration_s: 10800 };

test("clockOffset: the median offset of the 3 fastest samples, the slowest kept out", () => {
  const samples = [
    { server_ms: 1100, sent_ms: 1000, received_ms: 1020 }, // rtt 20, offset 1110 - 1020 = 90
    { server_ms: 2100, sent_ms: 2000, received_ms: 2010 }, // rtt 10, offset 100
    { server_ms: 3100, sent_ms: 3000, received_ms: 3030 }, // rtt 30, offset 85
    { server_ms: 9000, sent_ms: 4000, received_ms: 6000 }, // rtt 2000: left out
  ];
  assert.deepEqual(clockOffset(samples), { offset_ms: 90, rtt_ms: 30 });
  assert.equal(clockOffset([]), null);
});

test("one sample: the server's time less the midpoint of the request, as the public pages did", () => {
  assert.deepEqual(clockOffset([{ server_ms: 5000, sent_ms: 1000, received_ms: 1200 }]), {
    offset_ms: 5000 - 1100,
    rtt_ms: 200,
  });
});

test("measure asks the time URL as often as told, without cookies or a cache", async () => {
  const asked = [];
  const fetch = async (url, init) => {
    asked.push([url, init]);
    return { json: async () => ({ server_ms: Date.now() + 60_000 }) };
  };
  const result = await measure("/api/v1/time", { samples: 3, fetch });
  assert.equal(asked.length, 3);
  assert.deepEqual(asked[0], ["/api/v1/time", { cache: "no-store", credentials: "omit" }]);
  assert.ok(Math.abs(result.offset_ms - 60_000) < 1000, JSON.stringify(result));
});

test("serverTime: the device's time until a sync answers, then the server's; offline keeps it", async () => {
  let online = true;
  const fetch = async () => {
    if (!online) throw new TypeError("offline");
    return { json: async () => ({ server_ms: Date.now() - 30_000 }) };
  };
  const time = serverTime("/api/v1/time", { fetch });
  assert.equal(time.offset_ms, 0);
  assert.ok(Math.abs(time.now() - Date.now()) < 50);
  await time.sync();
  assert.ok(Math.abs(time.offset_ms + 30_000) < 1000);
  const kept = time.offset_ms;
  online = false;
  await time.sync();
  assert.equal(time.offset_ms, kept);
});

test("readClock: the page's data-clock JSON, null without a usable one", () => {
  assert.deepEqual(readClock({ dataset: { clock: JSON.stringify(running) } }), running);
  assert.equal(readClock({ dataset: {} }), null);
  assert.equal(readClock({ dataset: { clock: "{not json" } }), null);
  assert.equal(readClock(null), null);
});

test("before the start: nothing gone, the whole duration left", () => {
  assert.equal(statusAt(setup, START), "setup");
  assert.equal(elapsedAt(setup, START), 0);
  assert.equal(remainingAt(setup, START), 10800);
});

test("running: counted from the start, capped at the end, stopped once the end passes", () => {
  const now = START + 90 * 60_000 + 500;
  assert.equal(statusAt(running, now), "running");
  assert.equal(elapsedAt(running, now), 5400.5);
  assert.equal(remainingAt(running, now), 5399.5);
  const after = running.end_ms + 10_000;
  assert.equal(statusAt(running, after), "stopped");
  assert.equal(elapsedAt(running, after), 10800);
  assert.equal(remainingAt(running, after), 0);
  assert.equal(statusAt({ ...running, status: "final" }, after), "final");
});

test("countdownSeconds: a fraction left is still a second, never below zero", () => {
  assert.equal(countdownSeconds(0.2), 1);
  assert.equal(countdownSeconds(5), 5);
  assert.equal(countdownSeconds(5 + 1e-12), 5);
  assert.equal(countdownSeconds(-3), 0);
});
