"""Final scoring: Infirmary, variety, majorities, winners.

It works on realms given as counts per location (eight ints, index 7 = Infirmary), which is
all the final scoring needs; the command line and the engine both call `score`, so a game
played in the engine and the same realms typed into a file score identically.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .rules import INFIRMARY, LOCATIONS, REALM, infirmary_for, locations_for


@dataclass(frozen=True)
class PlayerScore:
    """One player's final scoring; `total` includes the points collected during play."""

    name: str
    points: int
    infirmary: int
    variety: int
    majorities: dict[str, int] = field(default_factory=dict)
    total: int = 0
    meeples: int | None = None


@dataclass(frozen=True)
class FinalScore:
    side: str
    players: tuple[PlayerScore, ...]
    winners: tuple[str, ...]

    def to_json(self) -> dict[str, object]:
        """The documented ``--json`` shape, exactly."""
        return {
            "players": [
                {
                    "name": p.name,
                    "infirmary": p.infirmary,
                    "variety": p.variety,
                    "majorities": dict(p.majorities),
                    "total": p.total,
                }
                for p in self.players
            ],
            "winners": list(self.winners),
        }


def infirmary_penalties(side: str, infirmary_counts: Sequence[int]) -> list[int]:
    """Per player: -per_card x cards, and side B's extra for the most cards (ties all pay)."""
    rule = infirmary_for(side)
    most = max(infirmary_counts)
    return [
        -rule.per_card * n - (rule.most if most >= 1 and n == most else 0)
        for n in infirmary_counts
    ]


def score(
    side: str,
    names: Sequence[str],
    points: Sequence[int],
    realms: Sequence[Sequence[int]],
    meeples: Sequence[int] | None = None,
    meeple_tiebreak: bool = False,
) -> FinalScore:
    """Score realms (counts at locations 1-8) for an eight-letter side string.

    With `meeple_tiebreak` (a variant) leftover meeples decide between tied totals.
    """
    if meeple_tiebreak and meeples is None:
        raise ValueError("the meeple tie-break needs every player's leftover meeples")
    locations = locations_for(side)
    penalties = infirmary_penalties(side, [r[INFIRMARY] for r in realms])
    majorities: list[dict[str, int]] = [{} for _ in realms]
    for loc in REALM:
        best = max(r[loc] for r in realms)
        if best >= 1:
            for i, r in enumerate(realms):
                if r[loc] == best:
                    majorities[i][LOCATIONS[loc]] = locations[loc].value
    players = []
    for i, r in enumerate(realms):
        v = sum(1 for loc in REALM if r[loc] >= 1)
        total = points[i] + penalties[i] + v * v + sum(majorities[i].values())
        players.append(
            PlayerScore(
                name=names[i],
                points=points[i],
                infirmary=penalties[i],
                variety=v * v,
                majorities=majorities[i],
                total=total,
                meeples=None if meeples is None else meeples[i],
            )
        )
    top = max(p.total for p in players)
    tied = [p for p in players if p.total == top]
    if meeple_tiebreak and len(tied) > 1:
        most = max(p.meeples or 0 for p in tied)
        tied = [p for p in tied if (p.meeples or 0) == most]
    return FinalScore(side, tuple(players), tuple(p.name for p in tied))
