/* The judge's page (docs/offline.md): the wiring of its modules. htmx renders the cards, every
 * write goes through the outbox, and this tab's state lives in one object (state.mjs). A
 * championship's tablet serves several competitions: one outbox each, behind one
 * (competitions.mjs); a card and an entry know their competition. */
import { fmt } from "../format.mjs";
import { $, openStorage, readConfig, csrf, say, unsay, refreshBoard } from "./page.mjs";
import { keyFor, ownership, uuid, idbCounter } from "./device.mjs";
import { create as createOutbox } from "./outbox.mjs";
import { combine, competitionsOf, registry } from "./competitions.mjs";
import { createState } from "./state.mjs";
import { words } from "./words.mjs";
import { setupClock } from "./clock.mjs";
import { setupPill } from "./pill.mjs";
import { setupBoard, undoesFinish } from "./board.mjs";
import { setupTables } from "./tables.mjs";
import { setupSheets } from "./sheets.mjs";
import { setupUndo } from "./undo.mjs";
import { setupCopy } from "./copy.mjs";

const cfg = readConfig();
const store = openStorage();
const comps = registry(competitionsOf(cfg));
const w = words(cfg, comps);
const T = w.T;
const state = createState(cfg, store, comps.list);
const ctx = { cfg, store, w, state, comps };
/* A card's (or an entry's) competition, and its clock as the server last said it. */
ctx.compOf = (el) => comps.of(el && (el.dataset ? el.dataset.competition : el.competition));
ctx.clockOf = (comp) => state.clocks[comp.slug] || comp.clock;

ctx.clock = setupClock(ctx);
ctx.clock.start();

/* ---- the outboxes: one per competition, under the key its own page uses --------------- */
// navigator.locks exists only in secure contexts (HTTPS, localhost): on the venue's plain
// http one tab owns an outbox, and another says so (docs/offline.md).
const locks = navigator.locks || null;
const tabId = uuid();
const owners = locks
  ? null
  : Object.fromEntries(comps.list.map((c) => [c.slug, ownership({ storage: store, key: keyFor(c.slug, cfg.user), id: tabId })]));
const claimAll = () => (owners ? Object.values(owners).every((o) => o.claim()) : true);
state.owning = claimAll();

const on = {
  change: changed,
  done(entry, data) {
    // the saved finish's id: its undo works before the board has been refreshed
    if (entry.kind === "finish" && data && data.id) entry.saved_id = data.id;
    state.justDone.push(entry.request_id);
    state.justDoneEntries.set(entry.request_id, entry);
    if (entry.kind === "finish") ctx.board.noteSaved(entry); // "Saved ✓" only now
    if (entry.kind === "warning") say(fmt(T.warning_saved, { table: entry.table }), "ok");
    ctx.board.countAnswered(entry);
    if (entry.kind === "confirm") say(fmt(T.confirmed, { table: entry.table }), "ok");
    if (entry.kind === "recount") say(fmt(T.recounted, { table: entry.table, n: w.nf.format(entry.pieces) }), "ok");
    // an undo is "Undone" only now, when the server has answered it
    if (entry.kind === "cancel" || entry.kind === "delete") {
      if (undoesFinish(entry)) ctx.board.noteUndone(entry); // on the card too
      unsay(`undo:${entry.team}`); // "the undo waits to be sent" is no longer true
      say(fmt(T.undone, { what: w.what(entry), table: entry.table }), "ok");
    }
    refreshBoard();
  },
  message(entry, data) {
    // a refusal stays on its card until the judge dismisses it (docs/offline.md); said at
    // the top only when the team's card is not on this page
    const text = ctx.board.refuse(entry, data);
    if (!document.querySelector(`.jcard[data-team="${entry.team}"]:not([hidden])`)) {
      say(`${w.tableText(entry.table)}: ${text}`, "warn");
    }
    refreshBoard();
  },
  confirm(entry) {
    state.confirmQueue.push(entry.request_id);
    ctx.undo.showNextConfirm();
  },
  attention(entry) {
    say(`${w.tableText(entry.table)} · ${entry.team_name}: ${entry.message}`, "bad");
  },
};
ctx.outbox = combine(
  Object.fromEntries(
    comps.list.map((c) => {
      const key = keyFor(c.slug, cfg.user);
      const owner = owners && owners[c.slug];
      const outbox = createOutbox({
        storage: store,
        fetch: (url, init) => window.fetch(url, init),
        key,
        csrf,
        locks,
        counter: locks ? idbCounter(window.indexedDB, key) : null,
        allowed: () => (owner ? owner.claim() : true), // an active owner renews its claim
        on,
      });
      return [c.slug, outbox];
    }),
  ),
);

/* A second tab without navigator.locks: nothing is taken here, and it says so. */
ctx.notOwner = () => {
  state.owning = false;
  ctx.pill.renderOwner();
  say(T.other_tab, "bad");
};
/* A tap goes to the outbox (resolves to the stored entry, or nothing in a tab that does not
 * own it). */
ctx.enqueue = (entry) => {
  entry.by_name = cfg.user_name;
  return ctx.outbox.enqueue(entry).catch((err) => {
    if (err.message !== "not_owner") throw err;
    ctx.notOwner();
  });
};

ctx.pill = setupPill(ctx);
ctx.board = setupBoard(ctx);
setupTables(ctx);
ctx.sheets = setupSheets(ctx);
ctx.undo = setupUndo(ctx);

function changed() {
  ctx.pill.renderPill();
  ctx.board.apply();
  ctx.pill.renderOthers();
  ctx.pill.renderUnsaved();
  if ($("outbox-sheet").open) ctx.pill.renderList();
  ctx.clock.show(); // the cards' "since" at once, not at the next tick
}

if (owners) {
  // renew the claims; take them over when the other tab is gone
  setInterval(() => {
    const was = state.owning;
    state.owning = claimAll();
    ctx.pill.renderOwner();
    if (state.owning && !was) {
      changed();
      ctx.outbox.flush();
    }
  }, 2000);
  window.addEventListener("pagehide", () => Object.values(owners).forEach((o) => o.release()));
}

/* ---- the cards' buttons ---------------------------------------------------------------- */
const board = $("board");
board.addEventListener("pointerdown", (ev) => {
  const b = ev.target.closest('[data-action="finish"]');
  if (b) state.tap = { ms: ctx.clock.now(), at: Date.now(), card: b.closest(".jcard") };
});
board.addEventListener("click", (ev) => {
  const b = ev.target.closest("[data-action]");
  if (!b) return;
  const card = b.closest(".jcard");
  const action = b.dataset.action;
  if (action === "dismiss") {
    ctx.board.dismiss(Number(card.dataset.team));
    return;
  }
  if (!state.owning) {
    say(T.other_tab, "bad");
    return;
  }
  if (action === "finish") {
    const tap = state.tap;
    const fresh = tap && tap.card === card && Date.now() - tap.at < 3000;
    ctx.sheets.openFinish(card, fresh ? tap.ms : ctx.clock.now(), false);
    state.tap = null;
  } else if (action === "finish-late") ctx.sheets.openFinish(card, null, true);
  else if (action === "count") ctx.sheets.openCount(card, "count");
  else if (action === "confirm-count") ctx.sheets.openCount(card, "confirm", Number(b.dataset.count));
  else if (action === "recount") ctx.sheets.openCount(card, "recount", Number(b.dataset.count));
  else if (action === "warn") ctx.sheets.openWarn(card);
  else if (action === "undo") ctx.undo.undo(card);
});

/* ---- the pill, "Send now", flush triggers, logout warning ------------------------------ */
$("outbox-pill").addEventListener("click", ctx.pill.open);
$("send-now").addEventListener("click", () => ctx.outbox.sendNow());
$("outbox-send").addEventListener("click", () => ctx.outbox.sendNow());
window.addEventListener("online", () => {
  ctx.outbox.sendNow();
  ctx.clock.sync();
  // The "online" event can come a moment before the network carries requests: a try that
  // fails then would wait out its backoff (up to 30 s); one more try shortly after.
  setTimeout(() => ctx.outbox.sendNow(), 1500);
});
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") {
    ctx.outbox.flush();
    ctx.clock.sync();
  }
});
window.addEventListener("storage", (ev) => {
  // this judge's outbox changed in another tab, or another judge's (renderOthers)
  if (ev.key === null || comps.list.some((c) => ev.key.startsWith(keyFor(c.slug, "")))) changed();
});
// taps only in memory (storage full or unavailable): a reload would lose them
window.addEventListener("beforeunload", (ev) => {
  if (ctx.outbox.summary().unsaved > 0) ev.preventDefault();
});
const logout = document.querySelector(`form[action="${cfg.urls.logout}"]`);
if (logout) {
  logout.addEventListener("submit", (ev) => {
    const s = ctx.outbox.summary();
    const text = s.total === 1 ? T.logout_pending_one : fmt(T.logout_pending, { n: s.total });
    if (s.total > 0 && !window.confirm(text)) ev.preventDefault();
  });
}
// the tablet's own copy of the page, for a reload without Wi-Fi (static/js/sw.js)
setupCopy(ctx);

/* ---- start ----------------------------------------------------------------------------- */
for (const e of ctx.outbox.entries()) if (e.state === "confirm") state.confirmQueue.push(e.request_id);
changed();
ctx.pill.renderOwner();
ctx.clock.show();
// A module runs before DOMContentLoaded, and htmx binds the board's triggers then: ask for
// the cards after it has.
if (document.readyState === "complete") refreshBoard();
else document.addEventListener("DOMContentLoaded", refreshBoard, { once: true });
ctx.clock.sync();
ctx.outbox.flush();
ctx.undo.showNextConfirm();
