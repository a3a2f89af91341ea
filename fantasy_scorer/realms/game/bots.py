"""Players for the engine: a tiny protocol and the bots ``random``, ``greedy`` and ``advisor``.

A bot sees the game only through a :class:`~.engine.View` (its hand, the discard area in
order, the deck's count, every hand's count and every public turn) and answers two
questions: where to draw from (``None`` for the deck, or a card of the discard area) and
which card to discard. The engine checks both answers.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from ..catalog import Card
from .engine import View
from .scoring import Scorer


class Bot(Protocol):
    name: str

    def choose_draw(self, view: View) -> Card | None: ...

    def choose_discard(self, view: View) -> Card: ...


class RandomBot:
    """Any legal draw and any discard, uniformly."""

    name = "random"

    def __init__(self, rng: random.Random, scorer: Scorer | None = None) -> None:
        self.rng = rng

    def choose_draw(self, view: View) -> Card | None:
        options: list[Card | None] = ([None] if view.deck_count else []) + list(view.discard)
        return self.rng.choice(options)

    def choose_discard(self, view: View) -> Card:
        return self.rng.choice(view.hand)


class GreedyBot:
    """Today's ``fr-score best`` advice, turn by turn: take the discard-area card that most
    raises the best hand of 7 (the oldest on a tie), else draw from the deck; discard
    whatever leaves the best 7 (with ``best``'s tie-break)."""

    name = "greedy"

    def __init__(self, rng: random.Random, scorer: Scorer) -> None:
        self.scorer = scorer

    def choose_draw(self, view: View) -> Card | None:
        return greedy_draw(self.scorer, view.hand, view.discard, view.deck_count > 0)

    def choose_discard(self, view: View) -> Card:
        return self.scorer.best_keep(view.hand, view.discard)[1]


def greedy_draw(scorer: Scorer, hand: tuple[Card, ...], area: tuple[Card, ...],
                deck: bool = True) -> Card | None:
    """The discard-area card whose best 7 beats the hand's score the most (the oldest on a
    tie), or None (the deck) when none does; with an empty deck, the best card of the area
    whatever it does."""
    if not area:
        return None
    sets = []
    for j, c in enumerate(area):
        rest = area[:j] + area[j + 1:]
        with_c = hand + (c,)
        for i in range(len(with_c) - (1 if deck else 0)):  # keeping the hand itself: no gain
            sets.append((with_c[:i] + with_c[i + 1:], rest, (j,)))
    owner = [j for j, c in enumerate(area) for _ in range(len(hand) + (0 if deck else 1))]
    _, at = scorer.best(sets, beat=scorer.total(hand, area) if deck else None)
    return None if at < 0 else area[owner[at]]


BotFactory = Callable[[random.Random, Scorer], Bot]

BOTS: dict[str, BotFactory] = {"random": RandomBot, "greedy": GreedyBot}
