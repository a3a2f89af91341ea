"""Small builders for the game tests: cards by name, scripted bots, a game in a chosen state."""

from __future__ import annotations

from fantasy_scorer.realms.catalog import base_catalog
from fantasy_scorer.realms.game.engine import Game

CAT = base_catalog()


def cards(text: str) -> list:
    """Cards of the base game named in a comma-separated list."""
    return [CAT.card(n.strip()) for n in text.split(",") if n.strip()]


class Scripted:
    """A bot that always draws from the deck (or takes the cards it is told to, in turn) and
    discards the card it drew, unless told which card to discard."""

    name = "scripted"

    def __init__(self, takes=(), discards=()) -> None:
        self.takes = list(takes)
        self.discards = list(discards)

    def choose_draw(self, view):
        return self.takes.pop(0) if self.takes else None

    def choose_discard(self, view):
        return self.discards.pop(0) if self.discards else view.drawn


def game_in_state(hands: list[list], area: list, deck: list, current: int = 0) -> Game:
    """A game of ``len(hands)`` players in exactly this state (the deck's top card last)."""
    return Game(CAT, len(hands), None, list(deck), [list(h) for h in hands], list(area),
                current=current)
