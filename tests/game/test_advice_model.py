"""The pieces of the advice's model: the play-outs' takes, the samples, greedy's defence."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from fantasy_scorer.realms.game.advice import (
    Option,
    Situation,
    _best_take,
    _defend_greedy,
    _discard_options,
    _draw_options,
    _utility,
    challenge_z,
    sample_world,
)
from fantasy_scorer.realms.game.bots import GreedyBot
from fantasy_scorer.realms.game.policy import greedy_draw, kept_hand
from fantasy_scorer.realms.game.scoring import Scorer

from .helpers import CAT, cards

SCORERS = {p: Scorer(CAT, p) for p in range(2, 7)}


def _run(sc: Scorer, step):
    """Drive a play-out step (a generator asking for totals) to its value."""
    try:
        ask = next(step)
        while True:
            ask = step.send(sc.totals(ask))
    except StopIteration as stop:
        return stop.value


@st.composite
def tables(draw):
    """A hand of 7 and a discard area of 1 to 9 cards, from a random deal."""
    players = draw(st.integers(2, 6))
    rng = random.Random(draw(st.integers(0, 10**9)))
    pool = rng.sample(list(CAT.suit_cards), 7 + draw(st.integers(1, 9)))
    return players, tuple(pool[:7]), tuple(pool[7:])


@settings(max_examples=40, deadline=None)
@given(tables())
def test_a_play_out_takes_what_the_greedy_bot_takes(table):
    # My turns in a play-out look at the cards discarded since my last turn; offered the
    # whole discard area, they must take exactly the card the greedy bot takes (or none).
    players, hand, area = table
    sc = SCORERS[players]
    assert _run(sc, _best_take(hand, list(area), area)) is greedy_draw(sc, hand, area)


def test_a_play_out_takes_a_fresh_card_that_is_not_the_last_one():
    # The hand scores 135: Mountain 9, Cavern 6, Forest 7 + 12 (Elven Archers) = 19, Bell
    # Tower 8, Earth Elemental 4 + 15 * 4 other Lands = 64, Island 14, Elven Archers 10 + 5
    # (no Weather) = 15. Since my last turn Dwarvish Infantry, then Knights were discarded.
    # Dwarvish Infantry for Island: 135 - 14 + (15 - 2 for Elven Archers) + 25 (Cavern with
    # Dwarvish Infantry) = 159. Knights for Island, the cheapest card to lose: 135 - 14
    # + (20 - 8, no Leader) = 133, no gain. Greedy takes Dwarvish Infantry, the fresh card
    # before the last one; looking at the last one only, it would draw from the deck.
    hand = tuple(cards("Mountain, Cavern, Forest, Bell Tower, Earth Elemental, Island, "
                       "Elven Archers"))
    area = tuple(cards("Dwarvish Infantry, Knights"))
    sc = SCORERS[4]
    assert sc.total(hand) == 135
    assert _run(sc, _best_take(hand, list(area), area)) is CAT.card("Dwarvish Infantry")
    assert _run(sc, _best_take(hand, [CAT.card("Knights")], area)) is None


@settings(max_examples=40, deadline=None)
@given(tables(), st.integers(0, 10**6))
def test_a_sample_places_every_unseen_card_once(table, seed):
    players, hand, area = table
    sit = Situation(CAT, players, hand, area)
    world = sample_world(SCORERS[players], sit, random.Random(seed))
    placed = list(world.next_hand) + world.draws + world.stream
    assert sorted(c.id for c in placed) == sorted(c.id for c in sit.unseen)
    assert len(world.next_hand) == CAT.hand_size
    assert world.draws  # I always have a card to draw


@settings(max_examples=30, deadline=None)
@given(tables())
def test_greedys_choice_is_marked_once_and_is_the_greedy_bots(table):
    players, hand, area = table
    sc = SCORERS[players]
    sit = Situation(CAT, players, hand, area)
    util = _utility(sit, "win")
    draws = _draw_options(sc, sit, util)
    marked = [o for o in draws if o.greedy]
    assert len(marked) == 1
    take = greedy_draw(sc, hand, area)
    assert (None if marked[0].deck else marked[0].take) is take
    if take is not None:  # and it keeps greedy's best 7 after the take
        rest = tuple(c for c in area if c is not take)
        kept = tuple(c for c in hand + (take,) if c is not marked[0].discard)
        assert sc.total(kept, rest) == sc.best_keep(hand + (take,), rest)[0]
    after = Situation(CAT, players, hand + (area[0],), area[1:])
    discards = [o for o in _discard_options(sc, after, util) if o.greedy]
    bot = GreedyBot(random.Random(0), sc)
    view = type("V", (), {"hand": after.hand, "discard": after.area})()
    assert [o.discard for o in discards] == [bot.choose_discard(view)]


def _option(utility: list[float], greedy: bool = False) -> Option:
    return Option(discard=CAT.suit_cards[len(utility)], utility=list(utility), greedy=greedy)


def test_greedys_choice_stays_first_unless_clearly_beaten():
    # Paired differences 0.1, -0.1, 0.1, 0: mean 0.025, sd sqrt((3 * 0.075^2 + 0.025^2
    # + ...)/3) = 0.0957, se 0.0479: the leader is ahead by 0.52 se, not the 2.5 se needed.
    keeper = _option([0.2, 0.3, 0.2, 0.1], greedy=True)
    leader = _option([0.3, 0.2, 0.3, 0.1])
    options = [leader, keeper]
    _defend_greedy(options)
    assert options[0] is keeper
    # Differences 0.1, 0.1, 0.2, 0.1: mean 0.125, sd 0.05, se 0.025: 5 se ahead.
    leader = _option([0.3, 0.4, 0.4, 0.2])
    options = [leader, keeper]
    _defend_greedy(options)
    assert options[0] is leader


def test_with_two_players_a_leader_needs_fewer_standard_errors():
    # Differences 0, 0.3, 0.1, 0.2: mean 0.15, sd sqrt(0.05 / 3) = 0.129, se 0.0645: the
    # leader is 2.3 se ahead, short of the 2.5 of 3 or more players, past the duel's 1.5
    keeper = _option([0.2, 0.3, 0.2, 0.1], greedy=True)
    leader = _option([0.2, 0.6, 0.3, 0.3])
    for players, first in ((4, keeper), (3, keeper), (2, leader)):
        options = [leader, keeper]
        _defend_greedy(options, challenge_z(players))
        assert options[0] is first, players
    # and the help says the bars the advice uses
    from fantasy_scorer.cli.advise import ADVISE_HELP

    assert (f"beats it by {challenge_z(4):g} standard errors, {challenge_z(2):g} with 2 "
            "players") in " ".join(ADVISE_HELP.split())


# -- the next player's kept hand -------------------------------------------------------------

def test_a_kept_hand_drops_the_card_that_spoils_it():
    """Seven Army, Leader and Land cards and Wildfire, offered last: Wildfire blanks six of
    the seven (only Flames, Weather, Weapons, Wizards, Artifacts and a few named cards stay),
    so a greedy player lets it go at once."""
    sc = SCORERS[4]
    seven = tuple(cards("Knights, Rangers, Light Cavalry, King, Queen, Mountain, Forest"))
    kept = kept_hand(sc, (), list(seven) + cards("Wildfire"), 7)
    assert set(kept) == set(seven)


def test_a_kept_hand_never_drops_a_known_card():
    """The next player took Wildfire from the discard area: it is in their hand whatever it
    does to the rest, so the kept hand holds it and six of the others."""
    sc = SCORERS[4]
    known = tuple(cards("Wildfire"))
    others = cards("Knights, Rangers, Light Cavalry, King, Queen, Mountain, Forest")
    kept = kept_hand(sc, known, others, 6)
    assert known[0] in kept and len(kept) == 7 and set(kept) - set(known) <= set(others)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 2), st.integers(0, 10))
def test_a_kept_hand_is_the_best_seven_each_time(seed, n_known, offered):
    """Each card offered, the kept hand is the best 7 of the 8 that may change (the known
    cards stay): its total is at least that of keeping the hand as it was, and equals the
    best hand ``best`` finds among the cards it could keep, for the last offer."""
    from fantasy_scorer.realms.solve.api import best_hand

    sc = SCORERS[3]
    pool = random.Random(seed).sample(CAT.suit_cards, 7 + offered)
    known, rest = tuple(pool[:n_known]), pool[n_known:]
    kept = kept_hand(sc, known, rest, 7 - n_known)
    assert len(kept) == 7 and set(known) <= set(kept) and set(kept) <= set(pool)
    if offered:
        before = kept_hand(sc, known, rest[:-1], 7 - n_known)
        assert sc.total(kept) >= sc.total(before)
        if not known:
            assert sc.total(kept) == best_hand(list(before) + [rest[-1]], CAT,
                                               players=3)[0].total


def test_the_next_players_turns_come_from_the_game_or_the_discard_area():
    # without a history: 6 cards in a 4-player discard area, a take rate of 0.644, are
    # about 6 / (1 - 0.644) = 16.9 turns, 4.2 each: the next player has had 4
    pool = CAT.suit_cards
    sit = Situation(CAT, 4, tuple(pool[:7]), tuple(pool[7:13]))
    assert sit.drawn_by_next == 4
    # the same with one card known in their hand: 3 more were offered
    assert Situation(CAT, 4, tuple(pool[:7]), tuple(pool[7:13]),
                     next_holds=(pool[13],)).drawn_by_next == 3
    # a game: seat 1 (the next player of seat 0) takes seat 0's discard, then draws
    from fantasy_scorer.realms.game.engine import Game

    game = Game.deal(CAT, 3, "turns")
    first = game.hands[0][0]
    game.draw(None)
    game.discard(first)           # seat 0
    game.draw(first)
    game.discard(game.hands[1][0])  # seat 1 takes it and keeps it
    game.draw(None)
    game.discard(game.hands[2][0])  # seat 2
    game.draw(None)
    game.discard(game.hands[0][0])  # seat 0
    game.draw(None)
    game.discard(game.hands[1][1])  # seat 1 draws from the deck
    game.draw(None)
    game.discard(game.hands[2][0])  # seat 2
    game.draw(None)  # seat 0 again, after its draw: seat 1 has had 2 turns, holds 1 known
    sit = Situation.from_view(game.view())
    assert sit.next_holds == (first,)
    assert sit.drawn_by_next == 1
