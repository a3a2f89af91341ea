"""The package inside the browser: what ``static/worker.js`` runs under Pyodide.

The static site (``fr-score site``) ships this package's pure-Python code and, beside it, the
shipped catalogs already compiled (a pickle made when the site was built), because the browser
has no YAML parser: :func:`boot` puts them where :func:`~..realms.catalog.base_catalog` finds
them, then every request of the page goes through :func:`handle`, the same dispatcher
(:mod:`.calls`) as the server's API. Nothing here imports NumPy, Numba, OR-Tools, PyYAML or
click: the searches used are the pure-Python ones, and the look-ahead advice's scorer scores
with ``score_hand`` (``realms.game.scoring``; ``tests/web/test_site.py`` checks it).
"""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

from . import calls
from .games import Games

#: Seconds the look-ahead samples for in the browser (the page's goal is an answer within 2 s).
BROWSER_BUDGET = 1.5
#: Samples the look-ahead draws in the browser whatever its budget: one (``advise``'s
#: ``min_samples``: without it a slow first sample would leave the page no figures; more would
#: keep the next tap waiting, as the browser scores in pure Python). The page says how many it
#: drew, and that few are rough.
BROWSER_MIN_SAMPLES = 1

#: Modules that must never load in the browser (the site has no wheels for them).
NATIVE = ("numpy", "numba", "ortools", "yaml", "click", "llvmlite")


def install_catalogs(found: dict[tuple[str | None, str | None], Any]) -> None:
    """Make ``base_catalog(expansion, edition)`` answer the prebuilt catalogs ``found`` (keyed
    as the catalog module keys its shipped games), compiling only a game not among them."""
    from ..realms.catalog import use_prebuilt

    use_prebuilt(found)


def boot(catalogs: str | Path) -> None:
    """Load the prebuilt catalogs and set up the dispatcher for the page (called once)."""
    with Path(catalogs).open("rb") as f:
        install_catalogs(pickle.load(f))
    calls.configure(Games(), time_limit=None, budget=BROWSER_BUDGET,
                    min_samples=BROWSER_MIN_SAMPLES)


def handle(kind: str, body: str) -> str:
    """One request of the page: ``{"status": 200, "body": {...}}`` as JSON text."""
    try:
        data = json.loads(body)
    except ValueError:
        status, answer = 422, {"detail": "body: not JSON"}
    else:
        status, answer = calls.call(kind, data)
    return json.dumps({"status": status, "body": answer}, ensure_ascii=False)
