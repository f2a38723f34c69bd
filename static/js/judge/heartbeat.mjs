/* The judge page's heartbeat (docs/contracts.md `tablets/heartbeat`). Every 15 s, and
 * whenever the outbox changes, the tablet tells the control room how it is: the taps still
 * waiting in its outbox (every judge's on this tablet, for this competition: a tap of a
 * judge who logged out still waits here), the oldest one's age, the clock sync, the app
 * version and a device id kept in localStorage. It only READS the storage that the outbox
 * and the clock write (device.mjs). Its own module: the control room hears from a tablet
 * even if the page's other scripts fail.
 *
 * A championship's tablet reports to each competition on its board, and to any other whose
 * outbox on this tablet holds a tap (or held one at its last report, until it reports 0):
 * a tap waiting for heat A blocks heat A's finalise, never heat B's. */
import { csrf, readConfig } from "./page.mjs";
import { CLOCK_KEY, DEVICE_KEY, keyFor, tablesKey } from "./device.mjs";
import { competitionsOf, heartbeatTargets } from "./competitions.mjs";

const cfg = readConfig();
const comps = competitionsOf(cfg);
const EVERY_MS = 15000;
const TIMEOUT_MS = 8000;

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
function waitingTaps(slug, now) {
  const prefix = keyFor(slug, "");
  let waiting = 0;
  let oldest = null;
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (!key || !key.startsWith(prefix) || key.includes("#")) continue;
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

/* What the tablet reports to the competition `slug`. */
function report(slug = comps[0].slug) {
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
    waitingTaps(slug, now),
  );
}

/* The competitions on the board now: a championship's cards say (their clocks), a
 * competition's page has its one. */
function onBoard() {
  const cards = document.getElementById("cards");
  if (!cards || !cards.dataset.clocks) return Array.isArray(cfg.competitions) ? [] : [comps[0].slug];
  try {
    return Object.keys(JSON.parse(cards.dataset.clocks) || {});
  } catch (e) {
    return [];
  }
}

function targets(now) {
  const waiting = Object.fromEntries(comps.map((c) => [c.slug, waitingTaps(c.slug, now).waiting]));
  return heartbeatTargets(comps.map((c) => c.slug), onBoard(), waiting, beat.lastWaiting);
}

const beat = { busy: false, again: false, lastWaiting: {}, soon: null };
async function post(comp) {
  const body = report(comp.slug);
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), TIMEOUT_MS);
  try {
    await fetch(comp.urls.heartbeat, {
      method: "POST",
      credentials: "same-origin",
      redirect: "manual",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
      body: JSON.stringify(body),
      signal: abort.signal,
    });
    beat.lastWaiting[comp.slug] = body.waiting;
  } catch (e) {
    /* offline: the next beat tries again */
  } finally {
    clearTimeout(timer);
  }
}

async function send() {
  if (beat.busy) {
    beat.again = true;
    return;
  }
  beat.busy = true;
  try {
    const slugs = targets(Date.now());
    await Promise.all(comps.filter((c) => slugs.includes(c.slug) && c.urls.heartbeat).map(post));
  } finally {
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
    const now = Date.now();
    if (comps.some((c) => waitingTaps(c.slug, now).waiting !== (beat.lastWaiting[c.slug] ?? null))) send();
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
  if (ev.key && comps.some((c) => ev.key.startsWith(keyFor(c.slug, "")))) changed();
});
