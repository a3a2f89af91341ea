"""Every ``>>>`` example a reader sees runs: the README's and every docstring's in the package.

An example that is never run goes stale (the README's once did), so the README and the pages
of ``docs/`` are run as doctest files (as ``python -m doctest README.md`` runs it) and every
module of the package through :func:`doctest.testmod`. Every module is imported: the test
extra installs the web extra's libraries too, so no module is skipped. The expected outputs
are the rules' worked examples (the hand of 260 of ``examples/hand-260.txt``; Basilisk
blanking every Army, R8; Rangers clearing the word Army, R6), not the code's own output.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import fantasy_scorer

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def package_modules() -> list[str]:
    """The dotted names of every module of the package, sub-packages included."""
    found = [fantasy_scorer.__name__]
    for info in pkgutil.walk_packages(fantasy_scorer.__path__, fantasy_scorer.__name__ + "."):
        found.append(info.name)
    return sorted(found)


def test_the_readme_examples_run() -> None:
    result = doctest.testfile(str(README), module_relative=False, optionflags=FLAGS,
                              report=True)
    assert result.failed == 0
    assert result.attempted >= 5  # the issue asks for at least five examples in the README


@pytest.mark.parametrize("page", DOCS, ids=lambda p: p.name)
def test_the_examples_of_the_docs_run(page: Path) -> None:
    # The pages of docs/ are read as much as the README: their examples run too.
    result = doctest.testfile(str(page), module_relative=False, optionflags=FLAGS,
                              report=True)
    assert result.failed == 0, page.name


def test_the_readme_holds_no_example_that_doctest_cannot_see() -> None:
    # A prompt indented inside a list or quoted in a sentence would not run: every line that
    # starts an example starts with ">>> " at the left margin.
    text = README.read_text(encoding="utf-8")
    prompts = [ln for ln in text.splitlines() if ">>>" in ln]
    assert prompts and all(ln.startswith(">>> ") for ln in prompts)


@pytest.mark.parametrize("name", package_modules())
def test_the_docstring_examples_of_a_module_run(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=FLAGS, report=True)
    assert result.failed == 0, name


def test_the_modules_with_examples_are_found() -> None:
    # The parametrised test above must see the package's examples, not an empty list: the
    # public API's module docstring, score_many's, the ranking's and the rulings' index hold
    # some.
    finder = doctest.DocTestFinder()
    counts = {name: sum(len(t.examples) for t in finder.find(importlib.import_module(name)))
              for name in package_modules()}
    assert counts["fantasy_scorer"] >= 2
    assert counts["fantasy_scorer.batch"] >= 1
    assert counts["fantasy_scorer.realms.ranking"] >= 1
    assert counts["fantasy_scorer.realms.rulings"] >= 2
