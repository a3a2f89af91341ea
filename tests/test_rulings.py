"""One test (or more) per ruling R1–R17 (docs/rulings.md); expected totals worked by hand."""

import pytest

from fantasy_scorer.errors import ScorerError
from fantasy_scorer.realms.formats.handfile import load_hand
from fantasy_scorer.realms.resolve import resolve

from .conftest import line, scored, total


def test_R1_doppelganger_copies_the_printed_suit_even_if_book_changes_the_card() -> None:
    # Swamp becomes an Army; the Doppelgänger copied it first, as a printed Flood with its
    # penalty. Swamp: 18 - 3 (itself, now an Army); Doppelgänger as Swamp: 18 - 3 (Swamp);
    # Water Elemental: 4 + 15 (the Doppelgänger is still a Flood); Book 3.
    result = scored(
        "Water Elemental; Swamp; Doppelgänger: Swamp; Book of Changes: Swamp -> Army"
    )
    assert line(result, "Doppelgänger").suit == "Flood"
    assert line(result, "Swamp").suit == "Army"
    assert result.total == 15 + 15 + 19 + 3


def test_R1_two_basilisks_blank_each_other() -> None:
    result = scored("Basilisk; Doppelgänger: Basilisk")
    assert result.total == 0
    assert all(ln.blanked for ln in result.lines)


def test_R2_mirage_counts_as_the_copied_name_and_suit() -> None:
    # Whirlwind 13 + 40 (Rainstorm via Mirage, Blizzard); Blizzard 30 (no Army/Leader/Beast/Flame);
    # Air Elemental 4 + 15 x 3 (Whirlwind, Blizzard, Mirage); Mirage 0.
    assert total("Whirlwind; Blizzard; Mirage: Rainstorm; Air Elemental") == 53 + 30 + 49 + 0


def test_R2_copy_has_no_effects() -> None:
    # A Shapeshifter as Basilisk blanks nothing: Knights 20 - 8 = 12.
    assert total("Shapeshifter: Basilisk; Knights") == 12


def test_R2_unassigned_wild_card_is_wild_with_strength_zero() -> None:
    result = scored("Mirage; Air Elemental")
    assert line(result, "Mirage").suit == "Wild"
    assert result.total == 4


def test_R3_book_may_not_target_itself() -> None:
    with pytest.raises(ScorerError, match="R3"):
        scored("Book of Changes: Book of Changes -> Army; Knights")


def test_R3_changed_card_counts_itself_under_its_new_suit() -> None:
    # Swamp turned into a Flame: 18 - 3 (itself) = 15; Book 3.
    assert total("Swamp; Book of Changes: Swamp -> Flame") == 18


def test_R3_new_suit_may_be_wild() -> None:
    # Knights become Wild, which Wildfire spares: Knights 12, Wildfire 40, Book 3.
    assert total("Wildfire; Knights; Book of Changes: Knights -> Wild") == 55
    # Without the change Wildfire blanks the Knights.
    assert total("Wildfire; Knights; Book of Changes") == 43


def test_R4_island_targets_a_flood_or_flame_after_book_of_changes() -> None:
    # Knights made a Flame by the Book, then cleared by Island: 20 + 14 + 3.
    assert total("Island: Knights; Knights; Book of Changes: Knights -> Flame") == 37


def test_R4_island_on_a_card_that_is_not_flood_or_flame_is_an_error() -> None:
    with pytest.raises(ScorerError, match="R4"):
        scored("Island: Knights; Knights")


def test_R5_blanked_island_still_clears() -> None:
    assert total("Island: Wildfire; Blizzard; Wildfire; Basilisk") == 95


def test_R5_cleared_blanker_blanks_nothing() -> None:
    # Protection Rune clears Great Flood and Knights: 32 + 20 + 1.
    assert total("Protection Rune; Great Flood; Knights") == 53


def test_R5_clearing_does_not_protect_from_being_blanked() -> None:
    # Island clears Swamp's penalty, but Blizzard still blanks Swamp (and Island): 30.
    result = scored("Island: Swamp; Swamp; Blizzard")
    assert result.total == 30
    assert line(result, "Swamp").blanked and line(result, "Swamp").cleared


def test_R5_blanked_rangers_still_clear_the_word_army() -> None:
    # Wildfire blanks Rangers; Mountain (an Army by the Book, spared by name) no longer counts
    # for Blizzard: Blizzard 30 - 5 (Wildfire) = 25, Mountain 9, Book 3, Wildfire 40.
    result = scored(
        "Rangers; Wildfire; Blizzard; Mountain; Book of Changes: Mountain -> Army"
    )
    assert line(result, "Rangers").blanked
    assert result.total == 77


def test_R6_dwarvish_infantry_penalty_vanishes() -> None:
    # DI 15; Knights 20 - 8; Rangers 5 (no Land).
    assert total("Rangers; Dwarvish Infantry; Knights") == 32


def test_R6_basilisk_and_great_flood_stop_blanking_armies() -> None:
    assert total("Rangers; Basilisk") == 35 + 5
    assert total("Rangers; Great Flood; Knights") == 5 + 32 + 12


def test_R6_war_dirigible_unless_army_clause_vanishes() -> None:
    # Wildfire blanks Rangers, the only Army, but Rangers removed the "unless with an Army".
    assert total("Rangers; War Dirigible; Wildfire") == 35 + 40
    assert total("Knights; War Dirigible; Wildfire") == 40  # no Rangers: no Army left


def test_R6_warship_clears_army_only_from_floods() -> None:
    # Swamp (a Flood) loses its Army part: 18. Dwarvish Infantry (not a Flood) keeps
    # -2 per other Army: 13. Knights 12. Warship 23 (a Flood is in hand).
    assert total("Warship; Swamp; Dwarvish Infantry; Knights") == 18 + 13 + 12 + 23


def test_R7_blanked_card_counts_for_nothing() -> None:
    # Great Flood blanks Knights, so King has no Army to count: 8 + 32.
    assert total("King; Knights; Great Flood") == 40


def test_R8_chain_resolves_from_the_unblanked_card() -> None:
    result = scored("Blizzard; Great Flood; Wildfire")
    assert line(result, "Great Flood").blanked
    assert not line(result, "Wildfire").blanked
    assert result.total == 65


def test_R8_card_that_blanks_itself_is_blanked() -> None:
    # Wildfire turned into a Leader blanks itself; the Book (an Artifact) stays.
    result = scored("Wildfire; Book of Changes: Wildfire -> Leader")
    assert line(result, "Wildfire").blanked
    assert result.total == 3


def test_R8_card_reached_only_from_a_loop_is_kept() -> None:
    # The two Basilisks cancel out; Knights, attacked only by them, are kept: 20 - 8.
    assert total("Basilisk; Doppelgänger: Basilisk; Knights") == 12


def test_R8_self_conditions_look_only_at_kept_cards() -> None:
    # Smoke has no Flame and is blanked; War Dirigible then sees no Weather and is kept.
    assert total("Knights; War Dirigible; Smoke") == 47


def test_R9_with_pays_once() -> None:
    # Magic Wand with two Wizards: +25 once. Collector 7, Beastmaster 9.
    assert total("Magic Wand; Collector; Beastmaster") == 26 + 7 + 9


def test_R9_or_pays_the_larger() -> None:
    # King and Queen: +20 per Army each; Knights have a Leader.
    assert total("King; Queen; Knights") == 28 + 26 + 20


def test_R10_gem_of_order_two_runs_of_three() -> None:
    # Strengths 4,4,5,5,6,6: two runs of 3 = +20. Gem 25, Rangers 5 + 10 (Cavern) = 15,
    # Shield 4 + 15 = 19, Warlord 4 + 5 = 9, Cavern 6, Queen 6 + 5 = 11.
    assert total("Gem of Order; Rangers; Shield of Keth; Warlord; Cavern; Queen") == 85


def test_R10_collector_several_suits_pay() -> None:
    # Lands: Mountain, Cavern, Forest (+10); Floods: Swamp, Island, Water Elemental (+10).
    # Collector 27, Mountain 9, Cavern 6, Forest 7, Swamp 18 (cleared by Mountain),
    # Island 14, Water Elemental 4 + 30.
    assert total(
        "Collector; Mountain; Cavern; Forest; Swamp; Island; Water Elemental"
    ) == 27 + 9 + 6 + 7 + 18 + 14 + 34


def test_R10_collector_copy_adds_no_name() -> None:
    assert total("Collector; Mountain; Cavern; Mirage: Mountain") == 7 + 9 + 6


def test_R11_elemental_counts_copies() -> None:
    assert total("Water Elemental; Doppelgänger: Water Elemental") == 23


def test_R12_jester_all_odd() -> None:
    # Jester 3 + 50; Lightning 11; Magic Wand 1 + 25 (Jester is a Wizard).
    assert total("Jester; Lightning; Magic Wand") == 53 + 11 + 26


def test_R12_jester_fails_with_a_blanked_card() -> None:
    # Smoke (27, odd) is blanked for want of a Flame: Jester gets 3 x 2 (Wand, Basilisk).
    assert total("Jester; Magic Wand; Smoke; Basilisk") == 9 + 26 + 35


def test_R13_extra_card_stays_when_necromancer_is_blanked() -> None:
    # Necromancer becomes an Army and Great Flood blanks it; the hand still holds 8 cards.
    result = scored(
        "Necromancer; Book of Changes: Necromancer -> Army; Great Flood; King; Queen;"
        "Unicorn; Warhorse; Hydra"
    )
    assert line(result, "Necromancer").blanked
    assert len(result.lines) == 8
    assert result.total == 3 + 32 + 8 + 6 + 24 + 20 + 12


def test_R13_extra_card_must_be_army_leader_wizard_or_beast() -> None:
    with pytest.raises(ScorerError, match="extra card"):
        scored("Necromancer; Mountain; Cavern; Forest; Swamp; Island; Smoke; Wildfire")


def test_R13_eighth_card_needs_necromancer() -> None:
    with pytest.raises(ScorerError, match="at most 7"):
        scored("Knights; Mountain; Cavern; Forest; Swamp; Island; Smoke; Wildfire")


def test_R14_mirage_copies_any_card_of_the_game() -> None:
    assert total("Lightning; Mirage: Rainstorm") == 41


def test_R14_doppelganger_copies_only_a_card_in_hand() -> None:
    with pytest.raises(ScorerError, match="not in hand"):
        scored("Lightning; Doppelgänger: Rainstorm")


def test_R15_phoenix_counts_once_per_suit() -> None:
    # Blizzard -5 per Beast and per Flame: the Phoenix counts twice. 20 + 14.
    assert total("Blizzard; Phoenix") == 34


def test_R15_phoenix_is_blanked_as_a_flame_and_spared_by_wildfire() -> None:
    assert total("Rainstorm; Phoenix") == 8
    assert total("Wildfire; Phoenix") == 54


def test_R15_blanked_phoenix_keeps_its_suits() -> None:
    # Island blanks the Phoenix; it still counts as a Flame for Smoke: 27 + 14.
    result = scored("Smoke; Phoenix; Island")
    assert line(result, "Phoenix").blanked
    assert result.total == 41


def test_R15_world_tree_ignores_the_blanked_phoenix() -> None:
    # Kept: World Tree, Island, Air Elemental: all different suits (+50). Air Elemental
    # still counts the blanked Phoenix as a Weather: 4 + 15.
    assert total("World Tree; Phoenix; Island; Air Elemental") == 52 + 14 + 19


def test_R15_blanked_phoenix_gives_collector_a_name_in_each_suit() -> None:
    # The rules' worked example (Cursed Hoards): Water Elemental blanks the Phoenix, which
    # still counts as a Beast, a Flame and a Weather. Water Elemental 4 (no other Flood),
    # Fire Elemental 4 + 15, Air Elemental 4 + 15, Unicorn 9, Warhorse 6 + 14 (Collector),
    # Garden 11 + 11 x 3 (Unicorn, Warhorse, Phoenix), Collector 7 + 10 (Beasts: Unicorn,
    # Warhorse, Phoenix) = 4 + 19 + 19 + 9 + 20 + 44 + 17 = 132.
    result = resolve(load_hand(
        "Phoenix\nWater Elemental\nFire Elemental\nAir Elemental\nUnicorn\nWarhorse\n"
        "Collector\nGarden\n", "test", expansion="cursed-hoards"))
    assert line(result, "Phoenix").blanked
    assert line(result, "Collector").points == 17
    assert result.total == 132


def test_R16_the_worked_example_scores_109() -> None:
    # Phoenix 14; Shapeshifter as Phoenix 0 (a Beast only); Doppelgänger as Phoenix 14 (a
    # Beast only); Fire Elemental 4 + 15 and Air Elemental 4 + 15 (the real Phoenix only);
    # Collector 7 (one Beast name, two Flames, two Weathers, two Wizards); Beastmaster
    # 9 + 9 x 3 Beasts = 36. 14 + 0 + 14 + 19 + 19 + 7 + 36 = 109.
    result = scored("Phoenix; Shapeshifter: Phoenix; Doppelgänger: Phoenix; Fire Elemental;"
                    "Air Elemental; Collector; Beastmaster")
    assert line(result, "Shapeshifter").suit == "Beast"
    assert line(result, "Doppelgänger").suit == "Beast"
    assert result.total == 109


def test_R16_mirage_cannot_copy_the_phoenix() -> None:
    with pytest.raises(ScorerError, match="Mirage cannot become Phoenix .*R16"):
        scored("Mirage: Phoenix; Fire Elemental")


def test_R16_a_copy_of_the_phoenix_is_not_a_flame() -> None:
    # Shapeshifter as Phoenix is a Beast: Fire Elemental 4 (no other Flame), Beastmaster
    # 9 + 9 (one Beast) = 22.
    assert total("Shapeshifter: Phoenix; Fire Elemental; Beastmaster") == 22


def test_R16_a_blanked_copy_of_the_phoenix_counts_for_nothing() -> None:
    # Swamp blanks the Phoenix and the Doppelgänger copying it (its penalty: blanked with a
    # Flood). The Phoenix still counts as a Weather for Air Elemental, the copy does not:
    # Air Elemental 4 + 15; Swamp 18 - 3 (the Phoenix as a Flame) = 15. Total 34.
    result = scored("Doppelgänger: Phoenix; Phoenix; Swamp; Air Elemental")
    assert line(result, "Doppelgänger").blanked
    assert line(result, "Air Elemental").points == 19
    assert result.total == 34


def test_R17_the_worked_example_scores_58() -> None:
    # Book of Changes replaces the Phoenix's Beast by Weather: it is a Weather and a Flame.
    # Great Flood blanks Forest, Fire Elemental and the Phoenix (a Flame; its own penalty too).
    # Enchantress 5 + 5 x 3 (Great Flood; the blanked Phoenix as Weather and as Flame) = 20,
    # Great Flood 32, Elven Longbow 3, Book of Changes 3: 58.
    result = scored("Book of Changes: Phoenix -> Weather; Elven Longbow; Enchantress; Phoenix;"
                    "Great Flood; Forest; Fire Elemental")
    assert line(result, "Phoenix").blanked
    assert line(result, "Enchantress").points == 20
    assert result.total == 58


def test_R17_book_of_changes_keeps_the_phoenix_a_flame_and_a_weather() -> None:
    # Phoenix made a Flame: a Flame and a Weather, no longer a Beast. Air Elemental 4 + 15,
    # Forest 7 (no Beast left), Phoenix 14, Book 3: 43.
    result = scored("Book of Changes: Phoenix -> Flame; Phoenix; Air Elemental; Forest")
    assert line(result, "Phoenix").suit == "Weather/Flame"
    assert result.total == 43


def test_R17_a_changed_phoenix_keeps_all_its_suits_when_blanked() -> None:
    # Phoenix made a Leader, blanked by Island: Garden still counts it as a Leader
    # (11 + 11) and Air Elemental as a Weather (4 + 15); Island 14, Book 3: 22 + 19 + 17 = 58.
    result = resolve(load_hand(
        "Book of Changes: Phoenix -> Leader\nPhoenix\nIsland\nAir Elemental\nGarden\n", "test",
        expansion="cursed-hoards"))
    assert line(result, "Phoenix").blanked
    assert line(result, "Garden").points == 22
    assert result.total == 58
