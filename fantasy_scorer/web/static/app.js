// The live page: every tap asks the engine (static/engine.js: the server's API, or the
// static site's Web Worker running the same Python) and redraws the total, the score sheet,
// the choices, the discard advice and the share link. fr-score serve renders the first state
// and this script takes over from it (the page also works without script, through plain
// links); on the static site the page is the same template rendered empty, and this script
// draws the address's hand at once from data/ (cards and words), then scores it when the
// engine is ready, saying meanwhile that it is loading the scorer.
//
// At a noisy table: messages appear in the dock at the bottom of the screen, where the thumb
// is; the address holds the hand, so Back undoes the last tap; a change shows that it is
// loading and never leaves the previous hand's explanation on screen; without the server the
// last result stays, marked offline, and the taps made meanwhile are sent once it is back.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const state = JSON.parse($("state").textContent);
  const engine = window.fsEngine;
  const WORKER = engine.mode === "worker";
  let words = state.t;
  let plurals = new Intl.PluralRules(state.tag);
  let decimal = new Intl.NumberFormat(state.tag, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  let percent = new Intl.NumberFormat(state.tag, { style: "percent", maximumFractionDigits: 0 });
  let cardData = null;    // data/cards.json: every game's cards, names in every language
  let anchor = null;      // the card just tapped and where it was: kept there on screen
  const RETRY_MS = 3000;
  const FEW_SAMPLES = 30;  // fewer look-ahead samples than this: the figures are said rough
  const DEFAULT_PLAYERS = 4;
  let busy = Promise.resolve();
  let seq = 0;            // the number of the latest change; older answers are dropped
  let shownSeq = 0;       // the change whose result is on screen
  let explainFor = null;  // the change whose explanation is on screen
  let pending = false;    // a change the server has not answered yet (offline or busy)
  let retryTimer = null;

  // ---------------------------------------------------------------- words
  function t(key, values) {
    let msg = words[key];
    if (msg === undefined) return key;
    if (typeof msg === "object") {
      const n = values && values.n !== undefined ? Number(values.n) : 0;
      msg = msg[plurals.select(n)] || msg.other;
    }
    return msg.replace(/\{(\w+)\}/g, (m, k) => (values && k in values ? String(values[k]) : m));
  }
  function setLanguage(lang, table) {
    words = table;
    state.lang = lang;
    state.tag = table._tag || lang;
    plurals = new Intl.PluralRules(state.tag);
    decimal = new Intl.NumberFormat(state.tag, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    percent = new Intl.NumberFormat(state.tag, { style: "percent", maximumFractionDigits: 0 });
    document.documentElement.lang = state.tag;
    for (const el of document.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
    for (const attr of ["aria-label", "placeholder", "data-label"]) {
      for (const el of document.querySelectorAll(`[data-t-${attr}]`)) {
        el.setAttribute(attr, t(el.getAttribute(`data-t-${attr}`)));
      }
    }
    $("lang").value = lang;
  }
  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => (
    { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  const signed = (n) => (n > 0 ? "+" + n : String(n));
  // Names compared as the server folds them: case, accents and hyphens ignored.
  const fold = (s) => s.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase()
    .replace(/[’]/g, "'").replace(/[-_]/g, " ").replace(/\s+/g, " ").trim();

  // ---------------------------------------------------------------- the address
  function params(extra) {
    const q = { code: state.code };
    if (state.discard.length) q.discard = state.discard.join(",");
    if (state.players !== null) q.players = String(state.players);
    Object.assign(q, state.game);
    if (state.lang !== "en") q.lang = state.lang;
    return Object.assign(q, extra || {});
  }
  function href(extra) {
    return "?" + Object.entries(params(extra)).map(([k, v]) => k + "=" +
      encodeURIComponent(v).replace(/%2C/g, ",").replace(/%3A/g, ":").replace(/%2F/g, "/"))
      .join("&");
  }
  const snapshot = () => ({
    cards: state.cards.slice(), pins: { ...state.pins }, cursed: state.cursed.slice(),
    discard: state.discard.slice(), players: state.players, code: state.code,
  });
  function restore(s) {
    Object.assign(state, { cards: s.cards.slice(), pins: { ...s.pins }, cursed: s.cursed.slice(),
      discard: s.discard.slice(), players: s.players, code: s.code });
  }

  // ---------------------------------------------------------------- the engine
  // An answer as { ok, status, data }; Offline when the server cannot be reached (status 0)
  // or is busy (503: kept and retried). A server's own failure is an error, never "offline".
  class Offline extends Error {}
  async function ask(kind, body) {
    try {
      return { ok: true, status: 200, data: await engine.call(kind, body) };
    } catch (e) {
      if (e.status === undefined) throw e;
      if (e.status === 0) throw new Offline("offline");
      if (e.status === 503) throw new Offline(e.detail);
      const detail = e.status >= 500 ? t("error.server", { detail: e.detail }) : e.detail;
      return { ok: false, status: e.status, data: { detail } };
    }
  }
  const request = () => ({
    cards: state.cards, cursed: state.cursed, choices: state.pins, discard: state.discard,
    players: state.players, lang: state.lang, ...state.game,
  });

  // ---------------------------------------------------------------- drawing
  function show(el, on) { if (el) el.hidden = !on; }

  function renderSheet(score) {
    $("sheet").innerHTML = score ? score.cards.map((c) => {
      const cls = "row" + (c.blanked ? " is-blanked" : "") + (c.cleared ? " is-cleared" : "") +
        (c.cursed ? " is-cursed" : "");
      const as = c.as !== c.name ? ` <span class="as">${esc(t("sheet.as", { card: c.as_label }))}</span>` : "";
      let detail = `${esc(c.suit_label)} · ${esc(t("sheet.base", { n: c.base }))}`;
      if (c.bonus) detail += ` · ${esc(t("sheet.bonus", { n: signed(c.bonus) }))}`;
      if (c.penalty) detail += ` · ${esc(t("sheet.penalty", { n: signed(c.penalty) }))}`;
      if (c.blanked) detail += ` <span class="mark mark-blanked">${esc(t("mark.blanked"))}</span>`;
      if (c.cleared) detail += ` <span class="mark mark-cleared">${esc(t("mark.cleared"))}</span>`;
      if (c.extra) detail += ` <span class="mark mark-extra">${esc(t("mark.extra"))}</span>`;
      const why = c.status ? `<div class="why">${esc(c.status)}</div>` : "";
      const ask = needsPlayers(c.id) ? askPlayers() : "";
      return `<li class="${cls}" data-card="${esc(c.id)}"><div class="line"><span class="name">` +
        `${esc(c.label)}${as}</span><span class="pts">${c.points}</span></div>` +
        `<div class="detail">${detail}</div>${why}${ask}</li>`;
    }).join("") : "";
  }

  // A card that depends on the number of players (Genie, Spyglass) asks for it on its row.
  function needsPlayers(id) {
    const c = cardData && cardData.cards[id];
    return !!c && c.needs.includes("players");
  }
  function askPlayers() {
    const opts = [2, 3, 4, 5, 6].map((n) => `<option value="${n}"` +
      `${state.players === n ? " selected" : ""}>${n}</option>`).join("");
    return `<label class="ask-players">${esc(t("game.players"))} ` +
      `<select data-players="1">${opts}</select></label>`;
  }

  function renderChoosers(score) {
    const list = score ? score.choosers : [];
    show($("choosers"), list.length > 0);
    $("chooser-list").innerHTML = list.map((ch) => {
      const open = ch.pinned === null;
      const def = open && ch.used ? t("choices.optimal_used", { choice: ch.used }) : t("choices.optimal");
      const opts = [`<option value="optimal"${open ? " selected" : ""}>${esc(def)}</option>`,
        `<option value="none"${ch.pinned === "none" ? " selected" : ""}>${esc(t("choices.none"))}</option>`]
        .concat(ch.options.map((o) => `<option value="${esc(o.value)}"` +
          `${ch.pinned === o.value ? " selected" : ""}>${esc(o.label)}</option>`));
      return `<div class="chooser" data-card="${esc(ch.id)}"><label for="pin-${esc(ch.id)}">` +
        `${esc(ch.label)}</label><select id="pin-${esc(ch.id)}" name="pin-${esc(ch.id)}" ` +
        `class="pin" data-card="${esc(ch.id)}">${opts.join("")}</select>` +
        `<span class="by">${esc(t("choices.by_" + ch.chosen_by))}</span></div>`;
    }).join("");
    const note = $("optimality");
    const text = score && score.optimized ? t(score.proven ? "optimality.proven" : "optimality.optimized") : "";
    note.textContent = text;
    show(note, text !== "");
  }

  function renderAdvice(best) {
    const box = $("advice");
    show(box, !!best);
    const dock = $("dock-advice");
    show(dock, !!best);
    if (!best) { box.innerHTML = ""; dock.innerHTML = ""; return; }
    const top = best.discards[0];
    const missing = (best.missing || []).map((m) => m.label).join(", ");
    const stopped = best.complete ? "" : `<p class="note" data-testid="advice-missing">` +
      `${esc(t("advice.incomplete"))}${missing ? " " + esc(t("advice.missing")) + " " +
      esc(missing) : ""}</p>`;
    if (!top) {  // stopped before its first discard was settled
      box.innerHTML = `<h2>${esc(t("advice.title"))}</h2>${stopped}`;
      dock.innerHTML = "";
      show(dock, false);  // no discard to name (the server's first render hides it too)
      return;
    }
    const line = esc(t("advice.best", { card: top.label, n: top.total }));
    const rows = best.discards.map((d) => `<li><a href="${esc(href({ toggle: d.id }))}" ` +
      `data-discard="${esc(d.id)}">${esc(t("advice.discard", { card: d.label }))}</a> ` +
      `<span>→ ${esc(t("unit.points_n", { n: d.total }))}</span></li>`);
    box.innerHTML = `<h2>${esc(t("advice.title"))}</h2><p class="best" data-testid="advice">` +
      `${line}</p><ol class="discards">${rows.join("")}</ol>` +
      `<p class="note">${esc(t("advice.note"))}</p>` +
      stopped;
    dock.innerHTML = `<span>${line}</span> <a href="#advice">${esc(t("advice.all"))}</a>`;
  }

  // The look-ahead advice (/api/advise): asked for after the discard advice is on screen, so
  // that a tap is never kept waiting for its second of sampling.
  function aheadHead(title) { return `<h2>${esc(t("ahead.title"))}</h2>` + title; }
  function renderAhead(data) {
    const box = $("advise");
    // The headline is the table's first row, marked there: they always name the same card.
    const top = data.options[0];
    const fig = (f, fmt) => (f ? fmt.format(f.mean) : "–");
    const rows = data.options.map((o, i) => `<tr${i === 0 ? ' class="top"' : ""}><th scope="row">` +
      `<a href="${esc(href({ toggle: o.id }))}" data-discard="${esc(o.id)}">${esc(o.label)}</a></th>` +
      `<td>${esc(fig(o.win, percent))}</td><td>${esc(fig(o.expected_final, decimal))}</td>` +
      `<td>${esc(fig(o.gift, decimal))}</td></tr>`);
    const heads = ["ahead.head_discard", "ahead.head_win", "ahead.head_final", "ahead.head_gift"]
      .map((k) => `<th scope="col">${esc(t(k))}</th>`).join("");
    box.innerHTML = aheadHead(`<p class="best" data-testid="ahead">` +
      `${esc(t("ahead.best", { card: top.label, win: fig(top.win, percent), final: fig(top.expected_final, decimal) }))}</p>` +
      `<table class="ahead-table"><thead><tr>${heads}</tr></thead><tbody>${rows.join("")}</tbody></table>` +
      `<p class="note">${esc(data.exact ? t("ahead.exact") : t(data.evaluation === "learned" ? "ahead.note_learned" : "ahead.note", { n: data.samples }))}</p>` +
      (!data.exact && data.samples < FEW_SAMPLES ? `<p class="note few">${esc(t("ahead.few", { n: data.samples }))}</p>` : ""));
  }
  async function loadAhead(mine, best) {
    const box = $("advise");
    show(box, !!best);
    if (!best) { box.innerHTML = ""; return; }
    if (state.players === null || state.players === undefined) {
      box.innerHTML = aheadHead(`<p class="note">${esc(t("ahead.players"))}</p>`);
      return;
    }
    box.innerHTML = aheadHead(`<p class="note">${esc(t("ahead.loading"))}</p>`);
    let r = null;
    let why = "";
    try { r = await ask("advise", request()); } catch (e) {
      if (!(e instanceof Offline)) throw e;
      why = e.message === "offline" ? t("offline.notice") : e.message;  // busy is not offline
    }
    if (mine !== seq) return;  // a newer change is on screen
    if (!r) { box.innerHTML = aheadHead(`<p class="note">${esc(why)}</p>`); return; }
    if (!r.ok) { box.innerHTML = aheadHead(`<p class="note">${esc(r.data.detail)}</p>`); return; }
    renderAhead(r.data);
  }

  // The referee's trace, easier to read than its text: each step a heading, each line an
  // item, the bonus lines under their card, the ruling ids last and small; in the points (the
  // last numbered step) each card's printed text under its line (texts: name -> text, from
  // the answer's card_texts; English wording, the names in the page's language).
  function renderExplain(text, texts) {
    texts = texts || {};
    const out = [];
    let open = false;
    const lines = text.split("\n");
    let points = -1;  // the line of the last numbered heading
    lines.forEach((raw, i) => { if (/^\d+\./.test(raw)) points = i; });
    const told = new Set();
    lines.forEach((raw, i) => {
      if (!raw.trim()) return;
      const m = raw.match(/^(.*?)\s+\[([^\]]+)\]$/);
      const body = m ? m[1] : raw;
      const rule = m ? ` <span class="rule">${esc(m[2])}</span>` : "";
      const depth = raw.length - raw.trimStart().length;
      if (depth === 0) {
        if (open) out.push("</ul>");
        open = false;
        out.push(`<h3>${esc(body.trim())}${rule}</h3>`);
        if (!/^\d+\./.test(body.trim())) return;
        out.push("<ul>");
        open = true;
      } else {
        const name = body.trim().split(": ")[0];
        const card = i > points && depth <= 3 && texts[name] && !told.has(name);
        if (card) told.add(name);
        const printed = card ? `<span class="card-text" lang="en">${esc(texts[name])}</span>` : "";
        out.push(`<li class="${depth > 3 ? "reason" : "line"}">${esc(body.trim())}${rule}${printed}</li>`);
      }
    });
    if (open) out.push("</ul>");
    $("explain-text").innerHTML = out.join("");
  }

  function renderPicker() {
    const hand = new Set(state.cards.concat(state.cursed));
    const area = new Set(state.discard);
    const toDiscard = state.tap === "discard";
    for (const a of document.querySelectorAll(".picker .card")) {
      const id = a.dataset.card;
      const cursed = !!a.dataset.cursed;
      a.classList.toggle("selected", hand.has(id));
      a.classList.toggle("in-discard", area.has(id));
      const pressed = toDiscard && !cursed ? area.has(id) : hand.has(id);
      a.setAttribute("aria-pressed", pressed ? "true" : "false");
      a.href = href({ [toDiscard && !cursed ? "dtoggle" : "toggle"]: id,
        ...(toDiscard && !cursed ? { tap: "discard" } : {}) });
    }
    document.body.classList.toggle("tap-discard", toDiscard);
    document.body.classList.toggle("tap-hand", !toDiscard);
    for (const s of document.querySelectorAll(".tapmode .seg")) {
      s.setAttribute("aria-pressed", s.dataset.tap === state.tap ? "true" : "false");
    }
    renderDiscardArea();
  }

  function renderDiscardArea() {
    const list = $("discard-list");
    if (!list) return;
    const label = (id) => {
      const a = document.querySelector(`.picker .card[data-card="${id}"]`);
      return a ? a.firstChild.textContent.trim() : id;
    };
    list.innerHTML = state.discard.map((id) => `<li><a class="chip" href="` +
      `${esc(href({ dtoggle: id, tap: "discard" }))}" data-dcard="${esc(id)}" aria-label="` +
      `${esc(t("discard.remove", { card: label(id) }))}">${esc(label(id))} ` +
      `<span aria-hidden="true">×</span></a></li>`).join("");
    $("discard-n").textContent = t("discard.count", { n: state.discard.length, most: 10 });
    show($("discard-empty"), state.discard.length === 0);
  }

  // A QR code of the share link, for another phone's table view (static/qr.js draws it).
  function drawQR() {
    const qr = $("share-qr");
    if (qr && window.fsQR) qr.innerHTML = window.fsQR.svg($("share-link").value, qr.dataset.label);
  }

  // The share box prints the web scorer's own link and code (this page reads them too).
  function renderShare(share) {
    const query = share && share.query;
    $("share-link").value = location.origin + location.pathname + (query ? "?" + query +
      (state.lang !== "en" ? "&lang=" + state.lang : "") : href());
    $("share-code").textContent = (share && share.code) || "–";
    drawQR();
    for (const form of document.querySelectorAll("form")) {
      for (const [k, v] of Object.entries(params())) {
        const input = form.querySelector(`input[type=hidden][name="${k}"]`);
        if (input) input.value = v;
      }
    }
  }

  function setError(text) {
    $("error").textContent = text || "";
    show($("error"), !!text);
    dockResized();
  }
  function setNotices(list) {
    $("notices").innerHTML = list.map((n) => `<p class="notice">${esc(n)}</p>`).join("");
    dockResized();
  }
  function setOffline(text) {
    const el = $("offline");
    el.textContent = text || "";
    show(el, !!text);
    document.body.classList.toggle("is-offline", !!text);
    dockResized();
  }
  // The dock covers the bottom of the page: the page gets as much room below its end.
  function dockResized() {
    document.body.style.paddingBottom = $("dock").offsetHeight + "px";
  }

  function setLoading(on) {
    document.body.classList.toggle("busy", on);
    show($("busy"), on);
    $("score").setAttribute("aria-busy", on ? "true" : "false");
    if (on) {  // never the previous hand's explanation beside a new hand
      explainFor = null;
      $("explain-text").textContent = t("status.loading");
    }
  }

  function draw(score, best) {
    const n = state.cards.length;
    $("total").textContent = score ? score.total : "–";
    $("unit").textContent = t("unit.points", { n: score ? score.total : 0 });
    $("count").textContent = t("count.cards", { n });
    const written = score && score.as_written !== undefined && score.as_written !== null &&
      score.as_written !== score.total;
    $("as-written").textContent = written ? t("score.as_written", { n: score.as_written }) : "";
    show($("as-written"), written);
    $("standing").textContent = (score && score.standing) || "";
    show($("standing"), Boolean(score && score.standing));
    document.title = (score ? t("title.points", { n: score.total }) + " · " : "") + t("app.name");
    const notes = [];
    if (best && !score) notes.push(t("notice.discard_one", { n }));
    setNotices(notes);
    show($("empty"), n === 0 && state.cursed.length === 0);
    renderSheet(score);
    renderChoosers(score);
    renderAdvice(best);
    renderPicker();
    const got = score || best;
    renderShare(got ? got.share : null);
    show($("explain"), !!score);
    renderGame();
    keepAnchor();
  }

  // A tap never moves the card under the finger: what grew above it is scrolled past.
  function keepAnchor() {
    if (!anchor || !anchor.el.isConnected) return;
    const moved = anchor.el.getBoundingClientRect().top - anchor.top;
    if (Math.abs(moved) > 1) window.scrollBy(0, moved);
  }

  // ---------------------------------------------------------------- one change
  // The score and (with one card too many) the advice of the current state; a problem is
  // returned as its line; Offline is thrown when the server cannot be reached.
  async function compute() {
    const n = state.cards.length;
    const body = request();
    const advisable = n === state.hand_size + 1;
    const [b, s] = await Promise.all([
      advisable ? ask("best", body) : null,
      n > 0 || state.cursed.length > 0 ? ask("score", body) : null,
    ]);
    if (b && !b.ok) return { problem: b.data.detail };
    if (s && !s.ok && !b) return { problem: s.data.detail };
    return { score: s && s.ok ? s.data : null, best: b ? b.data : null };
  }

  async function refresh(mine) {
    const unset = state.players === null || state.players === undefined;
    if (unset && state.cards.concat(state.cursed).some(needsPlayers)) {
      state.players = DEFAULT_PLAYERS;  // asked on the card's row (Genie), 4 until changed
    }
    const answer = await compute();
    if (mine !== seq) return null;  // a newer change is on its way
    if (answer.problem) return answer.problem;
    const got = answer.score || answer.best;
    state.code = got ? got.code : "";
    setError("");
    setOffline("");
    pending = false;
    shownSeq = mine;
    draw(answer.score, answer.best);
    loadAhead(mine, answer.best);  // not awaited: the tap is done, the look-ahead follows
    if (answer.score && $("explain").open) await loadExplain(mine);
    return null;
  }

  async function loadExplain(mine) {
    if (explainFor === mine || state.cards.length === 0) return;
    const r = await ask("explain", request()).catch(() => null);
    if (mine !== seq || !r) return;
    if (r.ok) renderExplain(r.data.text, r.data.card_texts);
    else $("explain-text").textContent = r.data.detail;
    if (r.ok) explainFor = mine;
  }

  function remember(push) {
    const entry = snapshot();
    if (push) history.pushState(entry, "", href());
    else history.replaceState(entry, "", href());
  }

  // Each change runs after the previous one. A refused change is undone with its reason; a
  // change the server cannot take now is kept on screen and sent again until it is taken.
  function change(edit, options) {
    const opts = options || {};
    busy = busy.then(async () => {
      const saved = snapshot();
      if (edit) edit();
      const mine = ++seq;
      renderPicker();
      setLoading(true);
      try {
        const problem = await refresh(mine);
        if (problem) {
          restore(saved);
          renderPicker();
          setError(problem);
        } else if (!opts.fromHistory && edit) {
          remember(true);
        }
      } catch (e) {
        if (!(e instanceof Offline)) throw e;
        if (!opts.fromHistory && edit) remember(true);  // Back undoes an offline tap too
        pending = true;
        setOffline(e.message === "offline" ? t("offline.notice") : e.message + " " + t("offline.retry"));
        scheduleRetry();
      } finally {
        if (mine === seq) setLoading(false);
      }
    });
    return busy;
  }

  function scheduleRetry() {
    clearTimeout(retryTimer);
    retryTimer = setTimeout(() => { if (pending) change(null); }, RETRY_MS);
  }
  window.addEventListener("online", () => { if (pending) change(null); });

  // ---------------------------------------------------------------- taps
  const dropPinsOf = (id) => {
    delete state.pins[id];
    for (const [k, v] of Object.entries(state.pins)) {  // pins that named the card
      if (v === id || v.startsWith(id + " ")) delete state.pins[k];
    }
  };
  const without = (list, id) => list.filter((x) => x !== id);

  function toggleHand(id) {
    return change(() => {
      if (state.cards.includes(id)) {
        state.cards = without(state.cards, id);
        dropPinsOf(id);
      } else {
        state.cards.push(id);
        state.discard = without(state.discard, id);
      }
    });
  }
  function toggleCursed(id) {
    return change(() => {
      state.cursed = state.cursed.includes(id) ? without(state.cursed, id) : state.cursed.concat([id]);
    });
  }
  function toggleDiscard(id) {
    return change(() => {
      if (state.discard.includes(id)) {
        state.discard = without(state.discard, id);
      } else {
        state.discard.push(id);
        if (state.cards.includes(id)) { state.cards = without(state.cards, id); dropPinsOf(id); }
      }
    });
  }
  function tapCard(a) {
    const id = a.dataset.card;
    anchor = { el: a, top: a.getBoundingClientRect().top };
    if (a.dataset.cursed) return toggleCursed(id);
    return state.tap === "discard" ? toggleDiscard(id) : toggleHand(id);
  }

  document.addEventListener("click", (ev) => {
    if (ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.button) return;
    const card = ev.target.closest(".picker a.card");
    const discardLink = ev.target.closest("a[data-discard]");
    const chip = ev.target.closest("a[data-dcard]");
    const seg = ev.target.closest(".tapmode a.seg");
    if (card) { ev.preventDefault(); tapCard(card); } else if (discardLink) {
      ev.preventDefault(); toggleHand(discardLink.dataset.discard);
    } else if (chip) { ev.preventDefault(); toggleDiscard(chip.dataset.dcard); } else if (seg) {
      ev.preventDefault();
      state.tap = seg.dataset.tap;
      renderPicker();
    }
  });

  document.addEventListener("change", (ev) => {
    const sel = ev.target.closest && ev.target.closest("select[data-players]");
    if (!sel) return;
    change(() => { state.players = Number(sel.value); });
  });

  // Space presses a focused card as Enter does (a link only knows Enter).
  document.addEventListener("keydown", (ev) => {
    const a = ev.target.closest && ev.target.closest("a[role=button]");
    if (!a || ev.key !== " ") return;
    ev.preventDefault();
    a.click();
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

  $("reset").addEventListener("click", (ev) => {
    ev.preventDefault();
    if (!state.cards.length && !state.cursed.length && !state.discard.length) return;
    change(() => { state.cards = []; state.pins = {}; state.cursed = []; state.discard = []; });
  });

  // Back and Forward: the hand of that entry (the address holds it), scored again.
  window.addEventListener("popstate", (ev) => {
    if (!ev.state) return;
    restore(ev.state);
    change(() => restore(ev.state), { fromHistory: true });
  });

  // ---------------------------------------------------------------- the game, the language
  const gameForm = $("game-form");
  $("game-apply").hidden = true;
  gameForm.addEventListener("change", (ev) => {
    if (ev.target.id === "players") {
      const v = ev.target.value;
      change(() => { state.players = v === "" ? null : Number(v); });
      return;
    }
    // Another game has other cards: the server moves the hand over and says what it left out.
    const data = new FormData(gameForm);
    location.href = href({ expansion: data.get("expansion"), edition: data.get("edition"),
      was: gameForm.querySelector("input[name=was]").value });
  });
  gameForm.addEventListener("submit", (ev) => ev.preventDefault());

  $("lang").addEventListener("change", () => {
    state.lang = $("lang").value;
    location.href = href();
  });

  $("explain").addEventListener("toggle", () => { if ($("explain").open) loadExplain(shownSeq); });

  // ---------------------------------------------------------------- search
  const search = $("search");
  search.hidden = false;
  function filter() {
    const q = fold(search.value);
    let any = false;
    for (const group of document.querySelectorAll(".picker .suit")) {
      let seen = false;
      for (const a of group.querySelectorAll(".card")) {
        const hit = !q || a.dataset.search.split("|").some((w) => w.includes(q));
        a.hidden = !hit;
        seen = seen || hit;
      }
      group.hidden = !seen;
      any = any || seen;
    }
    show($("no-match"), !any);
  }
  search.addEventListener("input", filter);
  search.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") { search.value = ""; filter(); }
    if (ev.key === "Enter") {  // Enter takes the only card left
      const left = [...document.querySelectorAll(".picker .card")].filter((a) => !a.hidden);
      if (left.length === 1) {  // the card is taken and the box is ready for the next name
        ev.preventDefault();
        tapCard(left[0]);
        search.value = "";
        filter();
      }
    }
  });

  // ---------------------------------------------------------------- share
  const copy = $("copy");
  copy.hidden = false;
  copy.addEventListener("click", async () => {
    const link = $("share-link");
    try {
      await navigator.clipboard.writeText(link.value);
      copy.textContent = t("button.copied");
    } catch (e) {  // no clipboard over plain http on another machine: select it instead
      link.select();
      copy.textContent = t("button.selected");
    }
    setTimeout(() => { copy.textContent = t("button.copy"); }, 1500);
  });

  // ---------------------------------------------------------------- the page from data/
  async function getJSON(path) {
    const r = await fetch(path);
    if (!r.ok) throw new Error(path + ": HTTP " + r.status);
    return r.json();
  }

  // The cards of an address, read at once in the page (the engine reads it again, exactly):
  // the page's own ?code= and the web scorer's ?hand= (ids, bare numbers, its share ids).
  function quickRead(q) {
    const byShare = {};
    for (const [id, c] of Object.entries(cardData.cards)) byShare[c.share.toUpperCase()] = id;
    const code = (q.get("hand") !== null ? q.get("hand") : q.get("code") || "").replace(/ /g, "+");
    const ids = [];
    for (const part of code.split(/[,+]/)) {
      let id = part.split(":")[0].trim().toUpperCase();
      if (!id) continue;
      if (/^\d+$/.test(id)) id = "FR" + id.padStart(2, "0");
      id = q.get("hand") !== null && byShare[id] ? byShare[id] : (cardData.cards[id] ? id : byShare[id]);
      if (id && !ids.includes(id)) ids.push(id);
    }
    let exp = q.get("expansion") || "none";
    if (q.get("hand") !== null) exp = /ch_/.test(q.get("expansions") || "") ? "cursed-hoards" : "none";
    const keys = [`${exp}/${q.get("edition") || "standard"}`].concat(Object.keys(cardData.games));
    const key = keys.find((k) => cardData.games[k] && ids.every((id) =>
      cardData.games[k].groups.some((g) => g.cards.includes(id)))) || "none/standard";
    const players = Number(q.get("playerCount") || q.get("players")) || null;
    return {
      key, players,
      cards: ids.filter((id) => !cardData.cards[id].cursed),
      cursed: ids.filter((id) => cardData.cards[id].cursed),
      discard: (q.get("discard") || "").split(",").map((x) => x.trim().toUpperCase())
        .filter((id) => cardData.cards[id]),
    };
  }

  function searchWords(id, c) {
    return [...new Set([id, ...Object.values(c.names)].map(fold))].join("|");
  }

  // The card picker of a game in the page's language (the server renders the same markup).
  function renderPickerOf(key) {
    const game = cardData.games[key];
    const lang = state.lang;
    $("picker").innerHTML = game.groups.map((g) => {
      const label = g.suit ? cardData.suits[g.suit][lang] : t("picker.cursed");
      const cards = g.cards.map((id) => {
        const c = cardData.cards[id];
        return `<a class="card" role="button" aria-pressed="false" href="#" data-card="${esc(id)}"` +
          `${c.cursed ? ' data-cursed="1"' : ""} data-search="${esc(searchWords(id, c))}">` +
          `${esc(c.names[lang])} <small>${c.strength}</small><span class="sr in-discard-note">` +
          `${esc(t("picker.in_discard"))}</span></a>`;
      }).join("\n");
      return `<div class="suit suit-${esc(g.key)}" data-suit="${esc(g.key)}"><h2>${esc(label)}</h2>` +
        `<div class="cards">${cards}</div></div>`;
    }).join("");
    state.max = game.max;
    state.hand_size = game.hand_size;
  }

  // The game panel of the static page (the server renders it): the game, the players.
  function renderGame() {
    const [exp, ed] = (state.key || "none/standard").split("/");
    for (const r of document.querySelectorAll("#game-form input[type=radio]")) {
      r.checked = r.value === (r.name === "expansion" ? exp : ed);
    }
    $("players").value = state.players === null || state.players === undefined ? "" : String(state.players);
    const parts = [t(exp === "none" ? "game.base" : "game.cursed_hoards")];
    if (ed !== "standard") parts.push(t("game.deluxe"));
    if (state.players) parts.push(t("game.players_n", { n: state.players }));
    $("game-summary").textContent = parts.join(" · ");
    const was = document.querySelector("#game-form input[name=was]");
    if (was) was.value = state.key;
  }

  // The hand of the address, named before the engine has scored it.
  function drawUnscored() {
    const ids = state.cards.concat(state.cursed);
    $("sheet").innerHTML = ids.map((id) => `<li class="row pending" data-card="${esc(id)}">` +
      `<div class="line"><span class="name">${esc(cardData.cards[id].names[state.lang])}</span>` +
      `<span class="pts">…</span></div></li>`).join("");
    show($("empty"), ids.length === 0);
    $("count").textContent = t("count.cards", { n: state.cards.length });
    $("unit").textContent = t("unit.points", { n: 0 });
    renderPicker();
    renderGame();
  }

  async function startStatic() {
    const q = new URLSearchParams(location.search);
    const langs = [...$("lang").options].map((o) => o.value);
    const lang = langs.includes(q.get("lang")) ? q.get("lang") : "en";
    const [data, table] = await Promise.all([getJSON("data/cards.json"),
      getJSON(`data/words-${lang}.json`)]);
    cardData = data;
    setLanguage(lang, table);
    Object.assign(state, quickRead(q));
    renderPickerOf(state.key);
    drawUnscored();
    $("busy").textContent = t("engine.loading");
    setLoading(true);
    try {
      await engine.ready;
    } catch (e) {
      setLoading(false);
      setError(t("engine.failed", { detail: e.detail || e.message }));
      return;
    }
    $("busy").textContent = t("status.scoring");
    const r = await ask("read", { query: location.search });
    if (!r.ok) { setLoading(false); setError(r.data.detail); return; }
    const key = state.key;
    Object.assign(state, r.data);
    if (state.key !== key) { renderPickerOf(state.key); }
    renderGame();
    const mine = ++seq;  // (not through change(): the taps made meanwhile wait for this)
    const problem = await refresh(mine);
    if (mine === seq) setLoading(false);
    if (problem) setError(problem);
    if (r.data.left.length) setNotices([t("notice.left_out", { cards: r.data.left.join(", ") })]);
    remember(false);
  }

  // ---------------------------------------------------------------- start
  if (window.ResizeObserver) new ResizeObserver(dockResized).observe($("dock"));
  dockResized();
  if ("serviceWorker" in navigator && window.isSecureContext) {
    // On the static site the offline worker copies every file of the site: it waits until
    // the engine has started, so that the copy never slows the first score.
    const register = () => navigator.serviceWorker.register("sw.js").catch(() => {});
    if (WORKER) engine.ready.then(register, register);
    else register();
  }
  if (!navigator.onLine) setOffline(t("offline.notice"));
  if (WORKER) {
    busy = startStatic().catch((e) => { setLoading(false); setError(String(e.message || e)); });
  } else if (state.address !== undefined &&
             location.search.replace(/^\?/, "") !== state.address) {
    // The offline worker gave the last page saved, made for another address: this address's
    // hand is drawn instead, marked offline, and scored once the server answers again.
    busy = getJSON("data/cards.json").then((d) => {
      cardData = d;
      Object.assign(state, quickRead(new URLSearchParams(location.search)), { pins: {}, code: "" });
      const [exp, ed] = state.key.split("/");
      state.game = { ...(exp !== "none" ? { expansion: exp } : {}), ...(ed !== "standard" ? { edition: ed } : {}) };
      $("total").textContent = "–";
      drawUnscored();
      for (const id of ["advice", "advise", "choosers", "optimality", "explain", "dock-advice"]) show($(id), false);
      pending = true;
      setOffline(t("offline.notice"));
      scheduleRetry();
    }).catch(() => setOffline(t("offline.notice")));
  } else {
    explainFor = $("explain-text").textContent ? 0 : null;
    if (explainFor === 0) {
      renderExplain($("explain-text").textContent, JSON.parse($("explain-text").dataset.texts || "{}"));
    }
    getJSON("data/cards.json").then((d) => { cardData = d; }).catch(() => {});
    // The address of this entry, canonical (a game switch's address says what it came from).
    remember(false);
    // The server rendered the discard advice: the look-ahead follows it (once per address).
    if (!$("advice").hidden && $("advise").querySelector("[data-testid=ahead]") === null) {
      loadAhead(seq, true);
    }
  }
  const version = document.querySelector('meta[name="fs-version"]');
  if (version) $("version").textContent = version.content;
  drawQR();
  document.body.classList.add("live");
})();
