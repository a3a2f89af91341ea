"""Which names and suits can make a difference to a set of cards.

A Mirage copying Knights or Light Cavalry is the same thing to a hand whose cards never name
either: only the copy's suit matters. Likewise Book of Changes turning a card into a Leader
or a Beast is the same when no card in hand looks at either suit. Both searches (the choice
enumerator and the CP-SAT model) use these facts to collapse options that cannot differ, and
both read them off the compiled effects, so a homebrew card is covered automatically.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from .. import effects as fx
from ..catalog import Card, Catalog

#: Point effects that look at suits or names as such, not through selector terms.
SUIT_GENERIC = (fx.Collection, fx.DistinctSuits)
NAME_GENERIC = (fx.Collection,)


def _point_terms(e: object) -> Iterator[fx.Term]:
    if isinstance(e, fx.Points):
        yield from e.per
        yield from e.condition.with_any
        for g in e.condition.with_all:
            yield from g
        yield from e.condition.unless
    elif isinstance(e, fx.BestOf):
        for o in e.options:
            yield from _point_terms(o)
    elif isinstance(e, (fx.SumStrength, fx.MaxStrength, fx.Exactly)):
        yield from e.terms


def point_effects(card: Card) -> Iterator[object]:
    """Every point effect of a card, nested ``best_of`` options included."""
    stack = list(card.bonus) + list(card.penalty.points)
    while stack:
        e = stack.pop()
        yield e
        if isinstance(e, fx.BestOf):
            stack.extend(e.options)


def card_terms(card: Card) -> Iterator[fx.Term]:
    """Every selector term on a card: bonus, penalty, clearing and choice."""
    for e in list(card.bonus) + list(card.penalty.points):
        yield from _point_terms(e)
    for b in card.penalty.blanks:
        yield from b.targets
    for c in card.penalty.conditions:
        yield from c.terms
    for cl in card.clears:
        yield from cl.targets
    for cw in card.clears_word:
        yield from cw.targets
    if isinstance(card.choice, fx.ClearOne):
        yield from card.choice.targets
    yield from card.grants_immunity
    yield from card.blanked_only_by  # who may blank it is read off suits and names too (C7)
    for lonely in card.penalty.lonely:
        yield from lonely.spared


#: Point effects whose way of looking at cards this module knows (through their terms, or
#: not at suits and names at all).
KNOWN = (fx.Points, fx.BestOf, fx.SumStrength, fx.MaxStrength, fx.Collection, fx.Runs,
         fx.DistinctSuits, fx.OddStrength, fx.Exactly, fx.PerPenalty, fx.PerPlayer)


@dataclass(frozen=True)
class Relevance:
    """The names and suits some card of a group can tell apart."""

    names: frozenset[str]
    suits: int  # bit mask of mentioned suits
    all_names: bool  # a name-generic effect (Collector) is present: every name counts
    all_suits: bool  # a suit-generic effect (Collector, World Tree) is present
    held_names: frozenset[str] = frozenset()  # printed names of the group's cards
    suit_sig: tuple[tuple, ...] = ()  # per suit: how every term of the group treats it


def relevance(cards: Iterable[Card], catalog: Catalog) -> Relevance:
    """What the effects of ``cards`` (and of any penalty a copy of them may take) look at."""
    cards = list(cards)
    names: set[str] = set()
    suits = 0
    all_names = all_suits = opaque = False
    terms: list[fx.Term] = []
    words = 0
    seen: set[str] = set()
    todo = list(cards)
    while todo:
        card = todo.pop()
        if card.id in seen:
            continue
        seen.add(card.id)
        for t in card_terms(card):
            names |= t.names | t.except_names
            suits |= t.suits | t.except_suits
            terms.append(t)
        for cw in card.clears_word:
            suits |= cw.suits
            words |= cw.suits
        for e in point_effects(card):
            all_names |= isinstance(e, NAME_GENERIC)
            all_suits |= isinstance(e, SUIT_GENERIC)
            if not isinstance(e, KNOWN):  # an effect read some other way: collapse nothing
                all_names = all_suits = opaque = True
        if card.penalty.lonely:  # "the only card of its suit" compares suits as such
            all_suits = True
        eff = card.choice
        if isinstance(eff, fx.Copy) and eff.source == "game" and (
            "penalty" in eff.takes
        ):  # a homebrew copy that takes a penalty from the whole game
            todo.extend(catalog.copy_targets(eff))
    copiers = [c.choice for c in cards
               if isinstance(c.choice, fx.Copy) and c.choice.source == "game"]
    if opaque or all_names and any(a.suits & b.suits for i, a in enumerate(copiers)
                                   for b in copiers[i + 1:]):
        # two copies could take the same new name (or an effect reads names some other
        # way): then every name must stay apart
        names |= {c.name for c in catalog.cards}
    terms = list(dict.fromkeys(terms))
    sig = () if opaque else tuple(  # no signature: every suit stays apart
        tuple((t.suits >> i & 1, t.except_suits >> i & 1) for t in terms) + (words >> i & 1,)
        for i in range(len(catalog.suits)))
    return Relevance(frozenset(names), suits, all_names, all_suits,
                     frozenset(c.name for c in cards), sig)


def suits_key(mask: int, rel: Relevance) -> object:
    """What the group's terms can tell of a set of suits: the classes of its suits."""
    if rel.all_suits or not rel.suit_sig:
        return mask
    return frozenset(rel.suit_sig[i] for i in range(len(rel.suit_sig)) if mask >> i & 1)


def named(name: str, rel: Relevance) -> bool:
    """Whether the group can tell this name from others: a card names it or, for Collector
    (different names), a card of the group holds it."""
    return name in rel.names or (rel.all_names and name in rel.held_names)


def copy_signature(target: Card, copy: fx.Copy, rel: Relevance) -> tuple:
    """What a copy of ``target`` changes, as far as the group's effects can tell."""
    takes = copy.takes
    # A name counts if some card names it or, for Collector (different names), if it is
    # already in hand; any two names nobody mentions and nobody holds are alike.
    name = target.name if ("name" in takes and named(target.name, rel)) else ""
    suits = suits_key(target.copy_suits, rel) if "suit" in takes else None  # R16
    strength = target.strength if "strength" in takes else None
    penalty = target.id if ("penalty" in takes and target.penalty) else None
    return (name, suits, strength, penalty)


def game_copy_targets(copy: fx.Copy, catalog: Catalog, rel: Relevance) -> list[Card]:
    """One target per distinct signature, the first in catalog order (deterministic)."""
    out: list[Card] = []
    seen: set[tuple] = set()
    for t in catalog.copy_targets(copy):
        sig = copy_signature(t, copy, rel)
        if sig not in seen:
            seen.add(sig)
            out.append(t)
    return out


def hand_copy_targets(cards: Iterable[Card], chooser: Card, copy: fx.Copy,
                      rel: Relevance) -> list[Card]:
    """The other cards of the hand a copy from the hand (Doppelgänger) may take, one per
    distinct signature, the first in hand order."""
    out: list[Card] = []
    seen: set[tuple] = set()
    for t in cards:
        if t is chooser:
            continue
        sig = copy_signature(t, copy, rel)
        if sig not in seen:
            seen.add(sig)
            out.append(t)
    return out


def suit_choices(catalog: Catalog, rel: Relevance, held: int = 0) -> list[str]:
    """Suits Book of Changes needs to try: one per class of suits the group's terms treat
    alike (a suit no term mentions is like any other such suit).

    With a suit-generic effect in the group (Collector, World Tree) each suit ``held`` by the
    other cards stays apart too.
    """
    out = []
    classes: set = set()
    for i, s in enumerate(catalog.suits):
        key = rel.suit_sig[i] if rel.suit_sig else i
        if rel.all_suits and held >> i & 1:
            key = ("held", i)
        if key not in classes:
            classes.add(key)
            out.append(s)
    return out
