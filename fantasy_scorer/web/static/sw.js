// The offline worker: the page, its script, style, manifest and icons are kept, so that the
// app opens and shows its last page when the phone cannot reach the scorer. The API is never
// cached: a score is the server's; the page's script keeps the last result on screen and
// sends the taps made offline once the server answers again.
"use strict";
const CACHE = "fr-score-__VERSION__";
const SHELL = ["/static/app.js?v=__VERSION__", "/static/style.css?v=__VERSION__",
  "/manifest.webmanifest", "/icon-192.png", "/icon-512.png"];

self.addEventListener("install", (ev) => {
  ev.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (ev) => {
  ev.waitUntil(caches.keys().then((keys) => Promise.all(
    keys.filter((k) => k.startsWith("fr-score-") && k !== CACHE).map((k) => caches.delete(k)),
  )).then(() => self.clients.claim()));
});

self.addEventListener("fetch", (ev) => {
  const req = ev.request;
  const url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== location.origin || url.pathname.startsWith("/api/")) {
    return;
  }
  if (req.mode === "navigate") {  // the network first; offline, this address or the last page
    ev.respondWith(fetch(req).then((res) => {
      if (res.ok) {
        const copy = res.clone();
        caches.open(CACHE).then((c) => Promise.all([c.put(req, copy.clone()), c.put("/", copy)]));
      }
      return res;
    }).catch(() => caches.open(CACHE).then(async (c) => (await c.match(req)) || c.match("/"))));
    return;
  }
  ev.respondWith(caches.match(req).then((hit) => hit || fetch(req)));
});
