"""Shared helpers: build and score hands from hand-file text."""

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


@pytest.fixture
def catalog():
    return base_catalog()
