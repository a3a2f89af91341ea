"""The fr-score command: output shapes, several files, stdin, and one-line errors (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import run, write

ROOT = Path(__file__).resolve().parent.parent


def test_scores_a_shipped_example() -> None:
    r = run([str(ROOT / "examples" / "hand-260.txt")])
    assert r.exit_code == 0, r.output
    assert "Mirage as Rainstorm" in r.output
    total = next(line for line in r.output.splitlines() if line.startswith("Total"))
    assert total.split()[-1] == "260"


def test_json_has_exactly_the_documented_shape() -> None:
    r = run([str(ROOT / "examples" / "hand-380.txt"), "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert set(data) - {"percentile"} == {"file", "total", "cards", "choices", "extra", "notes"}
    assert data["extra"] == [] and data["notes"] == []
    assert data["total"] == 380
    assert data["choices"] == {"Book of Changes": "Gem of Order -> Wizard"}
    keys = {"name", "as", "suit", "base", "bonus", "penalty", "points", "blanked", "cleared",
            "status", "reasons"}
    for card in data["cards"]:
        assert set(card) == keys
        expected = 0 if card["blanked"] else card["base"] + card["bonus"] + card["penalty"]
        assert card["points"] == expected
    gem = next(c for c in data["cards"] if c["name"] == "Gem of Order")
    assert gem == {"name": "Gem of Order", "as": "Gem of Order", "suit": "Wizard", "base": 5,
                   "bonus": 150, "penalty": 0, "points": 155, "blanked": False,
                   "cleared": False, "status": "suit changed by Book of Changes",
                   "reasons": [{"key": "status.changed", "args": {"card": "Book of Changes"}}]}


def test_several_files_give_one_json_line_each(tmp_path: Path) -> None:
    a = write(tmp_path, "a.txt", "Blizzard\nGreat Flood\nWildfire\n")
    b = write(tmp_path, "b.txt", "Knights\nWar Dirigible\nSmoke\n")
    r = run([a, b, "--json"])
    assert r.exit_code == 0, r.output
    lines = r.output.strip().splitlines()
    assert [json.loads(x)["total"] for x in lines] == [65, 47]


def test_several_files_in_text_are_titled(tmp_path: Path) -> None:
    a = write(tmp_path, "a.txt", "Blizzard\nGreat Flood\nWildfire\n")
    b = write(tmp_path, "b.txt", "Knights\nWar Dirigible\nSmoke\n")
    r = run([a, b])
    assert r.exit_code == 0
    assert a in r.output and b in r.output


def test_reads_stdin() -> None:
    r = run(["-", "--json"], stdin="Water Elemental\nDoppelganger: Water Elemental\n")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["total"] == 23


def test_blanked_and_cleared_flags() -> None:
    r = run(["-", "--json"], stdin="Island: Wildfire\nBlizzard\nWildfire\nBasilisk\n")
    data = json.loads(r.output)
    by = {c["name"]: c for c in data["cards"]}
    assert by["Island"]["blanked"] and by["Island"]["points"] == 0
    assert by["Wildfire"]["cleared"] and not by["Wildfire"]["blanked"]
    assert data["total"] == 95


def test_names_are_case_and_accent_insensitive_with_aliases() -> None:
    text = "doppelganger: WATER elemental\nwater elemental\n"
    assert json.loads(run(["-", "--json"], stdin=text).output)["total"] == 23
    # "Animal" is Beast; "Book of Transfiguration" is Book of Changes.
    text = "Book of Transfiguration: Knights -> Animal\nKnights\nBeastmaster\n"
    data = json.loads(run(["-", "--json"], stdin=text).output)
    # Knights, now a Beast, count for Beastmaster (+9) and have their penalty cleared by it.
    assert data["total"] == 3 + 20 + 18


def test_comments_and_blank_lines_are_ignored() -> None:
    text = "# my hand\n\nKnights   # the army\n\n  King  \n"
    assert json.loads(run(["-", "--json"], stdin=text).output)["total"] == 20 + 13


def test_help_is_clear() -> None:
    r = run(["--help"])
    assert r.exit_code == 0
    assert "fr-score hand.txt" in r.output
    r = run(["score", "--help"])
    assert "Book of Changes: Blizzard -> Beast" in r.output


ERRORS = [
    ("Knights\nBasilik\n", ":2: unknown card 'Basilik' (did you mean 'Basilisk'?)"),
    ("Knights\nKing\nknights\n", ":3: Knights is listed twice (also line 1)"),
    ("# nothing\n", "no cards in the hand"),
    ("Knights\nKing\nQueen\nPrincess\nWarlord\nEmpress\nUnicorn\nDragon\n",
     ":8: 8 cards in hand, at most 7 allowed; an 8th card needs Necromancer"),
    ("Necromancer\nMountain\nCavern\nForest\nSwamp\nIsland\nSmoke\nWildfire\n",
     ":8: Necromancer's extra card must be"),
    ("Knights\nDoppelgänger: Rainstorm\n", ":2: Doppelgänger copies a card in hand; "
     "Rainstorm is not in hand"),
    ("Knights\nIsland: Knights\n", ":2: Island may clear only a Flood or Flame"),
    ("Mirage: King\nKnights\n", ":1: Mirage cannot become King (Leader)"),
    ("Book of Changes: Book of Changes -> Army\nKnights\n", ":1: Book of Changes may not "
     "change its own suit (R3)"),
    ("Book of Changes: Knights\nKnights\n", ":1: write Book of Changes's choice as "
     "'CARD -> SUIT'"),
    ("Book of Changes: Knights -> Armmy\nKnights\n", ":1: unknown suit 'Armmy' "
     "(did you mean 'Army'?)"),
    ("Knights: King\nKing\n", ":1: Knights makes no choice; remove ': King'"),
    ("Mirage:\nKnights\n", ":1: nothing after ':' for Mirage"),
]


@pytest.mark.parametrize(("text", "message"), ERRORS)
def test_bad_input_is_one_line_exit_2(text: str, message: str) -> None:
    r = run(["-"], stdin=text)
    assert r.exit_code == 2
    err = r.stderr if hasattr(r, "stderr") else r.output
    assert err.startswith("Error: ")
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in r.output


def test_missing_file_is_exit_2() -> None:
    r = run(["no-such-hand.txt"])
    assert r.exit_code == 2
    assert "no such file: no-such-hand.txt" in r.stderr


def test_homebrew_cards(tmp_path: Path) -> None:
    cards = write(tmp_path, "home.yaml", """
cards:
  - id: HB01
    name: Sea Serpent
    suit: Beast
    strength: 20
    text: "+10 per Flood. Penalty: blanked unless with Swamp or Island."
    bonus:
      - {points: 10, per: [Flood]}
    penalty:
      - {blanked_unless: [Swamp, Island]}
""")
    r = run(["-", "--json", "--cards", cards], stdin="Sea Serpent\nIsland\nSwamp\n")
    assert r.exit_code == 0, r.output
    # Serpent 20 + 20; Island 14; Swamp 18.
    assert json.loads(r.output)["total"] == 40 + 14 + 18


def test_malformed_homebrew_yaml_names_the_line(tmp_path: Path) -> None:
    cards = write(tmp_path, "bad.yaml", "cards:\n  - id: HB01\n    name: [oops\n")
    r = run(["-", "--cards", cards], stdin="Knights\n")
    assert r.exit_code == 2
    assert "bad.yaml:" in r.stderr and "malformed YAML" in r.stderr


def test_homebrew_unknown_key_names_the_line(tmp_path: Path) -> None:
    cards = write(tmp_path, "bad.yaml", """cards:
  - id: HB01
    name: Odd
    suit: Beast
    strength: 2
    bonsu: []
""")
    r = run(["-", "--cards", cards], stdin="Knights\n")
    assert r.exit_code == 2
    assert "bad.yaml:2: unknown card key 'bonsu' (did you mean 'bonus'?)" in r.stderr
