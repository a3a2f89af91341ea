"""Share codes and page links in the popular web scorer's format, both ways (issue 11 §3).

The expected codes are written from the format itself (every card of the hand, then its
Cursed Items, before one '+'; each choice after it as ID:TARGET or ID:TARGET:suit; the promo
Phoenix FR55P, the Deluxe Phoenix FR55; a page link's hand=, discard=, expansions= and
playerCount=), never copied from this tool's output.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings

from fantasy_scorer.cli.main import main
from fantasy_scorer.errors import ScorerError
from fantasy_scorer.realms.catalog import base_catalog
from fantasy_scorer.realms.formats.handfile import load_hand
from fantasy_scorer.realms.formats.sharecode import (
    hand_code,
    parse_code,
    read_items,
    read_share,
    share_code,
    share_game,
    share_link,
    share_text,
)
from fantasy_scorer.realms.hand import Hand
from fantasy_scorer.realms.resolve import resolve

from ..strategies import EXP, hands
from .conftest import CAT, hand_of, legal_hands

ROOT = Path(__file__).resolve().parents[2]
DELUXE = base_catalog(None, "deluxe")
PROMO = CAT.by_id["FR55"]  # this tool's id of the promo Phoenix (cards/base.yaml)
DELUXE_PHOENIX = DELUXE.by_id["FR55D"]  # and of the Deluxe Phoenix (cards/deluxe.yaml)

# The two examples of the web scorer's codes.
WEB_EXAMPLE = "FR49,FR44,FR30,FR55P,FR08,FR04,FR20+FR49:FR55P:weather"
NO_CHOICE = "FR21,FR45,FR13+"


def names(hand: Hand) -> list[str]:
    return [c.name for c in hand.cards]


# --------------------------------------------------------------------------------------------
# Reading the web scorer's codes
# --------------------------------------------------------------------------------------------


def test_the_web_scorers_code_lists_every_card_then_the_choices() -> None:
    hand = parse_code(WEB_EXAMPLE, CAT)
    # FR49 Book of Changes, FR44 Elven Longbow, FR30 Enchantress, FR55P the promo Phoenix,
    # FR08 Great Flood, FR04 Forest, FR20 Fire Elemental; Book of Changes makes Phoenix a
    # Weather ("weather" is the suit in lower case).
    assert names(hand) == ["Book of Changes", "Elven Longbow", "Enchantress", "Phoenix",
                           "Great Flood", "Forest", "Fire Elemental"]
    assert hand.cards[3] is PROMO
    assert dict(hand.choices) == {"FR49": (PROMO, "Weather")}


def test_a_code_without_choices_ends_with_a_bare_plus() -> None:
    hand = parse_code(NO_CHOICE, CAT)
    assert names(hand) == ["Knights", "War Dirigible", "Smoke"]
    assert dict(hand.choices) == {}
    # Knights 20 - 8 (no Leader); War Dirigible 35 (an Army, and Smoke, its only Weather, is
    # blanked with no Flame); Smoke blanked.
    assert resolve(hand).total == 12 + 35


def test_FR55_is_the_deluxe_phoenix_and_names_the_deluxe_edition() -> None:
    assert share_game("FR55,FR01+") == (None, "deluxe")
    shared = read_share("FR55,FR01+")
    assert shared.edition == "deluxe" and shared.hand.cards[0] is DELUXE_PHOENIX
    assert share_game("FR55P,FR01+") == (None, "standard")
    with pytest.raises(ScorerError, match="FR55 is a card of the deluxe edition; run with "
                                          "--edition deluxe"):
        parse_code("FR55,FR01+", CAT)


def test_ids_are_case_insensitive_and_a_bare_number_is_a_base_card() -> None:
    # The web scorer reads '49' as FR49 and '12' as FR12.
    hand = parse_code("49,12+49:12:beast", CAT)
    assert names(hand) == ["Book of Changes", "Blizzard"]
    assert dict(hand.choices) == {"FR49": (CAT.by_id["FR12"], "Beast")}
    assert names(parse_code("fr21,fr45+", CAT)) == ["Knights", "War Dirigible"]


def test_every_kind_of_choice_reads() -> None:
    # Doppelgänger as Basilisk (a card in hand), Mirage as Rainstorm and Shapeshifter as
    # Sword of Keth (cards of the game), Island clearing Wildfire.
    hand = parse_code("FR37,FR53,FR52,FR51,FR09,FR16+FR53:FR37,FR52:FR11,FR51:FR43,"
                      "FR09:FR16", CAT)
    assert {k: v.name for k, v in hand.choices.items()} == {
        "FR53": "Basilisk", "FR52": "Rainstorm", "FR51": "Sword of Keth", "FR09": "Wildfire"}
    # Angel (CH08) protecting Knights, in a Cursed Hoards code.
    hand = parse_code("CH08,FR21,CH39+CH08:FR21", EXP)
    assert names(hand) == ["Angel", "Knights"] and [c.name for c in hand.cursed] == [
        "Treasure Chest"]
    assert hand.choices["CH08"] is EXP.by_id["FR21"]


def test_a_chooser_without_a_choice_is_open() -> None:
    assert parse_code("FR52,FR01+", CAT).open_choices == [CAT.by_id["FR52"]]


def test_the_older_form_still_reads() -> None:
    # This tool's earlier codes: choosers only after '+', inline choices, ID:none, FR55 the
    # promo Phoenix (its own id).
    old = parse_code("FR01,FR08,FR13,FR14,FR15,FR16+FR52:FR11", CAT)
    assert names(old) == ["Mountain", "Great Flood", "Smoke", "Whirlwind", "Air Elemental",
                          "Wildfire", "Mirage"]
    assert old.choices["FR52"] is CAT.by_id["FR11"]
    assert parse_code("FR53:FR37,FR37", CAT).choices["FR53"] is CAT.by_id["FR37"]
    assert parse_code("FR52:none", CAT).choices == {"FR52": None}
    assert parse_code("FR55,FR01", CAT).cards[0] is PROMO
    assert share_game("FR55,FR01") == (None, "standard")


# --------------------------------------------------------------------------------------------
# Page links
# --------------------------------------------------------------------------------------------

LINK = ("https://fantasy-realms.github.io/?expansions=ch_items,ch_suits&playerCount=4"
        "&hand=CH12,FR31,CH24{plus}&discard=FR36,CH05")


@pytest.mark.parametrize("plus", ["+", "%2B", "%2b", " "])
def test_a_page_link_carries_the_discard_area_players_and_expansion(plus: str) -> None:
    shared = read_share(LINK.format(plus=plus))
    assert shared.expansion == "cursed-hoards" and shared.players == 4 and shared.is_link
    assert names(shared.hand) == ["Ghoul", "King"]
    assert [c.name for c in shared.hand.cursed] == ["Spyglass"]
    assert [c.name for c in shared.discard] == ["Unicorn", "Garden"]
    # Ghoul 8 + 4 per Wizard, Leader, Army, Beast, Undead in the discard area (Unicorn, a
    # Beast; Garden is a Land) = 12; King 8 (no Army); Spyglass -1 with 4 players.
    assert resolve(shared.hand).total == 12 + 8 - 1


def test_a_link_without_discard_shows_an_empty_discard_area() -> None:
    shared = read_share("https://fantasy-realms.github.io/index.html?expansions=ch_suits"
                        "&playerCount=3&hand=CH12,FR31%2B")
    assert shared.discard == ()
    assert resolve(shared.hand).total == 8 + 8  # Ghoul scores nothing from an empty area


def test_this_tools_own_page_links_read_too() -> None:
    shared = read_share("http://127.0.0.1:8000/?code=FR37,FR53%2BFR53:FR37&lang=de")
    assert names(shared.hand) == ["Basilisk", "Doppelgänger"] and shared.lang == "de"


def test_a_links_language_is_the_language_printed() -> None:
    from click.testing import CliRunner

    link = "http://127.0.0.1:8000/?code=FR01,FR37%2B&lang=de"
    out = CliRunner().invoke(main, ["--code", link]).output
    assert "Gebirge" in out and "Mountain" not in out  # Mountain in German
    out = CliRunner().invoke(main, ["--code", link, "--lang", "fr"]).output
    assert "Montagne" in out  # --lang says otherwise


@pytest.mark.parametrize("link,message", [
    ("https://fantasy-realms.github.io/?hand=FR21%2B&foo=1", "'foo' is not a parameter"),
    ("https://fantasy-realms.github.io/?discard=FR21", "the link has no hand="),
    ("https://fantasy-realms.github.io/?expansions=rrg_edition&hand=FR21%2B",
     "unknown expansion 'rrg_edition' in the link"),
    ("https://fantasy-realms.github.io/?playerCount=four&hand=FR21%2B",
     "playerCount must be a number"),
    ("https://fantasy-realms.github.io/?expansions=ch_suits&hand=CH12,CH24%2B",
     "CH24 (Spyglass) is a Cursed Item, but the link plays without them"),
    ("https://fantasy-realms.github.io/?hand=FR21,FR31%2B&discard=FR31",
     "King is both in the hand and in the discard area"),
    ("https://fantasy-realms.github.io/?hand=FR21%2B&hand=FR22%2B", "'hand' is given twice"),
    ("https://fantasy-realms.github.io/?expansions=ch_items&hand=FR31,CH24%2B",
     "CH24 (Spyglass) is a Cursed Item of a link that plays them without the cursed-hoards "
     "cards (expansions=ch_items)"),
])
def test_bad_links_are_one_line_errors(link: str, message: str) -> None:
    with pytest.raises(ScorerError) as e:
        read_share(link)
    assert message in str(e.value) and "\n" not in str(e.value)


def test_a_link_may_repeat_the_command_line_not_contradict_it() -> None:
    link = LINK.format(plus="%2B")
    assert read_share(link, players=4, expansion="cursed-hoards").players == 4
    with pytest.raises(ScorerError, match="playerCount=4 but the command line says "
                                          "--players 3"):
        read_share(link, players=3)
    with pytest.raises(ScorerError, match="the link carries a discard area and --discard "
                                          "gives one too"):
        read_share(link, discard=(EXP.by_id["FR32"],))


# --------------------------------------------------------------------------------------------
# Printing
# --------------------------------------------------------------------------------------------


def test_printed_codes_list_every_card_then_the_choices() -> None:
    h260 = load_hand((ROOT / "examples" / "hand-260.txt").read_text(encoding="utf-8"), "h")
    # Mountain FR01, Great Flood FR08, Smoke FR13, Whirlwind FR14, Air Elemental FR15,
    # Wildfire FR16, Mirage FR52 (as Rainstorm, FR11).
    assert share_code(h260) == "FR01,FR08,FR13,FR14,FR15,FR16,FR52+FR52:FR11"
    assert share_code(hand_of("King", "Queen")) == "FR31,FR32+"
    assert share_code(hand_of("Book of Changes: Blizzard -> Beast", "Blizzard")) == \
        "FR49,FR12+FR49:FR12:beast"
    # A choice deliberately left unassigned is written 'none', so that it reads back as
    # none, not as an open choice the optimizer would make (issue 39).
    assert share_code(hand_of("Shapeshifter: none", "King")) == "FR51,FR31+FR51:none"
    assert share_code(parse_code(WEB_EXAMPLE, CAT)) == WEB_EXAMPLE
    assert share_code(parse_code(NO_CHOICE, CAT)) == NO_CHOICE


def test_printed_codes_use_the_web_scorers_phoenix_ids() -> None:
    assert share_code(hand_of("Phoenix", "King")) == "FR55P,FR31+"
    deluxe = load_hand("edition: deluxe\nPhoenix\nKing\n", "h")
    assert share_code(deluxe) == "FR55,FR31+"


def test_a_card_allowing_an_extra_card_is_printed_first() -> None:
    # The web scorer's loader adds cards in order and refuses an 8th card unless the card
    # allowing it is already in: Necromancer (FR28) goes first.
    hand = hand_of("King", "Knights", "Light Cavalry", "Dwarvish Infantry", "Elven Archers",
                   "Rangers", "Warlord", "Necromancer")
    assert share_code(hand) == "FR28,FR31,FR21,FR23,FR24,FR22,FR25,FR34+"


def test_a_hand_with_a_table_prints_as_a_page_link() -> None:
    hand = load_hand("expansion: cursed-hoards\nplayers: 3\nGhoul\nKing\n[cursed items]\n"
                     "Spyglass\n[discard]\nUnicorn\nGarden\n", "h")
    assert share_link(hand) == share_text(hand) == (
        "https://fantasy-realms.github.io/?expansions=ch_items,ch_suits&playerCount=3"
        "&hand=CH12,FR31,CH24+&discard=FR36,CH05")
    assert share_text(hand_of("King")) == "FR31+"  # a base hand needs no more than a code


def test_the_cursed_hoards_example_round_trips_through_the_command_line() -> None:
    from click.testing import CliRunner

    runner = CliRunner()
    example = str(ROOT / "examples" / "cursed-hoards.txt")
    printed = runner.invoke(main, ["--print-code", example])
    assert printed.exit_code == 0, printed.output
    link = printed.output.strip()
    assert link.startswith("https://fantasy-realms.github.io/?expansions=ch_items,ch_suits"
                           "&playerCount=4&hand=")
    direct = json.loads(runner.invoke(main, [example, "--json"]).output)
    back = json.loads(runner.invoke(main, ["--code", link, "--json"]).output)
    for key in ("total", "choices", "extra"):
        assert back[key] == direct[key], key

    def by_name(cards: list[dict]) -> list[dict]:
        return sorted(cards, key=lambda c: c["name"])

    assert by_name(back["cards"]) == by_name(direct["cards"])  # Necromancer is printed first
    # Necromancer's extra card (Beastmaster, taken from the discard area), the four Cursed
    # Items, and the discard area without the card taken.
    assert direct["extra"] == [{"card": "Beastmaster", "by": "Necromancer",
                                "from": "discard area"}]
    assert link.endswith("&discard=FR31,FR36,FR41")  # King, Unicorn, Warship


def test_print_code_with_json_gives_both_forms() -> None:
    from click.testing import CliRunner

    r = CliRunner().invoke(main, ["--print-code", "--json", "--code", NO_CHOICE])
    assert json.loads(r.output) == {"code": NO_CHOICE, "link":
                                    "https://fantasy-realms.github.io/?hand=" + NO_CHOICE}


# --------------------------------------------------------------------------------------------
# What the web scorer's loader does with what is printed
# --------------------------------------------------------------------------------------------


def web_loader(code: str, catalog) -> tuple[list[str], dict[str, list[str]]]:
    """A model of the web scorer's hand loader, written from how it behaves: split at the one
    '+', add the ids in order (a card past the hand size is refused unless a card with an
    extra-card effect is already in, or is the card added), then apply 'ID:a:b' actions."""
    ids, actions = code.split("+")  # it needs the '+', or it fails
    by_code = catalog.by_code
    held: list[str] = []
    size = catalog.hand_size
    for cid in ids.split(","):
        card = by_code[cid]
        in_hand = [by_code[h] for h in held if not by_code[h].cursed]
        if not card.cursed and len(in_hand) >= size:
            givers = [by_code[h] for h in held if by_code[h].extra is not None]
            if not givers and card.extra is None:
                continue  # refused
        held.append(cid)
    choices = {}
    for action in actions.split(","):
        parts = action.split(":")
        if len(parts) > 1:
            choices[parts[0]] = parts[1:]
    return held, choices


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(legal_hands())
def test_the_web_loader_takes_every_card_and_choice_printed(hand: Hand) -> None:
    held, choices = web_loader(share_code(hand), CAT)
    assert sorted(held) == sorted(c.code_id for c in hand.cards)
    made = {c.code_id for c in hand.cards if c.id in hand.choices}  # 'none' too (issue 39)
    assert set(choices) == made


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(legal_hands())
def test_print_then_read_gives_the_same_hand(hand: Hand) -> None:
    back = parse_code(share_code(hand), CAT)
    assert list(back.cards) == sorted(hand.cards, key=lambda c: c.extra is None)
    assert dict(back.choices) == dict(hand.choices)  # an explicit none too (issue 39)
    assert share_code(back) == share_code(hand)
    if not hand.open_choices and all(v is not None for v in hand.choices.values()):
        assert resolve(back).total == resolve(hand).total


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands(EXP))
def test_expansion_hands_round_trip_through_links(hand: Hand) -> None:
    shared = read_share(share_text(hand))
    back = shared.hand
    assert shared.expansion == "cursed-hoards" and back.players == hand.players
    assert set(back.cards) == set(hand.cards) and set(back.cursed) == set(hand.cursed)
    assert tuple(back.discard or ()) == tuple(hand.discard or ())
    assert dict(back.choices) == dict(hand.choices)  # an explicit none too (issue 39)
    assume(all(v is not None for v in hand.choices.values()) and not hand.open_choices)
    assert resolve(back).total == resolve(hand).total


# --------------------------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("code,message", [
    ("", "the share code is empty"),
    ("+", "the share code is empty"),
    ("FR21,,FR45", "empty item at position 2; remove the extra comma"),
    ("FR21+FR45+FR13", "at most one '+'"),
    ("FR99+", "unknown card id 'FR99' in 'FR99' (did you mean"),
    ("Knights", "unknown card id 'Knights'"),
    ("FR21,FR21+", "FR21 (Knights) appears twice"),
    ("FR21,FR49,FR12+FR49:FR12:beast,FR49:FR21:army", "FR49 has two choices"),
    ("FR21,FR01+FR21:FR01", "FR21 (Knights) makes no choice; remove ':FR01'"),
    ("FR53,FR37+FR53:", "empty choice in 'FR53:'"),
    ("FR49,FR12+FR49:FR12", "FR49 (Book of Changes) needs 'FR49:TARGET_ID:suit'"),
    ("FR49,FR12+FR49:FR12:beest", "unknown suit 'beest' in 'FR49:FR12:beest' (one of land,"),
    ("FR52,FR01+FR52:FR31", "Mirage cannot become King (Leader)"),
    ("FR53,FR01+FR53:FR37", "Doppelgänger copies a card in hand; Basilisk is not in hand"),
    ("FR09,FR12+FR09:FR12", "Island may clear only a Flood or Flame; Blizzard is not one"),
    ("FR01,FR02,FR03,FR04,FR05,FR06,FR07,FR08+", "8 cards in hand, at most 7 allowed"),
    ("CH12,FR21+", "CH12 is a card of the cursed-hoards expansion; run with --expansion "
                   "cursed-hoards"),
])
def test_errors_are_one_line(code: str, message: str) -> None:
    with pytest.raises(ScorerError) as e:
        parse_code(code, CAT)
    text = str(e.value)
    assert text.startswith("share code: ")
    assert message in text
    assert "\n" not in text


def test_a_replaced_base_card_in_an_expansion_code_names_its_replacement() -> None:
    # Cursed Hoards replaces Great Flood FR08 by CH18 (cards/cursed-hoards.yaml).
    with pytest.raises(ScorerError, match="this game replaces it by CH18 .Great Flood."):
        read_share("FR08,CH14+")


def test_a_code_without_its_discard_area_says_how_to_give_one() -> None:
    with pytest.raises(ScorerError, match="Ghoul scores the discard area .C5., which a share "
                                          "code does not carry; give --discard"):
        parse_code("CH12+", EXP)
    assert resolve(parse_code("CH12+", EXP, discard=(EXP.by_id["FR31"],))).total == 8 + 4


def test_a_long_code_is_quoted_short() -> None:
    with pytest.raises(ScorerError) as e:
        parse_code("FR21," + "X" * 5000 + "+", CAT)
    assert len(str(e.value)) < 200 and "…" in str(e.value)


def test_the_page_keeps_reading_its_own_codes() -> None:
    # The page (fantasy_scorer.web) still keys its links by the older form until it moves.
    cards, raw = read_items("FR37,FR01+FR53:FR37", CAT)
    assert [c.id for c in cards] == ["FR37", "FR01", "FR53"] and raw["FR53"][0] == ["FR37"]
    assert hand_code(hand_of("Doppelgänger: King", "King")) == "FR31+FR53:FR31"
