"""The wheel carries the compiled code, and a new machine loads it without compiling (issue 35).

The wheel is built as ``pip install .`` builds it (the build backend of
``build_support/fantasy_build.py``, in pip's isolated build environment; its compile reuses the
cache an earlier build of the same sources left, see ``batch/cache.py``). It is unpacked, and
new processes with an empty home import the package from there only. Compilations are
counted, never timed: Numba's dispatchers count the overloads they had to compile
(``stats.cache_misses``) and the ones they loaded (``stats.cache_hits``); functions that are
not cached on their own must have no overload at all (they live inside the entries' code).
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from fantasy_scorer.realms.solve.batch import aot

#: This file and test_ahead_of_time.py run in one test worker: building the wheel here writes
#: the user's compiled-code cache, and a new process of the other file reading it meanwhile
#: could find a new stamp beside the old module and load Numba.
pytestmark = pytest.mark.xdist_group("user-compiled-cache")

ROOT = Path(__file__).resolve().parents[2]
COMPILED = "fantasy_scorer/realms/solve/batch/compiled/"

# A new process: the package from the unpacked wheel only, then what it compiled and loaded.
PROGRAM = r"""
import json, sys
import fantasy_scorer as fs
from fantasy_scorer.realms.catalog import base_catalog
from fantasy_scorer.realms.solve.api import best_hand, max_hand
cat = base_catalog()
pool = [cat.card(n) for n in ["Knights", "Mirage", "Hydra", "Warlord", "Queen", "King",
        "Unicorn", "Mountain", "Rainstorm", "Bell Tower", "Forest", "Swamp"]]
from fantasy_scorer.realms.solve.batch.scorer import compiled
scorer = compiled(cat)
totals = {
    "score_many": fs.score_many([["Mountain", "Great Flood", "Smoke", "Whirlwind",
                                  "Air Elemental", "Wildfire", "Mirage: Rainstorm"]]),
    "compiled": best_hand(pool, cat, method="compiled")[0].total,
    "pruned": best_hand(pool, cat, method="pruned")[0].total,
    "python": best_hand(pool, cat, method="python")[0].total,
    "optimal": [int(t) for t in scorer.optimal_totals([scorer.ids(pool[:7])])],
    "optimal_python": best_hand(pool[:7], cat, method="python")[0].total,
}
sol = max_hand(cat)
totals["max"] = [sol.result.total, sol.proven]
from numba.core.registry import CPUDispatcher
from fantasy_scorer.realms.solve import sweep_kernel
from fantasy_scorer.realms.solve.batch import kernel, lines, search
hits = misses = uncached = 0
for module in (kernel, lines, search, sweep_kernel):
    for fn in vars(module).values():
        if isinstance(fn, CPUDispatcher):
            if fn._cache.__class__.__name__ == "NullCache":
                uncached += len(fn.overloads)
            else:
                hits += sum(fn.stats.cache_hits.values())
                misses += sum(fn.stats.cache_misses.values())
print(json.dumps({"file": fs.__file__, "totals": totals, "hits": hits, "misses": misses,
                  "uncached": uncached}))
"""

# The command line's way: the module built ahead of time, Numba never imported.
CLI_PROGRAM = r"""
import json, sys
from fantasy_scorer.realms.solve.batch import aot
aot.prefer()
from fantasy_scorer.realms.catalog import base_catalog
from fantasy_scorer.realms.solve.api import best_hand

cat = base_catalog()
pool = [cat.card(n) for n in ["Book of Changes", "Mirage", "Doppelgänger", "Warlord", "Queen",
        "King", "Unicorn", "Mountain", "Rainstorm", "Bell Tower", "Forest", "Swamp"]]
total = best_hand(pool, cat, method="compiled")[0].total
print(json.dumps({"total": total, "loaded": aot.loaded(),
                  "numba": sorted(m for m in sys.modules if m.split(".")[0] == "numba")}))
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out),
                    str(ROOT)], check=True, cwd=out)
    return next(out.glob("fantasy_scorer-*.whl"))


@pytest.fixture(scope="module")
def site(wheel, tmp_path_factory) -> Path:
    target = tmp_path_factory.mktemp("site")
    with zipfile.ZipFile(wheel) as zf:
        zf.extractall(target)
    return target


def new_process(site: Path, home: Path, program: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "PYTHONPATH")}
    env.update(HOME=str(home), PYTHONPATH=str(site))
    return subprocess.run([sys.executable, "-c", program], env=env, cwd=home,
                          capture_output=True, text=True, check=False)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """An empty HOME: a new machine's user, with no cache of any kind."""
    folder = tmp_path / "home"
    folder.mkdir()
    return folder


def test_the_wheel_carries_the_compiled_code(wheel) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    shipped = [n[len(COMPILED):] for n in names if n.startswith(COMPILED)]
    assert "stamp.json" in shipped
    for entry in ("kernel.resolve_batch-", "search.optimal_batch-", "search.subsets_batch-",
                  "lines.score_lines-", "sweep_kernel.sweep_part-",
                  "sweep_kernel.refined_over-", "sweep_kernel.subset_bounds-"):
        assert any(n.startswith(entry) and n.endswith(".nbi") for n in shipped), entry
        assert any(n.startswith(entry) and n.endswith(".nbc") for n in shipped), entry
    assert any(n.startswith(aot.NAME) and n.endswith((".so", ".pyd")) for n in shipped)


def test_a_new_machine_loads_everything_without_compiling(site, home) -> None:
    done = new_process(site, home, PROGRAM)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert got["file"].startswith(str(site))  # the installed package, not the source tree
    assert got["misses"] == 0 and got["uncached"] == 0  # nothing compiled …
    assert got["hits"] >= 7  # … every entry loaded from the files the wheel brought
    totals = got["totals"]
    assert totals["score_many"] == [260]  # the rules' worked example
    assert totals["compiled"] == totals["pruned"] == totals["python"]
    assert totals["optimal"] == [totals["optimal_python"]]
    assert totals["max"] == [397, True]  # the game's best hand, proven
    assert done.stderr == ""  # nothing damaged, nothing said


def test_the_command_line_s_module_comes_with_the_wheel(site, home) -> None:
    done = new_process(site, home, CLI_PROGRAM)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert got["loaded"] and got["numba"] == []


def test_damaged_files_are_set_aside_and_restored_from_the_package(site, home) -> None:
    first = new_process(site, home, CLI_PROGRAM)
    assert first.returncode == 0 and first.stderr == ""
    folder = next((home / ".cache" / "fantasy-scorer" / "numba").glob("code-*"))
    module = folder / (aot.NAME + importlib.machinery.EXTENSION_SUFFIXES[0])
    whole = module.read_bytes()
    module.write_bytes(whole[:len(whole) // 3])  # truncated: loading it was a SIGBUS
    index = next(folder.glob("search.subsets_batch-*.nbi"))
    index.write_bytes(index.read_bytes()[:20] + b"\x00garbage")  # UnpicklingError before
    again = new_process(site, home, CLI_PROGRAM)
    assert again.returncode == 0, again.stderr
    lines = again.stderr.strip().splitlines()
    assert len(lines) == 2 and all("set aside" in line and "restored from the package" in line
                                   for line in lines)
    assert {module.name, index.name} == {n for n in (module.name, index.name)
                                         if any(n in line for line in lines)}
    assert module.read_bytes() == whole
    got = json.loads(again.stdout)
    assert got["loaded"] and got["total"] == json.loads(first.stdout)["total"]
    assert len(list((folder.parent / "damaged").iterdir())) == 2
