"""Share codes and page links: a hand as one line, in the popular web scorer's format.

The web scorer (fantasy-realms.github.io) writes a hand as::

    FR49,FR44,FR30,FR55P,FR08,FR04,FR20+FR49:FR55P:weather

* every card of the hand, then its Cursed Items, by id, separated by commas (the cards that
  make a choice included);
* one ``+``, always, even when no choice follows (``FR21,FR45,FR13+``);
* then one item per card that made a choice: ``ID:TARGET`` for a copy (Doppelgänger, Mirage,
  Shapeshifter), Island and Angel, ``ID:TARGET:suit`` for Book of Changes, the suit in lower
  case (``weather``; a suit of several words with hyphens).

Ids are the web scorer's: a card's ``share_id`` in the card files, else its own id (the promo
Phoenix is ``FR55P``, the Deluxe Phoenix ``FR55``). A bare number is the base card of that
number (``49`` is ``FR49``), as the web scorer reads it. Ids are case-insensitive.

Its page keeps the rest of the table in its address, and a link works wherever a code does::

    https://fantasy-realms.github.io/?expansions=ch_items,ch_suits&playerCount=4&hand=CODE&discard=FR31,FR36

``expansions`` lists ``ch_suits`` (the Cursed Hoards cards) and ``ch_items`` (its Cursed
Items), ``playerCount`` the number of players, ``hand`` the code (its ``+`` may travel as
``%2B``, or arrive as a space) and ``discard`` the ids of the discard area; a link without
``discard`` shows an empty discard area. This tool's own page links (``?code=``) read too.

A code names its game: without a link's ``expansions`` (or ``--expansion``), a Cursed Hoards
id makes it a Cursed Hoards hand and ``FR55`` a Deluxe-edition one. Options given beside a
code may repeat what it says, never contradict it.

The form this tool printed before is still read: the cards with a choice listed only after
the ``+`` or with their choice inline (``FR53:FR37``), and this tool's ids (``FR55`` the promo
Phoenix there). A code is in the web scorer's form when it has a ``+``, no choice before it,
and every item after it is the choice of a card listed before it. A chooser without a choice
is open: the optimizer makes it; ``ID:none`` is a choice left unassigned on purpose (printed
so, so that it reads back as written: issue 39). The web scorer never chooses: to it an open
choice is unassigned, so a code with open choices may score less there than here (``fr-score``
then also says the as-written total).

What is printed is always the web scorer's form (:func:`share_code`, :func:`share_link`,
:func:`share_text`), so that its page loads what this tool prints and scores the same hand.
Everything read is validated like a hand file; every problem is one line starting
``share code:``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import unquote

from ...errors import ScorerError, clip
from ...inputs import whole_number
from .. import effects as fx
from ..catalog import (
    EDITIONS,
    EXPANSIONS,
    Card,
    Catalog,
    base_catalog,
    fold,
    load_catalog,
    shipped_games,
)
from ..hand import ChoiceValue, Hand, check_cards, check_choice
from ..names import elsewhere
from ..resolve import check_clear_targets

WHERE = "share code"
#: The web scorer's page: printed links point there.
WEB_SCORER = "https://fantasy-realms.github.io/"
#: The page's ``expansions`` flags, and the expansion each belongs to.
LINK_FLAGS = {"ch_suits": "cursed-hoards", "ch_items": "cursed-hoards"}
#: The flag that brings an expansion's cards (the other brings its Cursed Items).
CARDS_FLAG = {"cursed-hoards": "ch_suits"}
#: Query parameters a link may carry (``code`` and ``lang`` are this tool's own page's; a
#: ``lang`` is the language names are printed in, unless ``--lang`` says otherwise).
LINK_KEYS = ("hand", "code", "discard", "expansions", "playerCount", "lang")


# --------------------------------------------------------------------------------------------
# Syntax: a code's items, and a link's parameters
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Items:
    """A code read as text only: its card ids in order and, per id, the pieces of its choice."""

    web: bool  # the web scorer's form (ids are share ids)
    ids: tuple[tuple[str, str], ...]  # (id as written, item it came from)
    choices: dict[str, tuple[list[str], str]]  # folded id -> (pieces after ':', item)


def _key(text: str) -> str:
    """The form of an id that lookups compare: upper case; a bare number is a base card."""
    key = text.strip().upper()
    return f"FR{key.zfill(2)}" if key.isdigit() else key


def split_code(code: str) -> Items:
    """The items of a code (either form), with no card rule checked."""
    text = code.strip()
    if not text or text == "+":
        raise ScorerError("the share code is empty; write card ids separated by commas", WHERE)
    sections = text.split("+")
    if len(sections) > 2:
        raise ScorerError("a share code has at most one '+'", WHERE)
    head = [it.strip() for it in sections[0].split(",")] if sections[0].strip() else []
    tail = ([it.strip() for it in sections[1].split(",")]
            if len(sections) == 2 and sections[1].strip() else [])
    for n, item in enumerate(head + tail, start=1):
        if not item:
            raise ScorerError(f"empty item at position {n}; remove the extra comma", WHERE)
        head_id, *parts = item.split(":")
        if any(not p.strip() for p in parts):
            raise ScorerError(f"empty choice in '{clip(item)}'; write a target id or 'none'",
                              WHERE)
    listed = {_key(it) for it in head}
    web = (len(sections) == 2 and bool(head) and not any(":" in it for it in head)
           and all(":" in it and _key(it.split(":")[0]) in listed for it in tail))
    choices: dict[str, tuple[list[str], str]] = {}
    ids: list[tuple[str, str]] = []
    for item in (head if web else head + tail):
        head_id, *parts = item.split(":")
        ids.append((head_id.strip(), item))
        if parts:
            choices[_key(head_id)] = (parts, item)
    if web:
        for item in tail:
            head_id, *parts = item.split(":")
            if _key(head_id) in choices:
                raise ScorerError(f"{clip(head_id.strip())} has two choices; keep one", WHERE)
            choices[_key(head_id)] = (parts, item)
    return Items(web, tuple(ids), choices)


@dataclass(frozen=True)
class Link:
    """What a code or a page link says: the code, and the table around it when a link does."""

    code: str
    is_link: bool = False
    discard: tuple[str, ...] | None = None  # ids; None when the link has no discard=
    flags: frozenset[str] | None = None  # the link's expansions=, None when absent
    players: int | None = None
    lang: str | None = None  # this tool's page's lang=: the language to print names in


def looks_like_link(text: str) -> bool:
    t = text.strip()
    return "?" in t or "=" in t or t.lower().startswith(("http:", "https:"))


def parse_link(text: str) -> Link:
    """A code as it stands, or the parameters of a page link (either page's)."""
    if not looks_like_link(text):
        return Link(text)
    t = text.strip()
    query = t.split("?", 1)[1] if "?" in t else t
    query = query.split("#", 1)[0]
    values: dict[str, str] = {}
    for part in query.split("&"):
        if not part:
            continue
        key, sep, value = part.partition("=")
        key = unquote(key)
        if not sep or key not in LINK_KEYS:
            raise ScorerError(f"'{clip(key)}' is not a parameter of a share link (it has "
                              f"{', '.join(LINK_KEYS[:-1])})", "share link")
        if key in values:
            raise ScorerError(f"'{key}' is given twice in the link; keep one", "share link")
        values[key] = unquote(value)
    if "hand" in values and "code" in values:
        raise ScorerError("the link has both hand= and code=; keep one", "share link")
    code = values.get("hand", values.get("code"))
    if code is None:
        raise ScorerError("the link has no hand= (the share code of the hand)", "share link")
    code = code.replace(" ", "+")  # a '+' left unescaped in an address reads as a space
    players = None
    if "playerCount" in values:
        count = values["playerCount"].strip()
        if not (count.isascii() and count.isdigit()):  # (str.isdigit alone takes '²')
            raise ScorerError(f"playerCount must be a number, got '{clip(count)}'",
                              "share link")
        players = whole_number(count, "playerCount", where="share link")
    flags = None
    if "expansions" in values:
        flags = frozenset(f.strip() for f in values["expansions"].split(",") if f.strip())
        unknown = sorted(flags - set(LINK_FLAGS))
        if unknown:
            raise ScorerError(f"unknown expansion '{clip(unknown[0])}' in the link (known: "
                              f"{', '.join(LINK_FLAGS)})", "share link")
    discard = None
    if "discard" in values:
        discard = tuple(d.strip() for d in values["discard"].split(",") if d.strip())
    return Link(code, True, discard, flags, players, values.get("lang"))


# --------------------------------------------------------------------------------------------
# Ids to cards
# --------------------------------------------------------------------------------------------


def _find(catalog: Catalog, key: str, web: bool) -> Card | None:
    """The card of an id: by share id in the web scorer's form, by this tool's id first in
    the older form."""
    tables = (catalog.by_code,) if web else (catalog.by_id, catalog.by_code)
    for table in tables:
        card = table.get(key)
        if card is None:
            card = next((c for k, c in table.items() if fold(k) == fold(key)), None)
        if card is not None:
            return card
    return None


def card_of(catalog: Catalog, text: str, item: str, web: bool = True) -> Card:
    key = _key(text)
    card = _find(catalog, key, web)
    if card is None:
        raise ScorerError(f"unknown card id '{clip(text.strip())}' in '{clip(item)}'"
                          f"{_unknown_hint(catalog, key, web)}", WHERE)
    return card


def _unknown_hint(catalog: Catalog, key: str, web: bool) -> str:
    """Why an id is not in this game: another card replaces it, or another game has it."""
    by = next((c for c in catalog.cards if c.replaces is not None and fold(c.replaces) ==
               fold(key)), None)
    if by is not None:
        return f"; this game replaces it by {by.code_id} ({by.name})"
    for expansion, edition in shipped_games():
        if _find(base_catalog(expansion, edition), key, web) is not None:
            return "; " + elsewhere([key], share=web)
    codes = [c.code_id for c in catalog.cards]
    return catalog.suggest(key, codes) if key else ""


def _suit(catalog: Catalog, text: str, item: str) -> str:
    for s in catalog.suits:
        if fold(s) == fold(text):
            return s
    options = ", ".join(_suit_code(s) for s in catalog.suits)
    raise ScorerError(f"unknown suit '{clip(text)}' in '{clip(item)}' (one of {options})",
                      WHERE)


def _suit_code(suit: str) -> str:
    return "-".join(suit.lower().split())


def parse_choice(catalog: Catalog, card: Card, parts: list[str], item: str,
                 web: bool = True) -> ChoiceValue:
    """The choice written after a card id (``parts`` are the colon-separated pieces)."""
    eff = card.choice
    item = clip(item)
    if eff is None:
        raise ScorerError(
            f"{card.code_id} ({card.name}) makes no choice; remove "
            f"':{clip(':'.join(parts))}' from '{item}'", WHERE,
        )
    if len(parts) == 1 and parts[0].strip().lower() == "none":
        return None
    if isinstance(eff, fx.ChangeSuit):
        if len(parts) != 2:
            raise ScorerError(f"{card.code_id} ({card.name}) needs '{card.code_id}:TARGET_ID:"
                              f"suit', got '{item}'", WHERE)
        return (card_of(catalog, parts[0], item, web), _suit(catalog, parts[1].strip(), item))
    if len(parts) != 1:
        raise ScorerError(f"{card.code_id} ({card.name}) needs '{card.code_id}:TARGET_ID', "
                          f"got '{item}'", WHERE)
    return card_of(catalog, parts[0], item, web)


def read_items(code: str, catalog: Catalog
               ) -> tuple[list[Card], dict[str, tuple[list[str], str]]]:
    """A code's cards in order and, per card id, the raw pieces of its choice and the item
    they came from. No hand rule is checked (see :func:`parse_code`)."""
    cards, raw, _ = _items(split_code(code), catalog)
    return cards, raw


def _items(items: Items, catalog: Catalog
           ) -> tuple[list[Card], dict[str, tuple[list[str], str]], bool]:
    cards: list[Card] = []
    raw: dict[str, tuple[list[str], str]] = {}
    for text, item in items.ids:
        card = card_of(catalog, text, item, items.web)
        if card in cards:
            raise ScorerError(f"{card.code_id} ({card.name}) appears twice; each card exists "
                              "once", WHERE)
        cards.append(card)
        if _key(text) in items.choices:
            raw[card.id] = items.choices[_key(text)]
    return cards, raw, items.web


# --------------------------------------------------------------------------------------------
# Reading a code or a link
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Shared:
    """What a code or a page link gives: the hand (with its discard area, number of players
    and Cursed Items) and the game it is played in."""

    hand: Hand
    expansion: str | None
    edition: str
    players: int | None
    discard: tuple[Card, ...] | None
    is_link: bool
    lang: str | None = None  # the language a link of this tool's page asks for


def _ids(link: Link, items: Items) -> list[str]:
    """Every id a code or link names: cards, choice targets, the discard area."""
    out = [_key(t) for t, _ in items.ids]
    for parts, _ in items.choices.values():
        if parts and parts[0].strip().lower() != "none":
            out.append(_key(parts[0]))
    out += [_key(d) for d in link.discard or ()]
    return out


def _items_without_cards(link: Link, items: Items) -> None:
    """The web scorer can play an expansion's Cursed Items without its cards; this tool
    plays an expansion whole, so such a hand is refused rather than scored another way."""
    flags = link.flags or frozenset()
    for flag, expansion in LINK_FLAGS.items():
        if flag in flags and CARDS_FLAG.get(expansion) not in flags:
            full = base_catalog(expansion)
            for text, _ in items.ids:
                card = _find(full, _key(text), True)
                if card is not None and card.cursed:
                    raise ScorerError(
                        f"{card.code_id} ({card.name}) is a Cursed Item of a link that plays "
                        f"them without the {expansion} cards (expansions={flag}); fr-score "
                        f"plays the expansion whole: add {CARDS_FLAG[expansion]} to the "
                        "link's expansions", "share link")


def share_game(text: str, expansion: str | None = None, edition: str | None = None
               ) -> tuple[str | None, str]:
    """(expansion, edition) a code or link is for: a link's ``expansions``, else the plainest
    shipped game that holds all of its ids. ``expansion``/``edition`` (the command line's)
    may repeat it, not contradict it."""
    link = parse_link(text)
    items = split_code(link.code)
    said: str | None = None
    if link.flags is not None:
        said = next((LINK_FLAGS[f] for f in sorted(link.flags) if f in CARDS_FLAG.values()),
                    None)
        if expansion is not None and expansion != said:
            shown = "expansions=" + ",".join(sorted(link.flags)) if link.flags else \
                "no expansion"
            raise ScorerError(f"the link plays {shown} but the command line says "
                              f"--expansion {expansion}; keep one", "share link")
        expansion = said
        games = [(said, e) for e in EDITIONS]
        _items_without_cards(link, items)
    else:
        games = shipped_games()
    games = [(x, e) for x, e in games if (expansion is None or x == expansion)
             and (edition is None or e == edition)]
    ids = _ids(link, items)
    homes = {i: [g for g in games if _find(base_catalog(*g), i, items.web)] for i in ids}
    # An id only an expansion (or an edition) has asks for it; a base id beside it is then
    # the base version of a card the expansion replaces, an error the reader explains.
    for part, plain in ((0, None), (1, "standard")):
        if any(h and all(g[part] != plain for g in h) for h in homes.values()):
            games = [g for g in games if g[part] != plain] or games
    held = [sum(1 for h in homes.values() if g in h) for g in games]
    return games[max(range(len(games)), key=lambda n: (held[n], -n))]


def read_share(text: str, catalog: Catalog | None = None, *, card_files: Sequence[str] = (),
               expansion: str | None = None, edition: str | None = None,
               players: int | None = None, discard: Sequence[Card] | None = None) -> Shared:
    """A share code or a page link (of the web scorer's page or this tool's) read into the
    hand, its discard area, its game and its number of players.

    Without ``catalog`` the game is the one the code names (:func:`share_game`), plus the
    user's ``card_files``. ``players`` and ``discard`` (the command line's) complete what the
    link does not say; where the link says otherwise it is an error.
    """
    link = parse_link(text)
    items = split_code(link.code)
    if catalog is None:
        x, e = share_game(text, expansion, edition)
        catalog = load_catalog(card_files, x, e)
    x = next((g for g in catalog.games if g in EXPANSIONS), None)
    e = next((g for g in catalog.games if g in EDITIONS), "standard")
    if link.flags is not None:
        said = next((LINK_FLAGS[f] for f in link.flags if f in CARDS_FLAG.values()), None)
        if said != x:
            raise ScorerError(f"the link is for {said or 'the base game'}, not "
                              f"{x or 'the base game'}", "share link")
    if link.players is not None:
        if players is not None and players != link.players:
            raise ScorerError(f"the link says playerCount={link.players} but the command line "
                              f"says --players {players}; keep one", "share link")
        players = link.players
    area: tuple[Card, ...] | None = None if discard is None else tuple(discard)
    if link.discard is not None:
        if discard is not None:
            raise ScorerError("the link carries a discard area and --discard gives one too; "
                              "keep one", "share link")
        area = tuple(card_of(catalog, d, d) for d in link.discard)
    elif link.is_link and area is None:
        area = ()  # the page shows an empty discard area when its link has none
    cards, raw, web = _items(items, catalog)
    cursed = tuple(c for c in cards if c.cursed)
    if cursed and link.flags is not None and "ch_items" not in link.flags:
        raise ScorerError(f"{cursed[0].code_id} ({cursed[0].name}) is a Cursed Item, but the "
                          "link plays without them (its expansions has no ch_items)",
                          "share link")
    hand = _hand(catalog, [c for c in cards if not c.cursed], cursed, raw, web, players, area,
                 link.is_link)
    return Shared(hand, x, e, players, area, link.is_link, link.lang)


def parse_code(code: str, catalog: Catalog, players: int | None = None,
               discard: Sequence[Card] | None = None) -> Hand:
    """The hand a share code (or a page link) describes, read with ``catalog``; a one-line
    ``share code: …`` error when it is wrong."""
    return read_share(code, catalog, players=players, discard=discard).hand


def _hand(catalog: Catalog, cards: list[Card], cursed: tuple[Card, ...],
          raw: dict[str, tuple[list[str], str]], web: bool, players: int | None,
          discard: tuple[Card, ...] | None, is_link: bool) -> Hand:
    if discard is None:
        for c in cards + list(cursed):
            if "discard" in c.needs:
                raise ScorerError(f"{c.name} scores the discard area (C5), which a share code "
                                  "does not carry; give --discard, or paste the page's link "
                                  "(its discard=)", WHERE)
    try:
        check_cards(tuple(cards), catalog, cursed)
        base = Hand(catalog, tuple(cards), {}, discard, players, cursed)
    except ScorerError as e:
        raise ScorerError(e.message, WHERE) from None
    choices: dict[str, ChoiceValue] = {}
    for card in cards + list(cursed):
        if card.id not in raw:
            continue
        parts, item = raw[card.id]
        value = parse_choice(catalog, card, parts, item, web)
        if value is not None:
            try:
                check_choice(base, card, value)
            except ScorerError as e:
                raise ScorerError(f"{e.message} ('{clip(item)}')", WHERE) from None
        choices[card.id] = value
    hand = base.with_choices(choices)
    try:
        check_clear_targets(hand.cards, hand.choices, catalog)  # Island's target: R4
    except ScorerError as e:
        raise ScorerError(e.message, WHERE) from None
    return hand


# --------------------------------------------------------------------------------------------
# Printing
# --------------------------------------------------------------------------------------------


def value_code(value: ChoiceValue) -> str:
    """A choice value in this tool's ids (``FR37``, ``FR12:beast``, ``none``), the form the
    page keys its own state by."""
    if value is None:
        return "none"
    if isinstance(value, tuple):
        return f"{value[0].id}:{_suit_code(value[1])}"
    return value.id


def _web_value(value: Card | tuple[Card, str]) -> str:
    if isinstance(value, tuple):
        return f"{value[0].code_id}:{_suit_code(value[1])}"
    return value.code_id


def _item_value(value: ChoiceValue) -> str:
    return "none" if value is None else _web_value(value)


def share_code(hand: Hand) -> str:
    """The hand in the web scorer's code: every card and Cursed Item, ``+``, every choice made.

    Cards with an extra-card effect come first: the web scorer's loader adds cards one by
    one and refuses a card past the hand size unless the card that allows it is already in.
    A choice left open has no item (the web scorer, which never chooses, leaves it
    unassigned; this tool chooses it). A choice deliberately left unassigned is written
    ``ID:none``, so that this tool reads back the same hand and total, not an open choice
    that it would make (issue 39).
    """
    everything = list(hand.cursed) + list(hand.cards)
    givers = [c for c in everything if c.extra is not None]
    order = givers + [c for c in hand.cards if c not in givers] + \
        [c for c in hand.cursed if c not in givers]
    actions = [f"{c.code_id}:{_item_value(hand.choices[c.id])}" for c in hand.cards
               if c.id in hand.choices]
    return ",".join(c.code_id for c in order) + "+" + ",".join(actions)


def hand_code(hand: Hand) -> str:
    """The older canonical code this tool printed (cards without a choice, ``+``, the cards
    with one, this tool's ids). Kept for the page's own links until it prints
    :func:`share_code`; new output uses :func:`share_text`."""
    plain = [c.id for c in hand.cards if c.id not in hand.choices] + [c.id for c in hand.cursed]
    chosen = [f"{c.id}:{value_code(hand.choices[c.id])}" for c in hand.cards
              if c.id in hand.choices]
    if not chosen:
        return ",".join(plain)
    return ",".join(plain) + "+" + ",".join(chosen)


def share_link(hand: Hand, page: str = WEB_SCORER) -> str:
    """The web scorer's page address for the hand, with its game, players and discard area."""
    params = []
    expansion = next((g for g in hand.catalog.games if g in EXPANSIONS), None)
    if expansion is not None:
        flags = sorted(f for f, x in LINK_FLAGS.items() if x == expansion)
        params.append("expansions=" + ",".join(flags))
    if hand.players is not None:
        params.append(f"playerCount={hand.players}")
    params.append("hand=" + share_code(hand))
    if hand.discard:
        params.append("discard=" + ",".join(c.code_id for c in hand.discard))
    return page + "?" + "&".join(params)


def needs_link(hand: Hand) -> bool:
    """Whether a hand carries more than a code holds: an expansion, the number of players or
    a discard area."""
    expansion = any(g in EXPANSIONS for g in hand.catalog.games)
    return expansion or hand.players is not None or bool(hand.discard)


def share_text(hand: Hand) -> str:
    """What ``--print-code`` prints: the code, or the page link when the hand needs more."""
    return share_link(hand) if needs_link(hand) else share_code(hand)

