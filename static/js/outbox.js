/* The judge's outbox (OFFLINE.md): taps are written to storage BEFORE they are sent, one
 * flusher sends them oldest first, and nothing is dropped until the server has answered.
 * Pure logic: storage, fetch, the clock, timers and locks are injected, so it can be tested
 * without a browser (tests/judge_page/outbox_unit.cjs). */
(function (root, factory) {
  if (typeof module === "object" && module.exports) module.exports = factory();
  else root.JudgeOutbox = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

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

  const WAITING = new Set(["pending", "sending", "paused"]);

  function create(opts) {
    const storage = opts.storage;
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

    let running = false;
    let again = false;
    let timer = null;
    let inFlight = null; // the request_id being sent by this tab

    function load() {
      try {
        const list = JSON.parse(storage.getItem(key) || "[]");
        return Array.isArray(list) ? list : [];
      } catch (e) {
        return [];
      }
    }
    function save(list) {
      storage.setItem(key, JSON.stringify(list));
    }
    /* Read, change one entry (fn returns null to remove it), write: always from storage, so
     * another tab's entries are never overwritten. */
    function change(id, fn) {
      const list = load();
      const i = list.findIndex((e) => e.request_id === id);
      let result = null;
      if (i >= 0) {
        result = fn(list[i]);
        if (result === null) list.splice(i, 1);
        else list[i] = result;
        save(list);
      }
      on.change(summary());
      return result;
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
      return { state, waiting, paused, attention, total: list.length };
    }

    /* entry: {kind: finish|count|warning, url, body, ...whatever the page wants to
     * remember}. Written first; the body gets the entry's request_id. */
    function enqueue(entry) {
      const full = Object.assign({}, entry, {
        request_id: entry.request_id || uuid(opts.crypto),
        attempts: 0,
        state: "pending",
        next_at: 0,
        created_ms: now(),
        message: "",
      });
      full.body = Object.assign({}, entry.body, { request_id: full.request_id });
      const list = load();
      list.push(full);
      save(list);
      on.change(summary());
      flush();
      return full;
    }

    function schedule(delay) {
      if (timer !== null) clearTimer(timer);
      timer = setTimer(() => {
        timer = null;
        flush();
      }, Math.max(0, delay));
    }

    /* One flusher per device: navigator.locks across tabs, a flag inside this tab. */
    async function flush() {
      if (running) {
        again = true;
        return;
      }
      running = true;
      try {
        do {
          again = false;
          if (locks) await locks.request(key, drain);
          else await drain();
        } while (again);
      } finally {
        running = false;
      }
    }

    async function drain() {
      for (;;) {
        const entry = load().find((e) => WAITING.has(e.state));
        if (!entry) return;
        if (entry.state !== "paused" && entry.next_at > now()) {
          schedule(entry.next_at - now());
          return;
        }
        if ((await send(entry)) === "stop") return;
      }
    }

    function retry(entry, why) {
      change(entry.request_id, (e) =>
        Object.assign(e, {
          state: "pending",
          attempts: e.attempts + 1,
          next_at: now() + backoff(e.attempts + 1, random),
          message: why,
        }),
      );
      const fresh = load().find((e) => e.request_id === entry.request_id);
      if (fresh) schedule(fresh.next_at - now());
      return "stop";
    }

    async function send(entry) {
      inFlight = entry.request_id;
      change(entry.request_id, (e) => Object.assign(e, { state: "sending" }));
      const ctl = Abort ? new Abort() : null;
      const t = setTimer(() => ctl && ctl.abort(), timeoutMs);
      let res;
      let data = null;
      try {
        res = await fetchFn(entry.url, {
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            Accept: "application/json",
            "X-CSRFToken": csrf(),
          },
          body: JSON.stringify(entry.body),
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
      const status = res.status;
      if (res.type === "opaqueredirect" || (status >= 300 && status < 400) || status === 0 ||
          status === 401 || status === 403) {
        // Signed out (or a redirect to the login page): keep every entry, never drop one.
        const list = load().map((e) =>
          WAITING.has(e.state) ? Object.assign(e, { state: "paused" }) : e,
        );
        save(list);
        on.change(summary());
        return "stop";
      }
      const json = data !== null && typeof data === "object";
      if (status >= 200 && status < 300 && json) {
        change(entry.request_id, () => null);
        on.done(entry, data);
        return "next";
      }
      if (status === 409 && json && data.code) {
        if (data.code === "implausible") {
          const kept = change(entry.request_id, (e) =>
            Object.assign(e, { state: "confirm", message: data.detail || "" }),
          );
          on.confirm(kept || entry, data);
          return "next";
        }
        // The rules said no (a second judge's tap, the wrong puzzle ...): done, told.
        change(entry.request_id, () => null);
        on.message(entry, data);
        return "next";
      }
      if (!json || status === 408 || status === 429 || status >= 500) {
        return retry(entry, `http ${status}`);
      }
      // 400, 404, 422 ...: kept for the judge to look at; does not block the others.
      const kept = change(entry.request_id, (e) =>
        Object.assign(e, { state: "attention", message: describe(data) }),
      );
      on.attention(kept || entry, data);
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
    function confirm(id) {
      change(id, (e) =>
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

    /* Take an entry off the tablet (the judge's undo of an unsent tap, or a discarded
     * problem). Refused (false) while this tab is sending it. */
    function discard(id) {
      if (inFlight === id) return false;
      const list = load();
      if (!list.some((e) => e.request_id === id)) return false;
      change(id, () => null);
      return true;
    }

    /* "Send now": everything waiting is tried at once, backoff or not. */
    function sendNow() {
      const list = load().map((e) =>
        e.state === "pending" ? Object.assign(e, { next_at: 0 }) : e,
      );
      save(list);
      return flush();
    }

    return {
      enqueue,
      flush,
      sendNow,
      confirm,
      discard,
      summary,
      entries: load,
      key,
      isSending: (id) => inFlight === id,
    };
  }

  return { create, uuid, clockOffset, backoff };
});
