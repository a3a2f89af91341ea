"""The Majesty page and the table view in the static site (``fr-score site OUT``).

``fr-score serve`` serves ``static/majesty.html`` and ``static/table.html`` as they are (their
engine posts to the server). The static site needs them at its root, in the ``worker`` mode
of ``static/engine.js`` (the Python package under Pyodide), and the pages' words beside
them: :data:`PAGES` maps each of these files to a function writing its bytes, in the form of
the site builder's own table of pages, which takes them with one line
(``PAGES.update(majesty_site.PAGES)``). The bytes depend on the package's files alone, so
the build stays reproducible.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SERVER_MODE = '<meta name="fs-engine" content="server">'
WORKER_MODE = '<meta name="fs-engine" content="worker">'
HTML = ("majesty.html", "table.html")


def page(name: str) -> bytes:
    """``static/NAME`` with its engine in the worker mode."""
    text = (HERE / "static" / name).read_text(encoding="utf-8")
    if SERVER_MODE not in text:
        raise ValueError(f"static/{name} has no {SERVER_MODE} to switch")
    return text.replace(SERVER_MODE, WORKER_MODE, 1).encode("utf-8")


def _page(name: str) -> Callable[[Any], bytes]:
    return lambda site: page(name)


def _words(path: Path) -> Callable[[Any], bytes]:
    return lambda site: path.read_bytes()


#: File of the site -> a function of the site being built writing its bytes.
PAGES: dict[str, Callable[[Any], bytes]] = {
    **{name: _page(name) for name in HTML},
    **{f"i18n/majesty/{p.name}": _words(p)
       for p in sorted((HERE / "i18n" / "majesty").glob("*.json"))},
}
