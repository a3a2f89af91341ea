"""Turning a :class:`~fantasy_scorer.realms.resolve.Result` into text and JSON, for people
and tools."""

from __future__ import annotations

import unicodedata
from dataclasses import replace
from typing import Any

from ..catalog import Card
from ..hand import Hand, format_choice
from ..messages import Msg, render
from ..names import Localizer
from ..resolve import Line, Result

#: Where an extra-card effect takes its card from, as the JSON says it.
SOURCES = {"discard": "discard area", "deck": "deck"}


def choices_json(result: Result, loc: Localizer | None = None) -> dict[str, str | None]:
    """``{chooser name: choice}`` for every card in hand that makes a choice."""
    out: dict[str, str | None] = {}
    for c in result.hand.cards:
        if c.choice is not None:
            value = result.hand.choices.get(c.id)
            text = None if value is None else format_choice(value)
            out[loc.card(c) if loc else c.name] = loc.text(text) if loc and text else text
    return out


def extra_cards(hand: Hand) -> list[tuple[Card, Card]]:
    """(card, the card whose effect brought it) for each card past the hand size (R13, C4).

    The extra cards are the last listed that an extra-card effect may take (a card taken from
    the discard area is listed last); effects limited to some suits (Necromancer) are matched
    first, then those that take any card (Leprechaun, Genie, Portal).
    """
    count = len(hand.cards) - hand.catalog.hand_size
    givers = [c for c in hand.cards + hand.cursed if c.extra is not None]
    givers.sort(key=lambda g: not g.extra.suits)  # type: ignore[union-attr]
    out: list[tuple[Card, Card]] = []
    for giver in givers:
        if len(out) >= count:
            break
        taken = {c.id for c, _ in out}
        card = next((c for c in reversed(hand.cards)
                     if c.id not in taken and giver.may_take_extra(c)), None)
        if card is not None:
            out.append((card, giver))
    return out


def extra_json(hand: Hand, loc: Localizer | None = None) -> list[dict[str, str]]:
    """``[{"card", "by", "from"}]``: which card each extra-card effect took, and from where."""
    name = (lambda c: loc.card(c)) if loc else (lambda c: c.name)
    return [{"card": name(card), "by": name(giver),
             "from": SOURCES.get(giver.extra.source, giver.extra.source)}  # type: ignore[union-attr]
            for card, giver in extra_cards(hand)]


def hand_notes(hand: Hand) -> list[str]:
    """Remarks on a hand that is scored as given but is not a final hand."""
    size = hand.catalog.hand_size
    if len(hand.cards) >= size:
        return []
    cap = hand.catalog.max_hand
    most = size + 1 if cap is None else min(size + 1, cap)
    return [f"{len(hand.cards)} card{'s' if len(hand.cards) != 1 else ''} scored as given; "
            f"a final hand holds {size} ({most} with an extra card)"]


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
        "extra": extra_json(result.hand, loc),
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


def as_written_text(total: int | None, loc: Localizer | None = None) -> str:
    """The line beside an optimized score that differs from the hand as written: its
    as-written total (open choices unassigned, as the web scorer counts a code), or that the
    hand is not legal that way (None)."""
    msg = (Msg("sheet.as_written_illegal") if total is None
           else Msg("sheet.as_written", total=total))
    return loc.say(msg) if loc else render(msg)
