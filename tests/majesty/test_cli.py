"""The majesty-score command: scoring files, errors, replay and simulate."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from fantasy_scorer.cli.majesty import main

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "examples" / "majesty-game.yaml"
REPLAY = ROOT / "examples" / "majesty-replay.yaml"

FULL_A = ("{mill: 3, brewery: 0, cottage: 2, guardhouse: 1, barracks: 2, inn: 1, castle: 2, "
          "infirmary: 1}")
FULL_B = "[2, 3, 0, 2, 0, 2, 1, 2]"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def write(tmp_path, text, name="game.yaml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def game_text(side="A", realm_a=FULL_A, realm_b=FULL_B, extra_a="", extra_b=""):
    return (
        f"side: {side}\nplayers:\n"
        f"  - name: Ann\n    points: 41\n    realm: {realm_a}\n{extra_a}"
        f"  - name: Bob\n    points: 57\n    realm: {realm_b}\n{extra_b}"
    )


def test_score_example_json():
    result = run(GAME, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == {
        "file": str(GAME),
        "players": [
            {"name": "Ann", "points": 41, "infirmary": -1, "infirmary_cards": -1,
             "infirmary_most": 0, "variety": 36,
             "majorities": {"mill": 10, "cottage": 12, "barracks": 14, "castle": 16},
             "shared": {}, "total": 41 + 87},
            {"name": "Bob", "points": 57, "infirmary": -2, "infirmary_cards": -2,
             "infirmary_most": 0, "variety": 25,
             "majorities": {"brewery": 11, "guardhouse": 13, "inn": 15},
             "shared": {}, "total": 57 + 62},
        ],
        "winners": ["Ann"],
    }


def test_score_is_the_default_command_and_a_subcommand():
    default = run(GAME)
    explicit = run("score", GAME)
    assert default.exit_code == 0 and explicit.exit_code == 0
    assert default.output == explicit.output
    assert "Winner: Ann" in default.output
    assert run("--json", GAME).output == run(GAME, "--json").output


def test_score_side_b_and_locations_by_number(tmp_path):
    realm = "{1: 3, 3: 2, 4: 1, 5: 2, 6: 1, 7: 2, 8: 1}"
    result = run(write(tmp_path, game_text("B", realm_a=realm)), "--json")
    assert result.exit_code == 0, result.output
    totals = [p["total"] for p in json.loads(result.output)["players"]]
    assert totals == [41 + 84, 57 + 43]


def test_shared_victory(tmp_path):
    same = "[1, 1, 1, 1, 1, 1, 1, 5]"
    text = (f"side: A\nplayers:\n  - {{name: Ann, realm: {same}}}\n"
            f"  - {{name: Bob, realm: {same}}}\n")
    result = run(write(tmp_path, text), "--json")
    assert json.loads(result.output)["winners"] == ["Ann", "Bob"]
    assert "Winners (shared victory): Ann, Bob" in run(write(tmp_path, text)).output


def test_meeple_tiebreak(tmp_path):
    same = "[1, 1, 1, 1, 1, 1, 1, 5]"
    text = ("side: A\nplayers:\n"
            f"  - {{name: Ann, realm: {same}, meeples: 2}}\n"
            f"  - {{name: Bob, realm: {same}, meeples: 4}}\n")
    result = run(write(tmp_path, text), "--json", "--meeple-tiebreak")
    assert json.loads(result.output)["winners"] == ["Bob"]
    refused = run(write(tmp_path, text), "--json")
    assert refused.exit_code == 2
    assert "meeples only count in the --meeple-tiebreak variant" in refused.output


def test_partial(tmp_path):
    path = write(tmp_path, game_text(realm_a="{mill: 2}"))
    refused = run(path)
    assert refused.exit_code == 2
    assert "player Ann: the realm has 2 cards but a finished realm has 12 (use --partial" in (
        refused.output
    )
    result = run(path, "--partial", "--json")
    assert result.exit_code == 0
    ann = json.loads(result.output)["players"][0]
    assert ann == {"name": "Ann", "points": 41, "infirmary": 0, "infirmary_cards": 0,
                   "infirmary_most": 0, "variety": 1, "majorities": {"mill": 10},
                   "shared": {"mill": ["Bob"]},  # Bob's realm has 2 Millers too
                   "total": 41 + 1 + 10}


@pytest.mark.parametrize(
    "text, message",
    [
        (game_text(realm_a=FULL_A.replace("guardhouse", "gardhouse")),
         "player Ann: unknown location 'gardhouse' (did you mean guardhouse?)"),
        (game_text(realm_a=FULL_A.replace("mill: 3", "mill: -1")),
         "player Ann: the count at mill must be at least 0, not -1"),
        (game_text(realm_a=FULL_A.replace("mill: 3", "mill: 4")),
         "player Ann: the realm has 13 cards; a realm holds at most 12"),
        (game_text(realm_a=FULL_A.replace("mill: 3", "mill: 2, 1: 1")),
         "player Ann: the mill is given twice ('mill' and 1); keep one"),
        (game_text(side="C"), "side 'C' is not valid"),
        (game_text(extra_a="    colour: red\n"),
         "player 1: unknown key 'colour'"),
        ("side: A\nplayers:\n  - {name: Ann, realm: [3, 0, 2, 1, 2, 1, 2, 1]}\n",
         "players must list 2-4 players, not 1"),
        ("side: A\nplayers: []\nextra: 1\n", "the game file: unknown key 'extra'"),
        ("players: []\n", "the game file: the key 'side' is missing"),
        ("side: A\nside: B\nplayers: []\n", "line 2: the key 'side' appears twice; keep one"),
        ("side: [A\n", "is not valid YAML at line"),
        (game_text(realm_b=FULL_B.replace("[2, 3", "[2, 3, 1")),
         "player Bob: a realm list needs 8 counts (locations 1-8), not 9"),
        (game_text().replace("points: 57", "points: many"),
         "player Bob: points must be a whole number, not 'many'"),
        ("side: A\nplayers:\n  - {name: 7, realm: []}\n  - {name: Bob, realm: []}\n",
         "player 1: name must be a non-empty text"),
        ("side: A\nplayers:\n  - {name: Ann, realm: {mill: 12}}\n"
         "  - {name: Bob, realm: {mill: 3, brewery: 9}}\n",
         "the realms need 15 Miller cards at mill together but the box has only 14"),
    ],
)
def test_bad_game_files_exit_2_with_one_line(tmp_path, text, message):
    result = run(write(tmp_path, text))
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("Error: ")
    assert message in lines[0]


def test_missing_file_or_directory(tmp_path):
    for args in ([tmp_path / "nope.yaml"], [tmp_path], ["replay", tmp_path / "nope.yaml"]):
        result = run(*args)
        assert result.exit_code == 2
        assert result.stderr.startswith("Error: cannot read ")
        assert result.stderr.count("\n") == 1


def test_replay_example():
    result = run("replay", REPLAY)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("turn  1  Ann  takes 3: Guard/Noble as Noble to the castle")
    # Ann pays 3 meeples (5 - 3 = 2), the side-A castle gives +5 and +1 meeple per Noble
    assert lines[0].endswith("[points Ann 5, Bob 0; meeples Ann 3, Bob 5]")
    assert "Final scoring, side A" in result.output


def test_replay_json(tmp_path):
    result = run("replay", REPLAY, "--json")
    data = json.loads(result.output)
    assert len(data["turns"]) == 24
    assert data["turns"][0]["points"] == {"Ann": 5, "Bob": 0}
    assert set(data["final"]) == {"players", "winners"}
    assert data["file"] == str(REPLAY)


def test_replay_illegal_move_exit_2(tmp_path):
    text = REPLAY.read_text().replace("{player: Ann, take: 2, half: Innkeeper, points: 9}",
                                      "{player: Ann, take: 4, half: Innkeeper, points: 9}", 1)
    assert text != REPLAY.read_text()
    result = run("replay", write(tmp_path, text, "log.yaml"))
    assert result.exit_code == 2
    path = tmp_path / "log.yaml"
    assert result.stderr.strip() == (
        f"Error: {path}: turn 3 (Ann): position 4 costs 4 meeples but Ann has 3"
    )
    assert "turn  2  Bob" in result.stdout  # the turns before it are shown
    assert "turn  3" not in result.stdout


def test_simulate_json():
    result = run("simulate", "--players", 3, "--games", 20, "--side", "B", "--seed", 1, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 20 and data["players"] == 3
    assert data["lineup"] == ["greedy", "random", "greedy"]
    assert data["bots"]["greedy"]["seats"] == 40 and data["bots"]["random"]["seats"] == 20
    assert data["bots"]["greedy"]["wins"] + data["bots"]["random"]["wins"] == pytest.approx(20)
    assert run("simulate", "--players", 3, "--games", 20, "--side", "B", "--seed", 1,
               "--json").output == result.output  # seeded: the same every time


def test_simulate_text():
    result = run("simulate", "--players", 2, "--games", 10, "--bots", "random,random")
    assert result.exit_code == 0
    assert "2 players, 10 games, side A, seed 0" in result.output
    assert "win rate" in result.output


@pytest.mark.parametrize(
    "args, message",
    [
        (["--bots", "greedy,clever"], "unknown bot 'clever'"),
        (["--bots", "greedy"], "--bots names 1 bots for 4 players"),
        (["--side", "Q"], "side 'Q' is not valid"),
        (["--players", "5"], "Invalid value for '--players'"),
    ],
)
def test_simulate_errors(args, message):
    result = run("simulate", "--games", 2, *args)
    assert result.exit_code == 2
    assert message in result.output
