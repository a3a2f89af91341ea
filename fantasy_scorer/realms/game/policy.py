"""The greedy policy, shared by the greedy bot, the advice's play-outs and its sampled hands."""

from __future__ import annotations

from collections.abc import Sequence

from ..catalog import Card
from .scoring import Scorer


def greedy_draw(scorer: Scorer, hand: tuple[Card, ...], area: tuple[Card, ...],
                deck: bool = True, whole: tuple[Card, ...] | None = None) -> Card | None:
    """The discard-area card whose best 7 beats the hand's score the most (the oldest on a
    tie), or None (the deck) when none does; with an empty deck, the best card of the area
    whatever it does.

    ``whole`` is the whole discard area when only some of its cards (``area``) are
    considered.
    """
    if not area:
        return None
    whole = area if whole is None else whole
    sets = []
    for j, c in enumerate(area):
        rest = tuple(d for d in whole if d is not c)
        with_c = hand + (c,)
        for i in range(len(with_c) - (1 if deck else 0)):  # keeping the hand itself: no gain
            sets.append((with_c[:i] + with_c[i + 1:], rest, (j,)))
    owner = [j for j, c in enumerate(area) for _ in range(len(hand) + (0 if deck else 1))]
    _, at = scorer.best(sets, beat=scorer.total(hand, whole) if deck else None)
    return None if at < 0 else area[owner[at]]


def kept_hand(sc: Scorer, known: tuple[Card, ...], cards: Sequence[Card], hidden: int
              ) -> tuple[Card, ...]:
    """The hand a greedy player keeps: the ``known`` cards and the first ``hidden`` of
    ``cards``, then each further card in turn, the card (not a known one) whose loss leaves
    the best total going each time."""
    hand = known + tuple(cards[:hidden])
    for c in cards[hidden:]:
        held = hand + (c,)
        free = [i for i, d in enumerate(held) if d not in known]
        totals = sc.totals([(held[:i] + held[i + 1:], ()) for i in free])
        out = free[max(range(len(free)), key=totals.__getitem__)]
        hand = held[:out] + held[out + 1:]
    return hand
