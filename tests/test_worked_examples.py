"""Every worked example of the rules: the table of totals of the base game, and the examples
given inside the rulings of both games (R16, R17, C7, C8). docs/rulings.md cites them."""

import pytest

from fantasy_scorer.realms.formats.handfile import load_hand
from fantasy_scorer.realms.resolve import resolve

#: (hand in hand-file syntax, ";" between lines; expansion; edition; the rules' total)
EXAMPLES = [
    ("Mountain; Great Flood; Smoke; Whirlwind; Air Elemental; Wildfire; Mirage: Rainstorm",
     None, None, 260),
    ("Bell Tower; Candle; Queen; Sword of Keth; Shield of Keth; Gem of Order;"
     "Book of Changes: Gem of Order -> Wizard", None, None, 380),
    ("Blizzard; Great Flood; Wildfire", None, None, 65),
    ("Cavern; Blizzard; Great Flood; Wildfire", None, None, 62),
    ("Blizzard; Great Flood; Elven Archers", None, None, 35),
    ("Basilisk; Doppelgänger: Basilisk", None, None, 0),
    ("Dwarvish Infantry; Doppelgänger: Dwarvish Infantry", None, None, 26),
    ("Island: Wildfire; Blizzard; Wildfire; Basilisk", None, None, 95),
    ("Water Elemental; Doppelgänger: Water Elemental", None, None, 23),
    ("Collector; Shield of Keth; Gem of Order; Shapeshifter: Shield of Keth;"
     "Doppelgänger: Shield of Keth", None, None, 20),
    ("Knights; War Dirigible; Smoke", None, None, 47),
    ("War Dirigible; Smoke; Knights", None, None, 47),
    ("Smoke; Knights; War Dirigible", None, None, 47),
    ("Phoenix; Water Elemental; Fire Elemental; Air Elemental; Unicorn; Warhorse; Collector;"
     "Garden", "cursed-hoards", None, 132),
    ("Smoke; Dwarvish Infantry; War Dirigible", None, None, 50),
    # inside the rulings
    ("Phoenix; Shapeshifter: Phoenix; Doppelgänger: Phoenix; Fire Elemental; Air Elemental;"
     "Collector; Beastmaster", None, None, 109),  # R16
    ("Book of Changes: Phoenix -> Weather; Elven Longbow; Enchantress; Phoenix; Great Flood;"
     "Forest; Fire Elemental", None, None, 58),  # R17
    ("Great Flood; Phoenix; Beastmaster", None, "deluxe", 41),  # C7
    ("Phoenix; War Dirigible; Elven Archers", None, "deluxe", 59),  # C8
]


def score_example(hand: str, expansion: str | None, edition: str | None) -> int:
    return resolve(load_hand(hand.replace(";", "\n"), "example", expansion=expansion,
                             edition=edition)).total


@pytest.mark.parametrize(("hand", "expansion", "edition", "expected"), EXAMPLES)
def test_worked_example(hand: str, expansion: str | None, edition: str | None,
                        expected: int) -> None:
    assert score_example(hand, expansion, edition) == expected
