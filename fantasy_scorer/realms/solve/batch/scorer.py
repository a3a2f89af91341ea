"""The compiled scorer of one catalog: the fast entry for searches and the game engine.

``compiled(catalog)`` gives the :class:`CompiledScorer` of a catalog (its tables built once,
cached with the catalog object). It scores many hands given as card indices, without
reading any text. A card's index is its position in ``catalog.cards`` (``scorer.ids(cards)``,
``scorer.index[card.id]``, ``scorer.cards[u]``). Hands are rows of an int array (or lists of
lists), ``-1``-padded; the table around them is given once for every hand or per hand:

* ``scorer.resolve_totals(hands, choices=None, *, players=None, discard=None, cursed=None)``
  — ``resolve`` on each hand with its choices as given (unassigned when ``choices`` is None;
  else ``choices[r, i] = (kind, a, b)`` with the ``kernel.CV_*`` kinds);
* ``scorer.optimal_totals(hands, *, players=None, discard=None, cursed=None)`` —
  ``score_hand`` on each hand: every choice made optimally and, with a discard area and
  room, the best extra cards taken from it (R13, C4).

``players``: an int or one per hand (None: not given); ``discard``: None (no discard area),
one list of indices for every hand, or one list per hand; ``cursed`` likewise. Both return an
``int64`` array of totals, one per hand, equal to the evaluator's exactly: a hand the
compiled code cannot take (a card whose effects it does not know, an illegal choice) is
scored by :mod:`fantasy_scorer.realms.resolve`, which also raises the error such a hand
deserves. Each call costs some tens of microseconds besides its hands: score many hands per
call. The first call in a process loads the compiled code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ... import effects as fx
from ...catalog import Card, Catalog, per_catalog
from ...hand import ChoiceValue, Hand, hand_limit
from ...resolve import resolve, score_raw
from .tables import ScorerTables, compile_scorer_tables

Ints = Sequence[int] | np.ndarray


def _rows(hands: Sequence[Ints] | np.ndarray, width: int | None = None) -> np.ndarray:
    """``-1``-padded rows of card indices."""
    if isinstance(hands, np.ndarray) and hands.ndim == 2:
        return np.ascontiguousarray(hands, dtype=np.int64)
    rows = [list(h) for h in hands]
    w = max([len(r) for r in rows] + [width or 1])
    out = np.full((len(rows), w), -1, dtype=np.int64)
    for i, r in enumerate(rows):
        out[i, : len(r)] = r
    return out


@dataclass
class Context:
    """The table around each hand, as arrays: players (-1: not given), Cursed Items and the
    discard area (``-1``-padded rows), and whether a discard area is given."""

    players: np.ndarray
    cursed: np.ndarray
    discard: np.ndarray
    has_discard: np.ndarray


def _per_row(m: int, value: Ints | Sequence[Ints] | np.ndarray | None) -> np.ndarray:
    """One shared list of card indices or one list per hand, as ``-1``-padded rows."""
    if value is None:
        return np.full((m, 1), -1, dtype=np.int64)
    arr = value if isinstance(value, np.ndarray) else None
    if arr is not None and arr.ndim == 2:
        return np.ascontiguousarray(arr, dtype=np.int64)
    items = list(value)  # type: ignore[arg-type]
    if items and not isinstance(items[0], (int, np.integer)):
        return _rows(items)  # type: ignore[arg-type]
    row = np.array(items + [-1], dtype=np.int64)
    return np.ascontiguousarray(np.broadcast_to(row, (m, len(row))))


def context(m: int, players: int | Ints | None = None,
            discard: Ints | Sequence[Ints] | None = None,
            cursed: Ints | Sequence[Ints] | None = None) -> Context:
    """``m`` hands' table: ``players`` an int or one per hand; ``discard`` and ``cursed`` one
    list of card indices for every hand or one list per hand (``discard=None``: no discard
    area)."""
    if players is None:
        p = np.full(m, -1, dtype=np.int64)
    elif isinstance(players, (int, np.integer)):
        p = np.full(m, int(players), dtype=np.int64)
    else:
        p = np.array([-1 if x is None else x for x in players], dtype=np.int64)
    has = np.full(m, discard is not None, dtype=np.bool_)
    return Context(p, _per_row(m, cursed), _per_row(m, discard), has)


class CompiledScorer:
    """The tables of one catalog and the compiled functions that score with them."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.tables: ScorerTables = compile_scorer_tables(catalog)
        self.M, self.OF = self.tables.arrays
        self.cards = self.tables.cards
        self.index = self.tables.index
        self._unsupported = np.array(sorted(self.tables.unsupported), dtype=np.int64)

    def ids(self, cards: Sequence[Card]) -> list[int]:
        """The indices of cards (their positions in ``catalog.cards``)."""
        return [self.index[c.id] for c in cards]

    def supports(self, cards: Sequence[Card]) -> bool:
        """Whether the compiled code knows every effect of these cards."""
        return not any(self.index[c.id] in self.tables.unsupported for c in cards)

    def _unsupported_rows(self, *arrays: np.ndarray) -> np.ndarray:
        m = arrays[0].shape[0]
        bad = np.zeros(m, dtype=np.bool_)
        if self._unsupported.size:
            for a in arrays:
                bad |= np.isin(a, self._unsupported).any(axis=1)
        return bad

    # -- resolve ------------------------------------------------------------------------------
    def resolve_totals(self, hands: Sequence[Ints] | np.ndarray, choices: np.ndarray | None = None,
                       *, players: int | Ints | None = None,
                       discard: Ints | Sequence[Ints] | None = None,
                       cursed: Ints | Sequence[Ints] | None = None) -> np.ndarray:
        """``resolve`` on every hand (rows of card indices, ``-1``-padded): the totals.

        ``choices[r, i] = (kind, a, b)`` for card ``i`` of hand ``r`` (``kernel.CV_*``: a
        copy's card index; Book of Changes' slot and suit index; Island's or Angel's slot);
        None leaves every choice unassigned."""
        from .aot import entry
        from .tables import ERROR

        resolve_batch = entry("resolve_batch")

        rows = _rows(hands)
        m, w = rows.shape
        ch = np.zeros((m, w, 3), dtype=np.int64) if choices is None else np.ascontiguousarray(
            choices, dtype=np.int64)
        ctx = context(m, players, discard, cursed)
        totals = np.zeros(m, dtype=np.int64)
        status = np.zeros(m, dtype=np.int64)
        resolve_batch(self.M, self.OF, rows, ch, ctx.players, ctx.cursed, ctx.discard,
                      ctx.has_discard, totals, status)
        for r in np.flatnonzero((status == ERROR) | self._unsupported_rows(rows, ctx.cursed)):
            totals[r] = self._python_resolve(rows[r], ch[r], ctx, r)
        return totals

    def resolve_hands(self, hands: Sequence[Hand]) -> list[int]:
        """``resolve(hand).total`` for every :class:`Hand` (its choices, discard area, players
        and Cursed Items as the hand says)."""
        from .aot import entry
        from .tables import CV_CHANGE, CV_COPY, CV_TARGET, ERROR

        resolve_batch = entry("resolve_batch")

        m = len(hands)
        w = max([len(h.cards) for h in hands] + [1])
        rows = np.full((m, w), -1, dtype=np.int64)
        ch = np.zeros((m, w, 3), dtype=np.int64)
        players = np.full(m, -1, dtype=np.int64)
        has = np.zeros(m, dtype=np.bool_)
        curs = _rows([self.ids(h.cursed) for h in hands])
        disc = _rows([self.ids(h.discard or ()) for h in hands])
        suits = {s: i for i, s in enumerate(self.catalog.suits)}
        for r, h in enumerate(hands):
            pos = {c.id: i for i, c in enumerate(h.cards)}
            for i, c in enumerate(h.cards):
                rows[r, i] = self.index[c.id]
                v = h.choices.get(c.id)
                if v is None:
                    continue
                if isinstance(c.choice, fx.Copy):
                    ch[r, i] = (CV_COPY, self.index[v.id], 0)  # type: ignore[union-attr]
                elif isinstance(c.choice, fx.ChangeSuit):
                    ch[r, i] = (CV_CHANGE, pos[v[0].id], suits[v[1]])  # type: ignore[index]
                else:
                    ch[r, i] = (CV_TARGET, pos[v.id], 0)  # type: ignore[union-attr]
            players[r] = -1 if h.players is None else h.players
            has[r] = h.discard is not None
        totals = np.zeros(m, dtype=np.int64)
        status = np.zeros(m, dtype=np.int64)
        resolve_batch(self.M, self.OF, rows, ch, players, curs, disc, has, totals, status)
        out = totals.tolist()
        for r in np.flatnonzero((status == ERROR) | self._unsupported_rows(rows, curs)).tolist():
            out[r] = resolve(hands[r]).total
        return out

    def _python_resolve(self, row: np.ndarray, ch: np.ndarray, ctx: Context, r: int) -> int:
        cards = [self.cards[u] for u in row if u >= 0]
        choices: dict[str, ChoiceValue] = {}
        for i, c in enumerate(cards):
            kind, a, b = (int(x) for x in ch[i])
            if kind == 1:
                choices[c.id] = self.cards[a]
            elif kind == 2:
                choices[c.id] = (cards[a], self.catalog.suits[b])
            elif kind == 3:
                choices[c.id] = cards[a]
        return score_raw(cards, choices, self.catalog, self._context(ctx, r),
                         [self.cards[u] for u in ctx.cursed[r] if u >= 0])

    def _context(self, ctx: Context, r: int, taken: Sequence[int] = ()) -> fx.Context:
        area = None
        if ctx.has_discard[r]:
            area = tuple(fx.Printed(self.cards[u].name, self.cards[u].copy_suits,
                                    self.cards[u].strength)
                         for u in ctx.discard[r] if u >= 0 and u not in taken)
        players = int(ctx.players[r]) if ctx.players[r] >= 0 else None
        n_cursed = int((ctx.cursed[r] >= 0).sum())
        if area is None and players is None and not n_cursed:
            return fx.NO_CONTEXT
        return fx.Context(area, players, n_cursed)

    # -- optimal choices ----------------------------------------------------------------------
    def optimal_totals(self, hands: Sequence[Ints] | np.ndarray, *,
                       players: int | Ints | None = None,
                       discard: Ints | Sequence[Ints] | None = None,
                       cursed: Ints | Sequence[Ints] | None = None) -> np.ndarray:
        """``score_hand`` on every hand: each choice made optimally and, where the hand has
        room (R13, C4), the best extra cards from the discard area. The totals."""
        from .aot import entry

        optimal_batch = entry("optimal_batch")

        rows = _rows(hands)
        m = rows.shape[0]
        ctx = context(m, players, discard, cursed)
        out = np.zeros((m, 4), dtype=np.int64)
        optimal_batch(self.M, self.OF, rows, ctx.players, ctx.cursed, ctx.discard,
                      ctx.has_discard, out)
        for r in np.flatnonzero((out[:, 0] != 0) | self._unsupported_rows(rows, ctx.cursed,
                                                                           ctx.discard)):
            out[r, 1] = self._python_optimal(rows[r], ctx, r)
        return out[:, 1].copy()

    def _python_optimal(self, row: np.ndarray, ctx: Context, r: int) -> int:
        from ..exhaustive import Table, best_with_extras

        cards = [self.cards[u] for u in row if u >= 0]
        cursed = tuple(self.cards[u] for u in ctx.cursed[r] if u >= 0)
        discard = tuple(self.cards[u] for u in ctx.discard[r] if u >= 0) \
            if ctx.has_discard[r] else None
        table = Table(discard, int(ctx.players[r]) if ctx.players[r] >= 0 else None, cursed)
        most = hand_limit(cards, self.catalog, cursed) - len(cards)
        return best_with_extras(cards, self.catalog, {}, table, most).total


def pins_array(scorer: CompiledScorer, pool: Sequence[Card],
               pinned: Mapping[str, ChoiceValue]) -> np.ndarray:
    """Each pool card's pinned choice as (kind, a, b, whether the target must be in hand),
    kind ``search.OPEN`` when the choice is free (for :func:`.search.subsets_batch`)."""
    from .tables import CV_CHANGE, CV_COPY, CV_NONE, CV_TARGET, OPEN

    out = np.full((len(pool), 4), 0, dtype=np.int64)
    for p, c in enumerate(pool):
        if c.id not in pinned:
            out[p, 0] = OPEN
            continue
        value = pinned[c.id]
        if value is None:
            out[p, 0] = CV_NONE
        elif isinstance(c.choice, fx.Copy):
            assert isinstance(value, Card)
            out[p] = (CV_COPY, scorer.index[value.id], 0, int(c.choice.source != "game"))
        elif isinstance(c.choice, fx.ChangeSuit):
            target, suit = value  # type: ignore[misc]
            out[p] = (CV_CHANGE, scorer.index[target.id], scorer.catalog.suits.index(suit), 1)
        else:
            assert isinstance(value, Card)
            out[p] = (CV_TARGET, scorer.index[value.id], 0, 1)
    return out


_SCORERS: dict[int, CompiledScorer] = {}


def compiled(catalog: Catalog) -> CompiledScorer:
    """The compiled scorer of ``catalog`` (built once per catalog object)."""
    return per_catalog(_SCORERS, catalog, CompiledScorer)
