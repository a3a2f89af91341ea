// The page's one doorway into the engine: window.fsEngine = { mode, ready, call(kind, body) }.
//
// "server" (fr-score serve): call posts /api/<kind> with the JSON body.
// "worker" (the static site of fr-score site): call posts the same body to a Web Worker
// (static/worker.js) running this package under Pyodide, which answers through the same
// Python dispatcher as the server's API (fantasy_scorer/web/calls.py).
//
// call resolves with the answer's JSON; it rejects with an Error carrying .status and .detail
// (a 4xx: the rules' or the request's one line; 5xx: the server's trouble; 0: no server).
// The mode is the page's <meta name="fs-engine">.
"use strict";
(() => {
  const meta = document.querySelector('meta[name="fs-engine"]');
  const mode = meta && meta.content === "worker" ? "worker" : "server";

  function failure(status, detail) {
    const e = new Error(detail);
    e.status = status;
    e.detail = detail;
    return e;
  }

  function serverEngine() {
    async function call(kind, body) {
      let r;
      try {
        r = await fetch("api/" + kind, {
          method: "POST", headers: { "Content-Type": "application/json" },
          body: JSON.stringify(body),
        });
      } catch (e) {
        throw failure(0, "offline");
      }
      let data = null;
      try { data = await r.json(); } catch (e) { data = null; }
      if (r.ok && data) return data;
      const detail = data && typeof data.detail === "string" ? data.detail : "HTTP " + r.status;
      const err = failure(r.status, detail);
      err.retryAfter = Number(r.headers.get("Retry-After")) || 0;
      throw err;
    }
    return { mode: "server", ready: Promise.resolve(), call };
  }

  function workerEngine() {
    const here = document.currentScript ? document.currentScript.src : location.href;
    const worker = new Worker(new URL("worker.js", here));
    const waiting = new Map();
    let next = 0;
    let readyDone, readyFail;
    const ready = new Promise((res, rej) => { readyDone = res; readyFail = rej; });
    worker.onmessage = (ev) => {
      const m = ev.data;
      if (m.type === "ready") {  // (the start's steps, on the page's clock: see worker.js)
        for (const [k, v] of Object.entries(m.times || {})) engine.times[k] = v - performance.timeOrigin;
        readyDone();
        return;
      }
      if (m.type === "failed") { readyFail(failure(500, m.detail)); return; }
      const job = waiting.get(m.id);
      if (!job) return;
      waiting.delete(m.id);
      if (m.status === 200) job.resolve(JSON.parse(m.body).body);
      else {
        let detail = "error " + m.status;
        try { detail = JSON.parse(m.body).body.detail || detail; } catch (e) { /* keep */ }
        job.reject(failure(m.status, detail));
      }
    };
    worker.onerror = (ev) => {
      ev.preventDefault();
      const err = failure(500, ev.message || "the scorer stopped");
      readyFail(err);
      for (const job of waiting.values()) job.reject(err);
      waiting.clear();
    };
    function call(kind, body) {
      return new Promise((resolve, reject) => {
        const id = ++next;
        waiting.set(id, { resolve, reject });
        worker.postMessage({ id, kind, body: JSON.stringify(body) });
      });
    }
    ready.catch(() => {});
    const engine = { mode: "worker", ready, call, times: { created: performance.now() } };
    return engine;
  }

  window.fsEngine = mode === "worker" ? workerEngine() : serverEngine();
})();
