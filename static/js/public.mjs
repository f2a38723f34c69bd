/* The public pages (leaderboard, big screen, overlay, feed, team page): the clock counting
 * down on the server's time, the big screen's pages, the followed team, the filter box and
 * the scroll kept across htmx swaps. Texts come from the page (data attributes). The pure
 * parts are exported for the Node tests (tests/js/public_unit.mjs); the page is wired only
 * where there is a document. */
import { hms } from "./format.mjs";
import { countdownSeconds, readClock, remainingAt, serverTime } from "./clock.mjs";

/* The public clock at `now`: what it shows and whether it is in its last 5 minutes; null
 * when it does not tick (not running: the server's text stands). */
export function clockFace(clock, now) {
  if (!clock || clock.status !== "running" || !clock.end_ms) return null;
  const left = countdownSeconds(remainingAt(clock, now));
  return { text: hms(left), low: left <= 300 };
}

/* The big screen's countdown to the planned start: h:mm:ss from an hour away,
 * m:ss closer, the page's "Starting now" once it is due. */
export function startCountdown(startMs, now, nowLabel) {
  const left = Math.ceil((startMs - now) / 1000);
  if (left <= 0) return nowLabel;
  return left >= 3600 ? hms(left) : hms(left).slice(2);
}

/* The big screen's pages: as many rows as `room` pixels hold at `rowHeight` each, the rows
 * stretched to fill it when there is more than one page. `page` wraps to 0 past the last. */
export function pager({ rows, room, rowHeight, page }) {
  const size = Math.max(1, Math.floor(room / rowHeight));
  const pages = Math.ceil(rows / size);
  const at = page >= pages ? 0 : page;
  return {
    size,
    pages,
    page: at,
    first: at * size,
    last: (at + 1) * size, // exclusive
    height: pages > 1 ? `${Math.floor(room / size)}px` : "",
  };
}

/* A championship's big screen, once a turn is due: the next page of the shown competition's
 * board if it has one, else the next running competition (`next`, from the page) on its
 * first page, else the first page again. -> {page, show} */
export function stageTurn({ page, pages, showing, next }) {
  if (page + 1 < pages) return { page: page + 1, show: showing };
  if (next && next !== showing) return { page: 0, show: next };
  return { page: 0, show: showing };
}

/* The leaderboard's filter: a row matches the text in its team's name, or the table number
 * typed ("7" finds table 7, not 17). */
export function matches(query, { team, table }) {
  const q = query.trim().toLocaleLowerCase();
  if (!q) return true;
  return team.toLocaleLowerCase().includes(q) || (/^\d+$/.test(q) && table === String(Number(q)));
}

/* A followed team's button: its text and label, the page's words in `labels`. */
export function followButton(on, team, { follow, following }) {
  const word = on ? following : follow;
  return { text: `${on ? "★" : "☆"} ${word}`, label: `${word}: ${team}`, pressed: on ? "true" : "false" };
}

/* ---- the page ------------------------------------------------------------------------ */

function setupClock() {
  const first = document.querySelector("[data-clock][data-time-url]");
  const time = serverTime(first ? first.dataset.timeUrl : "");

  function tick() {
    document.querySelectorAll("[data-clock]").forEach((el) => {
      const face = clockFace(readClock(el), time.now());
      if (!face) return;
      el.querySelector("[data-clock-time]").textContent = face.text;
      el.classList.toggle("clock-low", face.low);
    });
    document.querySelectorAll("[data-countdown]").forEach((el) => {
      el.textContent = startCountdown(Number(el.dataset.startMs), time.now(), el.dataset.nowLabel);
    });
  }
  function sync() {
    if (first && window.fetch) time.sync().then(tick);
  }
  return { tick, sync };
}

/* Follow a team: the spectator's own choice, kept on the phone; its row is moved
 * to the top of the shared leaderboard after every poll, its real rank shown. */
function setupFollow() {
  const key = (table) => `follow:${table.dataset.follow}`;
  const followed = (table) => {
    try {
      return window.localStorage.getItem(key(table)) || "";
    } catch (e) {
      return "";
    }
  };

  function show() {
    const table = document.querySelector("table.board[data-follow]");
    if (!table) return;
    const id = followed(table);
    const body = table.tBodies[0];
    const labels = { follow: table.dataset.followLabel, following: table.dataset.followingLabel };
    body.querySelectorAll("tr[data-team-id]").forEach((row) => {
      const cell = row.cells[1];
      let button = cell.querySelector("[data-follow-button]");
      if (!button) {
        button = document.createElement("button");
        button.type = "button";
        button.className = "follow-button";
        button.setAttribute("data-follow-button", "");
        button.title = table.dataset.followTitle;
        cell.insertBefore(button, cell.firstChild);
      }
      const on = row.dataset.teamId === id;
      const face = followButton(on, row.dataset.team, labels);
      button.textContent = face.text;
      button.setAttribute("aria-pressed", face.pressed);
      button.setAttribute("aria-label", face.label);
      row.classList.toggle("pinned", on);
      if (on && body.firstElementChild !== row) body.insertBefore(row, body.firstElementChild);
    });
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("[data-follow-button]");
    if (!button) return;
    const table = button.closest("table[data-follow]");
    const row = button.closest("tr");
    const id = row.dataset.teamId === followed(table) ? "" : row.dataset.teamId;
    try {
      if (id) window.localStorage.setItem(key(table), id);
      else window.localStorage.removeItem(key(table));
    } catch (e) {
      /* private mode: no pin */
    }
    if (!id) {
      // the shared order back
      const body = table.tBodies[0];
      const rows = [...body.rows].sort((a, b) => Number(a.dataset.pos) - Number(b.dataset.pos));
      rows.forEach((r) => body.appendChild(r));
    }
    show();
  });
  return { show };
}

/* The big screen: show as many rows as the screen's height holds, and turn the page every
 * few seconds (on a championship's big screen its one timer turns the pages: setupStage). */
function setupPager() {
  let page = 0;
  let pages = 1;
  let timer = null;

  function show() {
    const table = document.querySelector("[data-pager]");
    const info = document.querySelector("[data-pager-info]");
    if (!table) return;
    const rows = table.tBodies[0].rows;
    for (const row of rows) {
      row.hidden = false;
      row.style.height = "";
    }
    if (!rows.length) return;
    const foot = document.querySelector(".screen-foot");
    const bottom = window.innerHeight - (foot ? foot.getBoundingClientRect().height : 0) - 8;
    const top = rows[0].getBoundingClientRect();
    const p = pager({ rows: rows.length, room: bottom - top.top, rowHeight: top.height, page });
    page = p.page;
    pages = p.pages;
    [...rows].forEach((row, i) => {
      row.hidden = i < p.first || i >= p.last;
      row.style.height = p.height;
    });
    if (info) info.textContent = p.pages > 1 ? `${table.dataset.pageLabel} ${page + 1} ${table.dataset.ofLabel} ${p.pages}` : "";
  }
  function start() {
    if (!document.querySelector("[data-pager]") || timer || document.getElementById("stage-live")) return;
    timer = setInterval(() => {
      page += 1;
      show();
    }, 10000);
  }
  function at() {
    return document.querySelector("[data-pager]") ? { page, pages } : { page: 0, pages: 1 };
  }
  function go(n) {
    page = n;
    show();
  }
  return { show, start, at, go };
}

/* A championship's big screen (scoring/views_stage.py): ONE timer polls and rotates. Each
 * tick asks the server for the competition on show (`?show=`), or, once a turn is due
 * (`data-rotate-ms` since the last), turns to its board's next page or asks for the next
 * running competition (`stageTurn`). The next tick is set only when the answer is in: a
 * poll and a rotation are never in flight together, and an answer never lands on a newer
 * one. An answer with the ETag already shown changes nothing; a failed one (offline) keeps
 * what is shown and the next tick tries again. The server answers with the competition it
 * really shows (the asked one may have stopped): `data-showing` says which. */
function setupStage(pages, after) {
  const first = document.getElementById("stage-live");
  if (!first || !window.fetch) return;
  let showing = first.dataset.showing;
  let turned = Date.now();
  let shownTag = null;

  async function tick() {
    const box = document.getElementById("stage-live");
    let ask = showing;
    if (Date.now() - turned >= Number(box.dataset.rotateMs)) {
      const turn = stageTurn({ ...pages.at(), showing, next: box.dataset.next });
      turned = Date.now();
      if (turn.show === showing) pages.go(turn.page);
      else ask = turn.show;
    }
    const url = box.dataset.url + (ask ? `?show=${encodeURIComponent(ask)}` : "");
    try {
      const response = await fetch(url, { headers: { "HX-Request": "true" }, credentials: "same-origin" });
      const tag = response.headers.get("ETag");
      if (response.ok && !(tag && tag === shownTag)) {
        const html = await response.text();
        document.getElementById("stage-live").outerHTML = html;
        shownTag = tag;
        const now = document.getElementById("stage-live").dataset.showing;
        if (now !== showing) {
          showing = now;
          turned = Date.now();
          pages.go(0);
        }
        after();
      }
    } catch (e) {
      /* offline: what is shown stays; the next tick asks again */
    }
    setTimeout(tick, Number(document.getElementById("stage-live").dataset.pollMs));
  }
  setTimeout(tick, Number(first.dataset.pollMs));
}

/* The leaderboard's filter box: the rows come from the shared live part; the filter is this
 * reader's own. */
function setupFilter() {
  function apply() {
    const input = document.querySelector("[data-board-filter]");
    if (!input) return;
    const rows = document.querySelectorAll("table.board tbody tr[data-team]");
    let shown = 0;
    rows.forEach((row) => {
      const match = matches(input.value, row.dataset);
      row.hidden = !match;
      if (match) shown += 1;
    });
    const none = document.querySelector("[data-board-filter-none]");
    if (none) none.hidden = !(input.value.trim() && rows.length && !shown);
  }
  function start() {
    const box = document.querySelector("[data-board-filter-box]");
    if (!box) return;
    box.hidden = false;
    box.querySelector("[data-board-filter]").addEventListener("input", apply);
    apply(); // a value the browser kept (back from a team's page)
  }
  return { apply, start };
}

function fillOrigin() {
  // The server names the hall's address when it knows it (PUBLIC_URL); else our own.
  document.querySelectorAll("[data-origin]").forEach((span) => {
    span.textContent = span.dataset.origin || location.host;
  });
}

/* A poll answered with the ETag of the part already shown changes nothing (the ETag is the
 * standings version, the clock's status and the language): keep the page as it is, so rows
 * are not rebuilt every second under a reader's finger (a tap, a selection, a scroll). And
 * keep the horizontal scroll of a wide table when polling swaps it. */
function setupSwaps(after) {
  const shownTag = {};
  const kept = {};
  document.addEventListener("htmx:beforeSwap", (event) => {
    const { xhr, target } = event.detail;
    const tag = xhr && xhr.status === 200 && xhr.getResponseHeader("ETag");
    if (!tag || !target || !target.id) return;
    if (shownTag[target.id] === tag) event.detail.shouldSwap = false;
    shownTag[target.id] = tag;
  });
  document.addEventListener("htmx:beforeSwap", () => {
    document.querySelectorAll("[data-keep-scroll]").forEach((box) => {
      kept[box.dataset.keepScroll] = box.scrollLeft;
    });
  });
  document.addEventListener("htmx:afterSettle", () => {
    document.querySelectorAll("[data-keep-scroll]").forEach((box) => {
      const x = kept[box.dataset.keepScroll];
      if (x) box.scrollLeft = x;
    });
    after();
  });
}

// The public mirror: how long ago the hall last reached this copy, polled every 5 s and
// counted on every second in between ("Sidste nyt fra hallen for 14 sek. siden").
export function mirrorAge(seconds, words) {
  const unit = (name, n) => words[name].replace("%(n)s", String(n));
  if (seconds < 60) return unit("second", seconds);
  if (seconds < 3600) {
    const s = seconds % 60;
    return unit("minute", Math.floor(seconds / 60)) + (s ? " " + unit("second", s) : "");
  }
  const m = Math.floor((seconds % 3600) / 60);
  return unit("hour", Math.floor(seconds / 3600)) + (m ? " " + unit("minute", m) : "");
}

function setupMirror() {
  const el = document.querySelector("[data-mirror-age]");
  if (!el) return;
  let seen = null; // {age: seconds when polled, at: Date.now() then, words}
  const show = () => {
    if (!seen) return;
    const age = seen.age + Math.max(0, Math.floor((Date.now() - seen.at) / 1000));
    el.textContent = seen.words.sentence.replace("%(age)s", mirrorAge(age, seen.words));
    el.hidden = false;
  };
  const poll = () =>
    fetch(el.dataset.mirrorAge, { cache: "no-store" })
      .then((r) => (r.ok ? r.json() : null))
      .then((d) => {
        if (d) {
          seen = { age: d.age_seconds, at: Date.now(), words: d.words };
          show();
        }
      })
      .catch(() => {});
  poll();
  setInterval(poll, 5000);
  setInterval(show, 1000);
}

function start() {
  setupMirror();
  const clock = setupClock();
  const follow = setupFollow();
  const pages = setupPager();
  const filter = setupFilter();
  setupSwaps(() => {
    clock.tick();
    follow.show();
    pages.show();
    pages.start();
    fillOrigin();
    filter.apply();
  });
  clock.tick();
  follow.show();
  clock.sync();
  pages.show();
  pages.start();
  fillOrigin();
  filter.start();
  setupStage(pages, () => {
    clock.tick();
    pages.show();
    fillOrigin();
  });
  setInterval(clock.tick, 250);
  setInterval(clock.sync, 5 * 60 * 1000);
  window.addEventListener("resize", pages.show);
}

if (typeof document !== "undefined") {
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
}
