"""A hand of cards with its players' choices, and the rules for what is legal.

The legal options of every choice live here, so that validation (a hand file naming an
illegal target) and the searches (which enumerate every option) use one definition.

Choice values, keyed by the id of the card that makes the choice:

* a copy (Doppelgänger, Mirage, Shapeshifter): the :class:`Card` copied;
* a change of suit (Book of Changes): ``(target card, new suit name)``;
* a clearing choice (Island): the :class:`Card` whose penalty is cleared;
* ``None``: the choice is deliberately left unassigned (``none`` in a hand file).

A chooser whose id is absent from ``choices`` is *open*: scoring treats it as unassigned and
the optimizer is free to choose it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from . import effects as fx
from .catalog import Card, Catalog
from .errors import ScorerError

#: Hand size without extra cards.
BASE_HAND = 7

ChoiceValue = Card | tuple[Card, str] | None


@dataclass(frozen=True)
class Hand:
    """Cards held at game end plus the choices made for them (validated on creation)."""

    catalog: Catalog
    cards: tuple[Card, ...]
    choices: Mapping[str, ChoiceValue] = field(default_factory=dict)

    def __post_init__(self) -> None:
        check_cards(self.cards)
        for cid, value in self.choices.items():
            chooser = next((c for c in self.cards if c.id == cid), None)
            if chooser is None or chooser.choice is None:
                raise ScorerError(f"'{cid}' is not a card in hand that makes a choice")
            if value is not None:
                check_choice(self, chooser, value)

    @property
    def open_choices(self) -> list[Card]:
        """Cards whose choice is neither pinned nor deliberately left unassigned."""
        return [c for c in self.cards if c.choice is not None and c.id not in self.choices]

    def with_choices(self, choices: Mapping[str, ChoiceValue]) -> Hand:
        merged = dict(self.choices)
        merged.update(choices)
        return Hand(self.catalog, self.cards, merged)


def hand_limit(cards: Iterable[Card]) -> int:
    """How many cards this hand may hold: 7, plus one per extra-card effect in it (R13)."""
    return BASE_HAND + sum(1 for c in cards if c.extra is not None)


def check_cards(cards: tuple[Card, ...]) -> None:
    """Size, duplicates and the extra card's suit (R13)."""
    if not cards:
        raise ScorerError("the hand is empty; list one card per line")
    seen: set[str] = set()
    for c in cards:
        if c.id in seen:
            raise ScorerError(f"{c.name} is listed twice; each card exists once in the game")
        seen.add(c.id)
    limit = hand_limit(cards)
    if len(cards) > limit:
        givers = [c.name for c in cards if c.extra is not None]
        why = f" ({BASE_HAND} + {len(givers)} for {', '.join(givers)})" if givers else ""
        hint = "" if givers else f"; an {BASE_HAND + 1}th card needs Necromancer"
        raise ScorerError(f"{len(cards)} cards in hand, at most {limit} allowed{why}{hint}")
    extra_slots = len(cards) - BASE_HAND
    if extra_slots > 0:
        givers = [c for c in cards if c.extra is not None]
        for giver in givers[:extra_slots]:
            eligible = [c for c in cards if c is not giver and c.suits & giver.extra.suits]
            if not eligible:
                raise ScorerError(
                    f"{giver.name}'s extra card must be a card of the suits it may take "
                    f"from the discard area; none of the other cards is"
                )


# --------------------------------------------------------------------------------------------
# Options of each choice
# --------------------------------------------------------------------------------------------


def copy_options(hand_cards: Iterable[Card], catalog: Catalog, chooser: Card) -> list[Card]:
    """Every card a copy effect may take (R1, R14)."""
    eff = chooser.choice
    assert isinstance(eff, fx.Copy)
    if eff.source == "hand":
        return [c for c in hand_cards if c is not chooser]
    return catalog.copy_targets(eff)


def change_options(hand_cards: Iterable[Card], catalog: Catalog,
                   chooser: Card) -> list[tuple[Card, str]]:
    """Every (other card, new suit) Book of Changes may pick (R3)."""
    return [(c, s) for c in hand_cards if c is not chooser for s in catalog.suits]


def check_choice(hand: Hand, chooser: Card, value: ChoiceValue) -> None:
    """Raise a clear error if ``value`` is not a legal choice for ``chooser``.

    Island's target is checked by the resolver, since it depends on the suits after the
    identities and Book of Changes (R4).
    """
    eff = chooser.choice
    if isinstance(eff, fx.Copy):
        if not isinstance(value, Card):
            raise ScorerError(f"{chooser.name} copies a card: write '{chooser.name}: CARD'")
        if eff.source == "hand":
            if value is chooser:
                raise ScorerError(f"{chooser.name} cannot copy itself; name another card in hand")
            if value not in hand.cards:
                raise ScorerError(
                    f"{chooser.name} copies a card in hand; {value.name} is not in hand"
                )
        elif not (value.suits & eff.suits):
            allowed = hand.catalog.suit_label(eff.suits).replace("/", ", ")
            raise ScorerError(
                f"{chooser.name} cannot become {value.name} ({value.suit}); "
                f"it may copy only {allowed}"
            )
    elif isinstance(eff, fx.ChangeSuit):
        if not (isinstance(value, tuple) and len(value) == 2):
            raise ScorerError(f"{chooser.name} needs 'CARD -> SUIT'")
        target, suit = value
        if target is chooser:
            raise ScorerError(
                f"{chooser.name} may not change its own suit (R3); name another card"
            )
        if target not in hand.cards:
            raise ScorerError(
                f"{chooser.name} changes a card in hand; {target.name} is not in hand"
            )
        if suit not in hand.catalog.suits:
            hint = hand.catalog.suggest(suit, hand.catalog.suits)
            raise ScorerError(f"unknown suit '{suit}'{hint}")
    elif isinstance(eff, fx.ClearOne):
        if not isinstance(value, Card):
            raise ScorerError(f"{chooser.name} clears one card: write '{chooser.name}: CARD'")
        if value not in hand.cards:
            raise ScorerError(f"{chooser.name} clears a card in hand; {value.name} is not in hand")


def format_choice(value: ChoiceValue) -> str:
    """The hand-file spelling of a choice value (``Basilisk``, ``Blizzard -> Beast``, ``none``)."""
    if value is None:
        return "none"
    if isinstance(value, tuple):
        return f"{value[0].name} -> {value[1]}"
    return value.name
