"""The Cursed Hoards expansion (cursed-hoards.md): every card's own effect, rulings C1–C6,
the Deluxe Phoenix, and the hand-file sections. Expected totals are worked by hand."""

from __future__ import annotations

import pytest

from fantasy_scorer.errors import ScorerError
from fantasy_scorer.realms.catalog import base_catalog
from fantasy_scorer.realms.formats.handfile import load_hand
from fantasy_scorer.realms.resolve import Result, resolve

from .conftest import line


def ch(text: str, edition: str | None = None) -> Result:
    """Score an expansion hand written in hand-file syntax (``;`` separates lines)."""
    body = "expansion: cursed-hoards\n" + text.replace(";", "\n")
    return resolve(load_hand(body, "test", edition=edition))


def total(text: str, edition: str | None = None) -> int:
    return ch(text, edition).total


def test_catalog_replaces_eight_base_cards() -> None:
    cat = base_catalog("cursed-hoards")
    assert len(cat.cards) == 55 + 47 - 8
    for name, cid in [("Bell Tower", "CH16"), ("Fountain of Life", "CH17"),
                      ("Great Flood", "CH18"), ("Rangers", "CH19"), ("Necromancer", "CH20"),
                      ("World Tree", "CH21"), ("Shapeshifter", "CH22"), ("Mirage", "CH23")]:
        assert cat.card(name).id == cid
    assert cat.hand_size == 8 and cat.max_hand == 9
    assert len([c for c in cat.cards if c.cursed]) == 24


# ------------------------------------------------------------------- the new suit cards

def test_CH01_dungeon() -> None:
    # Dungeon 7 + 10 (Lich) + 10 + 5 (Hydra, Unicorn) + 5 (Necromancer) = 37; Lich 13 + 10
    # (Necromancer) = 23; Hydra 12; Unicorn 9; Necromancer 3.
    assert total("Dungeon; Lich; Hydra; Unicorn; Necromancer") == 37 + 23 + 12 + 9 + 3


def test_CH02_castle() -> None:
    # Castle 10 + 10 (King) + 10 (Knights) + 10 (Forest) + 10 + 5 (Bell Tower, Chapel) = 55;
    # King 13; Knights 20; Forest 7; Bell Tower 8; Chapel 2 (only one Leader/Wizard/...).
    assert total("Castle; King; Knights; Forest; Bell Tower; Chapel") == 55 + 13 + 20 + 7 + 8 + 2


def test_CH03_crypt_sums_undead_and_blanks_leaders() -> None:
    result = ch("Crypt; Lich; King")
    assert line(result, "King").blanked
    assert result.total == 21 + 13 + 13


def test_CH04_chapel_exactly_two() -> None:
    assert total("Chapel; King; Angel") == 42 + 8 + 16
    assert total("Chapel; King; Angel; Queen") == 2 + 8 + 16 + 6


def test_CH05_garden() -> None:
    assert total("Garden; King; Unicorn") == 33 + 8 + 9
    assert total("Garden; Lich; King") == 13 + 8  # blanked with any Undead


def test_CH06_genie_per_other_player() -> None:
    assert total("players: 4; Genie") == -50 + 30


def test_CH07_judge_counts_uncleared_penalties() -> None:
    assert total("Judge; Knights; Dragon") == 31 + 12 - 10
    assert total("Judge; Knights; Dragon; Protection Rune") == 11 + 20 + 30 + 1


def test_CH08_angel_protects_one_card_and_itself() -> None:
    assert total("Angel: King; King; Basilisk") == 16 + 8 + 35
    assert total("Angel; King; Basilisk") == 16 + 35
    assert total("Angel; Wildfire") == 16 + 40  # Wildfire would blank an Outsider


def test_CH09_leprechaun_gives_a_ninth_card() -> None:
    hand = ("Leprechaun; Knights; Elven Archers; King; Queen; Princess; Warlord; Empress;"
            "Unicorn")
    assert len(ch(hand).lines) == 9
    with pytest.raises(ScorerError, match="9 cards in hand, at most 8"):
        ch(hand.replace("Leprechaun", "Dragon"))


def test_CH10_demon_blanks_the_only_card_of_a_suit() -> None:
    assert total("Demon; Knights; Queen") == 45
    assert total("Demon; Knights; Elven Archers") == 45 + 12 + 15


def test_CH11_dark_queen() -> None:
    assert total("Dark Queen; [discard]; Mountain; Rainstorm; Unicorn; Knights") == 10 + 15


def test_CH12_ghoul() -> None:
    assert total("Ghoul; [discard]; Knights; King; Unicorn; Beastmaster; Lich") == 8 + 20


def test_CH13_specter() -> None:
    assert total("Specter; [discard]; Beastmaster; Shield of Keth; Angel; Knights") == 12 + 18


def test_CH14_lich() -> None:
    assert total("Lich; Necromancer; Ghoul; [discard]; Mountain") == 33 + 3 + 8
    assert total("Wildfire; Lich") == 40 + 13  # Undead cannot be blanked


def test_CH15_death_knight() -> None:
    assert total("Death Knight; [discard]; Warship; Knights; Magic Wand") == 14 + 21


def test_CH16_bell_tower_is_a_building() -> None:
    assert total("Bell Tower; Lich") == 23 + 13
    assert total("Bell Tower; Great Flood") == 32


def test_CH17_fountain_counts_buildings() -> None:
    assert total("Fountain of Life; Crypt") == 22 + 21


def test_CH18_great_flood_blanks_buildings() -> None:
    assert total("Great Flood; Castle") == 32


def test_CH19_rangers_count_buildings() -> None:
    assert total("Rangers; Castle; Forest") == 25 + 30 + 7


def test_CH20_necromancer_takes_undead() -> None:
    hand = "Necromancer; Knights; King; Queen; Princess; Warlord; Empress; Unicorn; Lich"
    assert len(ch(hand).lines) == 9


def test_CH21_world_tree_pays_70() -> None:
    assert total("World Tree; Castle; Lich") == 72 + 10 + 13


def test_CH22_shapeshifter_copies_undead() -> None:
    assert total("Shapeshifter: Lich; Lich") == 23


def test_CH23_mirage_copies_buildings() -> None:
    assert total("Mirage: Castle; Rangers") == 15


# ------------------------------------------------------------------- Cursed Items

def test_cursed_items_score_their_value() -> None:
    result = ch("Knights; King; [cursed items]; Sarcophagus; Wishing Ring; Fishhook")
    assert result.total == 20 + 13 + 5 - 30 - 6
    assert line(result, "Wishing Ring").suit == "Cursed Item"


def test_spyglass_in_a_two_player_game() -> None:
    assert total("players: 2; King; [cursed items]; Spyglass") == 8 - 10
    assert total("players: 3; King; [cursed items]; Spyglass") == 8 - 1


def test_treasure_chest_with_three_other_cursed_items() -> None:
    assert total("King; [cursed items]; Treasure Chest; Rake; Shovel") == 8 - 5 - 4 - 2
    assert total("King; [cursed items]; Treasure Chest; Rake; Shovel; Backpack") == (
        8 + 20 - 4 - 2 - 2)


def test_portal_gives_an_extra_card() -> None:
    hand = "Knights; Elven Archers; King; Queen; Princess; Warlord; Empress; Unicorn"
    assert len(ch(hand + "; Dragon; [cursed items]; Portal").lines) == 10  # 9 cards + Portal


def test_each_cursed_item_has_its_printed_value() -> None:
    values = {"Spyglass": -1, "Sarcophagus": 5, "Blindfold": 5, "Book of Prophecy": -1,
              "Crystal Ball": -1, "Market Wagon": -2, "Backpack": -2, "Shovel": -2,
              "Sealed Vault": -4, "Crystal Lens": -2, "Larcenous Gloves": -3,
              "Junkyard Map": -3, "Winged Boots": -4, "Staff of Transmutation": -4, "Rake": -4,
              "Treasure Chest": -5, "Fishhook": -6, "Repair Kit": -6, "Hourglass": -7,
              "Gold Mirror": -8, "Cauldron": -9, "Lantern": -10, "Portal": -20,
              "Wishing Ring": -30}
    for name, value in values.items():
        assert total(f"players: 4; King; [cursed items]; {name}") == 8 + value, name


# ------------------------------------------------------------------- rulings

def test_C1_demon_blanks_first_and_a_cleared_demon_blanks_nothing() -> None:
    # Demon first blanks the lonely Wildfire (only Flame) and Knights (only Army); Rainstorm
    # and Smoke share Weather. Then R8: Smoke has no Flame left. Demon 45 + Rainstorm 8.
    result = ch("Demon; Wildfire; Knights; Rainstorm; Smoke")
    assert line(result, "Wildfire").blanked and line(result, "Knights").blanked
    assert line(result, "Smoke").blanked  # no Flame left
    assert result.total == 45 + 8
    # Protection Rune clears Demon (and Knights): nobody is blanked.
    assert total("Protection Rune; Demon; Knights") == 1 + 45 + 20


def test_C2_angel_protection_holds_against_demon() -> None:
    assert total("Demon; Angel: Knights; Knights") == 45 + 16 + 12


def test_C3_undead_immune_even_if_necromancer_is_blanked() -> None:
    result = ch("Necromancer; Book of Changes: Necromancer -> Army; Great Flood; Ghoul;"
                "Wildfire; [discard]; Knights")
    assert line(result, "Necromancer").blanked and line(result, "Wildfire").blanked
    assert not line(result, "Ghoul").blanked
    assert result.total == 32 + 12 + 3


def test_C4_a_hand_never_exceeds_nine_cards() -> None:
    nine = "Leprechaun; Genie; Necromancer; Knights; King; Queen; Princess; Warlord; Empress"
    assert len(ch("players: 3; " + nine).lines) == 9
    with pytest.raises(ScorerError, match="at most 9"):
        ch("players: 3; " + nine + "; Unicorn")


def test_C5_discard_area_is_read_as_printed() -> None:
    # The promo Phoenix counts in the discard area as a Flame and a Weather...
    assert total("Dark Queen; [discard]; Phoenix") == 10 + 10
    # ...the Deluxe Phoenix only as a Beast.
    assert total("Dark Queen; [discard]; Phoenix", edition="deluxe") == 10


def test_C5_discard_area_is_required() -> None:
    with pytest.raises(ScorerError, match=r"scores the discard area \(C5\)"):
        ch("Dark Queen; King")


def test_C6_players_are_required() -> None:
    with pytest.raises(ScorerError, match=r"number of players \(C6\)"):
        ch("Genie; King")
    with pytest.raises(ScorerError, match=r"C6"):
        ch("King; [cursed items]; Spyglass")


# ------------------------------------------------------------------- the Deluxe Phoenix

def test_C7_rainstorm_does_not_blank_the_deluxe_phoenix() -> None:
    assert total("Rainstorm; Phoenix", edition="deluxe") == 22
    assert total("Rainstorm; Phoenix") == 8  # the promo Phoenix is blanked as a Flame


def test_C7_the_worked_example_scores_41() -> None:
    # Great Flood blanks the Deluxe Phoenix as a Flame, although Beastmaster clears its own
    # penalty; blanked, it is no Beast for Beastmaster: 32 + 9 = 41.
    result = ch("Great Flood; Phoenix; Beastmaster", edition="deluxe")
    assert line(result, "Phoenix").blanked
    assert result.total == 41


def test_C7_demon_basilisk_and_wildfire_never_blank_the_deluxe_phoenix() -> None:
    # Demon: the Phoenix is the only Beast, Flame and Weather, yet stays: 45 + 14.
    assert total("Demon; Phoenix", edition="deluxe") == 59
    assert total("Demon; Phoenix") == 45  # the promo Phoenix is blanked
    # Basilisk blanks every other Beast, but not this one: 35 + 14 (the promo one: 35).
    assert total("Basilisk; Phoenix", edition="deluxe") == 49
    assert total("Basilisk; Phoenix") == 35
    # Wildfire blanks every card but Flames, Wizards, ...: Knights go, the Phoenix stays;
    # Wildfire 40 + Phoenix 14 (Knights blanked).
    assert total("Wildfire; Phoenix; Knights", edition="deluxe") == 54


def test_C7_any_flood_blanks_the_deluxe_phoenix() -> None:
    # Doppelgänger as Great Flood is a Flood with its penalty: it blanks the Phoenix too.
    # Doppelgänger 32, Great Flood 32, Beastmaster 9 (the blanked Phoenix is no Beast): 73.
    result = ch("Doppelgänger: Great Flood; Great Flood; Phoenix; Beastmaster", edition="deluxe")
    assert line(result, "Phoenix").blanked
    assert result.total == 73


def test_C8_the_worked_example_scores_59() -> None:
    # War Dirigible stays: the Deluxe Phoenix, its only Weather, cannot make it blanked.
    # Phoenix 14, War Dirigible 35 (Elven Archers is an Army), Elven Archers 10 (a Weather
    # is in hand: no +5) = 59. With the promo Phoenix War Dirigible is blanked: 24.
    result = ch("Phoenix; War Dirigible; Elven Archers", edition="deluxe")
    assert not line(result, "War Dirigible").blanked
    assert result.total == 59
    assert total("Phoenix; War Dirigible; Elven Archers") == 24


def test_C8_the_deluxe_phoenix_still_keeps_smoke_as_a_flame() -> None:
    assert total("Smoke; Phoenix", edition="deluxe") == 27 + 14


def test_C8_a_blanked_deluxe_phoenix_loses_its_suits() -> None:
    # Water Elemental blanks both Phoenixes. The promo Phoenix still counts as a Flame for
    # Smoke (27 + 4); the Deluxe one does not, so Smoke is blanked too (4).
    assert total("Smoke; Phoenix; Water Elemental") == 31
    assert total("Smoke; Phoenix; Water Elemental", edition="deluxe") == 4


def test_deluxe_phoenix_self_condition_and_its_clearing() -> None:
    assert total("Phoenix; Great Flood", edition="deluxe") == 32
    assert total("Island: Phoenix; Phoenix", edition="deluxe") == 28


def test_deluxe_phoenix_cannot_be_changed_or_copied_by_mirage() -> None:
    with pytest.raises(ScorerError, match="cannot change the suit of Phoenix"):
        ch("Book of Changes: Phoenix -> Army; Phoenix", edition="deluxe")
    with pytest.raises(ScorerError, match="Mirage cannot become Phoenix"):
        ch("Mirage: Phoenix; King", edition="deluxe")


def test_deluxe_phoenix_copy_is_only_a_beast() -> None:
    result = ch("Shapeshifter: Phoenix; Air Elemental", edition="deluxe")
    assert line(result, "Shapeshifter").suit == "Beast"
    assert result.total == 4


# ------------------------------------------------------------------- the hand file

@pytest.mark.parametrize(("text", "message"), [
    ("King\n[cursed]\nKnights\n", "test:3: Knights is not a Cursed Item"),
    ("King\nSpyglass\n", "test:2: Spyglass is a Cursed Item; list it under [cursed items]"),
    ("King\n[discard]\nKing\n", "test:3: King is listed twice (also line 1)"),
    ("King\n[trash]\nQueen\n", "test:2: unknown section '[trash]'"),
    ("King\nplayers: 3\n", "test:2: settings (expansion, edition, players) go at the top"),
    ("players: 9\nKing\n", "test:1: 9 players: Fantasy Realms is played by 2 to 6"),
    ("King\n[discard]\nQueen: King\n", "test:3: a card in the [discard] section makes no"),
])
def test_hand_file_errors(text: str, message: str) -> None:
    with pytest.raises(ScorerError) as err:
        load_hand(text, "test", expansion="cursed-hoards")
    assert message in str(err.value)


def test_settings_in_the_file_must_match_the_command_line() -> None:
    with pytest.raises(ScorerError, match="the file says edition: deluxe but the command line "
                                          "says --edition standard"):
        load_hand("edition: deluxe\nKing\n", "t", edition="standard")


def test_expansion_hand_needs_the_expansion() -> None:
    from fantasy_scorer.realms.formats.handfile import read_hand
    with pytest.raises(ScorerError, match="run with --expansion cursed-hoards"):
        read_hand("expansion: cursed-hoards\nKing\n", "t", base_catalog())
