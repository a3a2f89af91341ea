"""The game's scorer without NumPy or Numba (the static site's browser): every total is
``score_hand``'s, and the look-ahead advice runs on it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fantasy_scorer.realms.game import scoring
from fantasy_scorer.realms.game.scoring import Scorer

from .helpers import CAT, cards
from .test_scoring import table

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def plain(monkeypatch):
    """A Scorer made as where the compiled scorer cannot be imported."""
    monkeypatch.setattr(scoring, "compiled_scorer", lambda catalog: None)
    sc = Scorer(CAT, 4)
    assert sc.compiled is None
    return sc


def test_the_worked_example_scores_260_without_the_compiled_scorer(plain) -> None:
    # the rules' first worked example: Mirage as Rainstorm, 59 + 32 + 27 + 53 + 49 + 40 + 0
    hand = cards("Mountain, Great Flood, Smoke, Whirlwind, Air Elemental, Wildfire, Mirage")
    assert plain.total(hand) == 260
    # with Rainstorm as an eighth card, letting Rainstorm go keeps the 260 (Mirage copies it)
    total, card = plain.best_keep(hand + cards("Rainstorm"))
    assert (total, card.name) == (260, "Rainstorm")


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(5, 7).flatmap(table), min_size=1, max_size=4))
def test_plain_totals_are_the_compiled_ones(tables) -> None:
    compiled = Scorer(CAT, 4)
    assert compiled.compiled is not None
    plain = Scorer(CAT, 4)
    plain.compiled = None  # (as compiled_scorer answers where NumPy is missing)
    assert plain.totals(list(tables)) == compiled.totals(list(tables))


NO_NATIVE = r"""
import importlib.abc, json, sys

class NoNative(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("numpy", "numba", "llvmlite", "ortools"):
            raise ImportError(f"{name} is not here")
        return None

sys.meta_path.insert(0, NoNative())
from fantasy_scorer.realms.catalog import base_catalog
from fantasy_scorer.realms.game.advice import Situation, advise
cat = base_catalog()
names = ["Mountain", "Great Flood", "Smoke", "Whirlwind", "Air Elemental", "Wildfire",
         "Mirage", "Rainstorm"]
sit = Situation(cat, 4, tuple(cat.card(n) for n in names), ())
a = advise(sit, seed=1, budget=None, samples=2)
print(json.dumps({"rounds": a.rounds, "options": len(a.options),
                  "native": sorted(m for m in sys.modules if m.split(".")[0] in
                                   ("numpy", "numba"))}))
"""


def test_the_look_ahead_runs_where_numpy_cannot_be_imported() -> None:
    done = subprocess.run([sys.executable, "-c", NO_NATIVE], capture_output=True, text=True,
                          cwd=ROOT, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(done.stdout)
    assert out["native"] == []
    assert out["rounds"] == 2
    assert out["options"] >= 1
