"""The engine calls of the Majesty page and the table view: JSON in, JSON out.

Both pages reach the engine through one interface (``fsEngine.call(kind, body)``), which posts
to the server's ``/api/<kind>`` or runs this module in the browser under Pyodide. So this
module is pure Python on the standard library and the package's rules: no web framework, no
YAML parser, no compiled search (a test imports it and checks that none of them is loaded).

* ``majesty``: Majesty's final scoring (:func:`fantasy_scorer.majesty.scoring.score`) of the
  realms entered on the page, as counts at the eight locations.
* ``table``: several players' hands, each given as the link (or share code) of its page, read
  by :func:`fantasy_scorer.realms.formats.sharecode.read_share`, scored and placed by
  :func:`fantasy_scorer.realms.solve.api.rank_hands` with the game's tie-break (the lower base
  strength), as ``fr-score game`` ranks a table file.

Every bad input raises :class:`~fantasy_scorer.errors.ScorerError` with one line saying what is
wrong and how to fix it (the server answers it as a 400). The answers carry data, not
sentences: the pages say them in their language from ``i18n/majesty/<lang>.json``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import ScorerError, clip
from ..majesty.names import LANGUAGES as MAJESTY_LANGUAGES
from ..majesty.names import character_name, location_name
from ..majesty.rules import (
    INFIRMARY,
    LOCATIONS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    REALM,
    REALM_SIZE,
    locations_for,
    parse_side,
    side_label,
)
from ..majesty.scoring import score

#: The longest player name the pages take (a name is shown in a title and a narrow column).
NAME_LIMIT = 24
#: More points than any game reaches: a typo guard, not a rule.
POINTS_LIMIT = 999


def _fields(body: object, allowed: tuple[str, ...], what: str) -> Mapping[str, Any]:
    """The body as a mapping whose keys are all known (nothing the user sent is ignored)."""
    if not isinstance(body, Mapping):
        raise ScorerError(f"{what} is a JSON object with {', '.join(allowed)}")
    unknown = [k for k in body if k not in allowed]
    if unknown:
        raise ScorerError(f"unknown field '{clip(str(unknown[0]))}' in {what} "
                          f"(it has {', '.join(allowed)})")
    return body


def _whole(value: object, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScorerError(f"{where} must be a whole number from {low} to {high}, "
                          f"not {clip(repr(value))}")
    if not low <= value <= high:
        raise ScorerError(f"{where} is {value}; it must be from {low} to {high}")
    return value


def _name(value: object, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ScorerError(f"{where} needs a name (a few letters)")
    name = value.strip()
    if len(name) > NAME_LIMIT:
        raise ScorerError(f"{where}: the name '{clip(name)}' is longer than {NAME_LIMIT} "
                          "characters; shorten it")
    if any(ch in name for ch in ",&=#"):
        raise ScorerError(f"{where}: the name '{clip(name)}' holds one of , & = #, which the "
                          "page's address uses; leave them out")
    return name


def _page_lang(body: Mapping[str, Any]) -> str:
    """The request's language: one of the pages' (English when none is given)."""
    from ..realms.names import check_lang

    lang = body.get("lang", "en")
    if not isinstance(lang, str):
        raise ScorerError("lang is a language code such as 'de'")
    try:
        return check_lang(lang)
    except ScorerError as e:
        raise ScorerError(e.message) from None


def _lang(body: Mapping[str, Any]) -> str:
    """The language of Majesty's names in the answer: they exist only in some of the pages'
    languages (:data:`fantasy_scorer.majesty.names.LANGUAGES`); the others get English."""
    lang = _page_lang(body)
    return lang if lang in MAJESTY_LANGUAGES else "en"


# --------------------------------------------------------------------------------------------
# Majesty
# --------------------------------------------------------------------------------------------


def majesty_json(body: dict[str, Any]) -> dict[str, Any]:
    """Majesty's final scoring of the page's table.

    ``body``: ``{"side": "A", "players": [{"name": "Alice", "realm": [3, 0, 2, 1, 2, 1, 2, 1],
    "points": 0}, …], "lang": "en"}`` (counts at locations 1-8, the Infirmary last; points
    gained during the game, 0 when left out). A realm of fewer than 12 characters is scored
    as it stands (the page is filled in one tap at a time) and listed in ``unfinished``.
    """
    body = _fields(body, ("side", "players", "lang"), "a Majesty request")
    side_text = body.get("side", "A")
    try:
        side = parse_side(side_text if isinstance(side_text, str) else repr(side_text))
    except ValueError as e:
        raise ScorerError(str(e)) from None
    players = body.get("players")
    if not isinstance(players, list) or not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        count = len(players) if isinstance(players, list) else 0
        raise ScorerError(f"Majesty is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                          f"not {count}; add or remove players")
    names: list[str] = []
    points: list[int] = []
    realms: list[list[int]] = []
    for i, entry in enumerate(players):
        entry = _fields(entry, ("name", "realm", "points"), f"player {i + 1}")
        name = _name(entry.get("name"), f"player {i + 1}")
        if name in names:
            raise ScorerError(f"two players are called {name}; give them different names")
        realm = entry.get("realm")
        if not isinstance(realm, list) or len(realm) != len(LOCATIONS):
            raise ScorerError(f"{name}: a realm is {len(LOCATIONS)} counts, one per location "
                              f"({', '.join(LOCATIONS)})")
        counts = [_whole(n, f"{name}: the count at the {LOCATIONS[loc]}", 0, REALM_SIZE)
                  for loc, n in enumerate(realm)]
        if sum(counts) > REALM_SIZE:
            raise ScorerError(f"{name}: the realm holds {sum(counts)} characters; a realm "
                              f"holds at most {REALM_SIZE}, the Infirmary included")
        names.append(name)
        realms.append(counts)
        points.append(_whole(entry.get("points", 0), f"{name}: points", 0, POINTS_LIMIT))
    lang = _lang(body)
    final = score(side, names, points, realms)
    values = [loc.value for loc in locations_for(side)]
    top = max(p.total for p in final.players)
    return {
        "side": side_label(side),
        "lang": lang,
        "locations": [location_name(i, lang) for i in range(len(LOCATIONS))],
        "characters": [character_name(i, lang) for i in REALM],
        "values": values,
        "players": [
            {
                "name": p.name,
                "points": p.points,
                "infirmary": p.infirmary,
                "infirmary_cards": p.infirmary_cards,
                "infirmary_most": p.infirmary_most,
                "in_infirmary": realm[INFIRMARY],
                "occupied": sum(1 for loc in REALM if realm[loc] >= 1),
                "variety": p.variety,
                "majorities": [
                    {"location": LOCATIONS.index(loc), "value": value,
                     "shared_with": list(p.shared.get(loc, ()))}
                    for loc, value in p.majorities.items()
                ],
                "characters": sum(realm),
                "total": p.total,
            }
            for p, realm in zip(final.players, realms, strict=True)
        ],
        "winners": list(final.winners),
        "shared_win": len([p for p in final.players if p.total == top]) > 1,
        "unfinished": [n for n, r in zip(names, realms, strict=True) if sum(r) != REALM_SIZE],
    }


# --------------------------------------------------------------------------------------------
# A table of Fantasy Realms hands
# --------------------------------------------------------------------------------------------

#: Fantasy Realms is played by 2 to 6 (as a table file says).
TABLE_MIN, TABLE_MAX = 2, 6


def table_json(body: dict[str, Any]) -> dict[str, Any]:
    """Rank a table of hands given as their page links (or share codes).

    ``body``: ``{"hands": [{"player": "Alice", "link": "https://…/?hand=…"}, …], "lang": "en"}``.
    The table's game is the one the links name (a Cursed Hoards id or ``expansions=`` makes it
    Cursed Hoards, ``FR55`` the Deluxe edition); every hand is scored in it, with the number of
    players the table has and the discard area its links carry (they must agree). As a table
    file is checked, each card exists once at the table and each hand holds the game's hand
    size plus the extra cards its cards allow.
    """
    from ..realms.catalog import load_catalog
    from ..realms.formats.handfile import names_for
    from ..realms.formats.sharecode import parse_link, read_share, share_code, share_game
    from ..realms.hand import MAX_DISCARD, hand_limit
    from ..realms.solve.api import rank_hands

    body = _fields(body, ("hands", "lang"), "a table request")
    hands = body.get("hands")
    if not isinstance(hands, list) or not TABLE_MIN <= len(hands) <= TABLE_MAX:
        count = len(hands) if isinstance(hands, list) else 0
        raise ScorerError(f"a table has {TABLE_MIN} to {TABLE_MAX} hands, not {count}; "
                          "add each player's link")
    lang = _page_lang(body)
    seats: list[tuple[str, str]] = []
    for i, entry in enumerate(hands):
        entry = _fields(entry, ("player", "link"), f"hand {i + 1}")
        player = _name(entry.get("player"), f"hand {i + 1}")
        if any(player == p for p, _ in seats):
            raise ScorerError(f"two hands belong to {player}; give the players different names")
        link = entry.get("link")
        if not isinstance(link, str) or not link.strip():
            raise ScorerError(f"{player}: paste the link of the hand (or its share code)")
        seats.append((player, link.strip()))

    def at(player: str, e: ScorerError) -> ScorerError:
        return ScorerError(f"{player}: {e.message}")

    # The table's game, from what the links say.
    games: list[tuple[str | None, str]] = []
    own_area: dict[str, bool] = {}
    count = len(seats)
    for player, link in seats:
        try:
            said = parse_link(link)
            games.append(share_game(link))
        except ScorerError as e:
            raise at(player, e) from None
        if said.players is not None and said.players != count:
            raise ScorerError(f"{player}: the link says playerCount={said.players} but the "
                              f"table has {count} hands; add the missing hands or fix the "
                              "link")
        own_area[player] = said.discard is not None  # (discard= empty: an empty area)
    expansions = {x for x, _ in games if x is not None}
    expansion = min(expansions) if expansions else None
    edition = "deluxe" if any(e == "deluxe" for _, e in games) else "standard"
    catalog = load_catalog((), expansion, edition)

    # The discard area: the one the links carry (they must agree); every hand is scored
    # with it, since some cards read it (C5).
    read: dict[str, Any] = {}
    area: tuple[Any, ...] | None = None
    first = ""
    for player, link in seats:
        if own_area[player]:
            try:
                read[player] = read_share(link, catalog, players=count).hand
            except ScorerError as e:
                raise at(player, e) from None
            ids = sorted(c.id for c in read[player].discard or ())
            if area is None:
                area, first = tuple(read[player].discard or ()), player
            elif ids != sorted(c.id for c in area):
                raise ScorerError(f"the links of {first} and {player} show different discard "
                                  "areas; take every link at the end of the game")
    for player, link in seats:
        if player not in read:
            try:
                read[player] = read_share(link, catalog, players=count, discard=area).hand
            except ScorerError as e:
                raise at(player, e) from None
    if area is not None and len(area) > MAX_DISCARD:
        raise ScorerError(f"the discard area holds {len(area)} cards; the game ends when it "
                          f"holds {MAX_DISCARD}")
    hands = [(player, read[player]) for player, _ in seats]
    _check_table(hands, catalog.hand_size, hand_limit)

    standings = rank_hands(hands)
    names = names_for(catalog)
    loc = names.localizer(lang)
    by_player = dict(hands)
    return {
        "lang": lang,
        "expansion": expansion,
        "edition": edition,
        "players": count,
        "discard": [loc.card(c) for c in area or ()],
        "ranking": [
            {
                "rank": s.rank,
                "player": s.player,
                "total": s.total,
                "base_strength": s.base_strength,
                "tie_on_total": s.tie_on_total,
                "shared": s.shared,
                "cards": [loc.card(c) for c in by_player[s.player].cards],
                "code": share_code(by_player[s.player]),
            }
            for s in standings
        ],
        "winners": [s.player for s in standings if s.rank == 1],
    }


def _check_table(seats: list[tuple[str, Any]], hand_size: int, hand_limit: Any) -> None:
    """The checks a table file gets (``formats.table``, which reads YAML and so cannot run
    in the browser): each card once at the table (a hand against the discard area is checked
    as it is read), and every hand of a size that ends a game."""
    places: dict[str, str] = {}
    for player, hand in seats:
        for card in (*hand.cards, *hand.cursed):
            if card.id in places:
                raise ScorerError(f"{card.name} is in the hands of {places[card.id]} and "
                                  f"{player}; each card exists once in the game")
            places[card.id] = player
        size, limit = len(hand.cards), hand_limit(hand.cards, hand.catalog, hand.cursed)
        if not hand_size <= size <= limit:
            extra = f" ({limit} with its extra cards)" if limit > hand_size else ""
            raise ScorerError(f"{player}: {size} cards; at game end a hand holds "
                              f"{hand_size}{extra}")
