/* The judge page's service worker (docs/offline.md): network first, the last copy when offline,
 * so that a reload without Wi-Fi still opens the page with its outbox. Only GETs of the
 * judge's pages and the static files; POSTs and the API never go through it. */
const CACHE = "judge-v1";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const judgePage = url.pathname.startsWith("/judge/") && !url.pathname.endsWith("/sw.js");
  if (!judgePage && !url.pathname.startsWith("/static/")) return;
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok && response.type === "basic") {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(request, copy));
        }
        return response;
      })
      .catch(() =>
        caches.match(request).then((hit) => hit || Response.error()),
      ),
  );
});
