"""WCAG 2 contrast, measured in the browser on every piece of text a page shows.

For each visible element with text of its own (and each form control), the text colour and
the background behind it are read from the computed style (backgrounds composed up the
ancestors, alpha blended), and their contrast ratio is computed with WCAG's relative
luminance. AA asks 4.5:1, or 3:1 for large text (24 px, or 18.66 px bold). The formula is
WCAG's own (the sRGB threshold 0.04045 of the current definition).
"""

from __future__ import annotations

from typing import Any

MEASURE = r"""
() => {
  const parse = (c) => {
    const m = c && c.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number);
    return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 };
  };
  const over = (top, under) => ({
    r: top.r * top.a + under.r * (1 - top.a), g: top.g * top.a + under.g * (1 - top.a),
    b: top.b * top.a + under.b * (1 - top.a), a: 1 });
  const lin = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = (c) => 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
  const ratio = (a, b) => {
    const x = lum(a), y = lum(b);
    return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
  };
  function background(el) {
    const layers = [];
    let opacity = 1;
    for (let e = el; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      opacity *= Number(s.opacity);
      const c = parse(s.backgroundColor);
      if (c && c.a > 0) { layers.push(c); if (c.a >= 1) break; }
    }
    let color = { r: 255, g: 255, b: 255, a: 1 };
    for (const l of layers.reverse()) color = over(l, color);
    return { color, opacity };
  }
  const out = [];
  for (const el of document.querySelectorAll("body *")) {
    if (["SCRIPT", "STYLE", "OPTION", "BR"].includes(el.tagName)) continue;
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    const control = ["INPUT", "SELECT", "BUTTON", "TEXTAREA"].includes(el.tagName);
    if (!own && !control) continue;
    const s = getComputedStyle(el);
    if (s.visibility !== "visible" || el.getClientRects().length === 0) continue;
    const box = el.getBoundingClientRect();
    if (box.width < 2 || box.height < 2) continue;   // visually hidden text (.sr)
    if (s.clip !== "auto" && s.clip.startsWith("rect(0")) continue;
    const bg = background(el);
    const fg = parse(s.color);
    const text = over({ ...fg, a: fg.a * bg.opacity }, bg.color);
    const size = parseFloat(s.fontSize);
    const bold = Number(s.fontWeight) >= 700;
    const large = size >= 24 || (size >= 18.66 && bold);
    const r = ratio(text, bg.color);
    out.push({ text: (el.innerText || el.value || el.tagName).trim().slice(0, 40),
      ratio: Math.round(r * 100) / 100, need: large ? 3 : 4.5,
      color: s.color,
      background: [bg.color.r, bg.color.g, bg.color.b].map(Math.round).join(",") });
  }
  return out;
}
"""


def measure(page) -> list[dict[str, Any]]:
    """Every text of the page with its contrast ratio and what AA asks of it."""
    return page.evaluate(MEASURE)


def failures(page) -> list[dict[str, Any]]:
    return [m for m in measure(page) if m["ratio"] < m["need"]]
