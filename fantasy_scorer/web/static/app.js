// The live page: every tap calls the JSON API and redraws the total, the score sheet, the
// choices, the discard advice and the share link. The server rendered the first state; this
// script only takes over from it (the page also works without it, through plain links).
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const state = JSON.parse($("state").textContent);
  let busy = Promise.resolve();
  let explainStale = true;

  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => (
    { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  const signed = (n) => (n > 0 ? "+" + n : String(n));

  // The page's address for a share code; commas and colons stay readable, '+' is %2B.
  function href(code, extra) {
    const q = { code, ...(state.lang !== "en" ? { lang: state.lang } : {}), ...(extra || {}) };
    return "/?" + Object.entries(q).map(([k, v]) => k + "=" +
      encodeURIComponent(v).replace(/%2C/g, ",").replace(/%3A/g, ":")).join("&");
  }

  async function post(path, body) {
    const r = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    let data = null;
    try { data = await r.json(); } catch (e) { data = { detail: "the server answered " + r.status }; }
    return { ok: r.ok, status: r.status, data };
  }

  const request = () => ({ cards: state.cards, choices: state.pins, lang: state.lang });

  function show(el, on) { el.hidden = !on; }

  function renderSheet(score) {
    $("sheet").innerHTML = score ? score.cards.map((c) => {
      const cls = "row" + (c.blanked ? " is-blanked" : "") + (c.cleared ? " is-cleared" : "");
      const as = c.as !== c.name ? ` <span class="as">as ${esc(c.as_label)}</span>` : "";
      let detail = `${esc(c.suit_label)} · base ${c.base}`;
      if (c.bonus) detail += ` · bonus ${signed(c.bonus)}`;
      if (c.penalty) detail += ` · penalty ${signed(c.penalty)}`;
      if (c.blanked) detail += ' <span class="mark mark-blanked">blanked</span>';
      if (c.cleared) detail += ' <span class="mark mark-cleared">cleared</span>';
      const why = c.status ? `<div class="why">${esc(c.status)}</div>` : "";
      return `<li class="${cls}" data-card="${esc(c.id)}"><div class="line"><span class="name">` +
        `${esc(c.label)}${as}</span><span class="pts">${c.points}</span></div>` +
        `<div class="detail">${detail}</div>${why}</li>`;
    }).join("") : "";
  }

  function renderChoosers(score) {
    const list = score ? score.choosers : [];
    show($("choosers"), list.length > 0);
    $("choosers").querySelector("input[name=code]").value = state.code;
    $("chooser-list").innerHTML = list.map((ch) => {
      const open = ch.pinned === null;
      const def = "optimal" + (open && ch.used ? ` (${ch.used})` : "");
      const opts = [`<option value="optimal"${open ? " selected" : ""}>${esc(def)}</option>`,
        `<option value="none"${ch.pinned === "none" ? " selected" : ""}>none (unassigned)</option>`]
        .concat(ch.options.map((o) => `<option value="${esc(o.value)}"` +
          `${ch.pinned === o.value ? " selected" : ""}>${esc(o.label)}</option>`));
      const by = { you: "pinned", optimizer: "chosen optimally" }[ch.chosen_by] || "unassigned";
      return `<div class="chooser" data-card="${esc(ch.id)}"><label for="pin-${esc(ch.id)}">` +
        `${esc(ch.label)}</label><select id="pin-${esc(ch.id)}" name="pin-${esc(ch.id)}" ` +
        `class="pin" data-card="${esc(ch.id)}">${opts.join("")}</select>` +
        `<span class="by">${by}</span></div>`;
    }).join("");
    const note = $("optimality");
    let text = "";
    if (score && score.optimized) {
      text = "Unpinned choices chosen by the optimizer" + (score.proven ? " (proven best)." : ".");
    }
    note.textContent = text;
    show(note, text !== "");
  }

  function renderAdvice(best) {
    const box = $("advice");
    show(box, !!best);
    if (!best) { box.innerHTML = ""; return; }
    const top = best.discards[0];
    const rows = best.discards.map((d) => `<li><a href="${esc(href(state.code, { toggle: d.id }))}" ` +
      `data-discard="${esc(d.id)}">Discard ${esc(d.label)}</a> <span>→ ${d.total}</span></li>`);
    const note = "Each remaining hand keeps your pins; its other choices are made optimally.";
    box.innerHTML = `<h2>Discard advice</h2><p class="best" data-testid="advice">Discard ` +
      `<b>${esc(top.label)}</b> → <b>${top.total}</b> points</p>` +
      `<ol class="discards">${rows.join("")}</ol><p class="note">${note}</p>`;
  }

  function renderPicker() {
    const chosen = new Set(state.cards);
    for (const a of document.querySelectorAll(".picker .card")) {
      const on = chosen.has(a.dataset.card);
      a.classList.toggle("selected", on);
      a.setAttribute("aria-pressed", on ? "true" : "false");
      a.href = href(state.code, { toggle: a.dataset.card });
    }
  }

  function renderShare() {
    const path = href(state.code);
    $("share-link").value = location.origin + path;
    $("share-code").textContent = state.code || "–";
    for (const input of document.querySelectorAll("form input[name=code][type=hidden]")) {
      input.value = state.code;
    }
    history.replaceState(null, "", path);
  }

  function setMessage(id, text) {
    $(id).textContent = text || "";
    show($(id), !!text);
  }

  async function refresh() {
    const n = state.cards.length;
    let score = null;
    let best = null;
    if (n === state.max) {
      const b = await post("/api/best", request());
      if (!b.ok) return b.data.detail;
      best = b.data;
      state.code = best.code;
    }
    if (n > 0) {
      const s = await post("/api/score", request());
      if (s.ok) {
        score = s.data;
        state.code = score.code;
      } else if (!best) {
        return s.data.detail;
      }
    } else {
      state.code = "";
    }
    $("total").textContent = score ? score.total : "–";
    $("count").textContent = `${n} card${n === 1 ? "" : "s"}`;
    document.title = (score ? `${score.total} points · ` : "") + "Fantasy Realms scorer";
    setMessage("error", "");
    setMessage("notice", best && !score ? `${n} cards: discard one. The advice below says which.` : "");
    show($("empty"), n === 0);
    renderSheet(score);
    renderChoosers(score);
    renderAdvice(best);
    renderPicker();
    renderShare();
    show($("explain"), !!score);
    explainStale = true;
    if (score && $("explain").open) await loadExplain();
    return null;
  }

  async function loadExplain() {
    if (!explainStale || state.cards.length === 0) return;
    const r = await post("/api/explain", request());
    $("explain-text").textContent = r.ok ? r.data.text : r.data.detail;
    explainStale = !r.ok;
  }

  // Each change runs after the previous one; a refused change is undone and its message shown.
  function change(edit) {
    busy = busy.then(async () => {
      const saved = { cards: state.cards.slice(), pins: { ...state.pins }, code: state.code };
      edit();
      document.body.classList.add("busy");
      try {
        const problem = await refresh();
        if (problem) {
          Object.assign(state, saved);
          renderPicker();
          setMessage("error", problem);
        }
      } catch (e) {
        Object.assign(state, saved);
        renderPicker();
        setMessage("error", "The scorer could not be reached; try again.");
      } finally {
        document.body.classList.remove("busy");
      }
    });
    return busy;
  }

  function toggle(id) {
    return change(() => {
      const i = state.cards.indexOf(id);
      if (i >= 0) {
        state.cards.splice(i, 1);
        delete state.pins[id];
        for (const [k, v] of Object.entries(state.pins)) {  // pins that named the card
          if (v === id || v.startsWith(id + " ")) delete state.pins[k];
        }
      } else {
        state.cards.push(id);
      }
    });
  }

  document.addEventListener("click", (ev) => {
    const a = ev.target.closest("a[data-card], a[data-discard]");
    if (!a || ev.metaKey || ev.ctrlKey || ev.shiftKey) return;
    ev.preventDefault();
    toggle(a.dataset.card || a.dataset.discard);
  });

  $("chooser-list").addEventListener("change", (ev) => {
    const sel = ev.target.closest("select.pin");
    if (!sel) return;
    change(() => {
      if (sel.value === "optimal") delete state.pins[sel.dataset.card];
      else state.pins[sel.dataset.card] = sel.value;
    });
  });

  $("choosers").addEventListener("submit", (ev) => ev.preventDefault());

  $("lang").addEventListener("change", () => {
    state.lang = $("lang").value;
    location.href = href(state.code);
  });

  $("explain").addEventListener("toggle", () => { if ($("explain").open) loadExplain(); });

  const copy = $("copy");
  copy.hidden = false;
  copy.addEventListener("click", async () => {
    const link = $("share-link");
    try {
      await navigator.clipboard.writeText(link.value);
      copy.textContent = "Copied";
    } catch (e) {  // no clipboard over plain http on another machine: select it instead
      link.select();
      copy.textContent = "Selected";
    }
    setTimeout(() => { copy.textContent = "Copy"; }, 1500);
  });

  explainStale = !$("explain-text").textContent;
  document.body.classList.add("live");
})();
