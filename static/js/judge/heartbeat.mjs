/* The judge page's heartbeat (docs/contracts.md `tablets/heartbeat`). Every 15 s, and
 * whenever the outbox changes, the tablet tells the control room how it is: the taps still
 * waiting in its outbox (every judge's on this tablet, for this competition: a tap of a
 * judge who logged out still waits here), the oldest one's age, the clock sync, the app
 * version and a device id kept in localStorage. It only READS the storage that the outbox
 * and the clock write (device.mjs). Its own module: the control room hears from a tablet
 * even if the page's other scripts fail. */
import { csrf, readConfig } from "./page.mjs";
import { CLOCK_KEY, DEVICE_KEY, keyFor, tablesKey } from "./device.mjs";

const cfg = readConfig();
const EVERY_MS = 15000;
const TIMEOUT_MS = 8000;
const OUTBOX_PREFIX = keyFor(cfg.slug, "");

function read(key, fallback) {
  try {
    const value = JSON.parse(localStorage.getItem(key));
    return value === null ? fallback : value;
  } catch (e) {
    return fallback;
  }
}

/* A random id (crypto.randomUUID exists only on HTTPS and localhost: the hall is http). */
function deviceId() {
  let id = null;
  try {
    id = localStorage.getItem(DEVICE_KEY);
  } catch (e) {
    /* storage unavailable: a new id for this page */
  }
  if (!id || !/^[A-Za-z0-9_-]{8,64}$/.test(id)) {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    id = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    try {
      localStorage.setItem(DEVICE_KEY, id);
    } catch (e) {
      /* kept for this page only */
    }
  }
  return id;
}
const device = deviceId();

/* Every entry in an outbox has not reached the server yet (the outbox removes an entry
 * when the server has answered it), whatever its state. */
function waitingTaps(now) {
  let waiting = 0;
  let oldest = null;
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (!key || !key.startsWith(OUTBOX_PREFIX)) continue;
    const list = read(key, []);
    if (!Array.isArray(list)) continue;
    for (const entry of list) {
      waiting += 1;
      const at = Number((entry && (entry.created_ms || entry.tapped_at_ms)) || 0);
      if (at > 0 && (oldest === null || at < oldest)) oldest = at;
    }
  }
  const age = waiting && oldest !== null ? Math.max(0, Math.round((now - oldest) / 1000)) : null;
  return { waiting, oldest_waiting_seconds: age };
}

function tables() {
  const fromUrl = new URLSearchParams(location.search).getAll("t").map(Number);
  const list = fromUrl.length ? fromUrl : read(tablesKey(cfg.slug), []);
  return Array.isArray(list) ? list.map(Number).filter((n) => Number.isInteger(n) && n > 0) : [];
}

function report() {
  const now = Date.now();
  const sync = read(CLOCK_KEY, null) || {};
  const num = (v) => (Number.isFinite(Number(v)) && v !== null ? Math.round(Number(v)) : null);
  return Object.assign(
    {
      device_id: device,
      tables: tables(),
      clock_offset_ms: num(sync.offset_ms),
      clock_rtt_ms: num(sync.rtt_ms) === null ? null : Math.max(0, num(sync.rtt_ms)),
      version: String(cfg.version || ""),
    },
    waitingTaps(now),
  );
}

const beat = { busy: false, again: false, lastWaiting: null, soon: null };
async function send() {
  if (!cfg.urls.heartbeat) return;
  if (beat.busy) {
    beat.again = true;
    return;
  }
  beat.busy = true;
  const body = report();
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), TIMEOUT_MS);
  try {
    await fetch(cfg.urls.heartbeat, {
      method: "POST",
      credentials: "same-origin",
      redirect: "manual",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
      body: JSON.stringify(body),
      signal: abort.signal,
    });
    beat.lastWaiting = body.waiting;
  } catch (e) {
    /* offline: the next beat tries again */
  } finally {
    clearTimeout(timer);
    beat.busy = false;
  }
  if (beat.again) {
    beat.again = false;
    send();
  }
}

/* A change in the number of waiting taps is reported at once (an empty outbox unblocks
 * finalise), not only on the next beat. */
function changed() {
  clearTimeout(beat.soon);
  beat.soon = setTimeout(() => {
    if (waitingTaps(Date.now()).waiting !== beat.lastWaiting) send();
  }, 500);
}

window.JudgeHeartbeat = { report, send };
send();
setInterval(send, EVERY_MS);
window.addEventListener("online", send);
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") send();
});
document.body.addEventListener("outbox:changed", changed);
// the tables the judge chose reach the control room at once, not at the next beat
document.body.addEventListener("tables:changed", send);
window.addEventListener("storage", (ev) => {
  if (ev.key && ev.key.startsWith(OUTBOX_PREFIX)) changed();
});
