"""The advice: exact where the game ends (and then ``best``'s), legal always, repeatable."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fantasy_scorer.errors import ScorerError
from fantasy_scorer.realms.game.advice import Situation, advise
from fantasy_scorer.realms.game.scoring import Scorer
from fantasy_scorer.realms.solve.api import best_hand

from .helpers import CAT, PLAIN, assert_legal, cards, last_turn, mid_game

SCORERS = {p: Scorer(CAT, p) for p in range(2, 7)}


@settings(max_examples=30, deadline=None)
@given(last_turn())
def test_on_the_last_turn_the_advice_is_bests(sit):
    advice = advise(sit, samples=5, scorer=SCORERS[sit.players])
    assert advice.exact and advice.rounds == 0
    every = best_hand(list(sit.hand), CAT, list(sit.area), top=8)
    assert advice.recommended.discard is every[0].discard[0]
    assert [(o.discard, o.final.mean) for o in advice.options] == [
        (s.discard[0], s.total) for s in every]
    assert all(o.exact and o.improves.mean == 0 for o in advice.options)


def test_when_the_deck_is_empty_the_discard_ends_the_game_too():
    pool = cards("Knights, Queen, King, Swamp, Hydra, Forest, Cavern, Dragon, Rainstorm")
    sit = Situation(CAT, 3, tuple(pool[:8]), tuple(pool[8:]), deck_count=0)
    advice = advise(sit, samples=5)
    assert advice.exact
    assert advice.recommended.discard is best_hand(pool[:8], CAT, pool[8:])[0].discard[0]


def test_R13_on_the_last_turn_necromancer_may_take_back_the_card_discarded():
    # Discarding Dragon as the 10th card: the kept 7 score 138 (Necromancer 3, Magic Wand 26,
    # Bell Tower 23, Earth Elemental 64, Mountain 9, Forest 7, Cavern 6) and Necromancer takes
    # the Dragon from the final discard area: +30, Forest +12, Cavern +25 = 205.
    # Discarding Mountain instead keeps the Dragon: 3 + 26 + 23 + (4 + 15*3) + (7 + 12)
    # + (6 + 25) + 30 = 181 (Necromancer cannot take a Land). 'best', which does not count
    # the discard itself in the discard area, would say Mountain.
    hand = tuple(cards("Necromancer, Magic Wand, Bell Tower, Earth Elemental, Mountain, Forest,"
                       " Cavern, Dragon"))
    area = tuple(cards("Swamp, Island, Candle, Forge, Lightning, Smoke, Warship, Gem of Order,"
                       " World Tree"))
    advice = advise(Situation(CAT, 2, hand, area), samples=1)
    finals = {o.discard.name: o.final.mean for o in advice.options}
    assert advice.recommended.discard is CAT.card("Dragon")
    assert finals["Dragon"] == 205 and finals["Mountain"] == 181
    assert best_hand(list(hand), CAT, list(area))[0].discard == (CAT.card("Mountain"),)


def test_drawing_the_last_card_before_the_end_is_the_mean_over_every_unseen_card():
    rng = random.Random(5)
    pool = rng.sample(PLAIN, 16)
    sit = Situation(CAT, 4, tuple(pool[:7]), tuple(pool[7:]))  # 9 in the discard area
    advice = advise(sit, samples=2, scorer=SCORERS[4])
    deck = next(o for o in advice.options if o.deck)
    finals = [best_hand(list(sit.hand) + [u], CAT, list(sit.area))[0].total
              for u in sit.unseen]
    assert deck.exact and deck.final.mean == pytest.approx(sum(finals) / len(finals))


@settings(max_examples=15, deadline=None)
@given(mid_game(), st.integers(0, 1000))
def test_the_advice_never_advises_an_illegal_move(sit, seed):
    advice = advise(sit, seed=seed, samples=1, budget=None, scorer=SCORERS[sit.players])
    assert_legal(advice, sit)


def test_the_same_seed_and_samples_give_the_same_advice():
    pool = cards("Cavern, Forest, King, Swamp, Gem of Order, Fountain of Life, Hydra, "
                 "Rainstorm, Whirlwind, Unicorn")
    sit = Situation(CAT, 4, tuple(pool[:7]), tuple(pool[7:]))

    def figures(seed):
        a = advise(sit, seed=seed, samples=4, budget=None, scorer=SCORERS[4])
        return [(o.label(), o.final.mean, o.final.ci95, o.gift.mean, o.active)
                for o in a.options], a.rounds

    first = figures(3)
    assert first == figures(3)
    assert first[1] == 4


def test_the_gift_is_what_the_discard_adds_to_the_next_players_best_seven():
    # The next player is known to hold Magic Wand 1+25, Bell Tower 8+15, Earth Elemental
    # 4+15*4, Mountain 9, Forest 7, Cavern 6, Beastmaster 9 = 144. With Dragon they would drop
    # Mountain (9, and Earth Elemental's 15): 144 - 24 + Dragon 30 (Beastmaster is a Wizard)
    # + Beastmaster 9 + Forest 12 + Cavern 25 = 196: the gift is 52, in every sample.
    nxt = tuple(cards("Magic Wand, Bell Tower, Earth Elemental, Mountain, Forest, Cavern, "
                      "Beastmaster"))
    hand = tuple(cards("Dragon, Knights, Queen, King, Swamp, Hydra, Island, Rangers"))
    sit = Situation(CAT, 3, hand, tuple(cards("Smoke, Candle")), next_holds=nxt)
    advice = advise(sit, samples=3, budget=None, scorer=SCORERS[3], settle=True)
    dragon = next(o for o in advice.options if o.discard is CAT.card("Dragon"))
    assert dragon.gift.n >= 3 and dragon.gift.mean == 52 and dragon.gift.sd == 0


def _sit(hand: str, area: str = "", players: int = 4, **kw) -> Situation:
    return Situation(CAT, players, tuple(cards(hand)), tuple(cards(area)), **kw)


HAND7 = "Knights, Queen, King, Swamp, Hydra, Forest, Cavern"


@pytest.mark.parametrize("make, message", [
    (lambda: _sit(HAND7, "Knights, Dragon"), "Knights is both in the hand and in the discard "
                                             "area"),
    (lambda: _sit(HAND7, "Dragon, Island, Candle, Forge, Lightning, Smoke, Warship, "
                         "Gem of Order, World Tree, Mountain, Unicorn"),
     "the discard area holds 11 cards"),
    (lambda: _sit(HAND7, "Dragon, Island, Candle, Forge, Lightning, Smoke, Warship, "
                         "Gem of Order, World Tree, Mountain"), "the discard area holds 10"),
    (lambda: _sit(HAND7, players=1), "1 player: Fantasy Realms is played by 2 to 6"),
    (lambda: _sit("Knights, Queen, King, Swamp, Hydra, Forest"), "not 6"),
    (lambda: _sit(HAND7, "Dragon", next_holds=tuple(cards("Dragon"))),
     "Dragon is both in the discard area and held by the next player"),
])
def test_bad_situations_are_one_line_errors(make, message):
    with pytest.raises(ScorerError, match=message) as info:
        make()
    assert "\n" not in str(info.value)


def test_the_win_model_reads_the_greedy_scores_between_their_percentiles():
    from fantasy_scorer.realms.game.model import GREEDY_SCORES, WinModel

    two = WinModel(2)
    q = GREEDY_SCORES[2]  # 147 is the lowest score seen, 157 the 5th percentile
    assert two.below(q[0]) == 0 and two.below(q[0] - 50) == 0
    assert two.below(q[1]) == pytest.approx(0.05)
    assert two.below((q[0] + q[1]) / 2) == pytest.approx(0.025)
    assert two.below(q[-1] + 1) == 1
    assert two.win(q[10]) == pytest.approx(0.5)  # the median beats one player half the time
    four = WinModel(4)
    x = GREEDY_SCORES[4][15]  # the 75th percentile: 0.75 ** 3 against three players
    assert four.win(x) == pytest.approx(0.75 ** 3)
    # a gift of g raises the next player's score: they end below x as often as below x - g
    assert four.win(x, 10) == pytest.approx(0.75 ** 2 * four.below(x - 10))


def test_a_round_still_running_when_the_budget_is_spent_is_dropped_whole(monkeypatch):
    import time

    from fantasy_scorer.realms.game import advice as A

    sit = Situation(CAT, 4, tuple(cards("Knights, Queen, King, Swamp, Hydra, Forest, Cavern")),
                    tuple(cards("Dragon, Rainstorm")))
    sc = SCORERS[4]
    util = A._utility(sit, "win")
    options = A._draw_options(sc, sit, util)
    world = A.sample_world(sc, sit, random.Random(1))
    # (the play-outs: a round of many steps; the learned value ends a round in two)
    assert not A._round(sc, sit, world, options, util, deadline=time.perf_counter() - 1)
    assert all(not o.utility and o.final.n == 0 for o in options if not o.exact)
    assert A._round(sc, sit, world, options, util, deadline=None)
    assert all(len(o.utility) == 1 for o in options if not o.exact)
    # through advise, on a clock that moves a tenth of the budget at each reading: the first
    # round, asked for whatever the budget (min_samples), runs to its end; a later one the
    # budget ends inside is dropped, and only whole rounds are counted and recorded
    clock = iter(range(10**6))
    monkeypatch.setattr(A.time, "perf_counter", lambda: next(clock) / 10)
    ends = []
    lockstep = A._lockstep
    monkeypatch.setattr(A, "_lockstep", lambda *a: ends.append(lockstep(*a)) or ends[-1])
    got = advise(sit, budget=1.0, started=0.0, scorer=sc, evaluation="play-out",
                 min_samples=1)
    assert ends[0] is not None and ends[-1] is None  # the last round was cut short
    assert got.rounds == len(ends) - 1 >= 1
    assert max(len(o.utility) for o in got.options) == got.rounds
    # without min_samples the first round is bound by the budget too: cut short, none counted
    clock = iter(range(10**6))
    ends.clear()
    got = advise(sit, budget=1.0, started=0.0, scorer=sc, evaluation="play-out")
    assert ends == [None] and got.rounds == 0
    assert all(not o.utility for o in got.options)
