/* The staff pages of the control room (room, team, judges, big screen's controls): the
 * clock's elapsed and remaining time ticking on the server's time, the confirmations, and
 * the missing-pieces picker of a correction saying the deduction as you pick (R8). The
 * pure parts are exported for the Node tests (tests/js/control_unit.mjs). */
import { fmt, hms } from "./format.mjs";
import { elapsedAt, readClock, remainingAt, serverTime } from "./clock.mjs";
import { setupConfirm } from "./confirm.mjs";

/* The room's two numbers at `now`, and whether the clock has ended (the page reloads then:
 * the server switches the room to counting). */
export function clockNumbers(clock, now) {
  return {
    elapsed: hms(elapsedAt(clock, now)),
    remaining: hms(remainingAt(clock, now)),
    over: now >= clock.end_ms,
  };
}

/* What the picker says: lone missing pieces are deducted (R8); a spot of 2 or more adjacent
 * ones is a production fault, said but not deducted. `d`: the page's texts. */
export function deductionText(lone, spots, d) {
  const n = Math.max(0, Math.floor(Number(lone)) || 0);
  const fault = spots.map((v) => Math.floor(Number(v)) || 0).filter((v) => v >= 2).reduce((a, b) => a + b, 0);
  let text = n === 0 ? d.tNone : n === 1 ? d.tOne : fmt(d.tMany, { n });
  if (fault) text += ` · ${fmt(d.tFault, { n: fault })}`;
  return text;
}

/* ---- the page ------------------------------------------------------------------------ */

function setupClock() {
  const box = document.getElementById("clock");
  const clock = readClock(box);
  if (!clock || clock.status !== "running" || !clock.started_at_ms || !clock.end_ms) return;
  const time = serverTime(box.dataset.timeUrl);
  const elapsed = box.querySelector("[data-role=elapsed]");
  const remaining = box.querySelector("[data-role=remaining]");
  const tick = () => {
    const shown = clockNumbers(clock, time.now());
    elapsed.textContent = shown.elapsed;
    remaining.textContent = shown.remaining;
    if (shown.over) {
      window.location.reload();
      return;
    }
    setTimeout(tick, 1000 - (Date.now() % 1000));
  };
  time.sync().then(tick); // the server's numbers stand until the time is known
}

/* A championship's control room: each competition's clock ticking on the server's time (one
 * timer for every row; the rows are read again on each tick, so the list's poll may swap
 * them). A clock that ends shows 0:00:00 until the poll brings the competition's new status. */
function setupClockRows() {
  const list = document.getElementById("championship-live");
  if (!list) return;
  const time = serverTime(list.dataset.timeUrl);
  const tick = () => {
    document.querySelectorAll("[data-clock-row]").forEach((row) => {
      const clock = readClock(row);
      if (!clock || clock.status !== "running" || !clock.started_at_ms || !clock.end_ms) return;
      const shown = clockNumbers(clock, time.now());
      row.querySelector("[data-role=elapsed]").textContent = shown.elapsed;
      row.querySelector("[data-role=remaining]").textContent = shown.remaining;
    });
    setTimeout(tick, 1000 - (Date.now() % 1000));
  };
  time.sync().then(tick); // the server's numbers stand until the time is known
}

/* The tablet's missing-pieces picker in corrections. */
function setupSpotPicker(box) {
  const lone = box.querySelector(".spot-lone input");
  const list = box.querySelector(".spot-adjacent-list");
  const add = box.querySelector("[data-add-spot]");
  const say = () => {
    const spots = [...list.querySelectorAll("input")].map((i) => i.value);
    box.querySelector("[data-deduct]").textContent = deductionText(lone.value, spots, box.dataset);
  };
  box.querySelectorAll("[data-step]").forEach((b) => {
    b.hidden = false;
    b.addEventListener("click", () => {
      lone.value = Math.max(0, (Math.floor(Number(lone.value)) || 0) + Number(b.dataset.step));
      say();
    });
  });
  add.hidden = false;
  add.addEventListener("click", () => {
    const inputs = list.querySelectorAll("input");
    let last = inputs[inputs.length - 1];
    if (last.value) {
      last = last.cloneNode();
      list.insertBefore(last, add);
    }
    last.value = 2;
    last.focus();
    say();
  });
  box.addEventListener("input", say);
}

if (typeof document !== "undefined") {
  setupClock();
  setupClockRows();
  setupConfirm();
  document.querySelectorAll("[data-spot-picker]").forEach(setupSpotPicker);
}
