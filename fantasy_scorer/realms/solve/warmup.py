"""Compiling the fast searches ahead of time (``fr-score compile``).

Numba compiles the batch scorer, ``best``'s two compiled enumerations and the advice's scorer
the first time each runs on a machine, and caches the result (``batch/cache.py``); after that
a new process loads each in a fraction of a second. ``best`` never makes a user wait for a
compile inside a search (the cost planner counts it, and takes a slower search
instead), so on a machine where nothing has compiled the code yet, a pool with several choice
cards takes seconds of Python search every time. :func:`warm_up` compiles (or, when cached,
just loads) every one of them once, on tiny inputs, so that each later search is the fast one.
Last, it builds the entry points the command line calls into a C extension (:mod:`.batch.aot`),
which a new ``fr-score`` process loads without Numba, sooner.
``fr-score max`` compiles its own sweep on its first run, with a progress bar.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..catalog import Catalog, base_catalog

#: The compiled pieces, in the order they are compiled, as (what it serves, a call that
#: loads it). Each call is tiny: its only cost is the compile, or the load from the cache.
STEPS: tuple[tuple[str, Callable[[Catalog], object]], ...]


def _score_many(cat: Catalog) -> object:
    from .batch.scorer import compiled

    scorer = compiled(cat)
    return scorer.resolve_totals([scorer.ids(cat.cards[:7])])


def _optimal(cat: Catalog) -> object:
    from .batch.scorer import compiled

    scorer = compiled(cat)
    return scorer.optimal_totals([scorer.ids(cat.cards[:7])])


def _best(method: str) -> Callable[[Catalog], object]:
    def run(cat: Catalog) -> object:
        from .api import best_hand

        return best_hand(cat.cards[:9], cat, method=method)
    return run


def _ahead_of_time(cat: Catalog) -> object:
    from .batch import aot

    return aot.current() or aot.build()


STEPS = (("scoring many hands (score_many)", _score_many),
         ("optimal choices in batch (advise, simulate)", _optimal),
         ("best: compiled enumeration", _best("compiled")),
         ("best: pruned enumeration", _best("pruned")),
         ("the command line's module, built ahead of time", _ahead_of_time))


def warm_up(catalog: Catalog | None = None,
            report: Callable[[str, float], None] | None = None,
            begin: Callable[[str], None] | None = None) -> list[tuple[str, float]]:
    """Compile (or load from the cache) every piece of :data:`STEPS`: (what, seconds) each,
    also passed to ``report`` as each one is done (``begin(what)`` as it starts: a compile
    takes a while)."""
    from .batch.aot import BuildError

    cat = catalog or base_catalog()
    done = []
    for what, step in STEPS:
        if begin is not None:
            begin(what)
        t0 = time.perf_counter()
        try:
            step(cat)
        except BuildError as e:  # an accelerator only: the command line loads Numba's code
            what = f"{what}: not built, {e} (the command line loads Numba's code instead)"
        done.append((what, time.perf_counter() - t0))
        if report is not None:
            report(*done[-1])
    return done
