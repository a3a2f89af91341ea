"""Turning a :class:`~fantasy_scorer.realms.resolve.Result` into text and JSON, for people
and tools."""

from __future__ import annotations

import unicodedata
from dataclasses import replace
from typing import Any

from ..hand import format_choice
from ..names import Localizer
from ..resolve import Line, Result


def choices_json(result: Result, loc: Localizer | None = None) -> dict[str, str | None]:
    """``{chooser name: choice}`` for every card in hand that makes a choice."""
    out: dict[str, str | None] = {}
    for c in result.hand.cards:
        if c.choice is not None:
            value = result.hand.choices.get(c.id)
            text = None if value is None else format_choice(value)
            out[loc.card(c) if loc else c.name] = loc.text(text) if loc and text else text
    return out


def localized_line(line: Line, loc: Localizer | None) -> Line:
    """A score-sheet row with its card and suit names in the localizer's language."""
    if loc is None or not loc.active:
        return line
    return replace(line, name=loc.name(line.name), as_name=loc.name(line.as_name),
                   suit=loc.suit_label(line.suit), status=loc.text(line.status))


def result_json(result: Result, loc: Localizer | None = None) -> dict[str, Any]:
    """The documented JSON object of a scored hand (names in ``loc``'s language if given)."""
    return {
        "total": result.total,
        "cards": [localized_line(line, loc).as_json() for line in result.lines],
        "choices": choices_json(result, loc),
    }


def text_width(text: str) -> int:
    """Columns a string takes in a terminal: CJK names are two columns a character."""
    return sum(0 if unicodedata.combining(ch) else
               2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def pad(text: str, width: int, right: bool = False) -> str:
    gap = " " * max(0, width - text_width(text))
    return gap + text if right else text + gap


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def result_table(result: Result, title: str | None = None, loc: Localizer | None = None) -> str:
    """A plain-text score sheet: one row per card, then the total."""
    rows = [("Card", "Suit", "Base", "Bonus", "Penalty", "Points", "Status")]
    for ln in (localized_line(line, loc) for line in result.lines):
        name = ln.name if ln.as_name == ln.name else f"{ln.name} as {ln.as_name}"
        rows.append((
            name, ln.suit, str(ln.base), _signed(ln.bonus), _signed(ln.penalty),
            "—" if ln.blanked else str(ln.points), ln.status,
        ))
    widths = [max(text_width(r[i]) for r in rows) for i in range(6)]
    right = {2, 3, 4, 5}
    out = []
    if title:
        out.append(title)
    for r in rows:
        cells = [pad(r[i], widths[i], right=i in right) for i in range(6)]
        out.append(("  ".join(cells) + ("  " + r[6] if r[6] else "")).rstrip())
    total_label = "Total".ljust(sum(widths[:5]) + 8)
    out.append(f"{total_label}  {str(result.total).rjust(widths[5])}")
    made = {k: v for k, v in choices_json(result, loc).items() if v is not None}
    if made:
        out.append("Choices: " + "; ".join(f"{k}: {v}" for k, v in made.items()))
    return "\n".join(out)
