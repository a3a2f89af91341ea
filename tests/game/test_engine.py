"""The rules of the game as the engine plays them (the game in one paragraph of the rules)."""

from __future__ import annotations

import pytest

from fantasy_scorer.errors import ScorerError
from fantasy_scorer.realms.game.engine import MAX_TURNS, Game, IllegalMove, play

from .helpers import CAT, Scripted, cards, game_in_state


def test_a_deal_gives_every_player_seven_distinct_cards_and_leaves_the_rest_as_the_deck():
    game = Game.deal(CAT, 4, seed=3)
    dealt = [c for h in game.hands for c in h]
    assert [len(h) for h in game.hands] == [7, 7, 7, 7]
    assert len(game.deck) == 55 - 28  # base game (53) and both promos
    assert len({c.id for c in dealt + game.deck}) == 55
    assert game.area == [] and game.current == 0


def test_the_same_seed_deals_the_same_game_and_another_seed_another():
    a, b, c = Game.deal(CAT, 3, seed=7), Game.deal(CAT, 3, seed=7), Game.deal(CAT, 3, seed=8)
    assert a.hands == b.hands and a.deck == b.deck
    assert a.hands != c.hands


def test_the_first_draw_is_from_the_deck_since_the_discard_area_is_empty():
    game = Game.deal(CAT, 2, seed=1)
    assert game.legal_draws() == [None]
    with pytest.raises(IllegalMove):
        game.draw(game.hands[1][0])  # a card that is not in the discard area


def test_turns_go_round_the_table_in_order():
    game = Game.deal(CAT, 3, seed=2)
    record = play(game, [Scripted(), Scripted(), Scripted()])
    # every player draws from the deck: the area grows by one a turn, 10 turns in all
    assert [t.seat for t in record.turns] == [0, 1, 2, 0, 1, 2, 0, 1, 2, 0]


def test_a_turn_is_a_draw_then_a_discard_in_that_order():
    game = Game.deal(CAT, 2, seed=1)
    with pytest.raises(IllegalMove):
        game.discard(game.hands[0][0])  # no draw yet
    game.draw(None)
    with pytest.raises(IllegalMove):
        game.draw(None)  # a second draw
    with pytest.raises(IllegalMove):
        game.discard(game.hands[1][0])  # not in the hand


def test_the_discard_area_keeps_its_order_a_discard_goes_last_and_a_take_leaves_a_gap():
    a, b, c, d = cards("Knights, Queen, Hydra, Swamp")
    hand0, hand1 = cards("King, Forest, Cavern, Island, Basilisk, Dragon, Candle"), cards(
        "Smoke, Blizzard, Lightning, Rangers, Warlord, Empress, Unicorn")
    game = game_in_state([hand0, hand1], [a, b, c], [d])
    game.draw(b)  # take the Queen from the middle
    game.discard(CAT.card("Candle"))
    assert game.area == [a, c, CAT.card("Candle")]
    assert game.hands[0].count(b) == 1 and len(game.hands[0]) == 7


def test_the_game_ends_at_once_when_the_discard_area_holds_ten_cards():
    game = Game.deal(CAT, 4, seed=5)
    record = play(game, [Scripted()] * 4)
    assert len(record.discard) == 10 and len(record.turns) == 10
    assert game.over and game.legal_draws() == []
    assert all(len(h) == 7 for h in record.hands)
    assert record.deck_left == 55 - 28 - 10


def test_taking_from_the_discard_area_does_not_bring_the_end_closer():
    game = Game.deal(CAT, 2, seed=4)
    game.draw(None)
    game.discard(game.drawn)
    taken = game.area[0]
    game.draw(taken)
    game.discard(taken)  # took the card and put it back: still one card in the area
    assert len(game.area) == 1 and len(game.deck) == 55 - 14 - 1 and not game.over


def test_the_game_ends_after_the_turn_that_draws_the_decks_last_card():
    # a small deck: 2 hands of 7 and 3 cards left, so the deck runs out before the area fills
    deck = CAT.suit_cards[:17]
    game = Game.deal(CAT, 2, seed=9, deck=deck)
    assert len(game.deck) == 3
    record = play(game, [Scripted(), Scripted()])
    assert len(record.turns) == 3 and record.deck_left == 0 and len(record.discard) == 3
    assert all(len(h) == 7 for h in record.hands)


def test_R13_necromancer_takes_its_best_card_from_the_final_discard_area():
    # seat 0: Necromancer 3 + Magic Wand 1+25 + Bell Tower 8+15 + Earth Elemental 4+15*4
    #         + Mountain 9 + Forest 7 + Cavern 6 = 138 without an 8th card.
    # Taking Dragon: +30 (a Wizard is held, no penalty), Forest +12 per Beast, Cavern +25 with
    # Dragon = 205; Knights would give 12, Dwarvish Infantry 15 + 25 = 178.
    necro = cards("Necromancer, Magic Wand, Bell Tower, Earth Elemental, Mountain, Forest, "
                  "Cavern")
    other = cards("Smoke, Blizzard, Lightning, Rangers, Warlord, Empress, Unicorn")
    area = cards("Knights, Dragon, Dwarvish Infantry, Swamp, Island, Candle, Forge, Hydra, "
                 "Basilisk")
    game = game_in_state([necro, other], area, cards("Great Flood, Wildfire"), current=1)
    record = play(game, [Scripted(), Scripted()])  # seat 1 draws Wildfire: the 10th discard
    assert len(record.discard) == 10
    assert record.score(0) == 205
    held = next(s for s in record.standings if s.player == "0").result.hand.cards
    assert CAT.card("Dragon") in held and len(held) == 8


def test_R13_necromancer_may_take_the_card_discarded_last():
    # The 10th discard ends the game; it lies in the discard area when the hands are scored,
    # so a Necromancer may take it back: the same hand as above takes the Dragon it discards.
    necro = cards("Necromancer, Magic Wand, Bell Tower, Earth Elemental, Mountain, Forest, "
                  "Cavern")
    other = cards("Smoke, Blizzard, Lightning, Rangers, Warlord, Empress, Unicorn")
    area = cards("Knights, Swamp, Island, Candle, Forge, Hydra, Basilisk, Queen, King")
    game = game_in_state([necro, other], area, cards("Great Flood, Dragon"))
    record = play(game, [Scripted(), Scripted()])  # seat 0 draws the Dragon and discards it
    assert record.turns[-1].discarded is CAT.card("Dragon") and len(record.discard) == 10
    assert record.score(0) == 205


def test_the_standings_rank_by_total_then_by_the_lower_base_strength():
    game = Game.deal(CAT, 4, seed=11)
    record = play(game, [Scripted()] * 4)
    keys = [(-s.total, s.base_strength) for s in record.standings]
    assert keys == sorted(keys)
    assert sum(record.share(seat) for seat in range(4)) == pytest.approx(1.0)


@pytest.mark.parametrize("players", [0, 1, 7])
def test_a_game_is_for_two_to_six_players(players):
    with pytest.raises(ScorerError, match="played by 2 to 6"):
        Game.deal(CAT, players, seed=1)


def test_C4_with_cursed_hoards_leprechaun_draws_the_top_card_then_genie_picks_the_best():
    from fantasy_scorer.realms.catalog import load_catalog

    exp = load_catalog((), "cursed-hoards")

    def named(text):
        return [exp.card(n.strip()) for n in text.split(",")]

    lep = named("Leprechaun, Forest, Mountain, Island, Candle, Forge, Lightning, Warship")
    genie = named("Genie, Beastmaster, Cavern, Knights, Queen, King, Empress, Princess")
    area = named("Hydra, Basilisk, Unicorn, Warhorse, Rainstorm, Blizzard, Smoke, Wildfire, "
                 "Whirlwind")
    # the deck's top card is last: seat 0 draws Air Elemental and discards it (the 10th card);
    # then Leprechaun draws Gem of Order, and Genie picks Dragon over Swamp (Dragon: 30,
    # Beastmaster +9, Cavern +25, no penalty with a Wizard; Swamp: 18 - 3 for Knights)
    deck = named("Dragon, Swamp, Gem of Order, Air Elemental")
    game = Game(exp, 2, None, deck, [lep, genie], area)
    record = play(game, [Scripted(), Scripted()])
    assert record.hands[0][-1] is exp.card("Gem of Order") and len(record.hands[0]) == 9
    assert record.hands[1][-1] is exp.card("Dragon") and len(record.hands[1]) == 9


def test_cursed_hoards_games_deal_hands_of_eight():
    from fantasy_scorer.realms.catalog import load_catalog

    game = Game.deal(load_catalog((), "cursed-hoards"), 3, seed=1)
    assert [len(h) for h in game.hands] == [8, 8, 8]


def test_bots_that_take_from_the_discard_area_for_ever_are_stopped_with_a_clear_error():
    # Taking a card and discarding it again leaves the discard area and the deck as they
    # were: by the rules such a game never ends, so play gives up after MAX_TURNS turns.
    class Passer:
        name = "passer"

        def choose_draw(self, view):
            return view.discard[0] if view.discard else None

        def choose_discard(self, view):
            return view.drawn

    game = Game.deal(CAT, 3, seed=4)
    with pytest.raises(ScorerError, match="turns without an end"):
        play(game, [Passer(), Passer(), Passer()])
    assert len(game.turns) == MAX_TURNS and len(game.area) == 1 and not game.over
