// A stand-in for i40's engine.js, for the tests of this branch only (the lead drops it on
// merge): the interface window.fsEngine in server mode, posting to /api/<kind>.
"use strict";
window.fsEngine = {
  mode: "server",
  ready: Promise.resolve(),
  async call(kind, body) {
    const res = await fetch(`/api/${kind}`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    const data = await res.json().catch(() => ({ detail: res.statusText }));
    if (!res.ok) {
      const err = new Error(data.detail || res.statusText);
      err.status = res.status;
      err.detail = data.detail;
      throw err;
    }
    return data;
  },
};
