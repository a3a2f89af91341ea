"""Replaying logs: points after every turn, illegal moves with turn and reason."""

from pathlib import Path

import pytest

from fantasy_scorer.majesty.gamefile import InputError, load_yaml, parse_replay_log
from fantasy_scorer.majesty.replay import replay

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "majesty-replay.yaml"

DECK = (["Miller", "Brewer", "Knight", "Witch", "Guard", "Noble"]
        + ["Miller"] * 8 + ["Guard"] * 4 + ["Noble"] * 4 + ["Brewer"] * 2)


def log(moves, **extra):
    data = {"players": ["Ann", "Bob"], "side": "A", "deck": list(DECK), "moves": moves}
    data.update(extra)
    return parse_replay_log(data)


OPENING = [
    {"player": "Ann", "take": 0, "points": 2},  # Miller: +2
    {"player": "Bob", "take": 1, "points": 3},  # Knight: attack sends Ann's Miller away, +3
    {"player": "Ann", "take": 1, "points": 6},  # Witch: heals the Miller, 2 x (1 + 1)
    {"player": "Bob", "take": 0, "points": 7},  # Brewer with 2 meeples on it: +2, overflow +2
]


def test_hand_computed_opening():
    result = replay(log(OPENING), partial=True)
    assert result.error is None
    assert [t.points for t in result.turns] == [[2, 0], [2, 3], [6, 3], [8, 7]]
    assert [t.meeples for t in result.turns] == [[5, 5], [5, 4], [4, 4], [4, 5]]
    assert "sends Ann's Miller to the infirmary" in result.turns[1].text
    assert "heals a Miller" in result.turns[2].text
    # partial final scoring: Ann mill 1 + cottage 1, Bob barracks 1 + brewery 1
    final = result.final
    assert [p.total for p in final.players] == [8 + 4 + 10 + 12, 7 + 4 + 11 + 14]
    assert final.winners == ("Bob",)


def test_unfinished_log_is_an_error_without_partial():
    result = replay(log(OPENING))
    assert result.error == (
        "the log ends after turn 4 but the game lasts 24 turns (12 characters each); "
        "add the missing moves or use --partial"
    )
    assert result.final is None


def test_points_mismatch_is_reported():
    moves = [dict(m) for m in OPENING]
    moves[2]["points"] = 5
    result = replay(log(moves), partial=True)
    assert result.error == "turn 3 (Ann): Ann has 6 points after the move but the log says 5"
    assert len(result.turns) == 3


def test_wrong_player():
    result = replay(log([{"player": "Ann", "take": 0}, {"player": "Ann", "take": 0}]))
    assert result.error == "turn 2 (Ann): it is Bob's turn, not Ann's"


def test_too_expensive():
    moves = [{"player": "Ann", "take": 5}, {"player": "Bob", "take": 0},
             {"player": "Ann", "take": 2}]
    result = replay(log(moves))
    assert result.error == "turn 3 (Ann): position 2 costs 2 meeples but Ann has 1"


def test_split_card_needs_a_half():
    deck = ["Miller/Brewer"] + DECK[1:]
    result = replay(log([{"player": "Ann", "take": 0}], deck=deck))
    assert result.error == (
        "turn 1 (Ann): the Miller/Brewer card is split: say which half is played "
        "(half: Miller or half: Brewer)"
    )
    # +2 for the Brewer, +1 meeple: 6 meeples, one more point
    ok = replay(log([{"player": "Ann", "take": 0, "half": "Brewer", "points": 3}], deck=deck),
                partial=True)
    assert ok.error is None


def test_wrong_half_for_a_single_card():
    result = replay(log([{"player": "Ann", "take": 0, "half": "Witch"}]))
    assert result.error == (
        "turn 1 (Ann): the Miller card cannot go to the cottage: play it as Miller"
    )


def test_move_after_the_end():
    moves = [{"player": ["Ann", "Bob"][i % 2], "take": 0} for i in range(25)]
    result = replay(log(moves))
    assert result.error == "turn 25 (Ann): the game is over: every player has 12 characters"


def test_seeded_log_matches_the_engine_setup():
    from fantasy_scorer.majesty.engine import Game

    game = Game.new(["Ann", "Bob"], "B", seed=11)
    while not game.over:
        game.play(game.legal_moves()[-1])
    result = replay(parse_replay_log(game.log()))
    assert result.error is None
    assert result.final == game.final_score()


def test_explicit_deck_log_round_trip():
    from fantasy_scorer.majesty.engine import Game

    game = Game.new(["Ann", "Bob", "Cid"], "ABABABAB", seed=4, all60=True)
    while not game.over:
        game.play(game.legal_moves()[len(game.history) % len(game.legal_moves())])
    data = game.log(explicit_deck=True)
    assert "seed" not in data and len(data["deck"]) == 60
    result = replay(parse_replay_log(data))
    assert result.error is None
    assert result.final == game.final_score()


def test_example_replay_works():
    result = replay(parse_replay_log(load_yaml(EXAMPLE)))
    assert result.error is None
    assert len(result.turns) == 24
    assert result.final is not None


@pytest.mark.parametrize(
    "change, message",
    [
        ({"seed": 3}, "gives both seed: and deck:; keep one"),
        ({"players": ["Ann"]}, "2-4 players, not 1"),
        ({"everyone": "nobody"}, "everyone must be all"),
        ({"colour": "red"}, "unknown key 'colour'"),
        ({"deck": ["Miller", "Wizard"]}, "deck card 2: unknown card 'Wizard'"),
        ({"deck": ["Noble"] * 6 + ["Miller"] * 9 + ["Guard"] * 5 + ["Brewer"] * 4},
         "6 Noble cards but the box has only 5"),
        ({"deck": ["Noble"] * 5 + ["Miller"] * 9}, "players need 24"),
        ({"moves": [{"player": "Anne", "take": 0}]}, "did you mean Ann?"),
        ({"moves": [{"player": "Ann", "take": 0, "half": "Wich"}]}, "did you mean Witch?"),
        ({"moves": [{"player": "Ann", "take": 0, "swap": 1}]}, "move 1: unknown key 'swap'"),
        ({"moves": [{"player": "Ann", "take": "front"}]}, "move 1: take must be a whole"),
    ],
)
def test_bad_logs_are_input_errors(change, message):
    data = {"players": ["Ann", "Bob"], "side": "A", "deck": list(DECK), "moves": []}
    data.update(change)
    with pytest.raises(InputError, match=message):
        replay(parse_replay_log(data))
