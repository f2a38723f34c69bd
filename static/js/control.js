// The control room's clock: elapsed and remaining tick every second, on the server's time.
(function () {
  "use strict";
  var box = document.getElementById("clock");
  if (box && box.dataset.status === "running" && box.dataset.started && box.dataset.end) {
    var offset = Number(box.dataset.serverMs) - Date.now();
    var start = Date.parse(box.dataset.started), end = Date.parse(box.dataset.end);
    var el = box.querySelector("[data-role=elapsed]"), rem = box.querySelector("[data-role=remaining]");
    var hms = function (s) {
      s = Math.max(0, Math.floor(s));
      var m = Math.floor((s % 3600) / 60), x = s % 60;
      return Math.floor(s / 3600) + ":" + (m < 10 ? "0" : "") + m + ":" + (x < 10 ? "0" : "") + x;
    };
    var tick = function () {
      var now = Math.min(Date.now() + offset, end);
      el.textContent = hms((now - start) / 1000);
      rem.textContent = hms((end - now) / 1000);
      if (now >= end) { window.location.reload(); return; }
      setTimeout(tick, 1000 - (Date.now() % 1000));
    };
    tick();
  }
  document.addEventListener("submit", function (event) {
    var text = event.target.dataset && event.target.dataset.confirm;
    if (text && !window.confirm(text)) event.preventDefault();
  }, true);
})();
