"""Bots see only what a player sees, and never make an illegal move."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fantasy_scorer.realms.game.bots import AdvisorBot, GreedyBot, RandomBot
from fantasy_scorer.realms.game.engine import Game, play
from fantasy_scorer.realms.game.policy import greedy_draw
from fantasy_scorer.realms.game.scoring import Scorer
from fantasy_scorer.realms.solve.api import best_hand

from .helpers import CAT

SCORERS = {p: Scorer(CAT, p) for p in range(2, 7)}


class Checked:
    """Wraps a bot: every answer must be one of the engine's legal moves, and every view
    must show exactly the seat's own hand and the public table."""

    def __init__(self, bot, game: Game) -> None:
        self.bot, self.game, self.name = bot, game, bot.name

    def _check_view(self, view) -> None:
        game = self.game
        assert view.seat == game.current
        assert view.hand == tuple(game.hands[game.current])
        assert view.discard == tuple(game.area)
        assert view.deck_count == len(game.deck)
        assert view.hand_counts == tuple(len(h) for h in game.hands)
        hidden = {c.id for s, h in enumerate(game.hands) if s != view.seat for c in h}
        hidden |= {c.id for c in game.deck}
        # what the player may not see is exactly what it calls unseen, less the cards
        # others took from the discard area (public knowledge)
        known = {c.id for s in range(game.players) if s != view.seat for c in view.known(s)}
        assert {c.id for c in view.unseen} == hidden - known
        assert known <= hidden

    def choose_draw(self, view):
        self._check_view(view)
        move = self.bot.choose_draw(view)
        assert move in self.game.legal_draws()
        return move

    def choose_discard(self, view):
        self._check_view(view)
        assert view.drawn is not None and view.drawn in view.hand
        move = self.bot.choose_discard(view)
        assert move in self.game.legal_discards()
        return move


def _play(players: int, seed: int, kinds: list[str], samples: int = 2):
    game = Game.deal(CAT, players, seed=seed)
    sc = SCORERS[players]
    make = {"random": lambda r: RandomBot(r, sc), "greedy": lambda r: GreedyBot(r, sc),
            "advisor": lambda r: AdvisorBot(r, sc, samples=samples)}
    bots = [Checked(make[k](random.Random(seed * 10 + i)), game) for i, k in enumerate(kinds)]
    return game, play(game, bots)


def _check_record(game: Game, record) -> None:
    every = [c.id for h in game.hands for c in h] + [c.id for c in game.area + game.deck]
    assert sorted(every) == sorted(c.id for c in CAT.suit_cards)  # each card in one place
    assert all(len(h) == 7 for h in record.hands)
    assert len(record.discard) == 10 or record.deck_left == 0
    assert sum(record.share(s) for s in range(game.players)) == 1.0 or abs(
        sum(record.share(s) for s in range(game.players)) - 1.0) < 1e-9


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 6), st.integers(0, 10**6), st.data())
def test_random_and_greedy_bots_play_legal_games(players, seed, data):
    kinds = data.draw(st.lists(st.sampled_from(["random", "greedy"]), min_size=players,
                               max_size=players))
    game, record = _play(players, seed, kinds)
    _check_record(game, record)


@settings(max_examples=3, deadline=None)
@given(st.integers(2, 4), st.integers(0, 10**6))
def test_the_advisor_plays_legal_games(players, seed):
    kinds = ["advisor"] + ["random"] * (players - 1)
    game, record = _play(players, seed, kinds, samples=1)
    _check_record(game, record)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6))
def test_greedy_draws_the_card_that_most_raises_its_best_seven(seed):
    rng = random.Random(seed)
    pool = rng.sample(CAT.suit_cards, 7 + rng.randint(1, 9))
    hand, area = tuple(pool[:7]), tuple(pool[7:])
    sc = SCORERS[4]
    now = sc.total(hand, area)
    gains = []
    for c in area:
        rest = [d for d in area if d is not c]
        gains.append(best_hand(list(hand) + [c], CAT, rest, players=4)[0].total)
    choice = greedy_draw(sc, hand, area)
    if max(gains) <= now:
        assert choice is None
    else:
        assert choice is area[gains.index(max(gains))]  # the oldest of the best


def test_a_simulation_in_two_parts_is_the_simulation():
    from fantasy_scorer.realms.game.simulate import simulate

    lineup = ["greedy", "random", "greedy"]
    whole = simulate(CAT, 3, lineup, 6, seed="parts", scorer=SCORERS[3])
    first = simulate(CAT, 3, lineup, 4, seed="parts", scorer=SCORERS[3])
    rest = simulate(CAT, 3, lineup, 2, seed="parts", scorer=SCORERS[3], start=4)
    merged = first.merge(rest)
    assert merged.games == 6 and merged.turns == whole.turns
    assert [b.shares for b in merged.bots] == [b.shares for b in whole.bots]
    assert [b.scores for b in merged.bots] == [b.scores for b in whole.bots]


def test_seats_rotate_so_that_each_bot_starts_in_turn(monkeypatch):
    import fantasy_scorer.realms.game.simulate as sim_module

    starts = []

    class First:
        """Records, per game, which line-up entry played the first turn."""

        name = "first"

        def __init__(self, i):
            self.i = i

        def choose_draw(self, view):
            if not view.turns:
                starts.append(self.i)
            return None

        def choose_discard(self, view):
            return view.drawn

    made = iter(range(10**6))
    monkeypatch.setattr(sim_module, "make_bot",
                        lambda name, rng, sc, samples, budget, *rest: First(next(made) % 3))
    sim_module.simulate(CAT, 3, ["greedy"] * 3, 6, seed="rot", scorer=SCORERS[3])
    assert starts == [0, 2, 1, 0, 2, 1]  # entry i sits at seat (i + g) mod 3


class Asked(Exception):
    pass


def test_an_advisor_given_no_samples_draws_the_default_for_its_table(monkeypatch) -> None:
    # four players: the count measured to pay there (samples.SAMPLES); any other table: the
    # base count; a number or a time budget given is what the advice gets
    from fantasy_scorer.realms.game import bots as bots_module
    from fantasy_scorer.realms.game.samples import BASE_SAMPLES, SAMPLES

    asked: list[tuple] = []

    def spy(sit, *, samples, budget, **_):
        asked.append((sit.players, samples, budget))
        raise Asked  # the spy needs the arguments only

    monkeypatch.setattr(bots_module, "advise", spy)
    for players, made in ((4, {}), (2, {}), (3, {"samples": 5}), (4, {"budget": 0.5})):
        game = Game.deal(CAT, players, "defaults")
        bot = AdvisorBot(random.Random(0), SCORERS[players], **made)
        with pytest.raises(Asked):
            bot.choose_draw(game.view())
    assert asked == [(4, SAMPLES[4], None), (2, BASE_SAMPLES, None), (3, 5, None),
                     (4, None, 0.5)]
    assert SAMPLES[4] > BASE_SAMPLES


@settings(max_examples=3, deadline=None)
@given(st.integers(0, 10**6))
def test_four_advisors_never_take_their_way_back_to_a_position(seed):
    # A turn that takes from the discard area moves the game no nearer its end; four
    # advisors at one table once passed (took a card, discarded it again) for ever, and once
    # swapped cards round the table for a thousand turns (issue 36). No advisor's take may
    # lead to a position (its hand, the discard area) it has been in before.
    game = Game.deal(CAT, 4, seed=seed)
    been: list[set] = [set() for _ in range(4)]

    def where(hand, area):
        return frozenset(c.id for c in hand), frozenset(c.id for c in area)

    class Watched(Checked):
        def choose_draw(self, view):
            been[view.seat].add(where(view.hand, view.discard))
            self.took = super().choose_draw(view)
            return self.took

        def choose_discard(self, view):
            move = super().choose_discard(view)
            if self.took is not None:
                after = where([c for c in view.hand if c != move], [*view.discard, move])
                assert after not in been[view.seat]
                been[view.seat].add(after)
            return move

    sc = SCORERS[4]
    record = play(game, [Watched(AdvisorBot(random.Random(seed * 10 + i), sc, samples=2),
                                 game) for i in range(4)])
    _check_record(game, record)
    assert all(t.discarded != t.taken for t in record.turns if t.taken is not None)


def _after_four_draws_from_the_deck(seed: int) -> Game:
    """A 4-player game after four turns from the deck: the discard area holds four cards."""
    game = Game.deal(CAT, 4, seed=seed)
    for _ in range(4):
        game.draw(None)
        game.discard(game.hands[game.current][0])
    return game


def test_an_advisor_whose_advice_is_to_give_back_the_card_it_took_plays_the_next_option(
        monkeypatch) -> None:
    from fantasy_scorer.realms.game import bots

    game = _after_four_draws_from_the_deck(seed=5)
    wanted = game.area[0]
    advice = []

    def advise(sit, **kw):
        return SimpleNamespace(options=advice.pop(0))

    monkeypatch.setattr(bots, "advise", advise)
    bot = AdvisorBot(random.Random(1), SCORERS[4], samples=2)
    keep = game.hands[game.current][3]
    advice.append([SimpleNamespace(deck=False, take=wanted, discard=keep)])
    assert bot.choose_draw(game.view()) == wanted
    game.draw(wanted)
    advice.append([SimpleNamespace(discard=wanted), SimpleNamespace(discard=keep)])
    assert bot.choose_discard(game.view()) == keep
    # a card drawn from the deck may be discarded at once: that turn does move the game on
    advice.append([SimpleNamespace(deck=True, take=None, discard=None)])
    assert bot.choose_draw(game.view()) is None
    advice.append([SimpleNamespace(discard=wanted)])
    assert bot.choose_discard(game.view()) == wanted


def test_an_advisor_draws_from_the_deck_rather_than_take_its_way_back_to_a_position(
        monkeypatch) -> None:
    from fantasy_scorer.realms.game import bots

    game = _after_four_draws_from_the_deck(seed=6)
    view = game.view()
    wanted, out = game.area[1], view.hand[2]
    take = SimpleNamespace(deck=False, take=wanted, discard=out)
    deck = SimpleNamespace(deck=True, take=None, discard=None)
    monkeypatch.setattr(bots, "advise", lambda sit, **kw: SimpleNamespace(options=[take, deck]))
    bot = AdvisorBot(random.Random(1), SCORERS[4], samples=2)
    assert bot.choose_draw(view) == wanted  # a position it has not been in: taken
    # the same turn again, once it has been where that take leads (as after a cycle of
    # swaps round the table): the deck instead
    bot.been.add((frozenset(c.id for c in view.hand if c != out) | {wanted.id},
                  frozenset(c.id for c in game.area if c != wanted) | {out.id}))
    assert bot.choose_draw(view) is None
