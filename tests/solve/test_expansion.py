"""The optimizer on Cursed Hoards hands (issue 5): Angel's protected card is a choice it
makes, and its answers agree with brute force over every raw option."""

from __future__ import annotations

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fantasy_scorer.errors import ScorerError
from fantasy_scorer.realms import effects as fx
from fantasy_scorer.realms.formats.handfile import load_hand
from fantasy_scorer.realms.hand import Hand, change_options, copy_options, protect_options
from fantasy_scorer.realms.resolve import score, score_raw
from fantasy_scorer.realms.solve.api import best_hand, optimize

from ..strategies import EXP, hands


def raw_options(hand: Hand, chooser) -> list:
    """Every option of a choice, unmerged, plus leaving it unassigned."""
    eff = chooser.choice
    cards = list(hand.cards)
    if isinstance(eff, fx.Copy):
        opts: list = copy_options(cards, EXP, chooser)
    elif isinstance(eff, fx.ChangeSuit):
        opts = change_options(cards, EXP, chooser)
    elif isinstance(eff, fx.Protect):
        opts = protect_options(cards, chooser)
    else:
        opts = cards
    return [None, *opts]


def brute_force(hand: Hand) -> int:
    choosers = [c for c in hand.cards if c.choice is not None]
    best = None
    for combo in itertools.product(*(raw_options(hand, c) for c in choosers)):
        choices = {c.id: v for c, v in zip(choosers, combo, strict=True)}
        try:
            total = score_raw(hand.cards, choices, EXP, hand.context, hand.cursed)
        except ScorerError:  # Island on a card that is no Flood or Flame after step 2
            continue
        best = total if best is None else max(best, total)
    assert best is not None
    return best


def test_angel_protection_is_chosen_optimally() -> None:
    # Demon would blank the lonely Basilisk; protected, Basilisk blanks King and Queen:
    # Angel 16 + Basilisk 35 + Demon 45 = 96 (protecting King instead: 16 + 8 + 6 + 45 = 75).
    hand = load_hand("expansion: cursed-hoards\nAngel\nKing\nBasilisk\nDemon\nQueen\n", "t")
    sol = optimize(hand)
    assert sol.result.total == 96
    assert sol.hand.choices[EXP.card("Angel").id] is EXP.card("Basilisk")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands(EXP, max_size=6).filter(
    lambda h: sum(c.choice is not None for c in h.cards) <= 2
    and not any(isinstance(c.choice, fx.ChangeSuit) or c.extra for c in h.cards)))
def test_optimal_choices_equal_brute_force_on_expansion_hands(hand: Hand) -> None:
    open_hand = Hand(EXP, hand.cards, {}, hand.discard, hand.players, hand.cursed)
    sol = optimize(open_hand)
    assert sol.result.total == brute_force(open_hand)
    assert sol.result.total >= score(hand)  # never below the hand-picked choices


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from([c for c in EXP.suit_cards
                                 if c.extra is None and "discard" not in c.needs]),
                min_size=9, max_size=9, unique_by=lambda c: c.id), st.integers(2, 6))
def test_best_of_nine_equals_enumeration_on_expansion_pools(pool, players) -> None:
    best = best_hand(pool, EXP, players=players)[0]
    expected = max(
        optimize(Hand(EXP, tuple(keep), {}, None, players)).result.total
        for keep in itertools.combinations(pool, 8)
    )
    assert best.result.total == expected
