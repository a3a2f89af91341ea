"""Proving the best hand of the game: an upper bound on every hand, swept by compiled code.

``fr-score max`` must *prove* its hand best among some 380 million legal card sets (every
7 cards, and every 8 with Necromancer). CP-SAT finds the best hand quickly but cannot close
the gap: the linear relaxation of "a card's bonus counts the other cards held" lets every
bonus pick its own partners. This module proves it the direct way:

1. **A bound that is easy to compute.** Every point effect is compiled (one compiler per
   effect class, :data:`COMPILERS`) into rows of integer tables: bit masks of the cards a
   selector may match, points, payout tables. :func:`_hand_bound` reads them for one set of
   cards and returns at least the evaluator's total for *any* choices:

   * penalties, blanking and clearing are dropped (a penalty never adds points, and blanking
     a card only removes it from the counts; a blanked card scores 0 ≤ its bound);
   * a copy may be any of its faces for each bonus separately, and Book of Changes adds one
     more card to any suit a bonus looks at; ``unless`` and "every card of a different suit"
     count as met;
   * runs (Gem of Order) and collections (Collector) are paid for the strengths and suits the
     cards may show, copies and the changed suit placed the best way.

2. **A sweep over card sets**, compiled with Numba and run on two threads, cards taken in
   the order of their largest possible contribution. A branch holding cards ``P`` with
   ``k`` cards still to take from ``R`` stops when no completion can beat the best hand
   known: each card of ``P`` is bounded with the ``k`` best further cards it could have,
   and the ``k`` best cards of ``R`` likewise (:func:`_node_bound`); a cheaper test on the
   largest contributions comes first.

3. **Verification.** Every card set whose bound reaches the best known total is scored by
   the evaluator with optimal choices as soon as its part of the sweep ends, and a better
   hand raises the bar for the parts not yet started. When the sweep is complete, the best
   verified hand is the optimum: any better hand would have a bound above it and would have
   been scored.

Tests check the bound against the evaluator on random hands and on the worked examples.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

# The compiled code is cached per user (the package directory may be read-only).
os.environ.setdefault("NUMBA_CACHE_DIR", str(Path.home() / ".cache" / "fantasy-scorer" / "numba"))
from numba import njit  # noqa: E402

from ...errors import ScorerError
from .. import effects as fx
from ..catalog import Card, Catalog

MAX_TERMS = 4  # per-count terms of one effect ("+5 per Land, Weather, Flood and Flame")
MAX_GROUPS = 4  # condition groups of one effect
TABLE = 17  # payout tables: pay for 0..16 cards
MAX_FACES = 16  # the sets of suits a copy from the game may show (its own included)

# effect kinds in the tables
POINTS, SUM_STRENGTH, MAX_STRENGTH, COLLECTION, RUNS, CONSTANT, ODD = range(7)


class Unsupported(ScorerError):
    """A card whose rules the bound does not describe (the caller says so)."""


@dataclass
class Tables:
    """The cards and their bonuses as integer tables (cards by index, masks over indices)."""

    cards: list[Card]
    strength: np.ndarray  # printed strength
    suits: np.ndarray  # printed suits, as a bit mask
    hand_copy: np.ndarray  # 1: copies a card in hand (name, suit, strength)
    faces: np.ndarray  # a copy from the game: [how many faces, their suit masks, their
    #                    several-suit name ids (-1: one suit)] (see Compiler._faces)
    book: np.ndarray  # 1: may change the suit of one other card
    grp_static: list[int] = field(default_factory=list)
    grp_printed: list[int] = field(default_factory=list)
    grp_suit: list[int] = field(default_factory=list)
    grp_other: list[int] = field(default_factory=list)
    rows: list[list[int]] = field(default_factory=list)  # one per effect, see _row
    tabs: list[list[int]] = field(default_factory=list)
    #: per card, the faces with several suits it may show at once, as (suits, name)
    multi: list[set[tuple[int, str]]] = field(default_factory=list)
    #: the names that show several suits at once, by id, with those suits
    several: list[tuple[str, int]] = field(default_factory=list)


def _bit(i: int) -> int:
    return 1 << i


class Compiler:
    """Turns the cards' effects into tables (see the module docstring)."""

    def __init__(self, catalog: Catalog, cards: Sequence[Card]) -> None:
        if len(cards) > 63:
            raise Unsupported("the sweep handles at most 63 cards")
        self.cat = catalog
        self.cards = list(cards)
        n = len(self.cards)
        self.t = Tables(
            self.cards,
            np.array([c.strength for c in self.cards], dtype=np.int64),
            np.array([c.suits for c in self.cards], dtype=np.int64),
            np.zeros(n, dtype=np.int64),
            np.zeros((n, 1 + 2 * MAX_FACES), dtype=np.int64),
            np.zeros(n, dtype=np.int64),
        )
        if any(not 0 <= c.strength < 60 for c in self.cards):
            raise Unsupported("the sweep handles strengths from 0 to 59")
        self.faces: dict[int, list[Card]] = {}
        for i, c in enumerate(self.cards):
            ch = c.choice
            if isinstance(ch, fx.Copy):
                if ch.source == "hand":
                    if set(ch.takes) - {"name", "suit", "strength", "penalty"} \
                            or self.t.hand_copy.any():
                        raise Unsupported(f"the sweep models one copy from the hand, "
                                          f"as {c.name}'s")
                    self.t.hand_copy[i] = 1
                else:
                    if "strength" in ch.takes:
                        raise Unsupported(f"the sweep does not model {c.name}'s copy")
                    self.faces[i] = catalog.copy_targets(ch)
            elif isinstance(ch, fx.ChangeSuit):
                self.t.book[i] = 1
            elif ch is not None and not isinstance(ch, fx.ClearOne):
                raise Unsupported(f"the sweep does not model {c.name}")
            if c.special_blanking or c.discard_suits or c.grants_immunity or c.cursed or c.needs:
                raise Unsupported(f"the sweep does not model {c.name}")
        self._groups: dict[tuple, int] = {}

    # -- selectors ----------------------------------------------------------------------------
    @staticmethod
    def _selects(t: fx.Term, suits: int, name: str) -> bool:
        return bool(t.any or suits & t.suits or name in t.names)

    def group(self, terms: Sequence[fx.Term]) -> int:
        """A selector (any of ``terms``) as masks: cards that may match it (a copy from the
        game, if one of its faces does), and cards whose printed face does (what a copy from
        the hand may copy). ``except`` is ignored: a widening."""
        key = tuple(terms)
        g = self._groups.get(key)
        if g is not None:
            return g
        static = printed = 0
        for i, c in enumerate(self.cards):
            if any(self._selects(t, c.suits, c.name) for t in terms):
                printed |= _bit(i)
                static |= _bit(i)
            for f in self.faces.get(i, ()):
                if any(self._selects(t, f.suits, f.name) for t in terms):
                    static |= _bit(i)
        t = self.t
        g = len(t.grp_static)
        t.grp_static.append(static)
        t.grp_printed.append(printed)
        t.grp_suit.append(int(any(term.suits for term in terms)))
        t.grp_other.append(int(all(term.other for term in terms)))
        self._groups[key] = g
        return g

    # -- effects ------------------------------------------------------------------------------
    def row(self, owner: int, slot: int, kind: int, a: int = 0, b: int = 0,
            per: Sequence[int] = (), groups: Sequence[int] = (), table: Sequence[int] = (),
            book_gain: int = 0) -> None:
        if len(per) > MAX_TERMS or len(groups) > MAX_GROUPS:
            raise Unsupported(f"an effect of {self.cards[owner].name} has too many terms")
        r = [owner, slot, kind, a, b, book_gain, len(per)] + list(per) + [-1] * (
            MAX_TERMS - len(per)) + [len(groups)] + list(groups) + [-1] * (
            MAX_GROUPS - len(groups))
        self.t.rows.append(r)
        tab = list(table)[:TABLE] + [0] * max(0, TABLE - len(table))
        self.t.tabs.append(tab)

    def effect(self, eff: object, owner: int, slot: int) -> None:
        compiler = COMPILERS.get(type(eff))
        if compiler is None:
            raise Unsupported(f"the sweep does not model {type(eff).__name__} "
                              f"({self.cards[owner].name})")
        compiler(self, eff, owner, slot)

    def _faces(self) -> list[tuple[str, int]]:
        """Each copy from the game gets one face per set of suits it may show (its own
        included); a face of several suits (a copy of the promo Phoenix) also carries the
        id of its name, as a collection counts each name once per suit (R10). Returns the
        names of several suits, by id, with their suits. Faces show every suit of the
        card copied, though a copy of a Phoenix takes only its Beast (R16): a wider face
        keeps the bound above the score."""
        several = sorted({(c.name, c.suits) for c in [*self.cards, *(
            f for fs in self.faces.values() for f in fs)]
            if bin(c.suits).count("1") > 1})
        ids = {name: k for k, (name, _) in enumerate(several)}
        for i, faces in self.faces.items():
            c = self.cards[i]
            # one face per set of suits; a name of several suits keeps its own face
            shown = sorted({(f.suits, ids.get(f.name, -1)) for f in [c, *faces]})
            if len(shown) > MAX_FACES:
                raise Unsupported(f"{c.name} may show too many sets of suits")
            self.t.faces[i, 0] = len(shown)
            for q, (mask, name) in enumerate(shown):
                self.t.faces[i, 1 + q] = mask
                self.t.faces[i, 1 + MAX_FACES + q] = name
        return several

    def _multi(self) -> list[set[tuple[int, str]]]:
        def several(c: Card) -> bool:
            return bin(c.suits).count("1") > 1

        wide = {(c.suits, c.name) for c in self.cards if several(c)}
        return [wide if self.t.hand_copy[i] else
                {(f.suits, f.name) for f in [c, *self.faces.get(i, ())] if several(f)}
                for i, c in enumerate(self.cards)]

    def compile(self) -> Tables:
        self.t.multi = self._multi()
        self.t.several = self._faces()
        slot = 0
        for i, c in enumerate(self.cards):
            for eff in c.bonus:
                self.effect(eff, i, slot)
                slot += 1
        if not self.t.grp_static:
            self.group([fx.Term("", any=True)])
        if not self.t.rows:
            self.row(0, slot, CONSTANT, 0)
        return self.t


def _pay_table(table: Sequence[tuple[int, int]]) -> list[int]:
    return [fx.tiered(table, k) for k in range(TABLE)]


def _superadditive(pay: Sequence[int], most: int = 9) -> bool:
    """Removing one card from a run never pays more (for runs of at most ``most`` cards)."""
    return all(pay[a + b + 1] >= pay[a] + pay[b]
               for a in range(most) for b in range(most - a))


def _c_points(comp: Compiler, eff: fx.Points, owner: int, slot: int) -> None:
    cond = eff.condition
    if eff.in_discard or eff.first is not None or cond.players is not None \
            or cond.other_cursed is not None:
        raise Unsupported(f"the sweep does not model a bonus of {comp.cards[owner].name}")
    if eff.points <= 0:
        return
    groups = ([comp.group(cond.with_any)] if cond.with_any else []) + [
        comp.group(g) for g in cond.with_all]
    per = [comp.group([t]) for t in eff.per]
    gain = max((sum(1 for t in eff.per if t.suits >> s & 1)
                for s in range(len(comp.cat.suits))), default=0)
    comp.row(owner, slot, POINTS, eff.points, 0, per, groups, (), gain)


def _c_best_of(comp: Compiler, eff: fx.BestOf, owner: int, slot: int) -> None:
    for o in eff.options:  # the same slot: the card gets the largest
        comp.effect(o, owner, slot)


def _c_sum_strength(comp: Compiler, eff: fx.SumStrength, owner: int, slot: int) -> None:
    comp.row(owner, slot, SUM_STRENGTH, groups=[comp.group(eff.terms)])


def _c_max_strength(comp: Compiler, eff: fx.MaxStrength, owner: int, slot: int) -> None:
    comp.row(owner, slot, MAX_STRENGTH, groups=[comp.group(eff.terms)])


def _c_collection(comp: Compiler, eff: fx.Collection, owner: int, slot: int) -> None:
    pay = _pay_table(eff.table)
    if any(pay[k + 1] < pay[k] for k in range(TABLE - 1)):
        raise Unsupported(f"{comp.cards[owner].name}: a collection that pays less for more")
    comp.row(owner, slot, COLLECTION, table=pay)


def _c_runs(comp: Compiler, eff: fx.Runs, owner: int, slot: int) -> None:
    pay = _pay_table(eff.table)
    if not _superadditive(pay):
        raise Unsupported(f"{comp.cards[owner].name}: a run table the sweep cannot bound")
    comp.row(owner, slot, RUNS, table=pay)


def _c_distinct(comp: Compiler, eff: fx.DistinctSuits, owner: int, slot: int) -> None:
    comp.row(owner, slot, CONSTANT, max(eff.points, 0))


def _c_odd(comp: Compiler, eff: fx.OddStrength, owner: int, slot: int) -> None:
    comp.row(owner, slot, ODD, max(eff.per_other, 0), max(eff.all_odd, 0))


COMPILERS: dict[type, Callable] = {
    fx.Points: _c_points,
    fx.BestOf: _c_best_of,
    fx.SumStrength: _c_sum_strength,
    fx.MaxStrength: _c_max_strength,
    fx.Collection: _c_collection,
    fx.Runs: _c_runs,
    fx.DistinctSuits: _c_distinct,
    fx.OddStrength: _c_odd,
}

# -- the compiled bound ---------------------------------------------------------------------------

# row layout
R_OWNER, R_SLOT, R_KIND, R_A, R_B, R_GAIN, R_NPER = range(7)
R_PER = 7
R_NGRP = R_PER + MAX_TERMS
R_GRP = R_NGRP + 1


@njit(cache=True)
def _popcount(x: np.int64) -> int:
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True)
def _others_max_strength(hand, i, strength, hand_copy):
    """The strongest printed strength among the other (non-copying) cards of the hand."""
    best = 0
    h = hand
    while h:
        j = _lowbit(h)
        h &= h - 1
        if j != i and hand_copy[j] == 0 and strength[j] > best:
            best = strength[j]
    return best


@njit(cache=True)
def _lowbit(h):
    j = 0
    while not (h >> j) & 1:
        j += 1
    return j


@njit(cache=True)
def _run_pay(counts, tab):
    """Pay of every separate run, layer by layer (R10)."""
    c = counts.copy()
    total = 0
    while True:
        any_left = False
        run = 0
        for v in range(c.shape[0]):
            if c[v] > 0:
                run += 1
                c[v] -= 1
                any_left = True
            else:
                if run:
                    total += tab[min(run, tab.shape[0] - 1)]
                run = 0
        if run:
            total += tab[min(run, tab.shape[0] - 1)]
        if not any_left:
            return total


@njit(cache=True)
def _group_met(g, hand, owner, dmask, has_book, grp_static, grp_printed, grp_suit, grp_other):
    m = grp_static[g] & hand
    if grp_other[g]:
        m &= ~(np.int64(1) << owner)
    if m:
        return True
    d = dmask
    while d:
        j = _lowbit(d)
        d &= d - 1
        if grp_other[g] and j == owner:
            continue
        if hand & ~(np.int64(1) << j) & grp_printed[g]:
            return True
    return has_book and grp_suit[g] == 1


@njit(cache=True)
def _collection(hand, tab, suits, hand_copy, faces, masks, has_book, n_suits):
    """Per suit, the pay for its cards. A collection counts each name once per suit (R10),
    so a copy of a card in hand adds nothing: the copy from the hand counts only as
    itself (Wild), and a copy from the game shows the set of suits that pays most among
    those whose name no card in hand holds. The card Book of Changes changes joins the
    suit that pays most."""
    counts = np.zeros(n_suits, dtype=np.int64)
    width = max(MAX_FACES, n_suits)
    opts = np.zeros((8, width), dtype=np.int64)  # per movable card: its sets of suits
    names = np.full((8, width), -1, dtype=np.int64)  # and their names of several suits
    nopts = np.zeros(8, dtype=np.int64)
    nu = 0
    h = hand
    while h:
        j = _lowbit(h)
        h &= h - 1
        if faces[j, 0]:
            n = 0
            for q in range(faces[j, 0]):
                name = faces[j, 1 + MAX_FACES + q]
                if name >= 0 and hand & masks[4 + 3 * name]:
                    continue  # that name is held already
                opts[nu, n] = faces[j, 1 + q]
                names[nu, n] = name
                n += 1
            nopts[nu] = n
            nu += 1
        else:
            _shift(counts, suits[j], 1, n_suits)
    if has_book:
        for s in range(n_suits):
            opts[nu, s] = np.int64(1) << s
        nopts[nu] = n_suits
        nu += 1
    return _place(counts, opts, names, nopts, nu, tab, n_suits)


@njit(cache=True)
def _place(counts, opts, names, nopts, nu, tab, n_suits):
    """The best pay when each movable card u shows one of its sets of suits opts[u, :]
    (or adds nothing): every combination is tried (a hand holds few such cards). Two
    cards showing the same name of several suits (names[u, :] >= 0) count once (R10)."""
    choice = np.full(nu, -1, dtype=np.int64)  # -1: adds nothing
    shown = counts.copy()
    best = 0
    while True:
        shown[:] = counts
        used = np.int64(0)
        for u in range(nu):
            q = choice[u]
            if q < 0:
                continue
            name = names[u, q]
            if name >= 0:
                if (used >> name) & 1:
                    continue
                used |= np.int64(1) << name
            _shift(shown, opts[u, q], 1, n_suits)
        total = 0
        for s in range(n_suits):
            total += tab[min(shown[s], tab.shape[0] - 1)]
        if total > best:
            best = total
        # the next combination (an odometer over each card's sets of suits)
        u = 0
        while u < nu:
            choice[u] += 1
            if choice[u] < nopts[u]:
                break
            choice[u] = -1
            u += 1
        if u == nu:
            return best


@njit(cache=True)
def _shift(counts, mask, by, n_suits):
    for s in range(n_suits):
        if (mask >> s) & 1:
            counts[s] += by


@njit(cache=True)
def _runs(hand, tab, strength, hand_copy):
    """Runs of a whole hand. The copy from the hand (one at most) shows its own strength or
    that of another card: each is tried."""
    top = 0
    h = hand
    while h:
        j = _lowbit(h)
        h &= h - 1
        if strength[j] > top:
            top = strength[j]
    counts = np.zeros(top + 2, dtype=np.int64)
    copy = -1
    h = hand
    while h:
        j = _lowbit(h)
        h &= h - 1
        if hand_copy[j]:
            copy = j
        else:
            counts[strength[j]] += 1
    if copy < 0:
        return _run_pay(counts, tab)
    best = 0
    h = hand
    while h:
        j = _lowbit(h)
        h &= h - 1
        counts[strength[j]] += 1  # the copy shows strength[j] (j == copy: its own)
        v = _run_pay(counts, tab)
        counts[strength[j]] -= 1
        if v > best:
            best = v
    return best


@njit(cache=True)
def _max_strength_in(hand, strength, hand_copy):
    return _others_max_strength(hand, -1, strength, hand_copy)


@njit(cache=True)
def _dyn_effect(row, tab, split, P, R, k, strength, suits, hand_copy, faces, book, masks,
                grp_static, grp_printed, grp_suit, grp_other, n_suits):
    """At most the effect's value in any hand P ∪ S, S ⊆ R, |S| ≤ k (see _effect)."""
    owner = row[R_OWNER]
    kind = row[R_KIND]
    one = np.int64(1)
    PR = P | R
    dP = P & masks[0]  # copies from the hand
    dR = R & masks[0]
    bookP = (P & masks[1]) != 0  # Book of Changes
    bookR = (R & masks[1]) != 0
    if kind == POINTS:
        for q in range(row[R_NGRP]):
            g = row[R_GRP + q]
            met = _group_met(g, P, owner, dP, bookP, grp_static, grp_printed, grp_suit,
                             grp_other)
            if not met and (k == 0 or not _group_met(
                    g, PR, owner, dP | dR, bookP or bookR, grp_static, grp_printed, grp_suit,
                    grp_other)):
                return 0
        if row[R_NPER] == 0:
            return row[R_A]
        n = 0
        for q in range(row[R_NPER]):
            g = row[R_PER + q]
            m = grp_static[g] & P
            if grp_other[g]:
                m &= ~(one << owner)
            n += _popcount(m)
            d = dP
            while d:
                j = _lowbit(d)
                d &= d - 1
                if grp_other[g] and j == owner or (grp_static[g] >> j) & 1:
                    continue  # a copy shows one face: counted once
                if PR & ~(one << j) & grp_printed[g]:
                    n += 1
        if bookP:
            n += row[R_GAIN]
        if k > 0:
            # the k best further cards: each adds the terms it may match
            if row[R_NPER] == 1 and not bookR and dR == 0:
                g = row[R_PER]
                m = grp_static[g] & R
                if grp_other[g]:
                    m &= ~(one << owner)
                c = _popcount(m)
                n += c if c < k else k
            else:
                hits = np.zeros(64, dtype=np.int64)
                nh = 0
                h = R
                while h:
                    j = _lowbit(h)
                    h &= h - 1
                    x = 0
                    if hand_copy[j]:
                        x = row[R_NPER]
                    else:
                        for q in range(row[R_NPER]):
                            g = row[R_PER + q]
                            if (grp_static[g] >> j) & 1 and not (grp_other[g] and j == owner):
                                x += 1
                        if book[j]:  # itself, and the card it changes
                            x += row[R_GAIN]
                    if x:
                        hits[nh] = x
                        nh += 1
                hs = np.sort(hits[:nh])[::-1]
                for q in range(min(k, nh)):
                    n += hs[q]
        return row[R_A] * n
    if kind in (SUM_STRENGTH, MAX_STRENGTH):
        g = row[R_GRP]
        top = _max_strength_in(PR, strength, hand_copy)
        total = 0
        best = 0
        vals = np.zeros(64 if k > 0 else 1, dtype=np.int64)
        nv = 0
        h = PR
        while h:
            j = _lowbit(h)
            h &= h - 1
            if grp_other[g] and j == owner:
                continue
            st = 0
            if hand_copy[j]:
                if PR & ~(one << j) & grp_printed[g] or (grp_static[g] >> j) & 1:
                    st = top
            elif (grp_static[g] >> j) & 1:
                st = strength[j]
            if book[j] and (R >> j) & 1:
                st += top  # a Book of Changes held later: one more card may be selected
            if st > best:
                best = st
            if (P >> j) & 1:
                total += st
            elif st > 0 and k > 0:
                vals[nv] = st
                nv += 1
        if bookP:
            total += top
            if top > best:
                best = top
        if kind == MAX_STRENGTH:
            return best
        if k > 0 and nv > 0:
            vs = np.sort(vals[:nv])[::-1]
            for q in range(min(k, nv)):
                total += vs[q]
        return total
    if kind == COLLECTION and R == 0:
        return _collection(P, tab, suits, hand_copy, faces, masks, bookP, n_suits)
    if kind == RUNS and R == 0:
        return _runs(P, tab, strength, hand_copy)
    if kind == COLLECTION:
        counts = np.zeros(n_suits, dtype=np.int64)
        avail = np.zeros(n_suits, dtype=np.int64)
        flex = 0
        h = PR
        while h:
            j = _lowbit(h)
            h &= h - 1
            inP = (P >> j) & 1
            if book[j]:
                flex += 1  # the card it changes may join any suit; itself counts below
            if faces[j, 0]:  # a copy from the game: one suit, or a name of several below
                if inP:
                    flex += 1
                else:
                    for s in range(n_suits):
                        avail[s] += 1
                continue
            for s in range(n_suits):
                if (suits[j] >> s) & 1:
                    if inP:
                        counts[s] += 1
                    else:
                        avail[s] += 1
        # a name of several suits counts once per suit (R10): whichever card shows it
        # adds its other suits once, unless the card printed with it is held already
        for q in range(masks[2]):
            if PR & masks[3 + 3 * q] and not P & masks[4 + 3 * q]:
                flex += masks[5 + 3 * q] - 1
        budget = k + flex
        for s in range(n_suits):
            avail[s] += flex
        # knapsack over suits: best[j] = the most pay placing j more cards
        best = np.full(budget + 1, -1, dtype=np.int64)
        best[0] = 0
        for s in range(n_suits):
            nxt = best.copy()
            for used in range(budget + 1):
                if best[used] < 0:
                    continue
                for add in range(0, min(avail[s], budget - used) + 1):
                    v = best[used] + tab[min(counts[s] + add, TABLE - 1)]
                    if v > nxt[used + add]:
                        nxt[used + add] = v
            best = nxt
        return best.max()
    if kind == RUNS:
        present = np.int64(0)
        avail = np.int64(0)
        cards_p = 0
        h = PR
        while h:
            j = _lowbit(h)
            h &= h - 1
            # a copy adds its own strength or repeats another card's: no new value but
            # its own, so each card adds its printed strength (a copy: at most)
            if (P >> j) & 1:
                cards_p += 1
                present |= one << strength[j]
            else:
                avail |= one << strength[j]
        total = cards_p + k
        longest = 0
        for a in range(63):
            for length in range(1, total + 1):
                if a + length > 63:
                    break
                w = ((one << length) - 1) << a
                miss = w & ~present
                if miss & ~avail or _popcount(miss) > k:
                    break
                if length > longest:
                    longest = length
        best = 0
        for length in range(0, longest + 1):
            v = tab[length] + split[total - length]
            if v > best:
                best = v
        return best
    if kind == CONSTANT:
        return row[R_A]
    if kind == ODD:
        odd = 0
        oddR = 0
        all_odd = True
        h = PR
        while h:
            j = _lowbit(h)
            h &= h - 1
            if (P >> j) & 1:
                if hand_copy[j]:
                    odd += 1
                elif strength[j] % 2 == 1:
                    if j != owner:
                        odd += 1
                else:
                    all_odd = False
            elif hand_copy[j] or strength[j] % 2 == 1:
                oddR += 1
        odd += oddR if oddR < k else k
        v = row[R_A] * odd
        if all_odd and row[R_B] > v:
            v = row[R_B]
        return v
    return 0


@njit(cache=True)
def _dyn_card(c, P, R, k, rows, tabs, splits, slot_start, strength, suits, hand_copy,
              faces, book, masks, grp_static, grp_printed, grp_suit, grp_other, n_suits):
    """At most what card c adds to any hand P ∪ S (c in P), S ⊆ R, |S| ≤ k."""
    total = _max_strength_in(P | R, strength, hand_copy) if hand_copy[c] else strength[c]
    r = slot_start[c]
    end = slot_start[c + 1]
    while r < end:
        slot = rows[r, R_SLOT]
        best = 0
        while r < end and rows[r, R_SLOT] == slot:
            v = _dyn_effect(rows[r], tabs[r], splits[r], P, R, k, strength, suits,
                            hand_copy, faces, book, masks, grp_static, grp_printed, grp_suit,
                            grp_other, n_suits)
            if v > best:
                best = v
            r += 1
        total += best
    return total


@njit(cache=True)
def _node_bound(P, R, k, rows, tabs, splits, slot_start, strength, suits, hand_copy,
                faces, book, masks, grp_static, grp_printed, grp_suit, grp_other, n_suits):
    """At most the bound of any hand P ∪ S, S ⊆ R, |S| = k: each card of P with the best
    further cards it could have, plus the k best cards of R, each likewise."""
    total = 0
    h = P
    while h:
        j = _lowbit(h)
        h &= h - 1
        total += _dyn_card(j, P, R, k, rows, tabs, splits, slot_start, strength, suits,
                           hand_copy, faces, book, masks, grp_static, grp_printed, grp_suit,
                           grp_other, n_suits)
    if k == 0:
        return total
    vals = np.zeros(64, dtype=np.int64)
    nv = 0
    one = np.int64(1)
    h = R
    while h:
        j = _lowbit(h)
        h &= h - 1
        vals[nv] = _dyn_card(j, P | (one << j), R & ~(one << j), k - 1, rows, tabs, splits,
                             slot_start, strength, suits, hand_copy, faces, book, masks,
                             grp_static, grp_printed, grp_suit, grp_other, n_suits)
        nv += 1
    vs = np.sort(vals[:nv])[::-1]
    for q in range(min(k, nv)):
        total += vs[q]
    return total


@njit(cache=True)
def _hand_bound(hand, rows, tabs, splits, slot_start, strength, suits, hand_copy, faces,
                book, masks, grp_static, grp_printed, grp_suit, grp_other, n_suits):
    """At least the evaluator's total of this set of cards, whatever the choices."""
    return _node_bound(hand, np.int64(0), 0, rows, tabs, splits, slot_start, strength, suits,
                       hand_copy, faces, book, masks, grp_static, grp_printed, grp_suit,
                       grp_other, n_suits)


@njit(cache=True, nogil=True)
def _sweep_from(first, second, free, n_free, size, forced, threshold, cap, fits, need_fit,
                rows, tabs, splits, slot_start, strength, suits, hand_copy, faces, book, masks,
                grp_static, grp_printed, grp_suit, grp_other, n_suits, out, limit):
    """Every ``size``-card choice of ``free`` (indices, by decreasing cap) whose first two
    cards are ``free[first]`` and ``free[second]`` (``second`` -1: only the first is fixed),
    added to ``forced``: the sets whose bound beats ``threshold`` go to ``out`` (mask,
    bound). Returns how many were written (-1: more than ``limit``)."""
    one = np.int64(1)
    suffix = np.zeros(n_free + 1, dtype=np.int64)
    for i in range(n_free - 1, -1, -1):
        suffix[i] = suffix[i + 1] | (one << free[i])
    capsum0 = 0
    h = forced
    while h:
        j = _lowbit(h)
        h &= h - 1
        capsum0 += cap[j]
    pos = np.zeros(size + 1, dtype=np.int64)  # pos[d]: the position chosen at depth d
    hands = np.zeros(size + 1, dtype=np.int64)  # hands[d]: forced + the first d choices
    capsums = np.zeros(size + 1, dtype=np.int64)
    hands[0] = forced
    capsums[0] = capsum0
    found = 0
    depth = 0
    nxt = np.int64(first)
    last_first = np.int64(first)  # depth 0 takes only `first`
    fixed = 1 if second < 0 else 2  # depths whose card is given
    while True:
        left = size - depth
        if depth == 0:
            limit_pos = last_first
        elif depth == 1 and fixed == 2:
            if nxt <= second:
                nxt = np.int64(second)
            limit_pos = np.int64(second)
        else:
            limit_pos = n_free - left
        if nxt > limit_pos:
            if depth == 0:
                return found
            depth -= 1
            nxt = pos[depth] + 1
            continue
        i = free[nxt]
        # the cheap test first: the next `left` caps are the largest left
        cb = capsums[depth]
        for q in range(left):
            cb += cap[free[nxt + q]]
        if cb <= threshold:
            if depth < fixed:
                return found
            depth -= 1
            nxt = pos[depth] + 1
            continue
        hand = hands[depth] | (one << i)
        if left == 1:
            if need_fit == 0 or (hand & fits) != 0:
                b = _hand_bound(hand, rows, tabs, splits, slot_start, strength, suits,
                                hand_copy, faces, book, masks, grp_static, grp_printed,
                                grp_suit, grp_other, n_suits)
                if b > threshold:
                    if found >= limit:
                        return -1
                    out[found, 0] = hand
                    out[found, 1] = b
                    found += 1
            nxt += 1
            continue
        b = _node_bound(hand, suffix[nxt + 1], left - 1, rows, tabs, splits, slot_start,
                        strength, suits, hand_copy, faces, book, masks, grp_static,
                        grp_printed, grp_suit, grp_other, n_suits)
        if b <= threshold:
            nxt += 1
            continue
        pos[depth] = nxt
        hands[depth + 1] = hand
        capsums[depth + 1] = capsums[depth] + cap[i]
        depth += 1
        nxt = nxt + 1


# -- the driver ------------------------------------------------------------------------------------

@dataclass
class Bounds:
    """Compiled tables ready for the compiled functions."""

    tables: Tables
    args: tuple  # rows … n_suits, in the order the compiled functions take them

    @property
    def cards(self) -> list[Card]:
        return self.tables.cards

    def mask(self, cards: Sequence[Card]) -> int:
        index = {c.id: i for i, c in enumerate(self.cards)}
        m = 0
        for c in cards:
            m |= 1 << index[c.id]
        return m

    def of(self, mask: int) -> list[Card]:
        return [c for i, c in enumerate(self.cards) if mask >> i & 1]

    def bound(self, cards: Sequence[Card]) -> int:
        """The bound of one set of cards (at least its total, whatever the choices)."""
        return int(_hand_bound(np.int64(self.mask(cards)), *self.args))


def compile_bounds(catalog: Catalog, cards: Sequence[Card]) -> Bounds:
    t = Compiler(catalog, cards).compile()
    rows = np.array(t.rows, dtype=np.int64)
    order = np.lexsort((np.arange(len(rows)), rows[:, R_OWNER]))
    assert (order == np.arange(len(rows))).all()  # compiled card by card, in order
    n = len(t.cards)
    slot_start = np.zeros(n + 1, dtype=np.int64)
    for i in range(n):
        slot_start[i + 1] = slot_start[i] + int((rows[:, R_OWNER] == i).sum())
    tabs = np.array(t.tabs, dtype=np.int64)
    # per row: the most its table pays for m cards split into groups
    splits = np.array([fx.best_splits(lambda m, row=row: int(row[m]), TABLE - 1)
                       for row in tabs], dtype=np.int64).reshape(tabs.shape)
    # [copies from the hand, Books of Changes, how many names show several suits, then per
    # such name: the cards that may show it, the card printed with it, how many suits]
    masks = [sum(1 << i for i in range(n) if t.hand_copy[i]),
             sum(1 << i for i in range(n) if t.book[i]), len(t.several)]
    for k, (name, suits) in enumerate(t.several):
        able = sum(1 << i for i in range(n) if t.cards[i].name == name
                   or k in t.faces[i, 1 + MAX_FACES:1 + MAX_FACES + t.faces[i, 0]])
        printed = sum(1 << i for i in range(n) if t.cards[i].name == name)
        masks += [able, printed, bin(suits).count("1")]
    masks = np.array(masks, dtype=np.int64)
    args = (rows, tabs, splits, slot_start, t.strength, t.suits, t.hand_copy, t.faces,
            t.book, masks, np.array(t.grp_static, dtype=np.int64),
            np.array(t.grp_printed, dtype=np.int64), np.array(t.grp_suit, dtype=np.int64),
            np.array(t.grp_other, dtype=np.int64), len(catalog.suits))
    return Bounds(t, args)


def caps(b: Bounds, k: int) -> np.ndarray:
    """Per card, the most it can add to a hand of at most ``k`` cards (bound of each row)."""
    t = b.tables
    rows, tabs = b.args[0], b.args[1]
    n = len(t.cards)
    top_strength = int(t.strength.max()) if n else 0
    out = np.zeros(n, dtype=np.int64)
    best_slot: dict[tuple[int, int], int] = {}
    any_book = bool(t.book.any())
    copies = int(t.hand_copy.sum())
    for r in range(len(rows)):
        owner, slot, kind, a, bb, gain, nper = (int(v) for v in rows[r, :7])
        grps = [int(g) for g in rows[r, R_GRP:R_GRP + int(rows[r, R_NGRP])]]
        pers = [int(g) for g in rows[r, R_PER:R_PER + nper]]
        if kind == POINTS:
            if nper == 0:
                v = a
            else:
                # each other card adds the terms it may match; at most k - 1 other cards
                each = []
                for j in range(n):
                    hits = sum(1 for g in pers if t.grp_static[g] >> j & 1
                               and not (j == owner and t.grp_other[g]))
                    if t.hand_copy[j]:
                        hits = nper
                    if j == owner:
                        own = hits
                    else:
                        each.append(hits)
                each.sort(reverse=True)
                v = a * (sum(each[:k - 1]) + own + (gain if any_book else 0))
        elif kind in (SUM_STRENGTH, MAX_STRENGTH):
            g = grps[0]
            vals = sorted((int(t.strength[j]) for j in range(n)
                           if t.grp_static[g] >> j & 1), reverse=True)
            vals += [top_strength] * (copies + (1 if any_book else 0))
            vals.sort(reverse=True)
            v = sum(vals[:k]) if kind == SUM_STRENGTH else (vals[0] if vals else 0)
        elif kind == RUNS:
            v = _split([int(x) for x in tabs[r]], k)
        elif kind == COLLECTION:
            v = _collection_cap([int(x) for x in tabs[r]], k, t.multi)
        elif kind == CONSTANT:
            v = a
        else:  # ODD
            v = max(a * (k - 1), bb)
        key = (owner, slot)
        best_slot[key] = max(best_slot.get(key, 0), v)
    for (owner, _), v in best_slot.items():
        out[owner] += v
    for i in range(n):
        out[i] += top_strength if t.hand_copy[i] else int(t.strength[i])
    return out


def _split(pay: Sequence[int], k: int) -> int:
    """The most ``k`` cards pay split into groups (runs, or suits)."""
    return fx.best_splits(pay.__getitem__, k)[k]


def _collection_cap(pay: Sequence[int], k: int, multi: Sequence[set[tuple[int, str]]]) -> int:
    """The most a collection pays in a hand of ``k`` cards: the cards split among suits,
    and a card that may show several suits at once (the promo Phoenix, or a copy of it)
    counts in each of them. ``multi``: per card, the (suits, name) faces it may show with
    several suits; cards of one name count once in a suit (R10), so at most one card per
    such name adds to those suits."""
    able = [m for m in multi if m]
    if not able:
        return _split(pay, k)
    masks = {mask for m in able for mask, _ in m}
    if len(masks) > 1:  # several different sets: count each extra suit as a card of its own
        extra = sum(max(bin(x).count("1") for x, _ in m) - 1 for m in able)
        return _split(pay, min(k + extra, TABLE - 1))
    names = {name for m in able for _, name in m}
    wide = bin(masks.pop()).count("1")

    def joins(base: int, left: int, groups: int) -> int:
        """``groups`` suits already holding ``base`` cards, ``left`` cards to place."""
        if groups == 0:
            return _split(pay, left)
        return max(pay[min(base + g, TABLE - 1)] + joins(base, left - g, groups - 1)
                   for g in range(left + 1))

    # t cards show the several suits; the others join those suits or split the rest
    return max(joins(t, k - t, wide) for t in range(min(len(able), len(names), k) + 1))


@dataclass
class _Part:
    """One sweep: the hands of ``k`` free cards added to ``forced``."""

    b: Bounds
    free: np.ndarray
    k: int
    forced: int
    cap: np.ndarray
    fits: int
    need_fit: int
    limit: int


def _run_part(job: tuple[_Part, int, int, int]) -> tuple[np.ndarray, int]:
    """The hands of one part whose first two cards are given (compiled code, no GIL)."""
    part, first, second, threshold = job
    out = np.zeros((part.limit, 2), dtype=np.int64)
    n = _sweep_from(np.int64(first), np.int64(second), part.free, len(part.free), part.k,
                    np.int64(part.forced), threshold, part.cap, np.int64(part.fits),
                    part.need_fit, *part.b.args, out, part.limit)
    return out, int(n)


@dataclass
class Sweep:
    """What a proof found: candidates (mask, bound), best bound first, and the work done."""

    candidates: list[tuple[int, int]]
    seconds: float
    complete: bool


def sweep(b: Bounds, required: Sequence[Card], forbidden: Sequence[Card], size: int,
          threshold: int, limit: int = 20000, workers: int = 2,
          deadline: float | None = None,
          improve: Callable[[list[tuple[int, int]]], int] | None = None) -> Sweep:
    """Every legal hand (``size`` cards, plus an extra card with each extra-card effect)
    holding ``required`` and none of ``forbidden`` whose bound beats ``threshold``.

    The work is split by the first two cards taken, and the parts run most promising
    first (by the bound of their first two cards). As each part ends ``improve`` (if
    given) receives its sets, best bound first, and returns the threshold for the parts
    not yet started: a caller that scores them raises it as it finds better hands, and the
    rest of the sweep prunes harder. Past ``deadline`` (a ``perf_counter`` time) no new
    part starts, and the sweep is marked incomplete."""
    t0 = time.perf_counter()
    cards = b.cards
    req = b.mask(required)
    banned = b.mask(forbidden)
    givers = [i for i, c in enumerate(cards) if c.extra is not None and not banned >> i & 1]
    if len(givers) > 1:
        raise Unsupported("the sweep handles one extra-card effect per hand")
    runs = [(req, size, 0, 0)]
    for g in givers:
        fits = b.mask([c for c in cards if cards[g].may_take_extra(c)])
        runs.append((req | (1 << g), size + 1, fits, 1))
    found: list[tuple[int, int]] = []
    complete = True
    parts: list[_Part] = []
    tasks: list[tuple[int, int, int, int]] = []  # (promise, part, first, second)
    for forced, total, fits, need_fit in runs:
        k = total - bin(forced).count("1")
        free = [i for i in range(len(cards)) if not (forced | banned) >> i & 1]
        if k < 0 or len(free) < k:
            continue
        if k == 0:
            v = int(_hand_bound(np.int64(forced), *b.args))
            if v > threshold and (not need_fit or forced & fits):
                found.append((forced, v))
            continue
        cap = caps(b, total)
        free.sort(key=lambda i: (-cap[i], i))
        free_arr = np.array(free, dtype=np.int64)
        part = _Part(b, free_arr, k, forced, cap, fits, need_fit, limit)
        parts.append(part)
        suffix = [0] * (len(free) + 1)
        for i in range(len(free) - 1, -1, -1):
            suffix[i] = suffix[i + 1] | (1 << free[i])
        pairs = [(f, -1) for f in range(len(free))] if k == 1 else [
            (f, g) for f in range(len(free)) for g in range(f + 1, len(free))
            if g + k - 1 <= len(free)]
        for f, g in pairs:
            hand = forced | (1 << free[f]) | ((1 << free[g]) if g >= 0 else 0)
            last = g if g >= 0 else f
            left = k - (2 if g >= 0 else 1)
            promise = int(_node_bound(np.int64(hand), np.int64(suffix[last + 1]), left,
                                      *b.args)) if left > 0 else 1 << 40
            tasks.append((promise, len(parts) - 1, f, g))
    tasks.sort(key=lambda t: (-t[0], t[1], t[2], t[3]))
    if improve is not None and found:
        found.sort(key=lambda mb: -mb[1])
        threshold = max(threshold, improve(list(found)))
    if deadline is not None and time.perf_counter() > deadline:
        complete = False
        tasks = []
    # every part is queued at once, most promising first; each reads the threshold when it
    # starts, so the hands scored meanwhile make the later parts quicker
    bar = [threshold]

    def run(task: tuple[int, int, int, int]) -> tuple[np.ndarray | None, int]:
        promise, p, f, g = task
        if promise <= bar[0]:
            return None, 0
        if deadline is not None and time.perf_counter() > deadline:
            return None, -2
        return _run_part((parts[p], f, g, bar[0]))

    with ThreadPoolExecutor(max_workers=workers) as pool:
        for fut in as_completed([pool.submit(run, t) for t in tasks]):
            out, n = fut.result()
            if n == -2:
                complete = False
                continue
            if n < 0:
                complete = False
                n = limit
            if not n or out is None:
                continue
            new = sorted(((int(out[r, 0]), int(out[r, 1])) for r in range(n)),
                         key=lambda mb: -mb[1])
            found.extend(new)
            if improve is not None:
                bar[0] = max(bar[0], improve(new))
    found.sort(key=lambda mb: -mb[1])
    return Sweep(found, time.perf_counter() - t0, complete)
