"""``fr-score advise`` and ``fr-score simulate`` from the command line."""

from __future__ import annotations

import json

import pytest

from ..conftest import run, write

HAND7 = "Cavern, Forest, King, Swamp, Gem of Order, Fountain of Life, Hydra"
AREA4 = "Rainstorm, Whirlwind, Unicorn, Shapeshifter"
LAST_POOL = "Knights, Queen, King, Swamp, Hydra, Forest, Cavern, Dragon"
LAST_AREA = "Island, Candle, Forge, Lightning, Smoke, Warship, Gem of Order, World Tree, Mountain"


def test_advise_before_the_draw_weighs_the_deck_against_each_card_of_the_discard_area():
    res = run(["advise", HAND7, "--players", "4", "--discard", AREA4, "--samples", "3",
               "--budget", "60"])
    assert res.exit_code == 0, res.output
    assert "draw from the deck" in res.output
    for card in ("Rainstorm", "Whirlwind", "Unicorn", "Shapeshifter"):
        assert f"take {card}, discard" in res.output
    assert "Recommended: " in res.output and "3 samples" in res.output


def test_advise_json_has_every_option_with_its_intervals_and_the_samples_used():
    res = run(["advise", HAND7 + ", Unicorn", "--players", "3", "--discard", "Rainstorm",
               "--samples", "2", "--budget", "60", "--json", "--seed", "7"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["phase"] == "discard" and data["samples"] == 2 and data["seed"] == "7"
    assert len(data["options"]) == 8 and data["recommended"] == data["options"][0]
    for o in data["options"]:
        assert o["action"] == "discard" and o["take"] is None
        assert set(o["expected_final"]) == {"mean", "ci95", "exact"}
        assert o["samples"] == 2 and len(o["expected_final"]["ci95"]) == 2
        lo, hi = o["improves"]["ci95"]
        assert 0 <= lo <= hi <= 1
    assert {o["discard"] for o in data["options"]} == set(
        (HAND7 + ", Unicorn").split(", "))


def test_advise_with_a_seed_and_samples_is_repeatable():
    args = ["advise", HAND7, "--players", "4", "--discard", AREA4, "--samples", "2",
            "--budget", "60", "--json", "--seed", "11"]
    first, second = json.loads(run(args).output), json.loads(run(args).output)
    first.pop("seconds"), second.pop("seconds")
    assert first == second


def test_advise_on_the_last_turn_agrees_with_best(tmp_path):
    pool = write(tmp_path, "pool.txt", LAST_POOL.replace(", ", "\n"))
    best = json.loads(run(["best", pool, "--discard", LAST_AREA, "--json"]).output)
    res = run(["advise", pool, "--players", "5", "--discard", LAST_AREA, "--json"])
    data = json.loads(res.output)
    assert data["samples"] == 0 and all(o["exact"] for o in data["options"])
    assert [data["recommended"]["discard"]] == best["discard"]
    assert data["recommended"]["expected_final"]["mean"] == best["total"]
    # best's discard is the one marked as greedy's choice, and only it
    assert [o["discard"] for o in data["options"] if o["greedy"]] == best["discard"]
    text = run(["advise", pool, "--players", "5", "--discard", LAST_AREA]).output
    assert "Your discard ends the game: every figure is exact." in text


def test_advise_reads_a_hand_file_with_its_players_and_discard_area(tmp_path):
    path = write(tmp_path, "hand.txt", "players: 3\n" + HAND7.replace(", ", "\n")
                 + "\n[discard]\nRainstorm\nUnicorn\n")
    res = run(["advise", path, "--samples", "1", "--budget", "60", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["players"] == 3 and data["discard"] == ["Rainstorm", "Unicorn"]


def test_advise_prints_names_in_the_language_asked():
    res = run(["advise", LAST_POOL, "--players", "2", "--discard", LAST_AREA, "--lang", "de",
               "--json"])
    data = json.loads(res.output)
    assert "Drache" in data["hand"]  # Dragon


@pytest.mark.parametrize("args, message", [
    (["advise", HAND7, "--players", "4", "--discard", "Hydra, Unicorn"],
     "Error: Hydra is both in the hand and in the discard area; each card is in one place"),
    (["advise", HAND7, "--players", "4", "--discard",
      "Rainstorm, Whirlwind, Unicorn, Shapeshifter, Dragon, Knights, Queen, Island, Candle, "
      "Forge, Lightning"],
     "Error: the discard area holds 11 cards, but the game ends when it reaches 10: advice "
     "needs at most 9"),
    (["advise", HAND7, "--players", "1"],
     "Error: Invalid value for '--players': 1 is not in the range 2<=x<=6."),
    (["advise", HAND7], "Error: the advice needs the number of players: add --players N"),
    (["advise", "Cavern, Forest, King", "--players", "2"],
     "Error: a hand to advise holds 7 cards before the draw or 8 after it, not 3"),
    (["advise", HAND7, "--players", "2", "--seen", "Basilik"],
     "Error: --seen: unknown card 'Basilik' (did you mean 'Basilisk'?)"),
    (["simulate", "--players", "3", "--bots", "greedy,clever"],
     "Error: unknown bot 'clever'; the bots are random, greedy, advisor"),
    (["simulate", "--players", "3", "--bots", "greedy,random"],
     "Error: 2 bots for 3 players; name one bot per seat (or one bot for every seat)"),
    (["simulate", "--players", "1"],
     "Error: Invalid value for '--players': 1 is not in the range 2<=x<=6."),
])
def test_bad_input_is_one_line_and_exit_code_2(args, message):
    res = run(args)
    assert res.exit_code == 2
    assert res.output.strip() == message


def test_a_discard_area_given_twice_is_refused(tmp_path):
    path = write(tmp_path, "hand.txt", HAND7.replace(", ", "\n") + "\n[discard]\nRainstorm\n")
    res = run(["advise", path, "--players", "2", "--discard", "Unicorn"])
    assert res.exit_code == 2 and "the discard area is given twice" in res.output


def test_simulate_json_reports_every_bot():
    res = run(["simulate", "--players", "3", "--games", "4", "--bots", "greedy,random,random",
               "--seed", "2", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["games"] == 4 and isinstance(data["seconds"], float)
    assert [(b["name"], b["seat"]) for b in data["bots"]] == [
        ("greedy", 1), ("random", 2), ("random", 3)]
    assert sum(b["win_share"] for b in data["bots"]) == pytest.approx(1.0)
    for b in data["bots"]:
        lo, hi = b["ci95"]
        assert 0 <= lo <= b["win_share"] <= hi <= 1


def test_simulate_with_a_seed_plays_the_same_games():
    args = ["simulate", "--players", "2", "--games", "3", "--bots", "greedy", "--seed", "5",
            "--json"]
    first, second = json.loads(run(args).output), json.loads(run(args).output)
    first.pop("seconds"), second.pop("seconds")
    assert first == second


def test_simulate_prints_a_table():
    res = run(["simulate", "--players", "2", "--games", "2", "--bots", "random,greedy"])
    assert res.exit_code == 0, res.output
    assert "win share" in res.output and "95% interval" in res.output
    assert "fair share 50.0%" in res.output
