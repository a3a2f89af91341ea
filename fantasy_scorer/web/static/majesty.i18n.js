// The words of the Majesty page and the table view: i18n/majesty/<lang>.json, fetched from the
// site (the server and the static site serve the same files). A message is a string with
// {name} placeholders, or an object of plural forms chosen by the browser's Intl.PluralRules.
"use strict";
(function () {
  const LANGS = ["cz", "de", "en", "es", "fr", "kr", "pl", "pt", "ru", "ua", "zh"];
  const TAGS = { cz: "cs", kr: "ko", ua: "uk" };  // this project's codes as BCP 47 tags
  const cache = {};

  function fetchWords(lang) {
    if (!cache[lang]) {
      cache[lang] = fetch(`i18n/majesty/${lang}.json`).then((r) => {
        if (!r.ok) throw new Error(`no words for ${lang} (${r.status})`);
        return r.json();
      });
    }
    return cache[lang];
  }

  // The language of the address (?lang=), else the browser's, else English.
  function chosen(params) {
    const asked = params.get("lang");
    if (asked && LANGS.includes(asked)) return asked;
    for (const pref of navigator.languages || []) {
      const base = pref.toLowerCase().split("-")[0];
      const code = Object.keys(TAGS).find((k) => TAGS[k] === base) || base;
      if (LANGS.includes(code)) return code;
    }
    return "en";
  }

  async function load(lang) {
    const [en, own] = await Promise.all([fetchWords("en"), fetchWords(lang)]);
    const words = { ...en, ...own };
    const tag = TAGS[lang] || lang;
    const rules = new Intl.PluralRules(tag);
    function t(key, values = {}) {
      let msg = words[key];
      if (msg === undefined) return key;
      if (typeof msg === "object") msg = msg[rules.select(Number(values.n || 0))] || msg.other;
      return msg.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m));
    }
    function list(names) {
      try {
        return new Intl.ListFormat(tag, { type: "conjunction" }).format(names);
      } catch (e) {
        return names.join(", ");
      }
    }
    // Every element marked data-word gets its text, data-placeholder its placeholder.
    function apply(root = document) {
      document.documentElement.lang = tag;
      root.querySelectorAll("[data-word]").forEach((el) => { el.textContent = t(el.dataset.word); });
      root.querySelectorAll("[data-placeholder]").forEach((el) => {
        el.placeholder = t(el.dataset.placeholder);
      });
    }
    // The language menu, each language named in itself.
    async function menu(select, onChange) {
      const names = await Promise.all(LANGS.map((l) => fetchWords(l).then((w) => w._language)));
      select.replaceChildren(...LANGS.map((l, i) => {
        const o = document.createElement("option");
        o.value = l;
        o.lang = TAGS[l] || l;
        o.textContent = names[i];
        o.selected = l === lang;
        return o;
      }));
      select.onchange = () => onChange(select.value);
    }
    return { lang, tag, t, list, apply, menu };
  }

  window.fsWords = { LANGS, chosen, load };
})();
