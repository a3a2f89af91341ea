"""The discard advice, one discard at a time: what a stopped search can still answer exactly.

A pool of one card more than a hand has one candidate hand per card let go. Searching them
all at once (``best_hand`` with ``top`` = every discard) answers nothing until the last is
done, so a time limit that stops it loses the discards already scored. Here each discard is
searched on its own (``best_hand`` on the cards left, which picks the quickest search for
that hand) and handed out as soon as it is settled: a time limit checked between discards
stops the advice with every discard it reached exact, and the ones it did not reach named
(issue 41 §9). The clock is a parameter, so that a test drives the stop with a counter
rather than the wall time.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace

from ...errors import ScorerError
from ..catalog import Card, Catalog
from ..hand import ChoiceValue
from .api import Solution, best_hand, refused_discards


@dataclass(frozen=True)
class Settled:
    """One discard searched to the end: the best hand without ``card`` (exact), or None with
    ``reason`` when no legal hand is left without it (a written choice names it, …)."""

    card: Card
    solution: Solution | None
    reason: str = ""


@dataclass(frozen=True)
class Advice:
    """The discards settled, in the pool's order, and the cards whose discard was not reached
    (a time limit stopped the advice first). ``complete``: none is missing."""

    settled: list[Settled] = field(default_factory=list)
    missing: list[Card] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return not self.missing

    def ranked(self) -> list[Solution]:
        """The legal discards' hands, best first: the highest total, then the lowest base
        strength (the game's tie-break), then the pool's order."""
        sols = [s.solution for s in self.settled if s.solution is not None]
        return sorted(sols, key=lambda s: (-s.total, s.result.base_strength))

    def illegal(self) -> list[tuple[Card, str]]:
        """The settled discards that leave no legal hand, each with why."""
        return [(s.card, s.reason) for s in self.settled if s.solution is None]


def each_discard(pool: Sequence[Card], catalog: Catalog, discard: Sequence[Card] | None = None,
                 pinned: Mapping[str, ChoiceValue] | None = None, players: int | None = None,
                 cursed: Sequence[Card] = ()) -> Iterator[Settled]:
    """Each card of ``pool`` let go in turn (the pool's order), settled: the exact best hand
    of the cards left with the written choices that still apply, as ``best_hand`` on the
    whole pool scores that discard. Lazy: the caller stops asking when its time is up."""
    pool = list(pool)
    pinned = dict(pinned or {})
    area = None if discard is None else [d for d in discard if d not in pool]
    for card in pool:
        rest = [c for c in pool if c is not card]
        pins = {k: v for k, v in pinned.items() if k != card.id}
        try:
            sol = best_hand(rest, catalog, discard=area, pinned=pins, top=1,
                            players=players, cursed=cursed)[0]
        except ScorerError:
            why = refused_discards(pool, catalog, pinned, discard, players, cursed,
                                   {c.id for c in pool if c is not card})
            yield Settled(card, None, why[0][1] if why else "no legal hand is left")
            continue
        # the pool's other cards left out: only ``card`` (a hand is the rest, whole)
        yield Settled(card, replace(sol, discard=(card,)))


def advise_discards(pool: Sequence[Card], catalog: Catalog,
                    discard: Sequence[Card] | None = None,
                    pinned: Mapping[str, ChoiceValue] | None = None,
                    players: int | None = None, cursed: Sequence[Card] = (),
                    time_limit: float | None = None,
                    clock: Callable[[], float] = time.monotonic) -> Advice:
    """Every discard of ``pool`` settled (:func:`each_discard`) until ``time_limit`` seconds
    of ``clock`` have passed: checked before each discard is started, so the first is always
    searched and one under way is finished (a discard is exact or not given at all)."""
    start = clock()
    settled: list[Settled] = []
    pool = list(pool)
    for s in each_discard(pool, catalog, discard, pinned, players, cursed):
        settled.append(s)
        if len(settled) < len(pool) and time_limit is not None \
                and clock() - start >= time_limit:
            break
    done = {s.card.id for s in settled}
    return Advice(settled, [c for c in pool if c.id not in done])
