// Unit tests of static/js/outbox.js with injected storage, fetch, clock and timers.
// Run by test_judge_page_outbox.py: node --test tests/judge_page/outbox_unit.cjs
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const JudgeOutbox = require(path.join(__dirname, "../../static/js/outbox.js"));

function memoryStorage() {
  const data = new Map();
  return {
    getItem: (k) => (data.has(k) ? data.get(k) : null),
    setItem: (k, v) => data.set(k, String(v)),
    removeItem: (k) => data.delete(k),
  };
}

function response(status, body, extra) {
  return Object.assign(
    {
      status,
      type: "basic",
      async json() {
        if (body === undefined) throw new SyntaxError("not JSON");
        return body;
      },
    },
    extra || {},
  );
}

// A harness: scripted answers, recorded calls, a fake clock and timers.
function harness(answers, opts) {
  const storage = memoryStorage();
  const calls = [];
  const timers = [];
  let clock = 1000;
  let token = "tok-1";
  const events = { done: [], message: [], confirm: [], attention: [] };
  const fetch = async (url, init) => {
    calls.push({ url, init, body: JSON.parse(init.body), stored: storage.getItem("k") });
    const next = answers.shift();
    if (typeof next === "function") return next(init);
    if (next instanceof Error) throw next;
    if (!next) throw new TypeError("Failed to fetch");
    return next;
  };
  const outbox = JudgeOutbox.create(
    Object.assign(
      {
        storage,
        fetch,
        key: "k",
        now: () => clock,
        csrf: () => token,
        random: () => 0.5,
        setTimer: (fn, ms) => {
          const t = { fn, ms };
          timers.push(t);
          return t;
        },
        clearTimer: (t) => {
          const i = timers.indexOf(t);
          if (i >= 0) timers.splice(i, 1);
        },
        on: {
          done: (e, d) => events.done.push([e, d]),
          message: (e, d) => events.message.push([e, d]),
          confirm: (e, d) => events.confirm.push([e, d]),
          attention: (e, d) => events.attention.push([e, d]),
        },
      },
      opts || {},
    ),
  );
  return {
    outbox,
    storage,
    calls,
    timers,
    events,
    tick: (ms) => (clock += ms),
    setToken: (t) => (token = t),
    stored: () => JSON.parse(storage.getItem("k") || "[]"),
  };
}

const finish = (team, puzzle) => ({
  kind: "finish",
  url: "/api/v1/competitions/dm/finishes/",
  body: { team, puzzle, missing: [], elapsed_seconds: 100 * puzzle },
  team,
  puzzle,
});
const warning = (team, reason) => ({
  kind: "warning",
  url: `/api/v1/competitions/dm/teams/${team}/warnings/`,
  body: { reason },
  team,
  reason,
});
const settle = () => new Promise((r) => setTimeout(r, 0));

test("the entry is in storage before the request is made, and removed on 201", async () => {
  const h = harness([response(201, { id: 1 })]);
  const entry = h.outbox.enqueue(finish(5, 1));
  await settle();
  assert.equal(h.calls.length, 1);
  const storedAtSend = JSON.parse(h.calls[0].stored);
  assert.equal(storedAtSend.length, 1);
  assert.equal(storedAtSend[0].request_id, entry.request_id);
  assert.equal(h.calls[0].body.request_id, entry.request_id);
  assert.equal(h.calls[0].init.redirect, "manual");
  assert.ok(h.calls[0].init.signal, "a timeout signal");
  assert.deepEqual(h.stored(), []);
  assert.equal(h.events.done.length, 1);
  assert.equal(h.outbox.summary().state, "ok");
});

test("the CSRF header is read at send time", async () => {
  const h = harness([new TypeError("offline"), response(201, { id: 1 })]);
  h.outbox.enqueue(finish(5, 1));
  await settle();
  assert.equal(h.calls[0].init.headers["X-CSRFToken"], "tok-1");
  h.setToken("tok-2");
  await h.outbox.sendNow();
  assert.equal(h.calls[1].init.headers["X-CSRFToken"], "tok-2");
});

test("a network error keeps the entry and retries with bounded backoff", async () => {
  const h = harness([new TypeError("offline"), new TypeError("offline"), response(200, { id: 1 })]);
  const entry = h.outbox.enqueue(finish(5, 1));
  await settle();
  let [stored] = h.stored();
  assert.equal(stored.state, "pending");
  assert.equal(stored.attempts, 1);
  assert.equal(stored.next_at - 1000, 1000); // random 0.5 * min(30 s, 2 s)
  assert.equal(h.outbox.summary().waiting, 1);
  // a flush before the backoff is over sends nothing
  await h.outbox.flush();
  assert.equal(h.calls.length, 1);
  h.tick(1000);
  await h.timers.pop().fn();
  await settle();
  [stored] = h.stored();
  assert.equal(stored.attempts, 2);
  assert.equal(stored.next_at - 2000, 2000); // 0.5 * 4 s
  h.tick(2000);
  await h.timers.pop().fn();
  await settle();
  assert.deepEqual(h.stored(), []);
  assert.equal(h.calls.length, 3);
  assert.ok(h.calls.every((c) => c.body.request_id === entry.request_id), "same id every time");
});

test("backoff never waits more than 30 s", () => {
  assert.equal(JudgeOutbox.backoff(20, () => 0.999999), 29999);
  assert.equal(JudgeOutbox.backoff(1, () => 0), 0);
});

test("5xx, 408, 429 and a non-JSON answer are retried", async () => {
  for (const answer of [response(503, { detail: "x" }), response(408, {}), response(429, {}), response(200)]) {
    const h = harness([answer]);
    h.outbox.enqueue(finish(5, 1));
    await settle();
    const [stored] = h.stored();
    assert.equal(stored.state, "pending", `status ${answer.status}`);
    assert.equal(stored.attempts, 1);
  }
});

test("a 409 is done and shown to the judge, not retried", async () => {
  const detail = "Allerede registreret af mette kl. 11:20:03.";
  const h = harness([response(409, { code: "already_finished", detail })]);
  h.outbox.enqueue(finish(12, 2));
  await settle();
  assert.deepEqual(h.stored(), []);
  assert.equal(h.events.message.length, 1);
  assert.equal(h.events.message[0][1].detail, detail);
});

test("409 implausible asks to confirm, then resends with confirm_implausible", async () => {
  const h = harness([
    response(409, { code: "implausible", detail: "Meget hurtigt" }),
    response(201, { id: 9 }),
  ]);
  const entry = h.outbox.enqueue(finish(5, 1));
  await settle();
  assert.equal(h.stored()[0].state, "confirm");
  assert.equal(h.events.confirm.length, 1);
  assert.equal(h.outbox.summary().attention, 1);
  h.outbox.confirm(entry.request_id);
  await settle();
  assert.equal(h.calls[1].body.confirm_implausible, true);
  assert.equal(h.calls[1].body.request_id, entry.request_id);
  assert.deepEqual(h.stored(), []);
});

test("400 needs attention and does not block the entries after it", async () => {
  const h = harness([response(400, { missing: ["Bad"] }), response(201, { id: 2 })]);
  h.outbox.enqueue(finish(5, 1));
  await settle();
  h.outbox.enqueue(finish(6, 1));
  await settle();
  const stored = h.stored();
  assert.equal(stored.length, 1);
  assert.equal(stored[0].state, "attention");
  assert.match(stored[0].message, /missing: Bad/);
  assert.equal(h.outbox.summary().state, "attention");
  assert.equal(h.calls.length, 2);
});

test("422 idempotency_conflict needs attention", async () => {
  const h = harness([response(422, { code: "idempotency_conflict", detail: "other body" })]);
  h.outbox.enqueue(finish(5, 1));
  await settle();
  assert.equal(h.stored()[0].state, "attention");
});

test("401, 403 and a redirect pause everything and drop nothing", async () => {
  for (const answer of [
    response(403, { detail: "CSRF" }),
    response(401, { detail: "login" }),
    response(0, undefined, { type: "opaqueredirect" }),
    response(302, undefined),
  ]) {
    const h = harness([new TypeError("offline"), answer]);
    h.outbox.enqueue(finish(5, 1));
    await settle();
    h.outbox.enqueue(finish(6, 1)); // flush: the first is in backoff, nothing sent
    await settle();
    await h.outbox.sendNow();
    const stored = h.stored();
    assert.equal(stored.length, 2, `status ${answer.status}`);
    assert.ok(stored.every((e) => e.state === "paused"));
    assert.equal(h.outbox.summary().state, "paused");
    assert.equal(h.outbox.summary().waiting, 2);
    assert.equal(h.calls.length, 2);
  }
});

test("paused entries are sent on the next flush after logging in again", async () => {
  const h = harness([response(403, { detail: "x" }), response(201, { id: 1 })]);
  h.outbox.enqueue(finish(5, 1));
  await settle();
  assert.equal(h.stored()[0].state, "paused");
  await h.outbox.flush();
  assert.deepEqual(h.stored(), []);
});

test("oldest first, one request at a time", async () => {
  let inFlight = 0;
  let most = 0;
  const slow = () =>
    new Promise((resolve) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        resolve(response(201, { id: 1 }));
      }, 5);
    });
  const h = harness([slow, slow, slow]);
  h.outbox.enqueue(finish(1, 1));
  h.outbox.enqueue(finish(2, 1));
  h.outbox.enqueue(finish(3, 1));
  h.outbox.flush();
  await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(h.calls.map((c) => c.body.team), [1, 2, 3]);
  assert.equal(most, 1);
  assert.deepEqual(h.stored(), []);
});

test("a stalled request is aborted after the timeout and retried", async () => {
  const h = harness([
    (init) =>
      new Promise((_, reject) => {
        init.signal.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
      }),
  ]);
  h.outbox.enqueue(finish(5, 1));
  await settle();
  const timeout = h.timers.find((t) => t.ms === 10000);
  assert.ok(timeout, "a 10 s timeout was set");
  timeout.fn();
  await settle();
  assert.equal(h.stored()[0].state, "pending");
  assert.equal(h.stored()[0].attempts, 1);
});

test("entries survive a new outbox (a reload) and are sent by it", async () => {
  const h = harness([new TypeError("offline")]);
  h.outbox.enqueue(finish(5, 1));
  await settle();
  const again = JudgeOutbox.create({
    storage: h.storage,
    key: "k",
    fetch: async () => response(201, { id: 1 }),
    setTimer: () => null,
    clearTimer: () => {},
  });
  assert.equal(again.summary().waiting, 1);
  await again.sendNow();
  assert.equal(again.summary().total, 0);
});

test("discard takes an unsent entry off, but not one being sent", async () => {
  let release;
  const h = harness([() => new Promise((r) => (release = r))]);
  const a = h.outbox.enqueue(finish(5, 1));
  await settle();
  assert.equal(h.outbox.discard(a.request_id), false);
  release(response(201, { id: 1 }));
  await settle();
  const h2 = harness([new TypeError("offline")]);
  const b = h2.outbox.enqueue(finish(5, 1));
  await settle();
  assert.equal(h2.outbox.discard(b.request_id), true);
  assert.deepEqual(h2.stored(), []);
});

test("navigator.locks is used when there is one", async () => {
  const names = [];
  const locks = { request: async (name, fn) => { names.push(name); return fn(); } };
  const h = harness([response(201, { id: 1 })], { locks });
  h.outbox.enqueue(finish(5, 1));
  await settle();
  assert.deepEqual(names, ["k"]);
});

test("uuid falls back to getRandomValues without randomUUID", () => {
  const id = JudgeOutbox.uuid({ getRandomValues: (b) => require("node:crypto").getRandomValues(b) });
  assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.match(JudgeOutbox.uuid(), /^[0-9a-f-]{36}$/);
});

test("clock offset: median of the 3 lowest round trips", () => {
  const s = (sent, rtt, trueOffset) => ({
    sent_ms: sent,
    received_ms: sent + rtt,
    server_ms: sent + rtt / 2 + trueOffset,
  });
  const result = JudgeOutbox.clockOffset([
    s(0, 400, 900), // slow: ignored
    s(500, 20, 100),
    s(600, 30, 110),
    s(700, 10, 90),
    s(800, 300, -500), // slow: ignored
  ]);
  assert.equal(result.offset_ms, 100);
  assert.equal(result.rtt_ms, 30);
});

test("a warning waits offline, counts as pending, and is sent with the same request_id", async () => {
  const h = harness([new TypeError("offline"), response(201, { id: 3, reason: "Larm" })]);
  const entry = h.outbox.enqueue(warning(7, "Larm"));
  await settle();
  const [stored] = h.stored();
  assert.equal(stored.kind, "warning");
  assert.equal(stored.reason, "Larm");
  assert.equal(stored.state, "pending");
  assert.deepEqual(
    { state: h.outbox.summary().state, waiting: h.outbox.summary().waiting },
    { state: "pending", waiting: 1 },
  );
  await h.outbox.sendNow();
  assert.equal(h.calls.length, 2);
  for (const call of h.calls) {
    assert.equal(call.url, "/api/v1/competitions/dm/teams/7/warnings/");
    assert.deepEqual(call.body, { reason: "Larm", request_id: entry.request_id });
  }
  assert.deepEqual(h.stored(), []);
  assert.equal(h.events.done.length, 1);
  assert.equal(h.events.done[0][0].kind, "warning");
  assert.equal(h.outbox.summary().state, "ok");
});

test("a warning follows the answer table: replay done, 409 told, 400 kept, 403 paused", async () => {
  const cases = [
    [response(200, { id: 3 }), (h) => assert.equal(h.events.done.length, 1), 0],
    [response(409, { code: "final", detail: "Endelige" }), (h) => assert.equal(h.events.message[0][1].code, "final"), 0],
    [response(400, { reason: ["Skriv en begrundelse."] }), (h) => assert.equal(h.stored()[0].state, "attention"), 1],
    [response(422, { code: "idempotency_conflict", detail: "x" }), (h) => assert.equal(h.stored()[0].state, "attention"), 1],
    [response(403, { detail: "login" }), (h) => assert.equal(h.stored()[0].state, "paused"), 1],
    [response(503, { detail: "x" }), (h) => assert.equal(h.stored()[0].attempts, 1), 1],
  ];
  for (const [answer, check, kept] of cases) {
    const h = harness([answer]);
    h.outbox.enqueue(warning(7, "Larm"));
    await settle();
    check(h);
    assert.equal(h.stored().length, kept, `status ${answer.status}`);
  }
});
