"""Proof of agreement between the searches and the evaluator (hypothesis properties).

* For random hands and choices, the CP-SAT model's objective equals the evaluator's score.
* For random pools of 8–11 cards, the CP-SAT optimum equals exhaustive enumeration.
* The optimal-choice score is never below any hand-picked choice.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fantasy_scorer.realms import effects as fx
from fantasy_scorer.realms.catalog import base_catalog
from fantasy_scorer.realms.hand import Hand, change_options, copy_options
from fantasy_scorer.realms.resolve import resolve, score
from fantasy_scorer.realms.solve.api import best_hand, optimize
from fantasy_scorer.realms.solve.cpsat import HandModel, objective_of

from ..strategies import hands

CAT = base_catalog()


def quick(n: int) -> settings:
    return settings(max_examples=n, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: Cards that make the rules interact: choices, blanking, clearing, counting.
LIVELY = [CAT.card(n) for n in (
    "Doppelgänger", "Mirage", "Shapeshifter", "Book of Changes", "Island", "Basilisk",
    "Wildfire", "Great Flood", "Rainstorm", "Blizzard", "Smoke", "Warship", "War Dirigible",
    "Phoenix", "Rangers", "Protection Rune", "Mountain", "Collector", "Gem of Order",
    "World Tree", "Jester", "Necromancer", "Swamp", "Knights", "Beastmaster", "Warlord",
)]


def model_total(hand: Hand) -> int | None:
    """The CP-SAT objective with every card held and every choice pinned as in ``hand``."""
    pinned = {c.id: hand.choices.get(c.id) for c in hand.cards if c.choice is not None}
    extra: list = []
    if len(hand.cards) > CAT.hand_size:  # the extra card: any card a giver may take (R13)
        givers = [g for g in hand.cards if g.extra is not None]
        extra = [next(c for c in reversed(hand.cards)
                      if any(c is not g and c.suits & g.extra.suits for g in givers))]
    base = [c for c in hand.cards if c not in extra]
    model = HandModel(CAT, base, extra, pinned, required=hand.cards, hand_size=len(base))
    return objective_of(model)


@st.composite
def lively_hands(draw) -> Hand:
    """Seven cards, most of them from LIVELY, with random legal choices."""
    k = draw(st.integers(3, 7))
    cards = draw(st.lists(st.sampled_from(LIVELY), min_size=k, max_size=k,
                          unique_by=lambda c: c.id))
    rest = [c for c in CAT.cards if c not in cards]
    cards += draw(st.lists(st.sampled_from(rest), min_size=7 - k, max_size=7 - k,
                           unique_by=lambda c: c.id))
    choices: dict = {}
    for c in cards:
        if isinstance(c.choice, fx.Copy):
            choices[c.id] = draw(st.none() | st.sampled_from(copy_options(cards, CAT, c)))
        elif isinstance(c.choice, fx.ChangeSuit):
            choices[c.id] = draw(st.none() | st.sampled_from(change_options(cards, CAT, c)))
        elif isinstance(c.choice, fx.ClearOne):
            choices[c.id] = draw(st.none() | st.sampled_from(cards))
    h = Hand(CAT, tuple(cards), choices)
    try:
        score(h)
    except Exception:  # an Island target that is not a Flood/Flame after step 2 (R4)
        choices = {k: (None if isinstance(CAT.by_id[k].choice, fx.ClearOne) else v)
                   for k, v in choices.items()}
        h = Hand(CAT, tuple(cards), choices)
    return h


@quick(120)
@given(hands(min_size=7))
def test_model_objective_equals_the_evaluator_on_random_hands(hand: Hand) -> None:
    pinned = {c.id: hand.choices.get(c.id) for c in hand.cards if c.choice is not None}
    fixed = Hand(CAT, hand.cards, pinned)
    assert model_total(fixed) == score(fixed)


@quick(300)
@given(lively_hands())
def test_model_objective_equals_the_evaluator_on_lively_hands(hand: Hand) -> None:
    pinned = {c.id: hand.choices.get(c.id) for c in hand.cards if c.choice is not None}
    fixed = Hand(CAT, hand.cards, pinned)
    assert model_total(fixed) == score(fixed)


@quick(40)
@given(st.lists(st.sampled_from(CAT.cards), min_size=8, max_size=11, unique_by=lambda c: c.id),
       st.lists(st.sampled_from(CAT.cards), max_size=3, unique_by=lambda c: c.id))
def test_cpsat_optimum_equals_exhaustive_enumeration(pool, discard) -> None:
    discard = [c for c in discard if c not in pool]
    exhaustive = best_hand(pool, CAT, discard, method="exhaustive")[0]
    cpsat = best_hand(pool, CAT, discard, method="cpsat")[0]
    assert cpsat.proven and exhaustive.proven
    assert cpsat.total == exhaustive.total
    assert [c.id for c in cpsat.hand.cards] == [c.id for c in exhaustive.hand.cards]


@quick(150)
@given(hands())
def test_optimal_choices_are_never_below_hand_picked_ones(hand: Hand) -> None:
    open_hand = Hand(CAT, hand.cards, {})
    assert optimize(open_hand).total >= resolve(hand).total


@quick(15)
@given(st.lists(st.sampled_from(LIVELY), min_size=9, max_size=10, unique_by=lambda c: c.id),
       st.randoms(use_true_random=False))
def test_cpsat_and_enumeration_agree_with_pinned_choices(pool, rnd) -> None:
    pinned: dict = {}
    for c in pool:
        if isinstance(c.choice, fx.Copy) and c.choice.source == "game" and rnd.random() < 0.5:
            pinned[c.id] = rnd.choice(CAT.copy_targets(c.choice))
        elif isinstance(c.choice, fx.ChangeSuit) and rnd.random() < 0.5:
            pinned[c.id] = (rnd.choice([t for t in pool if t is not c]), rnd.choice(CAT.suits))
    exhaustive = best_hand(pool, CAT, pinned=pinned, method="exhaustive")[0]
    cpsat = best_hand(pool, CAT, pinned=pinned, method="cpsat")[0]
    assert cpsat.total == exhaustive.total
    assert [c.id for c in cpsat.hand.cards] == [c.id for c in exhaustive.hand.cards]
