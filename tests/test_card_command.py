"""fr-score card NAME and fr-score cards: a card's text, suit, strength and rulings."""

from __future__ import annotations

import json
import re

import pytest

from fantasy_scorer.realms.catalog import base_catalog, load_catalog
from fantasy_scorer.realms.rulings import concerning, ruling

from .conftest import run, write

VALID = {f"R{i}" for i in range(1, 18)} | {f"C{i}" for i in range(1, 9)}


def test_card_shows_text_suit_strength_and_rulings():
    result = run(["card", "Warlock", "Lord"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    # the rules' card table: FR29 Warlock Lord, Wizard, 25
    assert lines[0] == "Warlock Lord (FR29): Wizard, strength 25"
    assert lines[1] == "Penalty: -10 per Leader and per other Wizard."
    # its penalty counts per card (R9: "per" pays per card), with the title of docs/rulings.md
    assert lines[2:] == ["Rulings (docs/rulings.md):", f"  R9  {ruling('R9').title}"]


def test_card_in_any_language_and_printed_in_one():
    # Gebirge is the German Mountain (FR01, Land, 9)
    assert run(["card", "Gebirge"]).output.startswith("Mountain (FR01): Land, strength 9")
    german = run(["card", "mountain", "--lang", "de"]).output
    assert german.startswith("Gebirge (FR01): Land, strength 9")
    assert "Rauch" in german and "Buschfeuer" in german  # Smoke and Wildfire in its text
    assert run(["card", "FR53"]).output.startswith("Doppelgänger (FR53): Wild, strength 0")


def test_card_typo_is_one_line_with_did_you_mean():
    result = run(["card", "Warlok", "Lord"])
    assert result.exit_code == 2
    assert result.output == "Error: unknown card 'Warlok Lord' (did you mean 'Warlock Lord'?)\n"


def test_card_without_a_name():
    result = run(["card"])
    assert result.exit_code == 2
    assert "give a card name" in result.output


def test_card_json():
    data = json.loads(run(["card", "Basilisk", "--json"]).output)
    assert {k: data[k] for k in ("id", "name", "suit", "suits", "strength", "cursed")} == {
        "id": "FR37", "name": "Basilisk", "suit": "Beast", "suits": ["Beast"],
        "strength": 35, "cursed": False}
    assert data["text"] == "Penalty: blanks every Army, every Leader and every other Beast."
    assert set(data["rulings"]) >= {"R6", "R8"}


def test_expansion_and_edition_cards():
    lich = run(["card", "Lich", "--expansion", "cursed-hoards"])
    assert lich.output.startswith("Lich (CH14): Undead, strength 13")
    assert "C3" in lich.output.splitlines()[-1]
    assert run(["card", "Lich"]).exit_code == 2  # not a card of the base game
    phoenix = json.loads(run(["card", "Phoenix", "--edition", "deluxe", "--json"]).output)
    assert phoenix["id"] == "FR55D" and {"C7", "C8"} <= set(phoenix["rulings"])


def catalogs():
    return [base_catalog(), base_catalog("cursed-hoards"), base_catalog(None, "deluxe"),
            base_catalog("cursed-hoards", "deluxe")]


def test_every_ruling_id_printed_is_one_of_the_rules():
    for catalog in catalogs():
        for card in catalog.cards:
            assert set(concerning(card)) <= VALID, card


#: card -> rulings whose text is about that card (rules: fantasy-realms.md, cursed-hoards.md).
ABOUT = {
    "Doppelgänger": {"R1", "R14", "R16"},   # copies the printed card; only in hand; Phoenix
    "Mirage": {"R2", "R14", "R16"},          # a copy counts as name and suit; cannot copy Phoenix
    "Shapeshifter": {"R2", "R14", "R16"},
    "Book of Changes": {"R3", "R17"},        # not itself; on the Phoenix only the printed suit
    "Island": {"R4", "R5"},                  # any Flood/Flame after step 2; blanked still clears
    "Cavern": {"R5"},                        # a blanked Cavern still clears
    "Rangers": {"R5", "R6"},                 # clears the word Army
    "Warship": {"R6", "R8"},                 # the word Army for Floods; a self-condition
    "Swamp": {"R6"},                         # stops counting Armies
    "Blizzard": {"R6"},
    "Dwarvish Infantry": {"R6"},             # its penalty vanishes
    "Great Flood": {"R6", "R8"},             # stops blanking Armies; blanking as a whole
    "Basilisk": {"R6", "R8"},                # two Basilisks blank each other
    "War Dirigible": {"R6", "R8"},           # its "unless with an Army" vanishes
    "Smoke": {"R8"},                         # a self-condition
    "Wildfire": {"R8"},                      # turned into a Leader, it blanks itself
    "King": {"R9"},                          # "X, or Y if ..." pays the larger
    "Collector": {"R10"},                    # counts different names
    "Gem of Order": {"R10"},                 # every separate run pays
    "Water Elemental": {"R11"},              # copies included
    "Air Elemental": {"R11"},
    "Jester": {"R12"},
    "Necromancer": {"R13", "C4"},
    "Phoenix": {"R8", "R15", "R16", "R17"},
    "World Tree": {"R15"},                   # the one card looking only at non-blanked ones
}
ABOUT_CH = {
    "Demon": {"C1"}, "Angel": {"C2"}, "Lich": {"C3"}, "Necromancer": {"C3", "C4"},
    "Leprechaun": {"C4"}, "Genie": {"C4", "C6"}, "Dark Queen": {"C5"}, "Ghoul": {"C5"},
    "Specter": {"C5"}, "Death Knight": {"C5"}, "Spyglass": {"C6"},
}


@pytest.mark.parametrize("catalog, about", [(base_catalog(), ABOUT),
                                            (base_catalog("cursed-hoards"), ABOUT_CH)])
def test_the_rulings_about_a_card_are_found_from_its_effects(catalog, about):
    for name, expected in about.items():
        card = catalog.card(name)
        assert expected <= set(concerning(card)), name


def test_deluxe_phoenix_rulings():
    catalog = base_catalog(None, "deluxe")
    found = set(concerning(catalog.card("Phoenix")))
    assert {"C7", "C8", "R16"} <= found
    assert "R17" not in found  # Book of Changes cannot target it


def test_cards_only_the_general_rulings_concern():
    catalog = base_catalog()
    assert concerning(catalog.card("Forge")) == ["R9"]  # +9 per Weapon and Artifact
    assert concerning(catalog.card("Jester")) == ["R12"]
    assert "R8" not in concerning(catalog.card("Bell Tower"))


HOMEBREW = """\
cards:
  - id: HB01
    name: Sea Serpent
    suit: Beast
    strength: 20
    text: "Penalty: blanked unless with Swamp or Island."
    penalty:
      - {blanked_unless: [Swamp, Island]}
  - id: HB02
    name: Mimic
    suit: Wild
    strength: 0
    text: "May take the name, strength, suit and penalty of one other card in hand."
    copy: {from: hand, takes: [name, strength, suit, penalty]}
"""


def test_homebrew_cards_get_the_rulings_of_their_effects(tmp_path):
    path = write(tmp_path, "my.yaml", HOMEBREW)
    catalog = load_catalog([path])
    assert {"R7", "R8"} <= set(concerning(catalog.card("Sea Serpent")))
    assert {"R1", "R14"} <= set(concerning(catalog.card("Mimic")))
    result = run(["card", "Mimic", "--cards", path])
    assert result.output.startswith("Mimic (HB02): Wild, strength 0")


def test_cards_lists_every_card():
    result = run(["cards"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0].split() == ["Id", "Card", "Suit", "Strength", "Rulings"]
    assert len(lines) == 1 + 55  # 53 base cards and the two promos
    assert re.match(r"FR29 +Warlock Lord +Wizard +25 +R9$", lines[29])
    # Cursed Hoards: 8 replaced, 15 new cards and 24 Cursed Items
    assert len(run(["cards", "--expansion", "cursed-hoards"]).output.splitlines()) == 1 + 94


def test_cards_by_suit_any_language():
    ids = [ln.split()[0] for ln in run(["cards", "--suit", "Flame"]).output.splitlines()[1:]]
    # the five Flames, and the promo Phoenix, which also counts as a Flame (R15)
    assert ids == ["FR16", "FR17", "FR18", "FR19", "FR20", "FR55"]
    assert run(["cards", "--suit", "Flamme"]).output == run(["cards", "--suit", "flame"]).output
    bad = run(["cards", "--suit", "Flam"])
    assert bad.exit_code == 2 and "did you mean 'Flame'" in bad.output


def test_cards_json_one_object_per_card():
    lines = run(["cards", "--suit", "Wild", "--json", "--lang", "de"]).output.splitlines()
    cards = [json.loads(line) for line in lines]
    assert [c["id"] for c in cards] == ["FR51", "FR52", "FR53"]
    assert all(set(c["rulings"]) >= {"R14"} for c in cards)


def test_card_help_shows_examples():
    for command in ("card", "cards"):
        result = run([command, "-h"])
        assert result.exit_code == 0
        assert f"fr-score {command} " in result.output
