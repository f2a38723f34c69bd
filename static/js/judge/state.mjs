/* Everything the judge page remembers while it is open, in one place. The outbox's taps
 * are not here: they live in storage (outbox.mjs), and the cards are the server's. */
import { stored } from "./page.mjs";
import { CLOCK_KEY } from "./device.mjs";

export function createState(cfg, store, comps) {
  return {
    // each competition's clock as the server said it: status, started_at_ms, end_ms (every
    // swap updates them)
    clocks: Object.fromEntries(comps.map((c) => [c.slug, c.clock])),
    sync: stored(store, CLOCK_KEY, null), // {offset_ms, rtt_ms, synced_at} to the server's clock
    syncing: false,
    endRefreshed: {}, // slug -> the board was fetched again when its time ran out
    owning: true, // this tab may send (ownership without navigator.locks)
    tables: [], // the tables this judge watches ([] = all)
    justDone: [], // request ids the server answered, shown as done until the next swap
    justDoneEntries: new Map(),
    swapStarted: [], // justDone when the board's request started
    confirmQueue: [], // request ids the server asks about (implausible)
    savedNotes: new Map(), // team -> {text, puzzle, until}: "Saved ✓ ..." on a card
    undoneNotes: new Map(), // team -> {text, until}: "Undone: ..." on a card
    tap: null, // {ms, at, card}: the last pointerdown on a finish button
    finish: null, // the open sheets' subjects
    count: null,
    warn: null,
    ask: null, // the yes/no sheet's actions
  };
}
