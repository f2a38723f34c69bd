// The error summary (templates/_error_summary.html): takes the focus when the page opens,
// and a link in it moves the focus to its field, with the field's label in view.
(function () {
  "use strict";
  var box = document.querySelector("[data-error-summary]");
  if (!box) return;
  box.focus();
  box.addEventListener("click", function (event) {
    var link = event.target.closest("a[href^='#']");
    if (!link) return;
    var field = document.getElementById(link.getAttribute("href").slice(1));
    if (!field) return;
    event.preventDefault();
    var details = field.closest("details");
    if (details) details.open = true;
    var label = document.querySelector("label[for='" + field.id + "']") || field.closest("label, fieldset");
    (label || field).scrollIntoView();
    field.focus({ preventScroll: true });
  });
})();
