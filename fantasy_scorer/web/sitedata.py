"""The page's data as JSON files: every game's cards and the page's words in each language.

The page draws a hand from its address with these alone, before any engine answers: the
static site ships them in ``data/``, and ``fr-score serve`` serves the same bytes at
``/data/``, so both faces of the page read one format.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from ..errors import ScorerError
from . import messages


def dumps(data: Any) -> bytes:
    """JSON that depends only on the data (sorted keys, no spaces): reproducible bytes."""
    return json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()


def cards_data() -> dict[str, Any]:
    """What the page draws before Python runs: each game's suit groups, each card's
    strength, share id and names in every language, each suit's name in every language."""
    from . import page
    from .games import Games

    games = Games()
    langs = messages.languages()
    out: dict[str, Any] = {"games": {}, "cards": {}, "suits": {}}
    for exp in ("none", "cursed-hoards"):
        for ed in ("standard", "deluxe"):
            game = games.of(exp, ed)
            groups = []
            for suit in game.catalog.suits:
                ids = [c.id for c in game.catalog.suit_cards if c.suit_names[0] == suit]
                if ids:
                    groups.append({"key": page.suit_key(suit), "suit": suit, "cards": ids})
                    out["suits"][suit] = {lang: game.names.suit_display(suit, lang)
                                          for lang in langs}
            cursed = [c.id for c in game.catalog.cards if c.cursed]
            if cursed:
                groups.append({"key": "cursed-item", "suit": None, "cards": cursed})
            out["games"][game.key.label] = {
                "expansion": exp, "edition": ed, "groups": groups,
                "max": game.max_pool, "hand_size": game.hand_size,
                "reads_table": game.reads_table, "has_cursed": game.has_cursed,
            }
            for c in game.catalog.cards:
                entry = {"strength": c.strength, "cursed": c.cursed, "needs": sorted(c.needs),
                         "share": c.code_id if not c.cursed else c.id,
                         "names": {lang: game.names.display(c, lang) for lang in langs}}
                known = out["cards"].setdefault(c.id, entry)
                if known != entry:
                    raise ScorerError(f"card {c.id} differs between the games; the site "
                                      "keys cards by id")
    return out


@cache
def data_files() -> dict[str, bytes]:
    """``cards.json`` and ``words-LANG.json`` for each language, by file name."""
    files = {"cards.json": dumps(cards_data())}
    for lang in messages.languages():
        files[f"words-{lang}.json"] = dumps({**messages.catalog(lang), "_tag": messages.tag(lang)})
    return files


def data_file(name: str) -> bytes | None:
    return data_files().get(name)
