"""The searches follow R16 and R17: wild cards and Book of Changes next to a Phoenix.

A copy of a Phoenix is a Beast and nothing else (Mirage cannot copy it at all), and Book of
Changes on the promo Phoenix replaces only its Beast. The enumerator, CP-SAT and the best-hand
search must reach exactly what trying every legal option with the evaluator reaches.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fantasy_scorer.realms import effects as fx
from fantasy_scorer.realms.catalog import base_catalog
from fantasy_scorer.realms.hand import Hand, change_options, copy_options
from fantasy_scorer.realms.resolve import score
from fantasy_scorer.realms.solve.api import best_hand, optimize
from fantasy_scorer.realms.solve.choices import optimal_choices
from fantasy_scorer.realms.solve.relevance import game_copy_targets, relevance

from .test_agreement import model_total
from .test_choices import brute_force

CAT = base_catalog()
DELUXE = base_catalog(edition="deluxe")

#: The wild cards and the Book, and cards that reward a card for being a Flame, a Weather or
#: a Beast (so that a copy with three suits would pay more than a Beast).
WILD = ["Shapeshifter", "Doppelgänger", "Mirage", "Book of Changes"]
COUNTERS = ["Fire Elemental", "Air Elemental", "Collector", "Beastmaster", "Forest",
            "Enchantress", "Great Flood", "Water Elemental", "Rainstorm", "Smoke", "Warhorse",
            "Unicorn", "Lightning", "Blizzard", "World Tree", "Island", "Wildfire"]


def cards(names, catalog=CAT):
    return [catalog.card(n) for n in names]


def phoenix_hands(seed: int, count: int, catalog=CAT):
    """Seeded hands of 7: the Phoenix, one or two of WILD, the rest mostly COUNTERS."""
    rng = random.Random(seed)
    phoenix = catalog.card("Phoenix")
    for _ in range(count):
        k = rng.choice([1, 1, 2])
        hand = [phoenix] + rng.sample(cards(WILD, catalog), k)
        rest = [c for c in cards(COUNTERS, catalog) if c not in hand]
        hand += rng.sample(rest, 7 - len(hand))
        rng.shuffle(hand)
        yield hand


@pytest.mark.parametrize("catalog", [CAT, DELUXE], ids=["promo", "deluxe"])
def test_R16_mirage_may_never_copy_a_phoenix(catalog) -> None:
    mirage, phoenix = catalog.card("Mirage"), catalog.card("Phoenix")
    assert phoenix not in copy_options([mirage, phoenix], catalog, mirage)
    assert phoenix not in catalog.copy_targets(mirage.choice)
    everything = relevance(catalog.suit_cards, catalog)  # every name and suit tells apart
    assert phoenix not in game_copy_targets(mirage.choice, catalog, everything)
    shapeshifter = catalog.card("Shapeshifter")
    assert phoenix in copy_options([shapeshifter], catalog, shapeshifter)


def test_R16_optimal_choices_agree_with_brute_force_next_to_the_promo_phoenix() -> None:
    for hand in phoenix_hands(16, 120):
        total, choices = optimal_choices(hand, CAT)
        assert total == brute_force(hand), [c.name for c in hand]
        assert choices.get(CAT.card("Mirage").id) is not CAT.card("Phoenix")


def test_R16_optimal_choices_agree_with_brute_force_next_to_the_deluxe_phoenix() -> None:
    for hand in phoenix_hands(7, 60, DELUXE):
        assert optimal_choices(hand, DELUXE)[0] == brute_force(hand, DELUXE), [
            c.name for c in hand]


def test_R16_the_worked_hand_left_open_is_never_below_its_pinned_choices() -> None:
    # Pinned as in the rules, the hand scores 109 (R16); open, the optimizer may do better
    # but must agree with trying every option.
    hand = cards(["Phoenix", "Shapeshifter", "Doppelgänger", "Fire Elemental", "Air Elemental",
                  "Collector", "Beastmaster"])
    phoenix = CAT.card("Phoenix")
    pinned = {CAT.card("Shapeshifter").id: phoenix, CAT.card("Doppelgänger").id: phoenix}
    assert score(Hand(CAT, tuple(hand), pinned)) == 109
    best = optimize(Hand(CAT, tuple(hand), {}))
    assert best.total == brute_force(hand) >= 109


@st.composite
def pinned_phoenix_hands(draw) -> Hand:
    """A hand with the promo Phoenix and wild cards, every choice pinned to a legal option
    (a copy of the Phoenix and Book of Changes on it as often as possible)."""
    wild = draw(st.lists(st.sampled_from(cards(WILD)), min_size=1, max_size=3, unique=True))
    hand = [CAT.card("Phoenix")] + wild
    rest = [c for c in cards(COUNTERS) if c not in hand]
    hand += draw(st.lists(st.sampled_from(rest), min_size=7 - len(hand),
                          max_size=7 - len(hand), unique=True))
    choices: dict = {}
    phoenix = CAT.card("Phoenix")
    for c in hand:
        if isinstance(c.choice, fx.Copy):
            options = copy_options(hand, CAT, c)
            likely = [phoenix] if phoenix in options else []
            choices[c.id] = draw(st.sampled_from(likely + options + [None]))
        elif isinstance(c.choice, fx.ChangeSuit):
            options = change_options(hand, CAT, c)
            likely = [o for o in options if o[0] is phoenix]
            choices[c.id] = draw(st.sampled_from(likely + options))
        elif isinstance(c.choice, fx.ClearOne):
            choices[c.id] = None
    return Hand(CAT, tuple(hand), choices)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pinned_phoenix_hands())
def test_R16_R17_the_cpsat_model_scores_copies_and_changes_of_the_phoenix_as_the_evaluator(
        hand: Hand) -> None:
    assert model_total(hand) == score(hand)


@pytest.mark.parametrize("seed", range(4))
def test_R16_R17_best_hand_by_cpsat_equals_enumeration_on_phoenix_pools(seed: int) -> None:
    rng = random.Random(seed)
    pool = [CAT.card("Phoenix")] + rng.sample(cards(WILD), 2) + rng.sample(cards(COUNTERS), 6)
    exhaustive = best_hand(pool, CAT, method="exhaustive")[0]
    cpsat = best_hand(pool, CAT, method="cpsat")[0]
    assert cpsat.total == exhaustive.total
    mirage = CAT.card("Mirage")
    for sol in (exhaustive, cpsat):
        assert sol.hand.choices.get(mirage.id) is not CAT.card("Phoenix")
