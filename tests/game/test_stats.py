"""The intervals the advice and the simulations print."""

from __future__ import annotations

import math

import pytest

from fantasy_scorer.realms.game.stats import Estimate, wilson


def test_a_gift_interval_never_reaches_below_zero():
    # gifts 0, 0 and 10: mean 10/3, spread sqrt(((10/3)^2 * 2 + (20/3)^2) / 2) = 5.774,
    # half width 1.96 * 5.774 / sqrt(3) = 6.533: the normal interval [-3.20, 9.87] is cut at 0
    est = Estimate(nonnegative=True)
    for g in (0, 0, 10):
        est.add(g)
    lo, hi = est.ci95
    assert lo == 0.0 and hi == pytest.approx(10 / 3 + 6.533, abs=1e-3)
    plain = Estimate()
    for g in (0, 0, 10):
        plain.add(g)
    assert plain.ci95[0] == pytest.approx(10 / 3 - 6.533, abs=1e-3)


def test_wilson_interval_of_a_fair_coin():
    # p = 0.5 over 100 trials: centre 0.5, half width 1.96 * sqrt(0.0025 + 0.000096) / 1.0384
    lo, hi = wilson(0.5, 100)
    half = 1.959964 * math.sqrt(0.25 / 100 + 1.959964 ** 2 / 40000) / (1 + 1.959964 ** 2 / 100)
    assert lo == pytest.approx(0.5 - half) and hi == pytest.approx(0.5 + half)
    assert round(lo, 3) == 0.404 and round(hi, 3) == 0.596
