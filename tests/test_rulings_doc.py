"""docs/rulings.md: an entry for every ruling the code can cite, each with examples that score
what the page says, and the machine-readable index (``realms.rulings``) that matches it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fantasy_scorer.realms.catalog import base_catalog
from fantasy_scorer.realms.formats.handfile import load_hand
from fantasy_scorer.realms.resolve import resolve
from fantasy_scorer.realms.rulings import KINDS, concerning, kinds_of, ruling, rulings

from .conftest import run

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
CITED = re.compile(r"\b([RC]\d+)\b")
HEADING = re.compile(r"^## ([RC]\d+) — (.+)$", re.M)
EXAMPLE = re.compile(r"^Example(?: \(([^)]*)\))?: `([^`]+)` = \*\*(-?\d+)\*\*", re.M)


def entries() -> dict[str, str]:
    """Each ruling id of the page → the text of its entry."""
    heads = list(HEADING.finditer(DOC))
    out = {}
    for k, m in enumerate(heads):
        end = heads[k + 1].start() if k + 1 < len(heads) else len(DOC)
        out[m.group(1)] = DOC[m.start():end]
    return out


def cited_in_the_package() -> set[str]:
    """Every ruling id written anywhere in the package's code and card data."""
    found = set()
    for folder, pattern in ((ROOT / "fantasy_scorer", "*.py"), (ROOT / "fantasy_scorer", "*.json"),
                            (ROOT / "cards", "*.yaml")):
        for path in folder.rglob(pattern):
            if path.name == "card-names-i18n.json":
                continue  # names, no rulings
            found |= set(CITED.findall(path.read_text(encoding="utf-8")))
    return found


def test_every_ruling_the_code_can_cite_has_an_entry() -> None:
    cited = cited_in_the_package()
    assert {"R1", "R8", "R17", "C1", "C8"} <= cited  # the scan finds them
    assert cited <= set(entries()), f"add to docs/rulings.md: {sorted(cited - set(entries()))}"


def test_the_page_has_r1_to_r17_and_c1_to_c8_in_order() -> None:
    assert list(entries()) == [f"R{i}" for i in range(1, 18)] + [f"C{i}" for i in range(1, 9)]


def test_every_entry_gives_an_example_hand_with_its_total() -> None:
    for rid, text in entries().items():
        assert EXAMPLE.search(text), f"{rid} has no example"


def examples() -> list[tuple[str, str, str, int]]:
    out = []
    for rid, text in entries().items():
        for m in EXAMPLE.finditer(text):
            out.append((rid, m.group(1) or "", m.group(2), int(m.group(3))))
    return out


@pytest.mark.parametrize(("rid", "where", "hand", "total"), examples(),
                         ids=[f"{e[0]}-{k}" for k, e in enumerate(examples())])
def test_each_example_scores_the_total_the_page_gives(rid: str, where: str, hand: str,
                                                      total: int) -> None:
    expansion = "cursed-hoards" if "Cursed Hoards" in where else None
    edition = "deluxe" if "Deluxe Phoenix" in where else None
    result = resolve(load_hand(hand.replace(";", "\n"), f"docs/rulings.md {rid}",
                               expansion=expansion, edition=edition))
    assert result.total == total


def test_the_index_matches_the_page() -> None:
    page = {m.group(1): m.group(2) for m in HEADING.finditer(DOC)}
    assert {r.id: r.title for r in rulings()} == page
    assert ruling("R8 (b)").id == "R8"


def test_the_index_names_real_cards_and_kinds() -> None:
    cards = {c.id: c for cat in (base_catalog("cursed-hoards"), base_catalog(edition="deluxe"),
                                 base_catalog()) for c in cat.cards}
    produced = set().union(*(kinds_of(c) for c in cards.values()))
    for r in rulings():
        assert set(r.cards) <= set(cards), r.id
        assert r.kinds <= KINDS
    assert produced >= KINDS  # every kind is one some shipped card has


def test_which_rulings_concern_a_card() -> None:
    promo = base_catalog().card("Phoenix")
    deluxe = base_catalog(edition="deluxe").card("Phoenix")
    assert {"R8", "R15", "R16", "R17"} <= set(concerning(promo))
    assert "C7" not in concerning(promo)
    assert {"R16", "C7", "C8"} <= set(concerning(deluxe))
    assert "R17" not in concerning(deluxe)  # no Book of Changes may target it
    mirage = base_catalog("cursed-hoards").card("Mirage")  # the expansion's own Mirage
    assert {"R2", "R14", "R16"} <= set(concerning(mirage))


def test_readme_and_explain_help_point_at_the_page() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/rulings.md" in readme
    assert "../shared" not in readme
    help_text = run(["explain", "--help"]).output
    assert "docs/rulings.md" in help_text
