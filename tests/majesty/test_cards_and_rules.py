"""The card table, tiers and set-up, and the location table against the rules file."""

import random
from collections import Counter

import pytest

from fantasy_scorer.majesty.cards import (
    CARD_TYPES,
    card_index,
    card_name,
    setup_deck,
    tier_cards,
)
from fantasy_scorer.majesty.names import character_index, location_index
from fantasy_scorer.majesty.rules import (
    HEAL,
    INFIRMARY_RULES,
    LOCATION_RULES,
    TRADE,
    parse_side,
)

# The rules file's character table, typed again: card -> (tier 1, tier 2).
RULES_TABLE = {
    "Miller": (7, 2),
    "Brewer": (4, 2),
    "Witch": (3, 2),
    "Guard": (3, 2),
    "Knight": (2, 1),
    "Innkeeper": (2, 2),
    "Noble": (3, 2),
    "Miller/Brewer": (2, 1),
    "Miller/Knight": (1, 1),
    "Brewer/Witch": (1, 2),
    "Brewer/Knight": (0, 1),
    "Witch/Guard": (1, 2),
    "Witch/Innkeeper": (0, 1),
    "Witch/Noble": (0, 1),
    "Guard/Knight": (0, 2),
    "Guard/Innkeeper": (1, 0),
    "Guard/Noble": (1, 0),
    "Knight/Innkeeper": (1, 2),
    "Innkeeper/Noble": (1, 1),
}


def test_card_table_matches_the_rules():
    assert {c.name: (c.tier1, c.tier2) for c in CARD_TYPES} == RULES_TABLE


def test_tier_sizes():
    assert len(tier_cards(1)) == 33
    assert len(tier_cards(2)) == 27


@pytest.mark.parametrize("players, size", [(2, 6 + 27), (3, 14 + 27), (4, 26 + 27)])
def test_setup_by_tiers(players, size):
    deck = setup_deck(players, random.Random(3))
    assert len(deck) == size
    top = size - 27
    assert Counter(deck[top:]) == Counter(tier_cards(2))  # tier 2 is the bottom pile
    tier1 = Counter(tier_cards(1))
    assert all(tier1[c] >= n for c, n in Counter(deck[:top]).items())


def test_setup_all60_variant_uses_every_card():
    deck = setup_deck(4, random.Random(3), all60=True)
    assert Counter(deck) == Counter(tier_cards(1) + tier_cards(2))


def test_setup_is_seeded():
    assert setup_deck(3, random.Random(9)) == setup_deck(3, random.Random(9))
    assert setup_deck(3, random.Random(9)) != setup_deck(3, random.Random(10))


def test_setup_rejects_player_counts():
    with pytest.raises(ValueError, match="2-4 players"):
        setup_deck(5, random.Random(0))


def test_location_values():
    assert [loc.value for loc in LOCATION_RULES["A"]] == [10, 11, 12, 13, 14, 15, 16]
    assert [loc.value for loc in LOCATION_RULES["B"]] == [14, 12, 12, 8, 8, 12, 16]
    assert INFIRMARY_RULES["A"] == (1, 0)
    assert INFIRMARY_RULES["B"] == (2, 10)


def test_signposts_come_first():
    """Heal and the Castle trade resolve before the points of their location."""
    for side in LOCATION_RULES.values():
        for loc in side:
            kinds = [a.kind for a in loc.abilities]
            for special in (HEAL, TRADE):
                if special in kinds:
                    assert kinds.index(special) == 0


def test_names():
    assert card_index("brewer/miller") == card_index("Miller/Brewer")
    assert card_name(card_index(" witch / guard ")) == "Witch/Guard"
    assert location_index("Castle") == 6 and location_index(8) == 7 and location_index("3") == 2
    assert character_index("innkeeper") == 5
    with pytest.raises(ValueError, match="did you mean guardhouse"):
        location_index("gardhouse")
    with pytest.raises(ValueError, match="did you mean Witch"):
        character_index("Wich")


def test_sides():
    assert parse_side("a") == "AAAAAAAA"
    assert parse_side("ABABABAB") == "ABABABAB"
    for bad in ("C", "ABAB", "ABABABABA"):
        with pytest.raises(ValueError, match="side"):
            parse_side(bad)
