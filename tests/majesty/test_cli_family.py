"""majesty-score follows the conventions of fr-score: -h, --version, '-', several files,
--json naming each file, --lang, --no-color, and help that shows the input format."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from fantasy_scorer.cli.majesty import main
from fantasy_scorer.majesty import names

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "examples" / "majesty-game.yaml"
REPLAY = ROOT / "examples" / "majesty-replay.yaml"


def run(*args, stdin=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=stdin, prog_name="majesty-score")


def write(tmp_path, text, name):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("args", [["-h"], ["--help"], ["score", "-h"], ["replay", "-h"],
                                  ["simulate", "-h"]])
def test_dash_h_is_help(args):
    result = run(*args)
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Usage: majesty-score")


def test_version():
    result = run("--version")
    assert result.exit_code == 0
    assert result.output.startswith("majesty-score, version ")


def test_no_arguments_prints_the_help_like_fr_score():
    result = run()
    assert result.exit_code == 0
    assert "Usage: majesty-score" in result.output


@pytest.mark.parametrize("command, shows", [
    ("score", ["side: A", "realm: {mill: 3", "Miller: 3 is the mill", "'-' reads standard"]),
    ("replay", ["players: [Ann, Bob]", "seed: 5", "{player: Ann, take: 0}",
                "card: Miller/Knight", "meeples: 2", "'-' reads standard"]),
    ("simulate", ["majesty-score simulate --players 3"]),
])
def test_every_help_shows_its_input_with_an_example(command, shows):
    text = run(command, "--help").output
    for part in shows:
        assert part in text


def test_dash_reads_standard_input():
    text = GAME.read_text()
    piped = run("-", "--json", stdin=text)
    assert piped.exit_code == 0, piped.output
    assert json.loads(piped.output) == {**json.loads(run(GAME, "--json").output),
                                        "file": "<stdin>"}
    log = run("replay", "-", "--json", stdin=REPLAY.read_text())
    assert log.exit_code == 0
    assert json.loads(log.output) == {**json.loads(run("replay", REPLAY, "--json").output),
                                      "file": "<stdin>"}


def test_json_names_each_file(tmp_path):
    side_b = write(tmp_path, GAME.read_text().replace("side: A", "side: B"), "b.yaml")
    result = run(GAME, side_b, "--json")
    assert result.exit_code == 0, result.output
    first, second = (json.loads(line) for line in result.output.splitlines())
    assert first["file"] == str(GAME) and second["file"] == str(side_b)
    # the worked example: side A 41 + 87 and 57 + 62; side B 41 + 84 and 57 + 43
    assert [p["total"] for p in first["players"]] == [128, 119]
    assert [p["total"] for p in second["players"]] == [125, 100]
    assert json.loads(run(GAME, "--json").output)["file"] == str(GAME)  # one file too


def test_several_replays_name_each_file_too():
    result = run("replay", REPLAY, REPLAY, "--json")
    lines = result.output.splitlines()
    assert len(lines) == 2 and all(json.loads(x)["file"] == str(REPLAY) for x in lines)


def test_a_bad_file_among_good_ones(tmp_path):
    bad = write(tmp_path, "side: C\nplayers: []\n", "bad.yaml")
    result = run(GAME, bad, GAME)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"Error: {bad}: side 'C' is not valid")
    assert result.stdout.count("Winner: Ann") == 2  # both good files are still scored
    assert f"{GAME}\n" in result.stdout  # titled by file when there are several


def test_missing_file_among_good_ones(tmp_path):
    result = run(GAME, tmp_path / "nope.yaml")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"Error: cannot read {tmp_path / 'nope.yaml'}")
    assert "Winner: Ann" in result.stdout


def test_no_file_is_an_error():
    result = run("score")
    assert result.exit_code == 2
    assert "give a file ('-' reads standard input)" in result.output


def test_lang_english_and_unknown(monkeypatch):
    assert run(GAME, "--lang", "EN").output == run(GAME).output
    result = run(GAME, "--lang", "xx")
    assert result.exit_code == 2
    assert "unknown language 'xx' for Majesty: its names are known in en" in result.output


def test_lang_prints_and_reads_the_names_of_a_language(monkeypatch, tmp_path):
    # A language is data: one entry of names.LANGUAGES (a made-up one here, so that the test
    # checks the mechanism and not a translation).
    words = names.Words(
        ("Mueller", "Brauer", "Hexe", "Wache", "Ritter", "Wirt", "Adlige"),
        ("muehle", "brauerei", "hexenhaus", "wachturm", "kaserne", "taverne", "schloss",
         "lazarett"),
    )
    monkeypatch.setitem(names.LANGUAGES, "xx", words)
    text = GAME.read_text().replace("mill: 3", "Mueller: 3").replace("castle: 2", "schloss: 2")
    game = write(tmp_path, text, "game.yaml")
    result = run(game, "--lang", "xx")
    assert result.exit_code == 0, result.output
    assert "muehle 10, hexenhaus 12, kaserne 14, schloss 16" in result.output
    data = json.loads(run(game, "--lang", "xx", "--json").output)
    assert data["players"][0]["majorities"] == {"muehle": 10, "hexenhaus": 12, "kaserne": 14,
                                                "schloss": 16}
    log = run("replay", REPLAY, "--lang", "xx")
    assert log.output.startswith("turn  1  Ann  takes 3: Wache/Adlige as Adlige to the schloss")


def test_no_color_gives_the_plain_text():
    assert run(GAME, "--no-color").output == run(GAME).output
    assert run("replay", REPLAY, "--no-color").output == run("replay", REPLAY).output


def test_character_names_as_location_keys(tmp_path):
    text = GAME.read_text().replace("mill: 3", "Miller: 3").replace("inn: 1", "innkeeper: 1")
    assert "Miller: 3" in text
    result = run(write(tmp_path, text, "g.yaml"), "--json")
    by_character, by_location = json.loads(result.output), json.loads(run(GAME, "--json").output)
    assert by_character["players"] == by_location["players"]
    twice = GAME.read_text().replace("mill: 3", "mill: 2, Miller: 1")
    refused = run(write(tmp_path, twice, "t.yaml"))
    assert refused.exit_code == 2
    assert "player Ann: the mill is given twice ('mill' and 'Miller'); keep one" in (
        refused.stderr)


def test_an_unknown_location_suggests_characters_too(tmp_path):
    text = GAME.read_text().replace("mill: 3", "Miler: 3")
    result = run(write(tmp_path, text, "g.yaml"))
    assert "unknown location 'Miler' (did you mean Miller?)" in result.stderr


def test_side_b_breakdown_in_text():
    text = GAME.read_text().replace("side: A", "side: B")
    result = run("-", stdin=text)
    lines = result.output.splitlines()
    assert lines[1].split("  ")[:4] == ["Player", "Play", "Infirmary (-2/card)",
                                        "Most cards (-10)"]
    # Bob: 57 from play, -2 x 2 cards, -10 for the most cards, variety 25, majorities 32
    assert lines[3].split() == ["Bob", "57", "-4", "-10", "25", "32", "100", "brewery", "12,",
                                "guardhouse", "8,", "inn", "12"]
    assert "Most cards" not in run(GAME).output  # side A has no such rule


def test_shared_majorities_marked_in_text(tmp_path):
    # Both have 2 Millers: the mill's 10 goes to both, marked shared.
    text = ("side: A\nplayers:\n  - {name: Ann, realm: {mill: 2}}\n"
            "  - {name: Bob, realm: {mill: 2, inn: 1}}\n")
    result = run(write(tmp_path, text, "g.yaml"), "--partial")
    assert "mill 10 (shared with Bob)" in result.output
    assert "mill 10 (shared with Ann), inn 15" in result.output


def test_replay_json_has_meeples_card_and_points_from_play():
    data = json.loads(run("replay", REPLAY, "--json").output)
    first = data["turns"][0]
    # Ann takes position 3 (3 meeples: 2 left) and places the Noble half: +5, +1 meeple
    assert first["card"] == "Guard/Noble"
    assert first["points"] == {"Ann": 5, "Bob": 0}
    assert first["meeples"] == {"Ann": 3, "Bob": 5}
    last = data["turns"][-1]["points"]
    assert [p["points"] for p in data["final"]["players"]] == [last["Ann"], last["Bob"]]
    assert len(data["deck"]) == 33 and None not in data["deck"]  # a seeded deck is known


def test_replay_of_a_log_written_as_played(tmp_path):
    text = ("players: [Ann, Bob]\nside: A\nmoves:\n"
            "  - {player: Ann, take: 0, card: Miller, points: 2, meeples: 5}\n"
            "  - {player: Bob, take: 1, card: Knight, points: 3, meeples: 4}\n"
            "  - {player: Ann, take: 1, card: Witch, points: 6, meeples: 4}\n"
            "  - {player: Bob, take: 0, card: Brewer, points: 7, meeples: 5}\n")
    result = run("replay", write(tmp_path, text, "log.yaml"), "--partial")
    assert result.exit_code == 0, result.output
    assert "sends Ann's Miller to the infirmary" in result.output
    assert "Deck as revealed (top card first; ? was never taken): Miller, Brewer, Knight, " \
           "Witch, ?" in result.output


def test_colour_on_a_terminal_and_no_color_removes_it(monkeypatch):
    from rich.console import Console

    from fantasy_scorer.cli import render

    monkeypatch.setattr(render, "may_be_terminal", lambda: True)
    monkeypatch.setattr(Console, "is_terminal", property(lambda self: True))
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    coloured = run(GAME).output
    assert "\x1b[" in coloured and "Ann" in coloured
    plain = run(GAME, "--no-color").output
    assert "\x1b[" not in plain
    assert plain.splitlines()[-1] == "Winner: Ann"
    assert "\x1b[" not in run("replay", REPLAY, "--no-color").output
    assert "\x1b[" not in run("simulate", "--games", 2, "--no-color").output
