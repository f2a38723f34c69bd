/* What the outbox shows: the pill and "Send now", the list sheet, the unsaved and the
 * other-tab banners, and other judges' taps still waiting on this tablet. */
import { fmt } from "../format.mjs";
import { $, button, stored } from "./page.mjs";
import { keyFor, mergeOthers, othersWaiting } from "./device.mjs";
import { tried } from "./outbox.mjs";

export function setupPill(ctx) {
  const { cfg, state, store, w } = ctx;
  const T = w.T;

  const slugs = ctx.comps.list.map((c) => c.slug);
  /* Another judge's outboxes on this tablet, of every competition of the page. */
  function outboxOf(user) {
    return slugs.flatMap((slug) => {
      const list = stored(store, keyFor(slug, user), []);
      return Array.isArray(list) ? list : [];
    });
  }
  const others = () => mergeOthers(slugs.map((slug) => othersWaiting(store, slug, cfg.user)));
  /* the teams with another judge's taps waiting here: a dot on their cards too */
  const othersTeams = () => new Set(others().flatMap((o) => outboxOf(o.user).map((e) => e.team)));

  function renderPill() {
    const s = ctx.outbox.summary();
    const pill = $("outbox-pill");
    pill.dataset.state = s.state;
    if (s.state === "paused") pill.textContent = fmt(T.paused, { n: s.waiting + s.attention });
    else if (s.state === "pending") {
      pill.textContent = fmt(T.pending, { n: s.waiting + s.attention });
      if (s.attention) pill.textContent += ` · ${fmt(T.attention, { n: s.attention })}`;
    } else if (s.state === "attention") pill.textContent = fmt(T.attention, { n: s.attention });
    else pill.textContent = T.all_sent;
    $("send-now").hidden = s.total === 0;
  }

  /* Taps only in memory (storage full or unavailable): a reload would lose them. */
  function renderUnsaved() {
    const box = $("outbox-unsaved");
    const unsaved = ctx.outbox.summary().unsaved;
    box.hidden = !unsaved;
    if (unsaved) box.textContent = fmt(unsaved === 1 ? T.unsaved_one : T.unsaved, { n: unsaved });
  }

  function renderOwner() {
    $("outbox-other-tab").hidden = state.owning;
    document.body.classList.toggle("judge-not-owner", !state.owning);
  }

  /* Another judge's waiting taps on this tablet stay in sight until that judge logs in. */
  function renderOthers() {
    const list = others();
    const box = $("others-waiting");
    box.hidden = list.length === 0;
    const ul = box.querySelector("ul");
    ul.replaceChildren();
    for (const o of list) {
      const li = document.createElement("li");
      li.textContent = fmt(o.count === 1 ? T.others_waiting_one : T.others_waiting, { n: o.count, name: o.name });
      li.append(" ");
      const a = document.createElement("a");
      a.href = `${cfg.urls.login}?next=${encodeURIComponent(location.pathname)}`;
      a.textContent = fmt(T.login_as, { name: o.name });
      li.append(a);
      ul.append(li);
    }
  }

  function renderList() {
    const list = $("outbox-list");
    list.replaceChildren();
    const entries = ctx.outbox.entries();
    $("outbox-empty").hidden = entries.length > 0;
    $("outbox-login").hidden = !entries.some((e) => e.state === "paused");
    for (const e of entries) {
      const li = document.createElement("li");
      li.className = `outbox-item outbox-${e.state}`;
      const text = document.createElement("div");
      text.textContent = `${w.tableText(e.table)} · ${e.team_name} · ${w.entryText(e)} — ${T[`state_${e.state}`] || e.state}`;
      li.append(text);
      if (e.message && (e.state === "attention" || e.state === "confirm")) {
        const msg = document.createElement("div");
        msg.className = "error";
        msg.textContent = e.message;
        li.append(msg);
      }
      const actions = document.createElement("div");
      actions.className = "toolbar";
      if (e.state === "confirm") {
        actions.append(button(T.save_anyway, "btn btn-primary", () => ctx.outbox.confirm(e.request_id)));
      }
      // an undo waiting to be sent is not itself undone
      if (e.kind !== "cancel" && e.kind !== "delete") {
        actions.append(
          button(T.delete_it, "btn", () => {
            const text = tried(e) ? T.discard_tried_confirm : T.discard_confirm;
            if (window.confirm(text)) ctx.undo.undoEntry(e);
          }),
        );
      }
      li.append(actions);
      list.append(li);
    }
    const othersList = $("outbox-others");
    othersList.replaceChildren();
    for (const o of others()) {
      for (const e of outboxOf(o.user)) {
        const li = document.createElement("li");
        li.className = "outbox-item outbox-other";
        li.textContent = `${o.name} · ${w.tableText(e.table)} · ${e.team_name} · ${w.entryText(e)}`;
        othersList.append(li);
      }
    }
  }

  function open() {
    renderList();
    $("outbox-sheet").showModal();
  }

  return { renderPill, renderUnsaved, renderOwner, renderOthers, renderList, open, othersTeams };
}
