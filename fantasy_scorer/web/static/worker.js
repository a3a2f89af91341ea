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

async function start() {
  importScripts(ROOT + "pyodide/pyodide.js");
  const py = await loadPyodide({ indexURL: ROOT + "pyodide/", fullStdLib: false });
  const zip = await fetch(ROOT + "py/fantasy_scorer.zip");
  if (!zip.ok) throw new Error("py/fantasy_scorer.zip: HTTP " + zip.status);
  py.unpackArchive(new Uint8Array(await zip.arrayBuffer()), "zip", { extractDir: SITE });
  py.runPython(`
import sys
sys.path.insert(0, "${SITE}")
from fantasy_scorer.web import browser
browser.boot("${SITE}/catalogs.pickle")
`);
  handle = py.globals.get("browser").handle;
  self.postMessage({ type: "ready" });
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
