"""Running many independent tasks on Dask: a local cluster by default, or an existing one.

``fr-score census`` and ``fr-score simulate --workers N`` cut their work into chunks that each
take seconds and hand them to :func:`run`:

* no ``scheduler``: a local cluster of ``workers`` processes (default: the machine's cores),
  on the loopback interface only, started for the run and stopped after it (Ctrl-C too);
* ``scheduler="tcp://HOST:PORT"``: an existing Dask cluster (its workers must have this
  package installed);
* one worker and no scheduler (or a single chunk of work): the tasks run in this process, so
  nothing beyond the package is needed. Without the ``cluster`` extra (``pip install
  "fantasy-scorer[cluster]"``), asking for more is a one-line error naming the extra.

A task is a module-level function and its arguments (pickled by reference), so a worker
process imports the package once and keeps what it builds (compiled code, tables) for every
later task. Results come back in any order with their task's index; callers add them up
exactly (integer counts, per-game seeds), so the result does not depend on the workers.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from .errors import ScorerError

#: What to install for more than one worker.
EXTRA_HINT = 'pip install "fantasy-scorer[cluster]"'
#: The only interface a local cluster listens on.
LOOPBACK = "127.0.0.1"


def have_dask() -> bool:
    """Whether the ``cluster`` extra (``dask[distributed]``) is installed."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


def cores() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def plan(workers: int | None, scheduler: str | None) -> int:
    """The number of local workers to start (0 with a scheduler, 1 for in process), after
    checking the options: without the extra, only one worker in process is possible."""
    if workers is not None and workers < 1:
        raise ScorerError("--workers must be at least 1")
    if scheduler is not None:
        if workers is not None:
            raise ScorerError("--workers and --scheduler exclude each other: the existing "
                              "cluster has its own workers; give one of them")
        if not scheduler.startswith(("tcp://", "tls://", "inproc://")):
            raise ScorerError(f"--scheduler '{scheduler}' is not an address; give it as "
                              "tcp://HOST:PORT")
        if not have_dask():
            raise ScorerError(f"--scheduler needs Dask; install it with {EXTRA_HINT}")
        return 0
    if workers is None:
        return cores() if have_dask() else 1
    if workers > 1 and not have_dask():
        raise ScorerError(f"--workers {workers} needs Dask; install it with {EXTRA_HINT} "
                          "(or give --workers 1)")
    return workers


Task = tuple[Any, ...]


def run(fn: Callable[..., Any], tasks: Sequence[Task], *, workers: int | None = None,
        scheduler: str | None = None, progress: Callable[[int], None] | None = None
        ) -> Iterator[tuple[int, Any]]:
    """``(i, fn(*tasks[i]))`` for every task, in the order they finish. ``progress`` is
    called with the number of tasks done after each one."""
    local = plan(workers, scheduler)
    if scheduler is None and (local == 1 or len(tasks) <= 1):
        for i, args in enumerate(tasks):
            yield i, fn(*args)
            if progress is not None:
                progress(i + 1)
        return
    yield from _on_dask(fn, tasks, local, scheduler, progress)


def _on_dask(fn: Callable[..., Any], tasks: Sequence[Task], local: int,
             scheduler: str | None, progress: Callable[[int], None] | None
             ) -> Iterator[tuple[int, Any]]:
    import logging
    import warnings

    from distributed import Client, LocalCluster, as_completed

    cluster = None
    if scheduler is None:
        with warnings.catch_warnings():
            # its status page listens on loopback too; a port taken (another cluster) only
            # moves it, which Dask says in a warning nobody needs here
            warnings.filterwarnings("ignore", "Port .* is already in use", UserWarning)
            cluster = LocalCluster(n_workers=local, threads_per_worker=1, processes=True,
                                   host=LOOPBACK, dashboard_address=None,
                                   silence_logs=logging.ERROR)
    try:
        try:
            client = Client(cluster if cluster is not None else scheduler, timeout="30s")
        except OSError as e:
            raise ScorerError(f"cannot reach the Dask scheduler at {scheduler} ({e}); start "
                              "it (dask scheduler) or check the address") from None
        with client:
            futures = {client.submit(fn, *args, pure=False): i for i, args in enumerate(tasks)}
            for done, future in enumerate(as_completed(futures), 1):
                i = futures[future]
                yield i, future.result()
                future.release()
                if progress is not None:
                    progress(done)
    finally:
        if cluster is not None:
            cluster.close()


def progress_bar(total: int, label: str) -> tuple[Callable[[int], None] | None,
                                                  Callable[[], None]]:
    """A progress bar of ``total`` steps on standard error when it is a terminal (else
    nothing): (update with the steps done, stop)."""
    import sys

    if not sys.stderr.isatty():
        return None, lambda: None
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    bar = Progress(label, BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                   console=Console(stderr=True), transient=True)
    task = bar.add_task(label, total=total)
    bar.start()
    return (lambda n: bar.update(task, completed=n)), bar.stop
