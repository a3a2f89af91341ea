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
from .advice import Situation, advise
from .engine import View
from .policy import greedy_draw
from .samples import default_samples
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


class AdvisorBot:
    """Plays the advice of :mod:`.advice` (a fixed number of samples per decision, so a
    simulation is deterministic from its seed, :func:`default_samples` unless given; or a
    time budget per decision).

    It never discards the card it has just taken from the discard area: that turn (a
    *pass*) leaves the game where it was, and the learned value counts the time it keeps
    as the passer's alone (the others' scores it sets against do not grow with it), so four
    advisors at one table took turns passing for ever. Its draw step never plans a pass
    (a take is weighed with the discards of the other cards); the discard step, asked
    again, could prefer one: the next option is played instead."""

    name = "advisor"

    def __init__(self, rng: random.Random, scorer: Scorer, samples: int | None = None,
                 budget: float | None = None, evaluation: str = "auto") -> None:
        self.rng = rng
        self.scorer = scorer
        self.samples = samples
        self.budget = budget
        self.evaluation = evaluation  # the advice's: "auto", "learned" or "play-out"
        self.taken: Card | None = None  # the card this turn took from the discard area

    def _options(self, view: View):
        sit = Situation.from_view(view)
        samples = self.samples
        if samples is None and self.budget is None:
            samples = default_samples(view.players)
        return advise(sit, seed=self.rng.random(), budget=self.budget, samples=samples,
                      scorer=self.scorer, settle=False, evaluation=self.evaluation).options

    def choose_draw(self, view: View) -> Card | None:
        best = self._options(view)[0]
        self.taken = None if best.deck else best.take
        return self.taken

    def choose_discard(self, view: View) -> Card:
        taken, self.taken = self.taken, None
        return next(o.discard for o in self._options(view)  # type: ignore[misc]
                    if o.discard != taken)


BotFactory = Callable[[random.Random, Scorer], Bot]

BOTS: dict[str, BotFactory] = {"random": RandomBot, "greedy": GreedyBot, "advisor": AdvisorBot}
