/* The judge page's service worker (docs/offline.md): network first, the tablet's own copy when
 * offline, so that a reload without Wi-Fi opens the page with its waiting taps (they are in
 * the tablet's storage, not here: the outbox). It keeps the judge's pages (GETs under
 * /judge/: the page and the board's cards) and the static files they load. On the page's
 * first load, before the worker controlled it, the page hands it its own address and its
 * files (a "keep" message, static/js/judge/copy.mjs), so that the copy exists before any
 * reload. Never kept: a POST, the API, a redirect (a login page is no copy of the judge's
 * page), an error answer. A copy it answers with carries `X-Judge-Copy: <when the server
 * made it, ms>`, so that the page says its cards are a copy and from when. */
const CACHE = "judge-v2";
const STATIC = "/static/";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) =>
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("judge-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  ),
);

function kept(url) {
  const u = new URL(url);
  if (u.origin !== self.location.origin) return false;
  if (u.pathname.startsWith(STATIC)) return true;
  return u.pathname.startsWith("/judge/") && !u.pathname.endsWith("/sw.js");
}

/* A good answer from the server, kept with the time the server made it. */
async function keep(request, response) {
  if (!response.ok || response.redirected || response.type !== "basic") return;
  const at = Date.parse(response.headers.get("Date") || "") || Date.now();
  const headers = new Headers(response.headers);
  headers.set("X-Judge-Copy", String(at));
  const body = await response.blob();
  const cache = await caches.open(CACHE);
  await cache.put(request, new Response(body, { status: response.status, statusText: response.statusText, headers }));
}

/* The copy of `request`: a page also under another query (the chosen tables are in the
 * tablet's storage, and the page drops `?t=` from its address). */
async function copyOf(request) {
  const url = new URL(request.url);
  const page = request.mode === "navigate";
  const loose = page || url.pathname.startsWith(STATIC);
  const hit = await caches.match(request, { ignoreVary: loose });
  if (hit || !page) return hit;
  return caches.match(request, { ignoreVary: true, ignoreSearch: true });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !kept(request.url)) return;
  event.respondWith(
    fetch(request)
      .then((response) => {
        event.waitUntil(keep(request, response.clone()).catch(() => {}));
        return response;
      })
      .catch(() => copyOf(request).then((hit) => hit || Response.error())),
  );
});

/* The page's first load: keep its address and files now; then say so. */
self.addEventListener("message", (event) => {
  const urls = (event.data && event.data.keep) || [];
  const fetches = urls.filter(kept).map((url) =>
    fetch(url, { credentials: "same-origin" })
      .then((response) => keep(new Request(url), response))
      .catch(() => {}),
  );
  event.waitUntil(Promise.all(fetches).then(() => event.source && event.source.postMessage({ kept: true })));
});
