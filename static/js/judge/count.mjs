/* The count's one state on a judge's card (issue 33: "bekræftet" and "Ikke bekræftet" never at
 * once, also after a reload and after the outbox replays a count). The server's card says the
 * count's state in `data-count-state` (judging/count_state.py, the rule the control room and
 * finalise read): none, missing, waiting (for the second count), differs, done (confirmed
 * when the second count is on). This tablet lays over it only what it knows and the server
 * does not yet: a count, second count or correction still in its outbox ("pending"), or one
 * the server has just answered ("sent", until the board is fetched again). Pure: tested in
 * Node (tests/js/count_unit.mjs). */

export const COUNT_KINDS = new Set(["count", "confirm", "recount"]);
// the server's states in which a count still waits for its second count
const UNSETTLED = new Set(["waiting", "differs"]);

/* The count an entry is about: a count, second count or correction, or the undo of one. */
export function aboutCount(e) {
  return COUNT_KINDS.has(e.kind) || (e.kind === "cancel" && COUNT_KINDS.has(e.cancels_kind));
}

/* server: {state, countId} from the card; mine: this team's entries, waiting or just answered,
 * oldest first; waiting: the ones still in the outbox; refusals: the team's kept refusals.
 * -> {state: "pending" | "sent" | the server's, entry, refusals: those still true} */
export function countView(server, mine, waiting, refusals = []) {
  const shown = refusals.filter((r) => refusalHolds(r, server));
  const pending = waiting.filter((e) => COUNT_KINDS.has(e.kind)).pop();
  if (pending) return { state: "pending", entry: pending, refusals: shown };
  const sent = mine.filter((e) => COUNT_KINDS.has(e.kind) && !waiting.includes(e)).pop();
  if (sent) return { state: "sent", entry: sent, refusals: shown };
  return { state: server.state || "none", entry: null, refusals: shown };
}

/* Is a refusal kept on the card still true beside the server's count? "Not confirmed: …" is
 * about a second count of one count: true only while that count still waits for its second
 * count. Once the server says it is confirmed (an equal recount, the head judge's correction
 * in the control room), or the count is gone, it is not shown. Other refusals ("Not saved:
 * …") stay until the judge dismisses them. */
export function refusalHolds(refusal, server) {
  if (refusal.kind !== "confirm") return true;
  if (!UNSETTLED.has(server.state)) return false;
  return refusal.count_id == null || refusal.count_id === server.countId;
}
