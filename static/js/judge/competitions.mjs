/* The competitions a judge's page serves (docs/offline.md "A championship's tablet"): one on a
 * competition's page (/judge/<competition>/), every competition of the championship on a
 * championship's (/judge/<championship>/). Each keeps its own outbox in storage, under the
 * key its own page uses (device.mjs keyFor), so a tap waits, is sent and is reported by the
 * heartbeat as that competition's, whichever page took it. `combine` puts those outboxes
 * behind the one outbox's interface (outbox.mjs) for the page's other modules. Pure: no DOM;
 * tested in Node (tests/js/competitions_unit.mjs). */

/* [{slug, name, round, discipline, ranking, penalty, clock, puzzles: Map(position -> puzzle), urls}] */
export function competitionsOf(cfg) {
  const list = Array.isArray(cfg.competitions)
    ? cfg.competitions
    : [{ slug: cfg.slug, name: "", round: "", discipline: cfg.discipline || "team", ranking: cfg.ranking || "dm", penalty: cfg.penalty || 0, clock: cfg.clock, puzzles: cfg.puzzles, urls: cfg.urls }];
  return list.map((c) => Object.assign({}, c, { puzzles: new Map((c.puzzles || []).map((p) => [p.position, p])) }));
}

/* The page's competitions by slug, and the one a card or an entry belongs to (an entry
 * written before a page knew of competitions has none: it is the only competition's). */
export function registry(comps) {
  const bySlug = new Map(comps.map((c) => [c.slug, c]));
  const only = comps.length === 1 ? comps[0] : null;
  function of(slug) {
    return (slug && bySlug.get(slug)) || only;
  }
  return { list: comps, bySlug, of };
}

/* One summary of several outboxes' (outbox.mjs summary()): the numbers added up; the state
 * is the most urgent one (sign in again, then waiting, then needs attention). */
export function mergeSummaries(list) {
  const sum = (k) => list.reduce((n, s) => n + (s[k] || 0), 0);
  const out = {
    waiting: sum("waiting"),
    paused: sum("paused"),
    attention: sum("attention"),
    total: sum("total"),
    unsaved: sum("unsaved"),
  };
  out.state = out.paused ? "paused" : out.waiting ? "pending" : out.attention ? "attention" : "ok";
  return out;
}

/* Outboxes by competition slug behind one outbox's interface: a new entry goes to its
 * competition's (`entry.competition`), an entry is found in the one that holds it, the
 * entries come oldest first, each marked with its competition. */
export function combine(bySlug) {
  const slugs = Object.keys(bySlug);
  const only = slugs.length === 1 ? slugs[0] : null;
  const marked = (slug, e) => (e.competition === slug ? e : Object.assign({}, e, { competition: slug }));
  function entries() {
    return slugs
      .flatMap((slug) => bySlug[slug].entries().map((e) => marked(slug, e)))
      .sort((a, b) => (a.created_ms || 0) - (b.created_ms || 0));
  }
  function holder(id) {
    return slugs.find((slug) => bySlug[slug].entries().some((e) => e.request_id === id)) || null;
  }
  function target(entry) {
    const slug = entry.competition || only;
    if (!slug || !bySlug[slug]) return Promise.reject(new Error(`no outbox for ${slug}`));
    return bySlug[slug].enqueue(Object.assign({}, entry, { competition: slug }));
  }
  const every = (fn) => Promise.all(slugs.map((slug) => fn(bySlug[slug]))).then(() => undefined);
  return {
    enqueue: target,
    flush: () => every((o) => o.flush()),
    sendNow: () => every((o) => o.sendNow()),
    confirm(id) {
      const slug = holder(id);
      return slug ? bySlug[slug].confirm(id) : Promise.resolve();
    },
    undo(id, cancel) {
      const slug = holder(id);
      if (!slug) return Promise.resolve({ outcome: "gone" });
      return bySlug[slug].undo(id, (e) => Object.assign(cancel(marked(slug, e)), { competition: slug }));
    },
    summary: () => mergeSummaries(slugs.map((slug) => bySlug[slug].summary())),
    entries,
    isSending: (id) => slugs.some((slug) => bySlug[slug].isSending(id)),
    keys: slugs.map((slug) => bySlug[slug].key),
    of: (slug) => bySlug[slug] || null,
  };
}

/* Which competitions a tablet's heartbeat reports to (heartbeat.mjs): those on its board, and
 * any other whose outbox on this tablet holds a tap, or held one at its last report (until
 * it has reported 0, so that competition's finalise is no longer held up by it). */
export function heartbeatTargets(slugs, onBoard, waiting, last) {
  return slugs.filter((slug) => onBoard.includes(slug) || (waiting[slug] || 0) > 0 || (last[slug] || 0) > 0);
}
