"""Best hands by plain enumeration: every 7-card subset of a pool, every extra card.

:func:`enumerate_best` does it in Python: no compiled code to load, so it is the quickest for
a handful of subsets, and it is the reference the other searches are tested against; the
same enumeration in compiled code is :func:`.batch.best.compiled_best`. Each card set gets
its optimal choices from :mod:`.choices`, so a subset's score is exactly the evaluator's best
for it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb

from ...errors import ScorerError
from .. import effects as fx
from ..catalog import Card, Catalog
from ..hand import ChoiceValue, Hand
from .choices import optimal_choices


@dataclass(frozen=True)
class Candidate:
    """A card set the evaluator has scored, with its optimal choices."""

    cards: tuple[Card, ...]  # the hand in universe order, extra cards last
    extra: tuple[Card, ...]
    total: int
    choices: dict


@dataclass(frozen=True)
class Table:
    """What lies around a hand: the discard area (None if not given), the number of players
    and the Cursed Items held. A card Necromancer takes leaves the discard area."""

    discard: tuple[Card, ...] | None = None
    players: int | None = None
    cursed: tuple[Card, ...] = ()

    def area(self, taken: Sequence[Card] = ()) -> tuple[Card, ...] | None:
        if self.discard is None:
            return None
        return tuple(c for c in self.discard if c not in taken)

    def context(self, taken: Sequence[Card] = ()) -> fx.Context:
        area = self.area(taken)
        printed = None if area is None else tuple(
            c.in_discard() for c in area)
        if printed is None and self.players is None and not self.cursed:
            return fx.NO_CONTEXT
        return fx.Context(printed, self.players, len(self.cursed))

    def hand(self, catalog: Catalog, cards: Sequence[Card], choices: Mapping[str, ChoiceValue],
             taken: Sequence[Card] = ()) -> Hand:
        return Hand(catalog, tuple(cards), dict(choices), self.area(taken), self.players,
                    self.cursed)


NO_TABLE = Table()


def pins_for(cards: Sequence[Card], pinned: Mapping[str, ChoiceValue]
             ) -> dict[str, ChoiceValue] | None:
    """The pins that apply to these cards, or None if a pin names a card not among them.

    A pinned choice is the player's decision: a hand that keeps the chooser keeps what it
    points at (a Doppelgänger pinned to Knights cannot be kept without Knights).
    """
    out: dict[str, ChoiceValue] = {}
    ids = {c.id for c in cards}
    for c in cards:
        if c.id not in pinned:
            continue
        value = pinned[c.id]
        out[c.id] = value
        if value is None:
            continue
        target = value[0] if isinstance(value, tuple) else value
        in_hand = not (isinstance(c.choice, fx.Copy) and c.choice.source == "game")
        if in_hand and target.id not in ids:
            return None
    return out


def extra_options(base: Sequence[Card], discard: Sequence[Card],
                  most: int | None = None) -> list[tuple[Card, ...]]:
    """The hands ``base`` can become with its extra-card effects: none first, then each card
    (at most ``most`` extra cards)."""
    givers = [c for c in base if c.extra is not None]
    out: list[tuple[Card, ...]] = [()]
    if not givers:
        return out
    ids = {c.id for c in base}
    pool = [d for d in discard if d.id not in ids and not d.cursed]
    top = len(givers) if most is None else min(len(givers), most)
    for k in range(1, top + 1):
        for extra in combinations(pool, k):
            if _fits(givers, extra):
                out.append(extra)
    return out


def _fits(givers: list[Card], extra: tuple[Card, ...]) -> bool:
    """Each extra card can be given by a different giver (a tiny matching)."""
    def place(i: int, used: frozenset[int]) -> bool:
        if i == len(extra):
            return True
        for g, giver in enumerate(givers):
            fits = extra[i].suits & giver.extra.suits  # type: ignore[union-attr]
            if g not in used and fits and place(i + 1, used | {g}):
                return True
        return False
    return place(0, frozenset())


def room(catalog: Catalog) -> int | None:
    """How many extra cards a hand may take at most (None: no cap)."""
    return None if catalog.max_hand is None else catalog.max_hand - catalog.hand_size


def best_of_set(base: Sequence[Card], discard: Sequence[Card], catalog: Catalog,
              pinned: Mapping[str, ChoiceValue], order: Callable[[Card], int],
              table: Table = NO_TABLE) -> Candidate | None:
    """The best hand holding exactly ``base`` (plus its best extra card), or None if illegal."""
    best: Candidate | None = None
    for extra in extra_options(base, discard, room(catalog)):
        cards = tuple(sorted(base, key=order)) + tuple(sorted(extra, key=order))
        pins = pins_for(cards, pinned)
        if pins is None:
            continue
        try:
            total, choices = optimal_choices(cards, catalog, pins, table.context(extra),
                                             table.cursed)
        except ScorerError:  # a pinned Island target that is not a Flood/Flame (R4)
            continue
        if best is None or total > best.total:
            best = Candidate(cards, tuple(extra), total, choices)
    return best


def rank_key(cand: Candidate, order: Callable[[Card], int]) -> tuple:
    """Higher total first; then the game's own tie-break (lower printed strength); then the
    hand holding the earliest card of the pool where two hands differ."""
    early = sum(1 << (1000 - order(c)) for c in cand.cards)
    return (-cand.total, sum(c.strength for c in cand.cards), -early)


def enumerate_best(pool: Sequence[Card], catalog: Catalog, discard: Sequence[Card] = (),
                   pinned: Mapping[str, ChoiceValue] | None = None, top: int = 1,
                   time_limit: float | None = None, table: Table = NO_TABLE,
                   progress: SubsetProgress | None = None) -> tuple[list[Candidate], bool]:
    """(the ``top`` best hands, proven) over every 7-card subset of ``pool``."""
    pinned = dict(pinned or {})
    order = order_of(pool, discard)
    t0 = time.perf_counter()
    found: list[Candidate] = []
    proven = True
    size = min(catalog.hand_size, len(pool))
    total = comb(len(pool), size)
    step = max(1, total // 50)
    for done, base in enumerate(combinations(pool, size), start=1):
        if time_limit is not None and time.perf_counter() - t0 > time_limit and found:
            proven = False
            break
        cand = best_of_set(base, discard, catalog, pinned, order, table)
        if cand is not None:
            found.append(cand)
        if progress is not None and (done % step == 0 or done == total):
            progress(done, total)
    found.sort(key=lambda c: rank_key(c, order))
    return found[:top], proven

#: ``progress(done, total)``: how many of the subsets a search has scored.
SubsetProgress = Callable[[int, int], None]


def order_of(pool: Sequence[Card], discard: Sequence[Card]) -> Callable[[Card], int]:
    position = {c.id: i for i, c in enumerate(list(pool) + list(discard))}
    return lambda c: position[c.id]


def best_with_extras(cards: Sequence[Card], catalog: Catalog,
                     pinned: Mapping[str, ChoiceValue], table: Table, most: int) -> Candidate:
    """The best of ``cards`` with their optimal choices and, with room for ``most`` extra
    cards, the best extra cards from the table's discard area, or none (R13, C4): what
    ``score_hand`` scores. A pinned choice that a taken card makes illegal skips that card."""
    options = extra_options(cards, table.discard, most) if (table.discard and most > 0) \
        else [()]
    best: Candidate | None = None
    for extra in options:
        hand = tuple(cards) + tuple(extra)
        try:
            total, choices = optimal_choices(hand, catalog, pins_for(hand, pinned) or pinned,
                                             table.context(extra), table.cursed)
        except ScorerError:
            if extra:
                continue
            raise
        if best is None or total > best.total:
            best = Candidate(hand, tuple(extra), total, choices)
    assert best is not None
    return best
