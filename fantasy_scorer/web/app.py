"""The FastAPI application: the scoring page at ``/`` and the JSON API under ``/api``.

Everything is served from this package (template, script, stylesheet): the page works on a
table with no internet. FastAPI's interactive docs load their scripts from a CDN, so they are
switched off; the OpenAPI description itself is at ``/openapi.json``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from ..errors import ScorerError
from ..realms.catalog import Catalog, base_catalog
from ..realms.names import Names
from . import engine, page, service
from .models import BestResponse, Error, ExplainResponse, HandRequest, ScoreResponse

HERE = Path(__file__).resolve().parent
ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": Error, "description": "The cards or choices break the rules."},
    422: {"model": Error, "description": "The request is not of the documented shape."},
}


def validation_message(exc: RequestValidationError) -> str:
    """Pydantic's list of problems as one line: ``cards.3: String should have …``."""
    errors = exc.errors()
    if not errors:
        return "invalid request"
    first = errors[0]
    loc = [str(p) for p in first.get("loc", ()) if p != "body"]
    where = ".".join(loc) or "body"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{where}: {first.get('msg', 'invalid')}{more}"


def create_app(catalog: Catalog | None = None) -> FastAPI:
    """The app for ``catalog`` (the base game unless homebrew cards were loaded)."""
    catalog = catalog or base_catalog()
    names = Names(catalog)
    app = FastAPI(
        title="fantasy-scorer",
        summary="Exact Fantasy Realms scoring: score a hand, get discard advice, explain it.",
        version=_version(),
        docs_url=None,
        redoc_url=None,
    )
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    templates = Jinja2Templates(directory=HERE / "templates")

    @app.exception_handler(ScorerError)
    async def rules_error(request: Request, exc: ScorerError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=400)

    @app.exception_handler(RequestValidationError)
    async def shape_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": validation_message(exc)}, status_code=422)

    def pool_of(req: HandRequest) -> tuple[service.Pool, str]:
        lang = engine.check_lang(req.lang)
        return service.pool_from_request(catalog, names, req.cards, req.choices), lang

    @app.post("/api/score", response_model=ScoreResponse, responses=ERRORS,
              response_model_exclude_none=False)
    def api_score(req: HandRequest) -> dict[str, Any]:
        """Score a hand: total, per-card breakdown, and the choices used.

        Unpinned choices of wild cards, Book of Changes and Island are chosen optimally
        (``optimized`` says whether the optimizer ran, ``proven`` whether it proved the best).
        """
        pool, lang = pool_of(req)
        return service.score_json(pool, lang, req.optimize)

    @app.post("/api/best", response_model=BestResponse, responses=ERRORS)
    def api_best(req: HandRequest) -> dict[str, Any]:
        """Discard advice for 8 cards: each discard with the total of the 7 cards left.

        Each 7-card hand keeps the pinned choices that still apply to it; its other choices
        are made by the optimizer.
        """
        pool, lang = pool_of(req)
        return service.best_json(pool, lang)

    @app.post("/api/explain", response_model=ExplainResponse, responses=ERRORS)
    def api_explain(req: HandRequest) -> dict[str, Any]:
        """The referee's trace of a hand: why each card scores what it does."""
        pool, lang = pool_of(req)
        return service.explain_json(pool, lang, req.optimize)

    @app.get("/", response_class=Response, include_in_schema=False)
    def index(request: Request, code: str = "", lang: str = "en",
              toggle: str | None = None) -> Response:
        """The page. ``toggle`` and ``pin-ID`` parameters (links and the form, for browsers
        without script) change the hand and redirect to its canonical address."""
        pins = {k[4:]: v for k, v in request.query_params.items() if k.startswith("pin-")}
        try:
            lang = engine.check_lang(lang)
            pool = service.pool_from_code(catalog, page.code_from_query(code))
            if toggle is not None or pins:
                pool = page.apply_edits(pool, names, toggle, pins)
                return RedirectResponse(page.href(pool.code, lang), status_code=303)
        except ScorerError as e:
            ctx = page.context(catalog, service.Pool(catalog), "en", app.version,
                               error=str(e))
            return templates.TemplateResponse(request, "index.html", ctx, status_code=400)
        ctx = page.context(catalog, pool, lang, app.version)
        return templates.TemplateResponse(request, "index.html", ctx)

    return app


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("fantasy-scorer")
    except PackageNotFoundError:  # a source tree that was never installed
        return "0"
