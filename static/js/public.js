/* Public pages: the clock counting down on the server's time, the big screen's pages, and
   the scroll kept across htmx swaps. Texts come from the page (data attributes). */
(function () {
  "use strict";
  var offset = 0; // server time minus this device's time, in ms

  function syncTime() {
    var clock = document.querySelector("[data-clock][data-time-url]");
    if (!clock || !window.fetch) return;
    var t0 = Date.now();
    fetch(clock.dataset.timeUrl, { cache: "no-store" })
      .then(function (r) { return r.json(); })
      .then(function (d) { var t1 = Date.now(); offset = d.server_ms - (t0 + t1) / 2; tick(); })
      .catch(function () {});
  }

  function hms(s) {
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    return h + ":" + (m < 10 ? "0" : "") + m + ":" + (sec < 10 ? "0" : "") + sec;
  }

  function tick() {
    var clocks = document.querySelectorAll("[data-clock]");
    for (var i = 0; i < clocks.length; i++) {
      var el = clocks[i];
      if (el.dataset.status !== "running" || !el.dataset.endMs) continue;
      var left = Math.max(0, Math.ceil((Number(el.dataset.endMs) - (Date.now() + offset)) / 1000));
      el.querySelector("[data-clock-time]").textContent = hms(left);
      el.classList.toggle("clock-low", left <= 300);
    }
  }

  // The big screen: show as many rows as the screen's height holds, stretched to fill it
  // when there is more than one page, and turn the page every few seconds.
  var page = 0, pageTimer = null;
  function paginate() {
    var table = document.querySelector("[data-pager]");
    var info = document.querySelector("[data-pager-info]");
    if (!table) return;
    var rows = table.tBodies[0].rows;
    for (var i = 0; i < rows.length; i++) { rows[i].hidden = false; rows[i].style.height = ""; }
    if (!rows.length) return;
    var foot = document.querySelector(".screen-foot");
    var bottom = window.innerHeight - (foot ? foot.getBoundingClientRect().height : 0) - 8;
    var room = bottom - rows[0].getBoundingClientRect().top;
    var size = Math.max(1, Math.floor(room / rows[0].getBoundingClientRect().height));
    var pages = Math.ceil(rows.length / size);
    if (page >= pages) page = 0;
    var height = pages > 1 ? Math.floor(room / size) + "px" : "";
    for (var j = 0; j < rows.length; j++) {
      rows[j].hidden = j < page * size || j >= (page + 1) * size;
      rows[j].style.height = height;
    }
    if (info) info.textContent = pages > 1 ? table.dataset.pageLabel + " " + (page + 1) + " " + table.dataset.ofLabel + " " + pages : "";
  }
  function startPager() {
    if (!document.querySelector("[data-pager]") || pageTimer) return;
    pageTimer = setInterval(function () { page += 1; paginate(); }, 10000);
  }

  // The leaderboard's filter box: rows whose team name holds the text, or whose table is the
  // number typed. The rows come from the shared live part; the filter is this reader's own.
  function filterBoard() {
    var input = document.querySelector("[data-board-filter]");
    if (!input) return;
    var q = input.value.trim().toLocaleLowerCase();
    var rows = document.querySelectorAll("table.board tbody tr[data-team]");
    var shown = 0;
    for (var i = 0; i < rows.length; i++) {
      var row = rows[i];
      var match = !q || row.dataset.team.toLocaleLowerCase().indexOf(q) !== -1 ||
        (/^\d+$/.test(q) && row.dataset.table === String(Number(q)));
      row.hidden = !match;
      if (match) shown += 1;
    }
    var none = document.querySelector("[data-board-filter-none]");
    if (none) none.hidden = !(q && rows.length && !shown);
  }
  function startFilter() {
    var box = document.querySelector("[data-board-filter-box]");
    if (!box) return;
    box.hidden = false;
    box.querySelector("[data-board-filter]").addEventListener("input", filterBoard);
    filterBoard(); // a value the browser kept (back from a team's page)
  }

  function fillOrigin() {
    var spans = document.querySelectorAll("[data-origin]");
    // The server names the hall's address when it knows it (PUBLIC_URL); else our own.
    for (var i = 0; i < spans.length; i++) spans[i].textContent = spans[i].dataset.origin || location.host;
  }

  // Keep the horizontal scroll of a wide table when polling swaps it.
  var kept = {};
  document.addEventListener("htmx:beforeSwap", function () {
    var boxes = document.querySelectorAll("[data-keep-scroll]");
    for (var i = 0; i < boxes.length; i++) kept[boxes[i].dataset.keepScroll] = boxes[i].scrollLeft;
  });
  document.addEventListener("htmx:afterSettle", function () {
    var boxes = document.querySelectorAll("[data-keep-scroll]");
    for (var i = 0; i < boxes.length; i++) {
      var x = kept[boxes[i].dataset.keepScroll];
      if (x) boxes[i].scrollLeft = x;
    }
    tick(); paginate(); fillOrigin(); filterBoard();
  });

  function start() {
    tick(); syncTime(); paginate(); startPager(); fillOrigin(); startFilter();
    setInterval(tick, 250);
    setInterval(syncTime, 5 * 60 * 1000);
    window.addEventListener("resize", paginate);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
