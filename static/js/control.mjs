// The control room's clock: elapsed and remaining tick every second, on the server's time.
import { fmt, hms } from "./format.mjs";
import { elapsedAt, readClock, remainingAt, serverTime } from "./clock.mjs";

{
  var box = document.getElementById("clock");
  var clock = readClock(box);
  if (clock && clock.status === "running" && clock.started_at_ms && clock.end_ms) {
    var time = serverTime(box.dataset.timeUrl);
    var el = box.querySelector("[data-role=elapsed]"), rem = box.querySelector("[data-role=remaining]");
    var tick = function () {
      var now = time.now();
      el.textContent = hms(elapsedAt(clock, now));
      rem.textContent = hms(remainingAt(clock, now));
      if (now >= clock.end_ms) { window.location.reload(); return; }
      setTimeout(tick, 1000 - (Date.now() % 1000));
    };
    time.sync().then(tick); // the server's numbers stand until the time is known
  }
  document.addEventListener("submit", function (event) {
    var text = event.target.dataset && event.target.dataset.confirm;
    if (text && !window.confirm(text)) event.preventDefault();
  }, true);
}
// Issue 15: the tablet's missing-pieces picker in corrections; the deduction said as you pick (R8).
{
  document.querySelectorAll("[data-spot-picker]").forEach(function (box) {
    var lone = box.querySelector(".spot-lone input");
    var list = box.querySelector(".spot-adjacent-list");
    var add = box.querySelector("[data-add-spot]");
    var say = function () {
      var n = Math.max(0, Math.floor(Number(lone.value)) || 0), fault = 0;
      list.querySelectorAll("input").forEach(function (i) {
        var v = Math.floor(Number(i.value)) || 0;
        if (v >= 2) fault += v;
      });
      var d = box.dataset;
      var text = n === 0 ? d.tNone : n === 1 ? d.tOne : fmt(d.tMany, { n: n });
      if (fault) text += " · " + fmt(d.tFault, { n: fault });
      box.querySelector("[data-deduct]").textContent = text;
    };
    box.querySelectorAll("[data-step]").forEach(function (b) {
      b.hidden = false;
      b.addEventListener("click", function () {
        lone.value = Math.max(0, (Math.floor(Number(lone.value)) || 0) + Number(b.dataset.step));
        say();
      });
    });
    add.hidden = false;
    add.addEventListener("click", function () {
      var inputs = list.querySelectorAll("input");
      var last = inputs[inputs.length - 1];
      if (last.value) { last = last.cloneNode(); list.insertBefore(last, add); }
      last.value = 2;
      last.focus();
      say();
    });
    box.addEventListener("input", say);
  });
}
