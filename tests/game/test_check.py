"""The check of the learned value's choice by play-outs of the whole game (issue 36)."""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from fantasy_scorer.realms.game.advice import Situation, _check, advise
from fantasy_scorer.realms.game.bots import GreedyBot
from fantasy_scorer.realms.game.check import (
    Prior,
    deal,
    finish_greedy,
    play_move,
    smooth_win,
)
from fantasy_scorer.realms.game.engine import Game, play
from fantasy_scorer.realms.game.scoring import Scorer

from .helpers import CAT, assert_legal

SC4 = Scorer(CAT, 4)


def _greedy_until(seed: int, turns: int, discard_step: bool = False) -> Game:
    """A 4-player greedy game after ``turns`` turns (and the next draw if
    ``discard_step``)."""
    game = Game.deal(CAT, 4, f"check:{seed}")
    bot = GreedyBot(random.Random(0), SC4)
    for _ in range(turns):
        if game.over:
            break
        game.draw(bot.choose_draw(game.view()))
        game.discard(bot.choose_discard(game.view()))
    if discard_step and not game.over:
        game.draw(bot.choose_draw(game.view()))
    return game


def _world(sit: Situation, seed: int) -> Game:
    holds = [sit.next_holds, sit.elsewhere[:7], sit.elsewhere[7:14]]
    return deal(SC4, sit.hand, sit.area, sit.deck, holds, [2, 2, 2], list(sit.unseen),
                random.Random(seed))


@st.composite
def positions(draw, most: int = 16, draws: bool = True) -> Game:
    """A 4-player greedy game, not over, after up to ``most`` turns (and, if ``draws``,
    perhaps the next player's draw)."""
    game = _greedy_until(draw(st.integers(0, 10**6)), draw(st.integers(0, most)),
                         draws and draw(st.booleans()))
    assume(not game.over)
    return game


@settings(max_examples=25, deadline=None)
@given(positions(14), st.integers(0, 10**6))
def test_a_world_places_every_card_once_and_keeps_the_known_ones(game, seed):
    sit = Situation.from_view(game.view())
    world = _world(sit, seed)
    placed = [c.id for h in world.hands for c in h] + [c.id for c in world.area] + [
        c.id for c in world.deck]
    assert sorted(placed) == sorted(c.id for c in CAT.suit_cards)  # each card once
    assert len(world.deck) == sit.deck
    assert [len(h) for h in world.hands] == [len(sit.hand), 7, 7, 7]
    assert tuple(world.hands[0]) == sit.hand and tuple(world.area) == sit.area
    assert set(sit.next_holds) <= set(world.hands[1])
    assert set(sit.elsewhere) <= set(world.hands[2]) | set(world.hands[3])


@settings(max_examples=10, deadline=None)
@given(positions(14, draws=False), st.integers(0, 10**6))
def test_greedy_to_the_end_is_the_greedy_bots_game_and_scores_as_the_engine(game, seed):
    world = _world(Situation.from_view(game.view()), seed)
    twin = Game(CAT, 4, None, list(world.deck), [list(h) for h in world.hands],
                list(world.area), [], 0, None)
    scores = finish_greedy(SC4, world)
    bot = GreedyBot(random.Random(0), SC4)
    record = play(twin, [bot] * 4, SC4)  # the engine's own scoring (resolve)
    assert scores == [record.score(s) for s in range(4)]


def test_a_move_that_ends_the_game_is_worth_its_exact_margin():
    # nine cards in the discard area: my discard ends the game, nobody plays after it
    game = _greedy_until(5, 0)
    game.area, rest = list(game.deck[-9:]), game.deck[:-9]
    game.deck = rest
    game.draw(None)
    sit = Situation.from_view(game.view())
    world = _world(sit, 1)
    out = sit.hand[0]
    kept = tuple(c for c in sit.hand if c is not out)
    area = tuple(world.area) + (out,)
    scores = [SC4.total(kept, area)] + [SC4.total(tuple(h), area) for h in world.hands[1:]]
    assert play_move(SC4, world, None, False, out) == smooth_win(scores)


def test_smooth_win_is_a_half_on_a_tie_and_grows_with_the_margin():
    assert smooth_win([180, 180, 120, 90]) == 0.5
    assert smooth_win([190, 180, 120, 90]) > 0.5 > smooth_win([170, 180, 120, 90])
    # 1 / (1 + e^-1) at a margin of one scale (10 points)
    assert smooth_win([190, 180, 120, 90]) == pytest.approx(0.7310586)


def test_the_posterior_weighs_the_prior_and_the_worlds_by_their_precisions():
    p = Prior(a=0.0, b=0.5, tau=0.1, world_sd=0.4)
    # no world: the prior, 0.5 * 0.2
    assert p.posterior(0.2, -1.0, 0) == pytest.approx(0.1)
    # 16 worlds: precisions 100 (prior) and 100 (16 / 0.16): the midpoint of 0.1 and -0.3
    assert p.posterior(0.2, -0.3, 16) == pytest.approx(-0.1)
    # many worlds: the worlds' mean
    assert p.posterior(0.2, -0.3, 10**9) == pytest.approx(-0.3, abs=1e-6)


def _situation(seed: int) -> Situation:
    return Situation.from_view(_greedy_until(seed, 6).view())


def test_a_check_is_repeatable_from_its_seed_and_world_count():
    sit = _situation(3)
    a = advise(sit, seed=7, budget=None, samples=6, scorer=SC4, checks=3)
    b = advise(sit, seed=7, budget=None, samples=6, scorer=SC4, checks=3)
    assert a.check == b.check
    assert a.recommended.label() == b.recommended.label()
    assert advise(sit, seed=7, budget=None, samples=6, scorer=SC4).check is None


@pytest.mark.parametrize("a, first_is_greedy", [(-1.0, True), (1.0, False)])
def test_a_check_puts_greedys_choice_first_only_when_it_overturns_the_leader(a,
                                                                           first_is_greedy):
    # a prior sure of itself (tau tiny): the check's verdict is the prior's sign
    sit = _situation(11)
    ad = advise(sit, seed=1, budget=None, samples=8, scorer=SC4, checks=0)
    options = list(ad.options)
    if options[0].greedy:  # make the leader another option, as when the model prefers it
        options.insert(0, options.pop(1))
    prior = Prior(a=a, b=0.0, tau=1e-6, world_sd=0.4)
    done = _check(SC4, sit, options, prior, 1, None, 2)
    assert done is not None and done.worlds == 2
    assert done.kept is not first_is_greedy
    assert options[0].greedy is first_is_greedy


@settings(max_examples=8, deadline=None)
@given(positions(16), st.integers(0, 10**6))
def test_checked_advice_is_always_a_legal_move(game, seed):
    sit = Situation.from_view(game.view())
    assert_legal(advise(sit, seed=seed, budget=None, samples=4, scorer=SC4, checks=2), sit)
