"""The learned value of a hand in progress (issue 36): reproducible training, plain-Python
inference, exact where the game is over, and the advice built on it legal and repeatable."""

from __future__ import annotations

import ast
import inspect
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fantasy_scorer.errors import ScorerError
from fantasy_scorer.realms.game import advice as A
from fantasy_scorer.realms.game import value
from fantasy_scorer.realms.game.advice import Situation, advise
from fantasy_scorer.realms.game.model import WinModel
from fantasy_scorer.realms.game.scoring import Scorer
from fantasy_scorer.realms.game.train import PAIR_TABLES, Position, fit, train
from fantasy_scorer.realms.game.value import ValueModel, shipped_model, turns_left
from fantasy_scorer.realms.hand import MAX_DISCARD
from fantasy_scorer.realms.solve.api import best_hand

from .helpers import CAT, PLAIN, assert_legal, cards, last_turn, mid_game

SCORERS = {p: Scorer(CAT, p) for p in range(2, 7)}
TINY = CAT.suit_cards[:20]  # a tiny game: 20 cards, two hands of 7


def test_training_twice_from_one_seed_gives_identical_weights():
    first = train(CAT, 2, "same", tables=(2,), deck=TINY)
    assert first == train(CAT, 2, "same", tables=(2,), deck=TINY)
    assert first["models"]["2"] != train(CAT, 2, "other", tables=(2,), deck=TINY)["models"]["2"]


def test_the_fit_finds_a_gain_that_is_linear_in_the_turns_left():
    # every hand gains exactly 4 points per turn left: the fit must say so, whatever the cards
    rng = random.Random(1)
    ids = [c.id for c in PLAIN[:12]]
    pos = []
    for _ in range(400):
        area, deck = rng.randint(0, 9), rng.randint(1, 30)
        now = rng.randint(100, 250)
        gain = 4 * turns_left(area, deck, 3)
        pos.append(Position(tuple(rng.sample(ids, 7)), now, area, deck, round(now + gain)))
    model, quality = fit(pos, 3, ids)
    for area, deck in ((0, 30), (5, 12), (8, 3)):
        hand = [CAT.by_id[i] for i in ids[:7]]
        assert model.gain(hand, 180, area, deck) == pytest.approx(
            4 * turns_left(area, deck, 3), abs=1.0)
    assert quality["explained"] > 0.99


def test_the_fit_finds_what_any_hand_gains_whatever_its_cards():
    # every hand gains 3 points per turn left and half a point per turn left squared, and a
    # hand holding the first card 6 points more per turn: what any hand gains is the fit on
    # the turns left alone, the mean over the hands (at each turn left, one hand with that
    # card and one without)
    rng = random.Random(2)
    ids = [c.id for c in PLAIN[:28]]
    pos = []
    for _ in range(1500):
        area, deck = rng.randint(0, 9), rng.randint(1, 30)
        t = turns_left(area, deck, 4)
        for hand, more in (((ids[0], *rng.sample(ids[1:], 6)), 6 * t),
                           (tuple(rng.sample(ids[1:], 7)), 0)):
            pos.append(Position(hand, 150, area, deck, 150 + 3 * t + 0.5 * t * t + more))
    model, _ = fit(pos, 4, ids)
    assert model.others == pytest.approx((3 + 6 / 2, 0.5), abs=1e-4)
    assert model.others_gain(0.0) == 0.0


def _with_the_next_hand_known(players: int, seed: int, held: int, samples: int):
    """A situation of ``held`` cards in hand, 11 - ``held`` in the discard area and the next
    player's 7 cards known (so their gift is no sample), its learned advice and the shipped
    model."""
    pool = random.Random(seed).sample(PLAIN, 18)
    sit = Situation(CAT, players, tuple(pool[:held]), tuple(pool[held:11]), tuple(pool[11:]))
    advice = advise(sit, samples=samples, budget=None, scorer=SCORERS[players],
                    evaluation="learned")
    model = shipped_model(CAT, players)
    assert model is not None and advice.learned
    return sit, advice, model


def test_a_take_is_set_against_the_others_gain_in_the_turns_it_adds_to_the_game():
    # A take from the discard area leaves it as many cards as before my turn, a draw from
    # the deck one more: the game (it ends when the area holds 10 cards) keeps a turn of the
    # deck more, and every player's hand grows in it. The next player's 7 cards are known,
    # so the gift is no sample; a take's chance is that of its final score lowered by what a
    # greedy hand gains in the turns the take adds, against the players' usual scores, the
    # next one raised by the most a card left in the area gives them.
    sit, advice, model = _with_the_next_hand_known(4, 5, 7, samples=2)
    hand, area, theirs = list(sit.hand), list(sit.area), list(sit.next_holds)
    assert model.others[1] > 0
    win = WinModel(4).win
    now_theirs = best_hand(theirs, CAT, area)[0].total

    def gift(card):
        rest = [c for c in area if c is not card]
        return max(0, best_hand([*theirs, card], CAT, rest)[0].total - now_theirs)

    deck_turns = turns_left(len(area) + 1, sit.deck - 1, 4)
    takes = [o for o in advice.options if o.take is not None]
    assert takes
    for o in takes:
        kept = [c for c in hand if c is not o.discard] + [o.take]
        after = [c for c in area if c is not o.take] + [o.discard]
        mine, sd = model.final(kept, best_hand(kept, CAT, after)[0].total, len(after),
                               sit.deck)
        t = turns_left(len(after), sit.deck, 4)
        assert t > deck_turns
        longer = model.others_gain(t) - model.others_gain(deck_turns)
        expected = ValueModel.chance(win, mine - longer, sd, max(gift(c) for c in after))
        assert o.win.mean == pytest.approx(expected)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 6), st.integers(0, 10**6), st.booleans(), st.integers(0, 30),
       st.integers(50, 300))
def test_a_hand_whose_game_is_over_is_worth_exactly_its_score(players, seed, full, left, now):
    # the game is over when the discard area holds 10 cards, or when the deck is empty
    model = shipped_model(CAT, players)
    assert model is not None
    hand = random.Random(seed).sample(CAT.suit_cards, 7)
    area, deck = (MAX_DISCARD, left) if full else (min(left, MAX_DISCARD), 0)
    assert model.final(hand, now, area, deck) == (now, 0.0)
    assert model.final(hand, now, area, deck, bank=left) == (now, 0.0)  # nothing to take


def test_the_fit_finds_the_worth_of_a_card_left_in_the_discard_area():
    # with two players every position's gain is 2 points per turn left and per 10 points of
    # its bank (a card of the area that would raise it): the fit must find that weight and
    # no other; at the other table sizes the bank is not a feature
    rng = random.Random(2)
    ids = [c.id for c in PLAIN[:12]]
    pos = []
    for _ in range(400):
        area, deck, bank = rng.randint(1, 9), rng.randint(1, 30), rng.randint(0, 40)
        now = rng.randint(100, 250)
        gain = 2 * turns_left(area, deck, 2) * bank / 10
        pos.append(Position(tuple(rng.sample(ids, 7)), now, area, deck, round(now + gain),
                            bank))
    model, quality = fit(pos, 2, ids)
    hand = [CAT.by_id[i] for i in ids[:7]]
    for area, deck, bank in ((1, 30, 30), (5, 12, 10), (8, 3, 0)):
        t = turns_left(area, deck, 2)
        assert model.gain(hand, 180, area, deck, bank) == pytest.approx(2 * t * bank / 10,
                                                                        abs=1.0)
    assert quality["explained"] > 0.99
    assert fit(pos, 3, ids)[0].bank == (0.0, 0.0)


def test_the_fit_finds_what_two_cards_are_worth_together():
    # with four players every hand holding both of two cards gains 5 points per turn left,
    # every other hand nothing: the fit must find that pair's weight, not spread it over the
    # two cards' own weights (which would raise the hands holding only one of them); at a
    # table size without pairs there are no pair weights
    rng = random.Random(3)
    ids = [c.id for c in PLAIN[:12]]
    a, b = ids[0], ids[1]
    pos = []
    for _ in range(2000):
        area, deck = rng.randint(0, 9), rng.randint(1, 30)
        now = rng.randint(100, 250)
        hand = tuple(rng.sample(ids, 7))
        gain = 5 * turns_left(area, deck, 4) if a in hand and b in hand else 0
        pos.append(Position(hand, now, area, deck, round(now + gain)))
    assert 4 in PAIR_TABLES and 3 not in PAIR_TABLES
    model, quality = fit(pos, 4, ids)
    both = [CAT.by_id[i] for i in ids[:7]]
    one = [CAT.by_id[i] for i in ids[1:8]]
    for area, deck in ((0, 30), (5, 12), (8, 3)):
        t = turns_left(area, deck, 4)
        assert model.gain(both, 180, area, deck) == pytest.approx(5 * t, abs=1.0)
        assert model.gain(one, 180, area, deck) == pytest.approx(0, abs=1.0)
    assert quality["explained"] > 0.99
    assert fit(pos, 3, ids)[0].pairs == {}


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 1), st.integers(1, 8))
def test_each_options_bank_is_the_most_a_card_left_in_the_area_raises_the_hand_kept(
        seed, drawn, area_size):
    # the cards I may take at my next turn: those of the discard area after my turn but my
    # discard (and the card I took), each taken into the hand I keep, the best 7 then
    rng = random.Random(seed)
    pool = rng.sample(PLAIN, 7 + drawn + area_size)
    sit = Situation(CAT, 2, tuple(pool[:7 + drawn]), tuple(pool[7 + drawn:]))
    advice = advise(sit, samples=1, budget=None, scorer=SCORERS[2], evaluation="learned")
    assert advice.learned

    def bank(kept, left, pool):
        now = best_hand(list(kept), CAT, list(left))[0].total
        return max([best_hand([*kept, u], CAT, [c for c in left if c is not u])[0].total
                    - now for u in pool] + [0])

    for o in advice.options:
        if o.deck:  # the card is not known yet: the bank of the hand now
            want = bank(sit.hand, sit.area, sit.area)
        else:
            held = [*sit.hand, *([o.take] if o.take is not None else [])]
            kept = [c for c in held if c is not o.discard]
            left = [*(c for c in sit.area if c is not o.take), o.discard]
            want = bank(kept, left, left[:-1])
        assert o.bank == want, o.label()


def test_banks_not_all_scored_by_their_deadline_all_count_0():
    # a hand whose sets score slowly must not spend the budget on its banks, and options
    # whose banks were scored must not be compared with options whose were not
    rng = random.Random(4)
    for _ in range(50):
        pool = rng.sample(PLAIN, 14)
        sit = Situation(CAT, 2, tuple(pool[:7]), tuple(pool[7:]))
        options = A._draw_options(SCORERS[2], sit, A._utility(sit, "win"))
        A._banks(SCORERS[2], sit, options)
        if any(o.bank for o in options):
            break
    assert any(o.bank for o in options)
    late = A._draw_options(SCORERS[2], sit, A._utility(sit, "win"))
    A._banks(SCORERS[2], sit, late, deadline=0.0)
    assert [o.label() for o in late] == [o.label() for o in options]
    assert all(o.bank == 0 for o in late)


def test_a_chance_over_a_normal_spread_is_exact_for_a_linear_win():
    # the five-point Gauss-Hermite rule is exact for polynomials up to degree 9: the mean of a
    # linear function of a normal variable is its value at the mean
    assert ValueModel.chance(lambda f, g: (f - g) / 1000, 210.0, 25.0, 10.0) == pytest.approx(
        0.2)
    assert ValueModel.chance(lambda f, g: (f / 100) ** 2, 200.0, 30.0) == pytest.approx(
        4 + 0.09)


def test_the_inference_is_plain_python():
    # the page in the browser (Pyodide) runs the advice without NumPy or Numba
    tree = ast.parse(inspect.getsource(value))
    imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import)
                for a in n.names}
    imported |= {(n.module or "").split(".")[0] for n in ast.walk(tree)
                 if isinstance(n, ast.ImportFrom)}
    assert not imported & {"numpy", "numba", "scipy"}


def test_the_shipped_weights_cover_the_base_game_and_round_trip():
    for players in range(2, 7):
        model = shipped_model(CAT, players)
        assert model is not None and model.players == players
        assert ValueModel.from_json(model.to_json()) == model
        assert bool(model.pairs) is (players in PAIR_TABLES)


@settings(max_examples=25, deadline=None)
@given(mid_game(), st.integers(0, 1000), st.integers(1, 8))
def test_the_learned_advice_never_advises_an_illegal_move(sit, seed, samples):
    advice = advise(sit, seed=seed, samples=samples, budget=None, scorer=SCORERS[sit.players],
                    evaluation="learned", settle=False)
    assert_legal(advice, sit)
    assert advice.learned == (not advice.exact)


@settings(max_examples=20, deadline=None)
@given(last_turn())
def test_on_the_last_turn_the_learned_advice_is_bests(sit):
    advice = advise(sit, samples=5, scorer=SCORERS[sit.players], evaluation="learned")
    assert advice.exact and not advice.learned
    every = best_hand(list(sit.hand), CAT, list(sit.area), top=8)
    assert advice.recommended.discard is every[0].discard[0]
    assert [(o.discard, o.final.mean) for o in advice.options] == [
        (s.discard[0], s.total) for s in every]


def test_drawing_the_last_card_is_exact_with_the_learned_advice_too():
    rng = random.Random(7)
    pool = rng.sample(PLAIN, 16)
    sit = Situation(CAT, 3, tuple(pool[:7]), tuple(pool[7:]))  # 9 in the discard area
    advice = advise(sit, samples=3, scorer=SCORERS[3], evaluation="learned")
    deck = next(o for o in advice.options if o.deck)
    finals = [best_hand(list(sit.hand) + [u], CAT, list(sit.area))[0].total
              for u in sit.unseen]
    assert deck.exact and deck.final.mean == pytest.approx(sum(finals) / len(finals))


def test_the_same_seed_and_samples_give_the_same_learned_advice():
    pool = cards("Cavern, Forest, King, Swamp, Gem of Order, Fountain of Life, Hydra, "
                 "Rainstorm, Whirlwind, Unicorn")
    sit = Situation(CAT, 4, tuple(pool[:7]), tuple(pool[7:]))

    def figures(seed):
        a = advise(sit, seed=seed, samples=6, budget=None, scorer=SCORERS[4],
                   evaluation="learned")
        return [(o.label(), o.final.mean, o.win.mean, o.gift.mean, o.active)
                for o in a.options], a.rounds

    first = figures(3)
    assert first == figures(3)
    assert first[1] == 6


def test_the_learned_figures_are_the_models_values_of_the_hand_kept():
    # after the draw the only luck is the next player's hand (the gift): every discard's
    # expected final score is the model's value of the 7 cards it keeps, in every sample
    pool = cards("Cavern, Forest, King, Swamp, Gem of Order, Fountain of Life, Hydra, Unicorn,"
                 " Rainstorm, Whirlwind")
    sit = Situation(CAT, 4, tuple(pool[:8]), tuple(pool[8:]))
    advice = advise(sit, samples=4, budget=None, scorer=SCORERS[4], evaluation="learned")
    model = shipped_model(CAT, 4)
    assert model is not None
    for o in advice.options:
        kept = [c for c in sit.hand if c is not o.discard]
        area = sit.area + (o.discard,)
        expected = model.final(kept, SCORERS[4].total(kept, area), len(area), sit.deck)[0]
        assert o.final.mean == pytest.approx(expected)


def test_with_two_players_the_learned_chance_is_the_duel_with_the_other_hand():
    # The other player's 7 cards are known (--next-holds), so every sample holds them. After
    # my discard they take it, as greedy does, if it raises their best 7 (the other cards of
    # the discard area they passed over at their last turn), and both hands are valued by
    # the model: my chance is that of a normal final score beating theirs.
    sit, advice, model = _with_the_next_hand_known(2, 11, 8, samples=3)
    hand, area, theirs = list(sit.hand), list(sit.area), list(sit.next_holds)
    now = best_hand(theirs, CAT)[0].total
    for o in advice.options:
        kept = [c for c in hand if c is not o.discard]
        after = [*area, o.discard]
        now_mine = best_hand(kept, CAT)[0].total
        # my bank: the most a card left in the area (not my discard) raises my hand
        bank = max([best_hand([*kept, u], CAT, [c for c in after if c is not u])[0].total
                    - now_mine for u in area] + [0])
        mine, my_sd = model.final(kept, now_mine, len(after), sit.deck, bank)
        top = best_hand([*theirs, o.discard], CAT, area)[0]  # (area: their take leaves it)
        gain = top.total - now if o.discard in top.hand.cards else 0
        held = list(top.hand.cards) if gain > 0 else theirs
        other, other_sd = model.final(held, now + gain, len(after), sit.deck)
        spread = math.hypot(my_sd, other_sd)
        expected = 0.5 * math.erfc((other - mine) / (spread * math.sqrt(2)))
        assert o.win.mean == pytest.approx(expected)


def test_an_unknown_evaluation_is_refused():
    sit = Situation(CAT, 4, tuple(PLAIN[:7]), tuple(PLAIN[7:9]))
    with pytest.raises(ValueError):
        advise(sit, samples=1, evaluation="oracle")


def test_auto_values_by_the_model_at_every_table_size_and_play_out_plays_out():
    pool = PLAIN[:10]
    for players in (2, 3, 4, 6):
        sit = Situation(CAT, players, tuple(pool[:7]), tuple(pool[7:]))
        advice = advise(sit, samples=1, budget=None, scorer=SCORERS[players])
        assert advice.learned
        advice = advise(sit, samples=1, budget=None, scorer=SCORERS[players],
                        evaluation="play-out")
        assert not advice.learned


def test_near_the_end_of_a_two_player_game_auto_plays_the_samples_out():
    # with room in the discard area for ENDGAME_ROOM more deck turns or fewer, the 2-player
    # samples are played out (whose turn ends the game is then exact); with more room, and
    # at the other table sizes, the model values them
    room = A.ENDGAME_ROOM[2]
    pool = PLAIN[:7 + MAX_DISCARD - 1]
    for players, area, learned in ((2, MAX_DISCARD - room - 1, True),
                                   (2, MAX_DISCARD - room, False),
                                   (2, MAX_DISCARD - 1, False), (4, MAX_DISCARD - room, True)):
        sit = Situation(CAT, players, tuple(pool[:7]), tuple(pool[7:7 + area]))
        advice = advise(sit, samples=1, budget=None, scorer=SCORERS[players])
        assert advice.learned is learned and not advice.exact, (players, area)
        assert A.endgame(sit) is (players == 2 and not learned)
    from fantasy_scorer.cli.advise import ADVISE_HELP

    assert f"room for {room} cards or fewer" in " ".join(ADVISE_HELP.split())


def test_scoring_in_pure_python_the_model_values_the_end_too():
    # the browser has no compiled scorer: a round of play-outs there takes seconds, so the
    # model values the samples to the end of the game
    sc = Scorer(CAT, 2)
    sc.compiled = None
    pool = PLAIN[:7 + MAX_DISCARD - 1]
    sit = Situation(CAT, 2, tuple(pool[:7]), tuple(pool[7:7 + MAX_DISCARD - A.ENDGAME_ROOM[2]]))
    assert A.endgame(sit)
    advice = advise(sit, samples=1, budget=None, scorer=sc)
    assert advice.learned and not advice.exact


def test_a_game_without_shipped_weights_plays_its_samples_out():
    from fantasy_scorer.realms.catalog import base_catalog

    hoards = base_catalog("cursed-hoards")
    assert shipped_model(hoards, 4) is None  # its cards have no weights
    with pytest.raises(ScorerError):
        advise(Situation(hoards, 4, tuple(hoards.suit_cards[:8]), ()), samples=1,
               evaluation="learned")


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 6), st.integers(0, 10**6), st.integers(0, 10), st.integers(0, 40),
       st.integers(50, 300))
def test_the_quick_evaluator_agrees_with_final(players, seed, area, deck, now):
    model = shipped_model(CAT, players)
    assert model is not None
    hand = random.Random(seed).sample(CAT.suit_cards, 7)
    for bank in (0, now // 10):
        mean, sd = model.at(area, deck)(hand, now, bank)
        want = model.final(hand, now, area, deck, bank)
        assert mean == pytest.approx(want[0]) and sd == pytest.approx(want[1])


def test_the_learned_deck_option_is_the_mean_over_every_card_the_deck_could_give():
    # before the draw, drawing from the deck is worth the mean, over every unseen card, of
    # the hand the model values most after drawing it (the discard that leaves it): here
    # over the DECK_CARDS of them that the seed draws
    pool = cards("Cavern, Forest, King, Swamp, Gem of Order, Hydra, Unicorn, Rainstorm, "
                 "Whirlwind, Knights")
    sit = Situation(CAT, 4, tuple(pool[:7]), tuple(pool[7:]))
    advice = advise(sit, samples=3, budget=None, scorer=SCORERS[4], evaluation="learned")
    deck = next(o for o in advice.options if o.deck)
    model = shipped_model(CAT, 4)
    assert model is not None
    finals = []
    for u in random.Random("deck:0").sample(sit.unseen, A.DECK_CARDS):
        held = sit.hand + (u,)
        finals.append(max(model.final(held[:i] + held[i + 1:],
                                      SCORERS[4].total(held[:i] + held[i + 1:], sit.area),
                                      len(sit.area) + 1, sit.deck - 1)[0]
                          for i in range(len(held))))
    assert deck.final.n >= 1 and deck.final.mean == pytest.approx(sum(finals) / len(finals))


def test_a_deadline_passed_values_the_first_chunk_of_deck_cards_only():
    # a budget spent while the deck's cards are valued keeps the cards valued so far (the
    # first chunk always): a hand whose sets score slowly must not spend every budget there
    pool = cards("Cavern, Forest, King, Swamp, Gem of Order, Hydra, Unicorn, Rainstorm")
    sit = Situation(CAT, 4, tuple(pool[:7]), tuple(pool[7:]))
    model = shipped_model(CAT, 4)
    assert model is not None
    rng = random.Random(5)
    every = A._deck_values(SCORERS[4], sit, model, random.Random(5))
    first = A._deck_values(SCORERS[4], sit, model, rng, deadline=0.0)
    assert len(every) == A.DECK_CARDS and len(first) == A.DECK_CHUNK
    assert first == {k: every[k] for k in list(every)[:A.DECK_CHUNK]}
