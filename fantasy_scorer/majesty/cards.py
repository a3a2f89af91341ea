"""The 60 character cards, their tiers, and the seeded deck set-up.

A card is identified by its *type* (an index into `CARD_TYPES`): the engine only needs to know
which characters a card can be, so equal cards are interchangeable and a deck is a list of
small ints. Decks are written top card first.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from .names import ENGLISH, LANGUAGES, character_index, character_name, suggest
from .rules import (
    BARRACKS,
    BREWERY,
    CASTLE,
    CHARACTERS,
    COTTAGE,
    GUARDHOUSE,
    INN,
    MAX_PLAYERS,
    MILL,
    MIN_PLAYERS,
)


class CardType(NamedTuple):
    """A character card: one half (single) or two (split), and how many of it each tier has."""

    halves: tuple[int, ...]
    tier1: int
    tier2: int

    @property
    def name(self) -> str:
        return "/".join(CHARACTERS[h] for h in self.halves)


CARD_TYPES: tuple[CardType, ...] = (
    CardType((MILL,), 7, 2),
    CardType((BREWERY,), 4, 2),
    CardType((COTTAGE,), 3, 2),
    CardType((GUARDHOUSE,), 3, 2),
    CardType((BARRACKS,), 2, 1),
    CardType((INN,), 2, 2),
    CardType((CASTLE,), 3, 2),
    CardType((MILL, BREWERY), 2, 1),
    CardType((MILL, BARRACKS), 1, 1),
    CardType((BREWERY, COTTAGE), 1, 2),
    CardType((BREWERY, BARRACKS), 0, 1),
    CardType((COTTAGE, GUARDHOUSE), 1, 2),
    CardType((COTTAGE, INN), 0, 1),
    CardType((COTTAGE, CASTLE), 0, 1),
    CardType((GUARDHOUSE, BARRACKS), 0, 2),
    CardType((GUARDHOUSE, INN), 1, 0),
    CardType((GUARDHOUSE, CASTLE), 1, 0),
    CardType((BARRACKS, INN), 1, 2),
    CardType((INN, CASTLE), 1, 1),
)
#: halves per card type, for the engine's hot loops.
HALVES: tuple[tuple[int, ...], ...] = tuple(c.halves for c in CARD_TYPES)
#: how many of each card type the box holds (tier 1 + tier 2).
IN_BOX: tuple[int, ...] = tuple(c.tier1 + c.tier2 for c in CARD_TYPES)
#: tier-1 cards put on top of tier 2, by number of players.
TIER1_DRAW: dict[int, int] = {2: 6, 3: 14, 4: 26}

_BY_HALVES = {frozenset(c.halves): i for i, c in enumerate(CARD_TYPES)}


def card_name(card: int, lang: str = ENGLISH) -> str:
    """``Miller/Knight`` in a known language (the halves in the card's own order)."""
    return "/".join(character_name(h, lang) for h in HALVES[card])


def card_index(name: object) -> int:
    """``Miller/Brewer`` (either order, any case, spaces allowed, any known language) -> card
    type index."""
    text = str(name).strip()
    try:
        halves = [character_index(part) for part in text.split("/")]
    except ValueError:
        halves = []
    if len(halves) == len(set(halves)) and frozenset(halves) in _BY_HALVES:
        return _BY_HALVES[frozenset(halves)]
    names = [card_name(i, lang) for lang in LANGUAGES for i in range(len(CARD_TYPES))]
    raise ValueError(f"unknown card {text!r}{suggest(text, names)}")


def tier_cards(tier: int) -> list[int]:
    """All cards of one tier, as card type indices (sorted)."""
    return [i for i, c in enumerate(CARD_TYPES) for _ in range(c.tier1 if tier == 1 else c.tier2)]


def deck_size(players: int, all60: bool = False) -> int:
    """How many cards the set-up deals into the deck (display included)."""
    return sum(IN_BOX) if all60 else TIER1_DRAW[players] + len(tier_cards(2))


def tier_at(position: int, players: int, all60: bool = False) -> int:
    """The tier of the card at a deck position (0 = top) under the set-up: 1 for the top
    6/14/26 cards, 2 below them; 0 for the all-60 variant, where any card may be anywhere."""
    if all60:
        return 0
    return 1 if position < TIER1_DRAW[players] else 2


def copies(card: int, tier: int) -> int:
    """How many of a card type tier 1, tier 2, or the whole box (tier 0) holds."""
    c = CARD_TYPES[card]
    return (c.tier1 + c.tier2, c.tier1, c.tier2)[tier]


def setup_deck(players: int, rng: random.Random, all60: bool = False) -> list[int]:
    """The character deck, top card first, by the tier rules or the all-60 variant.

    Tier 2 is shuffled as the bottom pile; 6/14/26 shuffled tier-1 cards go on top and the
    rest of tier 1 goes back to the box. Variant: all 60 shuffled together.
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Majesty is for 2-4 players, not {players}")
    if all60:
        deck = tier_cards(1) + tier_cards(2)
        rng.shuffle(deck)
        return deck
    tier2 = tier_cards(2)
    rng.shuffle(tier2)
    tier1 = tier_cards(1)
    rng.shuffle(tier1)
    return tier1[: TIER1_DRAW[players]] + tier2
