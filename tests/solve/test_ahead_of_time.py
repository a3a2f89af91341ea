"""The compiled code built ahead of time (``batch/aot.py``) answers exactly as the rest does.

The module is built once for these sources (``fr-score compile`` does the same), after
Numba's code has been compiled or loaded in this process. While these tests run, the process
uses it as the command line does (``aot.prefer``): ``best`` is checked against the Python
enumeration, the batch scorers against ``resolve`` and ``score_hand``, and a real ``fr-score``
process is checked to answer without importing Numba at all.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from fantasy_scorer.realms.catalog import base_catalog
from fantasy_scorer.realms.solve import plan, warmup
from fantasy_scorer.realms.solve.api import best_hand
from fantasy_scorer.realms.solve.batch import aot
from fantasy_scorer.realms.solve.batch.scorer import compiled

# modules, not their functions: pytest would collect imported tests a second time here
from . import test_batch as batch
from . import test_best_compiled as compiled_best

#: This file and test_shipped_compiled.py run in one test worker: building the wheel there
#: writes the user's compiled-code cache, and a new process here reading it meanwhile could
#: find a new stamp beside the old module and load Numba.
pytestmark = pytest.mark.xdist_group("user-compiled-cache")

CAT = base_catalog()


@pytest.fixture(scope="module")
def native():
    """The built module, used by this process for the tests of this file."""
    for _, step in warmup.STEPS[:3]:  # Numba's code first: the build then reuses it
        step(CAT)
    path = aot.current() or aot.build()
    was = aot._preferred
    aot.prefer()
    module = aot.native()
    assert module is not None, f"the module at {path} did not load"
    yield module
    aot.prefer(was)  # as the rest of this test process had it


def test_the_entries_come_from_the_built_module(native) -> None:
    for name in aot.SIGNATURES:
        assert aot.entry(name).native is getattr(native, name)
    assert aot.loaded() and plan._compiled_load() == 0.0


# The properties the compiled code is held to, run again through the built module (each is
# a hypothesis test of its own file, called here while this process prefers the module).

def test_best_from_the_built_module_equals_python_enumeration(native) -> None:
    compiled_best.test_compiled_best_equals_python_enumeration()


def test_best_from_the_built_module_with_many_choice_cards(native) -> None:
    compiled_best.test_compiled_best_equals_python_with_many_choice_cards()


def test_best_from_the_built_module_keeps_pinned_choices(native) -> None:
    compiled_best.test_compiled_best_keeps_pinned_choices_as_python_does()


def test_resolve_from_the_built_module_equals_resolve(native) -> None:
    batch.test_the_internal_entry_equals_resolve_from_card_indices()


def test_optimal_choices_from_the_built_module_equal_score_hand(native) -> None:
    batch.test_optimal_totals_equal_score_hand_on_base_hands()
    batch.test_optimal_totals_equal_score_hand_on_expansion_hands()


def test_the_worked_260_through_the_built_module(native) -> None:
    # examples/hand-260.txt (the rules' worked 260) with Mirage left open: its best choice is
    # Rainstorm's name and suit, which gives the 260 (tests/test_worked_examples.py).
    names = ["Mountain", "Great Flood", "Smoke", "Whirlwind", "Air Elemental", "Wildfire",
             "Mirage"]
    sc = compiled(CAT)
    assert sc.optimal_totals([sc.ids([CAT.card(n) for n in names])]).tolist() == [260]


def best_in_a_new_process(tmp_path, names: list[str]) -> tuple[set[str], dict]:
    """``fr-score best`` on a pool of ``names`` as the program runs it: (every module it
    imported, listed by ``-X importtime``; its JSON answer)."""
    pool = tmp_path / "pool.txt"
    pool.write_text("\n".join(names) + "\n", encoding="utf-8")
    program = "from fantasy_scorer.cli.main import run; run()"
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", program, "best",
                           str(pool), "--json"], capture_output=True, text=True, check=False,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()}
    return imported, json.loads(done.stdout)


def test_the_command_line_answers_without_numba(native, tmp_path) -> None:
    names = ["Book of Changes", "Mirage", "Doppelgänger", "Warlord", "Queen", "King",
             "Unicorn", "Mountain", "Rainstorm", "Bell Tower"]
    imported, got = best_in_a_new_process(tmp_path, names)
    # the compiled enumeration ran (its tables are built only for it) …
    assert "fantasy_scorer.realms.solve.batch.scorer" in imported
    assert not {m for m in imported if m.split(".")[0] == "numba"}  # … and Numba never loaded
    want = best_hand([CAT.card(n) for n in names], CAT, method="python")[0]
    assert got["total"] == want.total
    assert [c["name"] for c in got["cards"]] == [c.name for c in want.hand.cards]


def test_a_small_pool_on_the_command_line_never_imports_numpy(native, tmp_path) -> None:
    # importing numpy costs a new process about 0.1 s, more than scoring eight hands in
    # Python: the planner counts it (plan.NUMPY_LOAD), and nothing else on the way imports it
    names = ["Unicorn", "Warhorse", "King", "Queen", "Princess", "Forest", "Rangers", "Knights"]
    imported, got = best_in_a_new_process(tmp_path, names)
    assert "fantasy_scorer.realms.solve.batch.scorer" not in imported  # not compiled …
    assert "numpy" not in imported  # … and numpy never loaded
    want = best_hand([CAT.card(n) for n in names], CAT, method="python")[0]
    assert got["total"] == want.total


def test_the_planner_counts_numpy_where_the_process_has_not_imported_it(native,
                                                                      monkeypatch) -> None:
    monkeypatch.setattr(aot, "loaded", lambda: False)
    monkeypatch.delitem(sys.modules, "numpy")
    assert plan._compiled_load() == plan.AOT_LOAD + plan.NUMPY_LOAD


def test_a_module_built_against_another_numpy_is_not_used(native, monkeypatch) -> None:
    monkeypatch.setattr(aot, "_numpy_version", lambda: "0.0-another")
    assert aot.current() is None
    aot.prefer()  # look again, as a new process would
    assert aot.native() is None
    assert aot.entry("subsets_batch").__module__.endswith("batch.search")  # Numba's
    monkeypatch.undo()
    aot.prefer()
    assert aot.native() is native


def test_the_planner_counts_the_built_module_only_where_it_is_used(native,
                                                                   monkeypatch) -> None:
    monkeypatch.setattr(aot, "loaded", lambda: False)
    assert plan._compiled_load() == plan.AOT_LOAD  # preferred and present
    aot.prefer(False)
    try:
        assert plan._compiled_load() == plan._numba_load()
    finally:
        aot.prefer()


def test_the_built_module_releases_the_gil_and_two_threads_share_it(native) -> None:
    # the wrapper pycc writes around each function lets the GIL go only where its flags say
    # release_gil (aot._releasing_the_gil): it then calls PyEval_SaveThread, which a module
    # built with pycc's own flags never names (checked on a one-function module)
    assert b"PyEval_SaveThread" in aot.module_path().read_bytes()
    # so the planner counts two threads for it, as for Numba's code
    pool = CAT.cards[:12]
    on_module = plan.costs(pool, CAT).compiled - plan._compiled_load()
    aot.prefer(False)
    try:
        on_numba = plan.costs(pool, CAT).compiled - plan._compiled_load()
    finally:
        aot.prefer()
    assert on_module == pytest.approx(on_numba) and on_numba > 0


def test_two_threads_sharing_the_built_module_give_the_enumeration_s_rows(native) -> None:
    # best.both: two threads take eight subsets at a time of one run, each into its own rows
    import numpy as np

    from fantasy_scorer.realms.solve.batch.best import Enumeration, both
    from fantasy_scorer.realms.solve.exhaustive import NO_TABLE

    names = ["Book of Changes", "Mirage", "Shapeshifter", "World Tree", "Rangers", "Forest",
             "Knights", "Warhorse", "Collector", "Earth Elemental", "Air Elemental"]
    run = Enumeration([CAT.card(n) for n in names], CAT, [], {}, NO_TABLE)
    alone = np.zeros((330, 5), dtype=np.int64)  # C(11, 7)
    run.run(0, alone)
    shared = np.zeros_like(alone)
    both(lambda first, n: run.run(first, shared[first:first + n]), 0, 330)
    assert (shared == alone).all()
    assert (alone[:, 0] == 0).any()  # legal hands among them (not rows left at zero)


def test_a_failed_build_is_reported_and_the_rest_still_compiles(monkeypatch) -> None:
    def refuse(cat):
        raise aot.BuildError("the C extension did not build: no C compiler")

    steps = [(what, refuse if "ahead of time" in what else (lambda cat: None))
             for what, _ in warmup.STEPS]
    monkeypatch.setattr(warmup, "STEPS", tuple(steps))
    done = [what for what, _ in warmup.warm_up(CAT)]
    assert len(done) == len(steps)
    assert done[-1].endswith("not built, the C extension did not build: no C compiler "
                             "(the command line loads Numba's code instead)")
    assert os.path.basename(str(aot.module_path())).startswith(aot.NAME)


def test_a_cache_directory_that_cannot_be_written_is_a_one_line_reason(tmp_path,
                                                                       monkeypatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory", encoding="utf-8")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(blocker / "cache"))
    with pytest.raises(aot.BuildError, match=r"^cannot write to .*a-file.*: Not a directory$"):
        aot.build()


def test_the_built_module_refuses_arrays_it_was_not_built_for(native) -> None:
    import numpy as np

    optimal = aot.entry("optimal_batch")
    ints, hands, out = (np.zeros(3, dtype=np.int64), np.zeros((1, 7), dtype=np.int64),
                        np.zeros((1, 4), dtype=np.int64))
    table = (np.zeros(1, dtype=np.int64), np.zeros((1, 1), dtype=np.int64),
             np.zeros((1, 1), dtype=np.int64), np.zeros(1, dtype=bool))
    with pytest.raises(TypeError, match="argument 1 must be a C-contiguous int64 array of 1"):
        optimal(ints.astype(float), ints, hands, *table, out)  # read as integers otherwise
    with pytest.raises(TypeError, match="argument 8 must be a C-contiguous int64 array of 2"):
        optimal(ints, ints, hands, *table, np.zeros((2, 8), dtype=np.int64)[:, ::2])
    with pytest.raises(TypeError, match="takes 8 arguments, not 7"):
        optimal(ints, ints, hands, *table)
    assert aot._arrays(aot.SIGNATURES["subsets_batch"][1])[3:5] == [("int64", 2), None]
