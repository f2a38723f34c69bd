/* Public pages: the clock counting down on the server's time, the big screen's pages, and
   the scroll kept across htmx swaps. Texts come from the page (data attributes). */
import { hms } from "./format.mjs";

{
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

  // The big screen's countdown to the planned start (issue 14).
  function countdown() {
    var els = document.querySelectorAll("[data-countdown]");
    for (var i = 0; i < els.length; i++) {
      var left = Math.ceil((Number(els[i].dataset.startMs) - (Date.now() + offset)) / 1000);
      els[i].textContent = left > 0 ? (left >= 3600 ? hms(left) : hms(left).slice(2)) : els[i].dataset.nowLabel;
    }
  }

  // Follow a team (issue 14): the spectator's own choice, kept on the phone; its row is
  // moved to the top of the shared leaderboard after every poll, its real rank shown.
  function followKey(table) { return "follow:" + table.dataset.follow; }
  function followed(table) {
    try { return window.localStorage.getItem(followKey(table)) || ""; } catch (e) { return ""; }
  }
  function follow() {
    var table = document.querySelector("table.board[data-follow]");
    if (!table) return;
    var id = followed(table), body = table.tBodies[0];
    var rows = body.querySelectorAll("tr[data-team-id]");
    for (var i = 0; i < rows.length; i++) {
      var row = rows[i], cell = row.cells[1], button = cell.querySelector("[data-follow-button]");
      if (!button) {
        button = document.createElement("button");
        button.type = "button";
        button.className = "follow-button";
        button.setAttribute("data-follow-button", "");
        button.title = table.dataset.followTitle;
        cell.insertBefore(button, cell.firstChild);
      }
      var on = row.dataset.teamId === id;
      button.textContent = on ? "★ " + table.dataset.followingLabel : "☆ " + table.dataset.followLabel;
      button.setAttribute("aria-pressed", on ? "true" : "false");
      button.setAttribute("aria-label", (on ? table.dataset.followingLabel : table.dataset.followLabel) + ": " + row.dataset.team);
      row.classList.toggle("pinned", on);
      if (on && body.firstElementChild !== row) body.insertBefore(row, body.firstElementChild);
    }
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-follow-button]");
    if (!button) return;
    var table = button.closest("table[data-follow]"), row = button.closest("tr");
    var id = row.dataset.teamId === followed(table) ? "" : row.dataset.teamId;
    try {
      if (id) window.localStorage.setItem(followKey(table), id);
      else window.localStorage.removeItem(followKey(table));
    } catch (e) { /* private mode: no pin */ }
    if (!id) { // the shared order back
      var body = table.tBodies[0], rows = [].slice.call(body.rows);
      rows.sort(function (a, b) { return Number(a.dataset.pos) - Number(b.dataset.pos); });
      for (var i = 0; i < rows.length; i++) body.appendChild(rows[i]);
    }
    follow();
  });

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

  // A poll answered with the ETag of the part already shown changes nothing (the ETag is the
  // standings version, the clock's status and the language): keep the page as it is, so rows
  // are not rebuilt every second under a reader's finger (a tap, a selection, a scroll).
  var shownTag = {};
  document.addEventListener("htmx:beforeSwap", function (event) {
    var xhr = event.detail.xhr, target = event.detail.target;
    var tag = xhr && xhr.status === 200 && xhr.getResponseHeader("ETag");
    if (!tag || !target || !target.id) return;
    if (shownTag[target.id] === tag) event.detail.shouldSwap = false;
    shownTag[target.id] = tag;
  });

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
    tick(); countdown(); follow(); paginate(); startPager(); fillOrigin(); filterBoard();
  });

  // The public mirror (issue 24): how long ago the hall last reached this copy, polled every
  // 5 s and counted on every second in between ("Sidste nyt fra hallen for 14 sek. siden").
  var mirror = null; // {age: seconds when polled, at: Date.now() then, words}
  function mirrorWords(seconds, w) {
    function unit(name, n) { return w[name].replace("%(n)s", String(n)); }
    if (seconds < 60) return unit("second", seconds);
    if (seconds < 3600) {
      var s = seconds % 60;
      return unit("minute", Math.floor(seconds / 60)) + (s ? " " + unit("second", s) : "");
    }
    var m = Math.floor((seconds % 3600) / 60);
    return unit("hour", Math.floor(seconds / 3600)) + (m ? " " + unit("minute", m) : "");
  }
  function mirrorShow() {
    var el = document.querySelector("[data-mirror-age]");
    if (!el || !mirror) return;
    var age = mirror.age + Math.max(0, Math.floor((Date.now() - mirror.at) / 1000));
    el.textContent = mirror.words.sentence.replace("%(age)s", mirrorWords(age, mirror.words));
    el.hidden = false;
  }
  function mirrorPoll() {
    var el = document.querySelector("[data-mirror-age]");
    if (!el || !window.fetch) return;
    fetch(el.dataset.mirrorAge, { cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (d) {
        if (d) { mirror = { age: d.age_seconds, at: Date.now(), words: d.words }; mirrorShow(); }
      })
      .catch(function () {});
  }
  function startMirror() {
    if (!document.querySelector("[data-mirror-age]")) return;
    mirrorPoll();
    setInterval(mirrorPoll, 5000);
    setInterval(mirrorShow, 1000);
  }

  function start() {
    startMirror();
    tick(); countdown(); follow(); syncTime(); paginate(); startPager(); fillOrigin(); startFilter();
    setInterval(tick, 250);
    setInterval(countdown, 250);
    setInterval(syncTime, 5 * 60 * 1000);
    window.addEventListener("resize", paginate);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
}
