"""Building engine positions by hand for the ability tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from fantasy_scorer.majesty.cards import HALVES, IN_BOX, card_index
from fantasy_scorer.majesty.engine import Game, Move
from fantasy_scorer.majesty.names import character_index, location_index


def box_rest(used: Sequence[int]) -> list[int]:
    """Every card of the box not in `used` (to fill a deck legally)."""
    left = list(IN_BOX)
    for card in used:
        left[card] -= 1
    return [card for card, n in enumerate(left) for _ in range(n)]


def make_game(
    display: Sequence[str] = ("Miller",) * 6,
    realms: Mapping[str, Mapping[str, Sequence[str]]] | None = None,
    side: str = "A",
    players: Sequence[str] = ("Ann", "Bob"),
    meeples: Mapping[str, int] | None = None,
    points: Mapping[str, int] | None = None,
    everyone_self: bool = True,
) -> Game:
    """A game whose display starts with `display` and whose realms are set directly.

    `realms` maps a player to {location: [card names, oldest first]}. The first player moves.
    """
    shown = [card_index(c) for c in display]
    game = Game(players, side, shown + box_rest(shown), everyone_self)
    for name, realm in (realms or {}).items():
        p = game.names.index(name)
        for loc, cards in realm.items():
            game.stacks[p][location_index(loc)] = [card_index(c) for c in cards]
    for name, m in (meeples or {}).items():
        game.meeples[game.names.index(name)] = m
    for name, pts in (points or {}).items():
        game.points[game.names.index(name)] = pts
    return game


def move(game: Game, take: int, half: str | None = None, heal: str | None = None,
         trade: int = 0) -> Move:
    """A move by names; a single card's location is implied."""
    place = character_index(half) if half else HALVES[game.display[take]][0]
    return Move(take, place, trade, -1 if heal is None else character_index(heal))


def names_at(game: Game, player: str, loc: str) -> list[str]:
    from fantasy_scorer.majesty.cards import card_name

    return [card_name(c) for c in game.stacks[game.names.index(player)][location_index(loc)]]
