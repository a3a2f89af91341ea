"""``best`` by compiled enumeration: every subset of a pool, every option of its choices.

The same enumeration as :func:`..exhaustive.enumerate_best` (same subsets, extra cards, pins,
tie-breaks), run by :func:`.search.subsets_batch`: the options of :mod:`..choices`, collapsed
alike and tried in the same order, so the first best choices are the same ones too (the tests
compare both). One compiled function does all of it, so that a process loads only it; larger
pools are shared by two threads (the compiled code runs without the GIL).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from math import comb

from ...catalog import Card, Catalog
from ...hand import ChoiceValue
from ..engine import Unsupported
from ..exhaustive import NO_TABLE, Candidate, SubsetProgress, Table, order_of, rank_key, room


def compiled_fits(pool: Sequence[Card], catalog: Catalog, discard: Sequence[Card] = (),
                  table: Table = NO_TABLE) -> bool:
    """Whether :func:`compiled_best` takes this pool: every card's effects known to the
    compiled code, and at most two extra cards in any hand."""
    from .scorer import compiled

    if not compiled(catalog).supports(list(pool) + list(discard) + list(table.cursed)):
        return False
    givers = sum(1 for c in pool if c.extra is not None)
    most = room(catalog)
    return not discard or min(givers, givers if most is None else most) <= 2


class Enumeration:
    """One pool set up for :func:`.search.subsets_batch`: its cards, pins and table as the
    compiled code takes them. :func:`compiled_best` scores every subset through it, the
    pruned search (:mod:`.pruned`) the subsets it lists."""

    def __init__(self, pool: Sequence[Card], catalog: Catalog, discard: Sequence[Card],
                 pinned: Mapping[str, ChoiceValue], table: Table) -> None:
        import numpy as np

        from .aot import entry
        from .scorer import compiled, pins_array
        from .tables import OVER_PINS

        self.subsets_batch = entry("subsets_batch")  # Numba's, or built ahead of time
        self.scorer = scorer = compiled(catalog)
        self.pool, self.discard = list(pool), list(discard)
        self.size = size = min(catalog.hand_size, len(self.pool))
        most = room(catalog)
        self.args = (np.array(scorer.ids(self.pool), dtype=np.int64),
                     pins_array(scorer, self.pool, dict(pinned)), size)
        self.area_args = (np.array(scorer.ids(self.discard), dtype=np.int64),
                          table.discard is not None,
                          -1 if table.players is None else table.players,
                          np.array(scorer.ids(table.cursed) + [-1], dtype=np.int64),
                          -1 if most is None else most)
        self.no_masks = np.zeros(0, dtype=np.int64)
        self.no_over = np.zeros((0, 5 * OVER_PINS), dtype=np.int64)
        self.no_choices = np.zeros((0, size + 2, 3), dtype=np.int64)

    def run(self, start: int, out) -> None:
        """Subsets ``start``, ``start + 1`` … in the order of ``itertools.combinations``,
        one per row of ``out``."""
        import numpy as np

        first = np.array(unrank(start, len(self.pool), self.size), dtype=np.int64)
        self.subsets_batch(self.scorer.M, self.scorer.OF, *self.args, first, len(out),
                           self.no_masks, self.no_over, False, *self.area_args, out,
                           self.no_choices)

    def listed(self, masks, out, choices=None, over=None, climb: bool = False) -> None:
        """The subsets of ``masks`` (of pool positions), one per row of ``out``, with their
        first best choices in ``choices`` when given; ``over``: each subset's own pins of
        free choices; ``climb``: a quick total each can score, not its best (see
        :func:`.search.subsets_batch`)."""
        import numpy as np

        first = np.zeros(self.size, dtype=np.int64)
        self.subsets_batch(self.scorer.M, self.scorer.OF, *self.args, first, len(masks),
                           np.ascontiguousarray(masks, dtype=np.int64),
                           self.no_over if over is None else over, climb, *self.area_args,
                           out, self.no_choices if choices is None else choices)

    def choices_of(self, mask: int):
        """The first best choices of one subset, scored again (the same compiled call)."""
        import numpy as np

        row = np.zeros((1, 5), dtype=np.int64)
        got = np.zeros((1, self.size + 2, 3), dtype=np.int64)
        self.listed(np.array([mask], dtype=np.int64), row, got)
        return got[0]


def compiled_best(pool: Sequence[Card], catalog: Catalog, discard: Sequence[Card] = (),
                  pinned: Mapping[str, ChoiceValue] | None = None, top: int = 1,
                  time_limit: float | None = None, table: Table = NO_TABLE,
                  progress: SubsetProgress | None = None) -> tuple[list[Candidate], bool]:
    """``enumerate_best`` in compiled code: (the ``top`` best hands, proven). Raises
    :class:`~..engine.Unsupported` when the compiled code does not take the pool
    (:func:`compiled_fits`)."""
    import numpy as np

    if not compiled_fits(pool, catalog, discard, table):
        raise Unsupported("the compiled enumeration does not model these cards")
    run = Enumeration(pool, catalog, discard, pinned or {}, table)
    total = comb(len(run.pool), run.size)
    out = np.zeros((total, 5), dtype=np.int64)

    def part(start: int, n: int) -> None:
        run.run(start, out[start:start + n])

    t0 = time.perf_counter()
    done, chunk, proven = 0, 16, True
    while done < total:
        if time_limit is not None and time.perf_counter() - t0 > time_limit \
                and (out[:done, 0] == 0).any():
            proven = False
            break
        n = min(chunk, total - done)
        t1 = time.perf_counter()
        # the compiled code runs without the GIL: two threads share the chunk
        if n > PIECE:
            both(part, done, n)
        else:
            part(done, n)
        done += n
        if progress is not None:
            progress(done, total)
        if time.perf_counter() - t1 < 0.05:  # about twenty checks a second
            chunk *= 2
    return best_rows(out[:done], run.pool, run.discard, catalog, top, run.choices_of), proven


#: The subsets a thread takes at a time when two share a run of them.
PIECE = 8


def both(part: Callable[[int, int], None], start: int, n: int) -> None:
    """``part(first, count)`` over the subsets ``start … start + n - 1``, by two threads
    taking :data:`PIECE` subsets at a time until none is left: subsets in a row share
    cards, so their costs come in runs (the hands of a Book of Changes' subsets), and
    halves cut in the middle left one thread idle for most of the time (on a 12-card
    pool one half cost about two and a half times the other)."""
    import threading

    lock = threading.Lock()
    at, end = [start], start + n

    def take() -> None:
        while True:
            with lock:
                first = at[0]
                if first >= end:
                    return
                count = min(PIECE, end - first)
                at[0] = first + count
            part(first, count)

    later = threads().submit(take)
    take()
    later.result()


def unrank(index: int, n: int, k: int) -> list[int]:
    """The ``index``-th combination of ``k`` of ``range(n)`` in the order of
    ``itertools.combinations``."""
    out: list[int] = []
    x = 0
    for i in range(k):
        while comb(n - x - 1, k - i - 1) <= index:
            index -= comb(n - x - 1, k - i - 1)
            x += 1
        out.append(x)
        x += 1
    return out


_POOL: list = []


def threads():
    """One worker thread beside the caller's, made once."""
    if not _POOL:
        from concurrent.futures import ThreadPoolExecutor

        _POOL.append(ThreadPoolExecutor(max_workers=1, thread_name_prefix="best"))
    return _POOL[0]


def best_rows(rows, pool: list[Card], discard: list[Card], catalog: Catalog, top: int,
               choices_of: Callable) -> list[Candidate]:
    """The ``top`` best of the compiled search's subsets, in the order of :func:`rank_key`,
    each with its first best choices (``choices_of(mask)``: the compiled enumeration tries
    the options of :mod:`.choices` in the same order, so they are its choices)."""
    import numpy as np

    order = order_of(pool, discard)
    valid = np.flatnonzero(rows[:, 0] == 0)
    if not valid.size:
        return []
    totals = rows[valid, 1]
    if valid.size > top:
        kth = np.partition(totals, -top)[-top]
        valid = valid[totals >= kth]
    keyed = []
    for r in valid.tolist():
        mask, a, b = int(rows[r, 4]), int(rows[r, 2]), int(rows[r, 3])
        base = tuple(c for p, c in enumerate(pool) if mask >> p & 1)
        extra = tuple(discard[q] for q in (a, b) if q >= 0)
        cand = Candidate(base + extra, extra, int(rows[r, 1]), {})
        keyed.append((rank_key(cand, order), mask, cand))
    keyed.sort(key=lambda kc: kc[0])
    return [Candidate(cand.cards, cand.extra, cand.total,
                      _decode(choices_of(mask), cand.cards, catalog))
            for _, mask, cand in keyed[:top]]


def _decode(values, cards: Sequence[Card], catalog: Catalog) -> dict[str, ChoiceValue]:
    """The compiled search's choices of a hand (its rows of kernel values) as choice values,
    every chooser included (``None``: unassigned), as ``optimal_choices`` gives them."""
    from .scorer import compiled
    from .tables import CV_CHANGE, CV_COPY, CV_TARGET

    everything = compiled(catalog).cards
    choices: dict[str, ChoiceValue] = {}
    for i, c in enumerate(cards):
        if c.choice is None:
            continue
        kind, a, b = (int(x) for x in values[i])
        if kind == CV_COPY:
            choices[c.id] = everything[a]
        elif kind == CV_CHANGE:
            choices[c.id] = (cards[a], catalog.suits[b])
        elif kind == CV_TARGET:
            choices[c.id] = cards[a]
        else:
            choices[c.id] = None
    return choices
