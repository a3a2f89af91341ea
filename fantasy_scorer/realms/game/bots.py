"""Players for the engine: a tiny protocol and the bots ``random``, ``greedy`` and ``advisor``.

A bot sees the game only through a :class:`~.engine.View` (its hand, the discard area in
order, the deck's count, every hand's count and every public turn) and answers two
questions: where to draw from (``None`` for the deck, or a card of the discard area) and
which card to discard. The engine checks both answers.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from ..catalog import Card
from .advice import Advice, Situation, advise
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

    It never takes a turn that leads back to a position it has been in (its hand and the
    discard area, as sets of cards), when another option is there. A turn that takes from
    the discard area moves the game no nearer its end, and the learned value counted the
    time so kept as the taker's alone (the others' scores it set against did not grow with
    it; they do now, :func:`.advice._longer`, but a pass can still look as good as a
    draw): four advisors at one table took turns taking a card and discarding it again (a
    *pass*, back to where the turn began) for ever, and once, passes ruled out, swapped cards
    round the table in a cycle for a thousand turns. The positions are those of this bot
    (one per game); a draw from the deck always leads somewhere new, since the discard area
    then grows."""

    name = "advisor"

    def __init__(self, rng: random.Random, scorer: Scorer, samples: int | None = None,
                 budget: float | None = None, evaluation: str = "auto") -> None:
        self.rng = rng
        self.scorer = scorer
        self.samples = samples
        self.budget = budget
        self.evaluation = evaluation  # the advice's: "auto", "learned" or "play-out"
        self.taken: Card | None = None  # the card this turn took from the discard area
        self.been: set[tuple[frozenset[str], frozenset[str]]] = set()
        self.last: Advice | None = None  # the last decision's advice (benchmarks read it)

    def _options(self, view: View):
        sit = Situation.from_view(view)
        samples = self.samples
        if samples is None and self.budget is None:
            samples = default_samples(view.players)
        self.last = advise(sit, seed=self.rng.random(), budget=self.budget, samples=samples,
                           scorer=self.scorer, settle=False, evaluation=self.evaluation)
        return self.last.options

    def choose_draw(self, view: View) -> Card | None:
        self.been.add(position(view.hand, view.discard))
        options = self._options(view)
        best = next((o for o in options if o.deck or position(
            view.hand, view.discard, o.take, o.discard) not in self.been), options[0])
        self.taken = None if best.deck else best.take
        return self.taken

    def choose_discard(self, view: View) -> Card:
        taken, self.taken = self.taken, None
        options = [o.discard for o in self._options(view)]
        if taken is not None:  # else the discard area grows: a position never seen
            for d in options:
                after = position(view.hand, view.discard, discard=d)
                if after not in self.been:
                    self.been.add(after)
                    return d
        return next((d for d in options if d != taken), options[0])  # type: ignore[return-value]


def position(hand: Sequence[Card], area: Sequence[Card], take: Card | None = None,
             discard: Card | None = None) -> tuple[frozenset[str], frozenset[str]]:
    """A hand and the discard area as sets of card ids, once ``take`` (if given) has gone
    from the area to the hand and ``discard`` (if given) from the hand to the area."""
    held, lying = {c.id for c in hand}, {c.id for c in area}
    if take is not None:
        held.add(take.id)
        lying.discard(take.id)
    if discard is not None:
        held.discard(discard.id)
        lying.add(discard.id)
    return frozenset(held), frozenset(lying)


BotFactory = Callable[[random.Random, Scorer], Bot]

BOTS: dict[str, BotFactory] = {"random": RandomBot, "greedy": GreedyBot, "advisor": AdvisorBot}
