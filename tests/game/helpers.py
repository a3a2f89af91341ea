"""Small builders for the game tests: cards by name, scripted bots, a game in a chosen state."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from fantasy_scorer.realms.catalog import base_catalog
from fantasy_scorer.realms.game.advice import Advice, Situation
from fantasy_scorer.realms.game.engine import Game

CAT = base_catalog()
PLAIN = [c for c in CAT.suit_cards if c.extra is None]  # no card reads the discard area


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


@st.composite
def mid_game(draw) -> Situation:
    """A situation of the middle of a game: 7 or 8 cards in hand, up to 9 in the discard
    area, up to 2 cards known to be in the next player's hand and one elsewhere."""
    players = draw(st.integers(2, 6))
    rng = random.Random(draw(st.integers(0, 10**9)))
    size = 7 + draw(st.integers(0, 1))
    area = draw(st.integers(0, 9))
    pool = rng.sample(CAT.suit_cards, size + area + 3)
    return Situation(CAT, players, tuple(pool[:size]), tuple(pool[size:size + area]),
                     next_holds=tuple(pool[size + area:size + area + draw(st.integers(0, 2))]),
                     elsewhere=tuple(pool[-1:]))


def assert_legal(advice: Advice, sit: Situation) -> None:
    """Every option of the advice is a move the rules allow in ``sit``, and the recommended
    one is among them."""
    for o in advice.options:
        if sit.phase == "discard":
            assert not o.deck and o.take is None and o.discard in sit.hand
        elif o.deck:
            assert sit.deck > 0 and o.take is None and o.discard is None
        else:
            assert o.take in sit.area and o.discard in sit.hand and o.discard is not o.take
    assert advice.recommended in advice.options


@st.composite
def last_turn(draw):
    """8 cards after the draw and a discard area of 9: the discard ends the game."""
    players = draw(st.integers(2, 6))
    rng = random.Random(draw(st.integers(0, 10**9)))
    pool = rng.sample(PLAIN, 17)
    return Situation(CAT, players, tuple(pool[:8]), tuple(pool[8:]))
