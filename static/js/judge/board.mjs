/* The cards are the server's (_judge_cards.html, swapped in by htmx); this module only lays
 * over them what this tablet knows and the server does not yet: taps waiting in the outbox
 * (a dot, the next puzzle, the time since, a pending count or undo) and the "Saved ✓" note
 * of a tap just answered. It changes texts, `hidden` and data attributes of the server's
 * elements; it builds no card markup. */
import { fmt, hms } from "../format.mjs";
import { readClock } from "../clock.mjs";
import { $, anyDialogOpen, keep, stored } from "./page.mjs";
import { aboutCount, countView } from "./count.mjs";

export const undoesFinish = (e) => e.kind === "delete" || (e.kind === "cancel" && e.cancels_kind === "finish");

/* What a card shows once `mine` (this team's entries, waiting or just answered, oldest
 * first) are laid over the server's card {finished, since, latestPosition}; `waiting` are
 * the ones still in the outbox. The count's state is count.mjs's countView. Pure: tested in
 * Node (tests/js/board_unit.mjs). */
export function cardView(card, mine, waiting) {
  let pos = card.finished + 1;
  let since = card.since;
  let lastPos = card.latestPosition;
  for (const e of mine) {
    if (e.kind === "finish" && e.puzzle === pos) {
      pos += 1;
      since = e.elapsed_seconds;
      lastPos = e.puzzle;
    } else if (undoesFinish(e) && e.puzzle === pos - 1) {
      pos -= 1; // the undo of the latest finish (it may or may not have reached the server)
      lastPos = null;
    }
  }
  return {
    pos,
    since,
    lastPos,
    undoing: mine.find(undoesFinish) || null,
    undoWaiting: waiting.find(undoesFinish) || null,
    // not "saved" while the server asks about it or it needs attention
    asked: waiting.some((e) => e.state === "confirm" || e.state === "attention"),
  };
}

/* The server's facts about a card, from its data attributes. */
export function cardInfo(card) {
  return {
    team: Number(card.dataset.team),
    table: Number(card.dataset.table),
    name: card.dataset.name,
    competition: card.dataset.competition || "",
    pos: Number(card.dataset.pos || Number(card.dataset.finished) + 1),
  };
}

const SAVED_MS = 30000;

const WAITING = new Set(["pending", "sending", "paused"]);

/* What the note on a card says: a finish still in the outbox is only
 * "noted on the tablet" (from the outbox itself, so a reload keeps it); "Saved ✓" only for
 * one the server has answered (`saved`: {puzzle, until}); then "Undone" for a while after an
 * undo (`undone`: {until}). Pure: tested in Node (tests/js/judge_words_unit.mjs).
 * -> {kind: "waiting", entry} | {kind: "saved"} | {kind: "undone"} | null */
export function cardNote({ lastPos, waiting, saved, undone, now, quiet }) {
  if (quiet) return null; // an undo on its way, or the server asks about the tap
  const entry = waiting
    .filter((e) => e.kind === "finish" && WAITING.has(e.state) && e.puzzle === lastPos)
    .pop();
  if (entry) return { kind: "waiting", entry };
  if (saved && saved.until > now && saved.puzzle === lastPos) return { kind: "saved" };
  if (undone && undone.until > now) return { kind: "undone" };
  return null;
}

/* A refusal in words, with who and when for `already_finished` (docs/offline.md: a second
 * judge's tap is not an error; it names who registered it and when). */
export function refusalText(T, entry, data) {
  const undo = entry.kind === "cancel" || entry.kind === "delete";
  if (data.code === "already_finished" && data.registered_by && !undo) {
    const at = /T(\d{2}:\d{2}:\d{2})/.exec(String(data.registered_at || ""));
    return fmt(T.refused_already, {
      user: data.registered_by,
      n: entry.puzzle,
      table: entry.table,
      time: at ? at[1] : "?",
    });
  }
  // a second count that came too late: the count is confirmed, which is no refusal to show
  // as "Not confirmed" (count.mjs refusalHolds drops it once the card says so)
  if (entry.kind === "confirm" && data.code === "already_confirmed") return fmt(T.confirm_already, { table: entry.table });
  const form = undo ? T.refused_undo : entry.kind === "confirm" ? T.refused_confirm : T.refused;
  return fmt(form, { detail: data.detail || data.code });
}

export function setupBoard(ctx) {
  const { state, w } = ctx;
  const T = w.T;

  /* The server's answer to a finish: "Saved ✓ ..." on the card for SAVED_MS, across the
   * board's swaps. Until then the card says it is only noted here. */
  function noteSaved(e) {
    state.savedNotes.set(e.team, {
      puzzle: e.puzzle,
      text: fmt(T.saved_note, details(e)),
      until: Date.now() + SAVED_MS,
    });
    state.undoneNotes.delete(e.team);
    apply();
    setTimeout(apply, SAVED_MS + 50);
  }
  /* An undo done (on the tablet, or answered by the server): "Undone: ..." on the card. */
  function noteUndone(e) {
    state.savedNotes.delete(e.team);
    state.undoneNotes.set(e.team, {
      text: fmt(T.undone, { what: w.what(e), table: e.table }),
      until: Date.now() + SAVED_MS,
    });
    apply();
    setTimeout(apply, SAVED_MS + 50);
  }
  function details(e) {
    return {
      table: e.table,
      n: e.puzzle,
      time: hms(e.elapsed_seconds),
      deducted: w.deducted(e.missing.filter((n) => n === 1).length, ctx.compOf(e)),
    };
  }
  function showNote(card, team, v, waiting) {
    const box = card.querySelector('[data-role="saved"]');
    if (!box) return;
    const now = Date.now();
    const saved = state.savedNotes.get(team);
    if (saved && saved.until <= now) state.savedNotes.delete(team);
    const undone = state.undoneNotes.get(team);
    if (undone && undone.until <= now) state.undoneNotes.delete(team);
    const note = cardNote({ lastPos: v.lastPos, waiting, saved, undone, now, quiet: v.undoWaiting || v.asked });
    box.hidden = !note;
    box.dataset.kind = note ? note.kind : "";
    if (!note) return;
    let text = note.kind === "saved" ? saved.text : undone && undone.text;
    if (note.kind === "waiting") text = fmt(T.noted_note, details(note.entry));
    box.querySelector('[data-role="saved-text"]').textContent = text;
  }

  /* Refusals stay on their card until the judge dismisses them (docs/offline.md), across
   * reloads: kept in storage per competition and judge. */
  const REFUSALS = `judge-refusals:v1:${ctx.cfg.slug}:${ctx.cfg.user}`;
  const refusals = () => {
    const list = stored(ctx.store, REFUSALS, []);
    return Array.isArray(list) ? list : [];
  };
  function refuse(entry, data) {
    const text = refusalText(T, entry, data);
    if (entry.kind === "finish") state.savedNotes.delete(entry.team);
    const refusal = { team: entry.team, table: entry.table, text, at_ms: Date.now(), kind: entry.kind };
    refusal.count_id = entry.count_id == null ? null : entry.count_id;
    keep(ctx.store, REFUSALS, refusals().concat([refusal]));
    apply();
    return text;
  }
  function dismiss(team) {
    keep(ctx.store, REFUSALS, refusals().filter((r) => r.team !== team));
    apply();
  }
  /* A count, second count or correction the server answered (or its undo): a "Not confirmed"
   * kept for the team's count is no longer the latest word on it. */
  function countAnswered(entry) {
    if (!aboutCount(entry)) return;
    const kept = refusals();
    const left = kept.filter((r) => r.team !== entry.team || r.kind !== "confirm");
    if (left.length !== kept.length) keep(ctx.store, REFUSALS, left);
  }
  function showRefusals(card, mine) {
    const box = card.querySelector('[data-role="refused"]');
    if (!box) return;
    box.hidden = mine.length === 0;
    box.querySelector('[data-role="refused-text"]').textContent = mine.map((r) => r.text).join("\n");
  }

  function apply() {
    const entries = ctx.outbox.entries();
    const done = state.justDone.map((id) => state.justDoneEntries.get(id)).filter(Boolean);
    const all = done.concat(entries).sort((a, b) => a.created_ms - b.created_ms);
    const cardsStatus = $("cards")?.dataset.status;
    const othersTeams = ctx.pill.othersTeams();
    const kept = refusals();
    document.querySelectorAll(".jcard").forEach((card) => {
      // the chosen tables at once, before (or without) the server's filtered cards
      card.hidden = state.tables.length > 0 && !state.tables.includes(Number(card.dataset.table));
      const team = Number(card.dataset.team);
      const waiting = entries.filter((e) => e.team === team);
      const mine = all.filter((e) => e.team === team);
      const finished = Number(card.dataset.finished);
      const v = cardView(
        {
          finished,
          since: Number(card.dataset.since),
          latestPosition: card.dataset.latestPosition ? Number(card.dataset.latestPosition) : null,
        },
        mine,
        waiting,
      );
      card.querySelector('[data-role="dot"]').hidden = waiting.length === 0 && !othersTeams.has(team);
      card.classList.toggle("jcard-waiting", waiting.length > 0);
      const server = { state: card.dataset.countState || "none", countId: Number(card.dataset.countId) || null };
      const count = countView(server, mine, waiting, kept.filter((r) => r.team === team));
      card.dataset.countView = count.state; // the one state the card's count shows
      showNote(card, team, v, waiting);
      showRefusals(card, count.refusals);
      card.dataset.pos = String(v.pos);
      card.dataset.effSince = String(v.since);
      if (card.dataset.disqualified) return;
      const advanced = v.pos !== finished + 1;
      const laid = count.entry !== null;
      if (!advanced && !laid && !v.undoing && !card.dataset.overlaid) return;
      card.dataset.overlaid = "1"; // laid over here: again on every change until the next swap
      // a championship's card says its competition's status; a competition's page, the board's
      const comp = ctx.compOf(card);
      overlay(card, v, count, card.dataset.status || cardsStatus || (comp && ctx.clockOf(comp).status), comp);
    });
  }

  function overlay(card, v, count, status, comp) {
    const total = Number(card.dataset.total);
    const line = card.querySelector('[data-role="puzzle"]');
    if (line) line.textContent = w.puzzleLine(v.pos, comp);
    const label = card.querySelector('[data-role="since-label"]');
    if (label) label.textContent = v.pos > 1 ? T.since_last : T.since_start;
    const sinceLine = card.querySelector('[data-role="since-line"]');
    if (sinceLine) sinceLine.hidden = v.pos > total || status !== "running" || !!v.undoing;
    const undo = card.querySelector('[data-action="undo"]');
    if (undo) {
      undo.hidden = !v.lastPos || !!v.undoing || card.dataset.counted !== "" || count.entry !== null;
      if (v.lastPos) undo.querySelector('[data-role="undo-label"]').textContent = w.undoLabel(v.lastPos, v.since);
    }
    const actions = card.querySelector('[data-role="actions"]');
    const pending = card.querySelector('[data-role="pending"]');
    pending.hidden = true;
    if (status === "running") {
      // the server renders the finish button on every running card (hidden when all are done)
      const finish = actions.querySelector('[data-action="finish"]');
      if (finish) {
        finish.hidden = v.pos > total;
        finish.textContent = fmt(T.finish_button, { n: v.pos });
      }
    } else if (status === "stopped") {
      if (count.entry) {
        // a count still in the outbox, or just answered: the server's count line and its
        // buttons are not the latest word until the board is fetched again
        actions.hidden = true;
        pending.hidden = false;
        pending.textContent = countLine(count);
      } else {
        const countButton = actions.querySelector('[data-action="count"]');
        if (countButton) countButton.textContent = fmt(T.count_button, { n: v.pos });
        actions.hidden = v.pos > total;
      }
    }
    if (v.undoWaiting) {
      pending.hidden = false;
      pending.textContent = fmt(T.undo_pending_line, { what: w.what(v.undoWaiting) });
    }
  }

  /* The card's line for a count laid over the server's: waiting in the outbox, or answered. */
  function countLine(count) {
    const e = count.entry;
    const n = w.nf.format(e.pieces);
    if (count.state === "sent") return `${w.entryText(e)} ✓`;
    return fmt({ count: T.counted_pending, confirm: T.confirm_pending, recount: T.recount_pending }[e.kind], { n });
  }

  /* htmx swaps the server's cards in: what it shows now includes what was answered before
   * its request started; the clock is the server's again. */
  const board = $("board");
  document.body.addEventListener("htmx:beforeRequest", (ev) => {
    if (ev.detail.elt === board) state.swapStarted = state.justDone.slice();
  });
  document.body.addEventListener("htmx:afterSwap", (ev) => {
    if (ev.detail.elt !== board) return;
    state.justDone = state.justDone.filter((id) => !state.swapStarted.includes(id));
    for (const id of state.swapStarted) state.justDoneEntries.delete(id);
    const cards = $("cards");
    if (cards) {
      // a competition's page: its clock; a championship's: each competition's on now
      let clocks = {};
      if (cards.dataset.clocks) {
        try {
          clocks = JSON.parse(cards.dataset.clocks) || {};
        } catch (e) {
          clocks = {};
        }
      } else if (readClock(cards)) clocks = { [ctx.comps.list[0].slug]: readClock(cards) };
      for (const [slug, clock] of Object.entries(clocks)) {
        state.clocks[slug] = Object.assign({}, state.clocks[slug], clock);
        if (clock.status !== "running") state.endRefreshed[slug] = false;
      }
      known(cards);
    }
    apply();
    ctx.clock.show();
  });

  /* A championship's tablet learns of a competition made after the page loaded when its cards
   * come with the board: the page loads again to know its puzzles and addresses (the outbox
   * is in storage: nothing is lost). Not while a sheet is open. */
  function known(cards) {
    const strange = Array.from(cards.querySelectorAll(".jcard")).some(
      (c) => c.dataset.competition && !ctx.comps.bySlug.has(c.dataset.competition),
    );
    if (strange && !anyDialogOpen()) location.reload();
  }

  return { apply, noteSaved, noteUndone, refuse, dismiss, countAnswered, known };
}
