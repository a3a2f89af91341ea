"""The one dispatcher both faces of the page call: ``call(kind, body) -> (status, json)``.

The page's script talks to one interface (``static/engine.js``): in ``fr-score serve`` it posts
``/api/<kind>`` to the server, on the static site (``fr-score site``) it posts the same body to
a Web Worker running this package under Pyodide. Both end here, so a score, an explanation or a
discard advice is computed by the same code whichever way the page reached it.

This module runs on the standard library alone (no pydantic, no FastAPI): the body is checked
here, shape by shape, and a bad one is a 422 with one line, as the server's request models
answer. A rule's refusal is a 400 in the language of the request; anything else a bug (500).

:data:`CALLS` is a plain registry: another page adds its kinds with one line each
(``CALLS["majesty"] = majesty_call``), a function from the JSON body to the JSON answer that
raises :class:`~fantasy_scorer.errors.ScorerError` (400) or :class:`BadBody` (422).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

from ..errors import ScorerError
from . import service
from .games import Game, Games
from .majesty_calls import majesty_json, table_json

Body = dict[str, Any]


class BadBody(ValueError):
    """A body that is not of the documented shape: answered 422 with this line."""


@dataclass
class Settings:
    """What the face that hosts the calls decides: its games, the discard advice's time
    limit (None: none), the look-ahead's budget in seconds."""

    games: Games | None = None
    time_limit: float | None = None
    budget: float = service.ADVISE_BUDGET
    ahead: bool = True  # the look-ahead can run here
    min_samples: int = service.MIN_SAMPLES  # the look-ahead's samples, whatever the budget


SETTINGS = Settings()


def configure(games: Games, time_limit: float | None = None,
              budget: float = service.ADVISE_BUDGET, ahead: bool = True,
              min_samples: int = service.MIN_SAMPLES) -> None:
    """Set the games and limits of this process (the server, a worker process, the browser;
    ``ahead``: whether the look-ahead advice can run here; ``min_samples``: the samples it
    draws even past its budget)."""
    SETTINGS.games, SETTINGS.time_limit, SETTINGS.budget = games, time_limit, budget
    SETTINGS.ahead, SETTINGS.min_samples = ahead, min_samples


def games() -> Games:
    if SETTINGS.games is None:
        SETTINGS.games = Games()
    return SETTINGS.games


# --------------------------------------------------------------------------------------------
# The body, checked as the server's request models check it
# --------------------------------------------------------------------------------------------

_KEYS = {"cards", "lang", "expansion", "edition", "cursed", "discard", "players", "choices",
         "optimize"}


def _words(body: Mapping[str, Any], key: str, most: int, default: Any = ()) -> Any:
    """A list of at most ``most`` names or ids (``default`` when the key is absent)."""
    if key not in body and default is not None:
        return list(default)
    value = body.get(key, default)
    if value is None and default is None:
        return None
    if not isinstance(value, list) or len(value) > most or not all(
            isinstance(w, str) and 0 < len(w) <= 80 for w in value):
        raise BadBody(f"{key}: a list of at most {most} names or ids")
    return value


def _word(body: Mapping[str, Any], key: str, default: str | None) -> str | None:
    value = body.get(key, default)
    if value is not None and (not isinstance(value, str) or not 0 < len(value) <= 80):
        raise BadBody(f"{key}: a short string")
    return value


def check_body(body: Any) -> Body:
    """The request of a hand (``models.HandRequest``'s shape), or :class:`BadBody`."""
    if not isinstance(body, dict):
        raise BadBody("body: a JSON object")
    unknown = sorted(set(body) - _KEYS)
    if unknown:
        raise BadBody(f"{unknown[0]}: Extra inputs are not permitted")
    if "cards" not in body:
        raise BadBody("cards: Field required")
    players = body.get("players")
    if players is not None and (not isinstance(players, int) or isinstance(players, bool)):
        raise BadBody("players: a whole number")
    choices = body.get("choices", {})
    if not isinstance(choices, dict) or len(choices) > 20 or not all(
            isinstance(k, str) and (v is None or isinstance(v, str) and len(v) <= 160)
            for k, v in choices.items()):
        raise BadBody("choices: an object of card -> choice (or null)")
    if not isinstance(body.get("optimize", True), bool):
        raise BadBody("optimize: true or false")
    return {
        "cards": _words(body, "cards", 20), "lang": _word(body, "lang", "en"),
        "expansion": _word(body, "expansion", None), "edition": _word(body, "edition", None),
        "cursed": _words(body, "cursed", 30), "discard": _words(body, "discard", 20, None),
        "players": players, "choices": choices, "optimize": body.get("optimize", True),
    }


def pool_of(body: Body, where: Games | None = None) -> tuple[service.Pool, Game, str]:
    """The pool a checked body describes, its game and the answer's language (in the games
    ``where``, else this process's)."""
    where = where or games()
    lang = where.default.names.check_lang(body["lang"])
    game = where.of(body["expansion"], body["edition"])
    table = service.Table(body["cursed"], body["discard"], body["players"])
    pool = service.pool_from_request(game, body["cards"], body["choices"], table, lang)
    return pool, game, lang


# --------------------------------------------------------------------------------------------
# The kinds
# --------------------------------------------------------------------------------------------


def score(body: Body) -> Body:
    """``/api/score``: the total, the score sheet, the choices made."""
    pool, _, lang = pool_of(check_body(body))
    return service.score_json(pool, lang, body.get("optimize", True))


def explain(body: Body) -> Body:
    """``/api/explain``: the referee's trace."""
    pool, _, lang = pool_of(check_body(body))
    return service.explain_json(pool, lang, body.get("optimize", True))


def hand(body: Body) -> Body:
    """The score and the trace together (the optimizer runs once for both)."""
    pool, _, lang = pool_of(check_body(body))
    return service.hand_json(pool, lang, body.get("optimize", True))


def best(body: Body) -> Body:
    """``/api/best``: each discard of one card too many with the total left, best first."""
    pool, _, lang = pool_of(check_body(body))
    return service.best_json(pool, lang, SETTINGS.time_limit)


def advise(body: Body) -> Body:
    """``/api/advise``: the look-ahead advice (Monte Carlo play-outs). Where it cannot run
    it is refused with a sentence that says so, after the refusals any place makes (so the
    page shows the right reason)."""
    pool, _, lang = pool_of(check_body(body))
    if not SETTINGS.ahead:
        service.check_ahead(pool)
        raise service.Refusal("error.ahead_browser")
    return service.advise_json(pool, lang, SETTINGS.budget, SETTINGS.min_samples)


def read(body: Body) -> Body:
    """The page's state for an address: ``{"query": "code=…&lang=de"}`` (the page's own
    links, the web scorer's ``hand=…`` links, a game switch's ``was=``) read as the server
    reads its address, so the static page shows what the server page would."""
    from . import page  # (the page's address reader; imported here, used by this kind only)

    query = body.get("query", "") if isinstance(body, dict) else None
    if not isinstance(query, str) or len(query) > 4000:
        raise BadBody("query: the address's query string")
    params = dict(parse_qsl(query.lstrip("?"), keep_blank_values=True))
    view = page.read_query(games(), params)
    return page.state_of(view)


CALLS: dict[str, Callable[[Body], Body]] = {
    "score": score,
    "explain": explain,
    "hand": hand,
    "best": best,
    "advise": advise,
    "read": read,
    "majesty": majesty_json,
    "table": table_json,
}


def call(kind: str, body: Any) -> tuple[int, Body]:
    """``(status, answer)``: 200 and the kind's JSON, or a 4xx/500 with ``{"detail": line}``
    (400 a rule's refusal, in the request's language; 404 an unknown kind; 422 a bad body)."""
    fn = CALLS.get(kind)
    if fn is None:
        return 404, {"detail": f"unknown call '{kind}' (known: {', '.join(sorted(CALLS))})"}
    try:
        return 200, fn(body)
    except BadBody as e:
        return 422, {"detail": str(e)}
    except ScorerError as e:
        return 400, {"detail": _error_line(e, body)}


def _error_line(err: ScorerError, body: Any) -> str:
    """The refusal in the request's language when the body names a known one."""
    lang = body.get("lang") if isinstance(body, dict) else None
    if isinstance(err, service.Refusal) and isinstance(lang, str):
        try:
            game = games().of(body.get("expansion"), body.get("edition"))
            return service.error_line(err, game, games().default.names.check_lang(lang))
        except ScorerError:
            pass
    return str(err)
