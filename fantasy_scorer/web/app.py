"""The FastAPI application: the scoring page at ``/`` and the JSON API under ``/api``.

Everything is served from this package (template, script, stylesheet, manifest, icons): the
page works on a table with no internet. FastAPI's interactive docs load their scripts from a
CDN, so they are switched off; the OpenAPI description itself is at ``/openapi.json``.

Every error has one shape, ``{"detail": "one line"}``: the body guard's (413, 415, 422 for a
body that is not JSON), the request model's (422), the rules' (400, in the language of the
request where the sentence is translated), a busy solver's (503 with ``Retry-After``).
"""

from __future__ import annotations

import hashlib
import json
import logging
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..errors import ScorerError
from . import calls, icons, majesty_routes, page, service, sitedata
from .games import Game, Games, GameSpec
from .guard import BodyGuard
from .models import (
    AdviseResponse,
    BestResponse,
    Error,
    ExplainResponse,
    HandRequest,
    ScoreResponse,
)
from .workers import ADVICE_TIME_LIMIT, HAND_LIMIT, HANG_GUARD, Busy, Failed, Solver

HERE = Path(__file__).resolve().parent
LOG = logging.getLogger("fantasy_scorer.web")
ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": Error, "description": "The cards or choices break the rules."},
    413: {"model": Error, "description": "The body is larger than 64 KB."},
    415: {"model": Error, "description": "The body is not sent as application/json."},
    422: {"model": Error, "description": "The body is not JSON of the documented shape."},
    503: {"model": Error, "description": "The solver is busy; retry after a few seconds."},
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


#: What the offline worker of ``fr-score serve`` keeps: the script, style, manifest, icons.
SHELL = ["static/engine.js?v=__VERSION__", "static/app.js?v=__VERSION__",
         "static/qr.js?v=__VERSION__", "static/style.css?v=__VERSION__",
         "manifest.webmanifest", "icon-192.png", "icon-512.png", "data/cards.json"]


def asset_version() -> str:
    """A hash of the page's script, style and offline worker: the ``?v=`` of their addresses
    and the name of the offline cache, so that a phone never keeps an old script."""
    digest = hashlib.sha256()
    for name in sorted(p.name for p in (HERE / "static").iterdir()):
        digest.update((HERE / "static" / name).read_bytes())
    return digest.hexdigest()[:12]


def error(status: int, detail: str, **headers: str) -> JSONResponse:
    return JSONResponse({"detail": detail}, status_code=status, headers=headers or None)


def create_app(spec: GameSpec | None = None, workers: int = 0,
               advice_time_limit: float | None = ADVICE_TIME_LIMIT) -> FastAPI:
    """The app for the game of ``spec`` (the base game unless an expansion, an edition or
    homebrew card files were given). ``workers`` ≥ 1 runs the searches in that many worker
    processes (``fr-score serve`` does); 0 runs them in a thread of this process. The
    discard advice searches for ``advice_time_limit`` seconds at most (None: no limit)."""
    games = Games(spec)
    hand_limit = HAND_LIMIT if advice_time_limit is not None else HANG_GUARD
    solver = Solver(games, workers, advice_time_limit, hand_limit)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        solver.start()
        yield
        solver.close()

    app = FastAPI(
        title="fantasy-scorer",
        summary="Exact Fantasy Realms scoring: score a hand, get discard advice, explain it.",
        version=_version(),
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
    )
    assets = asset_version()
    app.state.games = games
    app.state.solver = solver
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    app.include_router(majesty_routes.router)
    templates = Jinja2Templates(directory=HERE / "templates")
    app.add_middleware(BodyGuard)

    @app.exception_handler(RequestValidationError)
    async def shape_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        return error(422, validation_message(exc))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        return error(exc.status_code, str(exc.detail), **(exc.headers or {}))

    @app.exception_handler(Exception)
    async def bug(request: Request, exc: Exception) -> JSONResponse:
        LOG.exception("unexpected error on %s", request.url.path)
        return error(500, page.INTERNAL_ERROR)

    async def answer(req: HandRequest, kind: str) -> Any:
        """The request read by the dispatcher the static site's worker calls too
        (:func:`calls.pool_of`); the search then runs in the solver's worker processes,
        which answer with the same functions of :mod:`.service` as :data:`calls.CALLS`."""
        game: Game = games.default
        lang = "en"
        try:
            lang = game.names.check_lang(req.lang)
            game = games.of(req.expansion, req.edition)
            pool, game, lang = calls.pool_of(calls.check_body(req.model_dump()), games)
            if kind == "best":
                return await solver.best(pool, lang)
            if kind == "advise":
                return await solver.advise(pool, lang)
            return (await solver.hand(pool, lang, req.optimize))[kind]
        except calls.BadBody as e:
            return error(422, str(e))
        except ScorerError as e:
            return error(400, service.error_line(e, game, lang))
        except Busy as e:
            return error(503, str(e), **{"Retry-After": str(Busy.retry_after)})
        except Failed as e:
            LOG.error("a solver failed:\n%s", e)
            return error(500, page.INTERNAL_ERROR)

    @app.post("/api/score", response_model=ScoreResponse, responses=ERRORS,
              response_model_exclude_none=False)
    async def api_score(req: HandRequest) -> Any:
        """Score a hand: total, per-card breakdown, and the choices used.

        Unpinned choices of wild cards, Book of Changes, Island and Angel are chosen
        optimally, and so is Necromancer's extra card from the discard area (``optimized``
        says whether the optimizer ran, ``proven`` whether it proved the best).
        """
        return await answer(req, "score")

    @app.post("/api/best", response_model=BestResponse, responses=ERRORS)
    async def api_best(req: HandRequest) -> Any:
        """Discard advice for one card more than a hand (8 cards, 9 with Cursed Hoards): each
        discard with the total of the hand left, best first.

        Each hand keeps the pinned choices that still apply to it; its other choices are made
        by the optimizer. The search has a time limit: ``complete`` says whether it reached
        every discard.
        """
        return await answer(req, "best")

    @app.post("/api/advise", response_model=AdviseResponse, responses=ERRORS)
    async def api_advise(req: HandRequest) -> Any:
        """Advice that looks ahead (``fr-score advise``) for one card more than a hand: each
        discard with its expected final score, chance of winning, the chance that the hand
        improves, and its gift to the next player (Monte Carlo over the unseen cards, about a
        second of sampling), the recommended discard first. Needs ``players``; the discard
        area is the one given (none: empty). Cursed Items are not played by the game engine.
        """
        return await answer(req, "advise")

    @app.post("/api/explain", response_model=ExplainResponse, responses=ERRORS)
    async def api_explain(req: HandRequest) -> Any:
        """The referee's trace of a hand: why each card scores what it does."""
        return await answer(req, "explain")

    @app.api_route("/", methods=["GET", "HEAD"], response_class=Response,
                   include_in_schema=False)
    async def index(request: Request) -> Response:
        """The page. Its address holds the hand (``code``), the game, the table and the
        language; ``toggle``, ``dtoggle``, ``pin-ID`` and a game switch (for browsers without
        script) change it and redirect to the new address."""
        try:
            view = page.read_query(games, request.query_params)
            moved = page.apply_edits(view, request.query_params)
            if moved is not None:
                keep = {"tap": page.DISCARD} if moved.tap == page.DISCARD else {}
                return RedirectResponse(page.href(moved, **keep), status_code=303)
        except ScorerError as e:
            ctx = await page.context(page.empty_view(games, request.query_params), solver,
                                     assets, error=e, base_url=str(request.base_url),
                                     address=request.url.query)
            return templates.TemplateResponse(request, "index.html", ctx, status_code=400)
        ctx = await page.context(view, solver, assets,
                                 ahead=request.query_params.get("ahead") == "1",
                                 base_url=str(request.base_url),
                                 address=request.url.query)
        return templates.TemplateResponse(request, "index.html", ctx)

    @app.get("/manifest.webmanifest", include_in_schema=False)
    def manifest(lang: str = "en") -> JSONResponse:
        """What a phone needs to install the page as an app."""
        lang = lang if lang in page.messages.languages() else "en"
        return JSONResponse(page.manifest(lang),
                            media_type="application/manifest+json")

    @app.get("/icon-{size}.png", include_in_schema=False)
    def icon(size: int) -> Response:
        if size not in icons.SIZES:
            return error(404, f"no icon of {size} px (sizes: "
                              f"{', '.join(map(str, icons.SIZES))})")
        return Response(icons.png(size), media_type="image/png",
                        headers={"Cache-Control": "public, max-age=86400"})

    @app.get("/data/{name}", include_in_schema=False)
    def data(name: str) -> Response:
        """The page's card data and words, the same bytes as the static site's ``data/``."""
        found = sitedata.data_file(name)
        if found is None:
            return error(404, f"no data file '{name}'")
        return Response(found, media_type="application/json",
                        headers={"Cache-Control": "no-cache"})

    @app.get("/sw.js", include_in_schema=False)
    def service_worker() -> Response:
        """The offline worker, served from the root so that it may serve the whole page."""
        text = (HERE / "static" / "sw.js").read_text(encoding="utf-8")
        text = text.replace('["__FILES__"]', json.dumps(SHELL)).replace("__VERSION__", assets)
        return Response(text,
                        media_type="text/javascript", headers={"Cache-Control": "no-cache"})

    return app


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("fantasy-scorer")
    except PackageNotFoundError:  # a source tree that was never installed
        return "0"
