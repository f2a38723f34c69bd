/* Which tables this judge watches, remembered on the device; the board's requests ask the
 * server for those (docs/offline.md). */
import { $, keep, stored } from "./page.mjs";
import { tablesKey } from "./device.mjs";

export function setupTables({ cfg, state, store, w }) {
  const KEY = tablesKey(cfg.slug);
  const boxes = () => document.querySelectorAll('#tables-form input[name="t"]');
  const saved = stored(store, KEY, []);
  state.tables = Array.isArray(saved) ? saved.map(Number).filter(Boolean) : [];
  const fromUrl = new URLSearchParams(location.search).getAll("t").map(Number).filter(Boolean);
  if (fromUrl.length) {
    state.tables = fromUrl;
    keep(store, KEY, state.tables);
  }

  function show() {
    boxes().forEach((box) => {
      box.checked = state.tables.includes(Number(box.value));
    });
    $("tables-label").textContent = state.tables.length ? state.tables.join(", ") : w.T.all_tables;
  }
  show();

  let everyTable = false; // "Alle" pressed, no box changed since
  $("tables-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    // "Alle" is every table, also one that comes later (a walk-in, a competition of the
    // championship that comes on later): no tables chosen, not today's list of them.
    const ticked = Array.from(document.querySelectorAll('#tables-form input[name="t"]:checked'));
    state.tables = everyTable ? [] : ticked.map((b) => Number(b.value));
    keep(store, KEY, state.tables);
    show();
    $("tables-picker").open = false;
    history.replaceState(null, "", location.pathname);
    document.body.dispatchEvent(new CustomEvent("tables:changed", { bubbles: true }));
  });
  document.querySelectorAll("[data-tables]").forEach((b) =>
    b.addEventListener("click", () => {
      const on = b.dataset.tables === "all";
      boxes().forEach((box) => (box.checked = on));
      everyTable = on;
    }),
  );
  $("tables-form").addEventListener("change", () => (everyTable = false));
  const board = $("board");
  document.body.addEventListener("htmx:configRequest", (ev) => {
    if (ev.detail.elt !== board) return;
    const q = state.tables.map((t) => `t=${t}`).join("&");
    ev.detail.path = cfg.urls.board + (q ? `?${q}` : "");
  });
}
