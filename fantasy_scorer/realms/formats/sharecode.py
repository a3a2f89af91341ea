"""Share codes: a hand as one line of card ids and choices, the popular web scorer's format.

A code moves a hand between tools without retyping::

    FR21,FR45,FR13,FR12,FR37+FR49:FR12:beast,FR53:FR37

* Items are separated by commas; each item is a card id (``FR21``), case-insensitive.
* A card that makes a choice carries it after a colon:

  - a copy (Doppelgänger, Mirage, Shapeshifter), Island or Angel: ``ID:TARGET_ID``
    (``FR53:FR37`` = Doppelgänger as Basilisk, ``FR09:FR16`` = Island clears Wildfire);
  - Book of Changes: ``ID:TARGET_ID:suit`` with the suit's English name in lower case
    (``FR49:FR12:beast``; a suit of several words is written with hyphens, ``cursed-item``);
  - ``ID:none``: the choice is deliberately left unassigned (this tool's addition; a chooser
    written without a colon is *open*, scored unassigned unless an optimizer chooses).

* A Cursed Item (Cursed Hoards) is listed by its id like a card; it is held beside the hand.
  The number of players is not part of a code (``--players`` gives it), nor is the discard
  area: a hand whose score reads the discard area needs a hand file.
* An optional single ``+`` splits the code in two lists: the hand's plain cards, then the
  cards that carry choices. Choices may also be written inline before the ``+`` (or with no
  ``+`` at all); both forms read the same hand.

:func:`hand_code` prints the canonical form: the cards without a recorded choice in hand
order, then ``+`` and the cards with one (no ``+`` when there are none), so that reading a
printed code gives back the same hand and printing it again gives the same code.

Everything is validated like a hand file (each card once, hand size, legal choices, Island's
target after the identities, R4); every problem is one line starting ``share code:``.
"""

from __future__ import annotations

from ...errors import ScorerError
from .. import effects as fx
from ..catalog import Card, Catalog, fold
from ..hand import ChoiceValue, Hand, check_cards, check_choice
from ..resolve import run

WHERE = "share code"


def _card(catalog: Catalog, text: str, item: str) -> Card:
    key = text.strip().upper()
    card = catalog.by_id.get(key) or next(
        (c for c in catalog.cards if fold(c.id) == fold(key)), None
    )
    if card is None:
        hint = catalog.suggest(key, [c.id for c in catalog.cards]) if key else ""
        raise ScorerError(f"unknown card id '{text.strip()}' in '{item}'{hint}", WHERE)
    return card


def _suit(catalog: Catalog, text: str, item: str) -> str:
    for s in catalog.suits:
        if fold(s) == fold(text):
            return s
    options = ", ".join(_suit_code(s) for s in catalog.suits)
    raise ScorerError(f"unknown suit '{text}' in '{item}' (one of {options})", WHERE)


def _suit_code(suit: str) -> str:
    return "-".join(suit.lower().split())


def parse_choice(catalog: Catalog, card: Card, parts: list[str], item: str) -> ChoiceValue:
    """The choice written after a card id (``parts`` are the colon-separated pieces)."""
    eff = card.choice
    if eff is None:
        raise ScorerError(
            f"{card.id} ({card.name}) makes no choice; remove ':{':'.join(parts)}' from '{item}'",
            WHERE,
        )
    if len(parts) == 1 and parts[0].strip().lower() == "none":
        return None
    if isinstance(eff, fx.ChangeSuit):
        if len(parts) != 2:
            raise ScorerError(
                f"{card.id} ({card.name}) needs '{card.id}:TARGET_ID:suit', got '{item}'", WHERE
            )
        return (_card(catalog, parts[0], item), _suit(catalog, parts[1].strip(), item))
    if len(parts) != 1:
        raise ScorerError(f"{card.id} ({card.name}) needs '{card.id}:TARGET_ID', got '{item}'",
                          WHERE)
    return _card(catalog, parts[0], item)


def read_items(code: str, catalog: Catalog) -> tuple[list[Card], dict[str, tuple[list[str], str]]]:
    """The syntax of a code alone: its cards in order and, per card id, the raw choice pieces
    with the item they came from. No hand rule is checked (see :func:`parse_code`)."""
    text = code.strip()
    if not text:
        raise ScorerError("the share code is empty; write card ids separated by commas", WHERE)
    sections = text.split("+")
    if len(sections) > 2:
        raise ScorerError("a share code has at most one '+'", WHERE)
    items = [it.strip() for sec in sections for it in sec.split(",")]
    if sections[0].strip() == "" and len(sections) == 2:
        items = items[1:]  # "+FR53:FR37": no plain cards
    cards: list[Card] = []
    raw: dict[str, tuple[list[str], str]] = {}
    for n, item in enumerate(items, start=1):
        if not item:
            raise ScorerError(f"empty item at position {n}; remove the extra comma", WHERE)
        head, *parts = item.split(":")
        if any(not p.strip() for p in parts):
            raise ScorerError(f"empty choice in '{item}'; write a target id or 'none'", WHERE)
        card = _card(catalog, head, item)
        if card in cards:
            raise ScorerError(f"{card.id} ({card.name}) appears twice; each card exists once",
                              WHERE)
        cards.append(card)
        if parts:
            raw[card.id] = (parts, item)
    return cards, raw


def parse_code(code: str, catalog: Catalog, players: int | None = None) -> Hand:
    """The hand a share code describes; a one-line ``share code: …`` error when it is wrong."""
    cards, raw = read_items(code, catalog)
    cursed = tuple(c for c in cards if c.cursed)
    cards = [c for c in cards if not c.cursed]
    for c in cards + list(cursed):
        if "discard" in c.needs:
            raise ScorerError(f"{c.name} scores the discard area (C5), which a share code does "
                              "not carry; use a hand file with a [discard] section", WHERE)
    try:
        check_cards(tuple(cards), catalog, cursed)
        base = Hand(catalog, tuple(cards), {}, None, players, cursed)
    except ScorerError as e:
        raise ScorerError(e.message, WHERE) from None
    choices: dict[str, ChoiceValue] = {}
    for card in cards:
        if card.id not in raw:
            continue
        parts, item = raw[card.id]
        value = parse_choice(catalog, card, parts, item)
        if value is not None:
            try:
                check_choice(base, card, value)
            except ScorerError as e:
                raise ScorerError(f"{e.message} ('{item}')", WHERE) from None
        choices[card.id] = value
    hand = base.with_choices(choices)
    try:
        run(hand.cards, hand.choices, catalog, hand.context)  # Island's target: R4
    except ScorerError as e:
        raise ScorerError(e.message, WHERE) from None
    return hand


def value_code(value: ChoiceValue) -> str:
    """A choice value as a code writes it (``FR37``, ``FR12:beast``, ``none``)."""
    if value is None:
        return "none"
    if isinstance(value, tuple):
        return f"{value[0].id}:{_suit_code(value[1])}"
    return value.id


def hand_code(hand: Hand) -> str:
    """The canonical share code of a hand (plain cards, ``+``, cards with a recorded choice)."""
    plain = [c.id for c in hand.cards if c.id not in hand.choices] + [c.id for c in hand.cursed]
    chosen = [f"{c.id}:{value_code(hand.choices[c.id])}" for c in hand.cards
              if c.id in hand.choices]
    if not chosen:
        return ",".join(plain)
    return ",".join(plain) + "+" + ",".join(chosen)
