/* The error summary (templates/_error_summary.html): takes the focus when the page opens,
 * and a link in it moves the focus to its field, with the field's label in view. The
 * summary's wiring takes the document, so the Node tests (tests/js/pages_unit.mjs) give it
 * a small stand-in. */

/* The id of the field a summary's link points at ("#id_name" -> "id_name"), or null. */
export function fieldId(href) {
  if (!href || !href.startsWith("#") || href.length < 2) return null;
  return href.slice(1);
}

/* Focus the summary of `doc` and make its links focus their fields; false if there is none. */
export function wireSummary(doc) {
  const box = doc.querySelector("[data-error-summary]");
  if (!box) return false;
  box.focus();
  box.addEventListener("click", (event) => {
    const link = event.target.closest("a[href^='#']");
    if (!link) return;
    const id = fieldId(link.getAttribute("href"));
    const field = id && doc.getElementById(id);
    if (!field) return;
    event.preventDefault();
    const details = field.closest("details");
    if (details) details.open = true;
    const label = doc.querySelector(`label[for='${field.id}']`) || field.closest("label, fieldset");
    (label || field).scrollIntoView();
    field.focus({ preventScroll: true });
  });
  return true;
}

if (typeof document !== "undefined") wireSummary(document);
