"""Many games between bots, with the seats rotated, and what each bot achieved.

Game ``g`` is dealt from the seed ``"{seed}:{g}"`` and the bot listed ``i``-th sits at seat
``(i + g) mod players``, so no bot keeps the first player's seat. A win shared by ``k``
players counts ``1/k`` for each. Everything derives from the seed: the same call plays the
same games (unless advisors stop on a time budget, which depends on the machine).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache

from ...errors import ScorerError
from ..catalog import Catalog
from ..solve.census import Game as GameSpec
from .bots import BOTS, AdvisorBot, Bot
from .engine import Game, check_players, play
from .samples import default_samples
from .scoring import Scorer
from .stats import share_interval


@dataclass
class BotStats:
    """One entry of the line-up: its place in the list (``seat``, 0-based) and, per game,
    its share of the win and its final score."""

    name: str
    seat: int
    shares: list[float] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)

    @property
    def win_share(self) -> float:
        return sum(self.shares) / len(self.shares) if self.shares else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return share_interval(self.shares)

    @property
    def mean_score(self) -> float:
        return statistics.fmean(self.scores) if self.scores else 0.0

    @property
    def spread(self) -> float:
        return statistics.stdev(self.scores) if len(self.scores) > 1 else 0.0


@dataclass
class Simulation:
    players: int
    games: int
    seed: object
    bots: list[BotStats]
    turns: list[int] = field(default_factory=list)  # per game, turns played
    seconds: float = 0.0

    def merge(self, other: Simulation) -> Simulation:
        """This simulation and another part of the same one (same line-up), as one."""
        for mine, theirs in zip(self.bots, other.bots, strict=True):
            mine.shares += theirs.shares
            mine.scores += theirs.scores
        self.turns += other.turns
        self.games += other.games
        self.seconds += other.seconds
        return self

    @property
    def mean_turns(self) -> float:
        return statistics.fmean(self.turns) if self.turns else 0.0

    def to_json(self) -> dict:
        return {
            "games": self.games,
            "players": self.players,
            "seed": self.seed,
            "bots": [{"name": b.name, "seat": b.seat + 1, "win_share": b.win_share,
                      "ci95": list(b.ci95), "mean_score": b.mean_score, "spread": b.spread}
                     for b in self.bots],
            "mean_turns": self.mean_turns,
            "seconds": self.seconds,
        }


def parse_lineup(text: str, players: int) -> list[str]:
    """``"advisor,greedy,greedy,greedy"``: one bot per seat; a single name fills every seat."""
    names = [n.strip().lower() for n in text.split(",") if n.strip()]
    for n in names:
        if n not in BOTS:
            raise ScorerError(f"unknown bot '{n}'; the bots are {', '.join(BOTS)}")
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise ScorerError(f"{len(names)} bots for {players} players; name one bot per seat "
                          "(or one bot for every seat)")
    return names


def make_bot(name: str, rng: random.Random, scorer: Scorer, samples: int | None,
             budget: float | None, evaluation: str = "auto") -> Bot:
    if name == "advisor":
        return AdvisorBot(rng, scorer, samples=samples, budget=budget, evaluation=evaluation)
    return BOTS[name](rng, scorer)


def seat_of(entry: int, game: int, players: int) -> int:
    """The seat of line-up entry ``entry`` in game ``game``: the seats rotate, so that no
    bot keeps the first player's seat.

    >>> [seat_of(0, g, 4) for g in range(5)]
    [0, 1, 2, 3, 0]
    """
    return (entry + game) % players


def simulate(catalog: Catalog, players: int, lineup: Sequence[str], games: int,
             seed: object = 1, samples: int | None = None, budget: float | None = None,
             progress: Callable[[int], None] | None = None,
             scorer: Scorer | None = None, start: int = 0,
             evaluation: str = "auto") -> Simulation:
    """Play ``games`` games (games ``start`` to ``start + games - 1`` of the seed, so that
    parts of a long simulation can run apart and be merged); ``samples``/``budget`` bound
    each advisor decision (default: a fixed number of samples,
    :func:`~.samples.default_samples`). ``progress`` is called with the number of games
    done after each game. ``evaluation`` is the advisors' (:func:`~.advice.advise`)."""
    check_players(players)
    if games < 1:
        raise ScorerError("--games must be at least 1")
    if samples is None and budget is None:
        samples = default_samples(players)
    sc = scorer or Scorer(catalog, players)
    sim = Simulation(players, games, seed, [BotStats(n, i) for i, n in enumerate(lineup)])
    t0 = time.perf_counter()
    for g in range(start, start + games):
        seats = [seat_of(i, g, players) for i in range(players)]
        bots: list[Bot | None] = [None] * players
        for i, name in enumerate(lineup):
            bots[seats[i]] = make_bot(name, random.Random(f"{seed}:{g}:{i}"), sc, samples,
                                        budget, evaluation)
        record = play(Game.deal(catalog, players, f"{seed}:{g}"), bots)
        for i, stats in enumerate(sim.bots):
            stats.shares.append(record.share(seats[i]))
            stats.scores.append(record.score(seats[i]))
        sim.turns.append(len(record.turns))
        if progress is not None:
            progress(g - start + 1)
    sim.seconds = time.perf_counter() - t0
    return sim


# -- a simulation cut into parts, for workers -------------------------------------------------

#: Games per part: an advisor game takes seconds, a game of quick bots some milliseconds.
PART_ADVISOR = 2
PART_QUICK = 100


def part_size(lineup: Sequence[str]) -> int:
    """Games per part of a simulation: a part takes seconds, not hours nor microseconds."""
    return PART_ADVISOR if "advisor" in lineup else PART_QUICK


def parts(games: int, size: int) -> list[tuple[int, int]]:
    """(first game, games) of each part of ``games`` games."""
    return [(g, min(size, games - g)) for g in range(0, games, size)]


@cache
def _scorer(game: GameSpec, players: int) -> Scorer:
    """One scorer per worker process and game (its compiled code loaded once)."""
    return Scorer(game.catalog(), players)


def simulate_part(game: GameSpec, players: int, lineup: tuple[str, ...], seed: object,
                  samples: int | None, budget: float | None, start: int,
                  games: int) -> Simulation:
    """Games ``start`` to ``start + games - 1`` of a simulation: the task a worker runs.
    Each game is dealt and played from its own seeds, so the parts played anywhere and
    merged in order give the very games of one run."""
    return simulate(game.catalog(), players, lineup, games, seed, samples, budget,
                    scorer=_scorer(game, players), start=start)


def merged(found: Iterable[tuple[int, Simulation]], seed: object) -> Simulation:
    """The parts of a simulation (with their first game) as one, in the order of the games."""
    ordered = [sim for _, sim in sorted(found, key=lambda p: p[0])]
    whole = ordered[0]
    for sim in ordered[1:]:
        whole.merge(sim)
    whole.seed = seed
    return whole
