/* The clock, in step with the server (docs/offline.md): the offset to the server's
 * clock, the countdown, and each card's time since its last finish. */
import { fmt, hms } from "../format.mjs";
import { clockOffset, countdownSeconds, measure, remainingAt, statusAt, elapsedAt } from "../clock.mjs";
import { $, keep, refreshBoard } from "./page.mjs";
import { CLOCK_KEY } from "./device.mjs";

/* The one server-time sync (../clock.mjs); re-exported for the outbox's Node tests. */
export { clockOffset };

export const serverNow = (state) => Date.now() + (state.sync ? state.sync.offset_ms : 0);

/* Seconds since the start of `clock`, on the server's clock, never past the end. */
export const elapsedNow = (state, clock) => elapsedAt(clock, serverNow(state));

/* A competition's clock in a few words, as a championship's tablet shows it on each card:
 * "0:42:10 left", or "Time is up". Pure. */
export function clockWords(T, clock, now) {
  const status = statusAt(clock, now);
  if (status === "running") return fmt(T.time_left, { time: hms(countdownSeconds(remainingAt(clock, now))) });
  return T[`clock_${status}`] || "";
}

/* The line under the countdown, its parts joined only when there is something to say:
 * "tid tilbage · 1:30:00 gået · afstemt med serveren ±40 ms"; before the start and before
 * the first sync it still reads as a sentence. Pure. */
export function clockLine(T, { started, elapsed, sync }) {
  const parts = [T.time_remaining];
  if (started) parts.push(fmt(T.elapsed, { time: hms(elapsed) }));
  parts.push(sync ? fmt(T.clock_synced, { ms: Math.round(sync.rtt_ms / 2) }) : T.clock_not_synced);
  return parts.join(" · ");
}

export function setupClock({ cfg, state, store, w, comps, clockOf }) {
  const T = w.T;

  async function sync() {
    if (state.syncing) return;
    state.syncing = true;
    try {
      const result = await measure(cfg.urls.time, { samples: 8 });
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

  /* The competition's page: its clock at the top. */
  function showTop(clock, now) {
    const status = statusAt(clock, now);
    $("clock-status").textContent = T[`clock_${status}`] || "";
    document.body.dataset.clock = status;
    $("clock-time").textContent = hms(countdownSeconds(remainingAt(clock, now)));
    $("clock-sub").textContent = clockLine(T, {
      started: !!clock.started_at_ms,
      elapsed: elapsedNow(state, clock),
      sync: state.sync,
    });
  }

  function show() {
    const now = serverNow(state);
    if ($("clock-time")) showTop(clockOf(comps.list[0]), now);
    // a championship's tablet: each competition's clock on the board
    document.querySelectorAll("[data-comp-clock]").forEach((el) => {
      const comp = comps.of(el.dataset.compClock);
      if (!comp) return;
      const clock = clockOf(comp);
      const status = statusAt(clock, now);
      el.dataset.status = status;
      el.querySelector('[data-role="status"]').textContent = T[`clock_${status}`] || "";
      // the time left while it runs (the whole duration before); nothing once time is up
      const time = status === "running" || status === "setup" ? hms(countdownSeconds(remainingAt(clock, now))) : "";
      el.querySelector('[data-role="time"]').textContent = time;
    });
    for (const comp of comps.list) {
      const clock = clockOf(comp);
      if (statusAt(clock, now) === "stopped" && clock.status === "running" && !state.endRefreshed[comp.slug]) {
        state.endRefreshed[comp.slug] = true; // the server switches the cards to counting
        setTimeout(refreshBoard, 700);
      }
    }
    document.querySelectorAll(".jcard").forEach((card) => {
      const comp = comps.of(card.dataset.competition);
      if (!comp) return;
      const clock = clockOf(comp);
      const out = card.querySelector('[data-role="since"]');
      if (out && card.dataset.effSince !== undefined) {
        out.textContent = hms(elapsedNow(state, clock) - Number(card.dataset.effSince));
      }
      const words = card.querySelector('[data-role="comp-clock"]');
      if (words) words.textContent = clockWords(T, clock, now);
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
