"""Proving the best hand of the game: an upper bound on every hand, swept by compiled code.

``fr-score max`` must *prove* its hand best among hundreds of millions of legal card sets
(tens of billions with Cursed Hoards). CP-SAT finds good hands quickly but cannot close the
gap: the linear relaxation of "a card's bonus counts the other cards held" lets every bonus
pick its own partners. This module proves it the direct way:

1. **A bound that is easy to compute.** ``sweep_tables`` compiles every point effect into
   integer tables; ``sweep_kernel`` bounds a *branch* (cards held, how many more to take
   from the cards left) by what the held cards score among themselves plus the largest
   contributions the cards left may make, each contribution counting what the card adds to
   the bonuses already held, so that they share one completion. A whole hand whose bound
   beats the bar is looked at more closely (its choices tried one by one) before it counts.

2. **A sweep over card sets** in one fixed order (the cards that may add most, themselves
   and to their best partners, first), split into parts by the first two cards taken, most
   promising first, on two threads. A branch stops when its bound cannot beat the bar.

3. **Verification.** Every card set whose bound beats the bar (the best known total minus
   one) is scored by the evaluator with optimal choices as the sweep goes (a part stops
   after a few, so they are scored early), and a better hand raises the bar for the rest of
   the sweep (the parts running read it too). When a pass is complete, the best verified
   hand is the optimum: a better hand would have a bound above the bar, and been scored.

:func:`prove` runs it: a dive for a first hand, then passes at thresholds above the bar
(a pass meeting a hand above its threshold is a proof; one meeting none shows that no hand
scores above it) and a last pass at the bar.

The hands swept are every hand of the catalog's size, and every hand one card larger that
holds an extra-card effect able to take one of its cards (Necromancer, Leprechaun, Genie;
Portal held beside the hand), never past the catalog's maximum. Tests check the bound
against the evaluator on random hands and tables, and the whole search against brute force
on small games.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..catalog import Card, Catalog
from . import sweep_early
from . import sweep_kernel as kern
from .engine import Unsupported
from .sweep_tables import SweepTable, SweepTables, compile_sweep_tables

__all__ = ["Bounds", "Shape", "Sweep", "SweepProgress", "SweepTable", "Sweeper",
           "compile_bounds", "prove", "shapes"]


@dataclass
class Bounds:
    """Compiled tables, with what the sweep needs to read and write card sets."""

    tables: SweepTables

    @property
    def cards(self) -> list[Card]:
        return self.tables.cards

    def index(self, cards: Sequence[Card]) -> list[int]:
        position = {c.id: i for i, c in enumerate(self.cards)}
        return [position[c.id] for c in cards]

    def bound(self, cards: Sequence[Card]) -> int:
        """At least the total of this hand, whatever its choices."""
        return SweepRun(self, [], [], 0, 0).hand(self.index(cards))

    def refined_beats(self, cards: Sequence[Card], threshold: int) -> bool:
        """Whether the closer look the sweep takes at a hand (Book of Changes tried change by
        change, World Tree with different suits) still leaves its bound above threshold."""
        run = SweepRun(self, [], [], 0, 0)
        idx = self.index(cards)
        W, L = kern.workspace(0), kern.scratch(self.tables.T)
        return kern.refined_over(run._held(idx), len(idx), run._cnt(idx), threshold,
                                 self.tables.T, run.RUN, W, L, 0, self.tables.rstart,
                                 self.tables.card, self.tables.chg, L[5]) > 0

    def branch(self, held: Sequence[Card], rest: Sequence[Card], k: int) -> int:
        """At least the bound of every hand ``held`` + ``k`` cards of ``rest``."""
        run = SweepRun(self, self.index(held), self.index(rest), len(held) + k, 0)
        return run.bound(list(run.forced), 0, k)


def compile_bounds(catalog: Catalog, cards: Sequence[Card], table: SweepTable | None = None
                   ) -> Bounds:
    return Bounds(compile_sweep_tables(catalog, cards, table or SweepTable()))


class SweepRun:
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
        sufhc = np.zeros(nf + 1, dtype=np.int64)
        card = t.card
        for i in range(nf - 1, -1, -1):
            y = free[i]
            sufcnt[i] = sufcnt[i + 1] + t.match[:, y]
            plain = card[y, kern.C_HCOPY] == 0
            sufmax[i] = max(sufmax[i + 1], int(card[y, kern.C_STR]) if plain else 0)
            sufbook[i] = sufbook[i + 1] + card[y, kern.C_BOOK]
            sufhc[i] = sufhc[i + 1] + int(not plain)
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
                    need_fit, size, sufhc)
        self.entries: dict[str, object] = {}
        if size > len(forced) and nf:
            sweep_early.start(self.sigs[1])
            kern.all_own(self._held(forced), len(forced), t.T, self.RUN, own0)

    @cached_property
    def sigs(self) -> tuple:
        """The signatures node_bound and refined_over are passed with (``kern.signatures``):
        made only for a run that sweeps (about half a millisecond, which every hand bounded
        through a run of its own would pay otherwise)."""
        return kern.signatures(self.tables.T, self.RUN)

    def call(self, fn, args: tuple):
        """fn (``kern.sweep_part`` or ``kern.part_bounds``) on args. node_bound, and for
        sweep_part refined_over too, go in as first-class functions (see
        ``sweep_kernel.entry``): compiled on their own, they are not optimised again inside
        each caller, which takes about a quarter off a first run's compile."""
        part = fn is kern.sweep_part
        sigs = self.sigs if part else self.sigs[:1]
        got = self.entries.get(fn.__name__)
        if got is None:  # once a run: fn, then the functions it is passed, compiled or loaded
            got = kern.entry(fn, args, *sigs)  # while the second process compiles refined_over
            kern.ready(kern.node_bound, sigs[0])
            if part:
                sweep_early.wait()  # then refined_over is in the cache, if that process ran
                kern.ready(kern.refined_over, sigs[1])
            self.entries[fn.__name__] = got
        return got(*args, *(kern.node_bound, kern.refined_over)[:len(sigs)])

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
    """Every shape of legal hand, each hand in one shape: the catalog's hand size, one card
    more of the pool with an extra-card effect (the first giver of the pool in hand decides
    the shape), and, with a discard area given, one card more of the area with a giver that
    takes from it (Necromancer; these hold a card no other shape holds). ``discard``: None
    lets an extra card from the discard area be any card (the area held it); a list
    restricts it to those cards. ``free_extras``: extra cards given by Cursed Items held
    beside the hand (Portal)."""
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
    takers = [g for g in givers if g.extra is not None and g.extra.source == "discard"]
    if discard is not None:
        for n, g in enumerate(takers):  # a hand with two of them: the first one's
            forced = req if g in req else req + (g,)
            free = tuple(c for c in rest if c is not g and c not in takers[:n])
            out += [Shape(forced + (d,), free, size + 1, False) for d in discard
                    if g.may_take_extra(d)]
    if free_extras:
        return out + [Shape(req, rest, size + 1, False)]  # any card of the pool beside
    banned: list[Card] = []  # the givers whose shape holds every hand of pool cards with them
    for g in givers:
        if any(b in req for b in banned):
            break
        if g in takers and discard is not None:
            continue  # it takes from the area only (above)
        forced = req if g in req else req + (g,)
        free = tuple(c for c in rest if c is not g and c not in banned)
        limited = g in takers and any(not g.may_take_extra(c) for c in free)
        out.append(Shape(forced, free, size + 1, limited))
        banned.append(g)
    return out


@dataclass
class Sweep:
    """How a proof went: whether it ran to the end, and the work done (the hands it found
    went to the caller's ``improve``)."""

    seconds: float
    complete: bool
    branches: int = 0
    leaves: int = 0
    passes: int = 0
    bound: int = 0  # no hand scores above it (the best found, when complete)


@dataclass(frozen=True)
class SweepProgress:
    """How far a proof has gone: the best total known (``best``), the most any hand may
    score as far as the sweep knows (``bound``: the proof is done when they meet), the parts
    of the current pass done, and the time (``left``: an estimate, None while too early)."""

    best: int
    bound: int
    done: int
    parts: int
    passes: int
    elapsed: float
    left: float | None
    hand: tuple[Card, ...] = ()  # the best hand known (filled by the caller who scores)


BoundSets = list[tuple[tuple[Card, ...], int]]
Improve = Callable[[BoundSets], int]


def _order(b: Bounds, forced: list[int], free: list[int], size: int) -> list[int]:
    """The free cards by the most each may add: its own strength and bonus with its best
    partners, plus the most it adds to the bonuses of its k - 1 best partners. Hands of
    big contributions are met first, and their branches prune the rest (about seven times
    fewer branches than by a card's own bonus alone)."""
    k = size - len(forced)
    if k <= 0 or not free:
        return free
    run = SweepRun(b, forced, free, size, 0)
    m = np.zeros(len(free) + 1, dtype=np.int64)
    run.bound(forced, 0, k, -1, m)
    given = np.zeros((len(free), len(free)), dtype=np.int64)
    kern.gifts(run._held(forced), len(forced), b.tables.T, run.RUN, given)
    best = -np.sort(-given, axis=0)[:max(k - 1, 0)].sum(axis=0)
    key = [int(m[i]) + int(best[i]) for i in range(len(free))]
    return [free[i] for i in sorted(range(len(free)), key=lambda i: (-key[i], free[i]))]


Task = tuple[int, int, int, int]  # (promise: the part's bound, run, first, second)
FIRST_CAP = 16  # hands a part finds before they are scored (the bar rises early)
DIVE_BEAM = 3  # branches a dive follows below each branch
DIVE_PARTS = 100  # the most promising parts a dive looks at (more find no better bar)
DIVE_SECONDS = 0.5  # most time spent scoring the dive's hands
GAPS = (64, 16, 4)  # the passes before the last: their thresholds above the bar


class Sweeper:
    """The shapes of hand compiled for the sweep, and its passes."""

    def __init__(self, b: Bounds, hand_shapes: Sequence[Shape], workers: int = 2,
                 limit: int = 50000) -> None:
        self.b = b
        self.workers = workers
        self.limit = limit
        self.runs: list[SweepRun] = []
        self.fixed: BoundSets = []  # whole hands of forced cards
        for shape in hand_shapes:
            forced = b.index(shape.forced)
            free = b.index(shape.free)
            k = shape.size - len(forced)
            if k < 0 or len(free) < k:
                continue
            if k == 0:
                self.fixed.append((shape.forced, b.bound(shape.forced)))
                continue
            free = _order(b, forced, free, shape.size)
            self.runs.append(SweepRun(b, forced, free, shape.size, int(shape.need_fit)))
        self.stats = np.zeros(3, dtype=np.int64)
        self.seen: set[tuple[int, ...]] = set()

    def tasks(self, threshold: int) -> list[Task]:
        """The parts whose bound beats the threshold, most promising first."""
        T = self.b.tables.T
        out: list[Task] = []
        for r, run in enumerate(self.runs):
            nf = len(run.RUN[0])
            k = run.size - len(run.forced)
            bounds = np.zeros(nf + 1, dtype=np.int64)
            P0 = run._held(run.forced)
            for f in range(nf - k + 1):
                ub = run.call(kern.part_bounds, (P0, len(run.forced), f, T, run.RUN, bounds,
                                                 threshold))
                if k == 1:
                    out.append((int(ub) if ub else 1 << 40, r, f, -1))
                elif ub > threshold:
                    out += [(int(bounds[g]), r, f, g) for g in range(f + 1, nf - k + 2)
                            if bounds[g] > threshold]
        out.sort(key=lambda x: (-x[0], x[1], x[2], x[3]))
        return out

    def candidates(self, threshold: int) -> set[tuple[Card, ...]]:
        """Every card set the sweep meets at a fixed threshold, each part run to the end and
        nothing scored: a test checks that it holds every hand whose closer bound beats the
        threshold (what a pass relies on), whatever the branches pruned on the way."""
        thr = np.array([threshold], dtype=np.int64)
        out = {cards for cards, bound in self.fixed if bound > threshold}
        for task in self.tasks(threshold):
            cap = FIRST_CAP
            while True:
                found, full = self._part(task, thr, cap, 0)
                out |= {cards for cards, _ in found}
                if not full:
                    break
                cap *= 8
        self.seen.clear()
        return out

    def _part(self, task: Task, thr: np.ndarray, cap: int, beam: int
              ) -> tuple[BoundSets, bool]:
        """The hands of one part (new ones only) and whether the buffer filled."""
        promise, r, f, g = task
        if promise <= thr[0]:
            return [], False
        run = self.runs[r]
        out = np.zeros((cap, kern.OUT), dtype=np.int64)
        st = np.zeros(3, dtype=np.int64)
        args = (run._held(run.forced), len(run.forced), f, g, self.b.tables.T, run.RUN, thr,
                out, cap, st, beam)
        n = run.call(kern.sweep_part, args)
        self.stats += st
        new: BoundSets = []
        for row in out[:cap if n < 0 else n]:
            key = tuple(int(i) for i in row[:-1] if i >= 0)
            if key not in self.seen:
                self.seen.add(key)
                new.append((tuple(self.b.cards[i] for i in key), int(row[-1])))
        new.sort(key=lambda cb: -cb[1])
        return new, n < 0

    def dive(self, thr: np.ndarray, improve: Improve, deadline: float | None) -> None:
        """A first bar: each part followed down its most promising branches only (which
        proves nothing), and the hands met scored best bound first, for a short while."""
        hands: BoundSets = []
        for task in self.tasks(int(thr[0]))[:DIVE_PARTS]:
            found, _ = self._part(task, thr, 64, DIVE_BEAM)
            hands += found
        self.seen.clear()  # the passes must find them again
        hands.sort(key=lambda cb: -cb[1])
        stop = time.perf_counter() + DIVE_SECONDS
        for cards, bound in hands:
            now = time.perf_counter()
            if bound <= thr[0] or now > stop or (deadline is not None and now > deadline):
                break
            thr[0] = max(int(thr[0]), improve([(cards, bound)]))

    def run_pass(self, thr: np.ndarray, aim: int, improve: Improve, deadline: float | None,
                 report: Callable[[int, int, int, float | None], None] | None
                 ) -> tuple[bool, int]:
        """Every hand whose bound beats max(aim, the bar) is scored (``improve`` raises the
        bar thr[0] as it goes; the parts running read it). Returns whether it ran to the
        end, and the most a hand of the parts not done may score (the bar when none is
        left); ``report(done, parts, that bound, seconds left)`` as parts end.

        The time left is the time so far scaled by the work left over the work done, a
        part's work taken as the cube of its bound's excess over the bar (in both games the
        most promising parts cost most, about as that cube)."""
        thr[0] = max(int(thr[0]), aim)
        tasks = self.tasks(int(thr[0]))
        aim_thr = int(thr[0])
        queue = [(-task[0], seq, task, FIRST_CAP) for seq, task in enumerate(tasks)]
        heapq.heapify(queue)
        running: dict = {}
        done = 0
        complete = True
        t0 = time.perf_counter()
        work_done = 0.0
        dropped = int(thr[0])  # the best bound of the parts left out (out of time)

        def work(promise: int, bar: int) -> float:
            return float(max(promise - bar, 0)) ** 3

        with ThreadPoolExecutor(max_workers=self.workers) as pool:
            while queue or running:
                while queue and len(running) < self.workers:
                    if deadline is not None and time.perf_counter() > deadline:
                        complete = False
                        dropped = max([dropped] + [-q[0] for q in queue])
                        queue.clear()
                        break
                    item = heapq.heappop(queue)
                    running[pool.submit(self._part, item[2], thr, item[3], 0)] = (
                        item, int(thr[0]))
                if not running:
                    break
                fut = next(as_completed(list(running)))
                item, bar_then = running.pop(fut)
                new, full = fut.result()
                work_done += work(item[2][0], bar_then)
                if full:  # the buffer filled: score these, then run the part again
                    if item[3] >= self.limit:
                        complete = False
                        dropped = max(dropped, item[2][0])
                    else:
                        heapq.heappush(queue, (item[0], item[1], item[2],
                                               min(item[3] * 8, self.limit)))
                else:
                    done += 1
                if new:
                    thr[0] = max(aim_thr, improve(new))
                if report is not None:
                    open_ = [-q[0] for q in queue[:1]] + [it[2][0] for it, _ in
                                                           running.values()]
                    left = None
                    if done >= 4 and work_done > 0:
                        todo = sum(work(-q[0], int(thr[0])) for q in queue) + sum(
                            work(it[2][0], int(thr[0])) for it, _ in running.values())
                        left = (time.perf_counter() - t0) * todo / work_done
                    report(done, len(tasks), max(open_ + [dropped], default=int(thr[0])),
                           left)
        return complete, dropped


def prove(b: Bounds, hand_shapes: Sequence[Shape], bar: int, improve: Improve,
          workers: int = 2, deadline: float | None = None,
          progress: Callable[[SweepProgress], None] | None = None) -> Sweep:
    """Sweep until every hand whose bound beats the bar has been scored.

    ``bar`` is the best total known minus one; ``improve`` scores hands (best bound first)
    and returns the new bar. A dive raises it first; then passes at thresholds above it
    (``GAPS``): a pass that meets a hand above its threshold has proven the best hand
    (every hand whose bound beats the final bar has been scored), and one that meets none
    shows that no hand scores above its threshold. The last pass runs at the bar itself.
    Past ``deadline`` (a ``perf_counter`` time) the proof stops, incomplete."""
    t0 = time.perf_counter()
    sweeper = Sweeper(b, hand_shapes, workers)
    best = [bar]

    def scored(found: BoundSets) -> int:
        best[0] = max(best[0], improve(found))
        return best[0]

    thr = np.array([bar], dtype=np.int64)
    top = sweeper.tasks(bar)[:1]
    upper = max([v for _, v in sweeper.fixed] + [t[0] for t in top] + [bar + 1])
    passes = 0

    def report(done: int, parts: int, open_bound: int, aim: int, left: float | None) -> None:
        if progress is None:
            return
        bound = max(min(upper, max(open_bound, aim)), best[0] + 1)
        progress(SweepProgress(best[0] + 1, bound, done, parts, passes, time.perf_counter() - t0,
                          left))

    if sweeper.fixed:
        thr[0] = scored(sorted(sweeper.fixed, key=lambda cb: -cb[1]))
    sweeper.dive(thr, scored, deadline)
    complete = False
    for gap in (*GAPS, 0):
        aim = best[0] + gap
        if gap and aim >= upper:
            continue  # no hand may beat it: lower at once
        passes += 1
        thr[0] = best[0]
        complete, dropped = sweeper.run_pass(
            thr, aim, scored, deadline, lambda d, p, o, t, aim=aim: report(d, p, o, aim, t))
        if not complete:
            upper = min(upper, max(dropped, aim))
            break
        if best[0] >= aim:
            break  # a hand above the aim: every better one was scored
        upper = min(upper, aim)  # no hand scores above the aim
    if complete:
        upper = best[0] + 1
    report(1, 1, upper, upper, None)
    return Sweep(time.perf_counter() - t0, complete, int(sweeper.stats[0]),
                 int(sweeper.stats[1]), passes, max(upper, best[0] + 1))
