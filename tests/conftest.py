"""Shared helpers: build and score hands from hand-file text."""

from __future__ import annotations

import pytest

from fantasy_scorer.catalog import base_catalog
from fantasy_scorer.handfile import read_hand
from fantasy_scorer.resolve import Result, resolve


def scored(text: str) -> Result:
    """Resolve a hand written in hand-file syntax (``;`` may separate lines)."""
    return resolve(read_hand(text.replace(";", "\n"), "test", base_catalog()))


def total(text: str) -> int:
    return scored(text).total


def line(result: Result, name: str):
    return next(ln for ln in result.lines if ln.name == name)


@pytest.fixture
def catalog():
    return base_catalog()
