"""What the page's template needs: the card picker, the score, the advice, the trace.

The first load is rendered here on the server from the same dicts the API returns, so a shared
link shows its hand at once (and without script); ``static/app.js`` then keeps the page live
by calling the API on every tap.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

from ..errors import ScorerError
from ..realms.catalog import Catalog
from ..realms.names import Names
from . import engine, service


def href(code: str, lang: str, **extra: str) -> str:
    """The page's address for a share code (the language only when not English)."""
    query = {"code": code, **({"lang": lang} if lang != "en" else {}), **extra}
    return "/?" + urlencode(query, safe=",:")  # readable links; a '+' is sent as %2B


def code_from_query(text: str) -> str:
    """A share code as it arrived in a URL: a ``+`` typed into a link reaches the server as a
    space, so a space between two items (not after a comma) is read back as the ``+``."""
    return re.sub(r"(?<=[^,\s])\s+(?=[^,\s])", "+", text.strip())


def apply_edits(pool: service.Pool, names: Names, toggle: str | None,
                pins: Mapping[str, str]) -> service.Pool:
    """A card tapped (``toggle=ID``) or choices pinned (``pin-ID=VALUE``) without script."""
    if toggle is not None:
        pool = pool.toggled(names.card(toggle))
    for key, value in pins.items():
        chooser = names.card(key)
        if chooser in pool.cards:
            pool = pool.pinned(chooser, service.parse_choice(chooser, value, names))
    return pool


def picker(catalog: Catalog, pool: service.Pool, lang: str) -> list[dict[str, Any]]:
    """Every card of the game grouped by its printed suit, marked when in the pool."""
    chosen = {c.id for c in pool.cards}
    groups = []
    for suit in catalog.suits:
        cards = [c for c in catalog.cards if c.suit_names[0] == suit]
        if not cards:
            continue
        groups.append({
            "suit": suit,
            "key": suit.lower().replace(" ", "-"),
            "label": engine.suit_name(suit, lang),
            "cards": [
                {
                    "id": c.id,
                    "label": engine.card_name(c, lang),
                    "strength": c.strength,
                    "selected": c.id in chosen,
                    "href": href(pool.code, lang, toggle=c.id),
                }
                for c in cards
            ],
        })
    return groups


def context(catalog: Catalog, pool: service.Pool, lang: str, version: str,
            error: str | None = None) -> dict[str, Any]:
    """Template variables for ``index.html``."""
    score = best = explain = None
    notice = None
    n = len(pool.cards)
    if n:
        try:
            score = service.score_json(pool, lang)
            explain = service.explain_json(pool, lang)
        except ScorerError as e:
            if n != service.MAX_POOL:
                error = error or str(e)
    if n == service.MAX_POOL:
        best = service.best_json(pool, lang)
        for d in best["discards"]:
            d["href"] = href(pool.code, lang, toggle=d["id"])
        if score is None:
            notice = f"{n} cards: discard one. The advice below says which."
    return {
        "version": version,
        "lang": lang,
        "languages": [{"code": code, "selected": code == lang} for code in engine.languages()],
        "groups": picker(catalog, pool, lang),
        "count": n,
        "max_cards": service.MAX_POOL,
        "code": pool.code,
        "share_href": href(pool.code, lang),
        "score": score,
        "best": best,
        "explain": explain,
        "notice": notice,
        "error": error,
        "state": {
            "cards": [c.id for c in pool.cards],
            "pins": {cid: service.choice_value(v) for cid, v in pool.choices.items()},
            "lang": lang,
            "code": pool.code,
            "max": service.MAX_POOL,
        },
    }
