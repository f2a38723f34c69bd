/* The outbox's list in storage (docs/offline.md), changed only under one exclusive lock that
 * re-reads the list inside it, so two tabs of one judge never overwrite each other's taps
 *. What storage cannot keep (full, unavailable) stays in this tab's
 * memory, laid over the stored list, and is reported as unsaved. */
import { readList } from "./device.mjs";

/* opts: storage, key, locks, counter (device.mjs idbCounter), pause, allowed (may this tab
 * change the outbox?), changed (called after every change, refused or not). */
export function lockedList(opts) {
  const storage = opts.storage || null;
  const key = opts.key;
  const locks = opts.locks || null;
  const allowed = opts.allowed || (() => true);
  const changed = opts.changed || (() => {});

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
      const changes = JSON.stringify(list) !== before || over.size > 0 || gone.size > 0;
      if (changes) write(list, stored);
      return { result, changes };
    };
    // Another tab's write may not have reached this tab's copy of storage yet (browsers
    // copy localStorage between tabs asynchronously, the lock does not wait for it): the
    // counter tells how many writes there were; wait until the copy has them all.
    const fresh = async () => {
      const seen = await caughtUp();
      const r = run();
      if (seen !== null && r.changes) await counted(seen + 1);
      return r;
    };
    const done = (r) => {
      changed();
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

  return {
    mutate,
    update,
    remove,
    load,
    /* a tap shown (and counted) while it waits for the lock */
    queue: (e) => queued.set(e.request_id, e),
    unqueue: (id) => queued.delete(id),
    isUnsaved: (id) => unsaved.has(id),
  };
}
