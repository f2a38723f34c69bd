/* The short name in the address, suggested from the competition's name as it is typed.
 * The same steps as competition/slugs.py (the server makes the same from the same name).
 * The pure parts are exported for the Node tests (tests/js/pages_unit.mjs). */
const MAX = 50;
const MARKS = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g;

/* The short name of `text`: æ ø å as ae oe aa, accents dropped, a-z 0-9 joined by "-". */
export function slugFrom(text) {
  const s = String(text).toLowerCase().replace(/æ/g, "ae").replace(/ø/g, "oe").replace(/å/g, "aa");
  const plain = s.normalize("NFKD").replace(MARKS, "");
  return plain.replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, MAX).replace(/-+$/, "");
}

/* Has the organiser written a short name of their own (not empty, not the suggestion)? */
export const ownSlug = (slug, name) => slug !== "" && slug !== slugFrom(name);

/* ---- the page ------------------------------------------------------------------------ */

/* <input data-slug-from="id_name">: filled from that field (`source`) until the organiser
 * edits it. A name typed before this module ran (a module runs after the page is parsed,
 * later on a slow line) is suggested at once: its input events came before the listener. */
export function wire(slug, source) {
  let touched = ownSlug(slug.value, source.value);
  if (!touched && source.value) slug.value = slugFrom(source.value);
  source.addEventListener("input", () => {
    if (!touched) slug.value = slugFrom(source.value);
  });
  slug.addEventListener("input", () => {
    touched = slug.value !== "";
  });
  slug.addEventListener("change", () => {
    if (slug.value) slug.value = slugFrom(slug.value);
  });
}

if (typeof document !== "undefined") {
  document.querySelectorAll("input[data-slug-from]").forEach((slug) => {
    const source = document.getElementById(slug.dataset.slugFrom);
    if (source) wire(slug, source);
  });
}
