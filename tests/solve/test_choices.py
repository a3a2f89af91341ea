"""Optimal choices for a fixed hand: hand-checked expectations, pins, ties, Necromancer."""

from __future__ import annotations

from fantasy_scorer.errors import ScorerError
from fantasy_scorer.realms.catalog import base_catalog
from fantasy_scorer.realms.formats.handfile import read_hand
from fantasy_scorer.realms.hand import Hand
from fantasy_scorer.realms.resolve import resolve
from fantasy_scorer.realms.solve.api import optimize
from fantasy_scorer.realms.solve.choices import optimal_choices

CAT = base_catalog()


def hand(text: str) -> Hand:
    return read_hand(text.replace(";", "\n"), "test", CAT)


def made(sol, name: str):
    chooser = CAT.card(name)
    value = sol.hand.choices[chooser.id]
    if value is None:
        return None
    if isinstance(value, tuple):
        return (value[0].name, value[1])
    return value.name


def test_R11_water_elemental_and_doppelganger_copy_it_for_23() -> None:
    # Doppelgänger as Water Elemental is a Flood of strength 4: 4 + (4 + 15) = 23;
    # unassigned it is a Wild 0 and Water Elemental scores 4.
    sol = optimize(hand("Water Elemental; Doppelgänger"))
    assert sol.total == 23
    assert made(sol, "Doppelgänger") == "Water Elemental"
    assert sol.proven


def test_doppelganger_next_to_basilisk_copies_something_else() -> None:
    # As Basilisk: the two Basilisks cancel out (R8b) and Forest keeps only its 7.
    # As Forest: a Land of strength 7 (no bonus, R1) that Basilisk does not blank:
    # Basilisk 35 + Forest 7 + 12 for the Beast + Doppelgänger 7 = 61 (unassigned: 54).
    sol = optimize(hand("Basilisk; Doppelgänger; Forest"))
    assert made(sol, "Doppelgänger") == "Forest"
    assert sol.total == 35 + 19 + 7
    pinned = resolve(hand("Basilisk; Doppelgänger: Basilisk; Forest"))
    assert pinned.total == 7


def test_worked_examples_are_found_when_the_choice_is_open() -> None:
    assert optimize(hand("Mountain; Great Flood; Smoke; Whirlwind; Air Elemental; Wildfire; "
                         "Mirage")).total == 260
    sol = optimize(hand("Bell Tower; Candle; Queen; Sword of Keth; Shield of Keth; "
                        "Gem of Order; Book of Changes"))
    assert sol.total == 380
    assert made(sol, "Book of Changes")[1] == "Wizard"
    sol = optimize(hand("Island; Blizzard; Wildfire; Basilisk"))
    assert (sol.total, made(sol, "Island")) == (95, "Wildfire")


def test_pinned_choices_are_kept() -> None:
    sol = optimize(hand("Mountain; Great Flood; Smoke; Whirlwind; Air Elemental; Wildfire; "
                        "Mirage: Knights"))
    assert made(sol, "Mirage") == "Knights"
    assert sol.total == resolve(sol.hand).total


def test_none_is_a_pin_too() -> None:
    sol = optimize(hand("Water Elemental; Doppelgänger: none"))
    assert made(sol, "Doppelgänger") is None
    assert sol.total == 4


def test_unassigned_is_chosen_when_nothing_beats_it() -> None:
    # Every option scores 40 (Mirage adds 0 whatever it is); the first in canonical order
    # wins, the same one every time.
    first = optimize(hand("Wildfire; Mirage"))
    again = optimize(hand("Wildfire; Mirage"))
    assert first.hand.choices == again.hand.choices
    assert first.total == 40


def test_every_chooser_gets_a_value() -> None:
    sol = optimize(hand("Doppelgänger; Mirage; Shapeshifter; Book of Changes; Island; "
                        "Swamp; Wildfire"))
    for c in sol.hand.cards:
        if c.choice is not None:
            assert c.id in sol.hand.choices
    assert sol.total == resolve(sol.hand).total


def test_necromancer_takes_the_best_card_of_the_discard_area() -> None:
    h = hand("Necromancer; King; Knights; Light Cavalry; Dwarvish Infantry; Elven Archers; "
             "Rangers")
    without = optimize(h).total
    sol = optimize(h, discard=[CAT.card("Queen"), CAT.card("Basilisk")])
    assert [c.name for c in sol.hand.cards][-1] == "Queen"
    assert len(sol.hand.cards) == 8
    assert sol.total > without
    assert sol.total == resolve(sol.hand).total


def test_the_extra_card_is_only_taken_if_it_helps() -> None:
    h = hand("Necromancer; King; Queen; Knights; Light Cavalry; Dwarvish Infantry; Rangers")
    sol = optimize(h, discard=[CAT.card("Basilisk")])  # Basilisk would blank the Armies
    assert len(sol.hand.cards) == 7


def test_a_pinned_island_target_that_is_not_a_flood_or_flame_is_an_error() -> None:
    import pytest

    with pytest.raises(ScorerError):
        optimal_choices([CAT.card("Island"), CAT.card("Knights")], CAT,
                        {CAT.card("Island").id: CAT.card("Knights")})


def brute_force(cards, catalog=CAT) -> int:
    """The best total over every raw option of every choice (no collapsing at all)."""
    from itertools import product

    from fantasy_scorer.realms import effects as fx
    from fantasy_scorer.realms.hand import change_options, copy_options
    from fantasy_scorer.realms.resolve import score_raw

    choosers = [c for c in cards if c.choice is not None]
    options = []
    for c in choosers:
        if isinstance(c.choice, fx.Copy):
            options.append(copy_options(cards, catalog, c) + [None])
        elif isinstance(c.choice, fx.ChangeSuit):
            options.append(change_options(cards, catalog, c) + [None])
        else:
            options.append(list(cards) + [None])
    best = None
    for combo in product(*options):
        try:
            picked = {c.id: v for c, v in zip(choosers, combo, strict=True)}
            total = score_raw(cards, picked, catalog)
        except ScorerError:  # an Island target that is not a Flood/Flame after step 2
            continue
        best = total if best is None else max(best, total)
    return best


def test_collapsed_options_lose_nothing_against_brute_force() -> None:
    """Seeded random hands with one or two choosers: the collapsed enumeration finds the same
    optimum as trying every raw option."""
    import random

    rng = random.Random(3)
    choosers = [c for c in CAT.cards if c.choice is not None]
    plain = [c for c in CAT.cards if c.choice is None]
    lively = [CAT.card(n) for n in ("Wildfire", "Collector", "World Tree", "Whirlwind",
                                    "Rainstorm", "Great Flood", "Basilisk", "Smoke",
                                    "Forest", "Gem of Order", "Jester", "Warship",
                                    "Phoenix", "Rangers", "Swamp", "Blizzard", "Mountain")]
    for _ in range(300):
        k = rng.choice([1, 1, 2])
        source = lively if rng.random() < 0.6 else plain
        cards = rng.sample(choosers, k) + rng.sample(source, 7 - k)
        rng.shuffle(cards)
        assert optimal_choices(cards, CAT)[0] == brute_force(cards), [c.name for c in cards]
