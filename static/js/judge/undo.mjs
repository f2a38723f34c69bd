/* The yes/no sheet and what it asks: undo the latest finish (docs/offline.md), and the server's
 * question about an implausible pace. */
import { fmt } from "../format.mjs";
import { $, anyDialogOpen, say } from "./page.mjs";
import { cardInfo } from "./board.mjs";
import { tried } from "./outbox.mjs";

export function setupUndo(ctx) {
  const { cfg, state, w } = ctx;
  const T = w.T;

  /* A yes/no sheet; `alt` a third choice {label, fn}. */
  function ask(title, text, yes, no, onYes, onNo, alt) {
    $("confirm-title").textContent = title;
    $("confirm-text").textContent = text;
    $("confirm-yes").textContent = yes;
    $("confirm-no").textContent = no;
    $("confirm-alt").hidden = !alt;
    $("confirm-alt").textContent = alt ? alt.label : "";
    state.ask = { onYes, onNo, onAlt: alt && alt.fn };
    $("confirm-sheet").showModal();
  }
  function answer(which) {
    const a = state.ask;
    state.ask = null;
    $("confirm-sheet").close();
    if (a && a[which]) a[which]();
  }
  $("confirm-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    answer("onYes");
  });
  $("confirm-alt").addEventListener("click", () => answer("onAlt"));
  $("confirm-no").addEventListener("click", () => answer("onNo"));

  /* Undo the latest finish. A tap still on the tablet: never tried -> taken off; tried (it
   * may have reached the server) -> a cancel of its request_id goes through the outbox. A
   * saved finish: its delete goes through the outbox. "Undone" is said only when the tablet
   * took it off, or when the server has answered. */
  function undo(card) {
    const info = cardInfo(card);
    const mine = ctx.outbox.entries().filter((e) => e.team === info.team);
    if (mine.some((e) => e.kind === "cancel" || e.kind === "delete")) return; // one at a time
    const waiting = mine.filter((e) => e.kind === "finish").sort((a, b) => b.created_ms - a.created_ms)[0];
    if (waiting) {
      const text = tried(waiting) ? T.undo_tried_confirm : T.undo_pending_confirm;
      ask(T.undo_title, fmt(text, { n: waiting.puzzle, table: info.table }), T.yes_undo, T.no, () =>
        undoEntry(waiting),
      );
      return;
    }
    let id = card.dataset.latestFinish;
    let n = Number(card.dataset.latestPosition);
    const sent = state.justDone
      .map((x) => state.justDoneEntries.get(x))
      .filter((x) => x && x.kind === "finish" && x.team === info.team && x.saved_id)
      .pop();
    if (sent && sent.puzzle > (n || 0)) {
      id = String(sent.saved_id); // answered, not yet on the refreshed board
      n = sent.puzzle;
    }
    if (!id) return;
    const comp = ctx.compOf(card);
    ask(T.undo_title, fmt(T.undo_confirm, { n, table: info.table }), T.yes_undo, T.no, () => {
      ctx
        .enqueue({
          kind: "delete",
          competition: comp.slug,
          method: "DELETE",
          url: `${comp.urls.finishes}${id}/`,
          team: info.team,
          table: info.table,
          team_name: info.name,
          puzzle: n,
          finish: Number(id),
        })
        .then((e) => e && say(fmt(T.undo_waiting, { what: w.what(e), table: info.table }), "info", `undo:${info.team}`));
    });
  }

  /* Undo an entry of the outbox (its cancel, if it was tried). */
  async function undoEntry(e) {
    let r;
    try {
      r = await ctx.outbox.undo(e.request_id, (x) => ({
        kind: "cancel",
        url: `${ctx.compOf(x).urls.requests}${x.request_id}/cancel`,
        cancels: x.request_id,
        cancels_kind: x.kind,
        team: x.team,
        table: x.table,
        team_name: x.team_name,
        puzzle: x.puzzle,
        pieces: x.pieces,
        reason: x.reason,
        by_name: cfg.user_name,
      }));
    } catch (err) {
      ctx.notOwner();
      return;
    }
    const vars = { what: w.what(e), table: e.table };
    if (r.outcome === "removed") {
      if (e.kind === "finish") ctx.board.noteUndone(e); // taken off the tablet: undone now
      say(fmt(T.undone, vars), "ok");
    }
    else if (r.outcome === "cancel") say(fmt(T.undo_waiting, vars), "info", `undo:${e.team}`);
    else say(T.undo_sending, "warn");
  }

  /* "Ret tiden": the asked-about tap is undone and the sheet opens again with its time
   * editable (and its missing pieces), to be saved as a new tap. */
  async function fixTime(e) {
    await undoEntry(e);
    const card = document.querySelector(`.jcard[data-team="${e.team}"]`);
    if (!card) return;
    ctx.board.apply();
    ctx.sheets.reopenFinish(card, e);
  }

  /* Plausibility: the server asks; the judge confirms, drops it or corrects the time. */
  function showNextConfirm() {
    if (anyDialogOpen()) return;
    let id;
    while ((id = state.confirmQueue.shift())) {
      const e = ctx.outbox.entries().find((x) => x.request_id === id && x.state === "confirm");
      if (!e) continue;
      ask(
        T.implausible_title,
        `${w.tableText(e.table)} · ${e.team_name} · ${w.entryText(e)}\n${e.message}`,
        T.save_anyway,
        T.delete_it,
        () => ctx.outbox.confirm(e.request_id),
        () => undoEntry(e),
        { label: T.fix_time, fn: () => fixTime(e) }, // a refused time is corrected, not retyped
      );
      return;
    }
  }

  document.querySelectorAll("dialog [data-close]").forEach((b) =>
    b.addEventListener("click", () => b.closest("dialog").close()),
  );
  document.querySelectorAll("dialog").forEach((d) => d.addEventListener("close", () => setTimeout(showNextConfirm, 0)));

  return { undo, undoEntry, showNextConfirm };
}
