"""Two simple bots and the simulation that pits them against each other.

They are baselines, not strategies: `random` picks any legal move, `greedy` the move with the
most immediate points (ties at random). Simulations rotate the seats every game so that no
bot keeps the starting-player advantage, and everything derives from one seed.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .engine import Game, Move
from .scoring import FinalScore


class RandomBot:
    """Any legal move, uniformly."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, game: Game) -> Move:
        return self.rng.choice(game.legal_moves())


class GreedyBot:
    """The legal move with the most immediate points for itself; ties broken at random."""

    name = "greedy"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, game: Game) -> Move:
        best: list[Move] = []
        top = -(10**9)
        gain = game.gain
        for move in game.legal_moves():
            g = gain(move)
            if g > top:
                top = g
                best = [move]
            elif g == top:
                best.append(move)
        return best[0] if len(best) == 1 else self.rng.choice(best)


BOTS: dict[str, type[RandomBot] | type[GreedyBot]] = {"random": RandomBot, "greedy": GreedyBot}


def play_out(game: Game, bots: Sequence[RandomBot | GreedyBot]) -> FinalScore:
    """Let `bots` (one per seat) play `game` to its end and score it."""
    while not game.over:
        game.apply(bots[game.current].choose(game))
    return game.final_score()


@dataclass
class BotStats:
    """Results of one kind of bot over all its seats and games."""

    name: str
    scores: list[int] = field(default_factory=list)
    wins: float = 0.0  # a shared victory is split between the tied players

    @property
    def mean(self) -> float:
        return statistics.fmean(self.scores)

    @property
    def spread(self) -> float:
        """Population standard deviation of the final scores."""
        return statistics.pstdev(self.scores)

    @property
    def win_rate(self) -> float:
        """Wins per seat played (a fair share is 1 / players)."""
        return self.wins / len(self.scores)


@dataclass
class Simulation:
    players: int
    games: int
    side: str
    seed: int
    lineup: list[str]
    bots: dict[str, BotStats]
    scores: list[int]
    shared: int  # games whose victory was shared

    def to_json(self) -> dict[str, object]:
        return {
            "players": self.players,
            "games": self.games,
            "side": self.side,
            "seed": self.seed,
            "lineup": self.lineup,
            "mean": round(statistics.fmean(self.scores), 3),
            "spread": round(statistics.pstdev(self.scores), 3),
            "min": min(self.scores),
            "max": max(self.scores),
            "shared_victories": self.shared,
            "bots": {
                b.name: {
                    "seats": len(b.scores),
                    "mean": round(b.mean, 3),
                    "spread": round(b.spread, 3),
                    "wins": b.wins,
                    "win_rate": round(b.win_rate, 4),
                }
                for b in self.bots.values()
            },
        }


def lineup_for(players: int, bots: Sequence[str] | None) -> list[str]:
    """The bot of each seat: as given, or alternating greedy and random."""
    if not bots:
        return [("greedy", "random")[i % 2] for i in range(players)]
    for name in bots:
        if name not in BOTS:
            raise ValueError(f"unknown bot {name!r}: use {' or '.join(BOTS)}")
    if len(bots) != players:
        raise ValueError(f"--bots names {len(bots)} bots for {players} players; give {players}")
    return list(bots)


def simulate(
    players: int,
    games: int,
    side: str = "A",
    seed: int = 0,
    bots: Sequence[str] | None = None,
    all60: bool = False,
    everyone_self: bool = True,
    progress: Callable[[int], None] | None = None,
) -> Simulation:
    """Play `games` bot games; game g seats bot ``lineup[(seat + g) % players]``."""
    if games < 1:
        raise ValueError("--games must be at least 1")
    lineup = lineup_for(players, bots)
    master = random.Random(seed)
    stats = {name: BotStats(name) for name in dict.fromkeys(lineup)}
    scores: list[int] = []
    shared = 0
    for g in range(games):
        seats = [lineup[(s + g) % players] for s in range(players)]
        game = Game.new(players, side, master.getrandbits(64), all60, everyone_self)
        rng = random.Random(master.getrandbits(64))
        final = play_out(game, [BOTS[name](rng) for name in seats])
        share = 1.0 / len(final.winners)
        shared += len(final.winners) > 1
        for name, result in zip(seats, final.players, strict=True):
            stats[name].scores.append(result.total)
            scores.append(result.total)
            if result.name in final.winners:
                stats[name].wins += share
        if progress is not None:
            progress(g + 1)
    return Simulation(players, games, side, seed, lineup, stats, scores, shared)
