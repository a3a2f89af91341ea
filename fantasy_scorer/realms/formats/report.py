"""Turning a :class:`~fantasy_scorer.realms.resolve.Result` into text and JSON, for people
and tools."""

from __future__ import annotations

import unicodedata
from dataclasses import replace
from typing import Any

from ..hand import format_choice
from ..messages import Msg, render
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
    """A score-sheet row with its card and suit names in the localizer's language (its
    Status is :func:`status_text`)."""
    if loc is None or not loc.active:
        return line
    return replace(line, name=loc.name(line.name), as_name=loc.name(line.as_name),
                   suit=loc.suit_label(line.suit))


def status_text(line: Line, loc: Localizer | None = None) -> str:
    """The Status cell of a row, in the localizer's language: the one sentence the score
    sheet, the JSON and the web page show."""
    return loc.status(line) if loc else line.status


def line_json(line: Line, loc: Localizer | None = None) -> dict[str, Any]:
    """One card of the JSON: the row, its ``status`` sentence, and its ``reasons`` as data
    (``{"key", "args"}``, the keys of ``data/messages/<lang>.json``)."""
    return {**localized_line(line, loc).as_json(), "status": status_text(line, loc),
            "reasons": [r.as_json() for r in line.reasons]}


def result_json(result: Result, loc: Localizer | None = None) -> dict[str, Any]:
    """The documented JSON object of a scored hand (names in ``loc``'s language if given)."""
    return {
        "total": result.total,
        "cards": [line_json(line, loc) for line in result.lines],
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


#: The score sheet's columns, as message keys.
COLUMNS = ("sheet.card", "sheet.suit", "sheet.base", "sheet.bonus", "sheet.penalty",
           "sheet.points", "sheet.status")


def headers(loc: Localizer | None = None) -> list[str]:
    """The score sheet's column titles in the localizer's language."""
    return [loc.say(Msg(k)) if loc else render(Msg(k)) for k in COLUMNS]


def card_cell(line: Line, loc: Localizer | None = None) -> str:
    """``Mirage as Rainstorm`` (names and words in the localizer's language)."""
    ln = localized_line(line, loc)
    if ln.as_name == ln.name:
        return ln.name
    msg = Msg("sheet.as", card=ln.name, copy=ln.as_name)
    return loc.say(msg) if loc else render(msg)


def result_table(result: Result, title: str | None = None, loc: Localizer | None = None) -> str:
    """A plain-text score sheet: one row per card, then the total."""
    rows = [tuple(headers(loc))]
    for line in result.lines:
        ln = localized_line(line, loc)
        rows.append((
            card_cell(line, loc), ln.suit, str(ln.base), _signed(ln.bonus), _signed(ln.penalty),
            "—" if ln.blanked else str(ln.points), status_text(line, loc),
        ))
    widths = [max(text_width(r[i]) for r in rows) for i in range(6)]
    right = {2, 3, 4, 5}
    out = []
    if title:
        out.append(title)
    for r in rows:
        cells = [pad(r[i], widths[i], right=i in right) for i in range(6)]
        out.append(("  ".join(cells) + ("  " + r[6] if r[6] else "")).rstrip())
    total = loc.say(Msg("sheet.total")) if loc else render(Msg("sheet.total"))
    total_label = pad(total, sum(widths[:5]) + 8)
    out.append(f"{total_label}  {str(result.total).rjust(widths[5])}")
    made = {k: v for k, v in choices_json(result, loc).items() if v is not None}
    if made:
        out.append("Choices: " + "; ".join(f"{k}: {v}" for k, v in made.items()))
    return "\n".join(out)
