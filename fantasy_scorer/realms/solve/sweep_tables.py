"""The cards as integer tables for the compiled bound of ``fr-score max`` (see ``sweep.py``).

Every point effect compiles, by one compiler per effect class (:data:`COMPILERS`), into a
*row*: its kind, its numbers and the *groups* (selectors) it counts. A group is a row of
the ``match`` matrix: the cards that may be selected by it, allowing for everything a card
may become (a copy from the game any of its faces, a copy from the hand any card). Rules the
bound may ignore are ignored here once, so the compiled code never sees them:

* penalties, blanking and clearing (a penalty never adds points; a blanked card scores 0,
  and the bound of each card is never below 0; Angel, Demon, Lich and immunity only decide
  who is blanked);
* ``unless`` and ``except`` (counted as met, as not excluding);
* the table: a bonus on the discard area counts the whole area given (nothing without
  one), a bonus per player counts the most players allowed, and a condition on the players
  or the Cursed Items held is decided here.

An effect the bound cannot describe raises :class:`Unsupported`, and ``max`` says so
rather than answer wrongly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import reduce
from operator import or_

import numpy as np

from .. import effects as fx
from ..catalog import Card, Catalog
from .engine import Unsupported
from .sweep_kernel import (  # the layout lives with the compiled code (see there)
    C_AS,
    C_AXIS,
    C_BOOK,
    C_COPY,
    C_FACES,
    C_HCOPY,
    C_KEEP,
    C_NFACES,
    C_ODD,
    C_PEN,
    C_STR,
    C_SUITS,
    C_UNCH,
    CARD,
    COLLECTION,
    CONSTANT,
    DISTINCT,
    EXACTLY,
    MAX_AXIS,
    MAX_FACES,
    MAX_GATES,
    MAX_STRENGTH,
    MAX_TERMS,
    ODD,
    PER_PENALTY,
    POINTS,
    R_G,
    R_KIND,
    R_NG,
    R_NT,
    R_OWNER,
    R_SEL,
    R_T,
    ROW,
    RUNS,
    S_BLANKER,
    S_COLS,
    S_COPY,
    S_LOOP,
    S_ONLY,
    S_PRINTED,
    S_SELF,
    S_TWIN,
    SUM_STRENGTH,
    TABLE,
)


@dataclass(frozen=True)
class SweepTable:
    """What the bound takes from the table around the hand."""

    discard: tuple[Card, ...] | None = None  # None: an empty discard area
    players: int | None = None  # None: any number from 2 to 6
    cursed: int = 0  # Cursed Items held beside the hand


@dataclass
class SweepTables:
    """The cards (by index) and their bonuses as integer arrays, ready for compiled code."""

    cards: list[Card]
    card: np.ndarray  # [n, CARD]
    match: np.ndarray  # [groups, n]: 1 where the card may be selected by the group
    gsuit: np.ndarray  # [groups]: the group names a suit (Book of Changes may meet it)
    gother: np.ndarray  # [groups]: the group never counts the card holding the effect
    rows: np.ndarray  # [rows, ROW], by owner
    tabs: np.ndarray  # [rows, TABLE]: pay tables of collections and runs
    splits: np.ndarray  # [rows, TABLE]: the most m cards pay split into groups
    rstart: np.ndarray  # [n + 1]: the rows of card i are rstart[i]:rstart[i + 1]
    mem: np.ndarray  # the cards that may add to row r: mem[mstart[r]:mstart[r + 1]]
    mstart: np.ndarray
    chg: np.ndarray  # [groups, n, suits]: 1 where the group selects card i changed to a suit
    selfm: np.ndarray  # [groups, n]: 1 where the group selects card i as printed
    names: np.ndarray  # [names, 2 + n]: names of several suits: suits, count, who may show it
    holders: np.ndarray  # [names, n]: the card printed with that name
    n_suits: int
    n_axis: int
    blank: np.ndarray  # [n, n]: where card b's blanking hits card y (bits: y's suits)
    meddle: np.ndarray  # [n, n]: where card x may stop card b's blanking (bits: b's suits)
    sure: np.ndarray  # [n, S_COLS]: what the sure blanking reads of each card (see there)

    @property
    def T(self) -> tuple:
        """The arrays as the compiled functions take them (one tuple, in the order of
        ``sweep_kernel``'s positions ``T_CARD`` … ``T_SURE``)."""
        return (self.card, self.match, self.gsuit, self.gother, self.rows, self.tabs,
                self.splits, self.rstart, self.mem, self.mstart, self.names, self.holders,
                self.n_suits, self.n_axis, self.chg, self.selfm, self.blank, self.meddle,
                self.sure)


@dataclass(frozen=True, eq=False)
class _Shown:
    """A card as it may stand in a hand, for the selectors of blanking and clearing: its
    name and strength, with the suits it shows (``Compiler._blanking``)."""

    card: Card
    suits: int

    @property
    def name(self) -> str:
        return self.card.name

    @property
    def strength(self) -> int:
        return self.card.strength


def _states(c: Card, n_suits: int) -> list[_Shown]:
    """The card as printed, then changed by Book of Changes to each suit (R3, R17)."""
    return [_Shown(c, c.suits)] + [_Shown(c, (1 << k) | c.kept_on_change)
                                   for k in range(n_suits)]


def _mask(states: Sequence[_Shown], test: Callable[[_Shown], bool]) -> int:
    """Bit k set where ``test`` holds of states[k]."""
    return sum(1 << k for k, h in enumerate(states) if test(h))


def _selects(terms: Sequence[fx.Term], card: object, source: object) -> bool:
    return any(t.matches(card, source) for t in terms)  # type: ignore[arg-type]


def _may_stop(x: Card, words: int, h: _Shown) -> bool:
    """Whether card x may keep a blanking from applying, its card standing as h: by
    clearing that card's penalty (wholly, by a choice as Island's, or one of the suit
    ``words`` its blanking reads, R6) or by blanking it."""
    one = x.choice.targets if isinstance(x.choice, fx.ClearOne) else ()
    return any(e.hits(h, x) for e in x.clears) or _selects(one, h, x) \
        or any(e.hits(h, x) and e.suits & words for e in x.clears_word) \
        or any(e.hits(h, x) for e in x.penalty.blanks)


def _several(c: Card) -> bool:
    return bin(c.copy_suits).count("1") > 1


class Compiler:
    """Turns cards into :class:`SweepTables` (see the module docstring)."""

    def __init__(self, catalog: Catalog, cards: Sequence[Card], table: SweepTable) -> None:
        self.cat = catalog
        self.cards = list(cards)
        self.table = table
        self.faces: dict[int, list[Card]] = {}
        self.hcopy: list[int] = []
        for i, c in enumerate(self.cards):
            ch = c.choice
            if isinstance(ch, fx.Copy):
                if ch.source == "hand":
                    if set(ch.takes) - {"name", "suit", "strength", "penalty"}:
                        raise Unsupported(f"the sweep does not model {c.name}'s copy")
                    self.hcopy.append(i)
                elif "strength" in ch.takes:
                    raise Unsupported(f"the sweep does not model {c.name}'s copy")
                else:
                    self.faces[i] = catalog.copy_targets(ch)
            elif ch is not None and not isinstance(ch, (fx.ChangeSuit, fx.ClearOne,
                                                        fx.Protect)):
                raise Unsupported(f"the sweep does not model {c.name}'s choice")
            if c.cursed:
                raise Unsupported(f"{c.name} is a Cursed Item, held beside the hand")
            if any(e.points > 0 for e in _points_of(c.penalty.points)):
                raise Unsupported(f"the sweep does not model {c.name}'s penalty")
        self.groups: list[list[int]] = []
        self._terms: list[tuple[fx.Term, ...]] = []
        self.gsuit: list[int] = []
        self.gother: list[int] = []
        self._index: dict[tuple, int] = {}
        self.rows: list[list[int]] = []
        self.tabs: list[list[int]] = []

    # -- groups -------------------------------------------------------------------------------
    @staticmethod
    def _selects(t: fx.Term, suits: int, name: str) -> bool:
        return bool(t.any or suits & t.suits or name in t.names)

    def group(self, terms: Sequence[fx.Term]) -> int:
        """A selector (any of ``terms``) as a row of ``match``: the cards whose printed face
        or one of whose faces it selects (a copy from the hand matches what a card held
        matches: the compiled code decides). ``except`` is ignored: a widening."""
        key = tuple(terms)
        g = self._index.get(key)
        if g is not None:
            return g
        printed = [any(self._selects(t, c.suits, c.name) for t in terms) for c in self.cards]
        row = []
        for i in range(len(self.cards)):
            hit = printed[i] or any(any(self._selects(t, f.copy_suits, f.name) for t in terms)
                                    for f in self.faces.get(i, ()))
            row.append(int(hit))  # a copy from the hand: by the compiled code (prep)
        g = len(self.groups)
        self.groups.append(row)
        self._terms.append(tuple(terms))
        self.gsuit.append(int(any(t.suits or t.any for t in terms)))
        self.gother.append(int(all(t.other for t in terms)))
        self._index[key] = g
        return g

    # -- rows ---------------------------------------------------------------------------------
    def row(self, owner: int, slot: int, kind: int, a: int = 0, b: int = 0, sel: int = -1,
            terms: Sequence[tuple[int, int]] = (), gates: Sequence[int] = (), gain: int = 0,
            table: Sequence[int] = ()) -> None:
        if len(terms) > MAX_TERMS or len(gates) > MAX_GATES:
            raise Unsupported(f"an effect of {self.cards[owner].name} has too many terms")
        r = [owner, slot, kind, a, b, sel, gain, len(terms)]
        for g, first in terms:
            r += [g, first]
        r += [-1, 0] * (MAX_TERMS - len(terms))
        r += [len(gates)] + list(gates) + [-1] * (MAX_GATES - len(gates))
        self.rows.append(r)
        self.tabs.append(list(table)[:TABLE] + [0] * max(0, TABLE - len(table)))

    def effect(self, eff: object, owner: int, slot: int) -> None:
        compiler = COMPILERS.get(type(eff))
        if compiler is None:
            raise Unsupported(f"the sweep does not model {type(eff).__name__} "
                              f"({self.cards[owner].name})")
        compiler(self, eff, owner, slot)

    # -- cards --------------------------------------------------------------------------------
    def _axis(self) -> tuple[dict[int, int], int]:
        """Strengths on an axis with one empty position wherever two strengths held are not
        consecutive, so that runs are consecutive positions."""
        values = sorted({c.strength for c in self.cards} | {0})
        pos: dict[int, int] = {}
        p = 0
        for k, v in enumerate(values):
            if k and v != values[k - 1] + 1:
                p += 1  # a gap
            pos[v] = p
            p += 1
        if p > MAX_AXIS:
            raise Unsupported("the sweep handles at most 62 different strengths")
        return pos, p

    def _names(self) -> list[tuple[str, int]]:
        """Names shown with several suits at once: a card printed with several (the
        Phoenixes, in hand) and a copy's face of several (a copy of the promo Phoenix): a
        collection counts each name once per suit (R10)."""
        printed = {(c.name, c.suits) for c in self.cards if bin(c.suits).count("1") > 1}
        faces = {(f.name, f.copy_suits) for fs in self.faces.values() for f in fs
                 if _several(f)}
        return sorted(printed | faces)

    def compile(self) -> SweepTables:
        n = len(self.cards)
        axis, n_axis = self._axis()
        several = self._names()
        ids = {name: k for k, (name, _) in enumerate(several)}
        card = np.zeros((n, CARD), dtype=np.int64)
        card[:, C_AS] = -1  # (no copy's identity fixed)
        for i, c in enumerate(self.cards):
            card[i, C_STR] = c.strength
            if i in self.hcopy:  # 2: it takes the strength of the card it copies
                card[i, C_HCOPY] = 1 + int("strength" in c.choice.takes)  # type: ignore
            card[i, C_BOOK] = int(isinstance(c.choice, fx.ChangeSuit))
            card[i, C_ODD] = int(i in self.hcopy or c.strength % 2 == 1)
            # a copy that takes a penalty (from the hand, or from the game: a homebrew
            # copy) may hold one, which a bonus per penalty (Judge) counts
            copies_penalty = (i in self.hcopy or i in self.faces) \
                and "penalty" in c.choice.takes  # type: ignore[union-attr]
            card[i, C_PEN] = int(bool(c.penalty) or copies_penalty)
            card[i, C_AXIS] = axis[c.strength]
            card[i, C_SUITS] = c.suits
            card[i, C_UNCH] = int(c.unchangeable)
            card[i, C_KEEP] = c.kept_on_change
            card[i, C_COPY] = c.copy_suits
            if i in self.faces:
                shown = sorted({(f.copy_suits, ids.get(f.name, -1))
                                for f in [c, *self.faces[i]]})
                if len(shown) > MAX_FACES:
                    raise Unsupported(f"{c.name} may show too many sets of suits")
                card[i, C_NFACES] = len(shown)
                for q, (mask, name) in enumerate(shown):
                    card[i, C_FACES + q] = mask
                    card[i, C_FACES + MAX_FACES + q] = name
        names = np.zeros((len(several), 2 + n), dtype=np.int64)
        holders = np.zeros((len(several), n), dtype=np.int64)
        for k, (name, suits) in enumerate(several):
            names[k, 0] = suits
            names[k, 1] = bin(suits).count("1")
            for i, c in enumerate(self.cards):
                shows = card[i, C_FACES + MAX_FACES:C_FACES + MAX_FACES + card[i, C_NFACES]]
                if (c.name == name and c.suits == suits) or k in shows:
                    names[k, 2 + i] = 1
                holders[k, i] = int(c.name == name)
        slot = 0
        for i, c in enumerate(self.cards):
            for eff in c.bonus:
                self.effect(eff, i, slot)
                slot += 1
        if not self.groups:
            self.group([fx.Term("", any=True)])
        rows = np.array(self.rows, dtype=np.int64).reshape(len(self.rows), ROW)
        tabs = np.array(self.tabs, dtype=np.int64).reshape(len(self.rows), TABLE)
        splits = np.array([fx.best_splits(lambda m, t=t: int(t[m]), TABLE - 1) for t in tabs],
                          dtype=np.int64).reshape(tabs.shape)
        rstart = np.zeros(n + 1, dtype=np.int64)
        for i in range(n):
            rstart[i + 1] = rstart[i] + int((rows[:, R_OWNER] == i).sum()) if len(rows) else 0
        match = np.array(self.groups, dtype=np.int64)
        members = [self._members(row, match, card) for row in rows]
        mstart = np.cumsum([0] + [len(x) for x in members]).astype(np.int64)
        mem = np.array([i for x in members for i in x], dtype=np.int64)
        return SweepTables(self.cards, card, match, np.array(self.gsuit, dtype=np.int64),
                      np.array(self.gother, dtype=np.int64), rows, tabs, splits, rstart, mem,
                      mstart, self._changed(), self._printed(), names, holders,
                      len(self.cat.suits), n_axis, *self._blanking())

    def _blanking(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """What tells a sure blanking (``sweep_kernel.sure_blanked``). A card b whose
        blanking hits a card y surely blanks y in a hand where nothing may keep it from
        doing so: no card there may blank b or clear its penalty (wholly, by a choice as
        Island's, or a suit word its blanking reads), protect a card, make cards immune or
        blank the lonely ones. Each of the three tables is read for the card as printed
        (bit 0) and changed by Book of Changes to suit s (bit s + 1, R3, R17): ``blank[b,
        y]`` by y's suits, ``meddle[x, b]`` by b's. A blanker with a condition on itself is
        not counted on; one its own blanking hits is blanked (``S_LOOP``, R8 b). ``blank``
        holds the rules that do not depend on the rest of the hand: immunity (C2), blanking
        only by some cards (C7, read with b as printed) and never blanking others (C8)."""
        n, S = len(self.cards), len(self.cat.suits)
        blank = np.zeros((n, n), dtype=np.int64)
        meddle = np.zeros((n, n), dtype=np.int64)
        sure = np.zeros((n, S_COLS), dtype=np.int64)
        copies = set(self.hcopy) | set(self.faces)
        states = [_states(c, S) for c in self.cards]
        for i, c in enumerate(self.cards):
            sure[i, S_PRINTED] = c.suits
            sure[i, S_ONLY] = int(bool(c.blanked_only_by))
            if i in self.hcopy:
                sure[i, S_COPY] = 1
            elif i in self.faces:  # a homebrew copy from the game may take a penalty
                sure[i, S_COPY] = 3 if "penalty" in c.choice.takes else 2  # type: ignore
            terms = tuple(t for e in c.penalty.blanks for t in e.targets)
            if not terms:
                continue
            # where a copy of its penalty (another card: a copy from the hand) would blank
            # it, and where its own does
            sure[i, S_SELF] = _mask(states[i], lambda h, terms=terms: _selects(terms, h, None))
            sure[i, S_LOOP] = _mask(states[i], lambda h, terms=terms: _selects(terms, h, h))
            if c.penalty.conditions or c.penalty.lonely or i in copies or c.never_blanks_others:
                continue
            for j, y in enumerate(self.cards):
                only = y.blanked_only_by
                if j != i and j not in copies and not y.immune and \
                        (not only or _selects(only, c, None)):
                    blank[i, j] = _mask(states[j],
                                        lambda h, terms=terms, c=c: _selects(terms, h, c))
            sure[i, S_BLANKER] = int(blank[i].any())
            # a copy from the hand of it (its name, strength and suits) is another card
            # its blanking hits, and that copy's blanks it (R1; S_SELF as printed), not for
            # a card blanked by some cards only, an immune one or a Phoenix (C7, C2, R16)
            sure[i, S_TWIN] = int(bool(sure[i, S_BLANKER]) and c.copy_suits == c.suits
                                  and not c.immune and not c.blanked_only_by
                                  and bool(sure[i, S_SELF] & 1))
        blankers = {b: reduce(or_, (t.suits for e in d.penalty.blanks for t in e.targets), 0)
                    for b, d in enumerate(self.cards) if sure[b, S_BLANKER]}
        for x, c in enumerate(self.cards):
            every = isinstance(c.choice, fx.Protect) or bool(
                c.grants_immunity or c.penalty.lonely or c.immune)
            if not (every or c.clears or c.clears_word or c.penalty.blanks
                    or isinstance(c.choice, fx.ClearOne)):
                continue  # it can stop no blanking
            for b, words in blankers.items():
                if x != b:
                    meddle[x, b] = -1 if every else _mask(
                        states[b], lambda h, c=c, words=words: _may_stop(c, words, h))
        return blank, meddle, sure

    def _printed(self) -> np.ndarray:
        out = np.zeros((max(len(self._terms), 1), len(self.cards)), dtype=np.int64)
        for g, terms in enumerate(self._terms):
            for i, c in enumerate(self.cards):
                out[g, i] = int(any(self._selects(t, c.suits, c.name) for t in terms))
        return out

    def _changed(self) -> np.ndarray:
        """chg[g, i, s]: group g selects card i when Book of Changes has changed it to suit
        s (it keeps its name, or a copy any name it may take, and the suits a change leaves,
        R17)."""
        n, S = len(self.cards), len(self.cat.suits)
        G = max(len(self._terms), 1)
        shown = np.array([[(1 << s) | c.kept_on_change for s in range(S)] for c in self.cards],
                         dtype=np.int64).reshape(n, S)
        suits = np.zeros(G, dtype=np.int64)
        named = np.zeros((G, n), dtype=bool)
        for g, terms in enumerate(self._terms):
            names: set[str] = set()
            for t in terms:
                suits[g] |= -1 if t.any else t.suits
                names |= set(t.names)
            if names:
                named[g] = [c.name in names or any(f.name in names
                                                   for f in self.faces.get(i, ()))
                            for i, c in enumerate(self.cards)]
        out = (shown[None, :, :] & suits[:, None, None]) != 0
        return (out | named[:, :, None]).astype(np.int64)

    @staticmethod
    def _members(row: np.ndarray, match: np.ndarray, card: np.ndarray) -> list[int]:
        """The cards whose marginal for this row may not be 0 (the compiled code looks at
        no other): those its groups may select, Books of Changes, odd or penalised cards."""
        kind = int(row[R_KIND])
        n = card.shape[0]
        books = {i for i in range(n) if card[i, C_BOOK]}
        groups: list[int] = []
        if kind == POINTS:
            groups = [int(row[R_T + 2 * t]) for t in range(int(row[R_NT]))] + [
                int(row[R_G + q]) for q in range(int(row[R_NG]))]
        elif kind in (SUM_STRENGTH, EXACTLY):
            groups = [int(row[R_SEL])]
        elif kind == MAX_STRENGTH:
            groups = [int(row[R_SEL])]
            if books:  # a Book held may change any card to match
                return list(range(n))
        elif kind == ODD:
            return [i for i in range(n) if card[i, C_ODD]]
        elif kind == PER_PENALTY:
            return [i for i in range(n) if card[i, C_PEN]]
        else:
            return []
        out = set(books) | {i for i in range(n) if card[i, C_HCOPY]}
        for g in groups:
            out |= {i for i in range(n) if match[g, i]}
        return sorted(out)


def _points_of(effects: Sequence[object]) -> list[fx.Points]:
    out: list[fx.Points] = []
    for e in effects:
        if isinstance(e, fx.Points):
            out.append(e)
        elif isinstance(e, fx.BestOf):
            out += _points_of(e.options)
    return out


def _pay_table(table: Sequence[tuple[int, int]]) -> list[int]:
    return [fx.tiered(table, k) for k in range(TABLE)]


def _superadditive(pay: Sequence[int], most: int) -> bool:
    """Joining two runs with one more card never pays less, in hands of at most ``most``
    cards (a copy's strength may join two runs or repeat another's)."""
    return all(pay[a + b + 1] >= pay[a] + pay[b] for a in range(most) for b in range(most - a))


# -- one compiler per effect class ------------------------------------------------------------

def _c_points(comp: Compiler, eff: fx.Points, owner: int, slot: int) -> None:
    cond = eff.condition
    t = comp.table
    if cond.players is not None and t.players is not None and t.players != cond.players:
        return  # a bonus of another table size
    if cond.other_cursed is not None and t.cursed - 1 < cond.other_cursed:
        return
    gates = ([comp.group(cond.with_any)] if cond.with_any else []) + [
        comp.group(g) for g in cond.with_all]
    a = eff.points
    if eff.in_discard:  # the area given (a card taken from it only lowers this)
        area = t.discard or ()
        n = sum(1 for term in eff.per for c in area
                if term.matches(c.in_discard(), None))
        if a * n > 0:
            comp.row(owner, slot, POINTS, a * n, gates=gates)
        return
    if not eff.per:
        if a > 0:
            comp.row(owner, slot, POINTS, a, gates=gates)
        return
    first = a if eff.first is None else eff.first
    if max(a, first) <= 0:
        return
    terms = [(comp.group([term]), first) for term in eff.per]
    # Book of Changes gives one card any suit: the most one card of one suit adds
    gain = max((sum(max(first, a, 0) for term in eff.per if term.any or term.suits >> s & 1)
                for s in range(len(comp.cat.suits))), default=0)
    comp.row(owner, slot, POINTS, a, terms=terms, gates=gates, gain=gain)


def _c_best_of(comp: Compiler, eff: fx.BestOf, owner: int, slot: int) -> None:
    if any(isinstance(o, (fx.Collection, fx.Runs, fx.BestOf)) for o in eff.options):
        raise Unsupported(f"the sweep does not model {comp.cards[owner].name}'s options")
    for o in eff.options:  # the same slot: the card gets the largest
        comp.effect(o, owner, slot)


def _c_sum_strength(comp: Compiler, eff: fx.SumStrength, owner: int, slot: int) -> None:
    comp.row(owner, slot, SUM_STRENGTH, sel=comp.group(eff.terms))


def _c_max_strength(comp: Compiler, eff: fx.MaxStrength, owner: int, slot: int) -> None:
    comp.row(owner, slot, MAX_STRENGTH, sel=comp.group(eff.terms))


def _c_collection(comp: Compiler, eff: fx.Collection, owner: int, slot: int) -> None:
    pay = _pay_table(eff.table)
    if any(pay[k + 1] < pay[k] for k in range(TABLE - 1)):
        raise Unsupported(f"{comp.cards[owner].name}: a collection that pays less for more")
    comp.row(owner, slot, COLLECTION, table=pay)


def _c_runs(comp: Compiler, eff: fx.Runs, owner: int, slot: int) -> None:
    pay = _pay_table(eff.table)
    most = (comp.cat.max_hand or comp.cat.hand_size + 1) - 1
    if not _superadditive(pay, most) or any(pay[k + 1] < pay[k] for k in range(TABLE - 1)):
        raise Unsupported(f"{comp.cards[owner].name}: a run table the sweep cannot bound")
    comp.row(owner, slot, RUNS, table=pay)


def _c_distinct(comp: Compiler, eff: fx.DistinctSuits, owner: int, slot: int) -> None:
    if eff.points > 0:
        comp.row(owner, slot, DISTINCT, eff.points)


def _c_odd(comp: Compiler, eff: fx.OddStrength, owner: int, slot: int) -> None:
    comp.row(owner, slot, ODD, max(eff.per_other, 0), max(eff.all_odd, 0))


def _c_exactly(comp: Compiler, eff: fx.Exactly, owner: int, slot: int) -> None:
    if eff.points > 0:
        comp.row(owner, slot, EXACTLY, eff.points, eff.count, sel=comp.group(eff.terms))


def _c_per_penalty(comp: Compiler, eff: fx.PerPenalty, owner: int, slot: int) -> None:
    if eff.points > 0:
        comp.row(owner, slot, PER_PENALTY, eff.points)


def _c_per_player(comp: Compiler, eff: fx.PerPlayer, owner: int, slot: int) -> None:
    players = comp.table.players
    most = max(eff.points * ((p if players is None else players) - 1) for p in (2, 6))
    if most > 0:
        comp.row(owner, slot, CONSTANT, most)


COMPILERS: dict[type, Callable] = {
    fx.Points: _c_points,
    fx.BestOf: _c_best_of,
    fx.SumStrength: _c_sum_strength,
    fx.MaxStrength: _c_max_strength,
    fx.Collection: _c_collection,
    fx.Runs: _c_runs,
    fx.DistinctSuits: _c_distinct,
    fx.OddStrength: _c_odd,
    fx.Exactly: _c_exactly,
    fx.PerPenalty: _c_per_penalty,
    fx.PerPlayer: _c_per_player,
}


def compile_sweep_tables(catalog: Catalog, cards: Sequence[Card],
                         table: SweepTable | None = None) -> SweepTables:
    return Compiler(catalog, cards, table or SweepTable()).compile()


