"""A quick local search for a good hand: a starting point and a fallback for CP-SAT.

CP-SAT spends its first seconds presolving a whole-game model. A hand found by swapping
cards (scored by the evaluator) gives it a hint to start from, and gives a time-limited
``max`` something honest to return ("not proven") even when the limit is shorter than the
presolve. Seeded, so the same call gives the same hand.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from ..catalog import Card, Catalog
from ..hand import BASE_HAND
from ..resolve import score_raw


def _with_extra(hand: list[Card], extras: Sequence[Card], cat: Catalog) -> tuple[int, list[Card]]:
    """The hand's quick score, with its best extra card when it holds a giver."""
    best = (score_raw(hand, {}, cat), hand)
    givers = [g for g in hand if g.extra is not None]
    if givers:
        for e in extras:
            if e not in hand and any(e.suits & g.extra.suits for g in givers):  # type: ignore[union-attr]
                cand = hand + [e]
                s = score_raw(cand, {}, cat)
                if s > best[0]:
                    best = (s, cand)
    return best


def climb(cards: Sequence[Card], catalog: Catalog, required: Sequence[Card] = (),
          extras: Sequence[Card] = (), seconds: float = 0.5, seed: int = 0,
          size: int = BASE_HAND) -> list[Card]:
    """The best hand met by first-improvement swaps from a few random starts."""
    rng = random.Random(seed)
    free = [c for c in cards if c not in required]
    need = size - len(required)
    if need < 0 or len(free) < need:
        return list(required)[:size]
    t0 = time.perf_counter()
    best_score, best_hand = None, list(required) + free[:need]
    while time.perf_counter() - t0 < seconds:
        hand = list(required) + rng.sample(free, need)
        score, full = _with_extra(hand, extras, catalog)
        improved = True
        while improved and time.perf_counter() - t0 < seconds:
            improved = False
            for i in range(len(required), size):
                for c in rng.sample(free, len(free)):
                    if c in hand:
                        continue
                    trial = hand[:i] + [c] + hand[i + 1:]
                    s, f = _with_extra(trial, extras, catalog)
                    if s > score:
                        hand, score, full, improved = trial, s, f, True
                        break
        if best_score is None or score > best_score:
            best_score, best_hand = score, full
    return best_hand
