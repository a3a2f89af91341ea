"""Shared helpers: build and score hands from hand-file text; how the tests share two workers.

The suite runs in two processes (pytest-xdist, ``-n 2`` in ``pyproject.toml``): on a new
machine most of its time is Numba compiling the fast searches, which uses one core, and the
two families of compiled code (the ``max`` sweep, and the batch scorer the other searches and
the game use) compile in different processes at the same time. Each file is one unit of work,
so that a module's fixtures (the module built ahead of time) run once; the files that compile
the sweep are one unit, sent first to the first worker, and the file that first compiles the
batch scorer is sent next, to the second. The compiled code is cached on disk
(``batch/cache.py``), so later files of either worker load what the other compiled.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from fantasy_scorer.cli.main import main
from fantasy_scorer.realms.catalog import base_catalog
from fantasy_scorer.realms.formats.handfile import read_hand
from fantasy_scorer.realms.resolve import Result, resolve


def scored(text: str) -> Result:
    """Resolve a hand written in hand-file syntax (``;`` may separate lines)."""
    return resolve(read_hand(text.replace(";", "\n"), "test", base_catalog()))


def total(text: str) -> int:
    return scored(text).total


def line(result: Result, name: str):
    return next(ln for ln in result.lines if ln.name == name)


def run(args: list[str], stdin: str | None = None):
    """Invoke ``fr-score`` with ``args`` (and standard input) in-process."""
    return CliRunner().invoke(main, args, input=stdin)


def write(tmp_path: Path, name: str, text: str) -> str:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


#: The files that compile the ``max`` sweep (``sweep_kernel.py``), run in this order by one
#: worker (the pruned ``best`` compiles part of the sweep's bounds too). Not among them:
#: ``test_cli_solve.py``, whose ``fr-score compile`` compiles everything not yet cached (in
#: the sweep's worker it compiled the batch scorer a second time, 98 s, while the other
#: worker was compiling it).
SWEEP = ("tests/solve/test_sweep.py", "tests/solve/test_best.py",
         "tests/solve/test_max_expansion.py", "tests/solve/test_cli_max.py",
         "tests/solve/test_best_pruned.py")
#: The file that compiles the batch scorer and the optimal choices in batch first.
BATCH_FIRST = "tests/game/test_advice.py"


def _place(path: str) -> tuple[int, int, str]:
    """(rank, position, unit of work) of a test file (its path in the node id): the sweep's
    files in the order of :data:`SWEEP`, then the batch scorer's first file, then every other
    file as collected."""
    if path in SWEEP:
        return 0, SWEEP.index(path), "sweep"
    return (1 if path == BATCH_FIRST else 2), 0, path


def _file(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: _place(_file(item.nodeid))[:2])  # stable: a file's order stays


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """xdist's scheduling by scope, with :func:`_place`'s units of work for scopes (taken in
    the order collected: ``--no-loadscope-reorder`` in ``pyproject.toml``)."""
    from xdist.scheduler import LoadScopeScheduling

    missing = [path for path in (*SWEEP, BATCH_FIRST) if not (config.rootpath / path).is_file()]
    if missing:  # a renamed file would silently leave its unit and compile twice
        raise pytest.UsageError(f"tests/conftest.py names test files that are not there: "
                                f"{', '.join(missing)}; write their new paths")

    class ByUnit(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return _place(_file(nodeid))[2]

    return ByUnit(config, log)


@pytest.fixture
def catalog():
    return base_catalog()
