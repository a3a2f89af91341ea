"""Hypothesis strategies: random legal hands of the base game with random choices."""

from __future__ import annotations

from hypothesis import strategies as st

from fantasy_scorer import effects as fx
from fantasy_scorer.catalog import base_catalog
from fantasy_scorer.errors import ScorerError
from fantasy_scorer.hand import Hand, change_options, copy_options
from fantasy_scorer.resolve import run

CAT = base_catalog()


@st.composite
def hands(draw, min_size: int = 1, max_size: int = 7) -> Hand:
    """A legal hand (8 cards when it holds Necromancer and the draw says so)."""
    cards = draw(st.lists(st.sampled_from(CAT.cards), min_size=min_size, max_size=max_size,
                          unique_by=lambda c: c.id))
    giver = next((c for c in cards if c.extra is not None), None)
    if giver is not None and len(cards) == 7 and draw(st.booleans()):
        pool = [c for c in CAT.cards if c not in cards and c.suits & giver.extra.suits]
        cards.append(draw(st.sampled_from(pool)))
    choices: dict = {}
    for c in cards:
        eff = c.choice
        if isinstance(eff, fx.Copy):
            options = copy_options(cards, CAT, c)
            choices[c.id] = draw(st.none() | st.sampled_from(options)) if options else None
        elif isinstance(eff, fx.ChangeSuit) and len(cards) > 1:
            choices[c.id] = draw(st.none() | st.sampled_from(change_options(cards, CAT, c)))
        elif isinstance(eff, fx.ClearOne):
            choices[c.id] = draw(st.none() | st.sampled_from(cards))
    hand = Hand(CAT, tuple(cards), choices)
    try:
        run(hand.cards, hand.choices, CAT)
    except ScorerError:  # an Island target that is not a Flood/Flame after step 2
        choices = {k: v for k, v in choices.items() if not isinstance(
            next(c for c in cards if c.id == k).choice, fx.ClearOne)}
        hand = Hand(CAT, tuple(cards), choices)
    return hand
