/* The layout check's measurement (tests/e2e/test_e2e_layout.py's docstring says the rule):
   the whole page in one evaluate() call, at one moment, so no poll can fall in between. */
({ mustFit, ready, pager }) => {
  // Null (wait_for_function tries again) until the page's state has rendered; then the
  // measurement, in this same call: no swap can fall between the check and the measuring.
  if (!document.querySelector(ready)) return null;
  const info = document.querySelector("[data-pager-info]");
  if (pager && !(info && info.textContent)) return null;
  const vw = document.documentElement.clientWidth;
  const problems = [];
  const FIELDS = ["INPUT", "TEXTAREA", "SELECT"];
  const label = (el) => {
    let s = el.tagName.toLowerCase();
    if (el.id) s += "#" + el.id;
    if (el.classList.length) s += "." + [...el.classList].join(".");
    const text = (el.innerText || el.textContent || "").trim().replace(/\s+/g, " ");
    return s + (text ? ' "' + text.slice(0, 60) + '"' : "");
  };
  if (document.documentElement.scrollWidth > vw + 1) {
    problems.push("the page is " + document.documentElement.scrollWidth + " px wide, the viewport " + vw);
  }
  const excused = (el) => {
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== "visible") {
        if (mustFit.some((selector) => a.matches(selector))) return false;
        const r = a.getBoundingClientRect();
        if (r.right <= vw + 1 && r.left >= -1) return true;
      }
    }
    return false;
  };
  const found = [];
  for (const el of document.body.querySelectorAll("*")) {
    if (["SCRIPT", "STYLE", "TEMPLATE", "NOSCRIPT"].includes(el.tagName)) continue;
    const r = el.getBoundingClientRect();
    if (r.width <= 1 && r.height <= 1) continue;
    const cs = getComputedStyle(el);
    if (cs.visibility === "hidden") continue;
    if ((r.right > vw + 1 || r.left < -1) && !excused(el)) {
      found.push([el, "sideways", " spans " + Math.round(r.left) + ".." + Math.round(r.right) + " of " + vw]);
    }
    if (cs.display === "inline" || cs.display === "contents" || FIELDS.includes(el.tagName)) continue;
    if (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1) {
      // What its children draw (after transforms: a scaled preview is drawn small).
      const right = r.right - parseFloat(cs.borderRightWidth), left = r.left + parseFloat(cs.borderLeftWidth);
      let out = false;
      for (const child of el.childNodes) {
        let box = null;
        if (child.nodeType === Node.ELEMENT_NODE) box = child.getBoundingClientRect();
        else if (child.nodeType === Node.TEXT_NODE && child.textContent.trim()) {
          const range = document.createRange();
          range.selectNodeContents(child);
          box = range.getBoundingClientRect();
        }
        if (box && box.width > 0 && (box.right > right + 1 || box.left < left - 1)) out = true;
      }
      if (!out) continue;
      const ox = cs.overflowX;
      if (ox === "auto" || ox === "scroll") continue;
      if ((ox === "hidden" || ox === "clip") && cs.textOverflow === "ellipsis") continue;
      found.push([el, "text overflows", " is " + el.scrollWidth + " px wide in " + el.clientWidth + " (overflow-x " + ox + ")"]);
    }
  }
  // The innermost elements only (a row that overflows because its cell does: the cell), and
  // each kind of element once, with how many there are.
  const seen = new Map();
  for (const [el, kind, detail] of found) {
    if (found.some(([other, k]) => k === kind && other !== el && el.contains(other))) continue;
    const key = kind + " " + el.tagName + "." + [...el.classList].join(".");
    if (seen.has(key)) { seen.get(key).n += 1; continue; }
    seen.set(key, { n: 1, text: kind + ": " + label(el) + detail });
  }
  for (const { n, text } of seen.values()) problems.push(text + (n > 1 ? " (and " + (n - 1) + " more like it)" : ""));
  return problems;
}
