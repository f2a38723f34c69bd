/* The desk's pages (teams, a team's form, the setup): the check-in countdown (R2) on the
 * server's time, member / puzzle rows added and removed in place, the adult's field of an
 * under-15 member (R3), and the confirmations. The pure parts are exported for the Node
 * tests (tests/js/desk_unit.mjs). */
import { until } from "./format.mjs";
import { serverTime } from "./clock.mjs";
import { setupConfirm } from "./confirm.mjs";

/* The countdown's text `left` seconds before the deadline; null once it has passed. `out`:
 * the page's words {prefix, days, hours}. */
export function deadlineText(left, out) {
  if (left <= 0) return null;
  return `${out.prefix} ${until(left, { days: out.days, hours: out.hours })}`;
}

/* A formset's empty form as row number `index`: Django's "__prefix__" replaced. */
export const formRow = (template, index) => template.replace(/__prefix__/g, String(index));

/* ---- the page ------------------------------------------------------------------------ */

function setupDeadline() {
  const box = document.getElementById("deadline");
  if (!box) return;
  const deadline = Date.parse(box.dataset.deadline);
  const time = serverTime(box.dataset.timeUrl);
  const out = box.querySelector("[data-role=countdown]");
  const tick = () => {
    const text = deadlineText(Math.floor((deadline - time.now()) / 1000), out.dataset);
    if (text === null) {
      out.textContent = out.dataset.over;
      document.body.classList.add("past-deadline");
      return;
    }
    out.textContent = text;
    setTimeout(tick, 1000 - (Date.now() % 1000));
  };
  time.sync().then(tick);
}

/* Formset rows: add from the <template>, remove by ticking DELETE. */
function setupRows() {
  document.addEventListener("click", (event) => {
    const add = event.target.closest("[data-add-row]");
    if (add) {
      const prefix = add.dataset.addRow;
      const total = document.getElementById(`id_${prefix}-TOTAL_FORMS`);
      const tpl = document.querySelector(`template[data-empty-form=${prefix}]`);
      const rows = document.querySelector(`[data-formset=${prefix}]`);
      const index = Number(total.value);
      const holder = document.createElement(rows.tagName === "TBODY" ? "tbody" : "div");
      holder.innerHTML = formRow(tpl.innerHTML, index);
      const row = holder.firstElementChild;
      const order = row.querySelector("input[name$=-ORDER]");
      if (order) order.value = rows.querySelectorAll("[data-row]:not(.is-removed)").length + 1;
      rows.appendChild(row);
      total.value = index + 1;
      const first = row.querySelector("input[type=text]");
      if (first) first.focus();
      return;
    }
    const remove = event.target.closest("[data-remove-row]");
    if (remove) {
      const row = remove.closest("[data-row]");
      const del = row.querySelector("input[name$=-DELETE]");
      if (del) del.checked = true;
      row.classList.add("is-removed");
    }
  });
}

/* Under 15: show the adult's field and require it (R3). */
function setupUnder15() {
  const sync = (input) => {
    const row = input.closest(".member-row");
    if (!row) return;
    row.classList.toggle("is-u15", input.checked);
    const guardian = row.querySelector("input[name$=-guardian]");
    if (guardian) guardian.required = input.checked;
  };
  document.addEventListener("change", (event) => {
    if (event.target.matches("input[name$=-under_15]")) sync(event.target);
  });
  document.querySelectorAll("input[name$=-under_15]").forEach(sync);
}

if (typeof document !== "undefined") {
  document.documentElement.classList.add("js");
  setupDeadline();
  setupRows();
  setupUnder15();
  setupConfirm();
}
