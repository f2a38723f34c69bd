/* The judge's outbox (docs/offline.md): taps are written to storage BEFORE they are sent, one
 * flusher sends them oldest first, and nothing is dropped until the server has answered.
 * The list itself, under its lock, is outbox-list.mjs. Pure logic: storage, fetch, the
 * clock, timers and locks are injected, so it is tested without a browser
 * (tests/js/outbox_unit.cjs). */
import { lockedList } from "./outbox-list.mjs";
import { uuid } from "./device.mjs";

/* The wait before retry number `attempts`: random(0, min(30 s, 1 s * 2^attempts)). */
export function backoff(attempts, random) {
  return Math.floor((random || Math.random)() * Math.min(30000, 1000 * 2 ** attempts));
}

const WAITING = new Set(["pending", "sending", "paused"]);

/* Has the entry been tried (so it may have reached the server)? Only a pending entry
 * that no request ever carried has not. */
export function tried(e) {
  return !!(e.tried || e.attempts || e.state !== "pending");
}

export function create(opts) {
  const fetchFn = opts.fetch;
  const now = opts.now || (() => Date.now());
  const key = opts.key;
  const csrf = opts.csrf || (() => "");
  const random = opts.random || Math.random;
  const setTimer = opts.setTimer || ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = opts.clearTimer || ((t) => clearTimeout(t));
  const locks = opts.locks || null;
  const timeoutMs = opts.timeoutMs || 10000;
  const Abort = opts.AbortController || globalThis.AbortController;
  const on = Object.assign(
    { change() {}, done() {}, message() {}, confirm() {}, attention() {} },
    opts.on || {},
  );
  const { mutate, update, remove, load, queue, unqueue, isUnsaved } = lockedList({
    storage: opts.storage,
    key,
    locks,
    counter: opts.counter,
    pause: opts.pause,
    // Without locks: may this tab change the outbox? (device.mjs ownership().owns)
    allowed: opts.allowed,
    changed: () => on.change(summary()),
  });

  let running = false;
  let again = false;
  let timer = null;
  let inFlight = null; // the request_id being sent by this tab

  function summary() {
    const list = load();
    const paused = list.filter((e) => e.state === "paused").length;
    const attention = list.filter((e) => e.state === "attention" || e.state === "confirm").length;
    const waiting = list.filter((e) => WAITING.has(e.state)).length;
    let state = "ok";
    if (paused) state = "paused";
    else if (waiting) state = "pending";
    else if (attention) state = "attention";
    const notStored = list.filter((e) => isUnsaved(e.request_id)).length;
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
    queue(full);
    return mutate((list) => {
      unqueue(full.request_id);
      list.push(full);
      return full;
    })
      .finally(() => unqueue(full.request_id))
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

  /* What the answer means for the entry (docs/offline.md). An entry that is no longer
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

  /* The judge's undo of a waiting entry (docs/offline.md), decided inside the lock: never
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

