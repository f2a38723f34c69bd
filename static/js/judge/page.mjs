/* The judge page's small DOM helpers: its config, the device's storage, the CSRF token,
 * messages for the judge. Nothing runs on import. */

export const $ = (id) => document.getElementById(id);

/* The judge-config json_script: urls, the clock, the puzzles and every text (translated). */
export function readConfig() {
  return JSON.parse($("judge-config").textContent);
}

/* localStorage may be missing or refuse (private mode, disabled, full): the page works on,
 * and the outbox keeps in memory what it cannot store (and says so). */
export function openStorage() {
  try {
    const store = window.localStorage;
    store.getItem("judge-probe");
    return store;
  } catch (e) {
    return null;
  }
}
export function stored(store, key, fallback) {
  try {
    const v = JSON.parse((store && store.getItem(key)) || "null");
    return v === null ? fallback : v;
  } catch (e) {
    return fallback;
  }
}
export function keep(store, key, value) {
  try {
    if (store) store.setItem(key, JSON.stringify(value));
  } catch (e) {
    /* full or unavailable: only this page remembers it */
  }
}

export function csrf() {
  const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  if (m) return decodeURIComponent(m[1]);
  try {
    return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
  } catch (e) {
    return "";
  }
}

/* A message at the top of the page; "ok" ones go away by themselves. `key`: a message
 * that unsay(key) takes away when it is no longer true ("the undo waits ..."). */
export function say(text, kind, key) {
  const li = document.createElement("li");
  li.className = `jmsg jmsg-${kind || "info"}`;
  if (key) li.dataset.key = key;
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

export function unsay(key) {
  document.querySelectorAll("#judge-messages li").forEach((li) => {
    if (li.dataset.key === key) li.remove();
  });
}

export function button(label, cls, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = cls;
  b.textContent = label;
  b.addEventListener("click", onClick);
  return b;
}

export function anyDialogOpen() {
  return !!document.querySelector("dialog[open]");
}

/* htmx fetches the cards again (the board's hx-trigger). */
export function refreshBoard() {
  document.body.dispatchEvent(new CustomEvent("outbox:changed", { bubbles: true }));
}
