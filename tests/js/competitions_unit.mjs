// Unit tests of a championship's tablet (static/js/judge/competitions.mjs): one outbox per
// competition, under the key its own page uses, behind the one outbox's interface; and to
// which competitions the heartbeat reports.
// Run by test_js_units.py: node --test tests/js/competitions_unit.mjs
import test from "node:test";
import assert from "node:assert/strict";
import { combine, competitionsOf, heartbeatTargets, mergeSummaries, registry } from "../../static/js/judge/competitions.mjs";
import { create } from "../../static/js/judge/outbox.mjs";
import { keyFor, mergeOthers, othersWaiting } from "../../static/js/judge/device.mjs";

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

/* Two competitions' outboxes on one storage; the network is down until `online()`. */
function tablet() {
  const storage = memoryStorage();
  const calls = [];
  let up = false;
  let clock = 1000;
  const fetch = async (url, init) => {
    calls.push({ url, body: init.body ? JSON.parse(init.body) : null });
    if (!up) throw new TypeError("Failed to fetch");
    return { status: 201, type: "basic", json: async () => ({ id: calls.length }) };
  };
  const timers = [];
  const outbox = (slug) =>
    create({
      storage,
      fetch,
      key: keyFor(slug, "mette"),
      now: () => (clock += 1),
      random: () => 0,
      setTimer: (fn, ms) => {
        const t = { fn, ms };
        timers.push(t);
        return t;
      },
      clearTimer: (t) => {
        const i = timers.indexOf(t);
        if (i >= 0) timers.splice(i, 1);
      },
    });
  const both = combine({ "heat-a": outbox("heat-a"), par: outbox("par") });
  return {
    storage,
    calls,
    both,
    online() {
      up = true;
    },
  };
}

const stored = (storage, slug) => JSON.parse(storage.getItem(keyFor(slug, "mette")) || "[]");

const finish = (competition, team, url) => ({
  kind: "finish",
  competition,
  url,
  body: { team, puzzle: 1, missing: [], elapsed_seconds: 1800 },
  team,
  table: team,
  puzzle: 1,
  missing: [],
  elapsed_seconds: 1800,
});

test("a tap goes to its competition's outbox, under the key that competition's page uses", async () => {
  const t = tablet();
  await t.both.enqueue(finish("heat-a", 2, "/api/v1/competitions/heat-a/finishes/"));
  await t.both.enqueue(finish("par", 3, "/api/v1/competitions/par/finishes/"));
  assert.deepEqual(stored(t.storage, "heat-a").map((e) => e.team), [2]);
  assert.deepEqual(stored(t.storage, "par").map((e) => e.team), [3]);
  assert.deepEqual(t.both.entries().map((e) => [e.competition, e.team]), [["heat-a", 2], ["par", 3]]);
  const s = t.both.summary();
  assert.equal(s.state, "pending");
  assert.equal(s.waiting, 2);
  assert.equal(s.total, 2);
  await assert.rejects(t.both.enqueue(finish("nowhere", 9, "/x")), /no outbox/);
});

test("back online, each tap is sent once to its own competition, with its request id", async () => {
  const t = tablet();
  await t.both.enqueue(finish("heat-a", 2, "/api/v1/competitions/heat-a/finishes/"));
  await t.both.enqueue(finish("par", 3, "/api/v1/competitions/par/finishes/"));
  const ids = Object.fromEntries(t.both.entries().map((e) => [e.competition, e.request_id]));
  const tried = t.calls.length; // each tried once while offline
  t.online();
  await t.both.sendNow();
  const sent = t.calls.slice(tried);
  assert.deepEqual(
    sent.map((c) => [c.url, c.body.request_id]).sort(),
    [
      ["/api/v1/competitions/heat-a/finishes/", ids["heat-a"]],
      ["/api/v1/competitions/par/finishes/", ids.par],
    ],
  );
  // every try of a tap carried the same request id
  for (const c of t.calls) assert.equal(c.body.request_id, ids[c.url.includes("heat-a") ? "heat-a" : "par"]);
  assert.equal(t.both.summary().state, "ok");
  assert.deepEqual(t.both.entries(), []);
});

test("an undo goes to the outbox that holds the tap, and its cancel stays in that competition", async () => {
  const t = tablet();
  await t.both.enqueue(finish("par", 3, "/api/v1/competitions/par/finishes/"));
  const [tap] = t.both.entries();
  assert.ok(tap.tried || tap.attempts, "the tap was tried (it may have reached the server)");
  const result = await t.both.undo(tap.request_id, (x) => ({
    kind: "cancel",
    url: `/api/v1/competitions/${x.competition}/requests/${x.request_id}/cancel`,
    team: x.team,
  }));
  assert.equal(result.outcome, "cancel");
  const left = stored(t.storage, "par");
  assert.deepEqual(left.map((e) => [e.kind, e.competition, e.url]), [
    ["cancel", "par", `/api/v1/competitions/par/requests/${tap.request_id}/cancel`],
  ]);
  assert.deepEqual(stored(t.storage, "heat-a"), []);
  assert.deepEqual(await t.both.undo("no-such-id", () => ({})), { outcome: "gone" });
});

test("an entry written before its page knew of competitions is the only competition's", async () => {
  const t = tablet();
  const single = combine({ "heat-a": t.both.of("heat-a") });
  await single.enqueue(Object.assign(finish(undefined, 2, "/x"), { competition: undefined }));
  assert.deepEqual(single.entries().map((e) => e.competition), ["heat-a"]);
});

test("summaries add up; the most urgent state wins", () => {
  const ok = { state: "ok", waiting: 0, paused: 0, attention: 0, total: 0, unsaved: 0 };
  assert.equal(mergeSummaries([ok, ok]).state, "ok");
  assert.equal(mergeSummaries([ok, { ...ok, attention: 1, total: 1 }]).state, "attention");
  const merged = mergeSummaries([{ ...ok, waiting: 2, total: 2 }, { ...ok, paused: 1, total: 1 }]);
  assert.equal(merged.state, "paused");
  assert.equal(merged.total, 3);
});

test("the page's competitions: a competition's page has its one, a championship's every one", () => {
  const single = competitionsOf({ slug: "dm", clock: { status: "running" }, puzzles: [{ position: 1, pieces: 500 }], urls: { finishes: "/f/" } });
  assert.equal(single.length, 1);
  assert.equal(single[0].slug, "dm");
  assert.equal(single[0].puzzles.get(1).pieces, 500);
  const comps = registry(single);
  assert.equal(comps.of(undefined).slug, "dm"); // a card or entry without one
  const many = registry(
    competitionsOf({
      competitions: [
        { slug: "heat-a", puzzles: [{ position: 1, pieces: 500 }] },
        { slug: "par", puzzles: [] },
      ],
    }),
  );
  assert.equal(many.of("par").slug, "par");
  assert.equal(many.of(undefined), null); // several: an entry must say which
});

test("the heartbeat reports to the competitions on the board and to any with taps here", () => {
  const slugs = ["heat-a", "par", "finale"];
  assert.deepEqual(heartbeatTargets(slugs, ["heat-a", "par"], {}, {}), ["heat-a", "par"]);
  // a tap still waiting for a competition gone off the board: reported until it reports 0
  assert.deepEqual(heartbeatTargets(slugs, ["par"], { "heat-a": 1 }, {}), ["heat-a", "par"]);
  assert.deepEqual(heartbeatTargets(slugs, ["par"], { "heat-a": 0 }, { "heat-a": 1 }), ["heat-a", "par"]);
  assert.deepEqual(heartbeatTargets(slugs, ["par"], { "heat-a": 0 }, { "heat-a": 0 }), ["par"]);
});

test("another judge's waiting taps of several competitions: one line per judge", () => {
  const storage = memoryStorage();
  storage.setItem(keyFor("heat-a", "ole"), JSON.stringify([{ by_name: "Ole" }]));
  storage.setItem(keyFor("par", "ole"), JSON.stringify([{ by_name: "Ole" }, { by_name: "Ole" }]));
  storage.setItem(keyFor("par", "mette"), JSON.stringify([{ by_name: "Mette" }]));
  const merged = mergeOthers(["heat-a", "par"].map((slug) => othersWaiting(storage, slug, "mette")));
  assert.deepEqual(merged, [{ user: "ole", name: "Ole", count: 3 }]);
});
