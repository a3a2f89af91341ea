// The table view: several players' hands, each the link of its page (scanned from the QR
// code on the player's phone where the browser can, else pasted), ranked with the game's
// tie-break by the engine (fsEngine.call("table", …): the same ranking as `fr-score game`).
// Its state is its address: table.html?p=Alice&h=<link>&p=Bob&h=<link>, one p and h a hand.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const state = { hands: [], lang: "en" };
  let words = null;
  let asked = 0;
  let stream = null;

  function read(params) {
    const names = params.getAll("p");
    const links = params.getAll("h");
    state.hands = links.map((link, i) => ({ player: names[i] || "", link }));
  }

  function save() {
    const params = new URLSearchParams();
    for (const h of state.hands) { params.append("p", h.player); params.append("h", h.link); }
    if (state.lang !== "en") params.set("lang", state.lang);
    history.replaceState(null, "", `${location.pathname}?${params}`);
  }

  function showError(text) {
    $("error").hidden = !text;
    $("error").textContent = text || "";
  }

  function drawHands() {
    $("hands").replaceChildren(...state.hands.map((h) => {
      const li = document.createElement("li");
      li.dataset.player = h.player;
      const who = document.createElement("span");
      who.className = "who";
      who.textContent = h.player;
      const remove = document.createElement("button");
      remove.type = "button";
      remove.textContent = "×";
      remove.setAttribute("aria-label", words.t("table.remove", { name: h.player }));
      remove.addEventListener("click", () => {
        state.hands = state.hands.filter((x) => x !== h);
        changed();
      });
      const code = document.createElement("span");
      code.className = "code";
      code.textContent = h.link;
      li.append(who, remove, code);
      return li;
    }));
    $("need-two").hidden = state.hands.length >= 2;
    $("player").value = "";
    $("player").placeholder = words.t("table.default_player", { n: state.hands.length + 1 });
  }

  function drawRanking(answer) {
    if (!answer) { $("result").hidden = true; return; }
    const t = words.t;
    const top = answer.ranking.filter((s) => s.rank === 1);
    const names = words.list(answer.winners);
    $("winner").textContent = top.length > 1 ? t("table.shared_win", { names })
      : t("table.winner", { names });
    $("ranking").replaceChildren(...answer.ranking.map((s) => {
      const li = document.createElement("li");
      li.dataset.player = s.player;
      const head = document.createElement("div");
      head.className = "head";
      const parts = [["place", String(s.rank)], ["who", s.player], ["total", String(s.total)]];
      for (const [cls, text] of parts) {
        const el = document.createElement("span");
        el.className = cls;
        el.textContent = text;
        head.append(el);
      }
      const why = document.createElement("p");
      why.className = "why";
      const notes = [t("table.points", { n: s.total }), t("table.base", { n: s.base_strength })];
      if (s.shared) notes.push(t("table.shared"));
      else if (s.tie_on_total) notes.push(t("table.tie_total"));
      why.textContent = notes.join(" · ");
      const cards = document.createElement("p");
      cards.className = "cards";
      cards.textContent = s.cards.join(", ");
      li.append(head, why, cards);
      return li;
    }));
    $("result").hidden = false;
  }

  async function rank() {
    const n = ++asked;
    if (state.hands.length < 2) { showError(""); drawRanking(null); return; }
    $("status").hidden = false;
    try {
      await window.fsEngine.ready;
      const answer = await window.fsEngine.call("table",
        { hands: state.hands.map((h) => ({ player: h.player, link: h.link })), lang: state.lang });
      if (n !== asked) return;
      showError("");
      drawRanking(answer);
    } catch (e) {
      if (n !== asked) return;
      drawRanking(null);
      showError(e.detail || e.message);
    } finally {
      if (n === asked) $("status").hidden = true;
    }
  }

  function changed() {
    save();
    drawHands();
    rank();
  }

  function add(link) {
    const text = (link || "").trim();
    if (!text) return;
    const player = $("player").value.trim()
      || words.t("table.default_player", { n: state.hands.length + 1 });
    state.hands.push({ player, link: text });
    $("link").value = "";
    changed();
  }

  // ---- The camera: the browser's own QR reader (BarcodeDetector) where it has one ----------
  async function canScan() {
    if (!("BarcodeDetector" in window) || !navigator.mediaDevices) return false;
    try {
      return (await window.BarcodeDetector.getSupportedFormats()).includes("qr_code");
    } catch (e) {
      return false;
    }
  }

  function stopScan() {
    if (stream) stream.getTracks().forEach((track) => track.stop());
    stream = null;
    $("scan-box").hidden = true;
    $("scan").textContent = words.t("table.scan");
  }

  async function scan() {
    if (stream) { stopScan(); return; }
    try {
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" } });
    } catch (e) {
      showError(e.message);
      return;
    }
    const video = $("video");
    video.srcObject = stream;
    await video.play();
    $("scan-box").hidden = false;
    $("scan").textContent = words.t("table.scan_stop");
    const detector = new window.BarcodeDetector({ formats: ["qr_code"] });
    const look = async () => {
      if (!stream) return;
      try {
        const found = await detector.detect(video);
        if (found.length) {
          stopScan();
          add(found[0].rawValue);
          return;
        }
      } catch (e) { /* a frame not ready yet: look again */ }
      setTimeout(look, 250);
    };
    look();
  }

  async function setLang(lang) {
    state.lang = lang;
    words = await window.fsWords.load(lang);
    words.apply();
    document.title = words.t("table.title");
    await words.menu($("lang"), (l) => { setLang(l).then(() => { save(); rank(); }); });
    drawHands();
  }

  async function start() {
    const params = new URLSearchParams(location.search);
    read(params);
    await setLang(window.fsWords.chosen(params));
    $("entry").addEventListener("submit", (ev) => { ev.preventDefault(); add($("link").value); });
    if (await canScan()) {
      $("scan").hidden = false;
      $("scan").addEventListener("click", scan);
    } else {
      $("no-camera").hidden = false;
    }
    rank();
  }

  // The site's offline worker (the scoring page registers the same one): after a first
  // visit this page, its words and the engine are there with the network gone.
  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("sw.js").catch(() => {});
  }
  start();
})();
