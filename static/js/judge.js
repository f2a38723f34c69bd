/* The judge's page (OFFLINE.md): clock sync, taps, sheets and the outbox's pill. htmx only
 * renders the cards; every write goes through JudgeOutbox (static/js/outbox.js). */
(function () {
  "use strict";
  const cfg = JSON.parse(document.getElementById("judge-config").textContent);
  const T = cfg.texts;
  const $ = (id) => document.getElementById(id);
  const fmt = (s, vars) => s.replace(/%\((\w+)\)s/g, (_, k) => (k in vars ? vars[k] : ""));
  const nf = new Intl.NumberFormat(cfg.language === "da" ? "da-DK" : "en-GB");
  const puzzles = new Map(cfg.puzzles.map((p) => [p.position, p]));
  const board = $("board");
  /* localStorage may be missing or refuse (private mode, disabled, full): the page works on,
   * and the outbox keeps in memory what it cannot store (and says so). */
  let store = null;
  try {
    store = window.localStorage;
    store.getItem("judge-probe");
  } catch (e) {
    store = null;
  }
  function stored(key, fallback) {
    try {
      const v = JSON.parse((store && store.getItem(key)) || "null");
      return v === null ? fallback : v;
    } catch (e) {
      return fallback;
    }
  }
  function keep(key, value) {
    try {
      if (store) store.setItem(key, JSON.stringify(value));
    } catch (e) {
      /* full or unavailable: only this page remembers it */
    }
  }

  function hms(seconds) {
    const s = Math.max(0, Math.floor(seconds));
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    return `${h}:${String(m).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
  }
  function parseHms(text) {
    const m = String(text).trim().match(/^(?:(\d+):)?([0-5]?\d):([0-5]\d)$/);
    if (!m) return null;
    return Number(m[1] || 0) * 3600 + Number(m[2]) * 60 + Number(m[3]);
  }
  function puzzleLine(position) {
    const p = puzzles.get(position);
    if (!p) return fmt(T.all_finished, { total: cfg.puzzles.length });
    return fmt(T.puzzle_n_of, { n: position, total: cfg.puzzles.length, pieces: nf.format(p.pieces) });
  }
  function tableText(table) {
    return fmt(T.table, { table });
  }
  function anyDialogOpen() {
    return !!document.querySelector("dialog[open]");
  }
  function refreshBoard() {
    document.body.dispatchEvent(new CustomEvent("outbox:changed", { bubbles: true }));
  }

  /* ---- messages for the judge ------------------------------------------------------- */
  function say(text, kind) {
    const li = document.createElement("li");
    li.className = `jmsg jmsg-${kind || "info"}`;
    const span = document.createElement("span");
    span.textContent = text;
    const close = document.createElement("button");
    close.type = "button";
    close.className = "jmsg-close";
    close.setAttribute("aria-label", "×");
    close.textContent = "×";
    close.addEventListener("click", () => li.remove());
    li.append(span, close);
    $("judge-messages").prepend(li);
    if (kind === "ok") setTimeout(() => li.remove(), 8000);
  }

  /* ---- the clock, in step with the server (OFFLINE.md "Clock sync") ------------------ */
  const CLOCK_KEY = "judge-clock:v1";
  let sync = stored(CLOCK_KEY, null);
  let clock = cfg.clock;
  const serverNow = () => Date.now() + (sync ? sync.offset_ms : 0);
  let syncing = false;

  async function syncClock() {
    if (syncing) return;
    syncing = true;
    try {
      const samples = [];
      for (let i = 0; i < 8; i++) {
        const sent = Date.now();
        const res = await fetch(cfg.urls.time, { cache: "no-store", credentials: "omit" });
        const data = await res.json();
        samples.push({ server_ms: data.server_ms, sent_ms: sent, received_ms: Date.now() });
      }
      const result = JudgeOutbox.clockOffset(samples);
      if (result) {
        sync = Object.assign(result, { synced_at: Date.now() });
        keep(CLOCK_KEY, sync);
      }
    } catch (e) {
      /* offline: keep the last offset */
    } finally {
      syncing = false;
      showClock();
    }
  }

  function elapsedNow() {
    if (!clock.started_at_ms) return 0;
    const t = Math.min(serverNow(), clock.end_ms || Infinity);
    return Math.max(0, (t - clock.started_at_ms) / 1000);
  }

  let endRefreshed = false;
  function showClock() {
    const status = clock.status === "running" && serverNow() >= clock.end_ms ? "stopped" : clock.status;
    $("clock-status").textContent = T[`clock_${status}`] || "";
    document.body.dataset.clock = status;
    let remaining = clock.duration_s;
    if (clock.started_at_ms) remaining = Math.max(0, (clock.end_ms - serverNow()) / 1000);
    $("clock-time").textContent = hms(Math.ceil(remaining - 1e-9));
    $("clock-elapsed").textContent = clock.started_at_ms ? fmt(T.elapsed, { time: hms(elapsedNow()) }) : "";
    $("clock-sync").textContent = sync ? `±${Math.round(sync.rtt_ms / 2)} ms` : `(${T.clock_not_synced})`;
    if (status === "stopped" && clock.status === "running" && !endRefreshed) {
      endRefreshed = true; // the server switches the cards to counting
      setTimeout(refreshBoard, 700);
    }
    document.querySelectorAll(".jcard").forEach((card) => {
      const out = card.querySelector('[data-role="since"]');
      if (out && card.dataset.effSince !== undefined) {
        out.textContent = hms(elapsedNow() - Number(card.dataset.effSince));
      }
    });
  }

  let lastTick = Date.now();
  setInterval(() => {
    const jump = Math.abs(Date.now() - lastTick - 500) > 5000;
    lastTick = Date.now();
    if (jump) syncClock(); // the wall clock jumped (or the tablet slept)
    showClock();
  }, 500);
  setInterval(syncClock, 5 * 60 * 1000);

  /* ---- the outbox -------------------------------------------------------------------- */
  function csrf() {
    const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    if (m) return decodeURIComponent(m[1]);
    try {
      return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
    } catch (e) {
      return "";
    }
  }
  let justDone = []; // sent entries, shown as done until the next board swap
  const justDoneEntries = new Map();
  const confirmQueue = [];
  const OUTBOX_KEY = JudgeOutbox.keyFor(cfg.slug, cfg.user);
  // navigator.locks exists only in secure contexts (HTTPS, localhost): on the venue's plain
  // http one tab owns the outbox, and another says so (OFFLINE.md).
  const locks = navigator.locks || null;
  const owner = locks
    ? null
    : JudgeOutbox.ownership({ storage: store, key: OUTBOX_KEY, id: JudgeOutbox.uuid() });
  let owning = owner ? owner.claim() : true;
  const outbox = JudgeOutbox.create({
    storage: store,
    fetch: (url, init) => window.fetch(url, init),
    key: OUTBOX_KEY,
    csrf,
    locks,
    counter: locks ? JudgeOutbox.idbCounter(window.indexedDB, OUTBOX_KEY) : null,
    allowed: () => (owner ? owner.claim() : true), // an active owner renews its claim
    on: {
      change: changed,
      done(entry, data) {
        // the saved finish's id: its undo works before the board has been refreshed
        if (entry.kind === "finish" && data && data.id) entry.saved_id = data.id;
        justDone.push(entry.request_id);
        justDoneEntries.set(entry.request_id, entry);
        if (entry.kind === "warning") say(fmt(T.warning_saved, { table: entry.table }), "ok");
        if (entry.kind === "confirm") say(fmt(T.confirmed, { table: entry.table }), "ok");
        if (entry.kind === "recount") say(fmt(T.recounted, { table: entry.table, n: nf.format(entry.pieces) }), "ok");
        // an undo is "Undone" only now, when the server has answered it
        if (entry.kind === "cancel" || entry.kind === "delete") {
          say(fmt(T.undone, { what: what(entry), table: entry.table }), "ok");
        }
        refreshBoard();
      },
      message(entry, data) {
        say(`${tableText(entry.table)}: ${data.detail}`, "warn");
        refreshBoard();
      },
      confirm(entry, data) {
        confirmQueue.push(entry.request_id);
        showNextConfirm();
      },
      attention(entry) {
        say(`${tableText(entry.table)} · ${entry.team_name}: ${entry.message}`, "bad");
      },
    },
  });
  /* A tap goes to the outbox; a tab that does not own it says so (and keeps nothing). */
  function enqueue(entry) {
    entry.by_name = cfg.user_name;
    return outbox.enqueue(entry).catch((err) => {
      if (err.message !== "not_owner") throw err;
      owning = false;
      showOwner();
      say(T.other_tab, "bad");
    });
  }

  function changed() {
    renderPill();
    applyOverlay();
    renderOthers();
    $("outbox-unsaved").hidden = true;
    const unsaved = outbox.summary().unsaved;
    if (unsaved) {
      $("outbox-unsaved").hidden = false;
      $("outbox-unsaved").textContent = fmt(unsaved === 1 ? T.unsaved_one : T.unsaved, { n: unsaved });
    }
    if ($("outbox-sheet").open) renderOutboxList();
    showClock(); // the cards' "since" at once, not at the next tick
  }

  function showOwner() {
    $("outbox-other-tab").hidden = owning;
    document.body.classList.toggle("judge-not-owner", !owning);
  }
  if (owner) {
    // renew the claim; take it over when the other tab is gone
    setInterval(() => {
      const was = owning;
      owning = owner.claim();
      showOwner();
      if (owning && !was) {
        changed();
        outbox.flush();
      }
    }, 2000);
    window.addEventListener("pagehide", () => owner.release());
  }

  /* Another judge's waiting taps on this tablet stay in sight until that judge logs in. */
  function renderOthers() {
    const others = JudgeOutbox.othersWaiting(store, cfg.slug, cfg.user);
    const box = $("others-waiting");
    box.hidden = others.length === 0;
    const list = box.querySelector("ul");
    list.replaceChildren();
    for (const o of others) {
      const li = document.createElement("li");
      li.textContent = fmt(o.count === 1 ? T.others_waiting_one : T.others_waiting, { n: o.count, name: o.name });
      li.append(" ");
      const a = document.createElement("a");
      a.href = `${cfg.urls.login}?next=${encodeURIComponent(location.pathname)}`;
      a.textContent = fmt(T.login_as, { name: o.name });
      li.append(a);
      list.append(li);
    }
  }

  function renderPill() {
    const s = outbox.summary();
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

  function renderOutboxList() {
    const list = $("outbox-list");
    list.replaceChildren();
    const entries = outbox.entries();
    $("outbox-empty").hidden = entries.length > 0;
    $("outbox-login").hidden = !entries.some((e) => e.state === "paused");
    for (const e of entries) {
      const li = document.createElement("li");
      li.className = `outbox-item outbox-${e.state}`;
      const text = document.createElement("div");
      text.textContent = `${tableText(e.table)} · ${e.team_name} · ${entryText(e)} — ${T[`state_${e.state}`] || e.state}`;
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
        const yes = button(T.save_anyway, "btn btn-primary", () => outbox.confirm(e.request_id));
        actions.append(yes);
      }
      // an undo waiting to be sent is not itself undone
      if (e.kind !== "cancel" && e.kind !== "delete") {
        actions.append(
          button(T.delete_it, "btn", () => {
            const text = JudgeOutbox.tried(e) ? T.discard_tried_confirm : T.discard_confirm;
            if (window.confirm(text)) undoEntry(e);
          }),
        );
      }
      li.append(actions);
      list.append(li);
    }
    const others = $("outbox-others");
    others.replaceChildren();
    for (const o of JudgeOutbox.othersWaiting(store, cfg.slug, cfg.user)) {
      for (const e of outboxOf(o.user)) {
        const li = document.createElement("li");
        li.className = "outbox-item outbox-other";
        li.textContent = `${o.name} · ${tableText(e.table)} · ${e.team_name} · ${entryText(e)}`;
        others.append(li);
      }
    }
  }
  function outboxOf(user) {
    const list = stored(JudgeOutbox.keyFor(cfg.slug, user), []);
    return Array.isArray(list) ? list : [];
  }

  function button(label, cls, onClick) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = cls;
    b.textContent = label;
    b.addEventListener("click", onClick);
    return b;
  }

  /* ---- cards: pending dots and the optimistic next puzzle ---------------------------- */
  const undoesFinish = (e) => e.kind === "delete" || (e.kind === "cancel" && e.cancels_kind === "finish");
  /* "Fortryd puslespil 2 (0:48:12)" (issue 15 point 12) */
  function undoLabel(position, seconds) {
    return fmt(T.undo_label, { n: position, time: hms(seconds) });
  }

  /* After "Gem", a short confirmation on the card: table, puzzle, time, pieces deducted,
   * with its undo beside it (issue 15 point 11). Kept for SAVED_MS, across the board's swaps. */
  const SAVED_MS = 30000;
  const savedNotes = new Map(); // team -> {text, puzzle, elapsed, until}
  function noteSaved(e) {
    const deducted = e.missing.filter((n) => n === 1).length;
    const deductText =
      deducted === 0 ? T.deduct_none : deducted === 1 ? T.deduct_one : fmt(T.deduct_many, { n: deducted });
    const text = fmt(T.saved_note, {
      table: e.table,
      n: e.puzzle,
      time: hms(e.elapsed_seconds),
      deducted: deductText,
    });
    savedNotes.set(e.team, { text, puzzle: e.puzzle, elapsed: e.elapsed_seconds, until: Date.now() + SAVED_MS });
    setTimeout(applyOverlay, SAVED_MS + 50);
  }
  function showSaved(card, team, lastPos) {
    const box = card.querySelector('[data-role="saved"]');
    if (!box) return;
    const note = savedNotes.get(team);
    // a moment may pass between the outbox dropping the sent tap and the page counting it
    // as done: only the clock ends a note, not one overlay without it
    if (note && note.until <= Date.now()) savedNotes.delete(team);
    const live = note && note.until > Date.now() && note.puzzle === lastPos;
    box.hidden = !live;
    if (!live) return;
    box.querySelector('[data-role="saved-text"]').textContent = note.text;
    box.querySelector('[data-role="saved-undo"]').textContent = `↶ ${undoLabel(note.puzzle, note.elapsed)}`;
  }

  function applyOverlay() {
    const entries = outbox.entries();
    const done = justDone.map((id) => justDoneEntries.get(id)).filter(Boolean);
    const all = done.concat(entries).sort((a, b) => a.created_ms - b.created_ms);
    const status = document.getElementById("cards")?.dataset.status || clock.status;
    // another judge's taps waiting on this tablet: a dot on their cards too
    const othersTeams = new Set(
      JudgeOutbox.othersWaiting(store, cfg.slug, cfg.user).flatMap((o) => outboxOf(o.user).map((e) => e.team)),
    );
    document.querySelectorAll(".jcard").forEach((card) => {
      // the chosen tables at once, before (or without) the server's filtered cards
      card.hidden = tables.length > 0 && !tables.includes(Number(card.dataset.table));
      const team = Number(card.dataset.team);
      const mine = all.filter((e) => e.team === team);
      const waiting = entries.filter((e) => e.team === team);
      card.querySelector('[data-role="dot"]').hidden = waiting.length === 0 && !othersTeams.has(team);
      card.classList.toggle("jcard-waiting", waiting.length > 0);
      let pos = Number(card.dataset.finished) + 1;
      let since = Number(card.dataset.since);
      let lastPos = card.dataset.latestPosition ? Number(card.dataset.latestPosition) : null;
      let pendingCount = null;
      for (const e of mine) {
        if (e.kind === "finish" && e.puzzle === pos) {
          pos += 1;
          since = e.elapsed_seconds;
          lastPos = e.puzzle;
        } else if (undoesFinish(e) && e.puzzle === pos - 1) {
          pos -= 1; // the undo of the latest finish (it may or may not have reached the server)
          lastPos = null;
        } else if (e.kind === "count" && card.dataset.counted === "") {
          pendingCount = e.pieces;
        }
      }
      const undoing = mine.find(undoesFinish);
      const undoWaiting = waiting.find(undoesFinish);
      // not "saved" while the server asks about it or it needs attention
      const asked = waiting.some((e) => e.state === "confirm" || e.state === "attention");
      showSaved(card, team, undoing || asked ? null : lastPos);
      card.dataset.pos = String(pos);
      card.dataset.effSince = String(since);
      if (card.dataset.disqualified) return;
      const advanced = pos !== Number(card.dataset.finished) + 1;
      if (!advanced && pendingCount === null && !undoing && !card.dataset.overlaid) return;
      card.dataset.overlaid = "1"; // drawn here: redrawn on every change until the next swap
      const total = Number(card.dataset.total);
      const line = card.querySelector('[data-role="puzzle"]');
      if (line) line.textContent = puzzleLine(pos);
      const label = card.querySelector('[data-role="since-label"]');
      if (label) label.textContent = pos > 1 ? T.since_last : T.since_start;
      const sinceLine = card.querySelector('[data-role="since-line"]');
      if (sinceLine) sinceLine.hidden = pos > total || status !== "running" || !!undoing;
      const undo = card.querySelector('[data-action="undo"]');
      if (undo) {
        undo.hidden = !lastPos || !!undoing || card.dataset.counted !== "";
        if (lastPos) undo.querySelector('[data-role="undo-label"]').textContent = undoLabel(lastPos, since);
      }
      const actions = card.querySelector('[data-role="actions"]');
      const pending = card.querySelector('[data-role="pending"]');
      pending.hidden = true;
      if (status === "running") {
        actions.replaceChildren();
        if (pos <= total) {
          const b = button(fmt(T.finish_button, { n: pos }), "btn btn-primary btn-big jcard-finish", () => {});
          b.dataset.action = "finish";
          actions.append(b);
        }
      } else if (status === "stopped") {
        if (pendingCount !== null) {
          actions.hidden = true;
          pending.hidden = false;
          pending.textContent = fmt(T.counted_pending, { n: nf.format(pendingCount) });
        } else {
          const countButton = actions.querySelector('[data-action="count"]');
          if (countButton) countButton.textContent = fmt(T.count_button, { n: pos });
          actions.hidden = pos > total;
        }
      }
      if (undoWaiting) {
        pending.hidden = false;
        pending.textContent = fmt(T.undo_pending_line, { what: what(undoWaiting) });
      }
    });
  }

  /* ---- which tables this judge watches (remembered on the device) -------------------- */
  const TABLES_KEY = `judge-tables:v1:${cfg.slug}`;
  function readTables() {
    const v = stored(TABLES_KEY, []);
    return Array.isArray(v) ? v.map(Number).filter(Boolean) : [];
  }
  let tables = readTables();
  const urlTables = new URLSearchParams(location.search).getAll("t").map(Number).filter(Boolean);
  if (urlTables.length) {
    tables = urlTables;
    keep(TABLES_KEY, tables);
  }
  function showTables() {
    document.querySelectorAll('#tables-form input[name="t"]').forEach((box) => {
      box.checked = tables.includes(Number(box.value));
    });
    $("tables-label").textContent = tables.length ? tables.join(", ") : T.all_tables;
  }
  showTables();
  $("tables-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    tables = Array.from(document.querySelectorAll('#tables-form input[name="t"]:checked')).map((b) =>
      Number(b.value),
    );
    keep(TABLES_KEY, tables);
    showTables();
    $("tables-picker").open = false;
    history.replaceState(null, "", location.pathname);
    document.body.dispatchEvent(new CustomEvent("tables:changed", { bubbles: true }));
  });
  document.querySelectorAll("[data-tables]").forEach((b) =>
    b.addEventListener("click", () => {
      const on = b.dataset.tables === "all";
      document.querySelectorAll('#tables-form input[name="t"]').forEach((box) => (box.checked = on));
    }),
  );
  document.body.addEventListener("htmx:configRequest", (ev) => {
    if (ev.detail.elt !== board) return;
    const q = tables.map((t) => `t=${t}`).join("&");
    ev.detail.path = cfg.urls.board + (q ? `?${q}` : "");
  });
  let swapStarted = [];
  document.body.addEventListener("htmx:beforeRequest", (ev) => {
    if (ev.detail.elt === board) swapStarted = justDone.slice();
  });
  document.body.addEventListener("htmx:afterSwap", (ev) => {
    if (ev.detail.elt !== board) return;
    // what the server showed now includes what was sent before this request started
    justDone = justDone.filter((id) => !swapStarted.includes(id));
    for (const id of swapStarted) justDoneEntries.delete(id);
    const cards = $("cards");
    if (cards) {
      clock = Object.assign({}, clock, {
        status: cards.dataset.status,
        started_at_ms: Number(cards.dataset.startedAtMs) || null,
        end_ms: Number(cards.dataset.endMs) || null,
      });
      if (clock.status !== "running") endRefreshed = false;
    }
    applyOverlay();
    showClock();
  });

  /* ---- sheets ------------------------------------------------------------------------ */
  document.querySelectorAll("dialog [data-close]").forEach((b) =>
    b.addEventListener("click", () => b.closest("dialog").close()),
  );
  document.querySelectorAll("dialog").forEach((d) => d.addEventListener("close", () => setTimeout(showNextConfirm, 0)));

  function cardInfo(card) {
    return {
      team: Number(card.dataset.team),
      table: Number(card.dataset.table),
      name: card.dataset.name,
      pos: Number(card.dataset.pos || Number(card.dataset.finished) + 1),
    };
  }

  let tap = null; // {ms, at}: the time of the last pointerdown on a finish button
  board.addEventListener("pointerdown", (ev) => {
    const b = ev.target.closest('[data-action="finish"]');
    if (b) tap = { ms: serverNow(), at: Date.now(), card: b.closest(".jcard") };
  });
  board.addEventListener("click", (ev) => {
    const b = ev.target.closest("[data-action]");
    if (!b) return;
    const card = b.closest(".jcard");
    const action = b.dataset.action;
    if (!owning) {
      say(T.other_tab, "bad"); // a second tab without navigator.locks: nothing is taken here
      return;
    }
    if (action === "finish") {
      const fresh = tap && tap.card === card && Date.now() - tap.at < 3000;
      openFinish(card, fresh ? tap.ms : serverNow(), false);
      tap = null;
    } else if (action === "finish-late") openFinish(card, null, true);
    else if (action === "count") openCount(card, "count");
    else if (action === "confirm-count") openCount(card, "confirm", Number(b.dataset.count));
    else if (action === "recount") openCount(card, "recount", Number(b.dataset.count));
    else if (action === "warn") openWarn(card);
    else if (action === "undo" || action === "undo-saved") undo(card);
  });

  /* Finish: the time was taken at the tap; the sheet asks for missing pieces. */
  let finish = null;
  function openFinish(card, tapMs, late) {
    const info = cardInfo(card);
    const p = puzzles.get(info.pos);
    if (!p) return;
    let elapsed = null;
    if (tapMs !== null && clock.started_at_ms) elapsed = Math.max(0, Math.floor((tapMs - clock.started_at_ms) / 1000));
    finish = Object.assign(info, { pieces: p.pieces, spots: [], tapMs, elapsed });
    $("finish-title").textContent = `${tableText(info.table)} · ${info.name}`;
    $("finish-puzzle").textContent = puzzleLine(info.pos);
    $("finish-time").value = elapsed === null ? "" : hms(elapsed);
    $("finish-time").readOnly = !late;
    $("finish-time").classList.toggle("sheet-time-fixed", !late);
    $("spot-size").value = 2;
    $("finish-error").textContent = "";
    renderFinish();
    $("finish-sheet").showModal();
    if (late) $("finish-time").focus();
    else $("finish-save").focus();
  }
  function renderFinish() {
    const ul = $("finish-spots");
    ul.replaceChildren();
    finish.spots.forEach((size, i) => {
      const li = document.createElement("li");
      const text = document.createElement("span");
      text.textContent = size === 1 ? T.spot_one : fmt(T.spot_many, { n: size });
      li.append(text, button(`× ${T.remove}`, "btn", () => {
        finish.spots.splice(i, 1);
        renderFinish();
      }));
      ul.append(li);
    });
    const lone = finish.spots.filter((s) => s === 1).length;
    const fault = finish.spots.filter((s) => s >= 2).reduce((a, b) => a + b, 0);
    let text = lone === 0 ? T.deduct_none : lone === 1 ? T.deduct_one : fmt(T.deduct_many, { n: lone });
    if (fault) text += ` · ${fmt(T.fault, { n: fault })}`;
    $("finish-deduct").textContent = text;
    $("finish-deduct").classList.toggle("sheet-deduct-some", lone > 0);
    $("add-spot").textContent = fmt(T.add_spot, { n: spotSize() });
  }
  function spotSize() {
    return Math.max(2, Math.floor(Number($("spot-size").value)) || 2);
  }
  $("add-lone").addEventListener("click", () => {
    finish.spots.push(1);
    renderFinish();
  });
  $("add-spot").addEventListener("click", () => {
    finish.spots.push(spotSize());
    renderFinish();
  });
  $("spot-less").addEventListener("click", () => {
    $("spot-size").value = Math.max(2, spotSize() - 1);
    renderFinish();
  });
  $("spot-more").addEventListener("click", () => {
    $("spot-size").value = spotSize() + 1;
    renderFinish();
  });
  $("spot-size").addEventListener("input", () => ($("add-spot").textContent = fmt(T.add_spot, { n: spotSize() })));
  $("finish-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const elapsed = parseHms($("finish-time").value);
    if (elapsed === null) {
      $("finish-error").textContent = T.bad_time;
      return;
    }
    if (finish.spots.reduce((a, b) => a + b, 0) > finish.pieces) {
      $("finish-error").textContent = T.too_many_missing;
      return;
    }
    const missing = finish.spots.slice();
    enqueue({
      kind: "finish",
      url: cfg.urls.finishes,
      body: { team: finish.team, puzzle: finish.pos, missing, elapsed_seconds: elapsed },
      team: finish.team,
      table: finish.table,
      team_name: finish.name,
      puzzle: finish.pos,
      missing,
      elapsed_seconds: elapsed,
      tapped_at_ms: finish.tapMs,
      clock: sync ? { offset_ms: sync.offset_ms, rtt_ms: sync.rtt_ms, synced_at: sync.synced_at } : null,
    }).then((e) => {
      if (!e) return;
      noteSaved(e);
      applyOverlay();
    });
    $("finish-sheet").close();
  });

  /* Count (R9, R10): placed pieces, or piles of 10 + rest + loose; checked before sending. */
  let count = null;
  function countMode() {
    return document.querySelector('input[name="count-mode"]:checked').value;
  }
  function countValue() {
    const n = (id) => {
      const v = $(id).value.trim();
      return v === "" ? 0 : Math.floor(Number(v));
    };
    if (countMode() === "placed") {
      if ($("count-pieces").value.trim() === "") return { error: T.count_missing };
      return { pieces: n("count-pieces"), body: { pieces: n("count-pieces") } };
    }
    if (["count-piles", "count-rest", "count-loose"].every((id) => $(id).value.trim() === "")) {
      return { error: T.count_missing };
    }
    const unplaced = n("count-piles") * 10 + n("count-rest");
    const loose = n("count-loose");
    // the sum as the judge counted it: "1000 − 420 − 7 − 15" (issue 15 point 14)
    const terms = [count.pieces, n("count-piles") * 10, n("count-rest"), loose].map((x) => nf.format(x));
    return { pieces: count.pieces - unplaced - loose, body: { unplaced, loose }, sum: terms.join(" − ") };
  }
  function countProblem(v) {
    if (v.error) return v.error;
    const inputs = document.querySelectorAll("#count-form input[type=number]");
    if (Array.from(inputs).some((i) => i.value.trim() !== "" && !(Number(i.value) >= 0 && Number.isInteger(Number(i.value))))) {
      return T.count_missing;
    }
    if (v.pieces < 0) return T.count_negative;
    if (v.pieces === 1 || v.pieces === 2) return T.count_one_two;
    if (v.pieces > count.pieces) return fmt(T.count_too_many, { pieces: nf.format(count.pieces) });
    if (v.pieces === count.pieces) return fmt(T.count_is_finish, { pieces: nf.format(count.pieces) });
    return "";
  }
  function renderCount() {
    document.querySelectorAll(".count-fields").forEach((f) => (f.hidden = f.dataset.mode !== countMode()));
    const v = countValue();
    const result = v.error ? "" : fmt(T.count_result, { n: nf.format(v.pieces) });
    $("count-result").textContent = v.sum && result ? `${v.sum} ${result}` : result;
    const problem = v.error ? "" : countProblem(v);
    $("count-error").textContent = problem;
    $("count-result").classList.toggle("bad", !!problem);
  }
  /* mode: "count" (the first count), "confirm" (the second, blind count: the first number
   * is never shown, DESIGN.md second_count) or "recount" (the counting judge corrects it
   * until it is confirmed). */
  function openCount(card, mode, countId) {
    const info = cardInfo(card);
    const p = puzzles.get(info.pos);
    if (!p) return;
    count = Object.assign(info, { pieces: p.pieces, mode, countId });
    $("count-form").reset();
    const title = { count: T.count_button, confirm: T.confirm_button, recount: T.recount_button }[mode];
    $("count-title").textContent = `${fmt(title, { n: info.pos })} · ${tableText(info.table)} · ${info.name}`;
    $("count-puzzle").textContent = puzzleLine(info.pos);
    $("count-blind").hidden = mode !== "confirm";
    renderCount();
    $("count-sheet").showModal();
  }
  $("count-form").addEventListener("input", renderCount);
  $("count-form").addEventListener("change", renderCount);
  $("count-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const v = countValue();
    const problem = countProblem(v);
    if (problem) {
      $("count-error").textContent = problem;
      return;
    }
    const where = {
      count: { kind: "count", url: cfg.urls.counts, body: Object.assign({ team: count.team }, v.body) },
      confirm: { kind: "confirm", url: `${cfg.urls.counts}${count.countId}/confirm`, body: v.body },
      recount: {
        kind: "recount",
        method: "PATCH",
        url: `${cfg.urls.counts}${count.countId}/`,
        body: Object.assign({ reason: T.recount_reason }, v.body),
      },
    }[count.mode];
    enqueue({
      kind: where.kind,
      url: where.url,
      method: where.method,
      body: where.body,
      team: count.team,
      table: count.table,
      team_name: count.name,
      puzzle: count.pos,
      pieces: v.pieces,
    });
    $("count-sheet").close();
  });

  /* Warning (R14): through the outbox like a tap, so it waits for the network and a resend
   * is never a second warning (the server knows its request_id). */
  let warnCard = null;
  function openWarn(card) {
    warnCard = cardInfo(card);
    $("warn-form").reset();
    $("warn-error").textContent = "";
    $("warn-title").textContent = `${T.warn_title} · ${tableText(warnCard.table)} · ${warnCard.name}`;
    $("warn-sheet").showModal();
    $("warn-reason").focus();
  }
  $("warn-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const reason = $("warn-reason").value.trim();
    if (!reason) {
      $("warn-error").textContent = T.reason_missing;
      return;
    }
    enqueue({
      kind: "warning",
      url: `${cfg.urls.teams}${warnCard.team}/warnings/`,
      body: { reason },
      team: warnCard.team,
      table: warnCard.table,
      team_name: warnCard.name,
      reason,
    });
    $("warn-sheet").close();
  });

  /* A yes/no sheet. */
  let confirmAction = null;
  function ask(title, text, yes, no, onYes, onNo, alt) {
    $("confirm-title").textContent = title;
    $("confirm-text").textContent = text;
    $("confirm-yes").textContent = yes;
    $("confirm-no").textContent = no;
    $("confirm-alt").hidden = !alt;
    $("confirm-alt").textContent = alt ? alt.label : "";
    confirmAction = { onYes, onNo, onAlt: alt && alt.fn };
    $("confirm-sheet").showModal();
  }
  $("confirm-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const a = confirmAction;
    confirmAction = null;
    $("confirm-sheet").close();
    if (a && a.onYes) a.onYes();
  });
  $("confirm-alt").addEventListener("click", () => {
    const a = confirmAction;
    confirmAction = null;
    $("confirm-sheet").close();
    if (a && a.onAlt) a.onAlt();
  });
  $("confirm-no").addEventListener("click", () => {
    const a = confirmAction;
    confirmAction = null;
    $("confirm-sheet").close();
    if (a && a.onNo) a.onNo();
  });

  /* Undo the latest finish (OFFLINE.md). A tap still on the tablet: never tried -> taken
   * off; tried (it may have reached the server) -> a cancel of its request_id goes through
   * the outbox. A saved finish: its delete goes through the outbox. "Undone" is said only
   * when the tablet took it off, or when the server has answered. */
  function undo(card) {
    const info = cardInfo(card);
    const mine = outbox.entries().filter((e) => e.team === info.team);
    if (mine.some((e) => e.kind === "cancel" || e.kind === "delete")) return; // one at a time
    const waiting = mine
      .filter((e) => e.kind === "finish")
      .sort((a, b) => b.created_ms - a.created_ms)[0];
    if (waiting) {
      const text = JudgeOutbox.tried(waiting) ? T.undo_tried_confirm : T.undo_pending_confirm;
      ask(T.undo_title, fmt(text, { n: waiting.puzzle, table: info.table }), T.yes_undo, T.no, () =>
        undoEntry(waiting),
      );
      return;
    }
    let id = card.dataset.latestFinish;
    let n = Number(card.dataset.latestPosition);
    const sent = justDone
      .map((x) => justDoneEntries.get(x))
      .filter((x) => x && x.kind === "finish" && x.team === info.team && x.saved_id)
      .pop();
    if (sent && sent.puzzle > (n || 0)) {
      id = String(sent.saved_id); // answered, not yet on the refreshed board
      n = sent.puzzle;
    }
    if (!id) return;
    ask(T.undo_title, fmt(T.undo_confirm, { n, table: info.table }), T.yes_undo, T.no, () => {
      enqueue({
        kind: "delete",
        method: "DELETE",
        url: `${cfg.urls.finishes}${id}/`,
        team: info.team,
        table: info.table,
        team_name: info.name,
        puzzle: n,
        finish: Number(id),
      }).then((e) => e && say(fmt(T.undo_waiting, { what: what(e), table: info.table }), "info"));
    });
  }
  async function undoEntry(e) {
    let r;
    try {
      r = await outbox.undo(e.request_id, (x) => ({
        kind: "cancel",
        url: `${cfg.urls.requests}${x.request_id}/cancel`,
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
      owning = false;
      showOwner();
      say(T.other_tab, "bad");
      return;
    }
    const vars = { what: what(e), table: e.table };
    if (r.outcome === "removed") say(fmt(T.undone, vars), "ok");
    else if (r.outcome === "cancel") say(fmt(T.undo_waiting, vars), "info");
    else say(T.undo_sending, "warn");
  }

  /* "Ret tiden": the asked-about tap is undone and the sheet opens again with its time
   * editable (and its missing pieces), to be saved as a new tap. */
  async function fixTime(e) {
    await undoEntry(e);
    const card = document.querySelector(`.jcard[data-team="${e.team}"]`);
    if (!card) return;
    applyOverlay();
    openFinish(card, null, true);
    finish.spots = e.missing.slice();
    $("finish-time").value = hms(e.elapsed_seconds);
    renderFinish();
    $("finish-time").select();
  }

  /* Plausibility (issue 4, item 5): the server asks; the judge confirms or drops it. */
  function showNextConfirm() {
    if (anyDialogOpen()) return;
    let id;
    while ((id = confirmQueue.shift())) {
      const e = outbox.entries().find((x) => x.request_id === id && x.state === "confirm");
      if (!e) continue;
      ask(
        T.implausible_title,
        `${tableText(e.table)} · ${e.team_name} · ${entryText(e)}\n${e.message}`,
        T.save_anyway,
        T.delete_it,
        () => outbox.confirm(e.request_id),
        () => undoEntry(e),
        { label: T.fix_time, fn: () => fixTime(e) }, // issue 15 point 13
      );
      return;
    }
  }

  /* ---- the pill, "Send now", flush triggers, logout warning -------------------------- */
  $("outbox-pill").addEventListener("click", () => {
    renderOutboxList();
    $("outbox-sheet").showModal();
  });
  $("send-now").addEventListener("click", () => outbox.sendNow());
  $("outbox-send").addEventListener("click", () => outbox.sendNow());
  window.addEventListener("online", () => {
    outbox.sendNow();
    syncClock();
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") {
      outbox.flush();
      syncClock();
    }
  });
  window.addEventListener("storage", (ev) => {
    // this judge's outbox changed in another tab, or another judge's (renderOthers)
    if (ev.key === null || ev.key.startsWith(JudgeOutbox.keyFor(cfg.slug, ""))) changed();
  });
  // taps only in memory (storage full or unavailable): a reload would lose them
  window.addEventListener("beforeunload", (ev) => {
    if (outbox.summary().unsaved > 0) ev.preventDefault();
  });
  const logout = document.querySelector(`form[action="${cfg.urls.logout}"]`);
  if (logout) {
    logout.addEventListener("submit", (ev) => {
      const s = outbox.summary();
      const text = s.total === 1 ? T.logout_pending_one : fmt(T.logout_pending, { n: s.total });
      if (s.total > 0 && !window.confirm(text)) ev.preventDefault();
    });
  }
  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register(cfg.urls.worker).catch(() => {});
  }

  for (const e of outbox.entries()) if (e.state === "confirm") confirmQueue.push(e.request_id);
  changed();
  showOwner();
  showClock();
  // htmx binds its triggers on DOMContentLoaded, after this script has run
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", refreshBoard);
  else refreshBoard();
  syncClock();
  outbox.flush();
  showNextConfirm();
})();
