"""Who wins: the highest total; equal totals go to the lower total base strength (the printed
strengths of the hand); still equal, the place is shared. Used by a table and by the game engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .resolve import Result


@dataclass(frozen=True)
class Standing:
    """One player's place: ``rank`` 1 is the winner; ``shared`` when tied on both criteria."""

    rank: int
    player: str
    result: Result
    total: int
    base_strength: int
    tie_on_total: bool
    shared: bool

    @property
    def note(self) -> str:
        if self.shared:
            return "shared: same total and base strength"
        if self.tie_on_total:
            return "tie on total: base strength decides"
        return ""


def rank(results: Sequence[tuple[str, Result]]) -> list[Standing]:
    """Places by total (highest first), then by base strength (lowest first); ties shared.

    Knights alone score 20 - 8 (no Leader) = 12, Hydra alone 12 (no Swamp): the same total,
    and Hydra's printed strength, 12, is lower than Knights' 20::

        >>> import fantasy_scorer as fs
        >>> table = [("Ann", fs.score(["Knights"])), ("Bob", fs.score(["Hydra"]))]
        >>> [(s.rank, s.player, s.total, s.base_strength, s.note) for s in rank(table)]
        [(1, 'Bob', 12, 12, 'tie on total: base strength decides'),
         (2, 'Ann', 12, 20, 'tie on total: base strength decides')]
    """
    keyed = [(-r.total, r.base_strength, player, r) for player, r in results]
    keyed.sort(key=lambda k: (k[0], k[1]))
    out = []
    for neg_total, base, player, result in keyed:
        better = sum(1 for t, b, _, _ in keyed if (t, b) < (neg_total, base))
        same_total = sum(1 for t, _, _, _ in keyed if t == neg_total) > 1
        shared = sum(1 for t, b, _, _ in keyed if (t, b) == (neg_total, base)) > 1
        out.append(Standing(better + 1, player, result, -neg_total, base, same_total, shared))
    return out


def winners(standings: Sequence[Standing]) -> list[Standing]:
    return [s for s in standings if s.rank == 1]
