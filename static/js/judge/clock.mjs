/* The clock, in step with the server (OFFLINE.md "Clock sync"): the offset to the server's
 * clock, the countdown, and each card's time since its last finish. */
import { fmt, hms } from "../format.mjs";
import { $, keep, refreshBoard } from "./page.mjs";
import { CLOCK_KEY } from "./device.mjs";

/* Clock sync: each sample {server_ms, sent_ms, received_ms}; offset = server + rtt/2 -
 * received; the median offset of the 3 samples with the lowest round trip. */
export function clockOffset(samples) {
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

export const serverNow = (state) => Date.now() + (state.sync ? state.sync.offset_ms : 0);

/* Seconds since the start, on the server's clock, never past the end. */
export function elapsedNow(state) {
  const clock = state.clock;
  if (!clock.started_at_ms) return 0;
  const t = Math.min(serverNow(state), clock.end_ms || Infinity);
  return Math.max(0, (t - clock.started_at_ms) / 1000);
}

/* The line under the countdown, its parts joined only when there is something to say:
 * "tid tilbage · 1:30:00 gået · afstemt med serveren ±40 ms"; before the start and before
 * the first sync it still reads as a sentence (issue 21 point 9). Pure. */
export function clockLine(T, { started, elapsed, sync }) {
  const parts = [T.time_remaining];
  if (started) parts.push(fmt(T.elapsed, { time: hms(elapsed) }));
  parts.push(sync ? fmt(T.clock_synced, { ms: Math.round(sync.rtt_ms / 2) }) : T.clock_not_synced);
  return parts.join(" · ");
}

export function setupClock({ cfg, state, store, w }) {
  const T = w.T;

  async function sync() {
    if (state.syncing) return;
    state.syncing = true;
    try {
      const samples = [];
      for (let i = 0; i < 8; i++) {
        const sent = Date.now();
        const res = await fetch(cfg.urls.time, { cache: "no-store", credentials: "omit" });
        const data = await res.json();
        samples.push({ server_ms: data.server_ms, sent_ms: sent, received_ms: Date.now() });
      }
      const result = clockOffset(samples);
      if (result) {
        state.sync = Object.assign(result, { synced_at: Date.now() });
        keep(store, CLOCK_KEY, state.sync);
      }
    } catch (e) {
      /* offline: keep the last offset */
    } finally {
      state.syncing = false;
      show();
    }
  }

  function show() {
    const clock = state.clock;
    const now = serverNow(state);
    const status = clock.status === "running" && now >= clock.end_ms ? "stopped" : clock.status;
    $("clock-status").textContent = T[`clock_${status}`] || "";
    document.body.dataset.clock = status;
    let remaining = clock.duration_s;
    if (clock.started_at_ms) remaining = Math.max(0, (clock.end_ms - now) / 1000);
    $("clock-time").textContent = hms(Math.ceil(remaining - 1e-9));
    $("clock-sub").textContent = clockLine(T, {
      started: !!clock.started_at_ms,
      elapsed: elapsedNow(state),
      sync: state.sync,
    });
    if (status === "stopped" && clock.status === "running" && !state.endRefreshed) {
      state.endRefreshed = true; // the server switches the cards to counting
      setTimeout(refreshBoard, 700);
    }
    document.querySelectorAll(".jcard").forEach((card) => {
      const out = card.querySelector('[data-role="since"]');
      if (out && card.dataset.effSince !== undefined) {
        out.textContent = hms(elapsedNow(state) - Number(card.dataset.effSince));
      }
    });
  }

  /* Ticks twice a second; syncs every 5 minutes and when the wall clock jumped (or the
   * tablet slept). */
  function start() {
    let lastTick = Date.now();
    setInterval(() => {
      const jump = Math.abs(Date.now() - lastTick - 500) > 5000;
      lastTick = Date.now();
      if (jump) sync();
      show();
    }, 500);
    setInterval(sync, 5 * 60 * 1000);
  }

  return { sync, show, start, now: () => serverNow(state) };
}
