"""Final scoring: Infirmary, variety, majorities, winners.

It works on realms given as counts per location (eight ints, index 7 = Infirmary), which is
all the final scoring needs; the command line and the engine both call `score`, so a game
played in the engine and the same realms typed into a file score identically.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .names import ENGLISH, location_name
from .rules import INFIRMARY, LOCATIONS, REALM, infirmary_for, locations_for


@dataclass(frozen=True)
class PlayerScore:
    """One player's final scoring; `total` includes the points collected during play.

    `infirmary` is the whole Infirmary penalty: `infirmary_cards` (so much per card) plus
    `infirmary_most` (side B: the extra for the most cards, else 0). `shared` names, for each
    majority this player shares, the other players who gain it too.
    """

    name: str
    points: int
    infirmary: int
    variety: int
    majorities: dict[str, int] = field(default_factory=dict)
    total: int = 0
    meeples: int | None = None
    infirmary_cards: int = 0
    infirmary_most: int = 0
    shared: dict[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class FinalScore:
    side: str
    players: tuple[PlayerScore, ...]
    winners: tuple[str, ...]

    def to_json(self, lang: str = ENGLISH) -> dict[str, object]:
        """The documented ``--json`` shape (location names in `lang`)."""

        def where(loc: str) -> str:
            return location_name(LOCATIONS.index(loc), lang)

        players = [
            {
                "name": p.name,
                "points": p.points,
                "infirmary": p.infirmary,
                "infirmary_cards": p.infirmary_cards,
                "infirmary_most": p.infirmary_most,
                "variety": p.variety,
                "majorities": {where(loc): v for loc, v in p.majorities.items()},
                "shared": {where(loc): list(who) for loc, who in p.shared.items()},
                "total": p.total,
            }
            for p in self.players
        ]
        return {"players": players, "winners": list(self.winners)}


def infirmary_parts(side: str, infirmary_counts: Sequence[int]) -> list[tuple[int, int]]:
    """Per player: (-per_card x cards, side B's extra for the most cards; ties all pay, and
    only if that most is at least 1)."""
    rule = infirmary_for(side)
    most = max(infirmary_counts)
    return [
        (-rule.per_card * n, -rule.most if most >= 1 and n == most else 0)
        for n in infirmary_counts
    ]


def infirmary_penalties(side: str, infirmary_counts: Sequence[int]) -> list[int]:
    """Per player: the whole Infirmary penalty (both parts of `infirmary_parts`)."""
    return [cards + most for cards, most in infirmary_parts(side, infirmary_counts)]


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
    parts = infirmary_parts(side, [r[INFIRMARY] for r in realms])
    majorities: list[dict[str, int]] = [{} for _ in realms]
    shared: list[dict[str, tuple[str, ...]]] = [{} for _ in realms]
    for loc in REALM:
        best = max(r[loc] for r in realms)
        if best >= 1:
            holders = [i for i, r in enumerate(realms) if r[loc] == best]
            for i in holders:
                majorities[i][LOCATIONS[loc]] = locations[loc].value
                if len(holders) > 1:
                    shared[i][LOCATIONS[loc]] = tuple(names[j] for j in holders if j != i)
    players = []
    for i, r in enumerate(realms):
        v = sum(1 for loc in REALM if r[loc] >= 1)
        cards, most = parts[i]
        total = points[i] + cards + most + v * v + sum(majorities[i].values())
        players.append(
            PlayerScore(
                name=names[i],
                points=points[i],
                infirmary=cards + most,
                variety=v * v,
                majorities=majorities[i],
                total=total,
                meeples=None if meeples is None else meeples[i],
                infirmary_cards=cards,
                infirmary_most=most,
                shared=shared[i],
            )
        )
    top = max(p.total for p in players)
    tied = [p for p in players if p.total == top]
    if meeple_tiebreak and len(tied) > 1:
        most = max(p.meeples or 0 for p in tied)
        tied = [p for p in tied if (p.meeples or 0) == most]
    return FinalScore(side, tuple(players), tuple(p.name for p in tied))
