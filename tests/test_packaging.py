"""Packaging: every sub-package is listed in pyproject.toml (the list is explicit)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_subpackage_is_listed() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    listed = set(re.findall(r'"(fantasy_scorer[\w.]*)"', text.split("packages = [", 1)[1]
                            .split("]", 1)[0]))
    found = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for p in (ROOT / "fantasy_scorer").rglob("__init__.py")
    }
    assert found <= listed, f"add to pyproject.toml packages: {sorted(found - listed)}"
    assert "fantasy_scorer.cards" in listed
