"""What the page's template needs: its address read, the card picker, the score, the advice.

The page's address holds everything on the table, so that a link (or Back) shows it again::

    /?code=FR01,FR08+FR52:FR11&discard=FR21,FR37&players=4&expansion=cursed-hoards&lang=de

``code`` is the hand as a share code (Cursed Items listed like cards), ``discard`` the discard
area, ``players`` the number of players, ``expansion`` and ``edition`` the game (left out when
they are the server's own game), ``lang`` the language (left out for English).

The first load is rendered here on the server from the same dicts the API returns, so a shared
link shows its hand at once (and without script); ``static/app.js`` then keeps the page live
by calling the API on every tap. Every word on the page comes from :mod:`.messages`.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from ..errors import ScorerError
from ..inputs import whole_number
from ..realms.catalog import Card, fold
from ..realms.names import check_lang
from . import engine, messages, service
from .games import NO_EXPANSION, STANDARD, Game, GameKey, Games, counterpart

if TYPE_CHECKING:  # (the worker processes are the server's; the browser has none)
    from .workers import Solver

HAND, DISCARD = "hand", "discard"
LOG = logging.getLogger("fantasy_scorer.web")
#: What the page says of a solver's bug, as the API's 500 does: the worker's traceback goes
#: to the server log, never onto the page.
INTERNAL_ERROR = "internal error: the server log has the details"


@dataclass(frozen=True)
class View:
    """Everything one address shows: the game, the pool, the language, where taps go, and
    the cards a switch of game left out."""

    games: Games
    pool: service.Pool
    lang: str = "en"
    tap: str = HAND
    left: tuple[str, ...] = field(default_factory=tuple)

    @property
    def game(self) -> Game:
        return self.pool.game


def code_from_query(text: str) -> str:
    """A share code as it arrived in a URL: a ``+`` typed into a link reaches the server as a
    space, so a space between two items (not after a comma) is read back as the ``+``."""
    return re.sub(r"(?<=[^,\s])\s+(?=[^,\s])", "+", text.strip())


def _players(text: str | None) -> int | None:
    if text is None or text.strip() in ("", "-"):
        return None
    t = text.strip()
    if not (t.isascii() and t.isdigit()):  # (str.isdigit alone takes '²')
        raise ScorerError(f"players must be a number from 2 to 6, got '{t[:20]}'")
    return whole_number(t, "players")  # (5,000 digits: one line, never a ValueError)


#: The query parameters of the web scorer's page links (read by :func:`read_web_link`).
WEB_KEYS = ("hand", "discard", "expansions", "playerCount")


def read_web_link(games: Games, text: str, lang: str) -> View:
    """The view of a web scorer's link (``?hand=…&discard=…&expansions=…&playerCount=…``),
    or of a code in its form: its game, cards, choices, discard area and players."""
    def catalog_of(expansion: str | None, edition: str) -> Any:
        return games.get(games.key(expansion or NO_EXPANSION, edition)).catalog

    link = engine.read_link(text, catalog_of)
    game = games.get(games.key(link.expansion or NO_EXPANSION, link.edition))
    try:
        pool = service.Pool(game, link.code.cards, link.code.choices or {}, link.code.cursed,
                            link.discard, link.players)
    except service.Refusal:
        raise
    except ScorerError as e:
        raise ScorerError(e.message, engine.CODE_WHERE) from None
    return View(games, pool, lang)


def read_query(games: Games, params: Mapping[str, str]) -> View:
    """The view an address describes (the page's own, or a web scorer's link); a one-line
    error for anything it cannot read."""
    lang = check_lang(params.get("lang") or "en")
    if "hand" in params:
        if "code" in params:
            raise ScorerError("the address has both hand= and code=; keep one")
        text = "?" + urlencode({k: params[k] for k in WEB_KEYS if k in params})
        return read_web_link(games, text, lang)
    pasted = params.get("code", "")
    if engine.looks_like_link(pasted):  # a whole link pasted into the code box
        return read_web_link(games, pasted, lang)
    game = games.of(params.get("expansion"), params.get("edition"))
    code = code_from_query(params.get("code", ""))
    discard = params.get("discard", "")
    players = _players(params.get("players"))
    left: tuple[str, ...] = ()
    if params.get("was"):  # the game switch: the hand was written in another game's ids
        old_key = _game_key(games, params["was"])
        old = service.pool_from_code(games.get(old_key), code, discard, players)
        pool, dropped = switch(old, game)
        left = tuple(games.get(old_key).names.display(c, lang) for c in dropped)
    else:
        pool = service.pool_from_code(game, code, discard, players)
    tap = DISCARD if params.get("tap") == DISCARD else HAND
    return View(games, pool, lang, tap, left)


def empty_view(games: Games, params: Mapping[str, str]) -> View:
    """The view of a refused address: no cards, in its language and game if those were fine."""
    try:
        lang = check_lang(params.get("lang") or "en")
    except ScorerError:
        lang = "en"
    try:
        game = games.of(params.get("expansion"), params.get("edition"))
    except ScorerError:
        game = games.default
    return View(games, service.Pool(game, discard=()), lang)


def _game_key(games: Games, text: str) -> GameKey:
    expansion, _, edition = text.partition("/")
    return games.key(expansion or None, edition or None)


def switch(pool: service.Pool, game: Game) -> tuple[service.Pool, list[Card]]:
    """The pool moved to another game (its replaced cards become their counterparts); the
    cards that game lacks are left out, with the pins that named them."""
    dropped: list[Card] = []

    def move(cards: tuple[Card, ...]) -> tuple[Card, ...]:
        out = []
        for c in cards:
            other = counterpart(c, game.catalog)
            if other is None:
                dropped.append(c)
            else:
                out.append(other)
        return tuple(out)

    cards, cursed = move(pool.cards), move(pool.cursed)
    area = None if pool.discard is None else move(pool.discard)
    pins: dict[str, Any] = {}
    for cid, value in pool.choices.items():
        chooser = counterpart(pool.catalog.by_id[cid], game.catalog)
        if chooser is None:
            continue
        if isinstance(value, tuple):
            target = counterpart(value[0], game.catalog)
            moved = None if target is None else (target, value[1])
        else:
            moved = value if value is None else counterpart(value, game.catalog)
        if value is None or moved is not None:
            pins[chooser.id] = moved
    base = service.Pool(game, cards, {}, cursed, area, pool.players)
    kept = base
    for cid, value in pins.items():
        try:
            kept = service.Pool(game, cards, {**kept.choices, cid: value}, cursed, area,
                                pool.players)
        except ScorerError:
            continue
    return kept, dropped


def apply_edits(view: View, params: Mapping[str, str]) -> View | None:
    """A tap or a choice made without script (``toggle=ID``, ``dtoggle=ID``, ``pin-ID=VALUE``,
    ``reset``): the changed view, to redirect to; None when the address changes nothing."""
    pool = view.pool
    names = view.game.names
    changed = False
    if "reset" in params:
        pool = service.Pool(view.game, discard=() if pool.discard is not None else None,
                            players=pool.players)
        changed = True
    if params.get("toggle"):
        pool = pool.toggled(names.card(params["toggle"], view.lang))
        changed = True
    if params.get("dtoggle"):
        pool = pool.toggled_discard(names.card(params["dtoggle"], view.lang))
        changed = True
    for key, value in params.items():
        if key.startswith("pin-"):
            chooser = names.card(key[4:], view.lang)
            if chooser in pool.cards:
                pool = pool.pinned(chooser, service.parse_choice(view.game, chooser, value,
                                                                 view.lang))
                changed = True
    return replace(view, pool=pool, left=()) if changed else None


# --------------------------------------------------------------------------------------------
# Addresses
# --------------------------------------------------------------------------------------------


def game_params(games: Games, key: GameKey) -> dict[str, str]:
    """The address's game: left out when it is the server's default and the base game."""
    default = games.spec.default
    out = {}
    if key.expansion != NO_EXPANSION or default.expansion != NO_EXPANSION:
        out["expansion"] = key.expansion
    if key.edition != STANDARD or default.edition != STANDARD:
        out["edition"] = key.edition
    return out


def params_of(view: View, **extra: str) -> dict[str, str]:
    pool = view.pool
    query: dict[str, str] = {"code": pool.code}
    if pool.discard:
        query["discard"] = pool.discard_code
    if pool.players is not None:
        query["players"] = str(pool.players)
    query.update(game_params(view.games, view.game.key))
    if view.lang != "en":
        query["lang"] = view.lang
    query.update(extra)
    return query


def href(view: View, **extra: str) -> str:
    """The page's address for a view (readable: commas and colons stay; ``+`` is ``%2B``)."""
    return "/?" + urlencode(params_of(view, **extra), safe=",:/")


def shown(pool: service.Pool) -> engine.Shown:
    return engine.Shown(pool.catalog, pool.cards, pool.choices, pool.cursed, pool.discard,
                        pool.players)


def share_href(view: View) -> str:
    """The share link's address: the web scorer's own link format (``?expansions=…&
    playerCount=…&hand=…&discard=…``), which this page reads too, and the language."""
    query = engine.share(shown(view.pool))["query"]
    if not query:
        return href(view)
    return "/?" + query + ("&lang=" + view.lang if view.lang != "en" else "")


# --------------------------------------------------------------------------------------------
# The picker
# --------------------------------------------------------------------------------------------


def search_words(game: Game, card: Card) -> str:
    """Every name of a card in every language, folded, for the page's search box."""
    names = {fold(card.name), fold(card.id)}
    for lang in messages.languages():
        names.add(fold(game.names.display(card, lang)))
    return "|".join(sorted(names))


def suit_key(suit: str) -> str:
    return suit.lower().replace(" ", "-")


def picker(view: View) -> list[dict[str, Any]]:
    """Every card of the game grouped by its printed suit (the Cursed Items apart), each
    marked when in hand, among the Cursed Items held, or in the discard area."""
    pool, game, lang = view.pool, view.game, view.lang
    held = {c.id for c in pool.cards + pool.cursed}
    area = {c.id for c in pool.discard or ()}
    toggle = "dtoggle" if view.tap == DISCARD else "toggle"
    tap = {"tap": DISCARD} if view.tap == DISCARD else {}

    def entry(c: Card) -> dict[str, Any]:
        return {
            "id": c.id,
            "label": game.names.display(c, lang),
            "strength": c.strength,
            "selected": c.id in held,
            "in_discard": c.id in area,
            "cursed": c.cursed,
            "search": search_words(game, c),
            "href": href(view, toggle=c.id) if c.cursed else href(view, **{toggle: c.id}, **tap),
        }

    groups = []
    for suit in game.catalog.suits:
        cards = [c for c in game.catalog.suit_cards if c.suit_names[0] == suit]
        if cards:
            groups.append({"key": suit_key(suit), "label": game.names.suit_display(suit, lang),
                           "cursed": False, "cards": [entry(c) for c in cards]})
    cursed = [c for c in game.catalog.cards if c.cursed]
    if cursed:
        groups.append({"key": "cursed-item", "label": messages.text(lang, "picker.cursed"),
                       "cursed": True, "cards": [entry(c) for c in cursed]})
    return groups


# --------------------------------------------------------------------------------------------
# The page
# --------------------------------------------------------------------------------------------


async def context(view: View, solver: Solver | None, version: str,
                  error: ScorerError | None = None, ahead: bool = False,
                  engine_mode: str = "server", base_url: str = "",
                  address: str = "") -> dict[str, Any]:
    """Template variables for ``index.html`` (``version``: the assets' hash, for ``?v=``).
    ``ahead``: compute the look-ahead advice now (a browser without script asked for it;
    the script fetches it by itself after the page loads). ``engine_mode``: how the page's
    script reaches the engine (``static/engine.js``: "server" or "worker", the static site,
    whose page is this template rendered with an empty view and no solver). ``address``: the
    query the page answers (the script knows from it a page the offline worker saved for
    another address)."""
    from .workers import Busy, Failed

    pool, game, lang = view.pool, view.game, view.lang

    def t(key: str, **values: Any) -> str:
        return messages.text(lang, key, **values)

    problem = service.error_line(error, game, lang) if error is not None else None
    score = best = explain = None
    if pool.cards and solver is not None:
        try:
            data = await solver.hand(pool, lang)
            score, explain = data["score"], data["explain"]
        except ScorerError as e:
            if not pool.advisable:
                problem = problem or service.error_line(e, game, lang)
        except Busy as e:
            problem = problem or str(e)
        except Failed as e:
            problem = problem or failed_line(e, lang)
    if pool.advisable and problem is None and solver is not None:
        try:
            best = await solver.best(pool, lang)
            for d in best["discards"]:
                d["href"] = href(view, toggle=d["id"])
        except ScorerError as e:
            problem = service.error_line(e, game, lang)
        except Busy as e:
            problem = str(e)
        except Failed as e:
            problem = failed_line(e, lang)
    advise = await _ahead(view, solver, ahead) if best is not None and solver else None
    notices = []
    if view.left:
        notices.append(t("notice.left_out", cards=", ".join(view.left)))
    if best and score is None:
        notices.append(t("notice.discard_one", n=len(pool.cards)))
    n = len(pool.cards)
    state = {**state_of(view), "t": messages.catalog(lang), "address": address}
    return {
        "t": t,
        "engine": engine_mode,
        "base_url": base_url,
        "version": version,
        "lang": lang,
        "tag": messages.tag(lang),
        "languages": [{"code": code, "tag": messages.tag(code),
                       "name": messages.language_name(code),
                       "selected": code == lang} for code in messages.languages()],
        "game": {
            "expansion": game.key.expansion, "edition": game.key.edition,
            "was": game.key.label, "has_cursed": game.has_cursed,
            "reads_table": game.reads_table, "hand_size": game.hand_size,
            "max": game.max_pool, "summary": game_summary(view),
        },
        "players": pool.players,
        "tap": view.tap,
        "groups": picker(view),
        "discard": [{"id": c.id, "label": game.names.display(c, lang),
                     "href": href(view, dtoggle=c.id, tap=DISCARD)}
                    for c in pool.discard or ()],
        "count": n,
        "code": pool.code,
        "share_href": share_href(view),
        "share_code": engine.share(shown(pool))["code"],
        "reset_href": href(view, reset="1"),
        "tap_hrefs": {HAND: href(view), DISCARD: href(view, tap=DISCARD)},
        "hidden": params_of(view),
        "score": score,
        "best": best,
        "advise": advise,
        "explain": explain,
        "notices": notices,
        "error": problem,
        "state": state,
    }


def state_of(view: View) -> dict[str, Any]:
    """What the page's script keeps of an address: the pool as ids, the table, the game, the
    language (``read`` answers this for the static page, which has no server to render it)."""
    pool, game, lang = view.pool, view.game, view.lang
    return {
        "cards": [c.id for c in pool.cards],
        "cursed": [c.id for c in pool.cursed],
        "discard": [c.id for c in pool.discard or ()],
        "pins": {cid: service.choice_value(v) for cid, v in pool.choices.items()},
        "players": pool.players,
        "lang": lang,
        "tag": messages.tag(lang),
        "code": pool.code,
        "game": game_params(view.games, game.key),
        "key": game.key.label,
        "max": game.max_pool,
        "hand_size": game.hand_size,
        "tap": view.tap,
        "left": list(view.left),
    }


async def _ahead(view: View, solver: Solver, now: bool) -> dict[str, Any]:
    """The look-ahead section: the number of players asked for, a link that computes the
    advice (a page without script), or the advice itself."""
    from .workers import Busy, Failed

    pool, lang = view.pool, view.lang
    if pool.players is None:
        return {"need_players": True}
    if not now:
        return {"link": href(view, ahead="1")}
    try:
        data = await solver.advise(pool, lang)
    except ScorerError as e:
        return {"problem": service.error_line(e, view.game, lang)}
    except Busy as e:
        return {"problem": str(e)}
    except Failed as e:
        return {"problem": failed_line(e, lang)}
    for o in data["options"]:
        o["href"] = href(view, toggle=o["id"])
    return data


def failed_line(failure: Exception, lang: str) -> str:
    """A solver's bug on the page: one line for the player, the traceback in the log."""
    LOG.error("a solver failed:\n%s", failure)
    return messages.text(lang, "error.server", detail=INTERNAL_ERROR)


def game_summary(view: View) -> str:
    """``Cursed Hoards · Deluxe · 4 players`` (the game panel's closed line)."""
    key, lang = view.game.key, view.lang
    parts = [messages.text(lang, "game.cursed_hoards" if key.expansion != NO_EXPANSION
                           else "game.base")]
    if key.edition != STANDARD:
        parts.append(messages.text(lang, "game.deluxe"))
    if view.pool.players is not None:
        parts.append(messages.text(lang, "game.players_n", n=view.pool.players))
    return " · ".join(parts)


def manifest(lang: str, relative: bool = False) -> dict[str, Any]:
    """The web app manifest: a name, the page's colours, the icons (maskable too).
    ``relative``: addresses relative to the manifest (the static site, which may be served
    from a folder of its host, as GitHub Pages does)."""
    root = "./" if relative else "/"
    icons = [{"src": f"{root}icon-{s}.png", "sizes": f"{s}x{s}", "type": "image/png",
              "purpose": "any maskable"} for s in (192, 512)]
    return {
        "name": messages.text(lang, "app.name"),
        "short_name": messages.text(lang, "app.short_name"),
        "description": messages.text(lang, "app.description"),
        "lang": messages.tag(lang),
        "start_url": root if lang == "en" else f"{root}?lang={lang}",
        "scope": root,
        "display": "standalone",
        "background_color": "#f6f3ee",
        "theme_color": "#4a2d5c",
        "icons": icons,
    }
