"""Every side-A location ability, the taking of cards, meeples and the worked examples."""

from fantasy_scorer.majesty.cards import card_index
from fantasy_scorer.majesty.engine import Game, Move
from fantasy_scorer.majesty.rules import BARRACKS, CASTLE, COTTAGE

from .helpers import box_rest, make_game, move, names_at


def test_worked_example_miller_miller_witch():
    """Side A, one player: Miller (+2), Miller (+4), Witch (+6)."""
    shown = [card_index(c) for c in ["Miller", "Guard", "Miller", "Guard", "Witch", "Guard"]]
    game = Game(["Ann", "Bob"], "A", shown + box_rest(shown))
    gains = []
    for _ in range(3):
        before = game.points[0]
        game.play(move(game, 0))  # Ann
        gains.append(game.points[0] - before)
        game.play(move(game, 0))  # Bob takes a Guard
    assert gains == [2, 4, 6]
    assert names_at(game, "Ann", "mill") == ["Miller", "Miller"]


def test_worked_example_taking_a_card():
    """Display [Witch, Miller, Noble, Knight, Miller, Brewer], 2 meeples."""
    game = make_game(["Witch", "Miller", "Noble", "Knight", "Miller", "Brewer"],
                     meeples={"Ann": 2})
    assert game.check(Move(3, BARRACKS)) == "position 3 costs 3 meeples but Ann has 2"
    assert {m.take for m in game.legal_moves()} == {0, 1, 2}
    game.play(Move(2, CASTLE))
    assert game.display_meeples[:2] == [1, 1]  # one on the Witch, one on the Miller
    assert [card_index(c) for c in ["Witch", "Miller", "Knight", "Miller", "Brewer"]] == (
        game.display[:5]
    )
    assert len(game.display) == 6  # refilled at the back
    assert game.meeples[0] == 0 + 1  # paid both, Castle A gives a meeple per Noble
    assert game.points[0] == 5


def test_taking_a_card_collects_its_meeples():
    game = make_game(["Guard", "Miller", "Guard"], meeples={"Ann": 1})
    game.display_meeples[:3] = [2, 3, 0]
    game.play(move(game, 1))
    assert game.meeples[0] == 1 - 1 + 3
    assert game.display_meeples[:2] == [3, 0]  # the Guard got one more; the next is new


def test_meeples_above_five_become_points():
    game = make_game(["Guard", "Guard", "Noble"], meeples={"Ann": 5})
    game.display_meeples[:3] = [0, 0, 4]
    game.play(move(game, 2))  # pay 2, collect 4, +1 from the Castle: 8 meeples
    assert game.meeples[0] == 5
    assert game.points[0] == 5 + 3


def test_split_card_goes_to_one_of_its_halves():
    game = make_game(["Miller/Brewer"])
    reason = game.check(Move(0, COTTAGE))
    assert reason == "the Miller/Brewer card cannot go to the cottage: play it as Miller or Brewer"
    assert {m.place for m in game.legal_moves() if m.take == 0} == {0, 1}


def test_position_outside_the_display():
    game = make_game()
    assert game.check(Move(6, 3)) == "position 6 is not in the display (positions 0-5)"


def test_mill_a():
    game = make_game(["Miller"], {"Ann": {"mill": ["Miller", "Miller/Knight"]}})
    game.play(move(game, 0))
    assert game.points == [6, 0]


def test_brewery_a_points_meeples_and_everyone_with_a_miller():
    game = make_game(
        ["Brewer"],
        {"Ann": {"mill": ["Miller"], "brewery": ["Brewer"]}, "Bob": {"mill": ["Miller"]},
         "Cid": {"cottage": ["Witch"], "infirmary": ["Miller"]}},
        players=["Ann", "Bob", "Cid"],
        meeples={"Ann": 2},
    )
    game.play(move(game, 0))
    # 2 per Brewer (2) = 4, +2 for her own Miller (M1); Bob's Miller +2; Cid's is in the Infirmary
    assert game.points == [6, 2, 0]
    assert game.meeples[0] == 4


def test_m1_variant_everyone_means_opponents_only():
    game = make_game(
        ["Brewer"],
        {"Ann": {"mill": ["Miller"]}, "Bob": {"mill": ["Miller"]}},
        meeples={"Ann": 0},
        everyone_self=False,
    )
    game.play(move(game, 0))
    assert game.points == [2, 2]


def test_worked_example_heal():
    """Brewery 1 Brewer, Cottage 1 Witch, Infirmary top a Brewer: placing a Witch gives +8."""
    game = make_game(
        ["Witch"],
        {"Ann": {"mill": [], "brewery": ["Brewer"], "cottage": ["Witch"],
                 "infirmary": ["Brewer"]},
         "Bob": {"mill": ["Miller"]}},
        meeples={"Ann": 3},
    )
    game.play(move(game, 0))
    assert game.points == [8, 0]  # the Brewery is not activated: nobody gains from it
    assert game.meeples[0] == 3
    assert names_at(game, "Ann", "brewery") == ["Brewer", "Brewer"]
    assert names_at(game, "Ann", "infirmary") == []


def test_heal_returns_only_the_top_card():
    game = make_game(["Witch"], {"Ann": {"infirmary": ["Miller", "Brewer"]}})
    game.play(move(game, 0))
    assert names_at(game, "Ann", "infirmary") == ["Miller"]
    assert names_at(game, "Ann", "brewery") == ["Brewer"]
    assert game.points[0] == 2 * (0 + 1 + 1)


def test_heal_a_split_card_as_either_half():
    realms = {"Ann": {"infirmary": ["Witch/Guard"]}}
    as_witch = make_game(["Witch"], realms)
    as_witch.play(move(as_witch, 0, heal="Witch"))
    assert as_witch.points[0] == 2 * 2  # the healed Witch counts for the rest of the Cottage
    assert names_at(as_witch, "Ann", "cottage") == ["Witch", "Witch/Guard"]
    as_guard = make_game(["Witch"], realms)
    as_guard.play(move(as_guard, 0, heal="Guard"))
    assert as_guard.points[0] == 2
    assert names_at(as_guard, "Ann", "guardhouse") == ["Witch/Guard"]


def test_heal_choice_is_checked():
    game = make_game(["Witch", "Miller"], {"Ann": {"infirmary": ["Witch/Guard"]}})
    assert game.check(move(game, 0)) == (
        "the healed card is a Witch/Guard: say which half it returns as (Witch or Guard)"
    )
    assert game.check(move(game, 0, heal="Miller")) == (
        "the healed card is a Witch/Guard: it returns as Witch or Guard"
    )
    assert {m.heal for m in game.legal_moves() if m.take == 0} == {2, 3}
    assert game.check(move(game, 1, heal="Witch")) == (
        "nothing is healed on this move, so no healed half can be chosen"
    )


def test_guardhouse_a():
    game = make_game(
        ["Guard"],
        {"Ann": {"barracks": ["Knight"], "inn": ["Innkeeper", "Knight/Innkeeper"],
                 "infirmary": ["Guard"]}},
    )
    game.play(move(game, 0))
    assert game.points[0] == 2 * (1 + 1 + 2)


def test_barracks_a_attack_each_opponent_separately():
    game = make_game(
        ["Knight"],
        {"Ann": {"barracks": ["Knight"]},
         "Bob": {"brewery": ["Brewer", "Miller/Brewer"], "guardhouse": ["Guard"],
                 "castle": ["Noble"]},
         "Cid": {"mill": ["Miller"], "guardhouse": ["Guard", "Guard"]},
         "Dan": {}},
        players=["Ann", "Bob", "Cid", "Dan"],
        points={"Bob": 7},
    )
    game.play(move(game, 0))
    assert game.points == [6, 7, 0, 0]  # +3 per Knight; a lost card costs no points
    # Bob (1 Guard < 2 Knights): the most recent card at his lowest occupied location
    assert names_at(game, "Bob", "brewery") == ["Brewer"]
    assert names_at(game, "Bob", "infirmary") == ["Miller/Brewer"]
    # Cid (2 Guards, not fewer than 2 Knights) is safe; Dan has nothing to lose
    assert names_at(game, "Cid", "mill") == ["Miller"]
    assert names_at(game, "Cid", "infirmary") == []
    assert names_at(game, "Dan", "infirmary") == []


def test_attack_fails_against_as_many_guards():
    game = make_game(["Knight"], {"Bob": {"mill": ["Miller"], "guardhouse": ["Guard"]}})
    game.play(move(game, 0))
    assert names_at(game, "Bob", "infirmary") == []


def test_attacked_card_goes_on_top_of_the_infirmary():
    game = make_game(
        ["Knight"],
        {"Bob": {"inn": ["Innkeeper"], "castle": ["Noble"], "infirmary": ["Miller"]}},
    )
    game.play(move(game, 0))
    assert names_at(game, "Bob", "infirmary") == ["Miller", "Innkeeper"]
    assert names_at(game, "Bob", "castle") == ["Noble"]


def test_inn_a():
    game = make_game(
        ["Innkeeper"],
        {"Ann": {"brewery": ["Brewer/Knight"], "inn": ["Innkeeper"]},
         "Bob": {"brewery": ["Brewer"]},
         "Cid": {"infirmary": ["Brewer"]}},
        players=["Ann", "Bob", "Cid"],
    )
    game.play(move(game, 0))
    assert game.points == [4 * 2 + 3, 3, 0]


def test_castle_a():
    game = make_game(["Noble"], {"Ann": {"castle": ["Noble"]}}, meeples={"Ann": 1})
    game.play(move(game, 0))
    assert game.points[0] == 10
    assert game.meeples[0] == 3


def test_castle_a_has_no_trade():
    game = make_game(["Noble"], points={"Ann": 4})
    assert game.check(move(game, 0, trade=1)) == (
        "a trade is only allowed when placing a Noble at a side-B castle"
    )
    assert [m.trade for m in game.legal_moves() if m.take == 0] == [0]


def test_turns_rotate_and_the_game_ends_with_twelve_each():
    game = make_game()
    order = []
    while not game.over:
        order.append(game.current)
        game.play(game.legal_moves()[0])
    assert order == [0, 1] * 12
    assert [game.realm_size(p) for p in range(2)] == [12, 12]
    assert game.legal_moves() == []
    assert game.check(Move(0, 0)) == "the game is over: every player has 12 characters"
