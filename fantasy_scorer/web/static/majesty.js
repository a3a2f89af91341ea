// The Majesty final-scoring page. Its state is its address:
//   majesty.html?side=A&players=Alice,Bob&Alice=3,0,2,1,2,1,2,1&Bob=2,3,0,2,0,2,1,2&Alice_points=12
// (counts at mill, brewery, cottage, guardhouse, barracks, inn, castle, infirmary). The page
// draws the steppers from the address at once; the score comes from the engine (fsEngine:
// the server's /api/majesty, or the Python package in a worker), which also checks every
// value: what the address says is sent as it is, so a bad value gets the engine's one line.
"use strict";
(function () {
  const SIZE = 8;  // locations 1-8, the Infirmary last
  const MAX_PLAYERS = 4;
  const $ = (id) => document.getElementById(id);
  const state = { side: "A", players: [], lang: "en", unknown: [] };
  let words = null;
  let answer = null;  // the engine's last answer
  let asked = 0;      // numbers the calls, so that a late answer never replaces a newer one

  function parseNumber(text) {
    const s = String(text).trim();
    return /^\d+$/.test(s) ? Number(s) : s;
  }

  function read(params) {
    state.side = params.get("side") || "A";
    const listed = params.get("players");
    const names = listed === null ? [] : listed.split(",").map((n) => n.trim()).filter(Boolean);
    state.players = names.map((name) => {
      const given = params.get(name);
      const realm = given === null ? Array(SIZE).fill(0) : given.split(",").map(parseNumber);
      const pts = params.get(`${name}_points`);
      return { name, realm, points: pts === null ? 0 : parseNumber(pts) };
    });
    const known = new Set(["side", "players", "lang"]);
    names.forEach((n) => { known.add(n); known.add(`${n}_points`); });
    state.unknown = [...params.keys()].filter((k) => !known.has(k));
  }

  function query() {
    const enc = (s) => encodeURIComponent(s);
    const parts = [`side=${enc(state.side)}`,
      `players=${state.players.map((p) => enc(p.name)).join(",")}`];
    for (const p of state.players) {
      parts.push(`${enc(p.name)}=${p.realm.map(enc).join(",")}`);
      if (p.points !== 0) parts.push(`${enc(p.name)}_points=${enc(p.points)}`);
    }
    if (state.lang !== "en") parts.push(`lang=${state.lang}`);
    return "?" + parts.join("&");
  }

  function save() {
    history.replaceState(null, "", location.pathname + query());
  }

  function placeName(i) {
    const name = answer && answer.locations ? answer.locations[i] : "";
    return name ? name[0].toUpperCase() + name.slice(1) : "";
  }

  function button(text, label, onClick) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    b.setAttribute("aria-label", label);
    b.addEventListener("click", onClick);
    return b;
  }

  function stepper(player, i) {
    const row = document.createElement("div");
    row.className = "step";
    row.dataset.loc = String(i);
    const label = document.createElement("span");
    label.className = "label";
    label.id = `l-${player.name}-${i}`;
    const place = placeName(i);
    label.innerHTML = `<span class="n">${i + 1}</span> `;
    label.append(place);
    const out = document.createElement("output");
    out.textContent = String(player.realm[i]);
    out.setAttribute("aria-labelledby", label.id);
    const where = place || String(i + 1);
    const change = (d) => () => {
      const n = typeof player.realm[i] === "number" ? player.realm[i] : 0;
      player.realm[i] = Math.max(0, n + d);
      changed();
    };
    row.append(label, button("−", words.t("majesty.less", { place: where }), change(-1)), out,
      button("+", words.t("majesty.more", { place: where }), change(1)));
    return row;
  }

  function pointsRow(player) {
    const row = document.createElement("div");
    row.className = "step points";
    const id = `pts-${state.players.indexOf(player)}`;
    const label = document.createElement("label");
    label.className = "label";
    label.htmlFor = id;
    label.textContent = words.t("majesty.points");
    const input = document.createElement("input");
    input.id = id;
    input.inputMode = "numeric";
    input.value = String(player.points);
    input.addEventListener("change", () => { player.points = parseNumber(input.value); changed(); });
    const step = (d) => () => {
      const n = typeof player.points === "number" ? player.points : 0;
      player.points = Math.max(0, n + d);
      changed();
    };
    row.append(label, button("−", words.t("majesty.points") + " −1", step(-1)), input,
      button("+", words.t("majesty.points") + " +1", step(1)));
    return row;
  }

  function drawRealms() {
    const box = $("realms");
    box.replaceChildren(...state.players.map((p) => {
      const sec = document.createElement("section");
      sec.className = "realm";
      sec.dataset.player = p.name;
      const head = document.createElement("header");
      const h = document.createElement("h3");
      h.textContent = p.name;
      const count = document.createElement("span");
      count.className = "count";
      const n = p.realm.reduce((a, b) => a + (typeof b === "number" ? b : 0), 0);
      count.textContent = words.t("majesty.characters", { n });
      const remove = button("×", words.t("majesty.remove", { name: p.name }), () => {
        state.players = state.players.filter((q) => q !== p);
        changed();
      });
      remove.className = "remove";
      const sum = document.createElement("strong");
      sum.className = "sum";
      sum.setAttribute("aria-label", words.t("majesty.total"));
      head.append(h, count, sum, remove);
      sec.append(head);
      for (let i = 0; i < SIZE; i++) sec.append(stepper(p, i));
      sec.append(pointsRow(p));
      return sec;
    }));
    sums();
    $("add-form").hidden = state.players.length >= MAX_PLAYERS;
    document.querySelectorAll('input[name="side"]').forEach((r) => {
      r.checked = r.value === state.side;
    });
  }

  // Each player's total beside their name, where the thumb is.
  function sums() {
    for (const p of (answer && answer.players) || []) {
      const sec = [...document.querySelectorAll(".realm")].find((x) => x.dataset.player === p.name);
      if (sec) sec.querySelector(".sum").textContent = String(p.total);
    }
  }

  function line(label, pts, cls) {
    const li = document.createElement("li");
    if (cls) li.className = cls;
    const a = document.createElement("span");
    a.append(...(Array.isArray(label) ? label : [label]));
    const b = document.createElement("span");
    b.className = "pts";
    b.textContent = pts > 0 ? `+${pts}` : String(pts);
    li.append(a, b);
    return li;
  }

  function drawResult() {
    const scores = $("scores");
    if (!answer || !answer.players) {
      scores.replaceChildren();
      document.querySelectorAll(".realm .sum").forEach((el) => { el.textContent = ""; });
      $("winner").textContent = "";
      $("unfinished").hidden = true;
      document.title = words ? words.t("majesty.title") : "Majesty";
      return;
    }
    const t = words.t;
    scores.replaceChildren(...answer.players.map((p) => {
      const card = document.createElement("article");
      card.className = "score-card";
      card.dataset.player = p.name;
      const h = document.createElement("h3");
      h.innerHTML = "<span class=\"name\"></span><span class=\"total\"></span>";
      h.querySelector(".name").textContent = p.name;
      h.querySelector(".total").textContent = String(p.total);
      const ul = document.createElement("ul");
      if (p.points) ul.append(line(t("majesty.points"), p.points));
      const inf = [`${placeName(7) || t("majesty.infirmary")} (${p.in_infirmary})`];
      if (p.infirmary_most) inf.push(" · ", t("majesty.infirmary_most"));
      ul.append(line(inf, p.infirmary, p.infirmary < 0 ? "loss" : ""));
      ul.append(line(t("majesty.variety", { n: p.occupied }), p.variety));
      for (const m of p.majorities) {
        const what = [t("majesty.majority", { place: placeName(m.location) })];
        if (m.shared_with.length) {
          const mark = document.createElement("span");
          mark.className = "shared";
          mark.textContent = " · " + t("majesty.shared", { names: words.list(m.shared_with) });
          what.push(mark);
        }
        const li = line(what, m.value, m.shared_with.length ? "is-shared" : "");
        li.dataset.loc = String(m.location);
        ul.append(li);
      }
      card.append(h, ul);
      return card;
    }));
    sums();
    const names = words.list(answer.winners);
    $("winner").textContent = answer.shared_win ? t("majesty.shared_win", { names })
      : t("majesty.winner", { names });
    $("unfinished").hidden = !answer.unfinished.length;
    $("unfinished").textContent = t("majesty.unfinished", { names: words.list(answer.unfinished) });
    document.title = answer.players.map((p) => `${p.name} ${p.total}`).join(" · ")
      + " — " + t("majesty.title");
  }

  function showError(text) {
    $("error").hidden = !text;
    $("error").textContent = text || "";
  }

  async function rescore() {
    const n = ++asked;
    if (state.unknown.length) {
      answer = { locations: answer && answer.locations };
      drawResult();
      showError(words.t("majesty.unknown_param", { param: state.unknown[0] }));
      return;
    }
    if (state.players.length < 2) {
      answer = { locations: answer && answer.locations };
      drawResult();
      showError(words.t("majesty.too_few"));
      return;
    }
    const body = { side: state.side, lang: state.lang,
      players: state.players.map((p) => ({ name: p.name, realm: p.realm, points: p.points })) };
    try {
      await window.fsEngine.ready;
      const got = await window.fsEngine.call("majesty", body);
      if (n !== asked) return;
      $("status").hidden = true;
      const first = !answer || !answer.locations;
      answer = got;
      showError("");
      $("names-note").hidden = got.lang === state.lang;
      if (first) drawRealms();  // the location names arrive with the first answer
      drawResult();
    } catch (e) {
      if (n !== asked) return;
      $("status").hidden = true;
      answer = { locations: answer && answer.locations };
      drawResult();
      showError(e.detail || e.message);
    }
  }

  function changed() {
    state.unknown = [];  // a tap writes the address anew, from the table on screen
    save();
    drawRealms();
    rescore();
  }

  async function setLang(lang) {
    state.lang = lang;
    words = await window.fsWords.load(lang);
    words.apply();
    $("heading").textContent = words.t("majesty.title");
    await words.menu($("lang"), (l) => { setLang(l).then(() => { save(); rescore(); }); });
    drawRealms();
    drawResult();
  }

  async function start() {
    const params = new URLSearchParams(location.search);
    read(params);
    const lang = window.fsWords.chosen(params);
    words = await window.fsWords.load(lang);
    if (!params.has("players")) {
      state.players = [1, 2].map((n) => ({ name: words.t("table.default_player", { n }),
        realm: Array(SIZE).fill(0), points: 0 }));
    }
    await setLang(lang);
    document.querySelectorAll('input[name="side"]').forEach((r) => {
      r.addEventListener("change", () => { state.side = r.value; changed(); });
    });
    $("add-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const name = $("new-name").value.trim();
      if (!name) return;
      state.players.push({ name, realm: Array(SIZE).fill(0), points: 0 });
      $("new-name").value = "";
      changed();
    });
    if (!params.has("players")) save();
    rescore();
  }

  // The site's offline worker (the scoring page registers the same one): after a first
  // visit this page, its words and the engine are there with the network gone.
  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("sw.js").catch(() => {});
  }
  start();
})();
