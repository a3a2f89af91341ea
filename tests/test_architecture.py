"""The package's layers, read from its source: no import cycle, no import against the arrows.

The arrows (``docs/architecture.md``): ``cli`` → ``web`` → ``realms.game`` → ``realms.solve``
and ``realms.formats`` → the ``realms`` core → ``errors``; ``majesty`` stands alone (its
command line and the web page's Majesty calls use it). Every import is counted, the ones
inside functions included, since a lazy import is still a dependency.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "fantasy_scorer"

#: Layer of each module prefix (the longest prefix wins) → the layers it may import.
LAYERS = {
    "fantasy_scorer.errors": "errors",
    "fantasy_scorer.inputs": "errors",  # the bounded readers every layer shares
    "fantasy_scorer.realms": "core",
    "fantasy_scorer.realms.solve": "solve",
    "fantasy_scorer.realms.formats": "formats",
    "fantasy_scorer.realms.game": "game",
    "fantasy_scorer.majesty": "majesty",
    "fantasy_scorer.web": "web",
    "fantasy_scorer.cli": "cli",
    "fantasy_scorer": "api",
}
ALLOWED = {
    "errors": set(),
    "core": {"errors"},
    "solve": {"core", "errors"},
    "formats": {"core", "errors"},
    "game": {"solve", "core", "errors"},
    "majesty": {"errors"},
    "web": {"game", "solve", "formats", "core", "errors", "majesty"},
    "cli": {"web", "game", "solve", "formats", "core", "errors", "majesty", "api"},
    "api": {"game", "solve", "formats", "core", "errors"},
}


def layer(module: str) -> str:
    best = max((p for p in LAYERS if module == p or module.startswith(p + ".")), key=len)
    return LAYERS[best]


def modules() -> dict[str, Path]:
    out = {}
    for path in ROOT.rglob("*.py"):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def imports_of(module: str, path: Path, known: set[str]) -> set[str]:
    """The package modules ``module`` imports (a name imported from a package counts as the
    submodule when there is one)."""
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("fantasy_scorer")}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            elif node.module and node.module.startswith("fantasy_scorer"):
                target = node.module
            else:
                continue
            subs = {f"{target}.{a.name}" for a in node.names} & known
            found |= subs or {target}
    return {m for m in found if m != module}


def graph() -> dict[str, set[str]]:
    mods = modules()
    return {m: imports_of(m, p, set(mods)) for m, p in mods.items()}


def test_no_import_runs_against_the_arrows() -> None:
    wrong = [f"{m} ({layer(m)}) imports {t} ({layer(t)})"
             for m, targets in graph().items() for t in sorted(targets)
             if layer(t) != layer(m) and layer(t) not in ALLOWED[layer(m)]]
    assert wrong == []


def test_there_is_no_import_cycle() -> None:
    g = graph()
    cycles = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for t in sorted(g.get(m, ())):
            if state.get(t) == 1:
                cycles.append(" → ".join(stack[stack.index(t):] + [t]))
            elif t in g and t not in state:
                visit(t)
        stack.pop()
        state[m] = 2

    for m in sorted(g):
        if m not in state:
            visit(m)
    assert cycles == []


def test_the_import_reader_sees_a_wrong_arrow_and_a_cycle() -> None:
    """The checks above would pass on nothing at all; this shows they can fail."""
    g = graph()
    assert "fantasy_scorer.realms.resolve" in g["fantasy_scorer.realms.solve.choices"]
    assert layer("fantasy_scorer.realms.solve.sweep") == "solve"
    assert layer("fantasy_scorer.realms.resolve") == "core"
    assert "core" not in ALLOWED["errors"] and "cli" not in ALLOWED["web"]
