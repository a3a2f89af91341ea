"""The shipped catalog kept between processes (``catalog._cached``): a shortcut, never a
different catalog."""

from __future__ import annotations

import dataclasses
import pickle
from pathlib import Path
from typing import Any

import pytest

from fantasy_scorer.realms import catalog as catalog_module
from fantasy_scorer.realms.catalog import EDITIONS, EXPANSIONS, Catalog, _cached, shipped_text
from fantasy_scorer.realms.formats.handfile import read_hand
from fantasy_scorer.realms.resolve import resolve

ROOT = Path(__file__).resolve().parent.parent
FILES = [[("base.yaml", shipped_text("base.yaml"))],
         [("base.yaml", shipped_text("base.yaml")),
          (EXPANSIONS["cursed-hoards"], shipped_text(EXPANSIONS["cursed-hoards"])),
          (EDITIONS["deluxe"], shipped_text(EDITIONS["deluxe"]))]]


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    """An empty cache: the user's home is a new directory."""
    monkeypatch.setenv("HOME", str(tmp_path))
    return tmp_path


def same(x: Any) -> Any:
    """Everything a catalog holds, as plain nested tuples (sets sorted): equal for two
    catalogs exactly when every card, effect, suit, alias and index is."""
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return (type(x).__name__, tuple((f.name, same(getattr(x, f.name)))
                                        for f in dataclasses.fields(x)))
    if isinstance(x, dict):
        return ("dict", tuple(sorted(((same(k), same(v)) for k, v in x.items()), key=repr)))
    if isinstance(x, (set, frozenset)):
        return ("set", tuple(sorted((same(v) for v in x), key=repr)))
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, tuple(same(v) for v in x))
    assert isinstance(x, (str, int, float, type(None))), type(x)
    return x


def _no_yaml(monkeypatch) -> None:
    def refuse(*args, **kwargs):
        raise AssertionError("the card files were compiled again")

    monkeypatch.setattr(catalog_module, "load_into", refuse)


@pytest.mark.parametrize("files", FILES, ids=["base", "cursed-hoards-deluxe"])
def test_a_cached_catalog_is_the_one_compiled(home, monkeypatch, files) -> None:
    compiled = _cached(files)  # nothing cached yet: compiled and left in the cache
    assert len(list(home.glob(".cache/fantasy-scorer/catalogs/*.pickle"))) == 1
    _no_yaml(monkeypatch)
    again = _cached(files)
    assert again is not compiled
    assert same(again) == same(compiled)  # every card, effect and name
    assert [c.id for c in again.cards] == [c.id for c in compiled.cards]


def test_the_cached_catalog_scores_the_worked_example(home, monkeypatch) -> None:
    _cached(FILES[0])
    _no_yaml(monkeypatch)
    cat = _cached(FILES[0])
    text = (ROOT / "examples" / "hand-260.txt").read_text(encoding="utf-8")
    assert resolve(read_hand(text, "hand-260.txt", cat)).total == 260  # the rules' example


def test_a_changed_card_file_is_compiled_anew(home) -> None:
    _cached(FILES[0])
    name, text = FILES[0][0]
    changed = text.replace("strength: 9", "strength: 8", 1)  # (some card's strength)
    assert changed != text
    cat = _cached([(name, changed)])
    fresh = Catalog()
    catalog_module.load_into(fresh, changed, name)
    assert same(cat) == same(fresh)
    assert same(cat) != same(_cached(FILES[0]))
    assert len(list(home.glob(".cache/fantasy-scorer/catalogs/*.pickle"))) == 2


def test_a_damaged_cache_file_is_compiled_anew(home) -> None:
    want = same(_cached(FILES[0]))
    (path,) = home.glob(".cache/fantasy-scorer/catalogs/*.pickle")
    path.write_bytes(path.read_bytes()[:100])  # cut short, as by a full disk
    assert same(_cached(FILES[0])) == want
    path.write_bytes(pickle.dumps({"not": "a catalog"}))
    assert same(_cached(FILES[0])) == want


def test_a_cache_that_cannot_be_written_is_not_written(tmp_path, monkeypatch) -> None:
    blocker = tmp_path / "home"
    blocker.write_text("a file where the home directory would be", encoding="utf-8")
    monkeypatch.setenv("HOME", str(blocker))
    cat = _cached(FILES[0])
    assert len(cat.cards) == 55


def test_a_prebuilt_catalog_is_answered_before_the_files(monkeypatch) -> None:
    """The static site unpickles the shipped games in the browser (no PyYAML there) and hands
    them to ``use_prebuilt``; a game it did not build is still read from its files."""
    from fantasy_scorer.realms import catalog
    from fantasy_scorer.realms.catalog import base_catalog, use_prebuilt

    monkeypatch.setattr(catalog, "_prebuilt", {})
    made = Catalog()
    use_prebuilt({("cursed-hoards", "deluxe"): made})
    assert base_catalog("cursed-hoards", "deluxe") is made
    assert base_catalog("cursed-hoards") is not made
    assert base_catalog("cursed-hoards").card("Dragon").name == "Dragon"
