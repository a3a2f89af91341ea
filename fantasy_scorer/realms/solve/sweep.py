"""Proving the best hand of the game: an upper bound on every hand, swept by compiled code.

``fr-score max`` must *prove* its hand best among hundreds of millions of legal card sets
(billions with Cursed Hoards). CP-SAT finds good hands quickly but cannot close the gap:
the linear relaxation of "a card's bonus counts the other cards held" lets every bonus pick
its own partners. This module proves it the direct way:

1. **A bound that is easy to compute.** ``sweep_tables`` compiles every point effect into
   integer tables; ``sweep_kernel`` bounds a *branch* (cards held, how many more to take
   from the cards left) by what the held cards score among themselves plus the largest
   contributions the cards left may make, each contribution counting what the card adds to
   the bonuses already held, so that they share one completion.

2. **A sweep over card sets** in one fixed order (the cards that may add most first), split
   into parts by the first two cards taken and run on two threads. A branch stops when its
   bound cannot beat the best hand known.

3. **Verification.** Every card set whose bound reaches the best known total is scored by the
   evaluator with optimal choices as soon as its part ends, and a better hand raises the bar
   for the rest of the sweep (the parts already running read it too). When the sweep is
   complete, the best verified hand is the optimum: a better hand would have a bound above
   it and would have been scored.

The hands swept are every hand of the catalog's size, and every hand one card larger that
holds an extra-card effect able to take one of its cards (Necromancer, Leprechaun, Genie;
Portal held beside the hand), never past the catalog's maximum. Tests check the bound
against the evaluator on random hands, and the whole search against brute force on small
games.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass

import numpy as np

from ..catalog import Card, Catalog
from . import sweep_kernel as kern
from .sweep_tables import Table, Tables, Unsupported, compile_tables

FIRST_CAP = 16  # hands a part finds before they are scored

__all__ = ["Bounds", "Progress", "Shape", "Sweep", "Table", "Unsupported", "compile_bounds",
           "shapes", "sweep"]


@dataclass
class Bounds:
    """Compiled tables, with what the sweep needs to read and write card sets."""

    tables: Tables

    @property
    def cards(self) -> list[Card]:
        return self.tables.cards

    def index(self, cards: Sequence[Card]) -> list[int]:
        position = {c.id: i for i, c in enumerate(self.cards)}
        return [position[c.id] for c in cards]

    def bound(self, cards: Sequence[Card]) -> int:
        """At least the total of this hand, whatever its choices."""
        return _Run(self, [], [], 0, 0).hand(self.index(cards))

    def branch(self, held: Sequence[Card], rest: Sequence[Card], k: int) -> int:
        """At least the bound of every hand ``held`` + ``k`` cards of ``rest``."""
        run = _Run(self, self.index(held), self.index(rest), len(held) + k, 0)
        return run.bound(list(run.forced), 0, k)


def compile_bounds(catalog: Catalog, cards: Sequence[Card], table: Table | None = None
                   ) -> Bounds:
    return Bounds(compile_tables(catalog, cards, table or Table()))


class _Run:
    """One shape of hand swept: forced cards, and free cards in the sweep's order, with the
    facts the compiled code reads about every suffix of them (RUN)."""

    def __init__(self, b: Bounds, forced: list[int], free: list[int], size: int,
                 need_fit: int) -> None:
        t = b.tables
        self.tables = t
        self.forced = list(forced)
        self.size = size
        n = len(b.cards)
        nf = len(free)
        G = t.match.shape[0]
        sufcnt = np.zeros((nf + 1, G), dtype=np.int64)
        sufmax = np.zeros(nf + 1, dtype=np.int64)
        sufbook = np.zeros(nf + 1, dtype=np.int64)
        card = t.card
        for i in range(nf - 1, -1, -1):
            y = free[i]
            sufcnt[i] = sufcnt[i + 1] + t.match[:, y]
            plain = card[y, kern.C_HCOPY] == 0
            sufmax[i] = max(sufmax[i + 1], int(card[y, kern.C_STR]) if plain else 0)
            sufbook[i] = sufbook[i + 1] + card[y, kern.C_BOOK]
        posof = np.full(n, -1, dtype=np.int64)
        for i, y in enumerate(free):
            posof[y] = i
        fitm = np.zeros((n, n), dtype=np.int64)
        for x, g in enumerate(b.cards):
            if g.extra is not None:
                for y, c in enumerate(b.cards):
                    fitm[x, y] = int(g.may_take_extra(c))
        own0 = np.full(nf + 1, 1 << 30, dtype=np.int64)
        self.RUN = (np.array(free, dtype=np.int64), posof, sufcnt, sufmax, sufbook, own0, fitm,
                    need_fit, size)
        if size > len(forced) and nf:
            kern.all_own(self._held(forced), len(forced), t.T, self.RUN, own0)

    @staticmethod
    def _held(P: Sequence[int]) -> np.ndarray:
        arr = np.zeros(kern.MAX_HAND + 1, dtype=np.int64)
        arr[:len(P)] = list(P)
        return arr

    def _cnt(self, P: Sequence[int]) -> np.ndarray:
        t = self.tables
        if not P:
            return np.zeros(t.match.shape[0], dtype=np.int64)
        return t.match[:, list(P)].sum(axis=1).astype(np.int64)

    def hand(self, P: Sequence[int]) -> int:
        """The bound of the hand P."""
        W = kern.workspace(len(self.RUN[0]))
        return int(kern.hand_value(self._held(P), len(P), self._cnt(P), self.tables.T,
                                   self.RUN, W))

    def bound(self, P: list[int], q0: int, k: int, thr: int = -1,
              m: np.ndarray | None = None) -> int:
        """The bound of the branch P (held) + k cards of free[q0:] (m: each card's most)."""
        nf = len(self.RUN[0])
        m = np.zeros(nf + 1, dtype=np.int64) if m is None else m
        own = np.zeros(nf + 1, dtype=np.int64)
        _, ub = kern.node_bound(self._held(P), len(P), self._cnt(P), q0, k, self.tables.T,
                                self.RUN, m, self.RUN[5], own, thr, kern.workspace(nf))
        return int(ub)


@dataclass(frozen=True)
class Shape:
    """Hands of ``size`` cards holding ``forced``, the rest from ``free``; ``need_fit``: the
    hand must hold a card an extra-card effect in it may take."""

    forced: tuple[Card, ...]
    free: tuple[Card, ...]
    size: int
    need_fit: bool


def shapes(catalog: Catalog, pool: Sequence[Card], required: Sequence[Card],
           discard: Sequence[Card] | None, free_extras: int = 0) -> list[Shape]:
    """Every shape of legal hand, each hand in one shape: the catalog's hand size, and one
    card more with an extra-card effect (the first giver of the pool in hand decides the
    shape). ``discard``: None lets an extra card from the discard area be any card (the
    area held it); a list restricts it to those cards. ``free_extras``: extra cards given
    by Cursed Items held beside the hand (Portal)."""
    size = catalog.hand_size
    cap = catalog.max_hand
    room = 1 if cap is None else max(0, cap - size)
    givers = [c for c in pool if c.extra is not None]
    most = min(room, free_extras + (len(givers) if cap is not None else len(givers)))
    if cap is None and free_extras + len(givers) > 1:
        raise Unsupported("the sweep handles one extra card per hand")
    req = tuple(required)
    rest = tuple(c for c in pool if c not in req)
    out = [Shape(req, rest, size, False)]
    if most == 0:
        return out
    if free_extras:
        return out + [Shape(req, rest, size + 1, False)]
    banned: list[Card] = []
    for g in givers:
        if any(b in req for b in banned):
            break
        forced = req if g in req else req + (g,)
        free = tuple(c for c in rest if c is not g and c not in banned)
        by_discard = g.extra is not None and g.extra.source == "discard"
        if by_discard and discard is not None:
            for d in discard:
                if g.may_take_extra(d):
                    out.append(Shape(forced + (d,), free, size + 1, False))
        else:
            limited = by_discard and any(not g.may_take_extra(c) for c in free)
            out.append(Shape(forced, free, size + 1, limited))
        banned.append(g)
    return out


@dataclass
class Sweep:
    """What a proof found: candidates (cards, bound), best bound first, and the work done."""

    candidates: list[tuple[tuple[Card, ...], int]]
    seconds: float
    complete: bool
    branches: int = 0
    leaves: int = 0
    full: int = 0  # branches whose bound was computed in full


@dataclass(frozen=True)
class Progress:
    """How far a sweep has gone: parts done of all, the bar (best total known) and the
    bound on what the parts not yet done may hold, and the time."""

    done: int
    parts: int
    best: int
    bound: int
    elapsed: float
    left: float | None  # seconds, an estimate (None: too early to say)


def _order(b: Bounds, forced: list[int], free: list[int], size: int) -> list[int]:
    """The free cards by the most each may add at the root (largest first): hands of big
    contributions are met first, and their branches prune the rest."""
    k = size - len(forced)
    if k <= 0 or not free:
        return free
    run = _Run(b, forced, free, size, 0)
    m = np.zeros(len(free) + 1, dtype=np.int64)
    run.bound(forced, 0, k, -1, m)
    return [free[i] for i in sorted(range(len(free)), key=lambda i: (-m[i], free[i]))]


DIVE_SECONDS = 0.5  # most time spent scoring the dive's hands


def _dive(b: Bounds, runs: list[_Run], tasks: list[tuple[int, int, int, int]],
          thr: np.ndarray, improve: Callable, deadline: float | None) -> int:
    """A first bar: each part followed down its most promising branches only, and the hands
    met scored best bound first (for a short while). Returns the bar."""
    t = b.tables
    hands: dict[tuple[int, ...], int] = {}
    st = np.zeros(3, dtype=np.int64)
    for _, r, f, g in tasks:
        run = runs[r]
        out = np.zeros((64, kern.OUT), dtype=np.int64)
        n = kern.sweep_part(run._held(run.forced), len(run.forced), f, g, t.T, run.RUN, thr,
                            out, 64, st, 1)
        for row in out[:abs(n) if n >= 0 else 64]:
            hands[tuple(int(i) for i in row[:-1] if i >= 0)] = int(row[-1])
    ranked = sorted(hands.items(), key=lambda kv: -kv[1])
    stop = time.perf_counter() + DIVE_SECONDS
    bar = int(thr[0])
    for key, bound in ranked:
        if bound <= bar or time.perf_counter() > stop or (
                deadline is not None and time.perf_counter() > deadline):
            break
        bar = max(bar, improve([(tuple(b.cards[i] for i in key), bound)]))
    return bar


def sweep(b: Bounds, hand_shapes: Sequence[Shape], threshold: int, limit: int = 50000,
          workers: int = 2, deadline: float | None = None,
          improve: Callable[[list[tuple[tuple[Card, ...], int]]], int] | None = None,
          progress: Callable[[Progress], None] | None = None) -> Sweep:
    """Every hand of ``hand_shapes`` whose bound beats ``threshold``.

    The work is split by the first two free cards taken; the parts run most promising first
    (by the bound of their branch). As each part ends ``improve`` (if given) receives its
    hands, best bound first, and returns the threshold for the rest: a caller that scores
    them raises it as it finds better hands, and the rest of the sweep prunes harder. Past
    ``deadline`` (a ``perf_counter`` time) no new part starts and the sweep is incomplete."""
    t0 = time.perf_counter()
    t = b.tables
    thr = np.array([threshold], dtype=np.int64)
    found: list[tuple[tuple[Card, ...], int]] = []
    runs: list[_Run] = []
    tasks: list[tuple[int, int, int, int]] = []  # (promise, run, first, second)
    for shape in hand_shapes:
        forced = b.index(shape.forced)
        free = b.index(shape.free)
        k = shape.size - len(forced)
        if k < 0 or len(free) < k:
            continue
        if k == 0:
            v = b.bound(shape.forced)
            if v > threshold:
                found.append((shape.forced, v))
            continue
        free = _order(b, forced, free, shape.size)
        run = _Run(b, forced, free, shape.size, int(shape.need_fit))
        runs.append(run)
        nf = len(free)
        out = np.zeros(nf + 1, dtype=np.int64)
        P0 = run._held(forced)
        for f in range(nf - k + 1):
            ub = kern.part_bounds(P0, len(forced), f, t.T, run.RUN, out, threshold)
            if k == 1:
                tasks.append((1 << 40, len(runs) - 1, f, -1))
                continue
            if ub <= threshold:
                continue
            for g in range(f + 1, nf - k + 2):
                if out[g] > threshold:
                    tasks.append((int(out[g]), len(runs) - 1, f, g))
    if improve is not None and found:
        found.sort(key=lambda cb: -cb[1])
        thr[0] = max(int(thr[0]), improve(list(found)))
    complete = True
    stats = np.zeros(3, dtype=np.int64)
    if improve is not None and tasks:
        thr[0] = max(int(thr[0]), _dive(b, runs, tasks, thr, improve, deadline))

    def run_task(task: tuple[int, int, int, int], cap: int
                 ) -> tuple[np.ndarray | None, int, np.ndarray]:
        promise, r, f, g = task
        st = np.zeros(3, dtype=np.int64)
        if promise <= thr[0]:
            return None, 0, st
        run = runs[r]
        out = np.zeros((cap, kern.OUT), dtype=np.int64)
        n = kern.sweep_part(run._held(run.forced), len(run.forced), f, g, t.T, run.RUN, thr,
                            out, cap, st, 0)
        return out, int(n), st

    # most promising first; a part stops when it has found `cap` hands, so that they are
    # scored (and the bar raised) early, and runs again with a larger buffer
    queue = [(-task[0], seq, task, FIRST_CAP) for seq, task in enumerate(tasks)]
    heapq.heapify(queue)
    running: dict = {}
    done = 0
    seen: set[tuple[int, ...]] = set()
    with ThreadPoolExecutor(max_workers=workers) as pool:
        while queue or running:
            while queue and len(running) < workers:
                if deadline is not None and time.perf_counter() > deadline:
                    complete = False
                    queue.clear()
                    break
                item = heapq.heappop(queue)
                running[pool.submit(run_task, item[2], item[3])] = item
            if not running:
                break
            fut = next(as_completed(list(running)))
            item = running.pop(fut)
            out, n, st = fut.result()
            stats += st
            cap = item[3]
            if n < 0:  # the buffer filled: score these, then run the part again
                n = cap
                if cap >= limit:
                    complete = False
                else:
                    heapq.heappush(queue, (item[0], item[1], item[2], min(cap * 8, limit)))
            else:
                done += 1
            if n and out is not None:
                new = []
                for row in out[:n]:
                    key = tuple(int(i) for i in row[:-1] if i >= 0)
                    if key in seen:
                        continue
                    seen.add(key)
                    new.append((tuple(b.cards[i] for i in key), int(row[-1])))
                new.sort(key=lambda cb: -cb[1])
                found.extend(new)
                if improve is not None and new:
                    thr[0] = max(int(thr[0]), improve(new))
            if progress is not None:
                open_ = [-q[0] for q in queue[:1]] + [it[2][0] for it in running.values()]
                bound = max([x for x in open_ if x > thr[0]], default=int(thr[0]))
                progress(Progress(done, len(tasks), int(thr[0]) + 1, bound,
                                  time.perf_counter() - t0, None))
    found.sort(key=lambda cb: -cb[1])
    return Sweep(found, time.perf_counter() - t0, complete, int(stats[0]), int(stats[1]),
                 int(stats[2]))
