"""Compiling the fast searches ahead of time: when the package is built, and ``fr-score compile``.

Every compiled piece (the batch scorer, ``best``'s two compiled enumerations, the advice's
scorer, ``max``'s sweep) is compiled once when the package is built (:func:`ship`, called by
``build_support/fantasy_build.py``) and shipped in the wheel (``batch/cache.py``), so that a
new machine answers at full speed from its first command. The same steps serve ``fr-score
compile`` (:func:`warm_up`), which is needed only for a changed or homebrew card file, or a
package built without them: each step compiles its piece (or just loads it, when cached) on a
tiny input. Last, the entry points the command line calls are built into a C extension
(:mod:`.batch.aot`), which a new ``fr-score`` process loads without Numba, sooner.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from ..catalog import Catalog, base_catalog

#: The compiled pieces, in the order they are compiled, as (what it serves, a call that
#: loads it). Each call is tiny: its only cost is the compile, or the load from the cache.
STEPS: tuple[tuple[str, Callable[[Catalog], object]], ...]


def _score_many(cat: Catalog) -> object:
    from .batch.scorer import compiled

    scorer = compiled(cat)
    return scorer.resolve_totals([scorer.ids(cat.cards[:7])])


def _score_lines(cat: Catalog) -> object:
    import numpy as np

    from .batch import lines
    from .batch.scorer import compiled

    scorer = compiled(cat)
    codes = np.array([lines.card_code(u) for u in range(7)], dtype=np.int64)
    starts = np.array([0, 7], dtype=np.int64)
    totals, status = np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64)
    lines.score_lines(scorer.M, scorer.OF, codes, starts, totals, status)
    return totals


def _optimal(cat: Catalog) -> object:
    from .batch.scorer import compiled

    scorer = compiled(cat)
    return scorer.optimal_totals([scorer.ids(cat.cards[:7])])


def _best(method: str) -> Callable[[Catalog], object]:
    def run(cat: Catalog) -> object:
        from .api import best_hand

        return best_hand(cat.cards[:9], cat, method=method)
    return run


def _max(cat: Catalog) -> object:
    from .api import max_hand

    return max_hand(cat)


def _ahead_of_time(cat: Catalog) -> object:
    from .batch import aot

    return aot.current() or aot.build()


MODULE = "fantasy_scorer.realms.solve.warmup"  # run as a program by the build
AOT_STEP = "the command line's module, built ahead of time"
STEPS = (("scoring many hands (score_many)", _score_many),
         ("scoring hand-file lines (score_many)", _score_lines),
         ("optimal choices in batch (advise, simulate)", _optimal),
         ("best: compiled enumeration", _best("compiled")),
         ("best: pruned enumeration", _best("pruned")),
         ("max: the sweep", _max),
         (AOT_STEP, _ahead_of_time))
#: What the build's second process compiles (the rest in the first: about even halves).
SECOND = (AOT_STEP, "scoring hand-file lines (score_many)")


def warm_up(catalog: Catalog | None = None,
            report: Callable[[str, float], None] | None = None,
            begin: Callable[[str], None] | None = None,
            steps: Sequence[str] | None = None) -> list[tuple[str, float]]:
    """Compile (or load from the cache) every piece of :data:`STEPS` (or those named in
    ``steps``): (what, seconds) each, also passed to ``report`` as each one is done
    (``begin(what)`` as it starts: a compile takes a while)."""
    from .batch.aot import BuildError

    cat = catalog or base_catalog()
    done = []
    for what, step in STEPS:
        if steps is not None and what not in steps:
            continue
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


def ship(dest: Path, log: Callable[[str], None] = print) -> list[str]:
    """Compile everything (or load it from the cache of an earlier build of the same
    sources) and copy the compiled files into ``dest`` (the package's ``batch/compiled``
    folder of a wheel being built), with the stamp of what they were compiled for; the names
    copied. A second process builds the C extension and compiles :data:`SECOND` meanwhile:
    the machine has two cores, and each compile uses one."""
    from .batch import cache

    root = Path(__file__).resolve().parents[3]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in (str(root), os.environ.get("PYTHONPATH")) if p))
    second = subprocess.Popen([sys.executable, "-m", MODULE, "aot"], env=env)
    numba_steps = [what for what, _ in STEPS if what not in SECOND]
    warm_up(steps=numba_steps, report=lambda what, s: log(f"{s:6.1f} s  {what}"))
    if second.wait() != 0:
        log("the C extension was not built: the command line loads Numba's code instead")
    cache.recheck()
    folder = Path(cache.cache_dir())
    dest.mkdir(parents=True, exist_ok=True)
    names = sorted(p.name for p in folder.iterdir() if p.is_file() and p.suffix in cache.KINDS
                   and p.name not in (cache.MANIFEST, cache.STAMP) and not p.name.startswith("."))
    for name in names:
        shutil.copyfile(folder / name, dest / name)
    (dest / cache.STAMP).write_text(json.dumps(cache.stamp()), encoding="utf-8")
    return [*names, cache.STAMP]


def main(argv: Sequence[str]) -> int:
    """``python -m fantasy_scorer.realms.solve.warmup ship DEST`` (the build) or ``aot``
    (its second process)."""
    if argv[:1] == ["aot"]:
        done = warm_up(steps=SECOND, report=lambda what, s: print(f"{s:6.1f} s  {what}",
                                                                 flush=True))
        return 0 if not any("not built" in what for what, _ in done) else 1
    if len(argv) == 2 and argv[0] == "ship":
        t0 = time.perf_counter()
        names = ship(Path(argv[1]), log=lambda line: print(line, flush=True))
        print(f"{len(names)} compiled files in {time.perf_counter() - t0:.1f} s", flush=True)
        return 0
    print("usage: python -m fantasy_scorer.realms.solve.warmup ship DEST | aot", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
