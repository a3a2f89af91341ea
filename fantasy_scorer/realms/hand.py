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

from ..errors import ScorerError
from . import effects as fx
from .catalog import Card, Catalog

#: Hand size of the base game without extra cards (a catalog may set another).
BASE_HAND = 7

#: Most cards a discard area holds at game end (the game ends when it reaches 10).
MAX_DISCARD = 10

ChoiceValue = Card | tuple[Card, str] | None


@dataclass(frozen=True)
class Hand:
    """Cards held at game end plus the choices made for them (validated on creation).

    ``discard`` (the discard area), ``players`` (how many play) and ``cursed`` (the Cursed
    Items the player holds) matter only to the cards whose score reads them (C5, C6); they
    are None / empty when not given.
    """

    catalog: Catalog
    cards: tuple[Card, ...]
    choices: Mapping[str, ChoiceValue] = field(default_factory=dict)
    discard: tuple[Card, ...] | None = None
    players: int | None = None
    cursed: tuple[Card, ...] = ()
    context: fx.Context = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        check_cards(self.cards, self.catalog, self.cursed)
        check_table(self)
        for cid, value in self.choices.items():
            chooser = next((c for c in self.cards if c.id == cid), None)
            if chooser is None or chooser.choice is None:
                raise ScorerError(f"'{cid}' is not a card in hand that makes a choice")
            if value is not None:
                check_choice(self, chooser, value)
        discard = None
        if self.discard is not None:
            discard = tuple(c.in_discard() for c in self.discard)
        object.__setattr__(self, "context", fx.Context(discard, self.players, len(self.cursed)))

    @property
    def open_choices(self) -> list[Card]:
        """Cards whose choice is neither pinned nor deliberately left unassigned."""
        return [c for c in self.cards if c.choice is not None and c.id not in self.choices]

    def with_choices(self, choices: Mapping[str, ChoiceValue]) -> Hand:
        merged = dict(self.choices)
        merged.update(choices)
        return Hand(self.catalog, self.cards, merged, self.discard, self.players, self.cursed)

    def with_cards(self, cards: Iterable[Card], choices: Mapping[str, ChoiceValue]) -> Hand:
        """Another hand at the same table (same discard area, players and Cursed Items)."""
        return Hand(self.catalog, tuple(cards), choices, self.discard, self.players, self.cursed)


def hand_limit(cards: Iterable[Card], catalog: Catalog | None = None,
               cursed: Iterable[Card] = ()) -> int:
    """How many cards a hand may hold: the catalog's hand size plus one per extra-card effect
    among its cards and Cursed Items (R13, C4), never more than the catalog's maximum."""
    size = catalog.hand_size if catalog is not None else BASE_HAND
    extra = sum(1 for c in cards if c.extra is not None) + sum(
        1 for c in cursed if c.extra is not None)
    limit = size + extra
    if catalog is not None and catalog.max_hand is not None:
        limit = min(limit, catalog.max_hand)
    return limit


def check_cards(cards: tuple[Card, ...], catalog: Catalog | None = None,
                cursed: tuple[Card, ...] = ()) -> None:
    """Size, duplicates, Cursed Items kept apart, and the extra card's suit (R13, C4)."""
    if not cards:
        raise ScorerError("the hand is empty; list one card per line")
    seen: set[str] = set()
    for c in cards + cursed:
        if c.id in seen:
            raise ScorerError(f"{c.name} is listed twice; each card exists once in the game",
                              subject=c.id)
        seen.add(c.id)
    for c in cards:
        if c.cursed:
            raise ScorerError(f"{c.name} is a Cursed Item; list it under [cursed items]",
                              subject=c.id)
    for c in cursed:
        if not c.cursed:
            raise ScorerError(f"{c.name} is not a Cursed Item; list it with the hand's cards",
                              subject=c.id)
    size = catalog.hand_size if catalog is not None else BASE_HAND
    limit = hand_limit(cards, catalog, cursed)
    if len(cards) > limit:
        givers = [c.name for c in cards + cursed if c.extra is not None]
        why = f" ({size} + {len(givers)} for {', '.join(givers)})" if givers else ""
        cap = catalog.max_hand if catalog is not None else None
        if cap is not None and size + len(givers) > cap:
            why = f" (never more than {cap})"
        able = sorted({c.name for c in (catalog.cards if catalog else ()) if c.extra})
        hint = "" if givers else f"; an {_ordinal(size + 1)} card needs {' or '.join(able)}"
        raise ScorerError(f"{len(cards)} cards in hand, at most {limit} allowed{why}{hint}")
    extra_slots = len(cards) - size
    if extra_slots > 0:
        takers = [c for c in cards if c.extra is not None and c.extra.source == "discard"]
        free = sum(1 for c in cards + cursed
                   if c.extra is not None and c.extra.source != "discard")
        for giver in takers[: max(0, extra_slots - free)]:
            assert giver.extra is not None  # takers have an extra card from the discard area
            eligible = [c for c in cards if c is not giver and c.suits & giver.extra.suits]
            if not eligible:
                raise ScorerError(
                    f"{giver.name}'s extra card must be a card of the suits it may take "
                    f"from the discard area; none of the other cards is"
                )


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def check_table(hand: Hand) -> None:
    """The discard area and the number of players, where the hand's cards need them."""
    if hand.players is not None and not 2 <= hand.players <= 6:
        raise ScorerError(f"{hand.players} players: Fantasy Realms is played by 2 to 6")
    if hand.discard is not None:
        if len(hand.discard) > MAX_DISCARD:
            raise ScorerError(f"the discard area holds {len(hand.discard)} cards; the game ends "
                              f"when it reaches {MAX_DISCARD}")
        seen = {c.id for c in hand.cards} | {c.id for c in hand.cursed}
        for c in hand.discard:
            if c.cursed:
                raise ScorerError(f"{c.name} is a Cursed Item; it cannot be in the discard area",
                                  subject=c.id)
            if c.id in seen:
                raise ScorerError(f"{c.name} is both in the hand and in the discard area",
                                  subject=c.id)
            seen.add(c.id)
    for c in hand.cards + hand.cursed:
        if "discard" in c.needs and hand.discard is None:
            raise ScorerError(f"{c.name} scores the discard area (C5): add a [discard] "
                              "section or --discard", subject=c.id)
        if "players" in c.needs and hand.players is None:
            raise ScorerError(f"{c.name} depends on the number of players (C6): "
                              "add 'players: N' or --players N", subject=c.id)


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
    return [(c, s) for c in hand_cards if c is not chooser and not c.unchangeable
            for s in catalog.suits]


def protect_options(hand_cards: Iterable[Card], chooser: Card) -> list[Card]:
    """Every card Angel may protect: any other card in hand (C2)."""
    return [c for c in hand_cards if c is not chooser]


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
        elif value.cursed or not (value.copy_suits & eff.suits):
            allowed = hand.catalog.suit_label(eff.suits).replace("/", ", ")
            shown = value.suit
            if value.copy_suits != value.suits:
                shown = (f"a copy of it takes only "
                         f"{hand.catalog.suit_label(value.copy_suits)}, R16")
            raise ScorerError(
                f"{chooser.name} cannot become {value.name} ({shown}); "
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
        if target.unchangeable:
            raise ScorerError(f"{chooser.name} cannot change the suit of {target.name}")
        if suit not in hand.catalog.suits:
            hint = hand.catalog.suggest(suit, hand.catalog.suits)
            raise ScorerError(f"unknown suit '{suit}'{hint}")
    elif isinstance(eff, (fx.ClearOne, fx.Protect)):
        verb = "clears" if isinstance(eff, fx.ClearOne) else "protects"
        if not isinstance(value, Card):
            raise ScorerError(f"{chooser.name} {verb} one card: write '{chooser.name}: CARD'")
        if value not in hand.cards:
            raise ScorerError(f"{chooser.name} {verb} a card in hand; {value.name} is not in hand")
        if isinstance(eff, fx.Protect) and value is chooser:
            raise ScorerError(f"{chooser.name} protects another card; name one (C2)")


def format_choice(value: ChoiceValue) -> str:
    """The hand-file spelling of a choice value (``Basilisk``, ``Blizzard -> Beast``, ``none``)."""
    if value is None:
        return "none"
    if isinstance(value, tuple):
        return f"{value[0].name} -> {value[1]}"
    return value.name
