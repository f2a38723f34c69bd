/* The sheets a card opens: a finish with its missing pieces (R5, R8), a count (R9, R10)
 * and a warning (R14). Each checks what it can before the tap goes to the outbox. */
import { fmt, hms, parseHms } from "../format.mjs";
import { $, button } from "./page.mjs";
import { cardInfo } from "./board.mjs";

/* Why a count of `pieces` cannot be saved for a puzzle of `total` pieces, or "" (R9):
 * said in words, with the number the judge counted. Pure. */
export function countRefusal(pieces, total, T, nf) {
  if (pieces < 0) return T.count_negative;
  if (pieces === 1) return T.count_one;
  if (pieces === 2) return fmt(T.count_two, { n: 2 });
  if (pieces > total) return fmt(T.count_too_many, { pieces: nf.format(total) });
  if (pieces === total) return fmt(T.count_is_finish, { pieces: nf.format(total) });
  return "";
}

export function setupSheets(ctx) {
  const { cfg, state, w } = ctx;
  const T = w.T;

  /* Finish: the time was taken at the tap; the sheet asks for missing pieces. A late one
   * (after the end) has its time typed in. */
  function openFinish(card, tapMs, late) {
    const info = cardInfo(card);
    const comp = ctx.compOf(card);
    const p = comp && comp.puzzles.get(info.pos);
    if (!p) return;
    let elapsed = null;
    const started = ctx.clockOf(comp).started_at_ms;
    if (tapMs !== null && started) elapsed = Math.max(0, Math.floor((tapMs - started) / 1000));
    state.finish = Object.assign(info, { comp, pieces: p.pieces, spots: [], tapMs, elapsed });
    $("finish-title").textContent = `${w.tableText(info.table)} · ${info.name}`;
    $("finish-puzzle").textContent = w.sheetLine(info.pos, comp);
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
    const finish = state.finish;
    const ul = $("finish-spots");
    ul.replaceChildren();
    finish.spots.forEach((size, i) => {
      const li = document.createElement("li");
      const text = document.createElement("span");
      text.textContent = size === 1 ? T.spot_one : fmt(T.spot_many, { n: size });
      li.append(
        text,
        button(`× ${T.remove}`, "btn", () => {
          finish.spots.splice(i, 1);
          renderFinish();
        }),
      );
      ul.append(li);
    });
    const lone = finish.spots.filter((s) => s === 1).length;
    const fault = finish.spots.filter((s) => s >= 2).reduce((a, b) => a + b, 0);
    let text = w.deducted(lone, finish.comp);
    if (fault) text += ` · ${w.fault(fault, finish.comp)}`;
    $("finish-deduct").textContent = text;
    $("finish-deduct").classList.toggle("sheet-deduct-some", lone > 0);
    $("add-spot").textContent = fmt(T.add_spot, { n: spotSize() });
  }
  function spotSize() {
    return Math.max(2, Math.floor(Number($("spot-size").value)) || 2);
  }
  const addSpot = (size) => () => {
    state.finish.spots.push(size === null ? spotSize() : size);
    renderFinish();
  };
  $("add-lone").addEventListener("click", addSpot(1));
  $("add-spot").addEventListener("click", addSpot(null));
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
    const finish = state.finish;
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
    const sync = state.sync;
    ctx
      .enqueue({
        kind: "finish",
        competition: finish.comp.slug,
        url: finish.comp.urls.finishes,
        body: { team: finish.team, puzzle: finish.pos, missing, elapsed_seconds: elapsed },
        team: finish.team,
        table: finish.table,
        team_name: finish.name,
        puzzle: finish.pos,
        missing,
        elapsed_seconds: elapsed,
        tapped_at_ms: finish.tapMs,
        clock: sync ? { offset_ms: sync.offset_ms, rtt_ms: sync.rtt_ms, synced_at: sync.synced_at } : null,
      })
      .then((e) => e && ctx.board.apply()); // "noted on the tablet" until the server answers
    $("finish-sheet").close();
  });
  /* "Ret tiden": the sheet again, its time editable, with the missing pieces of `e`. */
  function reopenFinish(card, e) {
    openFinish(card, null, true);
    state.finish.spots = e.missing.slice();
    $("finish-time").value = hms(e.elapsed_seconds);
    renderFinish();
    $("finish-time").select();
  }

  /* Count (R9, R10): placed pieces, or piles of 10 + rest + loose; checked before sending. */
  const countMode = () => document.querySelector('input[name="count-mode"]:checked').value;
  function countValue() {
    const count = state.count;
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
    // the sum as the judge counted it: "1000 − 420 − 7 − 15"
    const terms = [count.pieces, n("count-piles") * 10, n("count-rest"), loose].map((x) => w.nf.format(x));
    return { pieces: count.pieces - unplaced - loose, body: { unplaced, loose }, sum: terms.join(" − ") };
  }
  function countProblem(v) {
    const count = state.count;
    if (v.error) return v.error;
    const inputs = document.querySelectorAll("#count-form input[type=number]");
    const whole = (x) => Number(x) >= 0 && Number.isInteger(Number(x));
    if (Array.from(inputs).some((i) => i.value.trim() !== "" && !whole(i.value))) return T.count_missing;
    return countRefusal(v.pieces, count.pieces, T, w.nf);
  }
  function renderCount() {
    document.querySelectorAll(".count-fields").forEach((f) => (f.hidden = f.dataset.mode !== countMode()));
    const v = countValue();
    const problem = v.error ? "" : countProblem(v);
    // "= 2 pieces count" is said only of a count that counts; a refused one says why, and
    // its button is visibly off until the numbers are right
    const result = v.error || problem ? "" : fmt(T.count_result, { n: w.nf.format(v.pieces) });
    $("count-result").textContent = v.sum && result ? `${v.sum} ${result}` : result;
    $("count-result").hidden = !result;
    $("count-error").textContent = problem;
    $("count-save").disabled = !!(v.error || problem);
  }
  /* mode: "count" (the first count), "confirm" (the second, blind count: the first number
   * is never shown, docs/contracts.md second_count) or "recount" (the counting judge corrects it
   * until it is confirmed). */
  function openCount(card, mode, countId) {
    const info = cardInfo(card);
    const comp = ctx.compOf(card);
    const p = comp && comp.puzzles.get(info.pos);
    if (!p) return;
    state.count = Object.assign(info, { comp, pieces: p.pieces, mode, countId });
    $("count-form").reset();
    const title = { count: T.count_button, confirm: T.confirm_button, recount: T.recount_button }[mode];
    $("count-title").textContent = `${fmt(title, { n: info.pos })} · ${w.tableText(info.table)} · ${info.name}`;
    $("count-puzzle").textContent = w.sheetLine(info.pos, comp);
    $("count-blind").hidden = mode !== "confirm";
    renderCount();
    $("count-sheet").showModal();
  }
  $("count-form").addEventListener("input", renderCount);
  $("count-form").addEventListener("change", renderCount);
  $("count-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const count = state.count;
    const v = countValue();
    const problem = countProblem(v);
    if (problem) {
      $("count-error").textContent = problem;
      return;
    }
    const urls = count.comp.urls;
    const where = {
      count: { kind: "count", url: urls.counts, body: Object.assign({ team: count.team }, v.body) },
      confirm: { kind: "confirm", url: `${urls.counts}${count.countId}/confirm`, body: v.body },
      recount: {
        kind: "recount",
        method: "PATCH",
        url: `${urls.counts}${count.countId}/`,
        body: Object.assign({ reason: T.recount_reason }, v.body),
      },
    }[count.mode];
    ctx.enqueue({
      kind: where.kind,
      competition: count.comp.slug,
      url: where.url,
      method: where.method,
      body: where.body,
      team: count.team,
      table: count.table,
      team_name: count.name,
      puzzle: count.pos,
      pieces: v.pieces,
      count_id: count.countId || null, // the count a second count or correction is about
    });
    $("count-sheet").close();
  });

  /* Warning (R14): through the outbox like a tap, so it waits for the network and a resend
   * is never a second warning (the server knows its request_id). */
  function openWarn(card) {
    state.warn = Object.assign(cardInfo(card), { comp: ctx.compOf(card) });
    $("warn-form").reset();
    $("warn-error").textContent = "";
    $("warn-title").textContent = `${T.warn_title} · ${w.tableText(state.warn.table)} · ${state.warn.name}`;
    $("warn-sheet").showModal();
    $("warn-reason").focus();
  }
  $("warn-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const warn = state.warn;
    const reason = $("warn-reason").value.trim();
    if (!reason) {
      $("warn-error").textContent = T.reason_missing;
      return;
    }
    ctx.enqueue({
      kind: "warning",
      competition: warn.comp.slug,
      url: `${warn.comp.urls.teams}${warn.team}/warnings/`,
      body: { reason },
      team: warn.team,
      table: warn.table,
      team_name: warn.name,
      reason,
    });
    $("warn-sheet").close();
  });

  return { openFinish, reopenFinish, openCount, openWarn };
}
