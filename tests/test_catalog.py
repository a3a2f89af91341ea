"""The shipped card data against the rules file, and the loader's validation."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fantasy_scorer.errors import ScorerError
from fantasy_scorer.realms.catalog import Catalog, base_catalog, load_into

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT.parent / "shared" / "rules" / "fantasy-realms.md"


def rules_table() -> list[tuple[str, str, str, int]]:
    rows = []
    for raw in RULES.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\| (FR\d\d) \| ([^|]+) \| (\w+) \| (-?\d+) \|", raw)
        if m:
            name = m.group(2).replace("(promo)", "").strip()
            rows.append((m.group(1), name, m.group(3), int(m.group(4))))
    return rows


@pytest.mark.skipif(not RULES.exists(), reason="shared/rules not beside the checkout")
def test_every_card_matches_the_rules_table() -> None:
    table = rules_table()
    assert len(table) == 55
    cat = base_catalog()
    assert [c.id for c in cat.cards] == [row[0] for row in table]
    for cid, name, suit, strength in table:
        card = cat.by_id[cid]
        assert (card.name, card.suit_names[0], card.strength) == (name, suit, strength)


def test_catalog_has_53_cards_and_two_promos() -> None:
    cat = base_catalog()
    assert len(cat.cards) == 55
    assert [c.id for c in cat.cards][-2:] == ["FR54", "FR55"]
    assert cat.card("Phoenix").suit == "Beast/Flame/Weather"


def test_evaluator_never_tests_card_names() -> None:
    # The effect code decides by effects, never by a card's name.
    src = "".join((ROOT / "fantasy_scorer" / "realms" / f).read_text(encoding="utf-8")
                  for f in ("effects.py", "resolve.py", "hand.py"))
    for card in base_catalog().cards:
        assert f'"{card.name}"' not in src and f"'{card.name}'" not in src


def load(text: str) -> Catalog:
    cat = Catalog()
    load_into(cat, "suits: [Army, Beast, Flood]\ncards:\n" + text, "t.yaml")
    return cat


@pytest.mark.parametrize(("text", "message"), [
    ("  - {id: X1, name: A, suit: Armi, strength: 1}\n",
     "t.yaml:3: unknown suit 'Armi' (did you mean 'Army'?)"),
    ("  - {id: X1, name: A, suit: Army, strength: one}\n",
     "t.yaml:3: 'strength' must be a whole number"),
    ("  - {id: X1, name: A, suit: Army}\n", "t.yaml:3: card is missing 'strength'"),
    ("  - {id: X1, name: A, suit: Army, strength: 1, bonus: [{points: 2, per: [Bird]}]}\n",
     "unknown suit or card name 'Bird'"),
    ("  - {id: X1, name: A, suit: Army, strength: 1, bonus: [{pointz: 2}]}\n",
     "unknown effect key 'pointz' (did you mean 'points'?)"),
    ("  - {id: X1, name: A, suit: Army, strength: 1}\n  - {id: X1, name: B, suit: Army, "
     "strength: 1}\n", "t.yaml:4: card id X1 is defined twice"),
    ("  - {id: X1, name: A, suit: Army, strength: 1, copy: {from: deck, takes: [name]}}\n",
     "copy: 'from' must be 'hand' or 'game'"),
    ("  - {id: X1, name: A, suit: Army, strength: 1, penalty: [{blanks: [Army], points: 1}]}\n",
     "a blanking penalty stands alone"),
    ("  - {id: X1, name: A, suit: Army, strength: 1, immune: others}\n",
     "t.yaml:3: 'immune' must be true or false (for 'blanked only by some cards', write "
     "blanked_only_by: [..])"),
    ("  - {id: X1, name: A, suit: Army, strength: 1, copied_suits: [Flood]}\n",
     "t.yaml:3: copied_suits: list only suits the card has"),
    ("  - {id: X1, name: A, suit: Army, strength: 1, change_replaces: [A]}\n",
     "t.yaml:3: change_replaces: list suits only"),
])
def test_validation_errors_name_file_line_and_problem(text: str, message: str) -> None:
    with pytest.raises(ScorerError) as err:
        load(text)
    assert message in str(err.value)


def test_a_card_may_name_a_card_defined_later() -> None:
    cat = load("  - {id: X1, name: A, suit: Army, strength: 1, bonus: [{points: 5, with: [B]}]}\n"
               "  - {id: X2, name: B, suit: Beast, strength: 2}\n")
    assert [c.name for c in cat.cards] == ["A", "B"]


def test_the_phoenix_traits_are_data_a_homebrew_card_may_use() -> None:
    """R16, R17, C7, C8 come from card traits, not from the Phoenix's name: a homebrew card
    with them behaves the same."""
    from fantasy_scorer.realms.hand import Hand
    from fantasy_scorer.realms.resolve import score

    cat = load("  - {id: X1, name: Ember, suit: Beast, also: [Flood], strength: 5, "
               "copied_suits: [Beast], change_replaces: [Beast], blanked_only_by: [Flood], "
               "never_blanks_others: true}\n"
               "  - {id: X2, name: Hater, suit: Army, strength: 10, "
               "penalty: [{blanked_if: [Flood]}, {blanks: [Beast]}]}\n")
    ember, hater = cat.card("Ember"), cat.card("Hater")
    assert ember.copy_suits == cat.suit_bit("Beast")
    assert ember.kept_on_change == cat.suit_bit("Flood")
    # Hater would blank Ember (a Beast) and be blanked by it (a Flood): neither happens.
    assert score(Hand(cat, (ember, hater))) == 15
