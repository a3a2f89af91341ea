"""``--workers`` and ``--scheduler``: the options of the commands that run on Dask workers
(``census``, ``simulate``), and ``simulate`` cut into parts for them.

The workers themselves are :mod:`fantasy_scorer.cluster`'s; the parts of a simulation are
:func:`fantasy_scorer.realms.game.simulate.simulate_part`'s.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import click

from .. import cluster

if TYPE_CHECKING:
    from ..realms.game.simulate import Simulation
    from ..realms.solve.census import Game


def cluster_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """--workers N and --scheduler ADDRESS."""
    fn = click.option("--scheduler", default=None, metavar="ADDRESS",
                      help="Run on an existing Dask cluster (tcp://HOST:PORT).")(fn)
    fn = click.option("--workers", type=int, default=None, metavar="N",
                      help="Local worker processes (default: the machine's cores with the "
                           "cluster extra, else 1: in this process). More than one needs "
                           'pip install "fantasy-scorer[cluster]".')(fn)
    return fn


def in_process(workers: int | None, scheduler: str | None) -> bool:
    """Whether the work runs in this process (after checking the options)."""
    return cluster.plan(workers, scheduler) == 1 and scheduler is None


def simulate_on(game: Game, players: int, lineup: Sequence[str], games: int, seed: object,
                samples: int | None, budget: float | None, *, workers: int | None = None,
                scheduler: str | None = None, size: int | None = None) -> Simulation:
    """A simulation played in parts of ``size`` games (default: a few seconds' worth) on
    the workers, merged in the order of the games: the same games, and so the same result,
    as one run in one process."""
    from ..realms.game.simulate import merged, part_size, parts, simulate_part

    t0 = time.perf_counter()
    cut = parts(games, size or part_size(lineup))
    tasks = [(game, players, tuple(lineup), seed, samples, budget, start, n)
             for start, n in cut]
    progress, stop = cluster.progress_bar(len(tasks), "games")
    try:
        found = [(cut[i][0], sim) for i, sim in cluster.run(
            simulate_part, tasks, workers=workers, scheduler=scheduler, progress=progress)]
    finally:
        stop()
    whole = merged(found, seed)
    whole.seconds = time.perf_counter() - t0
    return whole
