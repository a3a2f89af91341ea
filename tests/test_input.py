"""Every loose end of input (issue 11 §4): nothing bent, nothing hidden, no traceback.

Each bad input is one ``Error:`` line naming the problem (and the line of the card it is
about) and the fix, with exit code 2; what the user gave is never silently dropped or
overridden.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from fantasy_scorer.cli.majesty import main as majesty_main

from .conftest import run, write

ROOT = Path(__file__).resolve().parent.parent
LATIN1 = "Mountain\nCaf\xe9\n".encode("latin-1")  # 'é' as one byte: not UTF-8
BOM = b"\xef\xbb\xbf"
HOMEBREW = """cards:
  - id: HB01
    name: Sea Serpent
    suit: Beast
    strength: 20
"""


def error_line(r) -> str:
    """The one line of an error, checking its shape."""
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), r.stderr
    return lines[0]


def write_bytes(tmp_path: Path, name: str, data: bytes) -> str:
    p = tmp_path / name
    p.write_bytes(data)
    return str(p)


# --------------------------------------------------------------------------------------------
# Encodings
# --------------------------------------------------------------------------------------------


def test_a_hand_file_that_is_not_utf8_is_one_line(tmp_path: Path) -> None:
    bad = write_bytes(tmp_path, "hand.txt", LATIN1)
    # The byte 0xe9 is on line 2.
    assert error_line(run([bad])) == (f"Error: {bad}:2: not UTF-8 text (byte 0xe9); save the "
                                      "file as UTF-8")
    assert "not UTF-8 text" in error_line(run(["-"], stdin=LATIN1))


@pytest.mark.parametrize("command", [["best"], ["game"], ["explain"]])
def test_every_command_reading_a_file_refuses_non_utf8(tmp_path: Path, command) -> None:
    bad = write_bytes(tmp_path, "in.txt", LATIN1)
    assert f"{bad}:2: not UTF-8 text" in error_line(run([*command, bad]))


@pytest.mark.parametrize("command", [[], ["best"], ["max"], ["explain"], ["serve"]])
def test_a_card_file_that_is_not_utf8_is_one_line(tmp_path: Path, command) -> None:
    cards = write_bytes(tmp_path, "home.yaml", HOMEBREW.encode() + b"# caf\xe9\n")
    hand = write(tmp_path, "h.txt", "King\nQueen\nKnights\nLight Cavalry\nRangers\n"
                 "Elven Archers\nWarlord\n")
    args = [*command, "--cards", cards] + ([] if command in (["max"], ["serve"]) else [hand])
    assert f"{cards}:6: not UTF-8 text (byte 0xe9)" in error_line(run(args))


def test_a_discard_file_that_is_not_utf8_is_one_line(tmp_path: Path) -> None:
    bad = write_bytes(tmp_path, "discard.txt", b"Queen\n\xff\n")
    assert "discard.txt:2: not UTF-8 text (byte 0xff)" in error_line(
        run(["-", "--discard", bad], stdin="Necromancer\nKing\n"))


def test_a_utf8_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    hand = write_bytes(tmp_path, "h.txt", BOM + "Doppelgänger: King\nKing\n".encode())
    r = run([hand, "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["total"] == 8 + 8  # King twice: no Army for either
    r = run(["-", "--json"], stdin=BOM + b"King\nQueen\n")
    assert json.loads(r.output)["total"] == 8 + 6
    cards = write_bytes(tmp_path, "home.yaml", BOM + HOMEBREW.encode())
    r = run(["-", "--json", "--cards", cards], stdin="Sea Serpent\n")
    assert json.loads(r.output)["total"] == 20
    table = write_bytes(tmp_path, "t.yaml", BOM + (ROOT / "examples" / "table.yaml")
                        .read_bytes())
    assert run(["game", table]).exit_code == 0


# --------------------------------------------------------------------------------------------
# Keys written twice
# --------------------------------------------------------------------------------------------


def test_a_card_file_with_a_key_twice_names_the_line(tmp_path: Path) -> None:
    cards = write(tmp_path, "home.yaml", HOMEBREW + "    strength: 30\n")
    assert error_line(run(["-", "--cards", cards], stdin="Sea Serpent\n")) == (
        f"Error: {cards}:6: the key 'strength' appears twice (also line 5); keep one")


def test_a_table_with_a_key_twice_names_the_line(tmp_path: Path) -> None:
    text = (ROOT / "examples" / "table.yaml").read_text(encoding="utf-8")
    table = write(tmp_path, "t.yaml", text + "discard: [King]\n")
    assert "appears twice (also line" in error_line(run(["game", table]))
    alice = text.index("  Alice:")
    twice = text[:alice] + "  Bob: [King]\n" + text[alice:]
    table = write(tmp_path, "t2.yaml", twice)
    assert "the key 'Bob' appears twice" in error_line(run(["game", table]))


def test_a_majesty_file_with_a_key_twice_names_the_line(tmp_path: Path) -> None:
    text = (ROOT / "examples" / "majesty-game.yaml").read_text(encoding="utf-8")
    game = write(tmp_path, "g.yaml", text.replace("side: A\n", "side: A\nside: B\n"))
    r = CliRunner().invoke(majesty_main, [game])
    assert r.exit_code == 2
    assert "line 4: the key 'side' appears twice; keep one" in r.output


# --------------------------------------------------------------------------------------------
# The table around a hand: players and the discard area
# --------------------------------------------------------------------------------------------

GENIE = "expansion: cursed-hoards\nplayers: 4\nGenie\nKing\n"


def test_players_on_the_command_line_and_in_the_file_must_agree(tmp_path: Path) -> None:
    hand = write(tmp_path, "h.txt", GENIE)
    assert error_line(run([hand, "--players", "3"])) == (
        f"Error: {hand}:2: the file says players: 4 but the command line says --players 3; "
        "keep one")
    r = run([hand, "--players", "4", "--json"])
    # Genie -50 + 10 per other player (3); King 8.
    assert json.loads(r.output)["total"] == -50 + 30 + 8
    pool = write(tmp_path, "pool.txt", GENIE + "Queen\nKnights\nRangers\nDragon\nHydra\n"
                 "Unicorn\n")
    assert "pool.txt:2: the file says players: 4 but the command line says --players 3" in \
        error_line(run(["best", pool, "--players", "3"]))


def test_a_table_must_list_every_players_hand(tmp_path: Path) -> None:
    text = (ROOT / "examples" / "table.yaml").read_text(encoding="utf-8")
    table = write(tmp_path, "t.yaml", text.replace("players: 3", "players: 4"))
    assert "players: 4, but 3 hands are given" in error_line(run(["game", table]))


@pytest.mark.parametrize("card,discard,total", [
    # Ghoul 8 + 4 per Wizard, Leader, Army, Beast, Undead: King (Leader), Unicorn (Beast).
    ("Ghoul", "King, Unicorn", 8 + 8),
    # Dark Queen 10 + 5 per Land, Flood, Flame, Weather and Unicorn: Mountain, Unicorn.
    ("Dark Queen", "Mountain, Unicorn", 10 + 10),
    # Specter 12 + 6 per Wizard, Artifact, Outsider: Beastmaster, Shield of Keth.
    ("Specter", "Beastmaster, Shield of Keth", 12 + 12),
    # Death Knight 14 + 7 per Weapon and Army: Warship, Knights.
    ("Death Knight", "Warship, Knights", 14 + 14),
])
def test_discard_is_the_discard_area_of_every_card_that_reads_it(card, discard, total) -> None:
    r = run(["-", "--expansion", "cursed-hoards", "--discard", discard, "--json"],
            stdin=f"{card}\n")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["total"] == total
    r = run(["-", "--expansion", "cursed-hoards", "--discard", discard, "--no-optimize",
             "--json"], stdin=f"{card}\n")
    assert json.loads(r.output)["total"] == total  # honoured without the optimizer too
    r = run(["explain", "-", "--expansion", "cursed-hoards", "--discard", discard, "--json"],
            stdin=f"{card}\n")
    assert json.loads(r.output)["total"] == total


def test_a_discard_area_given_twice_is_an_error(tmp_path: Path) -> None:
    hand = write(tmp_path, "h.txt", "expansion: cursed-hoards\nGhoul\n[discard]\nKing\n")
    assert "h.txt:3: the file has a [discard] section and --discard gives a discard area " \
        "too; keep one" in error_line(run([hand, "--discard", "Queen"]))


def test_an_empty_discard_section_is_an_empty_discard_area(tmp_path: Path) -> None:
    hand = write(tmp_path, "h.txt", "expansion: cursed-hoards\nGhoul\nLich\n[discard]\n")
    r = run([hand, "--json"])
    assert r.exit_code == 0, r.output
    # Ghoul 8 (nothing in the area); Lich 13 + 10 per other Undead (Ghoul).
    assert json.loads(r.output)["total"] == 8 + 23


@pytest.mark.parametrize("text,message", [
    ("expansion: cursed-hoards\nKing\nGhoul\n",
     ":3: Ghoul scores the discard area (C5): add a [discard] section or --discard"),
    ("expansion: cursed-hoards\nKing\nQueen\nGenie\n",
     ":4: Genie depends on the number of players (C6): add 'players: N' or --players N"),
    ("expansion: cursed-hoards\nKing\n[discard]\nQueen\nSpyglass\n",
     ":5: Spyglass is a Cursed Item; it cannot be in the discard area"),
    ("King\nQueen\n[discard]\nKnights\nQueen\n", ":5: Queen is listed twice (also line 2"),
])
def test_an_error_about_a_card_names_its_line(text: str, message: str) -> None:
    assert message in error_line(run(["-"], stdin=text))


def test_an_expansion_card_in_a_base_hand_names_the_expansion() -> None:
    assert error_line(run(["-"], stdin="King\nGhoul\n")) == (
        "Error: <stdin>:2: unknown card 'Ghoul': CH12 is a card of the cursed-hoards "
        "expansion; run with --expansion cursed-hoards")


# --------------------------------------------------------------------------------------------
# Flags, short hands, several files
# --------------------------------------------------------------------------------------------


def test_a_flag_without_effect_is_refused() -> None:
    assert error_line(run(["--print-code", "--lang", "de", "--code", "FR31+"])) == (
        "Error: --lang has no effect with --print-code (a code is made of card ids); "
        "leave it out")
    # No card of the base game reads the number of players (cards/base.yaml).
    assert error_line(run(["max", "--players", "3"])) == (
        "Error: --players has no effect in this game (no card depends on the number of "
        "players); leave it out")


def test_a_short_hand_is_scored_with_a_note() -> None:
    r = run(["-"], stdin="King\nQueen\n")
    assert r.exit_code == 0
    assert r.output.splitlines()[-1] == ("Note: 2 cards scored as given; a final hand holds 7 "
                                         "(8 with an extra card)")
    r = run(["-", "--json", "--expansion", "cursed-hoards"], stdin="King\n")
    assert json.loads(r.output)["notes"] == [
        "1 card scored as given; a final hand holds 8 (9 with an extra card)"]
    full = (ROOT / "examples" / "hand-260.txt").read_text(encoding="utf-8")
    assert "Note:" not in run(["-"], stdin=full).output


def test_several_files_each_on_its_own(tmp_path: Path) -> None:
    good = write(tmp_path, "a.txt", "King\nQueen\n")
    bad = write(tmp_path, "b.txt", "King\nQeen\n")
    also = write(tmp_path, "c.txt", "Knights\n")
    r = run([good, bad, also, "--json"])
    assert r.exit_code == 2
    assert [json.loads(x)["file"] for x in r.stdout.splitlines()] == [good, also]
    assert [json.loads(x)["total"] for x in r.stdout.splitlines()] == [14, 12]
    assert r.stderr == f"Error: {bad}:2: unknown card 'Qeen' (did you mean 'Queen'?)\n"
    r = run([good, "missing.txt", also])
    assert r.exit_code == 2 and good in r.stdout and also in r.stdout
    assert r.stderr == "Error: no such file: missing.txt\n"
    r = run(["--code", "FR31+", "--code", "FR99+", "--json"])
    assert r.exit_code == 2 and json.loads(r.stdout)["code"] == "FR31+"


def test_standard_input_is_read_once() -> None:
    assert "'-' (standard input) is given twice" in error_line(
        run(["-", "--discard", "-"], stdin="King\n"))


# --------------------------------------------------------------------------------------------
# Long input, mistyped commands
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("args,stdin", [
    (["-"], "King\n" + "x" * 5000 + "\n"),
    (["-"], "players: " + "9" * 5000 + "x\nKing\n"),
    (["-"], "[" + "q" * 5000 + "]\nKing\n"),
    (["-"], "Mirage: " + "z" * 5000 + "\n"),
    (["--code", "FR31," + "Y" * 5000 + "+"], None),
    (["--code", "https://fantasy-realms.github.io/?" + "k" * 5000 + "=1"], None),
    (["game", "-"], "hands:\n  Alice: [King]\n" + "w" * 900 + ": 1\n"),
    (["max", "--with", "q" * 5000], None),
])
def test_an_error_quotes_at_most_80_characters_of_the_input(args, stdin) -> None:
    line = error_line(run(args, stdin=stdin))
    assert len(line) < 200, line


def test_a_mistyped_command_gets_a_did_you_mean(tmp_path: Path) -> None:
    assert error_line(run(["scroe", "x.txt"])) == (
        "Error: no such command or file: 'scroe'; did you mean 'score'?")
    assert "did you mean 'explain'?" in error_line(run(["explian", "x.txt"]))
    assert error_line(run(["hand.txt"])) == "Error: no such file: hand.txt"
    r = CliRunner().invoke(majesty_main, ["simulat"])
    assert r.exit_code == 2
    assert r.output == "Error: no such command or file: 'simulat'; did you mean 'simulate'?\n"


def test_an_existing_file_named_like_a_command_is_a_file(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("scroe").write_text("King\nQueen\n", encoding="utf-8")
    r = run(["scroe", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["total"] == 14
