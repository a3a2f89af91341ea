"""Turning a :class:`~fantasy_scorer.resolve.Result` into text and JSON for people and tools."""

from __future__ import annotations

from typing import Any

from .hand import format_choice
from .resolve import Result


def choices_json(result: Result) -> dict[str, str | None]:
    """``{chooser name: choice}`` for every card in hand that makes a choice."""
    out: dict[str, str | None] = {}
    for c in result.hand.cards:
        if c.choice is not None:
            value = result.hand.choices.get(c.id)
            out[c.name] = None if value is None else format_choice(value)
    return out


def result_json(result: Result) -> dict[str, Any]:
    """The documented JSON object of a scored hand."""
    return {
        "total": result.total,
        "cards": [line.as_json() for line in result.lines],
        "choices": choices_json(result),
    }


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def result_table(result: Result, title: str | None = None) -> str:
    """A plain-text score sheet: one row per card, then the total."""
    rows = [("Card", "Suit", "Base", "Bonus", "Penalty", "Points", "Status")]
    for ln in result.lines:
        name = ln.name if ln.as_name == ln.name else f"{ln.name} as {ln.as_name}"
        rows.append((
            name, ln.suit, str(ln.base), _signed(ln.bonus), _signed(ln.penalty),
            "—" if ln.blanked else str(ln.points), ln.status,
        ))
    widths = [max(len(r[i]) for r in rows) for i in range(6)]
    right = {2, 3, 4, 5}
    out = []
    if title:
        out.append(title)
    for r in rows:
        cells = [r[i].rjust(widths[i]) if i in right else r[i].ljust(widths[i]) for i in range(6)]
        out.append(("  ".join(cells) + ("  " + r[6] if r[6] else "")).rstrip())
    total_label = "Total".ljust(sum(widths[:5]) + 8)
    out.append(f"{total_label}  {str(result.total).rjust(widths[5])}")
    made = {k: v for k, v in choices_json(result).items() if v is not None}
    if made:
        out.append("Choices: " + "; ".join(f"{k}: {v}" for k, v in made.items()))
    return "\n".join(out)
