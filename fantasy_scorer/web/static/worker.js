// The engine of the static site: Pyodide (CPython compiled to WebAssembly, shipped in the
// site's pyodide/ folder) running this package, unpacked from py/fantasy_scorer.zip. Each
// message { id, kind, body } is answered { id, status, body } by the same Python dispatcher
// as the server's API (fantasy_scorer.web.browser.handle -> calls.call). Python runs here,
// off the page's thread, so a tap is never blocked by a search.
"use strict";
const ROOT = new URL("../", self.location.href).href;
const SITE = "/home/pyodide/site";
let handle = null;
const queue = [];

// Milliseconds since the page's clock began at each step of the start (performance.timeOrigin
// is the worker's own; the difference puts them on the page's clock): the page keeps them as
// fsEngine.times, for benchmarks/site.py to say where a first score's time goes.
const times = {};
const lap = (name) => { times[name] = Math.round(performance.timeOrigin + performance.now()); };

async function start() {
  lap("worker");
  // the package is fetched while the runtime starts (both are needed; neither waits)
  const zip = fetch(ROOT + "py/fantasy_scorer.zip").then((r) => {
    if (!r.ok) throw new Error("py/fantasy_scorer.zip: HTTP " + r.status);
    return r.arrayBuffer();
  });
  zip.catch(() => {});  // (its failure is reported where it is awaited, not as unhandled)
  importScripts(ROOT + "pyodide/pyodide.js");
  const py = await loadPyodide({ indexURL: ROOT + "pyodide/", fullStdLib: false });
  lap("runtime");
  py.unpackArchive(new Uint8Array(await zip), "zip", { extractDir: SITE });
  lap("unpacked");
  py.runPython(`
import sys
sys.path.insert(0, "${SITE}")
from fantasy_scorer.web import browser
browser.boot("${SITE}/catalogs.pickle")
`);
  handle = py.globals.get("browser").handle;
  lap("imported");
  self.postMessage({ type: "ready", times });
  while (queue.length) answer(queue.shift());
}

function answer(m) {
  let status = 500;
  let body;
  try {
    body = handle(m.kind, m.body);
    status = JSON.parse(body).status;
  } catch (e) {
    body = JSON.stringify({ status: 500, body: { detail: String(e && e.message || e).split("\n").slice(-2).join(" ") } });
  }
  self.postMessage({ id: m.id, status, body });
}

self.onmessage = (ev) => {
  if (handle) answer(ev.data);
  else queue.push(ev.data);
};

start().catch((e) => self.postMessage({ type: "failed", detail: String(e && e.message || e) }));
