"""One family of conventions across fr-score's commands (issue 12 §3), each hand scored once
(issue 13 §5), and discard-reading cards in ``best`` (issue 13 §6)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fantasy_scorer.realms import resolve as resolve_module
from fantasy_scorer.realms.catalog import base_catalog
from fantasy_scorer.realms.solve import api

from .conftest import run, write

ROOT = Path(__file__).resolve().parent.parent
HAND_260 = (ROOT / "examples" / "hand-260.txt").read_text(encoding="utf-8")
HAND_380 = str(ROOT / "examples" / "hand-380.txt")
COMMANDS = ["score", "explain", "best", "max", "game", "serve"]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_takes_h_and_shows_an_example(command: str) -> None:
    short, long = run([command, "-h"]), run([command, "--help"])
    assert short.exit_code == 0 and short.output == long.output
    text = short.output
    # An indented example: an input file's lines or a command line.
    examples = [ln for ln in text.splitlines() if ln.startswith("    ") and not
                ln.strip().startswith("-")]
    assert examples, text
    assert "-h, --help" in text


def test_version_and_help_of_the_group() -> None:
    assert run(["--version"]).exit_code == 0 and "version" in run(["--version"]).output
    assert run(["-h"]).output == run(["--help"]).output


@pytest.mark.parametrize("command", ["score", "explain", "best", "max", "game"])
def test_the_same_options_for_the_same_things(command: str) -> None:
    text = run([command, "-h"]).output
    for option in ("--json", "--lang", "--no-color", "--cards", "--expansion", "--edition"):
        assert option in text, (command, option)
    if command in ("score", "explain", "best"):
        assert "--code" in text and "--discard" in text and "--players" in text


def test_dash_reads_standard_input_everywhere() -> None:
    pool = HAND_260.replace("Mirage: Rainstorm", "Mirage") + "Magic Wand\n"
    assert json.loads(run(["-", "--json"], stdin=HAND_260).output)["total"] == 260
    assert json.loads(run(["explain", "-", "--json"], stdin=HAND_260).output)["total"] == 260
    assert json.loads(run(["best", "-", "--json"], stdin=pool).output)["total"] == 260
    table = (ROOT / "examples" / "table.yaml").read_text(encoding="utf-8")
    assert json.loads(run(["game", "-", "--json"], stdin=table).output)["winners"] == ["Carol"]
    # Ghoul 8 + 4 per Leader in the discard area read from standard input (King).
    assert json.loads(run(["--json", "--discard", "-", "--code", "CH12+"],
                          stdin="King\n").output)["total"] == 8 + 4


def test_json_over_several_inputs_names_each(tmp_path: Path) -> None:
    a = write(tmp_path, "a.txt", "King\nQueen\n")
    lines = run([a, HAND_380, "--code", "FR31+", "--json"]).output.splitlines()
    assert [json.loads(x).get("file") or json.loads(x)["code"] for x in lines] == [
        a, HAND_380, "FR31+"]
    lines = run(["explain", a, HAND_380, "--json"]).output.splitlines()
    assert [json.loads(x)["file"] for x in lines] == [a, HAND_380]
    data = json.loads(run(["game", str(ROOT / "examples" / "table.yaml"), "--json"]).output)
    assert data["file"] == str(ROOT / "examples" / "table.yaml")


def test_the_json_of_a_hand_names_the_card_necromancer_took() -> None:
    hand = "Necromancer\nKing\nKnights\nLight Cavalry\nDwarvish Infantry\nElven Archers\nRangers\n"
    data = json.loads(run(["-", "--json", "--discard", "Queen, Basilisk"], stdin=hand).output)
    assert data["extra"] == [{"card": "Queen", "by": "Necromancer", "from": "discard area"}]
    listed = json.loads(run(["-", "--json"], stdin=hand + "Queen\n").output)
    assert listed["extra"] == data["extra"]  # the 8th card listed in the file
    assert json.loads(run(["-", "--json"], stdin=hand).output)["extra"] == []


def test_explain_takes_a_discard_area() -> None:
    r = run(["explain", "-", "--expansion", "cursed-hoards", "--discard", "King, Unicorn"],
            stdin="Ghoul\n")
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[-2] == "Total: 16"  # Ghoul 8 + 4 x (King, Unicorn)


def test_best_takes_a_code_lang_and_print_code(tmp_path: Path) -> None:
    # The pool of examples/hand-260.txt with Mirage open and Magic Wand drawn, as a code.
    code = "FR01,FR08,FR13,FR14,FR15,FR16,FR52,FR42+"
    r = run(["best", "--code", code, "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["code"] == code and data["total"] == 260 and data["discard"] == ["Magic Wand"]
    de = run(["best", "--code", code, "--lang", "de"]).output
    assert "Gebirge" in de and "Mountain" not in de  # Mountain in German
    assert run(["best", "--code", code, "--print-code"]).output == \
        "FR01,FR08,FR13,FR14,FR15,FR16,FR52+FR52:FR11\n"
    pool = write(tmp_path, "p.txt", "King\n")
    assert "one of them" in run(["best", pool, "--code", code]).stderr


def test_max_takes_lang_and_print_code(monkeypatch) -> None:
    # Only the printing is under test: the search is replaced by the best hand of a pool.
    cat = base_catalog()
    pool = [cat.card(n) for n in ("Mountain", "Great Flood", "Smoke", "Whirlwind",
                                  "Air Elemental", "Wildfire", "Mirage")]

    def fake_max(catalog, with_, without, **options):
        return api.best_hand(pool, catalog)[0]

    monkeypatch.setattr(api, "max_hand", fake_max)
    de = run(["max", "--lang", "de", "--quiet"])
    assert de.exit_code == 0, de.stderr
    de = de.output
    assert de.startswith("Best hand in the game: score 260 (optimal)") and "Gebirge" in de
    assert run(["max", "--print-code"]).output == \
        "FR01,FR08,FR13,FR14,FR15,FR16,FR52+FR52:FR11\n"


# --------------------------------------------------------------------------------------------
# Each hand scored once (issue 13 §5)
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    HAND_260,
    (ROOT / "examples" / "hand-380.txt").read_text(encoding="utf-8"),
    "Island: Wildfire\nWildfire\nBlizzard\nBasilisk\n",  # a pinned choice checked at reading
])
def test_a_pinned_hand_is_resolved_once(text: str, monkeypatch) -> None:
    calls = []
    real = resolve_module.run

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(resolve_module, "run", counting)
    r = run(["-", "--json"], stdin=text)
    assert r.exit_code == 0, r.output
    assert len(calls) == 1


def test_reading_still_gives_every_validation_error() -> None:
    r = run(["-"], stdin="Knights\nIsland: Knights\n")
    assert r.exit_code == 2
    assert r.stderr == ("Error: <stdin>:2: Island may clear only a Flood or Flame; Knights is "
                        "not one after the identities and Book of Changes (R4)\n")
    # Book of Changes makes Knights a Flame first: then Island may clear it (R4).
    ok = run(["-", "--json"], stdin="Knights\nIsland: Knights\nBook of Changes: Knights -> "
                                    "Flame\n")
    assert ok.exit_code == 0, ok.output


# --------------------------------------------------------------------------------------------
# Discard-reading cards in best (issue 13 §6)
# --------------------------------------------------------------------------------------------

GHOUL_POOL = ("expansion: cursed-hoards\nGhoul\nKing\nQueen\nKnights\nRangers\nLight Cavalry\n"
              "Elven Archers\nWarlord\nDragon\n")


def test_best_scores_ghoul_on_an_empty_discard_area_with_a_note(tmp_path: Path) -> None:
    pool = write(tmp_path, "p.txt", GHOUL_POOL)
    r = run(["best", pool])
    assert r.exit_code == 0, r.output
    note = ("Note: Ghoul scored on an empty discard area: none was given (--discard or a "
            "[discard] section gives one)")
    assert note in r.output.splitlines()
    data = json.loads(run(["best", pool, "--json"]).output)
    assert data["notes"] == [note.removeprefix("Note: ")]
    eight = write(tmp_path, "eight.txt", GHOUL_POOL.replace("Dragon\n", ""))
    data = json.loads(run(["best", eight, "--json"]).output)  # 8 cards: the one hand
    ghoul = next(c for c in data["cards"] if c["name"] == "Ghoul")
    assert (ghoul["base"], ghoul["bonus"]) == (8, 0)  # nothing in an empty discard area
    given = json.loads(run(["best", pool, "--json", "--discard", "Beastmaster, Princess"])
                       .output)
    assert given["notes"] == []


def test_best_says_what_is_missing_before_any_search(tmp_path: Path, monkeypatch) -> None:
    def no_search(*args, **kwargs):
        raise AssertionError("the search started")

    monkeypatch.setattr(api, "best_hand", no_search)
    pool = write(tmp_path, "p.txt", "expansion: cursed-hoards\nGenie\nKing\nQueen\nKnights\n"
                 "Rangers\nLight Cavalry\nElven Archers\nWarlord\nDragon\n")
    r = run(["best", pool])
    assert r.exit_code == 2
    assert r.stderr == ("Error: Genie depends on the number of players (C6): add --players N "
                        "or a 'players: N' line\n")
    r = run(["best", pool, "--discard", "Genie"])
    assert r.exit_code == 2 and "Genie" in r.stderr
