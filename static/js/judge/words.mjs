/* The judge page's sentences, built from its texts (texts.mjs), which the server puts into
 * the page translated (cfg.texts, judging/judge_texts.py). */
import { fmt, hms, numberFormat } from "../format.mjs";
import { TEXTS } from "./texts.mjs";

export function words(cfg) {
  const T = { ...TEXTS, ...cfg.texts };
  const nf = numberFormat(cfg.language);
  const puzzles = new Map(cfg.puzzles.map((p) => [p.position, p]));

  function puzzleLine(position) {
    const p = puzzles.get(position);
    if (!p) return fmt(T.all_finished, { total: cfg.puzzles.length });
    return fmt(T.puzzle_n_of, { n: position, total: cfg.puzzles.length, pieces: nf.format(p.pieces) });
  }
  const tableText = (table) => fmt(T.table, { table });
  /* "Fortryd puslespil 2 (0:48:12)" */
  const undoLabel = (position, seconds) => fmt(T.undo_label, { n: position, time: hms(seconds) });
  /* R8: lone missing pieces are deducted */
  const deducted = (n) => (n === 0 ? T.deduct_none : n === 1 ? T.deduct_one : fmt(T.deduct_many, { n }));

  /* What an undo undoes, in words: "puslespil 2", "optællingen på 480 brikker" ... */
  function what(e) {
    const kind = e.kind === "cancel" ? e.cancels_kind : e.kind === "delete" ? "finish" : e.kind;
    if (kind === "count") return fmt(T.what_count, { n: nf.format(e.pieces) });
    if (kind === "confirm") return fmt(T.what_confirm, { n: nf.format(e.pieces) });
    if (kind === "warning") return fmt(T.what_warning, { reason: e.reason });
    return fmt(T.what_puzzle, { n: e.puzzle });
  }

  function entryText(e) {
    if (e.kind === "count") return fmt(T.kind_count, { n: nf.format(e.pieces) });
    if (e.kind === "confirm") return fmt(T.kind_confirm, { n: nf.format(e.pieces) });
    if (e.kind === "recount") return fmt(T.kind_recount, { n: nf.format(e.pieces) });
    if (e.kind === "warning") return fmt(T.kind_warning, { reason: e.reason });
    if (e.kind === "cancel" || e.kind === "delete") return fmt(T.kind_undo, { what: what(e) });
    return fmt(T.kind_finish, { n: e.puzzle, time: hms(e.elapsed_seconds) });
  }

  return { T, nf, puzzles, puzzleLine, tableText, undoLabel, deducted, what, entryText };
}
