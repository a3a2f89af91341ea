"""``best`` by compiled enumeration, pruned by the sweep's bound: the same hands, fewer scored.

A pool with several choice cards is slow to enumerate: every subset is scored with every
option of its choices (:func:`.best.compiled_best`), yet most subsets cannot be among the
best. The sweep of ``max`` has an upper bound on a whole hand over all its choices
(:mod:`..sweep`, ``hand_value``), a few microseconds per hand. So:

1. one compiled call bounds every subset (``sweep_kernel.subset_bounds``);
2. a first bar: the cheap subsets among those of the best bounds are scored exactly
   (:data:`SEEDS`), and the costly ones that may beat that are *climbed*
   (``search.climb_choices``: each choice in turn tries its options while the others stay,
   a few hundred hands instead of thousands). A climbed total is one the subset can score,
   so the bar it gives is never above the true ``top``-th best; it counts for the bar only,
   and the subset is still scored exactly wherever it may reach the bar;
3. the subsets are scored exactly, best bound first, in small batches (the compiled
   enumeration of :func:`.search.subsets_batch`, the very scores ``compiled_best`` gives);
4. the search stops when the next bound is below the ``top``-th best total scored so far.

Every subset left out scores below that total, so the ``top`` best hands are the ones the
full enumeration finds: :func:`.best.best_rows` gives them the same tie-break and the same
choices (scored again whole). A subset whose bound *equals* that total is still scored (it
may tie, and win the tie-break). Before a batch is scored, closer looks drop the subsets
they show below that total, where that is expected to cost less than scoring them
(:data:`REFINE`): each copy from the game showing one face at a time
(``sweep_kernel._faces_over``), and the sweep's own (``refined_over``: what a copy from the
hand copies and Book of Changes' change tried one by one, World Tree with cards of
different suits). Without pins, the closer look also names the options (copy's identity,
Book's change) whose own bound reaches the bar, and only those are scored, each with the
other choices enumerated (``subsets_batch``'s per-subset pins): each option's bound is at
least its best total, so an option left out scores below the bar and the best of the
others is the subset's best wherever that may reach the bar. Where most options are left
(:data:`SPLIT_SHARE`) the subset is scored whole, which costs less. With pins, every subset
is scored whole: a written Island target keeps only the combinations under which it is legal
(R4), which an option's bound does not know.

Only pools the bound covers are taken (:func:`pruned_fits`): every card described by the
sweep's tables (``Unsupported`` otherwise), no Cursed Items held, and no extra
card to take (a discard area with an extra-card giver in the pool: the bound is of the seven
cards alone). Pins only lower a hand's total, so the bound holds with them; a discard area is
the sweep's table, counted whole. The tables of a catalog are compiled once per table around
the hand (``catalog.per_catalog``).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from math import comb

from ... import effects as fx
from ...catalog import Card, Catalog, per_catalog
from ...hand import ChoiceValue
from ..engine import Unsupported
from ..exhaustive import NO_TABLE, Candidate, SubsetProgress, Table
from .best import Enumeration, best_rows, compiled_fits, threads

#: Subsets scored per batch (the bar rises between batches); a batch of at least SHARED is
#: shared by two threads (the compiled code runs without the GIL).
BATCH, SHARED = 16, 4
#: The closer looks cost about what scoring a subset with a few options costs (measured: 4
#: to 120 microseconds, the most with a copy from the hand: each card it may copy is looked
#: at) and show a third to two thirds of the subsets they look at below the bar. They pay
#: for a subset whose estimated options (the product of :func:`..plan.options` over its
#: cards) reach REFINE, or REFINE_COPY with a copy from the hand (measured on random pools
#: of 10 and 12 cards with three to five choice cards: 100 and 200 against 250 and 500, the
#: values from before the bound became about 2.5 times as fast, took the mean from 31.7 to
#: 27.2 ms and the 99th percentile from 160 to 134 ms on 12 cards; 50 and 100 gained
#: nothing more).
REFINE, REFINE_COPY = 100.0, 200.0
#: Before the first batch, the subsets among the first SEEDS of the order whose estimated
#: hands are at most SEED_COST are scored (a few microseconds each), for a first bar.
SEEDS, SEED_COST = 128, 64.0
#: A subset whose closer look leaves more than this share of its options is scored whole.
SPLIT_SHARE = 0.5
#: Subsets of at least CLIMB_COST estimated hands that may beat the first bar are climbed
#: (``search.climb_choices``: about CLIMB_HANDS hands each) for a higher one.
CLIMB_COST, CLIMB_HANDS = 1000.0, 150.0
#: Only where the subsets that may beat the first bar hold at least CLIMB_WORK estimated
#: hands (about CLIMB_WORK * 0.2 microseconds to score whole): below, the climb costs more
#: than the bar it gives saves.
CLIMB_WORK = 50000.0


class _Tables:
    """The sweep's tables of one catalog's cards, one per table around the hand (discard
    area, players), with the facts ``subset_bounds`` reads (False: the catalog holds a card
    the sweep does not describe; each pool is then compiled alone, about a millisecond)."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.by_table: dict[tuple, object] = {}

    def get(self, pool: Sequence[Card], table: Table) -> _Bound | None:
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
        import numpy as np

        from ..sweep import SweepRun, SweepTable, compile_bounds

        self.bounds = compile_bounds(catalog, list(cards), SweepTable(table.discard,
                                                                      table.players, 0))
        self.T = self.bounds.tables.T
        self.RUN = SweepRun(self.bounds, [], [], 0, 0).RUN  # no free card: whole hands
        self.position = {c.id: i for i, c in enumerate(self.bounds.cards)}
        self.faces = self._faces(catalog)
        self.no_rec = np.zeros((0, 4), dtype=np.int64)  # subset_bounds records no option

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
                progress: SubsetProgress | None = None) -> tuple[list[Candidate], bool]:
    """What :func:`.best.compiled_best` gives (the ``top`` best hands, proven); raises
    :class:`~..engine.Unsupported` when the pool is not one this search takes
    (:func:`pruned_fits`). ``progress(done, total)`` counts the subsets scored or shown
    unable to reach the best."""
    import numpy as np

    from ..sweep_kernel import subset_bounds
    from .tables import OVER_PINS

    if not compiled_fits(pool, catalog, discard, table):
        raise Unsupported("the compiled enumeration does not model these cards")
    bound = _bound(pool, catalog, discard, table)
    if bound is None:
        raise Unsupported("the sweep's bound does not describe these cards and this table")
    t0 = time.perf_counter()
    run = Enumeration(pool, catalog, discard, pinned or {}, table)
    total = comb(len(run.pool), run.size)
    members = bound.indices(run.pool)
    rows = np.zeros((total, 2), dtype=np.int64)
    subset_bounds(members, run.size, run.no_masks, 0, bound.T, bound.RUN, *bound.faces, rows,
                  bound.no_rec)
    order = np.argsort(-rows[:, 0], kind="stable")
    ub, masks = rows[order, 0], rows[order, 1]
    est, worth, tried = _estimates(run.pool, catalog, run.size, dict(pinned or {}), masks,
                                   bound)
    split = _Split(run, bound) if not pinned else None  # (pins: every option as it is)
    found = _Found(total, top)
    # first a bar: the cheap subsets among those of the best bounds, scored at once (the
    # costly ones at the head of the order would otherwise be scored with no bar)
    seeds = np.flatnonzero(est[:SEEDS] <= SEED_COST)
    seeded = np.zeros(total, dtype=bool)
    if len(seeds) >= top:
        seeded[seeds] = True
        found.add(seeds, _score(run, masks[seeds], est[seeds], None))
    # and a higher one: the costly subsets that may beat it, each with choices found by a
    # quick climb (a total it can score: never above its best, so the bar stays honest).
    # Not with pins: a written Island target keeps only the combinations under which it is
    # legal (R4), and a climb from no choice made may meet none of them.
    bar = found.bar()
    reach = (ub >= bar) if bar is not None else np.ones(total, dtype=bool)
    costly = np.flatnonzero((est >= CLIMB_COST) & reach)
    if len(costly) >= top and not pinned and est[reach].sum() >= CLIMB_WORK:
        found.add(costly, _score(run, masks[costly], np.full(len(costly), CLIMB_HANDS), None,
                                 climb=True), exact=False)
    proven, done, shown = True, 0, t0
    keep = np.zeros((BATCH, 2), dtype=np.int64)
    while done < total:
        bar = found.bar()
        if bar is not None and ub[done] < bar:
            done = total  # no subset left may reach the top: all decided
            break
        if time_limit is not None and found.scored() \
                and time.perf_counter() - t0 > time_limit:  # (a hand scored exactly to give)
            proven = False
            break
        end = min(done + BATCH, total)
        picked = np.arange(done, end)[~seeded[done:end]]
        done = end
        items: list[tuple[int, float, list[int]]] = []
        if bar is not None:
            picked = picked[ub[picked] >= bar]  # (bounds fall: the rest of the batch too)
            look = worth[picked]
            looked = picked[look]
            picked = picked[~look]
            if len(looked):  # the closer look, option by option where there are no pins
                n = len(looked)
                rec = bound.no_rec if split is None else split.records(n)
                _closer(members, run.size, bar - 1, bound, masks[looked], keep[:n], rec)
                if split is None:
                    picked = np.concatenate([picked, looked[keep[:n, 0] > 0]])
                else:
                    whole, items = split.options(looked, masks[looked], keep[:n], rec,
                                                 est[looked], tried[looked])
                    picked = np.concatenate([picked, whole])
        index = np.concatenate([picked, np.array([i for i, _, _ in items], dtype=np.int64)])
        if len(index):
            over = None
            if items:
                over = np.concatenate([np.full((len(picked), 5 * OVER_PINS), -1,
                                               dtype=np.int64),
                                       np.array([row for _, _, row in items], dtype=np.int64)])
            cost = np.concatenate([est[picked], [c for _, c, _ in items]])
            found.add(index, _score(run, masks[index], cost, over))
        if progress is not None and time.perf_counter() - shown > 0.05:
            shown = time.perf_counter()
            progress(done, total)
    if progress is not None:
        progress(done, total)
    return best_rows(found.rows(), run.pool, run.discard, catalog, top, run.choices_of), proven


class _Found:
    """The best total found so far of each subset (its options may be scored at different
    times) and the rows behind them; the bar is the ``top``-th best of those totals."""

    def __init__(self, total: int, top: int) -> None:
        import numpy as np

        self.top = top
        self.best = np.full(total, np.iinfo(np.int64).min, dtype=np.int64)
        self.count = 0  # subsets with a legal total
        self.parts: list = []

    def add(self, index, out, exact: bool = True) -> None:
        """The rows ``out`` of the subsets at ``index``; not ``exact``: totals they can
        score, for the bar only (each is scored exactly where it may reach the bar)."""
        import numpy as np

        ok = out[:, 0] == 0
        before = self.best[index[ok]] == np.iinfo(np.int64).min
        np.maximum.at(self.best, index[ok], out[ok, 1])
        self.count += int(len(np.unique(index[ok][before])))
        if exact:
            self.parts.append(out[ok])

    def scored(self) -> bool:
        """Whether some subset has been scored exactly (a legal hand to give)."""
        return any(len(part) for part in self.parts)

    def bar(self) -> int | None:
        import numpy as np

        if self.count < self.top:
            return None
        return int(np.partition(self.best, len(self.best) - self.top)[len(self.best) - self.top])

    def rows(self):
        """One row per subset scored: its best (status, total, extras, mask)."""
        import numpy as np

        if not self.parts:
            return np.zeros((0, 5), dtype=np.int64)
        out = np.concatenate(self.parts)
        out = out[np.lexsort((-out[:, 1], out[:, 4]))]  # by mask, the best first
        first = np.ones(len(out), dtype=bool)
        first[1:] = out[1:, 4] != out[:-1, 4]
        return out[first]


def _closer(members, size: int, thr: int, bound: _Bound, masks, keep, rec) -> None:
    """keep[r, 0]: whether the subset masks[r] may still beat thr, looked at more closely;
    with ``rec`` (not empty), how many of its options may, recorded there from row
    keep[r, 1] on (``sweep_kernel.subset_bounds``). Two threads share a batch of at least
    SHARED subsets (each with its own scratch tables)."""
    from ..sweep_kernel import subset_bounds

    masks = masks if masks.flags.c_contiguous else masks.copy()
    n = len(masks)
    if n < SHARED:
        subset_bounds(members, size, masks, thr, bound.T, bound.RUN, *bound.faces, keep, rec)
        return
    h = n // 2
    at = h * (len(rec) // n)  # the second thread's rows of rec (rec: as many per subset)
    later = threads().submit(subset_bounds, members, size, masks[h:], thr, bound.T, bound.RUN,
                             *bound.faces, keep[h:n], rec[at:])
    subset_bounds(members, size, masks[:h], thr, bound.T, bound.RUN, *bound.faces, keep[:h],
                  rec[:at])
    later.result()
    keep[h:n, 1] += at


def _score(run: Enumeration, batch, cost, over, climb: bool = False):
    """The rows of ``run.listed`` for the subsets of ``batch`` (with their own pins
    ``over``, if given; only a quick total each with ``climb``), two threads sharing them
    about equally where that helps."""
    import numpy as np

    batch = np.ascontiguousarray(batch)
    out = np.zeros((len(batch), 5), dtype=np.int64)
    if len(batch) < SHARED:
        run.listed(batch, out, over=over, climb=climb)
        return out
    other = _halves(np.asarray(cost, dtype=float))
    order = np.concatenate([np.flatnonzero(~other), np.flatnonzero(other)])
    half = len(batch) - int(other.sum())
    mine, theirs = order[:half], order[half:]
    part = np.zeros_like(out)
    later = threads().submit(run.listed, np.ascontiguousarray(batch[theirs]), part[half:],
                             None, None if over is None else np.ascontiguousarray(over[theirs]),
                             climb)
    run.listed(np.ascontiguousarray(batch[mine]), part[:half], None,
               None if over is None else np.ascontiguousarray(over[mine]), climb)
    later.result()
    out[order] = part
    return out


class _Split:
    """Turns the options ``subset_bounds`` left of a subset (its copy from the hand's
    identity, its Book of Changes' change) into pins of ``search.subsets_batch``: the
    enumeration of each option tries only the other choices. Taken only without the user's
    pins (a written Island target keeps only the combinations under which it is legal, R4:
    the subset is then scored whole)."""

    def __init__(self, run: Enumeration, bound: _Bound) -> None:
        import numpy as np

        from ..sweep_kernel import C_BOOK, C_HCOPY, option_rows
        from .tables import CV_CHANGE, CV_COPY, CV_NONE

        self.per = option_rows(run.size, bound.T[12])
        card = bound.T[0][bound.indices(run.pool)]
        self.hcopy = np.flatnonzero(card[:, C_HCOPY] > 0).tolist()
        self.book = np.flatnonzero(card[:, C_BOOK] == 1).tolist()
        index = run.scorer.index
        self.kernel_id = [index[c.id] for c in bound.bounds.cards]
        self.none = [CV_NONE, 0, 0, 0]
        self.copy, self.change = CV_COPY, CV_CHANGE

    def records(self, n: int):
        import numpy as np

        return np.zeros((n * self.per, 4), dtype=np.int64)

    @staticmethod
    def _of(mask: int, positions: list[int]) -> int:
        held = [p for p in positions if mask >> p & 1]
        return held[0] if len(held) == 1 else -1

    def options(self, index, masks, keep, rec, cost, tried):
        """The options left of each subset looked at, as (subset, estimated hands, pins),
        and the subsets to score whole: where the bound stands as a whole (two copies or
        two Books), or where more than SPLIT_SHARE of the options ``tried`` (about) are
        left (each option scored apart repeats the work around its hands)."""
        import numpy as np

        whole, items = [], []
        for k, (i, mask) in enumerate(zip(index.tolist(), masks.tolist(), strict=True)):
            n, first = int(keep[k, 0]), int(keep[k, 1])
            if n == 0:
                continue  # no option may reach the bar: decided
            if rec[first, 0] == -2 or n > SPLIT_SHARE * tried[k]:
                whole.append(i)
                continue
            left = rec[first:first + n].tolist()
            d, b = self._of(mask, self.hcopy), self._of(mask, self.book)
            share = float(cost[k]) / n
            for z, c, suit, _ in left:
                row = [-1] * 10
                if d >= 0:
                    row[:5] = [d, *([self.copy, self.kernel_id[z], 0, 1] if z >= 0
                                    else self.none)]
                if b >= 0:
                    row[5:] = [b, *([self.change, self.kernel_id[c], suit, 1] if c >= 0
                                    else self.none)]
                items.append((i, share, row))
        return np.array(whole, dtype=np.int64), items


def _estimates(pool: list[Card], catalog: Catalog, size: int, pinned: dict[str, ChoiceValue],
               masks, bound: _Bound):
    """Per subset (of ``masks``): the hands its enumeration scores, about (the product of
    :func:`..plan.options` over its cards), whether the closer look is expected to cost
    less than the scoring it may save (see REFINE), and about how many options the closer
    look tries one by one (its copy from the hand's and its Book of Changes')."""
    import numpy as np

    from ..plan import options
    from ..relevance import card_terms
    from ..sweep_kernel import C_BOOK, C_HCOPY

    named = {n for c in pool for t in card_terms(c) for n in t.names | t.except_names}
    logw = np.log([options(c, pool, catalog, size, pinned, named) for c in pool])
    card = bound.T[0][bound.indices(pool)]
    bits = (masks[:, None] >> np.arange(len(pool))[None, :]) & 1
    est = np.exp(bits @ logw)
    copy = (bits @ (card[:, C_HCOPY] > 0)) > 0
    apart = (card[:, C_HCOPY] > 0) | (card[:, C_BOOK] == 1)
    return est, est >= np.where(copy, REFINE_COPY, REFINE), np.exp(bits @ (logw * apart))


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
