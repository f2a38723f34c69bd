/* The judge's outbox (OFFLINE.md): taps are written to storage BEFORE they are sent, one
 * flusher sends them oldest first, and nothing is dropped until the server has answered.
 * Every change of the stored list (enqueue, a state, a removal) happens under one exclusive
 * lock and re-reads the list inside it, so two tabs of one judge never overwrite each
 * other's taps (issue 11, defect 1). A tap that storage cannot keep stays in memory, is
 * still sent, and is reported as `unsaved` (a reload would lose it).
 * Pure logic: storage, fetch, the clock, timers and locks are injected, so it can be tested
 * without a browser (tests/js/outbox_unit.cjs). */
(function (root, factory) {
  if (typeof module === "object" && module.exports) module.exports = factory();
  else root.JudgeOutbox = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  const PREFIX = "judge-outbox:v1:";

  /* A v4 UUID: crypto.randomUUID exists only on HTTPS and localhost; a venue laptop on
   * plain http needs getRandomValues. */
  function uuid(c) {
    c = c || globalThis.crypto;
    if (c && typeof c.randomUUID === "function") {
      try { return c.randomUUID(); } catch (e) { /* insecure context: fall through */ }
    }
    const b = new Uint8Array(16);
    c.getRandomValues(b);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }

  /* Clock sync: each sample {server_ms, sent_ms, received_ms}; offset = server + rtt/2 -
   * received; the median offset of the 3 samples with the lowest round trip. */
  function clockOffset(samples) {
    const rows = samples
      .map((s) => {
        const rtt = Math.max(0, s.received_ms - s.sent_ms);
        return { rtt, offset: s.server_ms + rtt / 2 - s.received_ms };
      })
      .sort((a, b) => a.rtt - b.rtt)
      .slice(0, 3);
    if (!rows.length) return null;
    const byOffset = rows.slice().sort((a, b) => a.offset - b.offset);
    const mid = byOffset[Math.floor((byOffset.length - 1) / 2)];
    return { offset_ms: Math.round(mid.offset), rtt_ms: Math.max(...rows.map((r) => r.rtt)) };
  }

  /* The wait before retry number `attempts`: random(0, min(30 s, 1 s * 2^attempts)). */
  function backoff(attempts, random) {
    return Math.floor((random || Math.random)() * Math.min(30000, 1000 * 2 ** attempts));
  }

  /* The storage key of a judge's outbox in a competition. */
  function keyFor(slug, user) {
    return `${PREFIX}${slug}:${user}`;
  }

  function readList(storage, key) {
    const list = JSON.parse(storage.getItem(key) || "[]");
    return Array.isArray(list) ? list : [];
  }

  /* Other judges' outboxes on this device (another judge logged in on the same tablet):
   * [{user, name, count}] for every other user of this competition with entries waiting;
   * they stay visible until that judge logs in and sends them (OFFLINE.md). */
  function othersWaiting(storage, slug, user) {
    const out = [];
    if (!storage) return out;
    const prefix = `${PREFIX}${slug}:`;
    try {
      for (let i = 0; i < storage.length; i++) {
        const k = storage.key(i);
        if (!k || !k.startsWith(prefix)) continue;
        const other = k.slice(prefix.length);
        if (!other || other === user || other.includes("#")) continue;
        let list;
        try {
          list = readList(storage, k);
        } catch (e) {
          continue;
        }
        if (!list.length) continue;
        const named = list.find((e) => e && e.by_name);
        out.push({ user: other, name: named ? named.by_name : other, count: list.length });
      }
    } catch (e) {
      return out; // storage unavailable: nothing to show
    }
    return out.sort((a, b) => (a.user < b.user ? -1 : 1));
  }

  /* Without navigator.locks (a plain-http page: locks exist only in secure contexts) only
   * one tab may own the outbox: it renews a claim in storage every few seconds; another tab
   * that finds a fresh claim stays out and says so. A claim older than `staleMs` (the tab
   * was closed or crashed) is taken over. */
  function ownership(opts) {
    const storage = opts.storage;
    const key = `${opts.key}#owner`;
    const id = opts.id;
    const now = opts.now || (() => Date.now());
    const staleMs = opts.staleMs || 10000;
    function read() {
      try {
        const v = JSON.parse(storage.getItem(key) || "null");
        return v && typeof v === "object" ? v : null;
      } catch (e) {
        return null;
      }
    }
    function mine() {
      if (!storage) return true;
      const v = read();
      return !v || v.id === id || now() - v.at > staleMs;
    }
    /* Claim or renew: true while this tab owns the outbox. */
    function claim() {
      if (!storage) return true; // no shared storage: no other tab shares this outbox
      if (!mine()) return false;
      try {
        storage.setItem(key, JSON.stringify({ id, at: now() }));
      } catch (e) {
        return true; // cannot write a claim: neither can another tab
      }
      const v = read();
      return !v || v.id === id;
    }
    function release() {
      try {
        const v = read();
        if (v && v.id === id) storage.removeItem(key);
      } catch (e) {
        /* nothing to release */
      }
    }
    function owns() {
      if (!storage) return true;
      const v = read();
      return !!v && v.id === id && now() - v.at <= staleMs;
    }
    return { claim, release, owns, key };
  }

  /* A counter in IndexedDB, whose transactions are consistent across tabs (localStorage's
   * copies in other tabs are not): {get, set} of the outbox's number of writes. */
  function idbCounter(idb, name) {
    if (!idb) return null;
    let opened = null;
    function db() {
      if (!opened) {
        opened = new Promise((resolve, reject) => {
          const req = idb.open("judge-outbox", 1);
          req.onupgradeneeded = () => req.result.createObjectStore("counters");
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => reject(req.error);
          req.onblocked = () => reject(new Error("blocked"));
        });
        opened.catch(() => (opened = null));
      }
      return opened;
    }
    function tx(mode, fn) {
      return db().then(
        (d) =>
          new Promise((resolve, reject) => {
            const t = d.transaction("counters", mode);
            let value;
            fn(t.objectStore("counters"), (v) => (value = v));
            t.oncomplete = () => resolve(value);
            t.onerror = t.onabort = () => reject(t.error);
          }),
      );
    }
    return {
      get: () =>
        tx("readonly", (store, out) => {
          const req = store.get(name);
          req.onsuccess = () => out(Number(req.result) || 0);
        }),
      set: (n) => tx("readwrite", (store) => store.put(n, name)),
    };
  }

  const WAITING = new Set(["pending", "sending", "paused"]);

  /* Has the entry been tried (so it may have reached the server)? Only a pending entry
   * that no request ever carried has not. */
  function tried(e) {
    return !!(e.tried || e.attempts || e.state !== "pending");
  }

  function create(opts) {
    const storage = opts.storage || null;
    const fetchFn = opts.fetch;
    const now = opts.now || (() => Date.now());
    const key = opts.key;
    const csrf = opts.csrf || (() => "");
    const random = opts.random || Math.random;
    const setTimer = opts.setTimer || ((fn, ms) => setTimeout(fn, ms));
    const clearTimer = opts.clearTimer || ((t) => clearTimeout(t));
    const locks = opts.locks || null;
    // Without locks: may this tab change the outbox? (ownership().owns)
    const allowed = opts.allowed || (() => true);
    const timeoutMs = opts.timeoutMs || 10000;
    const Abort = opts.AbortController || globalThis.AbortController;
    const on = Object.assign(
      { change() {}, done() {}, message() {}, confirm() {}, attention() {} },
      opts.on || {},
    );

    let running = false;
    let again = false;
    let timer = null;
    let inFlight = null; // the request_id being sent by this tab

    /* What storage could not keep: entries (new or changed) and removals, laid over the
     * stored list. `unsaved` are the ids of entries a failed write left only here. */
    let over = new Map();
    let gone = new Set();
    const unsaved = new Set();
    // taps waiting for the lock (a few ms): counted and shown already
    const queued = new Map();

    /* The write counter: in storage next to the list (written after it, so a copy that has
     * the counter has the list), and in `opts.counter` (IndexedDB: consistent across tabs). */
    const SEQ = `${key}#seq`;
    const counter = locks && storage ? opts.counter || null : null;
    const pause = opts.pause || ((ms) => new Promise((r) => setTimeout(r, ms)));
    function storedSeq() {
      try {
        return Number(storage.getItem(SEQ)) || 0;
      } catch (e) {
        return 0;
      }
    }
    /* Inside the lock: the number of writes so far, once this tab's copy has them all (or
     * null without a counter). Gives up waiting after a few seconds rather than block. */
    async function caughtUp() {
      if (!counter) return null;
      let want;
      try {
        want = await counter.get();
      } catch (e) {
        return null;
      }
      for (let i = 0; storedSeq() < want && i < 400; i++) await pause(5);
      return Math.max(want, storedSeq());
    }
    async function counted(seq) {
      try {
        storage.setItem(SEQ, String(seq));
        await counter.set(seq);
      } catch (e) {
        /* storage full or no IndexedDB: as without a counter */
      }
    }

    function readStored() {
      if (!storage) return [];
      try {
        return readList(storage, key);
      } catch (e) {
        return [];
      }
    }
    /* The list as this tab knows it: the stored one with what only memory holds (and, for
     * the judge's eyes, the taps about to be written). */
    function view(stored, withQueued) {
      const ids = new Set(stored.map((e) => e.request_id));
      const list = stored
        .filter((e) => !gone.has(e.request_id))
        .map((e) => (over.has(e.request_id) ? over.get(e.request_id) : e));
      for (const [id, e] of over) if (!ids.has(id)) list.push(e);
      if (withQueued) for (const [id, e] of queued) if (!ids.has(id) && !over.has(id)) list.push(e);
      return list;
    }
    function load() {
      return view(readStored(), true);
    }
    function tryWrite(list) {
      if (!storage) return false;
      try {
        storage.setItem(key, JSON.stringify(list));
        return true;
      } catch (e) {
        return false; // full (QuotaExceededError) or unavailable
      }
    }
    /* Write the list back; what does not fit stays in memory (and is reported). */
    function write(list, stored) {
      over = new Map();
      gone = new Set();
      unsaved.clear();
      if (tryWrite(list)) return;
      // Full: keep the stored entries up to date (a removal only shrinks it), new ones here.
      const before = new Set(stored.map((e) => e.request_id));
      const known = list.filter((e) => before.has(e.request_id));
      const fresh = list.filter((e) => !before.has(e.request_id));
      if (tryWrite(known)) {
        for (const e of fresh) over.set(e.request_id, e);
      } else {
        for (const e of list) over.set(e.request_id, e);
        for (const id of before) if (!list.some((e) => e.request_id === id)) gone.add(id);
      }
      for (const e of fresh) unsaved.add(e.request_id);
    }

    /* The one way to change the outbox: fn(list) changes the list read inside the lock
     * (splice, replace) and returns a result; the list is written back before the lock is
     * released. */
    function mutate(fn) {
      const run = () => {
        if (!allowed()) return { refused: true };
        const stored = readStored();
        const list = view(stored);
        const before = JSON.stringify(list);
        const result = fn(list);
        // unchanged: nothing to write, unless memory holds what storage could not keep
        const changed = JSON.stringify(list) !== before || over.size > 0 || gone.size > 0;
        if (changed) write(list, stored);
        return { result, changed };
      };
      // Another tab's write may not have reached this tab's copy of storage yet (browsers
      // copy localStorage between tabs asynchronously, the lock does not wait for it): the
      // counter tells how many writes there were; wait until the copy has them all.
      const fresh = async () => {
        const seen = await caughtUp();
        const r = run();
        if (seen !== null && r.changed) await counted(seen + 1);
        return r;
      };
      const done = (r) => {
        on.change(summary());
        if (r.refused) throw new Error("not_owner");
        return r.result;
      };
      if (locks) return locks.request(key, { mode: "exclusive" }, fresh).then(done);
      try {
        return Promise.resolve(done(run()));
      } catch (e) {
        return Promise.reject(e);
      }
    }
    /* Change one entry (null if it is no longer there) or take it off (the entry taken). */
    function update(id, fn) {
      return mutate((list) => {
        const i = list.findIndex((e) => e.request_id === id);
        if (i < 0) return null;
        list[i] = fn(Object.assign({}, list[i]));
        return list[i];
      });
    }
    function remove(id) {
      return mutate((list) => {
        const i = list.findIndex((e) => e.request_id === id);
        return i < 0 ? null : list.splice(i, 1)[0];
      });
    }

    function summary() {
      const list = load();
      const paused = list.filter((e) => e.state === "paused").length;
      const attention = list.filter((e) => e.state === "attention" || e.state === "confirm").length;
      const waiting = list.filter((e) => WAITING.has(e.state)).length;
      let state = "ok";
      if (paused) state = "paused";
      else if (waiting) state = "pending";
      else if (attention) state = "attention";
      const notStored = list.filter((e) => unsaved.has(e.request_id)).length;
      return { state, waiting, paused, attention, total: list.length, unsaved: notStored };
    }

    function fresh(entry) {
      const full = Object.assign({}, entry, {
        request_id: entry.request_id || uuid(opts.crypto),
        attempts: 0,
        tried: false,
        state: "pending",
        next_at: 0,
        created_ms: now(),
        message: "",
      });
      // the server knows a tap by its request_id; a cancel or a delete by its URL
      if (full.method === "DELETE") full.body = null;
      else if (full.kind === "cancel") full.body = Object.assign({}, entry.body);
      else full.body = Object.assign({}, entry.body, { request_id: full.request_id });
      return full;
    }

    /* entry: {kind: finish|count|confirm|recount|warning|cancel|delete, url, method?, body, ...whatever
     * the page wants to remember}. Written first (under the lock), then flushed. Resolves to
     * the stored entry; rejects (not_owner) in a tab that does not own the outbox. */
    function enqueue(entry) {
      const full = fresh(entry);
      queued.set(full.request_id, full);
      return mutate((list) => {
        queued.delete(full.request_id);
        list.push(full);
        return full;
      })
        .finally(() => queued.delete(full.request_id))
        .then((e) => {
          flush();
          return e;
        });
    }

    function schedule(delay) {
      if (timer !== null) clearTimer(timer);
      timer = setTimer(() => {
        timer = null;
        flush();
      }, Math.max(0, delay));
    }

    /* One flusher per device: navigator.locks across tabs (a lock of its own, so that a
     * tap is never kept waiting behind a slow request), a flag inside this tab. */
    async function flush() {
      if (running) {
        again = true;
        return;
      }
      running = true;
      try {
        do {
          again = false;
          if (locks) await locks.request(`${key}#flush`, { mode: "exclusive" }, drain);
          else await drain();
        } while (again);
      } catch (e) {
        /* not the owner: the owning tab sends them */
      } finally {
        running = false;
      }
    }

    /* Under the lock: the oldest waiting entry, marked as being sent (and tried: it may
     * reach the server from now on), or the time to wait for it. While this tab holds the
     * flusher's lock nothing else is sending, so a "sending" left by a closed tab is sent
     * again (the server answers a replay). */
    function claim() {
      return mutate((list) => {
        const i = list.findIndex((e) => WAITING.has(e.state));
        if (i < 0) return null;
        const e = list[i];
        if (e.state !== "paused" && e.next_at > now()) return { wait: e.next_at - now() };
        list[i] = Object.assign({}, e, { state: "sending", tried: true });
        return { entry: list[i] };
      });
    }

    async function drain() {
      for (;;) {
        const next = await claim();
        if (!next) return;
        if (next.wait !== undefined) {
          schedule(next.wait);
          return;
        }
        if ((await send(next.entry)) === "stop") return;
      }
    }

    async function retry(entry, why) {
      const kept = await update(entry.request_id, (e) =>
        Object.assign(e, {
          state: "pending",
          attempts: e.attempts + 1,
          next_at: now() + backoff(e.attempts + 1, random),
          message: why,
        }),
      );
      if (kept) schedule(kept.next_at - now());
      return "stop";
    }

    async function send(entry) {
      inFlight = entry.request_id;
      const ctl = Abort ? new Abort() : null;
      const t = setTimer(() => ctl && ctl.abort(), timeoutMs);
      const method = entry.method || "POST";
      let res;
      let data = null;
      try {
        res = await fetchFn(entry.url, {
          method,
          headers: {
            "Content-Type": "application/json",
            Accept: "application/json",
            "X-CSRFToken": csrf(),
          },
          body: entry.body ? JSON.stringify(entry.body) : undefined,
          credentials: "same-origin",
          redirect: "manual",
          cache: "no-store",
          signal: ctl ? ctl.signal : undefined,
        });
        try {
          data = await res.json();
        } catch (e) {
          data = null;
        }
      } catch (err) {
        clearTimer(t);
        inFlight = null;
        return retry(entry, "network");
      }
      clearTimer(t);
      inFlight = null;
      return settle(entry, res, data);
    }

    /* What the answer means for the entry (OFFLINE.md's table). An entry that is no longer
     * in the list was undone meanwhile: its cancel follows, nothing is said. */
    async function settle(entry, res, data) {
      const status = res.status;
      const id = entry.request_id;
      if (res.type === "opaqueredirect" || (status >= 300 && status < 400) || status === 0 ||
          status === 401 || status === 403) {
        // Signed out (or a redirect to the login page): keep every entry, never drop one.
        await mutate((list) => {
          list.forEach((e, i) => {
            if (WAITING.has(e.state)) list[i] = Object.assign({}, e, { state: "paused" });
          });
        });
        return "stop";
      }
      const json = data !== null && typeof data === "object";
      const gone404 = status === 404 && entry.method === "DELETE"; // deleted already
      if ((status >= 200 && status < 300 && (json || status === 204)) || gone404) {
        if (await remove(id)) on.done(entry, json ? data : null);
        return "next";
      }
      if (status === 409 && json && data.code) {
        if (data.code === "implausible") {
          const kept = await update(id, (e) =>
            Object.assign(e, { state: "confirm", message: data.detail || "" }),
          );
          if (kept) on.confirm(kept, data);
          return "next";
        }
        // The rules said no (a second judge's tap, the wrong puzzle, an undone request):
        // done, told.
        if (await remove(id)) on.message(entry, data);
        return "next";
      }
      if (!json || status === 408 || status === 429 || status >= 500) {
        return retry(entry, `http ${status}`);
      }
      // 400, 404, 422 ...: kept for the judge to look at; does not block the others.
      const kept = await update(id, (e) =>
        Object.assign(e, { state: "attention", message: describe(data) }),
      );
      if (kept) on.attention(kept, data);
      return "next";
    }
    function describe(data) {
      if (!data || typeof data !== "object") return "";
      if (typeof data.detail === "string") return data.detail;
      return Object.entries(data)
        .map(([field, errs]) => `${field}: ${[].concat(errs).join(" ")}`)
        .join("; ");
    }

    /* The judge confirmed an implausible pace: resend with confirm_implausible. */
    async function confirm(id) {
      await update(id, (e) =>
        Object.assign(e, {
          state: "pending",
          attempts: 0,
          next_at: 0,
          message: "",
          body: Object.assign({}, e.body, { confirm_implausible: true }),
        }),
      );
      flush();
    }

    /* The judge's undo of a waiting entry (OFFLINE.md), decided inside the lock: never
     * tried -> taken off the tablet ("removed"); tried once or more (it may have reached the
     * server) -> replaced by `cancel(entry)`, an entry that cancels its request_id on the
     * server ("cancel"); no longer waiting -> "gone" (it was just sent). */
    async function undo(id, cancel) {
      const result = await mutate((list) => {
        const i = list.findIndex((e) => e.request_id === id);
        if (i < 0) return { outcome: "gone" };
        const e = list[i];
        if (!tried(e)) {
          list.splice(i, 1);
          return { outcome: "removed", entry: e };
        }
        const c = fresh(cancel(e));
        list.splice(i, 1);
        list.push(c);
        return { outcome: "cancel", entry: c };
      });
      if (result.outcome === "cancel") flush();
      return result;
    }

    /* "Send now": everything waiting is tried at once, backoff or not. */
    async function sendNow() {
      try {
        await mutate((list) => {
          list.forEach((e, i) => {
            if (e.state === "pending") list[i] = Object.assign({}, e, { next_at: 0 });
          });
        });
      } catch (e) {
        return; // not the owner
      }
      return flush();
    }

    return {
      enqueue,
      flush,
      sendNow,
      confirm,
      undo,
      summary,
      entries: load,
      key,
      isSending: (id) => inFlight === id,
    };
  }

  return { create, uuid, clockOffset, backoff, keyFor, othersWaiting, ownership, tried, idbCounter };
});
