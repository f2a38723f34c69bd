/* The competition clock on every page: the server's time, and the clock's numbers from the
 * page's JSON (competition/clock.py `Clock.page()`, in a `data-clock` attribute or the
 * tablet's config): {status, started_at_ms, end_ms, duration_s}, epoch milliseconds.
 *
 * One server-time sync for every page (docs/offline.md "Clock sync"): a few GETs of the
 * server's time; each sample {server_ms, sent_ms, received_ms}; offset = server + rtt/2 -
 * received; the median offset of the 3 samples with the lowest round trip. The tablet takes
 * 8 samples, the other pages 1. Everything but `measure` and `serverTime().sync` is pure:
 * tests/js/clock_unit.mjs imports it as it is. */

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

/* `samples` GETs of the time URL ({"server_ms": …}) -> {offset_ms, rtt_ms}, or null.
 * A failed request (offline) throws; the caller keeps its last offset. */
export async function measure(url, { samples = 1, fetch = globalThis.fetch } = {}) {
  const rows = [];
  for (let i = 0; i < samples; i++) {
    const sent = Date.now();
    const res = await fetch(url, { cache: "no-store", credentials: "omit" });
    const data = await res.json();
    rows.push({ server_ms: data.server_ms, sent_ms: sent, received_ms: Date.now() });
  }
  return clockOffset(rows);
}

/* The server's time on a page: `now()` is this device's time corrected by the last sync
 * (the device's own time until the first answers). */
export function serverTime(url, { samples = 1, fetch } = {}) {
  const time = {
    offset_ms: 0,
    synced: null,
    now: () => Date.now() + time.offset_ms,
    async sync() {
      try {
        const result = await measure(url, { samples, fetch });
        if (result) {
          time.offset_ms = result.offset_ms;
          time.synced = result;
        }
      } catch (e) {
        /* offline: keep the last offset */
      }
      return time.synced;
    },
  };
  return time;
}

/* The page's clock JSON from an element's data-clock attribute (null without one). */
export function readClock(el) {
  const raw = el && el.dataset ? el.dataset.clock : "";
  if (!raw) return null;
  try {
    return JSON.parse(raw);
  } catch (e) {
    return null;
  }
}

/* The status at `now`: a running clock whose end has passed reads "stopped" before the
 * server says so. */
export function statusAt(clock, now) {
  return clock.status === "running" && clock.end_ms && now >= clock.end_ms ? "stopped" : clock.status;
}

/* Seconds since the start on the clock (a fraction kept), never past the end; 0 before. */
export function elapsedAt(clock, now) {
  if (!clock.started_at_ms) return 0;
  const t = Math.min(now, clock.end_ms || Infinity);
  return Math.max(0, (t - clock.started_at_ms) / 1000);
}

/* Seconds left on the clock (a fraction kept): the whole duration before the start. */
export function remainingAt(clock, now) {
  if (!clock.started_at_ms) return clock.duration_s;
  return Math.max(0, (clock.end_ms - now) / 1000);
}

/* Whole seconds left as a countdown shows them: 0.2 s left is still "0:00:01". */
export const countdownSeconds = (seconds) => Math.max(0, Math.ceil(seconds - 1e-9));
