/* The tablet's own copy of the judge's page (docs/offline.md, static/js/sw.js): a reload
 * without Wi-Fi opens the page from it, with the taps waiting in the tablet's storage. On the
 * first load the worker is asked to keep the page and its files at once; and the page says
 * plainly when the cards it shows are the tablet's copy, not the server's answer, and from
 * when: a copy never passes for what the server says now (the pill says what waits). */
import { fmt } from "../format.mjs";
import { $ } from "./page.mjs";

/* What the worker keeps on the first load: the page's address and the same-origin static
 * files it loaded (stylesheets, scripts, fonts). Pure. */
export function filesToKeep(href, resources, origin) {
  const urls = [href];
  for (const name of resources) {
    const u = new URL(name, href);
    if (u.origin === origin && u.pathname.startsWith("/static/")) urls.push(u.href);
  }
  return [...new Set(urls)];
}

/* Where the cards shown come from after the board's answer: {copy, at}. `answer`: {status,
 * copyAt} (copyAt: the worker's X-Judge-Copy, ms; status 0: no answer at all, the cards stay
 * as they were); `now`: the server's time. Pure. */
export function cardsFrom(prev, answer, now) {
  if (answer.status === 0) return { copy: true, at: prev.at };
  if (answer.status < 200 || answer.status >= 300) return prev;
  if (answer.copyAt) return { copy: true, at: answer.copyAt };
  return { copy: false, at: now };
}

/* "10:41:12", Danish time, for the banner. */
export function timeOfDay(ms) {
  const f = new Intl.DateTimeFormat("en-GB", {
    timeZone: "Europe/Copenhagen",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  });
  return f.format(new Date(ms));
}

export function setupCopy(ctx) {
  const { cfg, w, state } = ctx;
  const html = document.documentElement;
  state.cards = { copy: false, at: cfg.rendered_ms || Date.now() };

  function show() {
    const banner = $("offline-copy");
    if (!banner) return;
    banner.hidden = !state.cards.copy;
    banner.textContent = fmt(w.T.offline_copy, { time: timeOfDay(state.cards.at) });
  }
  const board = $("board");
  document.body.addEventListener("htmx:afterRequest", (ev) => {
    if (ev.detail.elt !== board) return;
    const xhr = ev.detail.xhr;
    const copyAt = Number(xhr.status && xhr.getResponseHeader("X-Judge-Copy")) || 0;
    state.cards = cardsFrom(state.cards, { status: xhr.status, copyAt }, ctx.clock.now());
    show();
  });
  for (const name of ["htmx:sendError", "htmx:timeout"]) {
    document.body.addEventListener(name, (ev) => {
      if (ev.detail.elt !== board) return;
      state.cards = cardsFrom(state.cards, { status: 0 }, ctx.clock.now());
      show();
    });
  }

  // The worker runs only in a secure context (https, or the hall laptop's own http://127.0.0.1)
  const sw = navigator.serviceWorker;
  if (!sw || !window.isSecureContext) return;
  sw.addEventListener("message", (ev) => {
    if (ev.data && ev.data.kept) html.dataset.offlineCopy = "ready";
  });
  const hadCopy = !!sw.controller; // this load came through the worker, which kept it
  sw.register(cfg.urls.worker)
    .then(() => sw.ready)
    .then((registration) => {
      if (hadCopy) {
        html.dataset.offlineCopy = "ready";
        return;
      }
      const resources = performance.getEntriesByType("resource").map((e) => e.name);
      registration.active.postMessage({ keep: filesToKeep(location.href, resources, location.origin) });
    })
    .catch(() => {});
}
