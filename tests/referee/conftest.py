"""What the referee's tests share: hands from text, a CLI runner, random legal hands."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from hypothesis import assume
from hypothesis import strategies as st

from fantasy_scorer.errors import ScorerError
from fantasy_scorer.realms import effects as fx
from fantasy_scorer.realms.catalog import base_catalog
from fantasy_scorer.realms.formats.handfile import read_hand
from fantasy_scorer.realms.hand import BASE_HAND, Hand, change_options, copy_options
from fantasy_scorer.realms.resolve import Result, resolve, run

CAT = base_catalog()


def hand_of(*lines: str) -> Hand:
    """A hand from hand-file lines: ``hand_of("Mountain", "Mirage: Rainstorm")``."""
    return read_hand("\n".join(lines), "test", CAT)


def result_of(*lines: str) -> Result:
    return resolve(hand_of(*lines))


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@st.composite
def legal_hands(draw: st.DrawFn) -> Hand:
    """A random legal hand of 1-7 cards (8 with Necromancer), each choice open, none or made."""
    cards = draw(st.lists(st.sampled_from(CAT.cards), min_size=1, max_size=BASE_HAND,
                          unique_by=lambda c: c.id))
    givers = [c for c in cards if c.extra is not None]
    if givers and len(cards) == BASE_HAND and draw(st.booleans()):
        extra = [c for c in CAT.cards if c not in cards and c.suits & givers[0].extra.suits]
        cards.append(draw(st.sampled_from(extra)))
    choices: dict = {}
    for c in cards:
        eff = c.choice
        if eff is None:
            continue
        mode = draw(st.sampled_from(["open", "none", "made", "made"]))
        if mode == "none":
            choices[c.id] = None
        elif mode == "made":
            if isinstance(eff, fx.Copy):
                options = copy_options(cards, CAT, c)
            elif isinstance(eff, fx.ChangeSuit):
                options = change_options(cards, CAT, c)
            else:
                options = list(cards)
            if options:
                choices[c.id] = draw(st.sampled_from(options))
    try:
        hand = Hand(CAT, tuple(cards), choices)
        run(hand.cards, hand.choices, CAT)  # Island's target must be a Flood or Flame (R4)
    except ScorerError:
        assume(False)
    return hand
