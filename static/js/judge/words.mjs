/* The judge page's sentences, built from its texts (texts.mjs), which the server puts into
 * the page translated (cfg.texts, judging/judge_texts.py). */
import { fmt, hms, numberFormat } from "../format.mjs";
import { TEXTS } from "./texts.mjs";

/* `comps`: the page's competitions (competitions.mjs registry); a line about a puzzle is of
 * one competition's sequence (the only one's on a competition's page). */
export function words(cfg, comps) {
  const T = { ...TEXTS, ...cfg.texts };
  const nf = numberFormat(cfg.language);
  const first = comps ? comps.list[0] : { puzzles: new Map((cfg.puzzles || []).map((p) => [p.position, p])) };
  const puzzles = first.puzzles;

  function puzzleLine(position, comp) {
    const sequence = (comp || first).puzzles;
    const p = sequence.get(position);
    if (!p) return sequence.size === 1 ? T.all_finished_one : fmt(T.all_finished, { total: sequence.size });
    return fmt(T.puzzle_n_of, { n: position, total: sequence.size, pieces: nf.format(p.pieces) });
  }
  /* A sheet's line: on a championship's tablet it names the competition first. */
  function sheetLine(position, comp) {
    const line = puzzleLine(position, comp);
    if (!comps || comps.list.length < 2 || !comp) return line;
    return `${comp.name} · ${line}`;
  }
  const tableText = (table) => fmt(T.table, { table });
  /* "Fortryd puslespil 2 (0:48:12)" */
  const undoLabel = (position, seconds) => fmt(T.undo_label, { n: position, time: hms(seconds) });
  /* What `n` lone missing pieces cost under the competition's ranking: deducted pieces (R8,
   * `dm`), or seconds added to the time (`wjpc`: `comp.penalty` seconds each). */
  const deducted = (n, comp) => {
    const c = comp || first;
    if (c.ranking === "wjpc") {
      const s = nf.format(n * (c.penalty || 0));
      return n === 0 ? T.penalty_none : n === 1 ? fmt(T.penalty_one, { s }) : fmt(T.penalty_many, { s, n });
    }
    return n === 0 ? T.deduct_none : n === 1 ? T.deduct_one : fmt(T.deduct_many, { n });
  };
  /* Adjacent missing pieces: a production fault that costs nothing under either ranking. */
  const fault = (n, comp) => fmt((comp || first).ranking === "wjpc" ? T.penalty_fault : T.fault, { n });

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

  return { T, nf, puzzles, puzzleLine, sheetLine, tableText, undoLabel, deducted, fault, what, entryText };
}
