"""Every score the engine's bots and the advice look at, behind one small memo.

A game asks for the same card sets again and again (the hand a player keeps is scored on
each of its turns, every discard decision scores the 7-card subsets of 8 cards), so the
:class:`Scorer` remembers each total. A total is the score of the cards at game end with
every choice made optimally and, for a Necromancer, the best card of the discard area taken
(R13): exactly what :func:`~fantasy_scorer.realms.solve.api.score_hand` gives, hence what
:func:`~fantasy_scorer.realms.resolve.resolve` gives.

Only :meth:`Scorer._compute` scores: it hands the card sets to the compiled scorer of
``realms.solve.batch`` (``optimal_totals``, which equals ``score_hand`` on every hand and
falls back to the evaluator for any card it cannot take).

Where only the best of many card sets matters (a bot's decision), :meth:`Scorer.best` skips
the sets that cannot win: the compiled upper bound of ``realms.solve.sweep`` (at least the
total of a set, whatever its choices) is below the best total already scored. A skipped set
is never given a score; every figure reported is a real total.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..catalog import Card, Catalog
from ..solve.batch.scorer import compiled
from ..solve.sweep import Bounds, Unsupported, compile_bounds

#: The memo is emptied when it holds this many totals (a bound on memory, not a tuning knob).
MEMO_LIMIT = 2_000_000


class Scorer:
    """Totals of card sets at a table of ``players``, remembered.

    The key of a set is its cards; for a set whose score reads the discard area (an
    extra-card effect such as Necromancer's, or a card that counts the discard area), the
    cards of the area that can matter are part of the key too.
    """

    def __init__(self, catalog: Catalog, players: int | None = None) -> None:
        self.catalog = catalog
        self.players = players
        self.bit = {c.id: 1 << i for i, c in enumerate(catalog.cards)}
        self.order = {c.id: i for i, c in enumerate(catalog.cards)}
        self.width = len(catalog.cards)
        self.memo: dict[int, int] = {}
        self.computed = 0  # totals actually scored (memo misses)
        self.compiled = compiled(catalog)
        self._bounds: Bounds | None | bool = False  # False: not compiled yet; None: unsupported

    @property
    def bounds(self) -> Bounds | None:
        """The compiled upper bounds of this catalog's cards, or None where the sweep does
        not model them (then nothing is skipped)."""
        if self._bounds is False:
            try:
                self._bounds = compile_bounds(self.catalog, self.catalog.suit_cards)
            except Unsupported:
                self._bounds = None
        return self._bounds  # type: ignore[return-value]

    def bound(self, cards: Sequence[Card], area: Sequence[Card] = ()) -> int | None:
        """At least :meth:`total` of these cards (None: no bound known). With an extra-card
        effect, the bound covers every card of the area it may take."""
        b = self.bounds
        if b is None:
            return None
        for c in cards:
            if "discard" in c.needs or "players" in c.needs:
                return None
        top = b.bound(cards)
        for g in cards:
            if g.extra is None:
                continue
            if g.extra.source != "discard":
                return None
            for d in area:
                if g.may_take_extra(d) and d not in cards:
                    top = max(top, b.bound(tuple(cards) + (d,)))
        return top

    def mask(self, cards: Sequence[Card]) -> int:
        bit = self.bit
        m = 0
        for c in cards:
            m |= bit[c.id]
        return m

    def _key(self, cards: Sequence[Card], area: Sequence[Card]) -> int:
        key = self.mask(cards)
        if not area:
            return key
        reads_area = False
        givers = []
        for c in cards:
            if "discard" in c.needs:
                reads_area = True
            if c.extra is not None and c.extra.source == "discard":
                givers.append(c)
        if reads_area:
            return key | (self.mask(area) + 1) << self.width
        if givers:
            usable = [d for d in area if any(g.may_take_extra(d) for g in givers)]
            return key | (self.mask(usable) + 1) << self.width
        return key

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
        missing = {k: h for k, h in zip(keys, hands, strict=True) if k not in self.memo}
        if missing:
            for k, t in zip(missing, self._compute(list(missing.values())), strict=True):
                self._remember(k, t)
        return [self.memo[k] for k in keys]

    def _remember(self, key: int, total: int) -> None:
        if len(self.memo) >= MEMO_LIMIT:
            self.memo.clear()
        self.memo[key] = total

    def _compute(self, hands: Sequence[tuple[Sequence[Card], Sequence[Card]]]) -> list[int]:
        """The one scoring call: each hand with its choices made optimally and the best
        extra card taken from its discard area (``score_hand``), by the compiled scorer."""
        self.computed += len(hands)
        cs = self.compiled
        totals = cs.optimal_totals([cs.ids(cards) for cards, _ in hands], players=self.players,
                                   discard=[cs.ids(area) for _, area in hands])
        return [int(t) for t in totals]

    # -- the decisions built on totals -------------------------------------------------------

    def keeps(self, cards: Sequence[Card], area: Sequence[Card] = ()) -> list[tuple[int, Card]]:
        """Every way to discard one of ``cards`` (a hand plus the card just drawn), as
        (total of the rest, card discarded), best first.

        The order is that of ``fr-score best``: the higher total; on a tie the kept hand
        with the lower printed strength (the game's tie-break), so the stronger card goes;
        still tied, the card that comes later in ``cards`` goes.
        """
        out = []
        for i, d in enumerate(cards):
            rest = cards[:i] + cards[i + 1:]
            out.append((self.total(rest, area), d, i))
        out.sort(key=lambda t: (-t[0], -t[1].strength, -t[2]))
        return [(t, d) for t, d, _ in out]

    def best_keep(self, cards: Sequence[Card], area: Sequence[Card] = ()) -> tuple[int, Card]:
        """(total, card to discard) of the best discard: :meth:`keeps`' first, found
        without scoring the discards that cannot be it."""
        sets = [(cards[:i] + cards[i + 1:], area, (-d.strength, -i))
                for i, d in enumerate(cards)]
        total, i = self.best(sets)
        return total, cards[i]

    def top(self, sets: Sequence[tuple[Sequence[Card], Sequence[Card], tuple]], k: int
            ) -> list[tuple[int, int]]:
        """(total, index) of the ``k`` best of ``sets`` (as :meth:`best` orders them), best
        first, skipping the sets whose bound is below the ``k``-th best so far."""
        bounds = [self.bound(c, a) for c, a, _ in sets]
        order = sorted(range(len(sets)), key=lambda i: (
            -(bounds[i] if bounds[i] is not None else 1 << 60), sets[i][2]))
        found: list[tuple[int, tuple, int]] = []
        for i in order:
            b = bounds[i]
            if len(found) >= k and b is not None and b < found[k - 1][0]:
                continue
            found.append((self.total(sets[i][0], sets[i][1]), sets[i][2], i))
            found.sort(key=lambda f: (-f[0], f[1]))
        return [(t, i) for t, _, i in found[:k]]

    def best(self, sets: Sequence[tuple[Sequence[Card], Sequence[Card], tuple]],
             beat: int | None = None) -> tuple[int, int]:
        """(total, index) of the best of ``sets``, each (cards, discard area, tie key): the
        highest total, then the lowest tie key. With ``beat``, only a total above it counts,
        and (``beat``, -1) means that none is.

        Sets are scored in the order of their bounds, highest first, and a set whose bound
        cannot beat the best so far is skipped, so the answer is the one that scoring every
        set would give.
        """
        bounds = [self.bound(c, a) for c, a, _ in sets]
        order = sorted(range(len(sets)), key=lambda i: (
            -(bounds[i] if bounds[i] is not None else 1 << 60), sets[i][2]))
        top, key, at = (beat, None, -1) if beat is not None else (None, None, -1)
        for i in order:
            cards, area, tie = sets[i]
            b = bounds[i]
            if top is not None and b is not None and (
                    b < top or (b == top and (key is None or tie >= key))):
                continue
            t = self.total(cards, area)
            if top is None or t > top or (t == top and key is not None and tie < key):
                top, key, at = t, tie, i
        assert top is not None
        return top, at
