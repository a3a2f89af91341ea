"""Share codes: card ids plus choices, read in both forms and printed canonically (part 4)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings

from fantasy_scorer.cli.main import main
from fantasy_scorer.errors import ScorerError
from fantasy_scorer.realms.formats.sharecode import hand_code, parse_code
from fantasy_scorer.realms.hand import Hand
from fantasy_scorer.realms.resolve import resolve

from ..strategies import EXP, hands
from .conftest import CAT, hand_of, legal_hands

ISSUE_EXAMPLE = "FR21,FR45,FR13+FR49:FR12:beast,FR53:FR37"
# The same shape with the two choice targets in hand: Knights, War Dirigible, Smoke, Blizzard,
# Basilisk, Book of Changes (Blizzard -> Beast), Doppelgänger (as Basilisk).
VALID = "FR21,FR45,FR13,FR12,FR37+FR49:FR12:beast,FR53:FR37"


def test_the_issue_example_reads_but_names_targets_outside_the_hand() -> None:
    # Book of Changes and Doppelgänger act on cards in hand (R3, R1); Blizzard is not in it.
    with pytest.raises(ScorerError) as e:
        parse_code(ISSUE_EXAMPLE, CAT)
    assert str(e.value) == ("share code: Book of Changes changes a card in hand; Blizzard is "
                            "not in hand ('FR49:FR12:beast')")


def test_a_code_scores_by_the_rules() -> None:
    hand = parse_code(VALID, CAT)
    assert [c.name for c in hand.cards] == [
        "Knights", "War Dirigible", "Smoke", "Blizzard", "Basilisk", "Book of Changes",
        "Doppelgänger"]
    assert hand.choices == {"FR49": (CAT.card("Blizzard"), "Beast"),
                            "FR53": CAT.card("Basilisk")}
    # Basilisk and Doppelgänger-as-Basilisk blank each other (R8 b), so Blizzard (now a Beast)
    # and Knights stay. Smoke has no Flame: blanked. War Dirigible has an Army and no Weather
    # left (Blizzard is a Beast, Smoke blanked): 35. Knights 20 - 8 (no Leader) = 12.
    # Blizzard 30 - 5 x (Knights, itself as a Beast) = 20. Book of Changes 3.
    assert resolve(hand).total == 12 + 35 + 20 + 3


def test_choices_inline_or_after_plus_read_the_same_hand() -> None:
    inline = parse_code("FR21,FR49:FR12:beast,FR45,FR13,FR53:FR37,FR12,FR37", CAT)
    split = parse_code(VALID, CAT)
    assert set(inline.cards) == set(split.cards)
    assert inline.choices == split.choices
    assert hand_code(inline) == VALID  # canonical: plain cards, '+', the cards with choices


def test_canonical_codes_of_the_examples() -> None:
    h260 = hand_of("Mountain", "Great Flood", "Smoke", "Whirlwind", "Air Elemental", "Wildfire",
                   "Mirage: Rainstorm")
    assert hand_code(h260) == "FR01,FR08,FR13,FR14,FR15,FR16+FR52:FR11"
    assert hand_code(hand_of("King", "Queen")) == "FR31,FR32"
    assert hand_code(hand_of("Shapeshifter: none", "King")) == "FR31+FR51:none"
    assert hand_code(hand_of("Doppelgänger: King", "King")) == "FR31+FR53:FR31"


def test_lower_case_ids_spaces_and_a_leading_plus() -> None:
    hand = parse_code(" fr31 , fr32 ", CAT)
    assert [c.name for c in hand.cards] == ["King", "Queen"]
    hand = parse_code("+FR53:FR37,FR37", CAT)
    assert resolve(hand).total == 0  # two Basilisks cancel out (R8 b)


def test_open_and_unassigned_choices_differ() -> None:
    assert parse_code("FR52", CAT).choices == {}
    assert parse_code("FR52:none", CAT).choices == {"FR52": None}


@pytest.mark.parametrize("code,message", [
    ("", "the share code is empty"),
    ("FR21,,FR45", "empty item at position 2; remove the extra comma"),
    ("FR21+FR45+FR13", "at most one '+'"),
    ("FR99", "unknown card id 'FR99' in 'FR99' (did you mean"),
    ("Knights", "unknown card id 'Knights'"),
    ("FR21,FR21", "FR21 (Knights) appears twice"),
    ("FR21:FR01", "FR21 (Knights) makes no choice; remove ':FR01' from 'FR21:FR01'"),
    ("FR53:", "empty choice in 'FR53:'"),
    ("FR49:FR12", "FR49 (Book of Changes) needs 'FR49:TARGET_ID:suit', got 'FR49:FR12'"),
    ("FR49:FR12:beest,FR12", "unknown suit 'beest' in 'FR49:FR12:beest' (one of land,"),
    ("FR53:FR37:beast,FR37", "FR53 (Doppelgänger) needs 'FR53:TARGET_ID'"),
    ("FR52:FR31", "Mirage cannot become King (Leader)"),
    ("FR49:FR49:beast", "may not change its own suit (R3)"),
    ("FR09:FR12,FR12", "Island may clear only a Flood or Flame; Blizzard is not one"),
    ("FR01,FR02,FR03,FR04,FR05,FR06,FR07,FR08", "8 cards in hand, at most 7 allowed"),
])
def test_errors_are_one_line(code: str, message: str) -> None:
    with pytest.raises(ScorerError) as e:
        parse_code(code, CAT)
    text = str(e.value)
    assert text.startswith("share code: ")
    assert message in text
    assert "\n" not in text


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(legal_hands())
def test_print_then_read_round_trips(hand: Hand) -> None:
    code = hand_code(hand)
    back = parse_code(code, CAT)
    assert set(back.cards) == set(hand.cards)
    assert dict(back.choices) == dict(hand.choices)
    assert hand_code(back) == code
    assert resolve(back).total == resolve(hand).total


def test_cli_scores_a_code_and_prints_codes(runner, tmp_path) -> None:
    res = runner.invoke(main, ["--code", VALID])
    assert res.exit_code == 0, res.output
    assert res.output.splitlines()[-2].endswith(" 70")
    hand = tmp_path / "h.txt"
    hand.write_text("Bell Tower\nCandle\nQueen\nSword of Keth\nShield of Keth\nGem of Order\n"
                    "Book of Changes: Gem of Order -> Wizard\n", encoding="utf-8")
    res = runner.invoke(main, ["--print-code", str(hand)])
    assert res.output == "FR03,FR17,FR32,FR43,FR46,FR47+FR49:FR47:wizard\n"
    res = runner.invoke(main, ["--code", res.output.strip(), "--json"])
    assert '"total": 380' in res.output


def test_cli_code_errors_are_one_line(runner) -> None:
    res = runner.invoke(main, ["--code", "FR21,FR99"])
    assert res.exit_code == 2
    assert res.output.startswith("Error: share code: unknown card id 'FR99'")
    assert res.output.count("\n") == 1
    res = runner.invoke(main, ["score"])
    assert res.exit_code == 2
    assert res.output == "Error: give a hand file ('-' reads standard input) or --code\n"


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands(EXP))
def test_expansion_codes_round_trip_with_cursed_items(hand: Hand) -> None:
    assume(not any("discard" in c.needs for c in hand.cards + hand.cursed))
    code = hand_code(hand)
    back = parse_code(code, EXP, hand.players)
    assert set(back.cards) == set(hand.cards)
    assert set(back.cursed) == set(hand.cursed)
    assert dict(back.choices) == dict(hand.choices)
    assert hand_code(back) == code


def test_a_code_cannot_carry_the_discard_area(runner) -> None:
    with pytest.raises(ScorerError, match="Ghoul scores the discard area .C5., which a share "
                                          "code does not carry"):
        parse_code("CH12", EXP)
    res = runner.invoke(main, ["--expansion", "cursed-hoards", "--players", "3", "--code",
                               "CH14,CH20,CH08:FR21,FR21,CH10,FR16,CH01,CH04,CH25"])
    assert res.exit_code == 0, res.output
    assert "Sarcophagus  Cursed Item" in res.output  # CH25, held beside the hand
