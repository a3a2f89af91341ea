"""Every side-B location ability and the rulings M2-M5."""

from fantasy_scorer.majesty.engine import Game, Move
from fantasy_scorer.majesty.rules import CASTLE

from .helpers import make_game, move, names_at


def test_mill_b_everyone_with_a_witch_gains_3():
    game = make_game(
        ["Miller"],
        {"Ann": {"mill": ["Miller"], "cottage": ["Witch"]},
         "Bob": {"cottage": ["Brewer/Witch"]},
         "Cid": {"infirmary": ["Witch"]}},
        side="B",
        players=["Ann", "Bob", "Cid"],
    )
    game.play(move(game, 0))
    assert game.points == [2 * 2 + 3, 3, 0]


def test_brewery_b_meeples_per_miller_and_brewer_and_the_ten():
    realm = {"mill": ["Miller", "Miller"], "inn": ["Innkeeper"], "castle": ["Noble"]}
    game = make_game(["Brewer"], {"Ann": realm, "Bob": {"mill": ["Miller"]}}, side="B",
                     meeples={"Ann": 0})
    game.play(move(game, 0))
    assert game.meeples[0] == 1 * (2 + 1)
    assert game.points == [10, 0]  # no "everyone with a Miller" on side B


def test_m2_brewery_b_ten_needs_innkeeper_and_noble():
    for realm in ({"inn": ["Innkeeper"]}, {"castle": ["Noble"]},
                  {"inn": ["Innkeeper"], "infirmary": ["Noble"]}):
        game = make_game(["Brewer"], {"Ann": realm}, side="B", meeples={"Ann": 0})
        game.play(move(game, 0))
        assert game.points[0] == 0
        assert game.meeples[0] == 1


def test_cottage_b_heal_then_3_per_witch():
    game = make_game(["Witch"], {"Ann": {"cottage": ["Witch"], "infirmary": ["Witch"]}},
                     side="B")
    game.play(move(game, 0))
    assert game.points[0] == 3 * 3
    assert names_at(game, "Ann", "infirmary") == []


def test_guardhouse_b_and_everyone_with_an_innkeeper():
    game = make_game(
        ["Guard"],
        {"Ann": {"brewery": ["Brewer"], "cottage": ["Witch", "Witch"], "inn": ["Innkeeper"],
                 "barracks": ["Knight"]},
         "Bob": {"inn": ["Innkeeper"]},
         "Cid": {"mill": ["Miller"]}},
        side="B",
        players=["Ann", "Bob", "Cid"],
    )
    game.play(move(game, 0))
    assert game.points == [2 * (1 + 2 + 1) + 3, 3, 0]


def test_defend_b_guards_stop_the_attack():
    game = make_game(["Knight"], {"Ann": {"barracks": ["Knight"]},
                                  "Bob": {"mill": ["Miller"], "guardhouse": ["Guard", "Guard"]}},
                     side="B")
    game.play(move(game, 0))
    assert names_at(game, "Bob", "mill") == ["Miller"]


def test_barracks_b_attack_and_3_per_knight_innkeeper_noble():
    game = make_game(
        ["Knight"],
        {"Ann": {"inn": ["Innkeeper"], "castle": ["Noble", "Noble"]},
         "Bob": {"cottage": ["Witch"], "castle": ["Noble"]}},
        side="B",
    )
    game.play(move(game, 0))
    assert game.points[0] == 3 * (1 + 1 + 2)
    assert names_at(game, "Bob", "infirmary") == ["Witch"]


def test_m3_inn_b_uses_the_fullest_location_not_the_infirmary():
    game = make_game(
        ["Innkeeper"],
        {"Ann": {"mill": ["Miller"] * 3, "inn": ["Innkeeper"],
                 "infirmary": ["Noble", "Noble", "Noble", "Guard", "Guard"]},
         "Bob": {"brewery": ["Brewer"]}},
        side="B",
    )
    game.play(move(game, 0))
    assert game.points == [2 * 2 * 3, 0]  # no "everyone with a Brewer" on side B


def test_inn_b_counts_the_new_innkeeper_in_the_fullest_location():
    game = make_game(["Innkeeper"], {"Ann": {"mill": ["Miller"] * 3, "inn": ["Innkeeper"] * 3}},
                     side="B")
    game.play(move(game, 0))
    assert game.points[0] == 4 * 2 * 4


def castle_b(points=10, meeples=2, display_meeples=(0,)):
    game = make_game(["Noble", "Noble"],
                     {"Ann": {"castle": ["Noble"], "infirmary": ["Miller", "Brewer"]}},
                     side="B", points={"Ann": points}, meeples={"Ann": meeples})
    game.display_meeples[: len(display_meeples)] = list(display_meeples)
    return game


def test_castle_b_points_per_noble_and_infirmary_card():
    game = castle_b()
    game.play(move(game, 0))
    assert (game.points[0], game.meeples[0]) == (10 + 4 * (2 + 2), 2)


def test_m4_castle_b_trade_points_for_meeples_before_the_points():
    game = castle_b()
    game.play(move(game, 0, trade=3))
    assert (game.points[0], game.meeples[0]) == (10 - 3 + 16, 5)


def test_castle_b_trade_meeples_for_points():
    game = castle_b()
    game.play(move(game, 0, trade=-2))
    assert (game.points[0], game.meeples[0]) == (10 + 2 + 16, 0)


def test_castle_b_bought_meeples_above_five_turn_back_into_points():
    game = castle_b()
    game.play(move(game, 0, trade=4))
    assert (game.points[0], game.meeples[0]) == (10 - 4 + 16 + 1, 5)


def test_m4_castle_b_points_never_below_zero():
    game = castle_b(points=10)
    assert game.check(move(game, 0, trade=10)) is None
    assert game.check(move(game, 0, trade=11)) == (
        "trading 11 points for meeples needs 11 points but Ann has 10 (points never go below 0)"
    )


def test_castle_b_trade_counts_the_meeples_just_collected():
    game = castle_b(meeples=2, display_meeples=(0, 2))
    # take position 1: pay 1, collect 2 -> 3 meeples at the time of the trade
    assert game.check(move(game, 1, trade=-3)) is None
    assert game.check(move(game, 1, trade=-4)) == (
        "trading 4 meeples for points needs 4 meeples but Ann has 3 at that moment"
    )
    trades = sorted(m.trade for m in game.legal_moves() if m.take == 1)
    assert trades == [-3, -2, -1, 0, 1, 2]  # up to 5 meeples; more would convert back
    assert len([m for m in game.legal_moves(all_trades=True) if m.take == 1]) == 3 + 1 + 10


def test_trade_only_at_the_side_b_castle():
    game = make_game(["Miller"], side="B", points={"Ann": 5})
    assert game.check(move(game, 0, trade=1)) == (
        "a trade is only allowed when placing a Noble at a side-B castle"
    )


def test_mixed_sides_each_location_keeps_its_side():
    game = make_game(["Noble", "Miller"], side="ABABABAB", points={"Ann": 3})
    assert game.check(move(game, 0, trade=1)) is not None  # the castle (7) is side A here
    game = make_game(["Noble", "Miller"], side="AAAAAABA", points={"Ann": 3},
                     meeples={"Ann": 2})
    game.play(move(game, 0, trade=1))
    assert (game.points[0], game.meeples[0]) == (3 - 1 + 4, 3)
    game.play(move(game, 0))  # Bob's Miller on a side-A mill: +2, no Witch bonus
    assert game.points[1] == 2


def test_m5_supplies_are_unlimited():
    """Everybody can gain points and meeples at once; nothing runs out."""
    game = make_game(["Brewer"], {"Ann": {"mill": ["Miller"] * 9}}, side="B",
                     meeples={"Ann": 0}, players=["Ann", "Bob"])
    game.play(move(game, 0))
    assert (game.meeples[0], game.points[0]) == (5, 10 - 5)


def test_side_b_game_end_scoring_through_the_engine():
    game = Game.new(["Ann", "Bob"], "B", seed=1)
    while not game.over:
        game.play(game.legal_moves()[0])
    final = game.final_score()
    counts = [game.counts(p)[7] for p in range(2)]
    most = max(counts)
    expected = [-2 * c - (10 if c == most and most else 0) for c in counts]
    assert [p.infirmary for p in final.players] == expected


def test_move_is_a_plain_tuple():
    assert Move(1, CASTLE, -2) == (1, 6, -2, -1)
