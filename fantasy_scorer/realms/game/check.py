"""The learned value's choice checked by playing the whole game out (issue 36, fourteenth step).

With four players the learned value hardly varies from sample to sample (only the next
player's sampled hand does), so a second of samples chooses as a tenth does. Where it
prefers a move other than greedy's, that move is worth about two thirds of what the model
promises, and a good share of such moves are worse than greedy's (``benchmarks/game.py
forks``; docs/advice.md). What the model cannot see, a play-out can: a time budget beyond
:data:`CHECK_FROM` buys a check of the model's choice against greedy's.

A *world* deals the hidden cards as they may lie: each other hand holds the cards known to
be in it, filled from the unseen cards and kept as a greedy player keeps one
(:func:`.policy.kept_hand`, five cards offered for each of their turns so far), and the
rest, shuffled, is the deck. On each world both moves are made and every player then plays
greedy to the end (my later turns too); a world's result is the logistic of my final score
less the best of the others' at a scale of :data:`SCALE` points (a smooth chance of
winning). The paired differences of the two moves over the worlds are the data; the
model's promise, calibrated on other worlds (:data:`PRIORS`), is the prior; the model's
choice stays unless the posterior mean of its advantage falls below zero. So a few worlds
overturn only a small promise, and many worlds any promise that the games do not bear out.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from ..catalog import Card
from .engine import MAX_TURNS, Game, deck_extras
from .policy import greedy_draw, kept_hand
from .scoring import Scorer

#: The smallest time budget (seconds) for which the advice checks its choice: a world costs
#: two play-outs of the rest of the game, tens of milliseconds, and a handful of worlds
#: tells little against the prior.
CHECK_FROM = 0.5
#: With a check, the share of the budget the learned value's samples get (they settle the
#: choice within a tenth of a second); the rest goes to the worlds.
MODEL_SHARE = 0.15
#: The scale (points) of the logistic that makes a world's margin a smooth chance.
SCALE = 10.0
#: A world's unknown cards are offered to a hidden hand this many per turn of its player
#: (as :data:`.advice.KEPT_STEPS`).
KEPT_STEPS = 5


@dataclass(frozen=True)
class Prior:
    """What the model's promise is worth, per table size: the true advantage (in smooth
    chances, over worlds) is about ``a + b * promise``, spread by ``tau`` around that;
    ``world_sd`` is the spread of one world's paired difference. Fitted by
    ``python benchmarks/game.py checks`` (docs/advice.md)."""

    a: float
    b: float
    tau: float
    world_sd: float

    def posterior(self, promise: float, mean: float, worlds: int) -> float:
        """The posterior mean of the advantage: the prior ``a + b * promise`` and the
        worlds' ``mean`` weighed by their precisions.

        >>> p = Prior(0.0, 0.5, 0.1, 0.4)
        >>> p.posterior(0.1, -0.2, 0)
        0.05
        >>> round(p.posterior(0.1, -0.2, 16), 6)
        -0.075
        """
        if worlds == 0:
            return self.a + self.b * promise
        prior_w = 1 / self.tau ** 2
        data_w = worlds / self.world_sd ** 2
        return (prior_w * (self.a + self.b * promise) + data_w * mean) / (prior_w + data_w)


#: The table sizes whose advice is checked, with the prior fitted there.
PRIORS: dict[int, Prior] = {4: Prior(a=-0.009, b=0.66, tau=0.06, world_sd=0.39)}


@dataclass(frozen=True)
class Check:
    """A check's outcome: the worlds played, the model's promise (its chance of winning
    with its choice less with greedy's), the worlds' mean paired difference, the
    posterior advantage, whether the model's choice stayed, and the spread (standard
    deviation) of the worlds' paired differences (what :data:`PRIORS` are fitted from)."""

    worlds: int
    promise: float
    played: float
    posterior: float
    kept: bool
    spread: float = 0.0


def deal(sc: Scorer, hand: tuple[Card, ...], area: tuple[Card, ...], deck: int,
         holds: list[tuple[Card, ...]], draws: list[int], unseen: list[Card],
         rng: random.Random) -> Game:
    """A world: a game with my ``hand`` at seat 0 (to move; after my draw if it holds one
    card more than a hand), the discard ``area``, and for each other seat in turn order its
    known cards ``holds`` filled from the ``unseen`` cards and kept as a greedy player keeps
    one, offered :data:`KEPT_STEPS` cards for each of its ``draws``; the rest, shuffled, is
    the deck (``deck`` cards, or every card left if fewer)."""
    pool = list(unseen)
    rng.shuffle(pool)
    size = sc.catalog.hand_size
    hidden = [max(0, size - len(h)) for h in holds]
    hands: list[list[Card]] = [list(hand)]
    for k, known in enumerate(holds):
        spare = max(0, len(pool) - deck - sum(hidden[k + 1:]) - hidden[k])
        n = hidden[k] + min(KEPT_STEPS * draws[k], spare)
        kept = kept_hand(sc, known, pool[:n], hidden[k]) if n > hidden[k] else (
            known + tuple(pool[:n]))
        ids = {c.id for c in kept}
        pool = [c for c in pool if c.id not in ids]
        hands.append(list(kept))
    rng.shuffle(pool)  # the offered cards a hand passed over, weaker than most, lay first
    drawn = hand[-1] if len(hand) > size else None
    return Game(sc.catalog, len(hands), None, pool[:deck], hands, list(area), [], 0, drawn)


def finish_greedy(sc: Scorer, game: Game) -> list[int]:
    """Every player plays greedy (:func:`.policy.greedy_draw`, :meth:`.Scorer.best_keep`)
    until the game ends (or :data:`.engine.MAX_TURNS` turns, where the engine would stop a
    game whose players take from the discard area for ever); the final scores by seat (the
    deck's end-of-game cards dealt as the engine deals them)."""
    while not game.over and len(game.turns) < MAX_TURNS:
        hand = tuple(game.hands[game.current])
        game.draw(greedy_draw(sc, hand, tuple(game.area), bool(game.deck)))
        game.discard(sc.best_keep(tuple(game.hands[game.current]), tuple(game.area))[1])
    hands = [list(h) for h in game.hands]
    deck_extras(hands, list(game.deck), tuple(game.area), sc)
    return [sc.total(tuple(h), tuple(game.area)) for h in hands]


def smooth_win(scores: list[int], seat: int = 0) -> float:
    """The logistic of ``seat``'s score less the best other score, at :data:`SCALE` points.

    >>> smooth_win([200, 200, 150]), round(smooth_win([210, 200, 150]), 3)
    (0.5, 0.731)
    """
    best = max(s for i, s in enumerate(scores) if i != seat)
    return 1 / (1 + math.exp(-(scores[seat] - best) / SCALE))


def play_move(sc: Scorer, world: Game, take: Card | None, deck: bool,
              discard: Card | None) -> float:
    """:func:`smooth_win` after my move on a copy of ``world`` (a draw: the deck's card, or
    ``take``; then ``discard``, or after the deck's card greedy's discard) and greedy play
    to the end."""
    game = world.copy()
    if game.drawn is None:
        game.draw(None if deck else take)
    out = discard if discard is not None else sc.best_keep(
        tuple(game.hands[0]), tuple(game.area))[1]
    game.discard(out)
    return smooth_win(finish_greedy(sc, game))


def check(sc: Scorer, worlds, mine, greedy, prior: Prior, promise: float,
          deadline: float | None = None, count: int | None = None) -> Check:
    """Play the moves ``mine`` and ``greedy`` (each ``(take, deck, discard)``) on the worlds
    that ``worlds()`` deals, ``count`` of them, or while the longest world so far still
    ends by ``deadline`` (a :func:`time.perf_counter` reading), and weigh the paired
    differences against ``promise``."""
    diffs: list[float] = []
    longest = 0.0
    while count is None or len(diffs) < count:
        begun = time.perf_counter()
        if deadline is not None and begun + longest > deadline:
            break
        world = worlds()
        diffs.append(play_move(sc, world, *mine) - play_move(sc, world, *greedy))
        longest = max(longest, time.perf_counter() - begun)
    n = len(diffs)
    mean = sum(diffs) / n if n else 0.0
    spread = (sum((d - mean) ** 2 for d in diffs) / (n - 1)) ** 0.5 if n > 1 else 0.0
    post = prior.posterior(promise, mean, n)
    return Check(n, promise, mean, post, post >= 0, spread)

