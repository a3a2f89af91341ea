"""Habits of the code (issue 38 §4): no private name imported from another module, one name
for one meaning among the searches, and the compiled kernels' arrays read through named
constants."""

from __future__ import annotations

import ast
import contextlib
import re
import textwrap
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "fantasy_scorer"


def _target(node: ast.ImportFrom, module: str) -> str:
    """The module a ``from ... import`` of ``module`` reads from, made absolute."""
    if not node.level:
        return node.module or ""
    package = module.rsplit(".", 1)[0]
    base = package.split(".")[: len(package.split(".")) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _private_imports(source: str, module: str) -> list[str]:
    """``from X import _name`` of a module of the package (``_name`` not a dunder), in the
    source and in the programs it holds as strings (run in a subprocess)."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and "import" in node.value and "fantasy_scorer" in node.value:
            with contextlib.suppress(SyntaxError):  # (a string that is not a program)
                out += _private_imports(textwrap.dedent(node.value), module)
        if not isinstance(node, ast.ImportFrom):
            continue
        target = _target(node, module)
        if not target.startswith("fantasy_scorer"):
            continue
        out += [f"{module}: from {target} import {a.name}" for a in node.names
                if _private(a.name)]
    return out


def _is_module(dotted: str) -> bool:
    path = PACKAGE.parent.joinpath(*dotted.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _private_attributes(source: str, module: str) -> list[str]:
    """``m._name`` read or written where ``m`` is another module of the package, imported
    by name (``from .. import catalog``, ``import fantasy_scorer.x as m``)."""
    tree = ast.parse(source)
    modules = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            target = _target(node, module)
            modules |= {a.asname or a.name for a in node.names
                        if target.startswith("fantasy_scorer")
                        and _is_module(f"{target}.{a.name}")}
        elif isinstance(node, ast.Import):
            modules |= {a.asname for a in node.names
                        if a.asname and a.name.startswith("fantasy_scorer")}
    return [f"{module}: {node.value.id}.{node.attr}" for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
            and node.value.id in modules and _private(node.attr)]


def _module(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.append("__init__")  # (its own package is the one it sits in)
    return ".".join(parts)


def test_no_private_name_is_imported_across_modules() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        found += _private_imports(path.read_text(encoding="utf-8"), _module(path))
    assert found == []


def test_no_private_name_of_another_module_is_read_as_an_attribute() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        found += _private_attributes(path.read_text(encoding="utf-8"), _module(path))
    assert found == []


def test_the_private_import_reader_sees_one() -> None:
    """The scan above would pass on nothing at all; this shows it can fail."""
    src = "from ..resolve import _changes, apply_changes\nfrom .x import __version__\n"
    assert _private_imports(src, "fantasy_scorer.realms.solve.choices") == [
        "fantasy_scorer.realms.solve.choices: from fantasy_scorer.realms.resolve import _changes"]
    assert _private_imports("from os import _exit\n", "fantasy_scorer.cli") == []


def test_the_private_import_reader_sees_one_in_a_program_string() -> None:
    """(``web/site.py`` runs such a program in a subprocess.)"""
    src = 'PROGRAM = """\nimport sys\nfrom fantasy_scorer.realms.catalog import _cached\n"""\n'
    assert _private_imports(src, "fantasy_scorer.web.site") == [
        "fantasy_scorer.web.site: from fantasy_scorer.realms.catalog import _cached"]


def test_the_private_attribute_reader_sees_one() -> None:
    src = ("from ..realms import catalog\nimport fantasy_scorer.realms.resolve as r\n"
           "import os\nx = catalog._cached\ncatalog._prebuilt = {}\ny = r._changes\n"
           "z = os._exit\nw = catalog.__name__\n")
    assert _private_attributes(src, "fantasy_scorer.web.browser") == [
        "fantasy_scorer.web.browser: catalog._cached",
        "fantasy_scorer.web.browser: catalog._prebuilt",
        "fantasy_scorer.web.browser: r._changes"]


def _top_level_names(path: Path) -> set[str]:
    names = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def test_the_twin_names_of_the_searches_are_gone() -> None:
    """``Table``, ``Tables``, ``score_set``, ``compile_tables`` and ``Progress`` each meant
    two things in two modules of the searches; now each is defined once at most."""
    solve = PACKAGE / "realms" / "solve"
    where: dict[str, list[str]] = {}
    for path in sorted(solve.rglob("*.py")):
        for name in _top_level_names(path):
            where.setdefault(name, []).append(path.relative_to(solve).as_posix())
    for name in ("Table", "Tables", "score_set", "compile_tables", "Progress", "Found",
                 "Unsupported", "Engine", "Problem"):
        assert len(where.get(name, [])) <= 1, (name, where[name])


def test_the_twin_names_of_the_rules_core_are_gone() -> None:
    """``optimal_choices`` (the enumeration's, ``choices.py``; CP-SAT's is ``cpsat_choices``)
    and ``Need`` (the evaluator's, ``resolve.py``; CP-SAT's literals are ``NeedLits``) each
    mean one thing in the rules core."""
    realms = PACKAGE / "realms"
    where: dict[str, list[str]] = {}
    for path in sorted(realms.rglob("*.py")):
        for name in _top_level_names(path):
            where.setdefault(name, []).append(path.relative_to(realms).as_posix())
    assert where["optimal_choices"] == ["solve/choices.py"]
    assert where["Need"] == ["resolve.py"]


def test_the_sweeps_kernel_reads_its_tables_through_named_positions() -> None:
    """``T[T_CARD]``, not ``T[0]`` (as ``batch/kernel.py`` reads its memory)."""
    source = (PACKAGE / "realms" / "solve" / "sweep_kernel.py").read_text(encoding="utf-8")
    assert re.findall(r"\bT\[\d+\]", source) == []


def test_the_named_positions_are_those_the_tables_are_built_in() -> None:
    from fantasy_scorer.realms.catalog import base_catalog
    from fantasy_scorer.realms.solve import sweep_kernel as kern
    from fantasy_scorer.realms.solve.sweep_tables import compile_sweep_tables

    cat = base_catalog()
    tables = compile_sweep_tables(cat, cat.suit_cards[:12])
    fields = ["card", "match", "gsuit", "gother", "rows", "tabs", "splits", "rstart", "mem",
              "mstart", "names", "holders", "n_suits", "n_axis", "chg", "selfm", "blank",
              "meddle", "sure"]
    T = tables.T
    assert len(T) == kern.T_SIZE == len(fields)
    for name in fields:
        assert T[getattr(kern, "T_" + name.replace("_", "").upper())] is getattr(tables, name)
