"""Replaying logs: points after every turn, illegal moves with turn and reason."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fantasy_scorer.majesty.cards import card_name
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


# ------------------------------------------------------------------ meeples, card, as played

# The mover's meeples after each move of OPENING, by hand: Ann takes the free Miller (5);
# Bob pays 1 meeple for the Knight, left on the Brewer (4); Ann pays 1 for the Witch, also
# left on the Brewer (4); Bob takes the Brewer and its 2 meeples (6), +1 for the Brewer (7),
# and the 2 above 5 become points (5).
OPENING_MEEPLES = [5, 4, 4, 5]
OPENING_CARDS = ["Miller", "Knight", "Witch", "Brewer"]


def test_meeples_check_passes_with_the_hand_computed_counts():
    moves = [dict(m, meeples=k) for m, k in zip(OPENING, OPENING_MEEPLES, strict=True)]
    result = replay(log(moves), partial=True)
    assert result.error is None


def test_meeples_mismatch_is_reported_like_points():
    moves = [dict(m) for m in OPENING]
    moves[3]["meeples"] = 7  # before the 2 extra meeples become points
    result = replay(log(moves), partial=True)
    assert result.error == "turn 4 (Bob): Bob has 5 meeples after the move but the log says 7"


def test_card_cross_check_against_a_known_deck():
    moves = [dict(m, card=c) for m, c in zip(OPENING, OPENING_CARDS, strict=True)]
    assert replay(log(moves), partial=True).error is None
    moves[1]["card"] = "Witch"  # position 1 holds the Knight at turn 2
    result = replay(log(moves), partial=True)
    assert result.error == (
        "turn 2 (Bob): position 1 holds the Knight card, not Witch; check take: or card:"
    )
    assert len(result.turns) == 1


def test_card_accepts_either_order_of_a_split_card():
    deck = ["Knight/Miller"] + DECK[1:]
    moves = [{"player": "Ann", "take": 0, "card": "Miller/Knight", "half": "Knight"}]
    assert replay(log(moves, deck=deck), partial=True).error is None


def as_played(moves, **extra):
    """A log written at the table: neither seed nor deck, every move names its card."""
    data = {"players": ["Ann", "Bob"], "side": "A", "moves": moves}
    data.update(extra)
    return parse_replay_log(data)


def test_a_log_written_as_played_scores_like_the_known_deck():
    moves = [dict(m, card=c) for m, c in zip(OPENING, OPENING_CARDS, strict=True)]
    result = replay(as_played(moves), partial=True)
    assert result.error is None
    # the same points and meeples as with the deck known (test_hand_computed_opening)
    assert [t.points for t in result.turns] == [[2, 0], [2, 3], [6, 3], [8, 7]]
    assert [t.meeples for t in result.turns] == [[5, 5], [5, 4], [4, 4], [4, 5]]
    # The revealed cards are the deck: Ann took deck card 1 (the front); Bob position 1, which
    # then held deck card 3; Ann position 1, then deck card 4; Bob the front, deck card 2.
    # 2 players deal 6 tier-1 and 27 tier-2 cards: 33.
    assert len(result.deck) == 33
    assert [card_name(c) for c in result.deck[:4]] == ["Miller", "Brewer", "Knight", "Witch"]
    assert result.deck[4:] == [None] * 29


def test_a_log_without_seed_or_deck_needs_every_card():
    moves = [dict(OPENING[0], card="Miller"), dict(OPENING[1])]
    with pytest.raises(InputError, match=r"move 2: this log has no seed: or deck:, so .* "
                                         r"every move names the card it takes"):
        as_played(moves)


def test_revealed_cards_must_fit_their_tier():
    # 2 players: the top 6 cards are tier 1, which holds 2 Knights (the box 3).
    moves = [{"player": p, "take": 0, "card": "Knight"} for p in ("Ann", "Bob", "Ann")]
    result = replay(as_played(moves), partial=True)
    assert result.error == (
        "turn 3 (Ann): that would be Knight card number 3 of tier 1 (the top 6 cards of the "
        "deck) but tier 1 has only 2; check card:, or add all60: true if all 60 cards were "
        "shuffled together"
    )


def test_revealed_cards_must_fit_the_box_with_all60():
    moves = [{"player": p, "take": 0, "card": "Knight"} for p in ("Ann", "Bob", "Ann", "Bob")]
    result = replay(as_played(moves, all60=True), partial=True)
    assert result.error == (
        "turn 4 (Bob): that would be Knight card number 4 but the box has only 3; check card:"
    )
    assert len(result.deck) == 60


def taken_cards(game):
    """The card each move of a finished game took, by dealing its deck again."""
    from fantasy_scorer.majesty.engine import Game

    again = Game(game.names, game.side, game.initial_deck, game.everyone_self)
    cards = []
    for move in game.history:
        cards.append(again.display[move.take])
        again.apply(move)
    return cards


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 4), side=st.sampled_from("AB"))
def test_any_game_written_as_played_replays_to_the_same_score(seed, players, side):
    """Invariant: a whole game logged move by move with its cards, the deck unknown, gives
    the engine's final scoring, and the revealed deck agrees with the dealt deck."""
    import random as _random

    from fantasy_scorer.majesty.bots import GreedyBot, play_out
    from fantasy_scorer.majesty.engine import Game

    game = Game.new(players, side, seed)
    final = play_out(game, [GreedyBot(_random.Random(seed))] * players)
    data = game.log()
    del data["seed"]
    for entry, card in zip(data["moves"], taken_cards(game), strict=True):
        entry["card"] = card_name(card)
    result = replay(parse_replay_log(data))
    assert result.error is None
    assert result.final == final
    for revealed, dealt in zip(result.deck, game.initial_deck, strict=True):
        assert revealed is None or revealed == dealt


def test_the_table_example_is_the_seeded_example_written_as_played():
    seeded = replay(parse_replay_log(load_yaml(EXAMPLE)))
    table = replay(parse_replay_log(load_yaml(EXAMPLE.with_name("majesty-table.yaml"))))
    assert table.error is None
    assert table.final == seeded.final
    for revealed, dealt in zip(table.deck, seeded.deck, strict=True):
        assert revealed is None or revealed == dealt
