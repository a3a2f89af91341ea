"""A learned value of a hand in progress: what it will score at the end of the game.

The play-outs of :mod:`.advice` look at the rest of the game by playing it; that costs a
game's worth of scoring per sample, too much for a decision in a tenth of a second. This
model answers in microseconds the question a play-out answers: given the hand I keep
after my turn (and its best 7 now, ``now``), the discard area's count, the deck's count
and the table size, how many points will greedy play add by the end, and how spread is
that gain. It is a linear model per table size, trained by least squares on positions of
games of greedy bots (``fantasy_scorer.realms.game.train``, documented in docs/advice.md),
with features that all vanish with the turns left, so that a hand at the end is worth
exactly its score:

* ``T``, my turns left (the discard area grows by one on each turn that draws from the
  deck, the share ``1 - take rate`` of turns; the game ends at 10 cards or an empty deck),
  and ``T**2``;
* ``T * now / 100`` and ``T**2 * now / 100``: a high hand has less room to grow;
* for each card of the hand, ``T`` and ``T**2``: the card's *potential*, what holding it
  is worth in the turns to come (a card that rewards cards still unseen is worth more
  early);
* with two players, ``T * bank / 10`` and ``T**2 * bank / 10``, where the *bank* is the most
  a card left in the discard area (not the one just discarded) raises the hand's best 7 if
  taken (:func:`bank`): a card I may take at my next turn, which the hand's cards
  alone cannot tell. Between two of my turns only the other player's turn passes, so such
  a card is often still there; its weights are 0 at the other table sizes.
* with four players, for each pair of cards of the hand, ``T``: what the two are worth
  together beyond their own potentials (a card that rewards another suit, held with a card
  of it). About 1,400 weights, so this table is trained on five times the games; at the
  other table sizes there are none (:data:`.train.PAIR_TABLES`).

The spread of the gain is fitted too (its variance, linear in ``T``), so that a chance of
winning can be read from the predicted final score (:meth:`ValueModel.chance`).

So is what *any* greedy player's hand gains with ``T`` turns left, whatever its cards
(``others``: per basis function; :meth:`ValueModel.others_gain`): a turn that takes a card
from the discard area, rather than the deck's, leaves the game a turn of the deck longer,
and the other players' hands grow in that time as mine does. The advice sets my predicted
score against theirs (:mod:`.advice`), so it must count their gain too.

Inference is plain Python (no NumPy): the page in the browser runs the advice without it.
The weights are data, ``realms/data/advice-value-<game>.json``.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources

from ..catalog import Card, Catalog
from ..hand import MAX_DISCARD
from .model import TAKE_RATE

#: The file of the shipped weights, per game (``{game}``: ``base`` or ``cursed-hoards``).
WEIGHTS_FILE = "advice-value-{game}.json"

#: The standard normal's 5-point Gauss-Hermite rule (nodes, weights): the mean of a smooth
#: function of a normal variable, from five values of the function.
_HERMITE = ((0.0, 8 / 15), (1.3556261799742659, 0.2220759220056127),
            (-1.3556261799742659, 0.2220759220056127), (2.8569700138728056, 0.011257411327721),
            (-2.8569700138728056, 0.011257411327721))


def room(area: int, deck: int) -> int:
    """The turns from the deck the game has room for: each adds a card to the discard area
    (the game ends when it holds 10) and takes one from the deck."""
    return max(0, min(MAX_DISCARD - area, deck))


def turns_left(area: int, deck: int, players: int) -> float:
    """My turns still to come after my turn, estimated: the game has
    ``room / (1 - take rate)`` turns left (:func:`room`; a turn that takes from the discard
    area does not count against it), one in ``players`` of them mine."""
    return room(area, deck) / (1 - TAKE_RATE[players]) / players


def basis(t: float) -> tuple[float, float]:
    """The functions of the turns left that every feature is multiplied by (both 0 at the
    end of the game)."""
    return t, t * t


@dataclass(frozen=True)
class ValueModel:
    """The weights for one table size: ``base`` (per basis function: its own weight, then
    the weight of ``now / 100`` times it), ``cards`` (card id -> weight per basis
    function), ``spread`` (the gain's variance: constant, and per turn left), ``bank`` (per
    basis function, the weight of the bank / 10), ``pairs`` (two card ids in order -> the
    weight, times ``T``, of holding both), ``others`` (per basis function: what a greedy
    player's hand gains on average, :meth:`others_gain`); ``rmse``, the root-mean-square
    error of its final scores on the games it was trained on (what the advice says of its
    figures)."""

    players: int
    base: tuple[tuple[float, float], ...]
    cards: dict[str, tuple[float, ...]]
    spread: tuple[float, float]
    rmse: float = 0.0
    bank: tuple[float, float] = (0.0, 0.0)  # per basis function, times the bank / 10
    pairs: dict[tuple[str, str], float] = field(default_factory=dict)
    others: tuple[float, float] = (0.0, 0.0)  # per basis function

    def covers(self, cards: Sequence[Card]) -> bool:
        """Whether every card has a weight (a card of another game has none)."""
        return all(c.id in self.cards for c in cards)

    def gain(self, hand: Sequence[Card], now: float, area: int, deck: int,
             bank: float = 0.0) -> float:
        """The points greedy play is expected to add to ``now`` (the best 7 of ``hand``) by
        the end of the game, after my turn left ``area`` cards in the discard area and
        ``deck`` in the deck, and a card there that would raise the hand by ``bank``."""
        t = turns_left(area, deck, self.players)
        if t <= 0:
            return 0.0
        b = basis(t)
        out = 0.0
        for k, g in enumerate(b):
            w, ws = self.base[k]
            out += g * (w + ws * now / 100 + self.bank[k] * bank / 10)
        cards = self.cards
        for c in hand:
            weights = cards.get(c.id)
            if weights is not None:
                out += sum(w * g for w, g in zip(weights, b, strict=True))
        return out + t * self.together(hand)

    def others_gain(self, t: float) -> float:
        """What a greedy player's hand gains on average with ``t`` turns left, whatever its
        cards: what the other players' hands gain while I play my ``t`` turns.

        >>> m = ValueModel(4, ((0.0, 0.0), (0.0, 0.0)), {}, (0.0, 0.0), others=(1.5, 2.0))
        >>> m.others_gain(0.0), m.others_gain(3.0)
        (0.0, 22.5)
        """
        return sum(w * g for w, g in zip(self.others, basis(t), strict=True))

    def together(self, hand: Sequence[Card]) -> float:
        """The sum of the pair weights of ``hand``'s pairs of cards (0 without pairs).

        >>> from fantasy_scorer.realms.catalog import base_catalog
        >>> a, b, c = base_catalog().suit_cards[:3]
        >>> m = ValueModel(4, ((0.0, 0.0), (0.0, 0.0)), {}, (0.0, 0.0),
        ...                pairs={(a.id, b.id): 2.5})
        >>> m.together((b, c, a)), m.together((a, c))
        (2.5, 0.0)
        """
        pairs = self.pairs
        if not pairs:
            return 0.0
        ids = sorted(c.id for c in hand)
        get = pairs.get
        return sum(get((x, y), 0.0) for i, x in enumerate(ids) for y in ids[i + 1:])

    def final(self, hand: Sequence[Card], now: float, area: int, deck: int,
              bank: float = 0.0) -> tuple[float, float]:
        """(expected final score, its standard deviation) of ``hand`` (``bank``:
        :meth:`gain`).

        >>> m = ValueModel(4, ((0.0, 0.0), (0.0, 0.0)), {}, (0.0, 10.0))
        >>> m.final((), 180, area=10, deck=5)  # the game is over: the score, no spread
        (180, 0.0)
        """
        t = turns_left(area, deck, self.players)
        if t <= 0:
            return now, 0.0
        var = self.spread[0] + self.spread[1] * t
        return now + self.gain(hand, now, area, deck, bank), math.sqrt(max(var, 1.0))

    def at(self, area: int, deck: int) -> Callable[..., tuple[float, float]]:
        """:meth:`final` for many hands after one turn (``area`` and ``deck`` fixed): each
        card's weight is summed over the basis once, not once per hand."""
        t = turns_left(area, deck, self.players)
        if t <= 0:
            return lambda hand, now, bank=0.0: (now, 0.0)
        b = basis(t)
        w0 = sum(g * w for g, (w, _) in zip(b, self.base, strict=True))
        w1 = sum(g * ws for g, (_, ws) in zip(b, self.base, strict=True)) / 100
        per = {k: sum(w * g for w, g in zip(ws, b, strict=True))
               for k, ws in self.cards.items()}
        wb = sum(g * w for g, w in zip(b, self.bank, strict=True)) / 10
        sd = math.sqrt(max(self.spread[0] + self.spread[1] * t, 1.0))
        get = per.get
        together = self.together

        def final(hand: Sequence[Card], now: float, bank: float = 0.0
                  ) -> tuple[float, float]:
            return (now + w0 + w1 * now + wb * bank + sum(get(c.id, 0.0) for c in hand)
                    + t * together(hand)), sd

        return final

    @staticmethod
    def chance(win: Callable[[float, float], float], mean: float, sd: float,
               gift: float = 0.0) -> float:
        """The mean of ``win(final, gift)`` over final scores spread normally around
        ``mean`` with ``sd`` (Gauss-Hermite: five values of ``win``).

        >>> ValueModel.chance(lambda f, g: 1.0 if f > 100 else 0.0, 200.0, 0.0)
        1.0
        """
        if sd <= 0:
            return win(mean, gift)
        return sum(w * win(mean + sd * z, gift) for z, w in _HERMITE)

    def to_json(self) -> dict:
        return {"players": self.players, "base": [list(b) for b in self.base],
                "cards": {k: list(v) for k, v in sorted(self.cards.items())},
                "spread": list(self.spread), "rmse": self.rmse, "bank": list(self.bank),
                "pairs": {PAIR_KEY.format(*k): v for k, v in sorted(self.pairs.items())},
                "others": list(self.others)}

    @classmethod
    def from_json(cls, data: dict) -> ValueModel:
        bank = data.get("bank", (0.0, 0.0))
        others = data.get("others", (0.0, 0.0))
        return cls(int(data["players"]),
                   tuple((float(b[0]), float(b[1])) for b in data["base"]),
                   {k: tuple(map(float, v)) for k, v in data["cards"].items()},
                   (float(data["spread"][0]), float(data["spread"][1])),
                   float(data.get("rmse", 0.0)), (float(bank[0]), float(bank[1])),
                   {_pair(k): float(v) for k, v in data.get("pairs", {}).items()},
                   (float(others[0]), float(others[1])))


#: How a pair of card ids is written in the weights file.
PAIR_KEY = "{}+{}"


def _pair(key: str) -> tuple[str, str]:
    a, _, b = key.partition("+")
    return (a, b) if a <= b else (b, a)


def bank(totals: Callable[[list], Sequence[int]], kept: tuple[Card, ...],
         after: tuple[Card, ...], pool: Sequence[Card], deadline: float | None = None
         ) -> int | None:
    """The bank of ``kept`` (the hand I keep, ``after`` the discard area after my turn,
    ``pool`` its cards I could take at my next turn): the most taking one of them raises the
    hand's best 7, or 0. ``totals`` scores a list of (cards, discard area) sets. The sets
    are scored a card of ``pool`` at a time (the hand with it and without one of its own
    cards, the area without it), none started past ``deadline`` (a
    :func:`time.perf_counter` reading): then None.

    >>> from fantasy_scorer.realms.catalog import base_catalog
    >>> c = sorted(base_catalog().suit_cards, key=lambda x: x.strength)
    >>> printed = lambda asks: [sum(x.strength for x in cards) for cards, _ in asks]
    >>> bank(printed, tuple(c[:7]), (c[-1], c[7]), (c[-1],)) == c[-1].strength - c[0].strength
    True
    >>> bank(printed, tuple(c[:7]), (c[-1], c[7]), (c[-1],), deadline=0.0) is None
    True
    """
    top = 0
    for u in pool:
        if deadline is not None and time.perf_counter() > deadline:
            return None
        held = kept + (u,)
        rest = tuple(c for c in after if c is not u)
        got = totals([(kept, after)] + [(held[:i] + held[i + 1:], rest)
                                        for i in range(len(kept))])
        top = max(top, max(got[1:]) - got[0])
    return top


def normal_above(mean: float, sd: float, x: float) -> float:
    """The chance that a normal variable (``mean``, ``sd``) exceeds ``x``."""
    if sd <= 0:
        return 1.0 if mean > x else 0.0
    return 0.5 * math.erfc((x - mean) / (sd * math.sqrt(2)))


def game_name(catalog: Catalog) -> str:
    """``cursed-hoards`` for a catalog with the expansion's hand size, else ``base``."""
    return "cursed-hoards" if catalog.hand_size > 7 else "base"


@cache
def _shipped(game: str) -> dict | None:
    try:
        text = (resources.files("fantasy_scorer.realms.data") / WEIGHTS_FILE.format(
            game=game)).read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    data = json.loads(text)
    return data if isinstance(data, dict) else None


def shipped_model(catalog: Catalog, players: int) -> ValueModel | None:
    """The shipped model for this game and table size, or None (no weights for it, or a
    card of the catalog has none: the advice then plays its samples out)."""
    model = _shipped_table(game_name(catalog), players)
    return model if model is not None and model.covers(catalog.suit_cards) else None


@cache
def _shipped_table(game: str, players: int) -> ValueModel | None:
    """The shipped weights of one table size, read once per process (every decision asks;
    the 4-player table's pairs are over a thousand weights)."""
    data = _shipped(game)
    if data is None:
        return None
    found = data.get("models", {}).get(str(players))
    if found is None:
        return None
    fit = data.get("fit", {}).get(str(players), {})
    return replace(ValueModel.from_json(found), rmse=float(fit.get("rmse", 0.0)))
