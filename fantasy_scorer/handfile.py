"""Reading a hand file: one card per line, choices written on their card's line.

::

    # Alice's hand
    Doppelgänger: Basilisk          # a card in hand
    Mirage: Rainstorm               # any allowed card of the game
    Shapeshifter: none              # leave it unassigned
    Book of Changes: Blizzard -> Beast
    Island: Wildfire
    Necromancer                     # the 8th card is simply listed

``#`` starts a comment, blank lines are ignored. Every problem is reported as
``FILE:LINE: message``; nothing on a line is silently dropped.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import effects as fx
from .catalog import Card, Catalog
from .errors import ScorerError
from .hand import ChoiceValue, Hand, check_cards, check_choice, hand_limit
from .names import Names
from .resolve import run


@dataclass(frozen=True)
class Entry:
    """One card line of a hand file."""

    line: int
    card: Card
    choice: str | None  # the text after ':' (None when the line has no ':')


def parse_lines(text: str, source: str, names: Names) -> list[Entry]:
    entries: list[Entry] = []
    for no, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        where = f"{source}:{no}"
        name, sep, rest = line.partition(":")
        try:
            card = names.card(name)
        except ScorerError as e:
            raise e.at(where) from None
        choice = rest.strip() if sep else None
        if sep and not choice:
            raise ScorerError(f"nothing after ':' for {card.name}; write a choice or 'none'", where)
        entries.append(Entry(no, card, choice))
    return entries


def _parse_choice(entry: Entry, names: Names, catalog: Catalog) -> ChoiceValue:
    eff = entry.card.choice
    text = entry.choice or ""
    if text.strip().casefold() == "none":
        return None
    if isinstance(eff, fx.ChangeSuit):
        for arrow in ("->", "→", "=>"):
            if arrow in text:
                target, suit = text.split(arrow, 1)
                return (names.card(target), names.suit(suit))
        raise ScorerError(f"write {entry.card.name}'s choice as 'CARD -> SUIT', got '{text}'")
    return names.card(text)


def read_hand(text: str, source: str, catalog: Catalog, names: Names | None = None) -> Hand:
    """Parse and validate a hand; errors name the file and line."""
    names = names or Names(catalog)
    entries = parse_lines(text, source, names)
    if not entries:
        raise ScorerError("no cards in the hand; list one card per line", f"{source}:1")
    seen: dict[str, Entry] = {}
    for e in entries:
        if e.card.id in seen:
            raise ScorerError(
                f"{e.card.name} is listed twice (also line {seen[e.card.id].line}); "
                "each card exists once in the game",
                f"{source}:{e.line}",
            )
        seen[e.card.id] = e
    cards = tuple(e.card for e in entries)
    limit = hand_limit(cards)
    try:
        check_cards(cards)
    except ScorerError as err:
        excess = entries[min(len(entries) - 1, max(limit, 7))]
        raise err.at(f"{source}:{excess.line}") from None

    base = Hand(catalog, cards)
    choices: dict[str, ChoiceValue] = {}
    for e in entries:
        where = f"{source}:{e.line}"
        if e.choice is None:
            continue
        if e.card.choice is None:
            raise ScorerError(
                f"{e.card.name} makes no choice; remove ': {e.choice}'", where
            )
        try:
            value = _parse_choice(e, names, catalog)
            if value is not None:
                check_choice(base, e.card, value)
        except ScorerError as err:
            raise err.at(where) from None
        choices[e.card.id] = value
    hand = Hand(catalog, cards, choices)
    try:
        run(hand.cards, hand.choices, catalog)  # choices that depend on others (R4)
    except ScorerError as err:
        line = next((e.line for e in entries if e.card.id == err.subject), entries[0].line)
        raise err.at(f"{source}:{line}") from None
    return hand
