"""Every score the engine's bots and the advice look at, behind one small memo.

A game asks for the same card sets again and again (the hand a player keeps is scored on
each of its turns, every discard decision scores the 7-card subsets of 8 cards), so the
:class:`Scorer` remembers each total. A total is the score of the cards at game end with
every choice made optimally and, for a Necromancer, the best card of the discard area taken
(R13): exactly what :func:`~fantasy_scorer.realms.solve.api.score_hand` gives, hence what
:func:`~fantasy_scorer.realms.resolve.resolve` gives.

Only :meth:`Scorer._compute` scores: it hands the card sets to the compiled scorer of
``realms.solve.batch`` (``optimal_totals``, which equals ``score_hand`` on every hand and
falls back to the evaluator for any card it cannot take). Where NumPy cannot be imported
(the static site's browser, whose Pyodide ships neither NumPy nor Numba) every set is scored
by ``score_hand`` itself: the same totals, more slowly. NumPy and the compiled scorer are
therefore imported when a Scorer is made, never with this module.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..catalog import Card, Catalog
from ..hand import ChoiceValue


def compiled_scorer(catalog: Catalog) -> Any:
    """The compiled scorer of ``catalog``, or None where NumPy cannot be imported (then
    :class:`Scorer` scores with ``score_hand``). Numba is not asked for here: the compiled
    code loads it, or the ahead-of-time module that needs none, at its first call."""
    try:
        from ..solve.batch.scorer import compiled
    except ImportError:
        return None
    return compiled(catalog)


#: The memo is emptied when it holds this many totals (a bound on memory, not a tuning knob).
MEMO_LIMIT = 2_000_000
#: The total of a card set that breaks a choice the player wrote (it holds the chooser but
#: not the card the choice names, or no way of making the other choices keeps it legal):
#: below any legal hand's, so that no decision keeps such a set when another is legal.
ILLEGAL = -10_000


class Scorer:
    """Totals of card sets at a table of ``players``, remembered.

    The key of a set is its cards; for a set whose score reads the discard area (an
    extra-card effect such as Necromancer's, or a card that counts the discard area), the
    cards of the area that can matter are part of the key too.
    """

    def __init__(self, catalog: Catalog, players: int | None = None,
                 pins: Mapping[str, ChoiceValue] | None = None) -> None:
        self.catalog = catalog
        self.players = players
        #: choices the player wrote (issue 39): a set holding a chooser keeps its choice,
        #: and is scored by the solver with it (:meth:`_pinned_total`)
        self.pins = dict(pins or {})
        self.bit = {c.id: 1 << i for i, c in enumerate(catalog.cards)}
        self.width = len(catalog.cards)
        # by card object (cards hash by identity: a dict lookup without the id's string),
        # for the keys and the compiled rows of every set scored; a card of another catalog
        # object with the same id is looked up by id (:meth:`_slow_bits`)
        self._bit_of = {c: self.bit[c.id] for c in catalog.cards}
        #: the compiled scorer (None: none here, each set is scored by ``score_hand``)
        self.compiled = compiled_scorer(catalog)
        self._index_of = ({c: self.compiled.index[c.id] for c in catalog.cards}
                          if self.compiled is not None else {})
        if self.compiled is not None:  # the compiled code loads at its first call: here, so
            #                            that a decision given a scorer made beforehand (a bot,
            #                            a script) spends its first time budget on deciding
            self._compiled_totals([(catalog.suit_cards[:catalog.hand_size], ())])
        # the cards whose score reads the discard area: they put the area in a set's key
        self.readers = self.mask([c for c in catalog.cards if "discard" in c.needs or (
            c.extra is not None and c.extra.source == "discard")])
        self.area_readers = self.mask([c for c in catalog.cards if "discard" in c.needs])
        #: per card that takes an extra card from the discard area, the cards it may take
        self.takes = {self.bit[g.id]: self.mask([d for d in catalog.cards if g.may_take_extra(d)])
                      for g in catalog.cards if g.extra is not None
                      and g.extra.source == "discard"}
        self.givers = sum(self.takes)
        self.memo: dict[int, int] = {}
        self.computed = 0  # totals actually scored (memo misses)
        self.pinned = self.mask([catalog.by_id[k] for k in self.pins])

    def mask(self, cards: Sequence[Card]) -> int:
        """The bits of ``cards`` (distinct cards, as every hand and discard area holds)."""
        try:
            return sum(map(self._bit_of.__getitem__, cards))
        except KeyError:
            return self._slow_bits(cards)

    def _slow_bits(self, cards: Sequence[Card]) -> int:
        bit = self.bit
        m = 0
        for c in cards:
            m |= bit[c.id]
        return m

    def _key(self, cards: Sequence[Card], area: Sequence[Card]) -> int:
        key = self.mask(cards)
        if not area or not key & self.readers:
            return key
        if key & self.area_readers:  # the whole area counts
            return key | (self.mask(area) + 1) << self.width
        usable = 0  # only the area's cards an extra-card effect of the set may take count
        for giver, takes in self.takes.items():
            if key & giver:
                usable |= takes
        return key | ((self.mask(area) & usable) + 1) << self.width

    def total(self, cards: Sequence[Card], area: Sequence[Card] = ()) -> int:
        """The score of ``cards`` at game end with this discard area."""
        key = self._key(cards, area)
        found = self.memo.get(key)
        if found is None:
            found = self._compute([(cards, area)])[0]
            self._remember(key, found)
        return found

    def totals(self, hands: Sequence[tuple[Sequence[Card], Sequence[Card]]]) -> list[int]:
        """:meth:`total` of each (cards, discard area) pair, the unknown ones scored in one
        call."""
        keys = [self._key(cards, area) for cards, area in hands]
        known = {k: self.memo[k] for k in keys if k in self.memo}
        missing = {k: h for k, h in zip(keys, hands, strict=True) if k not in known}
        if missing:
            for k, t in zip(missing, self._compute(list(missing.values())), strict=True):
                known[k] = t
                self._remember(k, t)
        return [known[k] for k in keys]

    def _remember(self, key: int, total: int) -> None:
        if len(self.memo) >= MEMO_LIMIT:
            self.memo.clear()
        self.memo[key] = total

    def _compute(self, hands: Sequence[tuple[Sequence[Card], Sequence[Card]]]) -> list[int]:
        """The one scoring call: each hand with its choices made optimally and the best
        extra card taken from its discard area (``score_hand``), by the compiled scorer."""
        self.computed += len(hands)
        if self.pinned:
            mine = [i for i, (cards, _) in enumerate(hands) if self.mask(cards) & self.pinned]
            if mine:
                out = [0] * len(hands)
                for i in mine:
                    out[i] = self._pinned_total(*hands[i])
                rest = [i for i in range(len(hands)) if not self.mask(hands[i][0]) & self.pinned]
                for i, t in zip(rest, self._compiled_totals([hands[i] for i in rest]),
                                strict=True):
                    out[i] = t
                return out
        return self._compiled_totals(hands)

    def _compiled_totals(self, hands: Sequence[tuple[Sequence[Card], Sequence[Card]]]
                         ) -> list[int]:
        if not hands:
            return []
        cs = self.compiled
        if cs is None:
            return [self._plain_total(cards, area) for cards, area in hands]
        totals = cs.optimal_totals(self._rows([cards for cards, _ in hands]),
                                   players=self.players,
                                   discard=self._rows([area for _, area in hands]))
        return totals.tolist()

    def _plain_total(self, cards: Sequence[Card], area: Sequence[Card]) -> int:
        """``score_hand`` of one set, in pure Python (no compiled scorer here)."""
        from ..hand import Hand
        from ..solve.api import score_hand

        return score_hand(Hand(self.catalog, tuple(cards), {}, tuple(area), self.players)).total

    def _pinned_total(self, cards: Sequence[Card], area: Sequence[Card]) -> int:
        """``score_hand`` of a set holding a chooser the player wrote a choice for, with that
        choice kept (:data:`ILLEGAL` when the set breaks it)."""
        from ...errors import ScorerError
        from ..hand import Hand
        from ..solve.api import optimize
        from ..solve.exhaustive import pins_for

        pins = pins_for(cards, self.pins)
        if pins is None:
            return ILLEGAL
        try:
            return optimize(Hand(self.catalog, tuple(cards), pins, tuple(area), self.players)
                            ).total
        except ScorerError:
            return ILLEGAL

    def _rows(self, sets: Sequence[Sequence[Card]]) -> Any:
        """The compiled scorer's ``-1``-padded rows of card indices, built in one numpy call
        (most sets are of one length: a row per set would cost more than the scoring)."""
        import numpy as np

        index = self._index_of
        try:
            ids = [list(map(index.__getitem__, cards)) for cards in sets]
        except KeyError:
            ids = [self.compiled.ids(cards) for cards in sets]
        width = max([1, *map(len, ids)])
        pad = [-1] * width
        return np.array([r + pad[len(r):] for r in ids], dtype=np.int64).reshape(
            len(ids), width)

    # -- the decisions built on totals -------------------------------------------------------

    def keeps(self, cards: Sequence[Card], area: Sequence[Card] = (), first: bool = False
              ) -> list[tuple[int, Card]]:
        """Every way to discard one of ``cards`` (a hand plus the card just drawn), as
        (total of the rest, card discarded), best first; with ``first``, only the best.

        The order is that of ``fr-score best``: the higher total; on a tie the final hand
        (Necromancer's extra card included) with the lower printed strength, the game's
        tie-break; still tied, the hand that holds the earliest card where they differ
        (``cards``, then ``area``, in order).
        """
        rests = [cards[:i] + cards[i + 1:] for i in range(len(cards))]
        return self.order_keeps(cards, area, self.totals([(r, area) for r in rests]), first)

    def order_keeps(self, cards: Sequence[Card], area: Sequence[Card], totals: Sequence[int],
                    first: bool = False, exact_ties: bool = True) -> list[tuple[int, Card]]:
        """:meth:`keeps` from the totals already known of each discard (in ``cards``'
        order). Without ``exact_ties``, equal totals are told apart by the printed cards
        alone (the stronger card goes, then the later one), not by the card a Necromancer
        would take: the play-outs' quick version."""
        rests = [cards[:i] + cards[i + 1:] for i in range(len(cards))]
        totals = list(totals)
        if not exact_ties:
            i = min(range(len(cards)), key=lambda i: (-totals[i], -cards[i].strength, -i))
            return [(totals[i], cards[i])]
        top = max(totals)
        tied = {t for t in totals if totals.count(t) > 1 and (t == top or not first)}
        position = {c.id: k for k, c in enumerate(list(cards) + list(area))}

        def key(i: int) -> tuple:
            if totals[i] not in tied:
                return (-totals[i],)
            held = self.final_cards(rests[i], area)
            early = sorted(position[c.id] for c in held)
            return (-totals[i], sum(c.strength for c in held), early)

        order = sorted(range(len(cards)), key=key)
        return [(totals[i], cards[i]) for i in order[:1 if first else None]]

    def final_cards(self, cards: Sequence[Card], area: Sequence[Card]) -> tuple[Card, ...]:
        """The cards scored at game end: ``cards`` plus the extra card a Necromancer takes
        from ``area`` (the one ``score_hand`` takes)."""
        if not area or not any(c.extra is not None and c.extra.source == "discard"
                               for c in cards):
            return tuple(cards)
        from ...errors import ScorerError
        from ..hand import Hand
        from ..solve.api import optimize
        from ..solve.exhaustive import pins_for

        pins = pins_for(cards, self.pins) or {}
        try:
            return optimize(Hand(self.catalog, tuple(cards), pins, tuple(area), self.players)
                            ).hand.cards
        except ScorerError:  # a set that breaks a written choice (ILLEGAL): as it is
            return tuple(cards)

    def best_keep(self, cards: Sequence[Card], area: Sequence[Card] = ()) -> tuple[int, Card]:
        """(total, card to discard) of the best discard: :meth:`keeps`' first."""
        return self.keeps(cards, area, first=True)[0]

    def top(self, sets: Sequence[tuple[Sequence[Card], Sequence[Card], tuple]], k: int
            ) -> list[tuple[int, int]]:
        """(total, index) of the ``k`` best of ``sets``, each (cards, discard area, tie key):
        the highest total, then the lowest tie key; best first."""
        totals = self.totals([(c, a) for c, a, _ in sets])
        order = sorted(range(len(sets)), key=lambda i: (-totals[i], sets[i][2]))
        return [(totals[i], i) for i in order[:k]]

    def best(self, sets: Sequence[tuple[Sequence[Card], Sequence[Card], tuple]],
             beat: int | None = None) -> tuple[int, int]:
        """(total, index) of the best of ``sets`` (as :meth:`top` orders them). With ``beat``,
        only a total above it counts, and (``beat``, -1) means that none is."""
        found = self.top(sets, 1)
        if beat is not None and (not found or found[0][0] <= beat):
            return beat, -1
        return found[0]
