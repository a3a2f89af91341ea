"""Every worked example of the rules file (fantasy-realms.md, "Worked examples")."""

import pytest

from .conftest import total

EXAMPLES = [
    ("Mountain; Great Flood; Smoke; Whirlwind; Air Elemental; Wildfire; Mirage: Rainstorm", 260),
    ("Bell Tower; Candle; Queen; Sword of Keth; Shield of Keth; Gem of Order;"
     "Book of Changes: Gem of Order -> Wizard", 380),
    ("Blizzard; Great Flood; Wildfire", 65),
    ("Cavern; Blizzard; Great Flood; Wildfire", 62),
    ("Blizzard; Great Flood; Elven Archers", 35),
    ("Basilisk; Doppelgänger: Basilisk", 0),
    ("Dwarvish Infantry; Doppelgänger: Dwarvish Infantry", 26),
    ("Island: Wildfire; Blizzard; Wildfire; Basilisk", 95),
    ("Water Elemental; Doppelgänger: Water Elemental", 23),
    ("Collector; Shield of Keth; Gem of Order; Shapeshifter: Shield of Keth;"
     "Doppelgänger: Shield of Keth", 20),
    ("Knights; War Dirigible; Smoke", 47),
    ("War Dirigible; Smoke; Knights", 47),
    ("Smoke; Knights; War Dirigible", 47),
    ("Smoke; Dwarvish Infantry; War Dirigible", 50),
]


@pytest.mark.parametrize(("hand", "expected"), EXAMPLES)
def test_worked_example(hand: str, expected: int) -> None:
    assert total(hand) == expected
