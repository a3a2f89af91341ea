// The offline worker of the page, for both of its faces.
//
// The static site (fr-score site): every file of the site is listed below at build time and
// cached on the first visit, so everything (a new hand, another language, every page of the
// site, the Python engine) works with the network gone. Files are served from the cache;
// an address of a page is served its page, whatever its query (the page draws the hand from
// the address). A new version of the site is a new list and a new cache name: it replaces
// the old one on the next visit.
//
// fr-score serve: the page, script, style, manifest and icons are kept, so that the app opens
// when the phone cannot reach the scorer; the API is never cached (a score is the server's).
"use strict";
const CACHE = "fr-score-__VERSION__";
const FILES = ["__FILES__"];
const STATIC = FILES.includes("index.html");  // the static site lists its page

self.addEventListener("install", (ev) => {
  ev.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (ev) => {
  ev.waitUntil(caches.keys().then((keys) => Promise.all(
    keys.filter((k) => k.startsWith("fr-score-") && k !== CACHE).map((k) => caches.delete(k)),
  )).then(() => self.clients.claim()));
});

const scope = () => new URL(self.registration.scope);

function pageOf(url) {  // the page a navigation asks for, without its query
  const path = url.pathname.slice(scope().pathname.length);
  return path === "" ? "index.html" : path;
}

self.addEventListener("fetch", (ev) => {
  const req = ev.request;
  const url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== location.origin || url.pathname.includes("/api/")) {
    return;
  }
  if (STATIC) {
    if (req.mode === "navigate") {
      ev.respondWith(caches.open(CACHE).then(async (c) =>
        (await c.match(pageOf(url))) || fetch(req)));
      return;
    }
    // (the page asks for its files with ?v=VERSION: the cache of this version is the one)
    ev.respondWith(caches.open(CACHE).then(async (c) =>
      (await c.match(req, { ignoreSearch: true })) || fetch(req)));
    return;
  }
  if (req.mode === "navigate") {  // the network first; offline, this address or the last page
    ev.respondWith(fetch(req).then((res) => {
      if (res.ok) {
        const copy = res.clone();
        caches.open(CACHE).then((c) => Promise.all([c.put(req, copy.clone()), c.put("./", copy)]));
      }
      return res;
    }).catch(() => caches.open(CACHE).then(async (c) => (await c.match(req)) || c.match("./"))));
    return;
  }
  ev.respondWith(caches.match(req).then((hit) => hit || fetch(req)));
});
