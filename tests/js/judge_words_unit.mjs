// Unit tests of what the judge's card and sheets say: a tap the server
// has not answered is only noted on the tablet; a refusal names who and when; a count of 1
// or 2 says why it cannot be saved; the clock line reads as a sentence before the sync.
// Run by test_js_units.py: node --test tests/js/judge_words_unit.mjs
import test from "node:test";
import assert from "node:assert/strict";
import { cardNote, refusalText } from "../../static/js/judge/board.mjs";
import { countRefusal } from "../../static/js/judge/sheets.mjs";
import { clockLine, clockWords } from "../../static/js/judge/clock.mjs";
import { numberFormat } from "../../static/js/format.mjs";

const finish = (puzzle, state) => ({ kind: "finish", puzzle, state, elapsed_seconds: 60, missing: [] });
const NOW = 1_000_000;

test("a finish waiting in the outbox is noted, not saved, even with a saved note", () => {
  const waiting = [finish(1, "pending")];
  const saved = { puzzle: 1, until: NOW + 1000 };
  assert.equal(cardNote({ lastPos: 1, waiting, saved, now: NOW }).kind, "waiting");
  assert.equal(cardNote({ lastPos: 1, waiting: [finish(1, "sending")], now: NOW }).kind, "waiting");
  assert.equal(cardNote({ lastPos: 1, waiting: [finish(1, "paused")], now: NOW }).kind, "waiting");
});

test("saved only once the server answered; undone after an undo; nothing when asked", () => {
  const saved = { puzzle: 1, until: NOW + 1000 };
  assert.equal(cardNote({ lastPos: 1, waiting: [], saved, now: NOW }).kind, "saved");
  assert.equal(cardNote({ lastPos: 1, waiting: [], saved: { puzzle: 1, until: NOW - 1 }, now: NOW }), null);
  assert.equal(cardNote({ lastPos: 2, waiting: [], saved, now: NOW }), null); // another puzzle
  const undone = { until: NOW + 1000 };
  assert.equal(cardNote({ lastPos: null, waiting: [], undone, now: NOW }).kind, "undone");
  assert.equal(cardNote({ lastPos: 1, waiting: [finish(1, "confirm")], saved, now: NOW, quiet: true }), null);
  // a finish that needs attention is not "noted" as on its way
  assert.equal(cardNote({ lastPos: 1, waiting: [finish(1, "attention")], now: NOW }), null);
});

const T = {
  refused_already: "Ikke gemt: %(user)s har allerede registreret puslespil %(n)s ved bord %(table)s kl. %(time)s.",
  refused: "Ikke gemt: %(detail)s",
  refused_undo: "Ikke fortrudt: %(detail)s",
  refused_confirm: "Ikke bekræftet: %(detail)s",
  count_negative: "neg",
  count_one: "1 brik kan ikke tælles: kun grupper på mindst 3 samlede brikker tæller (regel 9).",
  count_two: "%(n)s brikker kan ikke tælles: kun grupper på mindst 3 samlede brikker tæller (regel 9).",
  count_too_many: "Puslespillet har kun %(pieces)s brikker.",
  count_is_finish: "Alle %(pieces)s",
  time_remaining: "tid tilbage",
  time_left: "%(time)s tilbage",
  clock_setup: "Uret er ikke startet",
  clock_stopped: "Tiden er gået",
  elapsed: "%(time)s gået",
  clock_not_synced: "tablettens ur er endnu ikke stillet efter serveren",
  clock_synced: "stillet efter serveren ±%(ms)s ms",
};

test("already_finished names who registered it and when, from the API's body", () => {
  const body = {
    code: "already_finished",
    detail: "Hold 1 har allerede færdiggjort puslespil 1. Registreret af Mette kl. 11:20:03.",
    registered_by: "Mette",
    registered_at: "2027-03-06T11:20:03.512+01:00",
  };
  assert.equal(
    refusalText(T, { kind: "finish", puzzle: 1, table: 12 }, body),
    "Ikke gemt: Mette har allerede registreret puslespil 1 ved bord 12 kl. 11:20:03.",
  );
  const other = { code: "out_of_order", detail: "Hold 1 er på puslespil 2." };
  assert.equal(refusalText(T, { kind: "finish", puzzle: 3, table: 1 }, other), "Ikke gemt: Hold 1 er på puslespil 2.");
  assert.equal(refusalText(T, { kind: "delete", puzzle: 1, table: 1 }, { code: "not_latest", detail: "x" }), "Ikke fortrudt: x");
  assert.equal(refusalText(T, { kind: "confirm", table: 1 }, { code: "count_differs", detail: "y" }), "Ikke bekræftet: y");
});

test("a count of 1 or 2 says why it cannot be counted (R9); 0 and 3 can", () => {
  const nf = numberFormat("da");
  assert.equal(countRefusal(2, 1000, T, nf), "2 brikker kan ikke tælles: kun grupper på mindst 3 samlede brikker tæller (regel 9).");
  assert.equal(countRefusal(1, 1000, T, nf), T.count_one);
  assert.equal(countRefusal(0, 1000, T, nf), "");
  assert.equal(countRefusal(3, 1000, T, nf), "");
  assert.equal(countRefusal(1001, 1000, T, nf), "Puslespillet har kun 1.000 brikker.");
  assert.equal(countRefusal(-1, 1000, T, nf), "neg");
});

test("the clock line never shows empty parts", () => {
  assert.equal(clockLine(T, { started: false, elapsed: 0, sync: null }), "tid tilbage · tablettens ur er endnu ikke stillet efter serveren");
  assert.equal(clockLine(T, { started: true, elapsed: 754, sync: { rtt_ms: 80 } }), "tid tilbage · 0:12:34 gået · stillet efter serveren ±40 ms");
  assert.doesNotMatch(clockLine(T, { started: false, elapsed: 0, sync: { rtt_ms: 10 } }), /· ·|\(\)/);
});

test("a championship's card says its competition's clock in a few words", () => {
  const start = 1_000_000;
  const running = { status: "running", started_at_ms: start, end_ms: start + 3600_000, duration_s: 3600 };
  assert.equal(clockWords(T, running, start + 1000), "0:59:59 tilbage");
  assert.equal(clockWords(T, running, start + 3600_000), "Tiden er gået"); // ended before the server says so
  assert.equal(clockWords(T, { status: "setup", started_at_ms: null, end_ms: null, duration_s: 3600 }, start), "Uret er ikke startet");
});

test("the finish sheet says what a missing piece costs under the competition's ranking", async () => {
  const { words } = await import("../../static/js/judge/words.mjs");
  const { competitionsOf, registry } = await import("../../static/js/judge/competitions.mjs");
  const texts = {
    deduct_none: "Intet trækkes fra",
    deduct_one: "1 brik trækkes fra",
    deduct_many: "%(n)s brikker trækkes fra",
    fault: "Produktionsfejl, trækkes ikke fra: %(n)s brikker",
    penalty_none: "Ingen tid lægges til",
    penalty_one: "+%(s)s sek. for 1 manglende brik",
    penalty_many: "+%(s)s sek. for %(n)s manglende brikker",
    penalty_fault: "Produktionsfejl, ingen tid lægges til: %(n)s brikker",
  };
  const page = (ranking) => {
    const cfg = { slug: "x", language: "da", texts, puzzles: [], ranking, penalty: 10 };
    return words(cfg, registry(competitionsOf(cfg)));
  };
  const wjpc = page("wjpc");
  assert.equal(wjpc.deducted(1), "+10 sek. for 1 manglende brik");
  assert.equal(wjpc.deducted(3), "+30 sek. for 3 manglende brikker");
  assert.equal(wjpc.deducted(0), "Ingen tid lægges til");
  assert.equal(wjpc.fault(2), "Produktionsfejl, ingen tid lægges til: 2 brikker");
  const dm = page("dm");
  assert.equal(dm.deducted(1), "1 brik trækkes fra");
  assert.equal(dm.fault(2), "Produktionsfejl, trækkes ikke fra: 2 brikker");
  // a championship's tablet: each competition's own ranking
  const cfg = {
    language: "da",
    texts,
    competitions: [
      { slug: "a", ranking: "dm", penalty: 10, puzzles: [] },
      { slug: "b", ranking: "wjpc", penalty: 10, puzzles: [] },
    ],
  };
  const comps = registry(competitionsOf(cfg));
  const both = words(cfg, comps);
  assert.equal(both.deducted(2, comps.of("a")), "2 brikker trækkes fra");
  assert.equal(both.deducted(2, comps.of("b")), "+20 sek. for 2 manglende brikker");
});

test("a card with every puzzle finished says so at 1 and at 3 (not 'Alle 1 puslespil')", async () => {
  const { words } = await import("../../static/js/judge/words.mjs");
  const texts = { all_finished: "Alle %(total)s puslespil færdige ✓", all_finished_one: "Puslespillet er færdigt ✓" };
  const one = words({ language: "da", texts, puzzles: [{ position: 1, pieces: 500 }] });
  assert.equal(one.puzzleLine(2), "Puslespillet er færdigt ✓");
  const puzzles = [1, 2, 3].map((position) => ({ position, pieces: 500 }));
  const three = words({ language: "da", texts, puzzles });
  assert.equal(three.puzzleLine(4), "Alle 3 puslespil færdige ✓");
});
