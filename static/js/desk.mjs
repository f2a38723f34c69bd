// The desk: the check-in countdown (R2) and member / puzzle rows added and removed in place.
import { until } from "./format.mjs";
import { serverTime } from "./clock.mjs";

{
  document.documentElement.classList.add("js");

  // --- countdown to the check-in deadline, corrected by the server's clock ---------------
  var box = document.getElementById("deadline");
  if (box) {
    var deadline = Date.parse(box.dataset.deadline);
    var time = serverTime(box.dataset.timeUrl);
    var out = box.querySelector("[data-role=countdown]");
    var tick = function () {
      var left = Math.floor((deadline - time.now()) / 1000);
      if (left <= 0) {
        out.textContent = out.dataset.over;
        document.body.classList.add("past-deadline");
        return;
      }
      var words = { days: out.dataset.days, hours: out.dataset.hours };
      out.textContent = out.dataset.prefix + " " + until(left, words);
      setTimeout(tick, 1000 - (Date.now() % 1000));
    };
    time.sync().then(tick);
  }

  // --- formset rows: add from the <template>, remove by ticking DELETE ------------------
  document.addEventListener("click", function (event) {
    var add = event.target.closest("[data-add-row]");
    if (add) {
      var prefix = add.dataset.addRow;
      var total = document.getElementById("id_" + prefix + "-TOTAL_FORMS");
      var tpl = document.querySelector("template[data-empty-form=" + prefix + "]");
      var rows = document.querySelector("[data-formset=" + prefix + "]");
      var index = Number(total.value);
      var html = tpl.innerHTML.replace(/__prefix__/g, String(index));
      var holder = document.createElement(rows.tagName === "TBODY" ? "tbody" : "div");
      holder.innerHTML = html;
      var row = holder.firstElementChild;
      var order = row.querySelector("input[name$=-ORDER]");
      if (order) order.value = rows.querySelectorAll("[data-row]:not(.is-removed)").length + 1;
      rows.appendChild(row);
      total.value = index + 1;
      var first = row.querySelector("input[type=text]");
      if (first) first.focus();
      return;
    }
    var remove = event.target.closest("[data-remove-row]");
    if (remove) {
      var r = remove.closest("[data-row]");
      var del = r.querySelector("input[name$=-DELETE]");
      if (del) del.checked = true;
      r.classList.add("is-removed");
    }
  });

  // --- under 15: show the adult's field and require it (R3) ------------------------------
  var syncU15 = function (input) {
    var row = input.closest(".member-row");
    if (!row) return;
    row.classList.toggle("is-u15", input.checked);
    var guardian = row.querySelector("input[name$=-guardian]");
    if (guardian) guardian.required = input.checked;
  };
  document.addEventListener("change", function (event) {
    if (event.target.matches("input[name$=-under_15]")) syncU15(event.target);
  });
  document.querySelectorAll("input[name$=-under_15]").forEach(syncU15);

  // --- confirmations (withdraw) -----------------------------------------------------------
  document.addEventListener("submit", function (event) {
    var text = event.target.dataset && event.target.dataset.confirm;
    if (text && !window.confirm(text)) event.preventDefault();
  }, true);
}
