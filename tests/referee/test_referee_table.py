"""``fr-score game``: a whole table, validated as a whole and ranked (issue 4, part 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fantasy_scorer.cli.main import main
from fantasy_scorer.errors import ScorerError
from fantasy_scorer.realms.formats.table import read_table, verdict
from fantasy_scorer.realms.ranking import rank
from fantasy_scorer.realms.solve.api import rank_hands, score_hand

from .conftest import hand_of, result_of

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "table.yaml"

# Hand-computed from the rules (printed strength + bonus + penalty per card):
# Alice: King 8 + 5 x 5 Armies = 33; Knights 20 (a Leader is in hand); Light Cavalry 17 (no
#   Land); Dwarvish Infantry 15 (Rangers clears the word Army, R6); Elven Archers 10 + 5 (no
#   Weather) = 15; Warlord 4 + 20 + 17 + 15 + 10 + 5 = 71; Rangers 5 (no Land).
#   Total 176; base strength 8 + 20 + 17 + 15 + 10 + 4 + 5 = 79.
# Bob: Swamp 18 (no Army, no Flame); Hydra 12 + 28 = 40; Forest 7 + 12 x 3 Beasts (Hydra,
#   Unicorn, Doppelgänger as Hydra) = 43; Unicorn 9; Earth Elemental 4 + 15 (Forest) = 19;
#   Doppelgänger as Hydra 12; Water Elemental 4 + 15 (Swamp) = 19.
#   Total 160; base strength 18 + 12 + 7 + 9 + 4 + 0 + 4 = 54.
# Carol: Fire Elemental 4 + 15 x 2 (Forge, Candle) = 34; Forge 9 + 9 x 2 (Sword, Shield) = 27;
#   Princess 2; Candle 2; Sword of Keth 7 + 40 = 47; Shield of Keth 4 + 40 = 44;
#   Warhorse 6 + 14 = 20. Total 176; base strength 4 + 9 + 2 + 2 + 7 + 4 + 6 = 34.
# Alice and Carol tie on 176: Carol's lower base strength (34 < 79) wins.


def table(text: str):
    return read_table(text, "table.yaml")


def score_table(t):
    return rank_hands((seat.player, seat.hand) for seat in t.seats)


def test_the_example_table_tie_is_broken_by_base_strength() -> None:
    t = read_table(EXAMPLE.read_text(encoding="utf-8"), "table.yaml")
    assert t.players == 3 and len(t.discard) == 10
    standings = score_table(t)
    assert [(s.rank, s.player, s.total, s.base_strength) for s in standings] == [
        (1, "Carol", 176, 34), (2, "Alice", 176, 79), (3, "Bob", 160, 54)]
    assert [s.tie_on_total for s in standings] == [True, True, False]
    assert not any(s.shared for s in standings)
    assert verdict(standings) == ("Winner: Carol (176 points; tie on total with Alice, broken by "
                                  "the lower base strength 34 < 79)")


# Two hands of 83 points and base strength 47 (hand-computed):
# Dana: Bell Tower 8 (no Wizard); Fountain of Life 1 + 11 (Lightning) = 12; Water Elemental
#   4 + 15 (Fountain) = 19; Forge 9; Lightning 11 (no Rainstorm); Rangers 5 + 10 (Bell Tower)
#   = 15; Unicorn 9. Base 8 + 1 + 4 + 9 + 11 + 5 + 9 = 47.
# Eve: Forest 7 + 12 (Hydra) = 19; Earth Elemental 4 + 15 (Forest) = 19; Air Elemental 4;
#   Beastmaster 9 + 9 (Hydra) = 18; Hydra 12; Sword of Keth 7; Shield of Keth 4 (no Leader).
#   Base 7 + 4 + 4 + 9 + 12 + 7 + 4 = 47.
# Finn: Smoke blanked (no Flame); Warship blanked (no Flood); War Dirigible 35 (an Army, no
#   Weather left); Knights 20 - 8 = 12; Light Cavalry 17; Dwarvish Infantry 15 - 2 x 2 = 11;
#   Magic Wand 1. Total 76.
SHARED = """\
discard: [King]
hands:
  Dana: [Bell Tower, Fountain of Life, Water Elemental, Forge, Lightning, Rangers, Unicorn]
  Eve: [Forest, Earth Elemental, Air Elemental, Beastmaster, Hydra, Sword of Keth, Shield of Keth]
  Finn: [Knights, War Dirigible, Smoke, Light Cavalry, Dwarvish Infantry, Warship, Magic Wand]
"""


def test_a_tie_that_stays_shared() -> None:
    standings = score_table(table(SHARED))
    assert [(s.rank, s.player, s.total, s.base_strength, s.shared) for s in standings] == [
        (1, "Dana", 83, 47, True), (1, "Eve", 83, 47, True), (3, "Finn", 76, 138, False)]
    assert verdict(standings) == "Shared win: Dana and Eve (83 points, base strength 47)"


def test_rank_orders_by_total_then_lowest_base_strength() -> None:
    low = result_of("King")           # 8 points, base 8
    high = result_of("Warlord", "Queen")  # 4 + 6 = 10, base 10
    same = result_of("Light Cavalry")  # 17
    standings = rank([("a", low), ("b", high), ("c", same), ("d", result_of("Queen", "Warlord"))])
    assert [(s.rank, s.player) for s in standings] == [(1, "c"), (2, "b"), (2, "d"), (4, "a")]


def test_score_hand_scores_open_choices_unassigned_for_now() -> None:
    hand = hand_of("Mirage", "Whirlwind", "Rainstorm", "Blizzard")
    assert score_hand(hand).total == result_of("Mirage", "Whirlwind", "Rainstorm",
                                               "Blizzard").total


ALICE = "Mountain, Great Flood, Smoke, Whirlwind, Air Elemental, Wildfire, Mirage"
BOB = "King, Queen, Knights, Rangers, Elven Archers, Light Cavalry, Warhorse"
CY = "Forge, Candle, Lightning, Fire Elemental, Sword of Keth, Shield of Keth, Gem of Order"


@pytest.mark.parametrize("text,message", [
    (f"hands:\n  Alice: [{ALICE}]\n  Bob: [{BOB.replace('Warhorse', 'Smoke')}]\n",
     "table.yaml: Bob: line 3: Smoke is also in Alice's hand (line 2); each card exists once "
     "in the game"),
    (f"discard: [Forge, King]\nhands:\n  Alice: [{ALICE}]\n  Bob: [{BOB}]\n",
     "table.yaml: Bob: line 4: King is also in the discard area (line 1); each card exists once"),
    (f"discard: [Forge, Forge]\nhands:\n  Alice: [{ALICE}]\n  Bob: [{BOB}]\n",
     "table.yaml: discard: line 1: Forge is also in the discard area (line 1)"),
    ("discard: [Forge, Candle, Lightning, Swamp, Island, Hydra, Dragon, Unicorn, Basilisk, "
     f"Warship, Collector]\nhands:\n  Alice: [{ALICE}]\n  Bob: [{BOB}]\n",
     "table.yaml:1: the discard area holds 11 cards; the game ends when it holds 10"),
    (f"hands:\n  Alice: [{ALICE}]\n  Bob: [King, Queen]\n",
     "table.yaml: Bob: line 3: 2 cards; at game end a hand holds 7"),
    (f"hands:\n  Alice: [{ALICE}]\n", "table.yaml: 1 players; Fantasy Realms is played by 2 to 6"),
    (f"players: 1\nhands:\n  Alice: [{ALICE}]\n", "table.yaml:1: 1 players;"),
    (f"players: 2\nhands:\n  Alice: [{ALICE}]\n  Bob: [{BOB}]\n  Cy: [{CY}]\n",
     "table.yaml:1: players: 2, but 3 hands are given"),
    (f"players: two\nhands:\n  Alice: [{ALICE}]\n", "'players' must be a whole number"),
    (f"hand:\n  Alice: [{ALICE}]\n", "table.yaml:1: unknown key 'hand' (did you mean 'hands'?)"),
    ("players: 2\n", "'hands' maps each player's name to a hand"),
    ("hands: [1, 2\n", "table.yaml:2: malformed YAML"),
    (f"hands:\n  Alice: [{ALICE}]\n  Bob: |\n    King\n    Kingg\n",
     "table.yaml: Bob: line 5: unknown card 'Kingg' (did you mean 'King'?)"),
    (f"hands:\n  Alice: [{ALICE}]\n  Bob:\n    - King\n    - 'Doppelgänger: Forge'\n",
     "table.yaml: Bob: line 5: Doppelgänger copies a card in hand; Forge is not in hand"),
    (f"hands:\n  Alice: [{ALICE}]\n  Bob: {{King: 1}}\n",
     "table.yaml: Bob: line 3: a hand is a list of cards or a block of hand-file lines"),
])
def test_the_table_is_validated_as_a_whole(text: str, message: str) -> None:
    with pytest.raises(ScorerError) as e:
        table(text)
    assert message in str(e.value)
    assert "\n" not in str(e.value)


def test_hand_forms_unquoted_choices_and_languages() -> None:
    t = table(
        "players: 2\n"
        "hands:\n"
        f"  Alice: [{ALICE.replace('Mirage', 'Mirage: Rainstorm')}]\n"
        "  Bob:\n"
        "    - König\n"          # German
        "    - Reine\n"          # French
        "    - Knights\n"
        "    - Rangers\n"
        "    - Elven Archers\n"
        "    - Light Cavalry\n"
        "    - Doppelgänger: Knights\n"  # unquoted: YAML reads a mapping, taken as the line
    )
    assert t.players == 2
    by_player = {s.player: s for s in score_table(t)}
    assert by_player["Alice"].total == 260
    assert {k: v.name for k, v in by_player["Bob"].result.hand.choices.items()} == {
        "FR53": "Knights"}


def test_cli_game_ranking_json_and_errors(runner, tmp_path) -> None:
    res = runner.invoke(main, ["game", str(EXAMPLE)])
    assert res.exit_code == 0, res.output
    assert res.output.splitlines() == [
        "Rank  Player  Total  Base strength",
        "   1  Carol     176             34  tie on total: base strength decides",
        "   2  Alice     176             79  tie on total: base strength decides",
        "   3  Bob       160             54",
        "Winner: Carol (176 points; tie on total with Alice, broken by the lower base "
        "strength 34 < 79)",
    ]
    data = json.loads(runner.invoke(main, ["game", str(EXAMPLE), "--json"]).output)
    assert data["winners"] == ["Carol"]
    assert data["players"] == 3 and data["discard"][0] == "Blizzard"
    assert [(p["player"], p["rank"], p["result"]["total"]) for p in data["ranking"]] == [
        ("Carol", 1, 176), ("Alice", 2, 176), ("Bob", 3, 160)]
    res = runner.invoke(main, ["game", str(EXAMPLE), "--sheets", "--lang", "de"])
    assert "\nCarol\nKarte" in res.output and "Feuerwesen" in res.output
    bad = tmp_path / "t.yaml"
    bad.write_text(f"hands:\n  Alice: [{ALICE}]\n", encoding="utf-8")
    res = runner.invoke(main, ["game", str(bad)])
    assert res.exit_code == 2
    assert res.output == f"Error: {bad}: 1 players; Fantasy Realms is played by 2 to 6\n"


EXPANSION_TABLE = """\
expansion: cursed-hoards
players: 2
discard: [King, Unicorn, Warship, Beastmaster]
hands:
  Alice: |
    Lich
    Necromancer
    Dungeon
    Ghoul
    Angel: Knights
    Knights
    Demon
    Wildfire
    [cursed items]
    Treasure Chest
    Rake
    Sarcophagus
    Backpack
  Bob: [Castle, Chapel, Crypt, Garden, Judge, Leprechaun, Specter, Dark Queen]
"""


def test_an_expansion_table_gives_every_hand_the_discard_area_and_players() -> None:
    t = table(EXPANSION_TABLE)
    assert t.players == 2
    alice = next(s for s in t.seats if s.player == "Alice")
    assert [c.name for c in alice.hand.discard] == ["King", "Unicorn", "Warship", "Beastmaster"]
    assert alice.hand.players == 2
    by_player = {s.player: s for s in score_table(t)}
    # The hand of examples/cursed-hoards.txt (135 as listed), but at the table Necromancer
    # takes its best extra card from the discard area (R13): Beastmaster. Necromancer is then
    # no longer the only Wizard, so Demon spares it (+3), Beastmaster scores 9, Lich gains +10
    # with Necromancer, and Ghoul loses 4 (one Wizard fewer in the discard area): 153.
    assert by_player["Alice"].total == 135 + 3 + 9 + 10 - 4
    assert "Beastmaster" in [c.name for c in by_player["Alice"].result.hand.cards]


@pytest.mark.parametrize("text,message", [
    (EXPANSION_TABLE.replace("    Rake\n", "    Rake\n    [discard]\n    Forge\n"),
     "table.yaml: Alice: line 18: the discard area belongs to the whole table"),
    (EXPANSION_TABLE.replace("    Lich\n", "    players: 3\n    Lich\n"),
     "table.yaml: Alice: line 6: 'players' belongs to the whole table"),
    (EXPANSION_TABLE.replace("discard: [King", "discard: [Rake, King"),
     "table.yaml: discard: line 3: Rake is a Cursed Item; it cannot be in the discard area"),
    (EXPANSION_TABLE.replace("expansion: cursed-hoards", "expansion: cursed"),
     "unknown expansion 'cursed'"),
])
def test_expansion_table_errors(text: str, message: str) -> None:
    with pytest.raises(ScorerError) as e:
        table(text)
    assert message in str(e.value)


def test_the_command_line_may_repeat_but_not_contradict_the_table(runner, tmp_path) -> None:
    path = tmp_path / "t.yaml"
    path.write_text(EXPANSION_TABLE, encoding="utf-8")
    assert runner.invoke(main, ["game", str(path), "--expansion", "cursed-hoards"]).exit_code == 0
    plain = tmp_path / "p.yaml"
    plain.write_text(SHARED, encoding="utf-8")
    res = runner.invoke(main, ["game", str(plain), "--edition", "deluxe"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(main, ["game", str(path), "--edition", "standard"])
    assert res.exit_code == 0
