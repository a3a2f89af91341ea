"""Advice for the middle of the game: which card to draw and which to discard, looking ahead.

``fr-score best`` says which 7 of 8 cards score most *now*; that is the right answer on the
last turn only. Before it, the question is what the hand will score *at the end*, and what a
discard gives the next player. The model, in short:

* **What I know.** My hand, the discard area in order, the number of players, and the cards
  known to be in other hands (taken from the discard area, or ``--seen``). Every other card
  (the *unseen* cards) is equally likely to be anywhere: in the deck, in any order, or hidden
  in another hand.
* **A sample** shuffles the unseen cards. The first ones make a hand the next player may
  hold, *kept* as a greedy player keeps one: the cards known to be in it, the first
  unseen cards to fill it, then five more unseen cards (:data:`KEPT_STEPS`) for each of
  their turns so far (less the known cards), taken one by one, the card whose loss
  leaves the best total going each time (never a known one). Five, not one, because a
  greedy player also picks the best card of the discard area. A random hand is far weaker
  than a kept one: measured in greedy games (``benchmarks/game.py gift``), it made the
  gift of a discard about 2.4 times too large; kept hands bring that to 1.4 (four
  players) and 1.06 (two). Of the rest, a share (a 1/players part and two more) are the
  deck cards I will draw, in order, and the others the cards the other players will
  discard. The two are apart so that an option that draws a card now does not
  shift every later card: options are compared on the same luck.
* **The rest of the game** is played out from each option on the same sample (common random
  numbers). Players take turns in order. Another player takes a random card of the discard
  area with the *take rate* (from the turns seen so far; without history, the rate measured
  in games of greedy bots), else draws from the deck; either way they discard a card of the
  sample. On my turns I play greedy: the card of the discard area that most raises my best
  7, else the deck; then the discard that leaves the best 7. (With three players or more,
  the play-outs look only at the cards discarded since my last turn: cheaper, and closer to
  greedy games than looking at all, since the others' discards are random cards here.)
  With two players the other one is played out greedy too, from the sampled hand: my
  discard if it raises their best 7, else the deck, then their best discard. The game ends
  when the discard area holds 10 cards or the deck is empty, and my final hand is scored (a
  Necromancer takes its best card from the final discard area). Checked against greedy
  games (``benchmarks/game.py calibrate``), these play-outs predict a greedy player's final
  score within about 12 points, from the first turn on.
* **The learned value** (``evaluation``, the default wherever weights ship:
  :data:`LEARNED_TABLES`) replaces the play-out: a sample ends right after my turn, and the
  model of :mod:`.value` (trained on greedy games) gives the kept hand's expected final
  score and its spread (with two players from its *bank* too, the most a card left in the
  discard area would raise it, scored once per decision: :func:`_banks`); the deck is valued
  once, over :data:`DECK_CARDS` unseen cards, each followed by the discard the model values
  most. The chance of winning is then the mean, over that spread, of the chance below. With
  two players the other player's sampled hand is valued by the same model, after they take
  the card I discard if it raises their hand (greedy's take, so a discard of mine can feed
  them; every other card of the area they passed over at their last turn), and a sample's
  chance is that of my normal final score beating theirs (the *duel*). A sample costs about
  what the next player's kept hand and its gifts cost, so a tenth of a second gives a
  decision. Near the end of a 2-player game (:data:`ENDGAME_ROOM`) the samples are played
  out again: the few turns left are cheap to play, and a play-out knows exactly whose turn
  ends the game and what each discard hands the other player to the end, where the model has
  only an average. (Not for a hand of many choices, whose first round of play-outs does not
  end within half the budget: the learned value then has the rest of it.)
* **The figures** of an option are means over the samples, each with its 95% interval: the
  expected final score, the probability that the final score beats the best 7 of now, and the
  *gift*: how much the discarded card raises the best 7 of the sampled next player's hand.
* **The recommendation** is the option with the highest chance of winning. With two
  players, a sample is won when my final score beats the other player's (a tie counts a
  half); the ranking counts it smoothly, as the logistic of the difference at a scale of 20
  points (the same order, much less noise). With more, each sample's final score is set
  against the other players' final scores, taken to be independent and spread as in games
  of greedy bots (``model.py``), the next player's raised by the most any card of the
  discard area after my turn gives them (a greedy player takes that card; so a take of mine
  can deny it). A take leaves the game a turn of the deck longer than a draw from the deck
  does, and the others' hands grow in that turn as mine does: with the learned value, my
  final score is lowered by what a greedy hand gains in the turns a take adds
  (:func:`_longer`).
  (``objective="score"`` ranks by the expected final score less the gift / (players - 1).)
  The best of many noisy means looks better than it is, so **greedy's choice stays** (what
  ``fr-score best`` and the greedy bot do) unless the leader beats it by 2.5 standard errors
  of their paired differences (1.5 with two players: :func:`challenge_z`).
  Options are sampled in rounds (a round is started while the budget lasts, and a round
  still running when the budget is spent is dropped, the first one too unless the caller
  asks for a few rounds whatever the budget: ``min_samples``, as the page does; all
  options' play-outs of a round are scored together). From the 4th round an option whose
  paired difference with greedy's choice lies two standard errors below zero stops being
  sampled (for a bot, also one that could at best add half a percentage point);
  from the 6th, one clearly worse than the leader (its paired difference below zero at the
  99% level of Student's t).
  The work stops when the time budget is spent or at a fixed number of samples; a bot also
  stops when one option is left (``settle=False``).
* **The check** (:mod:`.check`; four players, the learned value, a budget of half a
  second or more): a choice other than greedy's is played out against greedy's to the end
  of the game, every player greedy, on deals of every hidden card (the other hands kept as
  greedy players keep theirs); the model's promise is the prior and the play-outs the
  data, and greedy's choice is put back first when the posterior says the model's is worse.
  A second of samples of the learned value chooses as a tenth does; the check is what the
  rest of the second buys.
* **Exact where the game ends.** When my discard ends the game (the discard area then holds
  10 cards, or the deck is empty), each discard's final score is exact, and the advice is
  ``fr-score best``'s. Drawing from the deck when that draw is my last is exact too: the mean
  over every unseen card. (With Cursed Hoards, a hand with a card that takes a deck card at
  the end is sampled instead: that card is unknown.)

Deterministic from ``seed`` for a given number of samples (a time budget may stop at a
different count on another machine; fix ``samples`` to reproduce exactly).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

from ...errors import ScorerError
from ..catalog import Card, Catalog
from ..hand import MAX_DISCARD
from .check import CHECK_FROM, MODEL_SHARE, PRIORS, Check, Prior, check, deal
from .engine import View, check_players, deck_extras
from .model import TAKE_RATE, WinModel
from .policy import greedy_draw, kept_hand
from .scoring import Scorer
from .stats import Estimate, t99
from .value import ValueModel, bank, normal_above, room, shipped_model, turns_left

PRIOR_TURNS = 6  # how many turns the measured take rate weighs against the observed ones

ROUNDS_BEFORE_RACING = 6  # samples every option gets before any is dropped
BUDGET_AIM = 0.95  # the share of the time budget in which a round of samples may start
#: How far (in standard errors of the paired difference) an option must beat greedy's own
#: choice to replace it: the best of many noisy means looks better than it is (with 15
#: options, the best of 14 equal ones lies a standard error above greedy's 9 times in 10).
#: Measured: on the same 20 four-player deals, 1.0 won 25% (mean score 197), 2.5 won 40%
#: (mean score 224). With two players the learned value (with the bank) earns a lower bar:
#: on the same 1,000 held-out deals at 0.1 s, 2.5 won 57.6%, 1.5 59.5%, 1.0 58.7%
#: (docs/advice.md). :func:`challenge_z` says which applies.
CHALLENGE_Z = 2.5
CHALLENGE_Z_DUEL = 1.5
#: From this round on, an option whose paired difference with greedy's choice lies below
#: zero by ``PRUNE_Z`` standard errors stops being sampled: it is very unlikely ever to
#: beat that choice by :func:`challenge_z`.
ROUNDS_BEFORE_PRUNING, PRUNE_Z = 4, 2.0
#: A bot (``settle=False``) also stops sampling an option that could at best add this much
#: to greedy's choice (a chance of winning, or points): a difference not worth the time.
INDIFFERENCE = {"win": 0.005, "score": 1.0}
#: With two players, the chance of winning a sample is counted smoothly, as the logistic of
#: the score difference at this scale (points): it ranks options as the duel does, with far
#: less noise than 1-or-0 per sample.
DUEL_SCALE = 20.0
TAKE_DISCARDS = 2  # for each card I could take, the discards considered after it
#: How many unseen cards the next player's sampled hand is offered per turn of theirs (the
#: kept hand, see :func:`sample_world`): a greedy player also picks the best card of the
#: discard area, so one card a turn keeps hands too weak. Measured in greedy games
#: (``benchmarks/game.py gift``, 40 four-player and 30 two-player games, the gift of
#: greedy's discard estimated over 20 sampled hands vs the real one): a random hand
#: 19.9 vs 8.0 points (4 players), 19.7 vs 8.6 (2); one card a turn 14.2 vs 7.9; three
#: 11.7; five 10.9 vs 7.9 (4 players) and 9.1 vs 8.6 (2).
KEPT_STEPS = 5
#: The table sizes where ``evaluation="auto"`` uses the learned value: all. With two players
#: it values the other player's sampled hand too (the duel, see :func:`_rival_value`): at
#: 0.1 s a decision it won more 2-player games than the play-outs (docs/advice.md).
LEARNED_TABLES = (2, 3, 4, 5, 6)
#: With the learned value, how many unseen cards (drawn at random) the deck option is valued
#: over: the mean over 24 of about 100 cards is within a few points of the mean over all,
#: at a quarter of the scoring.
DECK_CARDS = 24
#: The deck's cards are valued this many at a time (:func:`_deck_values`) ...
DECK_CHUNK = 4
#: ... until this share of the time budget is spent: the rest is the samples'.
DECK_SHARE = 0.4
#: The options' banks (:func:`_banks`) are scored a card at a time until this share of
#: the time budget is spent; if they are not all scored by then, none counts.
BANK_SHARE = 0.5
#: A step of the play-outs is scored in chunks of card sets, the first this many, each next
#: one twice the last while a chunk takes less than ``QUICK_CHUNK`` seconds (:func:`_scored`).
SCORED_CHUNK, QUICK_CHUNK = 32, 0.005
#: Near the end, where the samples are played out, the first round must end within this
#: share of the budget, or the rest of the budget goes to samples valued by the learned
#: model: a hand of several cards that make choices may not finish a round of play-outs
#: within the budget, and the answer would then be greedy's (about one decision in ten near
#: the end of a 2-player game at 0.1 s).
FALLBACK_SHARE = 0.5
#: Per table size: when the game has room for at most this many more deck turns (the
#: discard area's room, ``10 - area``, or the deck's count if smaller), ``evaluation="auto"``
#: plays the samples out instead of valuing them by the model. Measured with two players
#: (docs/advice.md): at 0.1 s a decision the play-outs of the last four deck turns won more
#: games than the model to the end, and than play-outs from six on (a play-out costs
#: more than a model's value, so fewer samples fit in the budget).
#: The other table sizes play the others out at random, not greedy, and keep the model to
#: the end (with 4 players, the end played out won no more: docs/advice.md).
#: Scoring in pure Python (the browser), the model serves to the end too (:func:`_leaf_model`).
ENDGAME_ROOM: dict[int, int] = {2: 4}


@dataclass(frozen=True)
class Situation:
    """The decision in front of a player.

    ``hand`` holds the catalog's hand size (7) before the draw, one card more after it.
    ``next_holds`` are cards the next player is known to hold (taken from the discard area),
    ``elsewhere`` other cards known not to be in the deck. ``deck_count`` defaults to what
    the count of cards leaves; ``take_rate`` to the measured one; ``next_draws`` (the next
    player's turns so far, less the cards known to be in their hand) to an estimate from
    the discard area's count (:attr:`drawn_by_next`).
    """

    catalog: Catalog
    players: int
    hand: tuple[Card, ...]
    area: tuple[Card, ...] = ()
    next_holds: tuple[Card, ...] = ()
    elsewhere: tuple[Card, ...] = ()
    deck_count: int | None = None
    take_rate: float | None = None
    next_draws: int | None = None

    def __post_init__(self) -> None:
        check_players(self.players)
        size = self.catalog.hand_size
        if len(self.hand) not in (size, size + 1):
            raise ScorerError(f"a hand to advise holds {size} cards before the draw or "
                              f"{size + 1} after it, not {len(self.hand)}")
        if len(self.area) >= MAX_DISCARD:
            raise ScorerError(f"the discard area holds {len(self.area)} cards, but the game "
                              f"ends when it reaches {MAX_DISCARD}: advice needs at most "
                              f"{MAX_DISCARD - 1}")
        placed: dict[str, str] = {}
        for where, cards in (("in the hand", self.hand), ("in the discard area", self.area),
                             ("held by the next player", self.next_holds),
                             ("seen elsewhere", self.elsewhere)):
            for c in cards:
                if c.cursed:
                    raise ScorerError(f"{c.name} is a Cursed Item; it is not played from hand")
                if c.id in placed:
                    first = placed[c.id]
                    if first == where:
                        raise ScorerError(f"{c.name} is listed twice {where}; each card exists "
                                          "once")
                    raise ScorerError(f"{c.name} is both {first} and {where}; each card is in "
                                      "one place")
                placed[c.id] = where
        if len(self.next_holds) > size:
            raise ScorerError(f"the next player holds {size} cards, not "
                              f"{len(self.next_holds)}")
        others = (self.players - 1) * size
        known = len(self.next_holds) + len(self.elsewhere)
        if known > others:  # (the samples would have no cards to deal them)
            who = ("the other player holds" if self.players == 2 else
                   f"the other {self.players - 1} players hold")
            raise ScorerError(f"{known} cards are known to be in other hands, but {who} "
                              f"{others}: check --seen, --next-holds and the number of players")
        deck = self.deck
        if deck < 0 or (deck == 0 and self.phase == "draw" and not self.area):
            raise ScorerError(f"{self.players} hands of {size} and a discard area of "
                              f"{len(self.area)} leave no deck: check the number of players")

    @property
    def phase(self) -> str:
        """``"draw"`` (the hand before the draw) or ``"discard"`` (after it)."""
        return "draw" if len(self.hand) == self.catalog.hand_size else "discard"

    @property
    def deck(self) -> int:
        """Cards left in the deck: the given count, else every card not in a hand or in the
        discard area."""
        if self.deck_count is not None:
            return self.deck_count
        held = self.players * self.catalog.hand_size + (self.phase == "discard")
        return len(self.catalog.suit_cards) - held - len(self.area)

    @property
    def unseen(self) -> tuple[Card, ...]:
        out = {c.id for c in self.hand + self.area + self.next_holds + self.elsewhere}
        return tuple(c for c in self.catalog.suit_cards if c.id not in out)

    @property
    def drawn_by_next(self) -> int:
        """The cards the next player has drawn and does not hold any more or holds unseen
        (given, else estimated from the turns played: every turn that drew from the deck
        left one card in the discard area, the others took one)."""
        if self.next_draws is not None:
            return self.next_draws
        return max(0, self.turns_each - len(self.next_holds))

    @property
    def turns_each(self) -> int:
        """The turns each other player has played, estimated from the discard area's count:
        every turn that drew from the deck left a card there, the others took one."""
        return round(len(self.area) / (1 - self.rate) / self.players)

    @property
    def rate(self) -> float:
        return self.take_rate if self.take_rate is not None else TAKE_RATE[self.players]

    @property
    def ends_with_my_discard(self) -> bool:
        """Whether my discard ends the game (discard step): the area then holds 10 cards,
        or the deck is empty."""
        return len(self.area) + 1 >= MAX_DISCARD or self.deck == 0

    @classmethod
    def from_view(cls, view: View) -> Situation:
        """A bot's situation, with what the public turns tell: the cards other players took
        and still hold, and their take rate so far (weighed against the measured one)."""
        nxt = (view.seat + 1) % view.players
        others = [c for s in range(view.players) if s not in (view.seat, nxt)
                  for c in view.known(s)]
        turns = [t for t in view.turns if t.seat != view.seat]
        takes = sum(1 for t in turns if t.taken is not None)
        rate = (takes + TAKE_RATE[view.players] * PRIOR_TURNS) / (len(turns) + PRIOR_TURNS)
        drawn = sum(1 for t in turns if t.seat == nxt) - len(view.known(nxt))
        return cls(view.catalog, view.players, view.hand, view.discard, view.known(nxt),
                   tuple(others), view.deck_count, rate, drawn)


@dataclass
class Option:
    """One choice and its figures. ``take`` is the discard-area card taken (None with
    ``deck``); ``discard`` the card discarded (for the deck, decided once the card is seen:
    None); ``now`` the best 7 if the game ended after this discard (exact)."""

    deck: bool = False
    take: Card | None = None
    discard: Card | None = None
    now: int | None = None
    final: Estimate = field(default_factory=Estimate)
    improves: Estimate = field(default_factory=lambda: Estimate(proportion=True))
    gift: Estimate = field(default_factory=lambda: Estimate(nonnegative=True))
    win: Estimate = field(default_factory=lambda: Estimate(unit=True))
    utility: list[float] = field(default_factory=list)
    active: bool = True
    exact: bool = False
    tie: tuple = ()  # among equal values, the higher tie goes first (best's order)
    greedy: bool = False  # the choice of greedy (``fr-score best``, turn by turn)
    #: with the learned value, the deck's every card: card id -> (expected final score, its
    #: spread, best 7 now, card discarded) of the hand the model would keep after drawing it
    draws: dict[str, tuple[float, float, int, Card]] | None = None
    #: with a learned model that has the feature: the most a card left in the discard area
    #: raises the hand I keep (:func:`.value.bank`)
    bank: int = 0

    @property
    def samples(self) -> int:
        return 0 if self.exact else self.final.n

    floor: float = float("-inf")  # what ranks the option before it has a sample

    def value(self) -> float:
        """The mean utility of the samples (before any: that of the best 7 now)."""
        if self.utility:
            return sum(self.utility) / len(self.utility)
        return self.floor

    def label(self) -> str:
        if self.deck:
            return "draw from the deck"
        if self.take is not None:
            return f"take {self.take.name}, discard {self.discard.name}"  # type: ignore[union-attr]
        return f"discard {self.discard.name}"  # type: ignore[union-attr]


@dataclass
class Advice:
    situation: Situation
    options: list[Option]  # the recommended option first, then by value
    rounds: int  # samples drawn (each option gets at most one per round)
    seconds: float
    exact: bool  # every figure is exact (my discard ends the game)
    objective: str  # "win" or "score": what the recommendation maximises
    learned: bool = False  # a sample ends after my turn, valued by the learned model
    check: Check | None = None  # the learned value's choice checked by play-outs (.check)

    @property
    def recommended(self) -> Option:
        return self.options[0]


# --------------------------------------------------------------------------------------------
# The samples
# --------------------------------------------------------------------------------------------


@dataclass
class World:
    """One sample of the hidden cards and of the other players' luck."""

    next_hand: tuple[Card, ...]
    draws: list[Card]  # the cards I draw from the deck, in order
    stream: list[Card]  # the cards other players discard, in order
    luck: list[tuple[float, float]]  # per turn of another player: (take?, which card)
    gifts: dict[str, int] = field(default_factory=dict)  # card id -> gift to the next player
    #: card id -> the next player's hand and its best 7 if greedy takes the card (their
    #: hand as it is when the card would not raise it)
    takes: dict[str, tuple[tuple[Card, ...], int]] = field(default_factory=dict)


def sample_world(sc: Scorer, sit: Situation, rng: random.Random) -> World:
    """One sample (see the module's docstring): the next player's kept hand, my draws, the
    others' discards and their luck."""
    unseen = list(sit.unseen)
    rng.shuffle(unseen)
    hidden = max(0, min(sit.catalog.hand_size - len(sit.next_holds), len(unseen) - 1))
    luck = [(rng.random(), rng.random()) for _ in range(4 * MAX_DISCARD * sit.players)]
    steps = KEPT_STEPS * sit.drawn_by_next
    seen = unseen[:max(hidden, min(hidden + steps, len(unseen) - 1))]
    theirs = kept_hand(sc, sit.next_holds, seen, hidden)
    held = {c.id for c in theirs}
    rest = [c for c in unseen if c.id not in held]
    # my share of the future cards, and a little more: my draws and the others' discards
    # are apart, so that an option that draws a card does not shift everyone's later cards
    mine = min(len(rest) - 1, -(-len(rest) // sit.players) + 2)
    return World(theirs, rest[:mine], rest[mine:], luck)


# The play-outs are generators that say which card sets they need scored: each yields a list
# of (cards, discard area) and is sent back their totals. :func:`_lockstep` runs the play-outs
# of every option of a round side by side, so that each step scores all their sets in one
# call of the scorer.

Ask = list[tuple[tuple[Card, ...], tuple[Card, ...]]]


def _lockstep(sc: Scorer, runs: list, deadline: float | None = None) -> list | None:
    """Run the generators ``runs`` to their ends, every step's requests scored together; the
    values they return, or None once :func:`time.perf_counter` passes ``deadline`` between
    two steps (the round is then left unfinished)."""
    out: list = [None] * len(runs)
    pending: dict[int, Ask] = {}
    for i, run in enumerate(runs):
        try:
            pending[i] = next(run)
        except StopIteration as stop:
            out[i] = stop.value
    while pending:
        totals = _scored(sc, [h for ask in pending.values() for h in ask], deadline)
        if totals is None:
            return None
        k, later = 0, {}
        for i, ask in pending.items():
            part, k = totals[k:k + len(ask)], k + len(ask)
            try:
                later[i] = runs[i].send(part)
            except StopIteration as stop:
                out[i] = stop.value
        pending = later
    return out


def _scored(sc: Scorer, asks: Ask, deadline: float | None = None) -> list[int] | None:
    """``sc.totals(asks)``, or None once :func:`time.perf_counter` passes ``deadline``. A
    step of the play-outs near the end asks for a thousand card sets at once (each option's
    take of the best card of the discard area), and a set with several cards that make
    choices scores in milliseconds: so the sets are scored in chunks with the deadline read
    before each, a chunk twice the last while chunks are quick (few calls of the scorer for
    plain hands, a bounded overrun for costly ones)."""
    if deadline is None:
        return sc.totals(asks)
    out: list[int] = []
    at, n = 0, SCORED_CHUNK
    while at < len(asks):
        begun = time.perf_counter()
        if begun > deadline:
            return None
        out += sc.totals(asks[at:at + n])
        at += n
        if time.perf_counter() - begun < QUICK_CHUNK:
            n *= 2
    return out


def _keep(sc: Scorer, cards: tuple[Card, ...], area: tuple[Card, ...],
          leaf: ValueModel | None = None, deck: int = 0):
    """(total, card to discard) of the best discard (``Scorer.best_keep``), as a play-out
    step; with ``leaf``, the discard that leaves the hand the learned model values most
    (``deck`` cards left), the higher total first on a tie."""
    totals = yield [(cards[:i] + cards[i + 1:], area) for i in range(len(cards))]
    if leaf is not None:
        def value(i: int) -> tuple:
            rest = cards[:i] + cards[i + 1:]
            return (leaf.final(rest, totals[i], len(area) + 1, deck)[0], totals[i],
                    cards[i].strength, i)

        i = max(range(len(cards)), key=value)
        return totals[i], cards[i]
    return sc.order_keeps(cards, area, totals, first=True, exact_ties=False)[0]


def _best_take(hand: tuple[Card, ...], fresh: list[Card], area: tuple[Card, ...]):
    """The card of ``fresh`` (cards of the discard area) whose taking raises the best 7 the
    most, the oldest on a tie, or None if none raises it (greedy's test, as a play-out
    step)."""
    asks = []
    for c in fresh:
        rest = tuple(d for d in area if d is not c)
        held = hand + (c,)
        asks += [(held[:i] + held[i + 1:], rest) for i in range(len(hand))]
    totals = yield asks + [(hand, area)]
    now, best, at = totals[-1], None, 0
    for c in fresh:
        top = max(totals[at:at + len(hand)])
        at += len(hand)
        if top > now:
            now, best = top, c
    return best


def play_out(sc: Scorer, sit: Situation, world: World, hand: tuple[Card, ...],
             area: list[Card], deck: int, mine: int, rival: bool = False):
    """My final score (a play-out step): the game goes on from the next player's turn (my
    hand and the area after my discard, ``deck`` cards left, my draws read from ``mine``).

    On my turns I play greedy between the deck and the cards of the discard area: with
    two players all of them (only the one discarded since my last turn when my hand has not
    changed since: the others could not raise it then), with more the ones discarded since
    my last turn. When one of the world's two sequences of cards runs out, the other
    serves; when both do, the play-out ends there.

    With ``rival`` (two players), the other player plays greedy too, from the world's
    hand for them: the card I just discarded if it raises their best 7, else a card of the
    world's discards (their deck draws); then the discard that leaves their best 7. The
    value is then (my final score, theirs); else (my final score, None).
    """
    players, rate, stream, draws = sit.players, sit.rate, world.stream, world.draws
    seat, k, pos = 1 % players, 0, 0
    fresh: list[Card] = []  # the cards other players discarded since my last turn
    theirs = world.next_hand
    scanned: tuple[Card, ...] = ()  # my hand when I last looked at the whole area
    while len(area) < MAX_DISCARD and deck > 0 and (pos < len(stream) or mine < len(draws)):
        if seat and rival:
            last = [area[-1]] if area else []
            card = yield from _best_take(theirs, last, tuple(area))
            if card is not None:
                area.remove(card)
            else:
                card, pos, mine = _next_card(stream, pos, draws, mine)
                deck -= 1
            _, out = yield from _keep(sc, theirs + (card,), tuple(area))
            theirs = tuple(c for c in theirs + (card,) if c is not out)
            area.append(out)
            fresh.append(out)
        elif seat:
            took, which = world.luck[k % len(world.luck)]
            k += 1
            if took < rate and area:
                area.pop(int(which * len(area)))
            else:
                deck -= 1
            card, pos, mine = _next_card(stream, pos, draws, mine)
            area.append(card)
            fresh.append(card)
        else:
            # greedy looks at the whole area; with two players (one card arrives between
            # my turns) so do the play-outs, unless my hand is the one that last looked at
            # it; with more, at the cards discarded since my last turn (the choice closer
            # to greedy games: benchmarks/game.py calibrate)
            whole = players == 2 and hand != scanned
            fresh = [c for c in (area if whole else fresh) if c in area]
            scanned = hand
            card = (yield from _best_take(hand, fresh, tuple(area))) if fresh else None
            fresh = []
            if card is not None:
                area.remove(card)
            else:
                card, mine, pos = _next_card(draws, mine, stream, pos)
                deck -= 1
            _, out = yield from _keep(sc, hand + (card,), tuple(area))
            hand = tuple(c for c in hand + (card,) if c is not out)
            area.append(out)
        seat = (seat + 1) % players
    if _draws_from_deck(hand):  # Leprechaun, Genie: the deck is the world's next cards
        final = [list(hand)]
        left = (draws[mine:] + stream[pos:])[:max(deck, 0)]
        deck_extras(final, list(reversed(left)), area, sc)
        hand = tuple(final[0])
    if rival:
        total, other = yield [(hand, tuple(area)), (theirs, tuple(area))]
        return total, other
    (total,) = yield [(hand, tuple(area))]
    return total, None


def _next_card(first: list[Card], i: int, second: list[Card], j: int
               ) -> tuple[Card, int, int]:
    """The next card of ``first`` (read at ``i``), or of ``second`` (at ``j``) once
    ``first`` has run out: (card, i, j) with the position read moved on."""
    if i < len(first):
        return first[i], i + 1, j
    return second[j], i, j + 1


def _draws_from_deck(cards: Sequence[Card]) -> bool:
    return any(c.extra is not None and c.extra.source == "deck" for c in cards)


def gift(sc: Scorer, sit: Situation, world: World, card: Card) -> int:
    """How much ``card`` raises the best 7 of the next player's sampled hand (0 if nothing):
    what a greedy next player gains by taking it (their Necromancer sees the discard area of
    now)."""
    _gifts(sc, sit, world, [card])
    return world.gifts[card.id]


def _gifts(sc: Scorer, sit: Situation, world: World, cards) -> None:
    """:func:`gift` of each of ``cards`` into ``world.gifts``, all scored in one call."""
    todo = [c for c in dict.fromkeys(cards) if c.id not in world.gifts]
    if not todo:
        return
    asks, spans = [], []
    for c in todo:
        area = tuple(d for d in sit.area if d is not c)
        sets = [(s, area) for s in _minus_one(world.next_hand + (c,)) if c in s]
        spans.append((len(asks), len(sets)))
        asks += sets + [(world.next_hand, area)]
    totals = sc.totals(asks)
    for c, (at, n) in zip(todo, spans, strict=True):
        now = totals[at + n]
        best = max(range(at, at + n), key=totals.__getitem__)
        world.gifts[c.id] = max(0, totals[best] - now)
        world.takes[c.id] = (asks[best][0], totals[best]) if totals[best] > now else (
            world.next_hand, now)


def _minus_one(cards: tuple[Card, ...]) -> list[tuple[Card, ...]]:
    return [cards[:i] + cards[i + 1:] for i in range(len(cards))]


# --------------------------------------------------------------------------------------------
# The advice
# --------------------------------------------------------------------------------------------


def advise(sit: Situation, *, seed: object = 0, budget: float | None = 1.0,
           samples: int | None = None, scorer: Scorer | None = None,
           objective: str = "win", started: float | None = None,
           settle: bool = True, evaluation: str = "auto", min_samples: int = 0,
           checks: int | None = None) -> Advice:
    """The options of ``sit`` with their figures, the recommended one first.

    ``budget`` (seconds, counted from ``started``, a :func:`time.perf_counter` reading that
    defaults to now) and ``samples`` (rounds) bound the work; either may be None, not both.
    A budget spent before the first round leaves the sampled options ranked by their best 7
    now. Every round stops at the budget, the first included (a round of play-outs near the
    end, or of a hand of many choices, may outlast a tenth of a second), except the first
    ``min_samples``, drawn whatever the budget (the page asks for a few: its figures need
    them). ``objective`` is ``"win"`` (the chance of winning) or ``"score"`` (the expected
    final score less the gift / (players - 1)).
    With ``settle`` the option left alone keeps being sampled (its figures get tighter);
    without, the work stops there (a bot needs only the choice).
    ``evaluation`` is ``"learned"`` (a sample ends after my turn and the hand I keep is
    valued by the learned model of :mod:`.value`), ``"play-out"`` (the rest of the game is
    played out) or ``"auto"``: learned at the table sizes of :data:`LEARNED_TABLES` where
    the shipped model covers the game, except near the end (:data:`ENDGAME_ROOM`, where
    the compiled scorer runs: there the learned value takes over only when a first round
    of play-outs does not end within :data:`FALLBACK_SHARE` of the budget), else the
    play-outs.
    With the learned value at the table sizes of :data:`.check.PRIORS`, where the compiled
    scorer runs, a budget of :data:`.check.CHECK_FROM` or more and no ``samples`` (a fixed
    count makes the answer the machine's no more), or ``checks`` worlds whatever the budget
    (0: none), check a choice other than greedy's by playing the whole game out
    (:mod:`.check`): the learned value's samples then get :data:`.check.MODEL_SHARE` of the
    budget, the worlds the rest.
    """
    if budget is None and samples is None:
        raise ValueError("give a time budget or a number of samples")
    t0 = time.perf_counter() if started is None else started
    sc = scorer or Scorer(sit.catalog, sit.players)
    leaf = _leaf_model(sit, evaluation, sc)
    # near the end the samples are played out; a first round that does not end within a
    # share of the budget leaves the rest to the learned value (:data:`FALLBACK_SHARE`)
    fallback = (shipped_model(sit.catalog, sit.players) if leaf is None and budget is not None
                and evaluation == "auto" and sit.players in LEARNED_TABLES else None)
    prior = PRIORS.get(sit.players)
    checking = (prior is not None and leaf is not None and objective == "win"
                and sc.compiled is not None and (
                    bool(checks) if checks is not None or budget is None or samples is not None
                    else budget >= CHECK_FROM))
    util = _utility(sit, objective)
    options = (_discard_options if sit.phase == "discard" else _draw_options)(sc, sit, util)
    full = budget
    if checking and budget is not None:  # (the time the options took, the scorer's loading
        #                                   included, is not the samples')
        budget = time.perf_counter() - t0 + MODEL_SHARE * budget
    exact = all(o.exact for o in options)
    if leaf is not None and (settle or len(options) > 1):  # (a bot with one option has
        if any(leaf.bank):                                 # nothing to weigh)
            _banks(sc, sit, options, None if budget is None else t0 + BANK_SHARE * budget)
        for o in options:
            if o.deck and not o.exact and not _draws_from_deck(sit.catalog.suit_cards):
                o.draws = _deck_values(sc, sit, leaf, random.Random(f"deck:{seed}"),
                                       None if budget is None else t0 + DECK_SHARE * budget,
                                       o.bank)
    # two players: a sample's win is the duel with the other one, played out too or valued
    # by the learned model (mixing that with the chances of exact options, against greedy
    # players' scores, would compare unlike figures)
    rival = sit.players == 2 and not any(o.exact for o in options)
    rounds = 0
    rng = random.Random(f"advise:{seed}")
    # a round may start until a little short of the budget and runs until the budget is
    # spent. Rounds vary: the first ones fill the scorer's memo, a play-out may last the
    # whole game, so the length of past rounds says little of the next one's (not starting
    # one that long would end past the budget left a fifth of it unused near the end)
    deadline = None if budget is None else t0 + BUDGET_AIM * budget
    hard = None if budget is None else t0 + budget
    # where the model may take over, the first round is cut here instead
    half = None if budget is None else t0 + FALLBACK_SHARE * budget
    while not exact:
        live = [o for o in options if o.active and not o.exact]
        if not live or (samples is not None and rounds >= samples):
            break
        bound = rounds >= min_samples
        if bound and deadline is not None and time.perf_counter() >= deadline:
            break
        if not settle and sum(o.active for o in options) == 1 and (
                rounds >= ROUNDS_BEFORE_RACING or len(options) == 1):
            break
        world = sample_world(sc, sit, rng)
        # a round still running when the budget is spent is dropped (its worlds are paired
        # across options, so no part of it can be kept)
        cut = half if fallback is not None and not rounds else hard
        if not _round(sc, sit, world, live, util, rival, cut if bound else None, leaf):
            if fallback is None or rounds:
                break
            leaf, fallback = fallback, None  # the rest of the budget goes to the model's
            #                                  samples (no bank, the deck sampled: a round
            #                                  of them takes milliseconds)
            continue
        rounds += 1
        if rounds >= ROUNDS_BEFORE_PRUNING:
            _prune(options, 0.0 if settle else INDIFFERENCE[objective])
        if rounds >= ROUNDS_BEFORE_RACING:
            _race(options)
    # equal chances (a chance of winning saturates at 0 and 1) go to the higher final score
    options.sort(key=lambda o: (o.active, o.value(), o.final.mean if o.final.n else (
        o.now or 0), o.tie), reverse=True)
    _defend_greedy(options, challenge_z(sit.players))
    checked = None
    if checking and not exact and not options[0].greedy:
        assert prior is not None
        checked = _check(sc, sit, options, prior, seed,
                         None if full is None else t0 + full, checks)
    return Advice(sit, options, rounds, time.perf_counter() - t0, exact, objective,
                  leaf is not None and not exact, checked)


def _check(sc: Scorer, sit: Situation, options: list[Option], prior: Prior, seed: object,
           deadline: float | None, count: int | None) -> Check | None:
    """Check the leader against greedy's choice on worlds of the whole game
    (:func:`.check.check`), and put greedy's choice first if the check overturns the
    leader. The other hands hold their known cards: the next player's, then the cards known
    elsewhere, filling the later players' hands in turn order."""
    leader = options[0]
    keeper = next((o for o in options if o.greedy), None)
    if keeper is None or leader.exact or keeper.exact or not leader.utility:
        return None
    size = sit.catalog.hand_size
    holds, spare = [sit.next_holds], list(sit.elsewhere)
    for _ in range(sit.players - 2):
        holds.append(tuple(spare[:size]))
        spare = spare[size:]
    if spare:  # (more known cards than the later hands hold: the rest are the next player's)
        holds[0] = holds[0] + tuple(spare[:size - len(holds[0])])
    draws = [sit.drawn_by_next] + [max(0, sit.turns_each - len(h)) for h in holds[1:]]
    unseen, rng = list(sit.unseen), random.Random(f"check:{seed}")
    hand, area, deck = sit.hand, sit.area, sit.deck

    def worlds():
        return deal(sc, hand, area, deck, holds, draws, unseen, rng)

    done = check(sc, worlds, (leader.take, leader.deck, leader.discard),
                 (keeper.take, keeper.deck, keeper.discard), prior,
                 leader.value() - keeper.value(), deadline, count)
    if not done.kept:
        options.remove(keeper)
        options.insert(0, keeper)
    return done


def _leaf_model(sit: Situation, evaluation: str, sc: Scorer) -> ValueModel | None:
    """The learned model that values a sample's hand after my turn, or None (play-outs).
    The end of the game (:func:`endgame`) is played out only where the compiled scorer
    runs: scoring in pure Python (the static site's browser), a round of play-outs takes
    seconds, where the model answers within the budget."""
    if evaluation not in ("auto", "learned", "play-out"):
        raise ValueError(f"unknown evaluation {evaluation!r}")
    if evaluation == "play-out" or (evaluation == "auto" and sit.players not in
                                    LEARNED_TABLES):
        return None
    if evaluation == "auto" and endgame(sit) and sc.compiled is not None:
        return None
    model = shipped_model(sit.catalog, sit.players)
    if model is None and evaluation == "learned":
        raise ScorerError("no learned model ships for this game and table size; use the "
                          "play-outs")
    return model


def endgame(sit: Situation) -> bool:
    """Whether ``sit`` is near enough the end that ``evaluation="auto"`` plays its samples
    out (:data:`ENDGAME_ROOM`), where the compiled scorer runs.

    >>> from fantasy_scorer.realms.catalog import base_catalog
    >>> cat = base_catalog()
    >>> hand, area = tuple(cat.suit_cards[:7]), tuple(cat.suit_cards[7:13])
    >>> endgame(Situation(cat, 2, hand, area[:5])), endgame(Situation(cat, 2, hand, area))
    (False, True)
    """
    return room(len(sit.area), sit.deck) <= ENDGAME_ROOM.get(sit.players, -1)


def _utility(sit: Situation, objective: str):
    """(final score, gift) -> what the recommendation maximises."""
    if objective == "score":
        w = 1 / (sit.players - 1)
        return lambda final, gift: final - w * gift
    if objective != "win":
        raise ValueError(f"unknown objective {objective!r}")
    return _win(sit.players)


@cache
def _win(players: int):
    return WinModel(players).win


def _race(options: list[Option]) -> None:
    """Drop the options clearly worse than the leader: a sampled option against a sampled
    leader by their paired differences (both are sampled in every round), and an exact
    option against a sampled one (or the reverse) by the sampled option's interval."""
    live = [o for o in options if o.active]
    sampled = [o for o in live if not o.exact]
    if len(live) < 2 or not sampled:
        return
    leader = max(sampled, key=lambda o: o.value())
    for o in sampled:
        if o is not leader:
            lo, hi = _interval([a - b for a, b in zip(o.utility, leader.utility, strict=True)])
            if hi < 0:
                o.active = False
    for e in (o for o in live if o.exact):
        for o in sampled:
            lo, hi = _interval(o.utility)
            if o.active and hi < e.value():
                o.active = False
            elif lo > e.value():
                e.active = False


def _paired(a: Option, b: Option) -> Estimate:
    """The mean of ``a``'s utility less ``b``'s, sample by sample (same worlds)."""
    est = Estimate()
    for x, y in zip(a.utility, b.utility, strict=True):
        est.add(x - y)
    return est


def _prune(options: list[Option], margin: float = 0.0) -> None:
    """Stop sampling the options clearly below greedy's choice (``PRUNE_Z``), or never
    more than ``margin`` above it."""
    keeper = next((o for o in options if o.greedy), None)
    if keeper is None or keeper.exact or not keeper.active:
        return
    for o in options:
        if o is not keeper and o.active and not o.exact and len(o.utility) == len(
                keeper.utility):
            est = _paired(o, keeper)
            if est.mean + PRUNE_Z * est.se < margin:
                o.active = False


def challenge_z(players: int) -> float:
    """How many standard errors of the paired difference an option must beat greedy's
    choice by to replace it (:data:`CHALLENGE_Z`, :data:`CHALLENGE_Z_DUEL` with two
    players).

    >>> challenge_z(2), challenge_z(4)
    (1.5, 2.5)
    """
    return CHALLENGE_Z_DUEL if players == 2 else CHALLENGE_Z


def _defend_greedy(options: list[Option], z: float = CHALLENGE_Z) -> None:
    """Put greedy's choice first unless the leader beats it clearly: by ``z``
    standard errors of their paired differences (both sampled on the same worlds). Exact
    options need no defence: their values are not noisy."""
    leader = options[0]
    keeper = next((o for o in options if o.greedy), None)
    if (keeper is None or keeper is leader or not keeper.active or leader.exact
            or keeper.exact or len(leader.utility) != len(keeper.utility)):
        return
    est = _paired(leader, keeper)
    if est.n < 2 or est.mean <= z * est.se:
        options.remove(keeper)
        options.insert(0, keeper)


def _interval(values: list[float]) -> tuple[float, float]:
    """The mean's 99% interval by Student's t."""
    est = Estimate()
    for v in values:
        est.add(v)
    margin = t99(est.n - 1) * est.se if est.n > 1 else float("inf")
    return est.mean - margin, est.mean + margin


def _discard_options(sc: Scorer, sit: Situation, util) -> list[Option]:
    hand, area = sit.hand, sit.area
    rests = [hand[:i] + hand[i + 1:] for i in range(len(hand))]
    nows = sc.totals([(r, area + (d,)) for r, d in zip(rests, hand, strict=True)])
    # best's tie-break among equal totals: the final hand (the extra card Necromancer takes
    # included) with the lower printed strength, then the one holding the earliest card
    position = {c.id: k for k, c in enumerate(hand + area)}

    def tie(i: int) -> tuple:
        held = sc.final_cards(rests[i], area + (hand[i],))
        return (-nows[i], sum(c.strength for c in held), sorted(position[c.id] for c in held))

    exact = sit.ends_with_my_discard  # the order matters only where it is best's
    rank = {i: r for r, i in enumerate(sorted(range(len(hand)), key=tie))} if exact and len(
        set(nows)) < len(nows) else {i: 0 for i in range(len(hand))}
    options = []
    keeper = sc.best_keep(hand, area)[1]
    for i, d in enumerate(hand):
        rest, now = rests[i], nows[i]
        o = Option(discard=d, now=now, tie=(-rank[i],), floor=util(now, 0),
                   greedy=d is keeper)
        if sit.ends_with_my_discard and not _draws_from_deck(rest):
            o.exact = True
            o.final = Estimate.of(now)
            o.improves = Estimate.of(0.0)
            o.win = Estimate.of(_win(sit.players)(now, 0))
            o.utility = [util(now, 0)]
        options.append(o)
    return options


def _draw_options(sc: Scorer, sit: Situation, util) -> list[Option]:
    hand, area = sit.hand, sit.area
    options: list[Option] = []
    if sit.deck > 0:
        deck = Option(deck=True, floor=util(sc.total(hand, area), 0))  # a draw never lowers
        #                                                                 the best 7
        if (len(area) + 1 >= MAX_DISCARD or sit.deck == 1) and not _draws_from_deck(
                sit.catalog.suit_cards):
            _exact_deck(sc, sit, deck, util)
        options.append(deck)
    keeper = greedy_draw(sc, hand, area, sit.deck > 0)
    for j, c in enumerate(area):
        rest = area[:j] + area[j + 1:]
        held = hand + (c,)
        sets = [(held[:i] + held[i + 1:], rest, (-d.strength, -i))
                for i, d in enumerate(held) if d is not c]
        for _, i in sc.top(sets, TAKE_DISCARDS):
            d = held[i]
            kept = tuple(x for x in hand + (c,) if x is not d)
            now = sc.total(kept, rest + (d,))
            options.append(Option(take=c, discard=d, now=now, floor=util(now, 0)))
    if keeper is None and sit.deck > 0:
        options[0].greedy = True
    else:  # the card greedy takes, with greedy's discard after it (else the first of the
        #    take's options: the same best 7)
        takes = [o for o in options if o.take is keeper]
        out = sc.best_keep(hand + (keeper,), tuple(c for c in area if c is not keeper))[1]
        next((o for o in takes if o.discard is out), takes[0]).greedy = True
    return options


def _banks(sc: Scorer, sit: Situation, options: list[Option],
           deadline: float | None = None) -> None:
    """Each option's bank (:func:`.value.bank`), once per decision: the most a card
    left in the discard area after the option (not my discard, nor the card I took) raises
    the hand I keep. A card the learned model cannot see in my hand's cards: I may take it
    at my next turn. For the deck, whose card is not known yet, the bank of my hand now.

    The sets are scored a card of the area at a time, none started past ``deadline`` (a
    :func:`time.perf_counter` reading): a hand of several cards that make choices scores in
    milliseconds a set, and its banks could take seconds. Unless every option's bank is
    scored, every bank stays 0, so that the options are compared alike."""
    hand, area = sit.hand, sit.area
    banks = []
    for o in options:
        if o.deck:
            kept, after, pool = hand, area, area
        else:
            assert o.discard is not None
            held = hand + ((o.take,) if o.take is not None else ())
            kept = tuple(c for c in held if c is not o.discard)
            after = tuple(c for c in area if c is not o.take) + (o.discard,)
            pool = after[:-1]
        got = bank(sc.totals, kept, after, pool, deadline)
        if got is None:
            return
        banks.append(got)
    for o, b in zip(options, banks, strict=True):
        o.bank = b


def _deck_values(sc: Scorer, sit: Situation, leaf: ValueModel,
                 rng: random.Random | None = None, deadline: float | None = None,
                 bank: int = 0) -> dict[str, tuple[float, float, int, Card]]:
    """With the learned value, what drawing each unseen card leads to: the discard the model
    values most after it (the higher total first on a tie) and the model's (expected final
    score, spread), with the best 7 now and the card discarded. The deck option's figures
    are then means over these cards, not over one sampled card a round: far less noise, for
    one batch of scoring per decision. With ``rng``, over :data:`DECK_CARDS` unseen cards
    drawn by it (each new card set costs a scoring: on a loaded machine all of them could
    take the whole budget of a tenth of a second). The cards are scored
    :data:`DECK_CHUNK` at a time, and no chunk is started past ``deadline`` (a
    :func:`time.perf_counter` reading): a hand of several cards that make choices scores in
    milliseconds a set, and all 24 cards could take several budgets. The cards valued by then
    serve (the first chunk is always valued). ``bank``: the deck option's
    (:func:`_banks`)."""
    hand, area, deck = sit.hand, sit.area, sit.deck - 1
    unseen = sit.unseen
    if rng is not None and len(unseen) > DECK_CARDS:
        unseen = tuple(rng.sample(unseen, DECK_CARDS))
    n = len(hand) + 1
    value = leaf.at(len(area) + 1, deck)
    out = {}
    for at in range(0, len(unseen), DECK_CHUNK):
        if deadline is not None and at and time.perf_counter() > deadline:
            break
        chunk = unseen[at:at + DECK_CHUNK]
        asks = []
        for u in chunk:
            cards = hand + (u,)
            asks += [(cards[:i] + cards[i + 1:], area) for i in range(n)]
        totals = sc.totals(asks)
        for k, u in enumerate(chunk):
            cards = hand + (u,)
            best: tuple | None = None
            for i in range(n):
                t = totals[k * n + i]
                mean, sd = value(cards[:i] + cards[i + 1:], t, bank)
                key = (mean, t, cards[i].strength, i)
                if best is None or key > best[0]:
                    best = (key, mean, sd, t, cards[i])
            assert best is not None
            out[u.id] = best[1:]
    return out


def _exact_deck(sc: Scorer, sit: Situation, o: Option, util) -> None:
    """Drawing the deck's card ends the game with my discard: the mean over every unseen card
    of the best discard then."""
    now = sc.total(sit.hand, sit.area)
    finals = []
    for u in sit.unseen:
        cards = sit.hand + (u,)
        sets = [(cards[:i] + cards[i + 1:], sit.area + (d,), (-d.strength, -i))
                for i, d in enumerate(cards)]
        finals.append(sc.best(sets)[0])
    o.exact = True
    o.final = Estimate.of(sum(finals) / len(finals))
    o.improves = Estimate.of(sum(1 for f in finals if f > now) / len(finals))
    o.win = Estimate.of(sum(_win(sit.players)(f, 0) for f in finals) / len(finals))
    o.utility = [sum(util(f, 0) for f in finals) / len(finals)]


def _round(sc: Scorer, sit: Situation, world: World, live: list[Option], util,
           rival: bool = False, deadline: float | None = None,
           leaf: ValueModel | None = None) -> bool:
    """One sample of every live option on the same world, their play-outs in lockstep, and
    their figures recorded; False, with nothing recorded, when the round was still running
    at ``deadline``. With ``rival`` (two players), a sample's chance of winning is the duel
    of the two play-out scores (1, a half for a tie, or 0). With ``leaf``, a sample ends
    after my turn: the final score is the learned model's, a normal spread around its
    expected value, and the figures are their means over that spread; with ``rival`` too,
    the chance is that of beating the other player's value (:func:`_rival_value`)."""
    ends = _lockstep(sc, [_one(sc, sit, world, o, rival, leaf) for o in live], deadline)
    if ends is None:
        return False
    win = _win(sit.players)
    duel = rival and leaf is not None
    # with more players, a greedy next player takes the card of the discard area that
    # raises their hand most: what they gain from the whole area after my turn (a take of
    # mine may deny it). With two, the other player passed over every card of the area but
    # their own discard at their last turn: the card I discard is the one that counts
    # (:func:`_rival_value`), and only its gift is needed.
    whole = not rival or util is not win
    _gifts(sc, sit, world, [c for _, _, out, after, _ in ends
                            for c in (after if whole else (out,))])
    for o, (final, now, out, after, other) in zip(live, ends, strict=True):
        gain = max(world.gifts[c.id] for c in after) if whole else 0
        o.gift.add(world.gifts[out.id])
        if isinstance(final, (list, tuple)):  # the learned model's: (mean, spread), or one
            #                                   such per card the deck was valued by
            values = final if isinstance(final, list) else [(*final, now)]
            k = len(values)
            assert leaf is not None
            if duel:
                them = _rival_value(leaf, world, after, sit.deck - o.deck)
                chances = [duel_chance(e[0], e[1], *them) for e in values]
            else:
                longer = _longer(leaf, sit, len(after), sit.deck - o.deck)
                chances = [ValueModel.chance(win, e[0] - longer, e[1], gain) for e in values]
            o.final.add(sum(e[0] for e in values) / k)
            o.improves.proportion, o.improves.unit = False, True  # chances, not 0 or 1
            o.improves.add(sum(normal_above(e[0], e[1], e[2]) for e in values) / k)
            chance = sum(chances) / k
            o.win.add(chance)
            o.utility.append(chance if util is win else sum(
                util(e[0], gain) for e in values) / k)
            continue
        o.final.add(final)
        o.improves.add(1.0 if final > now else 0.0)
        if other is None:
            chance = smooth = win(final, gain)
        else:
            chance = 1.0 if final > other else 0.5 if final == other else 0.0
            smooth = 1 / (1 + math.exp((other - final) / DUEL_SCALE))
        o.win.add(chance)
        o.utility.append(smooth if util is win else util(final, gain))
    return True


def _longer(leaf: ValueModel, sit: Situation, area: int, deck: int) -> float:
    """How much more the other players' hands gain, on average, in the game an option
    leaves (``area`` cards in the discard area, ``deck`` in the deck) than in the shortest
    game any option of ``sit`` leaves (a draw from the deck: the discard area grows by one).

    The learned value credits the turns a take from the discard area adds to the game to my
    hand; the other players play them too. Their scores, set against mine, are those of
    greedy players in a game of usual length, so mine is lowered by their gain instead.
    (With two players the other one's hand is valued by the model itself, with the turns
    the option leaves: :func:`_rival_value`.)

    >>> from fantasy_scorer.realms.catalog import base_catalog
    >>> cat = base_catalog()
    >>> sit = Situation(cat, 4, tuple(cat.suit_cards[:7]), tuple(cat.suit_cards[7:12]))
    >>> m = ValueModel(4, ((0.0, 0.0), (0.0, 0.0)), {}, (0.0, 0.0), others=(1.0, 0.0))
    >>> _longer(m, sit, 6, sit.deck - 1), round(_longer(m, sit, 5, sit.deck), 3)
    (0.0, 0.702)
    """
    shortest = turns_left(len(sit.area) + 1, sit.deck - (sit.phase == "draw" and sit.deck > 0),
                          sit.players)
    return leaf.others_gain(turns_left(area, deck, sit.players)) - leaf.others_gain(shortest)


def _rival_value(leaf: ValueModel, world: World, after: tuple[Card, ...], deck: int
                 ) -> tuple[float, float]:
    """With two players and the learned value: the other player's (expected final score,
    spread), from the world's hand for them, raised by the card I discarded if it raises
    it (greedy takes it), valued by the model like my hand.

    Only my discard: at their last turn they passed over every other card of the discard
    area (their own discard they had just let go), so a hand of theirs that would take one
    of those is one they do not hold. Counting such phantom takes (the most any card of
    the area gives) would make a take of mine look like a denial of a card they never
    wanted; the play-outs look only at the card just discarded too (:func:`play_out`).
    For the same reason their bank (:func:`.value.bank`) is 0: the cards of the area
    they passed over do not raise their hand."""
    hand, total = world.takes[after[-1].id]
    return leaf.final(hand, total, len(after), deck)


def duel_chance(mine: float, my_sd: float, theirs: float, their_sd: float) -> float:
    """The chance that a normal final score (``mine``, ``my_sd``) beats an independent one
    (``theirs``, ``their_sd``).

    >>> duel_chance(200.0, 0.0, 180.0, 0.0), duel_chance(200.0, 10.0, 200.0, 10.0)
    (1.0, 0.5)
    """
    return normal_above(mine - theirs, math.hypot(my_sd, their_sd), 0.0)


def _one(sc: Scorer, sit: Situation, world: World, o: Option, rival: bool = False,
         leaf: ValueModel | None = None):
    """One option on one world (a play-out step): (final score, the best 7 right after this
    turn, the card discarded, the discard area after this turn, the rival's final score or
    None). With ``leaf``, the final score is the learned model's (expected value, spread)
    for the hand kept after this turn, and a card drawn from the deck is followed by the
    discard that leaves the hand the model values most."""
    hand, area, deck, mine = sit.hand, list(sit.area), sit.deck, 0
    out = o.discard
    if sit.phase == "draw":
        if o.deck:
            card = world.draws[0]
            mine, deck = 1, deck - 1
        else:
            card = o.take  # type: ignore[assignment]
            area.remove(card)
        hand = hand + (card,)
        if o.draws is not None:  # the cards the deck could give, valued beforehand; the
            #                      world's luck says only which one goes to the next player
            keys = list(o.draws)
            _, _, now, out = o.draws[keys[int(world.luck[-1][0] * len(keys))]]
            area.append(out)
            return list(o.draws.values()), now, out, tuple(area), None
        if o.deck:
            _, out = yield from _keep(sc, hand, tuple(area), leaf, deck)
    assert out is not None
    kept = tuple(c for c in hand if c is not out)
    area.append(out)
    after = tuple(area)
    (now,) = yield [(kept, after)]
    if leaf is not None:
        return leaf.final(kept, now, len(after), deck, o.bank), now, out, after, None
    final, other = yield from play_out(sc, sit, world, kept, area, deck, mine, rival)
    return final, now, out, after, other
