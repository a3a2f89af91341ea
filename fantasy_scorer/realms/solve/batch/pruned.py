"""``best`` by compiled enumeration, pruned by the sweep's bound: the same hands, fewer scored.

A pool with several choice cards is slow to enumerate: every subset is scored with every
option of its choices (:func:`.best.compiled_best`), yet most subsets cannot be among the
best. The sweep of ``max`` has an upper bound on a whole hand over all its choices
(:mod:`..sweep`, ``hand_value``), a few microseconds per hand. So:

1. one compiled call bounds every subset (``sweep_kernel.subset_bounds``);
2. the subsets are scored exactly, best bound first, in small batches (the compiled
   enumeration of :func:`.search.subsets_batch`, the very scores ``compiled_best`` gives);
3. the search stops when the next bound is below the ``top``-th best total scored so far.

Every subset left out scores below that total, so the ``top`` best hands are the ones the
full enumeration finds: :func:`.best.best_rows` gives them the same tie-break and the same
choices. A subset whose bound *equals* that total is still scored (it may tie, and win the
tie-break). Before a batch is scored, two closer looks drop the subsets they show below
that total, where that is expected to cost less than scoring them (:data:`REFINE`): each copy
from the game showing one face at a time (``sweep_kernel._faces_over``), and the sweep's own
(``refined_over``: what a copy from the hand copies and Book of Changes' change tried one by
one, World Tree with cards of different suits).

Only pools the bound covers are taken (:func:`pruned_fits`): every card described by the
sweep's tables (``sweep_tables.Unsupported`` otherwise), no Cursed Items held, and no extra
card to take (a discard area with an extra-card giver in the pool: the bound is of the seven
cards alone). Pins only lower a hand's total, so the bound holds with them; a discard area is
the sweep's table, counted whole. The tables of a catalog are compiled once per table around
the hand (``catalog.per_catalog``).
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Mapping, Sequence
from math import comb

from ... import effects as fx
from ...catalog import Card, Catalog, per_catalog
from ...hand import ChoiceValue
from ..exhaustive import NO_TABLE, Candidate, Progress, Table
from .best import Enumeration, best_rows, compiled_fits, shared, threads

#: Subsets scored per batch (the bar rises between batches); a batch of at least SHARED is
#: shared by two threads (the compiled code runs without the GIL).
BATCH, SHARED = 16, 4
#: The closer looks cost about what scoring a subset with a few options costs (measured: 10
#: to 300 microseconds, the most with a copy from the hand: each card it may copy is looked
#: at) and show a third to two thirds of the subsets they look at below the bar. They pay
#: for a subset whose estimated options (the product of :func:`..plan.options` over its
#: cards) reach REFINE, or REFINE_COPY with a copy from the hand (measured by kind of subset
#: on 12-card pools).
REFINE, REFINE_COPY = 500.0, 1000.0


class _Tables:
    """The sweep's tables of one catalog's cards, one per table around the hand (discard
    area, players), with the facts ``subset_bounds`` reads (False: the catalog holds a card
    the sweep does not describe; each pool is then compiled alone, about a millisecond)."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.by_table: dict[tuple, object] = {}

    def get(self, pool: Sequence[Card], table: Table) -> _Bound | None:
        from ..sweep import Unsupported

        key = (None if table.discard is None else tuple(c.id for c in table.discard),
               table.players)
        found = self.by_table.get(key)
        if found is None:
            if len(self.by_table) > 32:
                self.by_table.clear()
            try:
                found = _Bound(self.catalog, self.catalog.suit_cards, table)
            except Unsupported:
                found = False
            self.by_table[key] = found
        if found is False:  # some card of the catalog is not described: the pool alone
            try:
                found = _Bound(self.catalog, pool, table)
            except Unsupported:
                return None
        assert isinstance(found, _Bound)
        return found if found.covers(pool) else None


class _Bound:
    """Compiled bounds over ``cards`` (see :class:`_Tables`)."""

    def __init__(self, catalog: Catalog, cards: Sequence[Card], table: Table) -> None:
        from ..sweep import Table as SweepTable
        from ..sweep import _Run, compile_bounds

        self.bounds = compile_bounds(catalog, list(cards), SweepTable(table.discard,
                                                                      table.players, 0))
        self.T = self.bounds.tables.T
        self.RUN = _Run(self.bounds, [], [], 0, 0).RUN  # no free card: whole hands
        self.position = {c.id: i for i, c in enumerate(self.bounds.cards)}
        self.faces = self._faces(catalog)

    def _faces(self, catalog: Catalog) -> tuple:
        """The faces of each copy from the game, for ``sweep_kernel._faces_over``: (how many,
        their suits, the groups that may select each). A face is a card the copy may show,
        itself included, with the suits a copy of it takes; the groups are those that select
        that card as printed, and the copy at all (a superset of what selects the face).
        Faces alike for every group are one. A copy with a face outside the tables, or more
        than 16 faces, is not looked at face by face (0)."""
        import numpy as np

        from ..sweep_kernel import C_NFACES

        t = self.bounds.tables
        n, most = len(t.cards), 16
        count = np.zeros(n, dtype=np.int64)
        suits = np.zeros((n, most), dtype=np.int64)
        groups = np.zeros((t.match.shape[0], n, most), dtype=np.int64)
        for y, c in enumerate(t.cards):
            if t.card[y, C_NFACES] == 0 or not isinstance(c.choice, fx.Copy):
                continue
            shown = [c, *catalog.copy_targets(c.choice)]
            if any(f.id not in self.position for f in shown):
                continue
            alike: dict[tuple, tuple] = {}
            for f in shown:
                column = t.selfm[:, self.position[f.id]] & t.match[:, y]
                alike.setdefault((f.copy_suits, column.tobytes()), (f.copy_suits, column))
            if len(alike) > most:
                continue
            count[y] = len(alike)
            for k, (mask, column) in enumerate(alike.values()):
                suits[y, k] = mask
                groups[:, y, k] = column
        return count, suits, groups

    def covers(self, pool: Sequence[Card]) -> bool:
        return all(c.id in self.position and self.bounds.cards[self.position[c.id]] is c
                   for c in pool)

    def indices(self, pool: Sequence[Card]):
        import numpy as np

        return np.array([self.position[c.id] for c in pool], dtype=np.int64)


_TABLES: dict[int, _Tables] = {}


def _bound(pool: Sequence[Card], catalog: Catalog, discard: Sequence[Card],
           table: Table) -> _Bound | None:
    if table.cursed or (discard and any(c.extra is not None for c in pool)):
        return None  # Cursed Items beside the hand, or an extra card: not bounded here
    return per_catalog(_TABLES, catalog, _Tables).get(pool, table)


def pruned_fits(pool: Sequence[Card], catalog: Catalog, discard: Sequence[Card] = (),
                table: Table = NO_TABLE) -> bool:
    """Whether :func:`pruned_best` takes this pool (see the module docstring)."""
    return compiled_fits(pool, catalog, discard, table) and \
        _bound(pool, catalog, discard, table) is not None


def pruned_best(pool: Sequence[Card], catalog: Catalog, discard: Sequence[Card] = (),
                pinned: Mapping[str, ChoiceValue] | None = None, top: int = 1,
                time_limit: float | None = None, table: Table = NO_TABLE,
                progress: Progress | None = None) -> tuple[list[Candidate], bool] | None:
    """What :func:`.best.compiled_best` gives (the ``top`` best hands, proven), or None when
    the pool is not one this search takes (:func:`pruned_fits`). ``progress(done, total)``
    counts the subsets scored or shown unable to reach the best."""
    import numpy as np

    from ..sweep_kernel import subset_bounds

    if not compiled_fits(pool, catalog, discard, table):
        return None
    bound = _bound(pool, catalog, discard, table)
    if bound is None:
        return None
    t0 = time.perf_counter()
    run = Enumeration(pool, catalog, discard, pinned or {}, table)
    total = comb(len(run.pool), run.size)
    members = bound.indices(run.pool)
    rows = np.zeros((total, 2), dtype=np.int64)
    subset_bounds(members, run.size, run.no_masks, 0, bound.T, bound.RUN, *bound.faces, rows)
    order = np.argsort(-rows[:, 0], kind="stable")
    ub, masks = rows[order, 0], rows[order, 1]
    est, worth = _estimates(run.pool, catalog, run.size, dict(pinned or {}), masks, bound)
    scored: list[np.ndarray] = []
    best: list[int] = []  # the top totals so far (a heap: the lowest first)
    proven, done, shown = True, 0, t0
    keep = np.zeros((BATCH, 2), dtype=np.int64)
    while done < total:
        bar = best[0] if len(best) == top else None
        if bar is not None and ub[done] < bar:
            done = total  # no subset left may reach the top: all decided
            break
        if time_limit is not None and best and time.perf_counter() - t0 > time_limit:
            proven = False
            break
        end = min(done + BATCH, total)
        batch, cost = masks[done:end], est[done:end]
        if bar is not None:
            reach = ub[done:end] >= bar  # (bounds fall: the rest of the batch too)
            look = reach & worth[done:end]
            if look.any():
                n = int(look.sum())
                looked = np.ascontiguousarray(batch[look])
                args = (members, run.size, bar - 1, bound)
                if n >= SHARED:  # two threads (each with its own scratch tables)
                    later = threads().submit(_closer, *args, looked[n // 2:], keep[n // 2:n])
                    _closer(*args, looked[:n // 2], keep[:n // 2])
                    later.result()
                else:
                    _closer(*args, looked, keep[:n])
                reach[np.flatnonzero(look)[keep[:n, 0] == 0]] = False
            batch, cost = batch[reach], cost[reach]
        done = end
        if len(batch):
            out = np.zeros((len(batch), 5), dtype=np.int64)
            if len(batch) >= SHARED and shared():  # two threads, about the same work each
                other = _halves(cost)
                batch = np.concatenate([batch[~other], batch[other]])
                half = len(batch) - int(other.sum())
                later = threads().submit(run.listed, batch[half:], out[half:])
                run.listed(batch[:half], out[:half])
                later.result()
            else:
                run.listed(batch, out)
            scored.append(out)
            for total_ in out[out[:, 0] == 0, 1].tolist():
                if len(best) < top:
                    heapq.heappush(best, total_)
                elif total_ > best[0]:
                    heapq.heapreplace(best, total_)
        if progress is not None and time.perf_counter() - shown > 0.05:
            shown = time.perf_counter()
            progress(done, total)
    if progress is not None:
        progress(done, total)
    found = np.concatenate(scored) if scored else np.zeros((0, 5), dtype=np.int64)
    return best_rows(found, run.pool, run.discard, catalog, top, run.choices_of), proven


def _closer(members, size: int, thr: int, bound: _Bound, masks, keep) -> None:
    """keep[r, 0]: whether the subset masks[r] may still beat thr, looked at more closely."""
    from ..sweep_kernel import subset_bounds

    subset_bounds(members, size, masks, thr, bound.T, bound.RUN, *bound.faces, keep)


def _estimates(pool: list[Card], catalog: Catalog, size: int, pinned: dict[str, ChoiceValue],
               masks, bound: _Bound):
    """Per subset (of ``masks``): the hands its enumeration scores, about (the product of
    :func:`..plan.options` over its cards), and whether the closer look is expected to cost
    less than the scoring it may save (see REFINE)."""
    import numpy as np

    from ..plan import options
    from ..relevance import card_terms
    from ..sweep_kernel import C_HCOPY

    named = {n for c in pool for t in card_terms(c) for n in t.names | t.except_names}
    logw = np.log([options(c, pool, catalog, size, pinned, named) for c in pool])
    card = bound.T[0][bound.indices(pool)]
    bits = (masks[:, None] >> np.arange(len(pool))[None, :]) & 1
    est = np.exp(bits @ logw)
    copy = (bits @ (card[:, C_HCOPY] > 0)) > 0
    return est, est >= np.where(copy, REFINE_COPY, REFINE)


def _halves(cost):
    """Which subsets of a batch go to the second thread: the costliest first, each to the
    thread with less work so far."""
    import numpy as np

    other = np.zeros(len(cost), dtype=bool)
    work = [0.0, 0.0]
    for i in np.argsort(-cost, kind="stable").tolist():
        second = work[1] < work[0]
        other[i] = second
        work[second] += float(cost[i]) + 30.0  # (a subset's own cost besides its hands)
    return other
