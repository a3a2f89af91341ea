"""``fr-score serve``'s side of the Majesty page and the table view.

The pages are static files (``static/majesty.html``, ``static/table.html``), the same the
static site serves; they reach the engine through ``fsEngine``, which on the server posts
to the two calls below. Their words are ``i18n/majesty/<lang>.json``, fetched by the pages.
A rules error is a 400 with one line, ``{"detail": …}``, as everywhere in the API.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse, Response

from ..errors import ScorerError
from .majesty_calls import majesty_json, table_json

HERE = Path(__file__).resolve().parent
I18N = HERE / "i18n" / "majesty"
router = APIRouter()


async def _answer(call: Any, request: Request) -> JSONResponse:
    try:
        body = json.loads(await request.body())
    except ValueError:
        return JSONResponse({"detail": "the body is not JSON"}, status_code=422)
    try:
        return JSONResponse(call(body))
    except ScorerError as e:
        return JSONResponse({"detail": str(e)}, status_code=400)


@router.post("/api/majesty")
async def api_majesty(request: Request) -> JSONResponse:
    """Majesty's final scoring of a table of realms (see ``majesty_calls.majesty_json``)."""
    return await _answer(majesty_json, request)


@router.post("/api/table")
async def api_table(request: Request) -> JSONResponse:
    """Rank a table of Fantasy Realms hands given as their links (``table_json``)."""
    return await _answer(table_json, request)


def _page(name: str) -> Response:
    return FileResponse(HERE / "static" / name, media_type="text/html",
                        headers={"Cache-Control": "no-cache"})


@router.get("/majesty.html", include_in_schema=False)
def majesty_page() -> Response:
    return _page("majesty.html")


@router.get("/table.html", include_in_schema=False)
def table_page() -> Response:
    return _page("table.html")


@router.get("/i18n/majesty/{name}", include_in_schema=False)
def words(name: str) -> Response:
    """The pages' words in one language (``de.json``)."""
    files = {p.name for p in I18N.glob("*.json")}
    if name not in files:
        return JSONResponse({"detail": f"no words file {name} (there are "
                                       f"{', '.join(sorted(files))})"}, status_code=404)
    return FileResponse(I18N / name, media_type="application/json")
