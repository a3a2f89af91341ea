"""``fr-score max`` on the command line: the table options (--discard, --players), the notes
on what the answer assumed, --quiet, and one-line errors."""

from __future__ import annotations

import json

from fantasy_scorer.realms.catalog import base_catalog
from fantasy_scorer.realms.resolve import resolve
from fantasy_scorer.realms.solve.api import max_hand

from ..conftest import run

EXP = base_catalog("cursed-hoards")
POOL = ["Dark Queen", "Ghoul", "Lich", "Necromancer", "Dungeon", "Crypt", "Bell Tower",
        "Chapel", "Warlord", "Genie", "Knights"]


def _without(pool=POOL) -> list[str]:
    keep = {EXP.card(n).id for n in pool}
    out = []
    for c in EXP.suit_cards:
        if c.id not in keep:
            out += ["--without", c.id]
    return out


def test_max_with_the_expansion_says_the_discard_area_was_empty() -> None:
    """Dark Queen and Ghoul read the discard area (C5): without --discard they are scored
    on an empty one, and the output says so."""
    r = run(["max", "--expansion", "cursed-hoards", "--json", *_without()])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["proven"]
    names = [c["name"] for c in data["cards"]]
    readers = [n for n in ("Dark Queen", "Ghoul") if n in names]
    assert readers  # Undead for Lich and Crypt: the best hand holds one
    assert any("empty discard area" in note for note in data["notes"])


def test_max_with_a_discard_area_scores_it_and_takes_from_it() -> None:
    area = "Knights, Unicorn, Rainstorm, Wildfire"
    pool = [c for c in POOL if c != "Knights"]
    r = run(["max", "--expansion", "cursed-hoards", "--discard", area, "--players", "3",
             "--json", *_without(pool)])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["proven"] and data["notes"] == []
    same = max_hand(EXP, without=[c for c in EXP.suit_cards if c.name not in pool],
                    discard=[EXP.card(n.strip()) for n in area.split(",")], players=3)
    assert data["total"] == same.total == resolve(same.hand).total


def test_genie_without_players_is_scored_at_the_best_table_and_says_so() -> None:
    pool = ["Genie", "Gem of Order", "Candle", "Bell Tower", "Book of Changes", "Necromancer",
            "Warlord", "Fountain of Life", "Queen", "Lightning"]
    r = run(["max", "--expansion", "cursed-hoards", "--with", "Genie", *_without(pool)])
    assert r.exit_code == 0, r.output
    assert "Genie scored at a table of 6 players" in r.output


def test_max_quiet_prints_nothing_on_standard_error() -> None:
    r = run(["max", "--quiet", "--time-limit", "1", "--without", "Necromancer"])
    assert r.exit_code == 0, r.output
    assert r.output.startswith("Best hand in the game: score ")


def test_bad_discard_areas_are_one_line_errors() -> None:
    for args, message in [
        (["--discard", "Knights, Knights"], "listed twice"),
        (["--discard", "Knigts"], "unknown card"),
        (["--with", "Ghoul", "--discard", "Ghoul, Knights"], "discard area"),
        (["--discard", "Portal"], "Cursed Item"),
    ]:
        r = run(["max", "--expansion", "cursed-hoards", *args])
        assert r.exit_code == 2, (args, r.output)
        assert r.output.count("\n") == 1 and message in r.output, r.output
