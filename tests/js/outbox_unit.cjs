// Unit tests of static/js/judge/outbox.mjs with injected storage, fetch, clock and timers.
// Run by test_judge_page_outbox.py: node --test tests/js/outbox_unit.cjs
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const { pathToFileURL } = require("node:url");

// The outbox is ES modules (static/js/judge/): loaded once, before the tests run.
let JudgeOutbox;
test.before(async () => {
  const load = (name) => import(pathToFileURL(path.join(__dirname, "../../static/js/judge", name)).href);
  const [outbox, device, clock] = await Promise.all([load("outbox.mjs"), load("device.mjs"), load("clock.mjs")]);
  JudgeOutbox = { ...outbox, ...device, clockOffset: clock.clockOffset };
});

function memoryStorage() {
  const data = new Map();
  return {
    getItem: (k) => (data.has(k) ? data.get(k) : null),
    setItem: (k, v) => data.set(k, String(v)),
    removeItem: (k) => data.delete(k),
    key: (i) => Array.from(data.keys())[i] ?? null,
    get length() {
      return data.size;
    },
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
    calls.push({ url, init, body: init.body ? JSON.parse(init.body) : null, stored: storage.getItem("k") });
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
  const entry = await h.outbox.enqueue(finish(5, 1));
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
  const entry = await h.outbox.enqueue(finish(5, 1));
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
  const entry = await h.outbox.enqueue(finish(5, 1));
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
  for (let i = 0; i < 2000 && (h.calls.length < 3 || h.stored().length); i++) {
    await new Promise((r) => setTimeout(r, 5));
  }
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

test("navigator.locks: one lock for every change of the list, another for the flusher", async () => {
  const names = [];
  const locks = {
    request: async (name, options, fn) => {
      assert.equal(options.mode, "exclusive");
      names.push(name);
      return fn();
    },
  };
  const h = harness([response(201, { id: 1 })], { locks });
  await h.outbox.enqueue(finish(5, 1));
  await settle();
  // enqueue, the flusher, its claim of the entry, the entry's removal, nothing more to claim
  assert.deepEqual(names, ["k", "k#flush", "k", "k", "k"]);
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
  const entry = await h.outbox.enqueue(warning(7, "Larm"));
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

// ---- two tabs, a full storage, undo, another judge -------------------------------------

/* localStorage as a browser shares it between tabs: one backing store, a copy per tab, and
 * another tab's write reaching this tab's copy only after `lag` ms (in order). */
function sharedStorage(lag) {
  const backing = new Map();
  const tabs = [];
  return function tab() {
    const copy = new Map(backing);
    const t = {
      copy,
      getItem: (k) => (copy.has(k) ? copy.get(k) : null),
      setItem(k, v) {
        copy.set(k, String(v));
        backing.set(k, String(v));
        for (const other of tabs) if (other !== t) setTimeout(() => other.copy.set(k, String(v)), lag);
      },
      removeItem(k) {
        copy.delete(k);
        backing.delete(k);
        for (const other of tabs) if (other !== t) setTimeout(() => other.copy.delete(k), lag);
      },
      backing: () => JSON.parse(backing.get("k") || "[]"),
    };
    tabs.push(t);
    return t;
  };
}

/* navigator.locks: exclusive locks by name, granted in the order requested. `idle(name)`
 * waits until nobody holds or waits for the lock. */
function lockManager() {
  const tails = new Map();
  return {
    request(name, options, fn) {
      const run = (tails.get(name) || Promise.resolve()).then(() => fn());
      tails.set(name, run.catch(() => {}));
      return run;
    },
    async idle(name) {
      let tail;
      do {
        tail = tails.get(name);
        await tail;
        await new Promise((r) => setTimeout(r, 0));
      } while (tails.get(name) !== tail);
    },
  };
}

/* The server: the first arrival of a request_id creates, a later one replays. */
function server(delay) {
  const created = new Map();
  const arrivals = [];
  const fetch = (url, init) =>
    new Promise((resolve) =>
      setTimeout(() => {
        const id = JSON.parse(init.body).request_id;
        arrivals.push(id);
        const replay = created.has(id);
        if (!replay) created.set(id, url);
        resolve(response(replay ? 200 : 201, { id }));
      }, delay),
    );
  return { fetch, created, arrivals };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function tabOutbox(storage, fetch, locks, counter) {
  return JudgeOutbox.create({ storage, fetch, key: "k", locks, counter, random: () => 0 });
}

test("two tabs tapping at once: every tap reaches the server exactly once (defect 1)", async () => {
  const tab = sharedStorage(3);
  const locks = lockManager();
  const counter = { n: 0, get: async () => counter.n, set: async (n) => (counter.n = n) };
  const srv = server(1);
  const a = tabOutbox(tab(), srv.fetch, locks, counter);
  const b = tabOutbox(tab(), srv.fetch, locks, counter);
  const ids = [];
  for (let i = 0; i < 30; i++) {
    for (const [outbox, team] of [[a, 1], [b, 2]]) {
      outbox.enqueue(warning(team, `tap ${i}`)).then((e) => ids.push(e.request_id));
    }
    await sleep(i % 3);
  }
  for (let i = 0; i < 4000 && (srv.created.size < 60 || a.summary().total || b.summary().total); i++) {
    await sleep(5);
  }
  assert.equal(ids.length, 60);
  assert.equal(srv.created.size, 60, "every tap arrived");
  assert.deepEqual(new Set(srv.created.keys()), new Set(ids));
  assert.equal(srv.arrivals.length, 60, "and none twice");
  assert.equal(a.summary().total + b.summary().total, 0, "the pill says All sent in both");
});

test("the write counter is what makes the re-read inside the lock see the other tab's tap", async () => {
  const hang = () => new Promise(() => {}); // the network holds every request: taps just wait
  const run = async (counter) => {
    const tab = sharedStorage(20);
    const locks = lockManager();
    const one = tab();
    const a = JudgeOutbox.create({ storage: one, fetch: hang, key: "k", locks, counter });
    const b = JudgeOutbox.create({ storage: tab(), fetch: hang, key: "k", locks, counter });
    await a.enqueue(finish(1, 1));
    await b.enqueue(finish(2, 1)); // the lock is free at once; b's copy lacks a's tap for 20 ms
    await locks.idle("k");
    return one.backing().map((e) => e.team).sort();
  };
  const counter = { n: 0, get: async () => counter.n, set: async (n) => (counter.n = n) };
  assert.deepEqual(await run(counter), [1, 2]);
  // without it, a write from a stale copy overwrites the other tab's tap: defect 1
  assert.equal((await run(null)).length, 1);
});

/* A storage that refuses to grow beyond `room` characters, or refuses everything. */
function tightStorage(room) {
  const s = memoryStorage();
  const set = s.setItem;
  s.setItem = (k, v) => {
    if (String(v).length > room) {
      const e = new Error("The quota has been exceeded.");
      e.name = "QuotaExceededError";
      throw e;
    }
    set(k, v);
  };
  return s;
}

test("storage full: the tap is kept in memory, still sent, and reported as unsaved", async () => {
  const storage = tightStorage(5); // not even one entry fits
  const calls = [];
  let answer = null;
  const outbox = JudgeOutbox.create({
    storage,
    key: "k",
    fetch: async (url, init) => {
      calls.push(JSON.parse(init.body));
      if (!answer) throw new TypeError("offline");
      return answer;
    },
    setTimer: () => null,
    clearTimer() {},
  });
  const entry = await outbox.enqueue(finish(5, 1));
  await settle();
  assert.deepEqual(JSON.parse(storage.getItem("k") || "[]"), [], "nothing could be stored");
  assert.deepEqual(
    { total: outbox.summary().total, waiting: outbox.summary().waiting, unsaved: outbox.summary().unsaved },
    { total: 1, waiting: 1, unsaved: 1 },
  );
  assert.equal(calls.length, 1, "it was sent all the same");
  assert.equal(calls[0].request_id, entry.request_id);
  answer = response(201, { id: 1 });
  await outbox.sendNow();
  assert.equal(calls.length, 2);
  assert.deepEqual({ total: outbox.summary().total, unsaved: outbox.summary().unsaved }, { total: 0, unsaved: 0 });
});

test("storage full: the stored taps stay stored, only the new one is in memory", async () => {
  const offline = async () => {
    throw new TypeError("offline");
  };
  const storage = memoryStorage();
  const outbox = JudgeOutbox.create({ storage, key: "k", fetch: offline, setTimer: () => null, clearTimer() {} });
  await outbox.enqueue(finish(5, 1));
  await settle();
  const room = storage.getItem("k").length;
  const set = storage.setItem;
  storage.setItem = (k, v) => {
    if (String(v).length > room + 40) throw new Error("QuotaExceededError");
    set(k, v);
  };
  await outbox.enqueue(finish(6, 1));
  await settle();
  assert.deepEqual(JSON.parse(storage.getItem("k")).map((e) => e.team), [5]);
  assert.deepEqual(outbox.entries().map((e) => e.team), [5, 6]);
  assert.equal(outbox.summary().unsaved, 1);
});

test("storage unavailable (it throws on every call): taps live in memory and are sent", async () => {
  const broken = {
    getItem() {
      throw new Error("SecurityError");
    },
    setItem() {
      throw new Error("SecurityError");
    },
  };
  for (const storage of [broken, null]) {
    const srv = server(0);
    const outbox = JudgeOutbox.create({ storage, key: "k", fetch: srv.fetch });
    const entry = await outbox.enqueue(finish(5, 1));
    assert.equal(outbox.summary().unsaved, 1);
    for (let i = 0; i < 2000 && outbox.summary().total; i++) await sleep(5);
    assert.ok(srv.created.has(entry.request_id));
    assert.equal(outbox.summary().total, 0);
  }
});

const cancelOf = (e) => ({
  kind: "cancel",
  url: `/api/v1/competitions/dm/requests/${e.request_id}/cancel`,
  cancels: e.request_id,
  team: e.team,
  puzzle: e.puzzle,
});

test("undo of a tap never tried: taken off the tablet, never sent", async () => {
  let release;
  const h = harness([() => new Promise((r) => (release = r)), response(201, { id: 2 })]);
  await h.outbox.enqueue(finish(5, 1)); // being sent: the flusher is busy with it
  await settle();
  const waiting = await h.outbox.enqueue(finish(6, 1)); // waits behind it, never tried
  const result = await h.outbox.undo(waiting.request_id, cancelOf);
  assert.equal(result.outcome, "removed");
  release(response(201, { id: 1 }));
  await settle();
  await h.outbox.sendNow();
  assert.deepEqual(h.calls.map((c) => c.body.team), [5], "the undone tap never left");
  assert.deepEqual(h.stored(), []);
});

test("undo of a tap tried once: a cancel of its request_id goes through the outbox", async () => {
  const h = harness([
    new TypeError("connection reset"), // the answer was lost: it may be on the server
    new TypeError("offline"), // the cancel waits too
    response(200, { cancelled: "deleted" }),
  ]);
  const tap = await h.outbox.enqueue(finish(5, 1));
  await settle();
  const result = await h.outbox.undo(tap.request_id, cancelOf);
  assert.equal(result.outcome, "cancel");
  await settle();
  const [stored] = h.stored();
  assert.equal(stored.kind, "cancel");
  assert.equal(stored.state, "pending");
  assert.equal(h.events.done.length, 0, "not Undone before the server said so");
  await h.outbox.sendNow();
  assert.equal(h.calls.length, 3);
  assert.equal(h.calls[2].url, `/api/v1/competitions/dm/requests/${tap.request_id}/cancel`);
  assert.equal(h.calls[2].init.method, "POST");
  assert.deepEqual(h.calls[2].body, {}, "the request id is in the path");
  assert.deepEqual(h.stored(), []);
  assert.equal(h.events.done.length, 1);
  assert.equal(h.events.done[0][0].kind, "cancel");
  assert.deepEqual(h.events.done[0][1], { cancelled: "deleted" });
  assert.ok(h.calls.slice(1).every((c) => c.body.request_id !== tap.request_id), "the tap is not sent again");
});

test("undo while the tap is on its way: cancelled after its answer, which is not shown", async () => {
  let release;
  const h = harness([() => new Promise((r) => (release = r)), response(200, { cancelled: "deleted" })]);
  const tap = await h.outbox.enqueue(finish(5, 1));
  await settle();
  assert.equal(h.stored()[0].state, "sending");
  assert.equal((await h.outbox.undo(tap.request_id, cancelOf)).outcome, "cancel");
  release(response(201, { id: 1 })); // it did reach the server
  await settle();
  await settle();
  assert.deepEqual(h.calls.map((c) => c.url.endsWith("/cancel")), [false, true]);
  assert.deepEqual(h.events.done.map(([e]) => e.kind), ["cancel"], "the tap's own 201 is not a saved finish any more");
  assert.deepEqual(h.stored(), []);
});

test("undo of a tap already sent: gone (the page undoes the saved finish instead)", async () => {
  const h = harness([response(201, { id: 1 })]);
  const tap = await h.outbox.enqueue(finish(5, 1));
  await settle();
  assert.equal((await h.outbox.undo(tap.request_id, cancelOf)).outcome, "gone");
});

test("a 409 undone to a resend is done and shown to the judge", async () => {
  const detail = "Registreringen er fortrudt.";
  const h = harness([new TypeError("lost"), response(409, { code: "undone", detail })]);
  await h.outbox.enqueue(finish(5, 1));
  await settle();
  await h.outbox.sendNow();
  assert.deepEqual(h.stored(), []);
  assert.equal(h.events.message.length, 1);
  assert.equal(h.events.message[0][1].code, "undone");
  assert.equal(h.events.done.length, 0);
});

test("undo of a saved finish goes through the outbox: DELETE, 204 or 404 is done", async () => {
  for (const answer of [response(204), response(404, { detail: "Not found." })]) {
    const h = harness([new TypeError("offline"), answer]);
    await h.outbox.enqueue({ kind: "delete", method: "DELETE", url: "/api/v1/competitions/dm/finishes/17/", team: 5, puzzle: 1 });
    await settle();
    assert.equal(h.stored()[0].state, "pending", "offline: it waits");
    await h.outbox.sendNow();
    assert.equal(h.calls[1].init.method, "DELETE");
    assert.equal(h.calls[1].init.body, undefined);
    assert.deepEqual(h.stored(), [], `status ${answer.status}`);
    assert.equal(h.events.done.length, 1);
  }
});

test("another judge's waiting taps on this tablet are found, with the judge's name", () => {
  const storage = memoryStorage();
  const entries = (n, name) => JSON.stringify(Array.from({ length: n }, () => ({ by_name: name })));
  storage.setItem(JudgeOutbox.keyFor("dm", "mette"), entries(3, "Mette"));
  storage.setItem(JudgeOutbox.keyFor("dm", "lars"), entries(1, "Lars"));
  storage.setItem(JudgeOutbox.keyFor("dm", "ole"), "[]"); // all sent
  storage.setItem(JudgeOutbox.keyFor("dm", "lars") + "#seq", "4");
  storage.setItem(JudgeOutbox.keyFor("em", "mette"), entries(2, "Mette")); // another competition
  storage.setItem(JudgeOutbox.keyFor("dm", "kim"), entries(2, "Kim")); // the judge now logged in
  assert.deepEqual(JudgeOutbox.othersWaiting(storage, "dm", "kim"), [
    { user: "lars", name: "Lars", count: 1 },
    { user: "mette", name: "Mette", count: 3 },
  ]);
  assert.deepEqual(JudgeOutbox.othersWaiting(null, "dm", "kim"), []);
});

test("without navigator.locks one tab owns the outbox; the second stays out until it is gone", async () => {
  const storage = memoryStorage();
  let clock = 0;
  const now = () => clock;
  const first = JudgeOutbox.ownership({ storage, key: "k", id: "tab-1", now });
  const second = JudgeOutbox.ownership({ storage, key: "k", id: "tab-2", now });
  assert.equal(first.claim(), true);
  assert.equal(second.claim(), false);
  const srv = server(0);
  const outbox = JudgeOutbox.create({ storage, key: "k", fetch: srv.fetch, allowed: second.owns });
  await assert.rejects(outbox.enqueue(finish(5, 1)), /not_owner/);
  assert.deepEqual(JSON.parse(storage.getItem("k") || "[]"), [], "the second tab keeps nothing");
  clock = 5000;
  assert.equal(first.claim(), true, "renewed");
  clock = 14000;
  assert.equal(second.claim(), false, "still fresh");
  clock = 15001; // the first tab stopped renewing (closed, crashed)
  assert.equal(second.claim(), true);
  assert.equal(first.owns(), false);
  await outbox.enqueue(finish(5, 1));
  second.release();
  assert.equal(first.claim(), true, "a released claim is free at once");
});

test("a write counter ahead of storage (its copy lost) is waited for once, then healed", async () => {
  const storage = memoryStorage();
  const counter = { n: 7, get: async () => counter.n, set: async (n) => (counter.n = n) };
  let pauses = 0;
  const outbox = JudgeOutbox.create({
    storage,
    key: "k",
    fetch: async () => {
      throw new TypeError("offline");
    },
    locks: lockManager(),
    counter,
    pause: async () => (pauses += 1),
    setTimer: () => null,
    clearTimer() {},
  });
  await outbox.enqueue(finish(5, 1));
  assert.equal(pauses, 400, "gave up waiting after a bounded time");
  assert.equal(storage.getItem("k#seq"), "8");
  assert.equal(counter.n, 8);
  await outbox.enqueue(finish(6, 1));
  await settle();
  assert.equal(pauses, 400, "no more waiting");
  assert.deepEqual(outbox.entries().map((e) => e.team), [5, 6]);
});

test("a tap counts in the pill from the moment it is made, while it waits for the lock", async () => {
  let grant;
  const gate = new Promise((r) => (grant = r));
  const locks = { request: (name, options, fn) => gate.then(fn) };
  const storage = memoryStorage();
  const outbox = JudgeOutbox.create({ storage, key: "k", fetch: () => new Promise(() => {}), locks });
  const written = outbox.enqueue(finish(5, 1));
  assert.equal(storage.getItem("k"), null, "not written yet: another tab holds the lock");
  assert.deepEqual(
    { state: outbox.summary().state, waiting: outbox.summary().waiting, unsaved: outbox.summary().unsaved },
    { state: "pending", waiting: 1, unsaved: 0 },
  );
  grant();
  const entry = await written;
  assert.deepEqual(JSON.parse(storage.getItem("k")).map((e) => e.request_id), [entry.request_id]);
  assert.equal(outbox.summary().total, 1);
});

// The second, blind count: kind `confirm` through the outbox.
const confirmCount = (count, pieces) => ({
  kind: "confirm",
  url: `/api/v1/competitions/dm/counts/${count}/confirm`,
  body: { pieces },
  team: 4,
  table: 4,
  pieces,
});

test("a confirm waits offline and is resent with the same request_id until it is answered", async () => {
  const h = harness([new TypeError("offline"), response(200, { id: 9, confirmed: true })]);
  const entry = await h.outbox.enqueue(confirmCount(9, 420));
  await settle();
  assert.equal(h.stored()[0].kind, "confirm");
  assert.equal(h.outbox.summary().waiting, 1);
  await h.outbox.sendNow();
  assert.equal(h.calls.length, 2);
  for (const call of h.calls) {
    assert.equal(call.url, "/api/v1/competitions/dm/counts/9/confirm");
    assert.equal(call.init.method, "POST");
    assert.deepEqual(call.body, { pieces: 420, request_id: entry.request_id });
  }
  assert.deepEqual(h.stored(), []);
  assert.equal(h.events.done[0][0].kind, "confirm");
  assert.equal(h.events.done[0][1].confirmed, true);
});

test("a confirm answered 409 count_differs is done and told with both numbers, not retried", async () => {
  const detail = "Tællingerne er forskellige: 420 og 410 brikker.";
  const h = harness([response(409, { code: "count_differs", detail, first: 420, second: 410 })]);
  await h.outbox.enqueue(confirmCount(9, 410));
  await settle();
  assert.equal(h.calls.length, 1);
  assert.deepEqual(h.stored(), []);
  const [entry, data] = h.events.message[0];
  assert.equal(entry.kind, "confirm");
  assert.deepEqual([data.code, data.first, data.second], ["count_differs", 420, 410]);
  assert.equal(h.timers.length, 0, "no retry scheduled");
});

test("a correction of the count (kind recount) is a PATCH with its request_id", async () => {
  const h = harness([response(200, { id: 9, pieces: 430 })]);
  await h.outbox.enqueue({
    kind: "recount",
    method: "PATCH",
    url: "/api/v1/competitions/dm/counts/9/",
    body: { pieces: 430, reason: "Rettet" },
    pieces: 430,
  });
  await settle();
  assert.equal(h.calls[0].init.method, "PATCH");
  assert.equal(h.calls[0].body.pieces, 430);
  assert.equal(h.events.done[0][0].kind, "recount");
});
