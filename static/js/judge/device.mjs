/* What the tablet shares between its tabs and its judges (docs/offline.md): the storage keys,
 * request ids, the outboxes of other judges on this tablet, which tab owns the outbox, and
 * a write counter that every tab sees alike. No DOM: tested in Node (tests/js). */

export const CLOCK_KEY = "judge-clock:v1";
export const DEVICE_KEY = "judge-device:v1";
export const tablesKey = (slug) => `judge-tables:v1:${slug}`;

export const PREFIX = "judge-outbox:v1:";

/* A v4 UUID: crypto.randomUUID exists only on HTTPS and localhost; a venue laptop on
 * plain http needs getRandomValues. */
export function uuid(c) {
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

/* The storage key of a judge's outbox in a competition. */
export function keyFor(slug, user) {
  return `${PREFIX}${slug}:${user}`;
}

export function readList(storage, key) {
  const list = JSON.parse(storage.getItem(key) || "[]");
  return Array.isArray(list) ? list : [];
}

/* Other judges' outboxes on this device (another judge logged in on the same tablet):
 * [{user, name, count}] for every other user of this competition with entries waiting;
 * they stay visible until that judge logs in and sends them (docs/offline.md). */
export function othersWaiting(storage, slug, user) {
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

/* othersWaiting of several competitions as one list: each judge once, their counts added. */
export function mergeOthers(lists) {
  const byUser = new Map();
  for (const o of lists.flat()) {
    const had = byUser.get(o.user);
    byUser.set(o.user, had ? Object.assign({}, had, { count: had.count + o.count }) : o);
  }
  return Array.from(byUser.values()).sort((a, b) => (a.user < b.user ? -1 : 1));
}

/* Without navigator.locks (a plain-http page: locks exist only in secure contexts) only
 * one tab may own the outbox: it renews a claim in storage every few seconds; another tab
 * that finds a fresh claim stays out and says so. A claim older than `staleMs` (the tab
 * was closed or crashed) is taken over. */
export function ownership(opts) {
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
export function idbCounter(idb, name) {
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
