"""Which search answers ``best`` soonest: the expected cost of each, read off the pool.

Enumeration scores every subset of a hand's size, each with every option of its open choices
(a copy's targets, Book of Changes' card and suit, Island's and Angel's card) and every extra
card Necromancer may take. Its work is the number of hands it scores, which this module
computes from the pool as a sum over subsets of the product of each card's option count (an
elementary symmetric polynomial: no subset is listed). A hand costs far less compiled than
in Python, and more in Python where Book of Changes is in the pool (without that factor,
such pools went to Python where the compiled code answers sooner, numpy's import included).
The pruned enumeration
(:mod:`.batch.pruned`) bounds every subset first and scores only
those that may reach the best: a share of the work (:data:`PRUNED_SHARE`), and a subset
holding several choice cards is the costly kind it saves most of. CP-SAT's time grows with
each card past 12, several times over with Book of Changes, and with each other open
choice. Loading counts once per process: Numba's cached code (far longer the first time it
is compiled; shorter for the command line where ``fr-score compile`` built its module ahead
of time, numpy included), the sweep's bound for the pruned enumeration and OR-Tools. The
constants below hold these costs; how they were estimated is in ``docs/performance.md``.
Both compiled forms run without the GIL, two threads sharing an enumeration. The cheapest
expected total wins; every search gives the same hands, so the choice changes only the time.

The figures are rough (``benchmarks/solve.py`` prints the real ones): they only need to keep
each pool away from a search that would take far longer than another.
"""

from __future__ import annotations

import glob
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from .. import effects as fx
from ..catalog import Card, Catalog
from ..hand import ChoiceValue
from .relevance import card_terms

#: Seconds per hand scored, and per subset listed (the work around its hands); Python's hands
#: cost PYTHON_BOOK times as much with Book of Changes open (see the module docstring).
COMPILED_HAND, COMPILED_SUBSET = 0.2e-6, 1e-6
PYTHON_HAND, PYTHON_SUBSET, PYTHON_BOOK = 80e-6, 40e-6, 1.6
#: Seconds to load the compiled code from the cache, or to compile it the first time; to
#: load the module built ahead of time instead (the command line), and numpy before it
#: where this process has not imported it yet (numpy's import is most of it; nothing else on
#: the command line's way to a search imports numpy, so a small pool scored in Python never
#: pays for it).
NUMBA_LOAD, NUMBA_COMPILE = 0.45, 60.0
AOT_LOAD, NUMPY_LOAD = 0.01, 0.11
#: (The enumeration's figures are of two threads sharing it: Numba's code and the module
#: built ahead of time both run without the GIL.)
#: The pruned enumeration: seconds per call and per subset bounded, the share of the
#: compiled enumeration's work it keeps, and the seconds to load (or compile) its bound.
PRUNED_CALL, PRUNED_SUBSET, PRUNED_SHARE = 0.5e-3, 2.5e-6, 0.3
SWEEP_LOAD, SWEEP_COMPILE = 0.06, 15.0
#: Seconds to import OR-Tools; CP-SAT on 12 cards, its growth per further card, and the
#: factor Book of Changes (or each other open choice) brings.
ORTOOLS_LOAD = 0.6
CPSAT_BASE, CPSAT_GROWTH, CPSAT_BOOK, CPSAT_CHOICE = 0.03, 1.4, 8.0, 1.6


@dataclass(frozen=True)
class Costs:
    """Expected seconds of each search for one pool (None: the search cannot take it)."""

    hands: float  # hands the enumeration scores
    subsets: int
    compiled: float | None
    python: float
    cpsat: float | None
    pruned: float | None = None

    def best(self) -> str:
        """``"compiled"``, ``"pruned"``, ``"python"`` or ``"cpsat"``: the cheapest."""
        options = {"python": self.python, "compiled": self.compiled, "cpsat": self.cpsat,
                   "pruned": self.pruned}
        return min((cost, name) for name, cost in options.items() if cost is not None)[1]


def options(card: Card, pool: Sequence[Card], catalog: Catalog, size: int,
            pinned: dict[str, ChoiceValue], named: set[str]) -> float:
    """About how many values the enumeration tries for this card's open choice (1: none)."""
    eff = card.choice
    if eff is None or card.id in pinned:
        return 1.0
    if isinstance(eff, fx.Copy):
        if eff.source == "hand":
            return float(size)
        keys = {(t.name if t.name in named else "", t.copy_suits)
                for t in catalog.copy_targets(eff)}
        return len(keys) + 1.0
    if isinstance(eff, fx.ChangeSuit):
        mentioned = 0
        for c in pool:
            for t in card_terms(c):
                mentioned |= t.suits | t.except_suits
        classes = min(len(catalog.suits), bin(mentioned).count("1") + 1)
        return (size - 1) * classes * 0.6 + 1.0  # a class in the pool may merge in a hand
    return min(float(size), 4.0)  # Island, Angel: the cards with a penalty, or every card


def hands_scored(weights: Sequence[float], size: int) -> float:
    """The sum over the subsets of ``size`` cards of the product of their weights."""
    e = [1.0] + [0.0] * size
    for w in weights:
        for k in range(size, 0, -1):
            e[k] += e[k - 1] * w
    return e[size]


def _compiled_load() -> float:
    """Seconds before the compiled enumeration can start in this process: none when it is
    loaded, the module built ahead of time where this process uses it (:mod:`.batch.aot`),
    else Numba's cached code (or its compile)."""
    from .batch import aot

    if aot.loaded():
        return 0.0
    if aot.usable():
        return AOT_LOAD + (0.0 if "numpy" in sys.modules else NUMPY_LOAD)
    return _numba_load()


def _numba_load() -> float:
    """Seconds before Numba's compiled enumeration can start in this process."""
    search = sys.modules.get("fantasy_scorer.realms.solve.batch.search")
    if search is not None and search.subsets_batch.overloads:
        return 0.0
    from .batch.cache import cache_dir

    cached = glob.glob(os.path.join(cache_dir(), "search.subsets_batch-*.nbi"))
    return NUMBA_LOAD if cached else NUMBA_COMPILE


def compiled_ready() -> bool:
    """Whether the compiled enumeration is loaded or cached on this machine (not still to
    be compiled)."""
    return _compiled_load() < NUMBA_COMPILE


def _sweep_load() -> float:
    """Seconds before the pruned enumeration's bound can start in this process (after the
    compiled enumeration's own load): its cached code is in the folder of this version of the
    compiled sources (``batch/cache.py``), or it is still to be compiled."""
    kernel = sys.modules.get("fantasy_scorer.realms.solve.sweep_kernel")
    if kernel is not None and kernel.subset_bounds.overloads:
        return 0.0
    from .batch.cache import cache_dir

    cached = glob.glob(os.path.join(cache_dir(), "sweep_kernel.subset_bounds-*.nbi"))
    return SWEEP_LOAD if cached else SWEEP_COMPILE


def costs(pool: Sequence[Card], catalog: Catalog, discard: Sequence[Card] = (),
          pinned: dict[str, ChoiceValue] | None = None, compiled_ok: bool = True,
          cpsat_ok: bool = True, pruned_ok: bool = True) -> Costs:
    """The expected seconds of each search on this pool (see the module docstring)."""
    from math import comb

    pinned = pinned or {}
    size = min(catalog.hand_size, len(pool))
    named = {n for c in pool for t in card_terms(c) for n in t.names | t.except_names}
    weights = []
    for c in pool:
        w = options(c, pool, catalog, size, pinned, named)
        if c.extra is not None and discard:
            w *= 1 + sum(1 for d in discard if d.suits & c.extra.suits)
        weights.append(w)
    hands = hands_scored(weights, size)
    subsets = comb(len(pool), size)
    compiled = pruned = None
    work = hands * COMPILED_HAND + subsets * COMPILED_SUBSET
    if compiled_ok:
        load = _compiled_load()
        compiled = load + work
        if pruned_ok:  # the sweep's bound is Numba's code, whichever scores the subsets
            pruned = (max(load, _numba_load()) + _sweep_load() + PRUNED_CALL
                      + subsets * PRUNED_SUBSET + PRUNED_SHARE * work)
    book = any(isinstance(c.choice, fx.ChangeSuit) and c.id not in pinned for c in pool)
    python = hands * PYTHON_HAND * (PYTHON_BOOK if book else 1.0) + subsets * PYTHON_SUBSET
    cpsat = None
    if cpsat_ok:
        open_choices = [c for c in pool if c.choice is not None and c.id not in pinned]
        factor = 1.0
        for c in open_choices:
            factor *= CPSAT_BOOK if isinstance(c.choice, fx.ChangeSuit) else CPSAT_CHOICE
        load = 0.0 if "ortools" in sys.modules else ORTOOLS_LOAD
        cpsat = load + CPSAT_BASE * CPSAT_GROWTH ** max(0, len(pool) - 12) * factor
    return Costs(hands, subsets, compiled, python, cpsat, pruned)
