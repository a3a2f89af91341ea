"""The engines of ``best``, each behind the one interface of :mod:`.engine`.

``fits`` answers without searching, but it may load what the engine runs on (numpy and the
compiled code, the sweep's bound, OR-Tools): the planner in ``api.py`` asks it only of the
engine it would pick, so a small pool scored in Python never pays for them. ``run`` refuses a
problem it does not take with :class:`~.engine.Unsupported`, and :data:`FALLS_BACK_TO` names
the engine that takes over then (the pruned enumeration's work is the compiled
enumeration's, and that is the Python enumeration's).
"""

from __future__ import annotations

from collections.abc import Callable

from .engine import COMPILED, CPSAT, PRUNED, PYTHON, Engine, Found, Problem, Unsupported
from .exhaustive import best_of_set, enumerate_best, rank_key


class PythonEnumeration:
    """Every subset of the pool, every option of its choices, scored by ``resolve``. Takes
    every problem."""

    name = PYTHON

    def fits(self, problem: Problem) -> str | None:
        return None

    def run(self, problem: Problem) -> Found:
        p = problem
        found, proven = enumerate_best(p.pool, p.catalog, p.discard, p.pinned, p.top,
                                       p.time_limit, p.table, p.progress)
        return Found(found, proven, self.name)


class _BatchEnumeration:
    """An enumeration in compiled code (``batch/``): its module is loaded when the planner
    asks whether it fits, never at import."""

    def __init__(self, name: str, load: Callable[[], tuple[Callable, Callable]],
                 refusal: str) -> None:
        self.name = name
        self._load = load  # -> (fits, best) of the engine's module
        self._refusal = refusal

    def fits(self, problem: Problem) -> str | None:
        fits, _ = self._load()
        p = problem
        return None if fits(p.pool, p.catalog, p.discard, p.table) else self._refusal

    def run(self, problem: Problem) -> Found:
        _, best = self._load()
        p = problem
        found, proven = best(p.pool, p.catalog, p.discard, p.pinned, p.top, p.time_limit,
                             p.table, p.progress)
        return Found(found, proven, self.name)


def _compiled() -> tuple[Callable, Callable]:
    from .batch.best import compiled_best, compiled_fits

    return compiled_fits, compiled_best


def _pruned() -> tuple[Callable, Callable]:
    from .batch.pruned import pruned_best, pruned_fits

    return pruned_fits, pruned_best


class CpsatSearch:
    """The CP-SAT model of the pool (``cpsat.py``), each solution scored by ``resolve``."""

    name = CPSAT

    def fits(self, problem: Problem) -> str | None:
        from .cpsat import unsupported  # OR-Tools loads only when CP-SAT is the pick

        odd = unsupported(problem.cards)
        if odd:
            return "the CP-SAT search does not model " + ", ".join(sorted(set(odd)))
        return None

    def run(self, problem: Problem) -> Found:
        from .cpsat import HandModel, search

        p = problem
        cat, size = p.catalog, p.catalog.hand_size
        position = {c.id: i for i, c in enumerate(p.pool + p.discard)}

        def order(c):
            return position[c.id]

        model = HandModel(cat, p.pool, p.discard, p.pinned, hand_size=size, table=p.table)
        model.order_ties(position)
        res = search(
            model,
            lambda base, extra: best_of_set(base, p.discard, cat, p.pinned, order, p.table),
            top=p.top, time_limit=p.time_limit, workers=p.workers, cut="base",
            key=lambda c: rank_key(c, order),
        )
        found, proven = res.found[:p.top], res.proven
        if not found and not proven:  # out of time before the first solution: enumerate a bit
            found, _ = enumerate_best(p.pool, cat, p.discard, p.pinned, p.top, 0.2, p.table)
        return Found(found, proven, self.name)


#: The engines of ``best`` by name.
BEST_ENGINES: dict[str, Engine[Problem]] = {
    e.name: e for e in (
        PythonEnumeration(),
        # the same enumeration in compiled code (``batch/best.py``)
        _BatchEnumeration(COMPILED, _compiled,
                          "the compiled enumeration does not model these cards"),
        # the compiled enumeration of only the subsets whose bound (the sweep's) may reach
        # the best (``batch/pruned.py``)
        _BatchEnumeration(PRUNED, _pruned, "the pruned enumeration does not bound these cards"),
        CpsatSearch(),
    )}

#: Who takes over a problem an engine refuses when it was asked for by name.
FALLS_BACK_TO = {PRUNED: COMPILED, COMPILED: PYTHON}


def run(name: str, problem: Problem) -> Found:
    """Run the engine ``name``, or the one it falls back to (:data:`FALLS_BACK_TO`) when it
    refuses the problem; an engine without a fallback says why it refuses."""
    while True:
        try:
            return BEST_ENGINES[name].run(problem)
        except Unsupported:
            if name not in FALLS_BACK_TO:
                raise
            name = FALLS_BACK_TO[name]
