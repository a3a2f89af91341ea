"""A pool of cards to choose a hand from, and a discard area, as the player writes them.

``fr-score best`` reads a pool in the hand-file format (any number of cards, pinned choices on
their lines, ``[discard]`` and ``[cursed items]`` sections, a ``players:`` line) or as a share
code or page link; ``--discard`` gives a discard area as a file or a comma-separated list.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

from ...errors import ScorerError
from ..catalog import Card, Catalog, load_catalog
from ..hand import ChoiceValue, check_choice
from ..names import Names
from . import sharecode
from .handfile import check_agrees, names_for, parse_choice, parse_lines, read_settings


@dataclass(frozen=True)
class Pool:
    """The cards ``best`` chooses from, with pinned choices and the table around them."""

    catalog: Catalog
    cards: list[Card]
    pinned: dict[str, ChoiceValue]
    discard: tuple[Card, ...] | None  # None: no discard area given
    cursed: tuple[Card, ...]
    players: int | None = None
    lang: str | None = None  # the language a page link of this tool asks for


def read_pool(text: str, source: str, card_files: tuple[str, ...], expansion: str | None,
              edition: str | None, players: int | None = None) -> Pool:
    """Cards in the hand-file format (any number of them), with their pinned choices; a
    ``[discard]`` section is the discard area (empty if it lists no card), ``[cursed items]``
    the player's Cursed Items, a ``players:`` line the number of players (which the command
    line's ``players`` may repeat, not contradict)."""
    settings = read_settings(text, source)
    check_agrees(settings, source, expansion=expansion, edition=edition, players=players)
    catalog = load_catalog(card_files, expansion or settings.expansion,
                           edition or settings.edition)
    names = names_for(catalog)
    sections = parse_lines(text, source, names)
    seen: dict[str, int] = {}
    for group in sections.values():
        for e in group:
            if e.card.id in seen:
                raise ScorerError(f"{e.card.name} is listed twice (also line {seen[e.card.id]}); "
                                  "each card exists once in the game", f"{source}:{e.line}")
            seen[e.card.id] = e.line
    entries = sections["hand"]
    cards = [e.card for e in entries]
    view = SimpleNamespace(catalog=catalog, cards=tuple(cards))
    pinned: dict[str, ChoiceValue] = {}
    for e in entries:
        if e.choice is None:
            continue
        where = f"{source}:{e.line}"
        if e.card.choice is None:
            raise ScorerError(f"{e.card.name} makes no choice; remove ': {e.choice}'", where)
        try:
            value = parse_choice(e, names)
            if value is not None:
                check_choice(view, e.card, value)  # type: ignore[arg-type]
        except ScorerError as err:
            raise err.at(where) from None
        pinned[e.card.id] = value
    discard = (tuple(e.card for e in sections["discard"]) if "discard" in sections.titled
               else None)
    return Pool(catalog, cards, pinned, discard, tuple(e.card for e in sections["cursed"]),
                settings.players if settings.players is not None else players)


def pool_from_share(text: str, card_files: tuple[str, ...] = (), expansion: str | None = None,
                    edition: str | None = None, players: int | None = None) -> Pool:
    """A pool written as a share code or a page link (any number of cards): its cards, pinned
    choices, Cursed Items, and the link's discard area and number of players."""
    x, e = sharecode.share_game(text, expansion, edition)
    catalog = load_catalog(card_files, x, e)
    link = sharecode.parse_link(text)
    if link.players is not None and players is not None and link.players != players:
        raise ScorerError(f"the link says playerCount={link.players} but the command line "
                          f"says --players {players}; keep one", "share link")
    items = sharecode.split_code(link.code)
    cards, raw = sharecode.read_items(link.code, catalog)
    view = SimpleNamespace(catalog=catalog, cards=tuple(cards))
    pinned: dict[str, ChoiceValue] = {}
    for card in cards:
        if card.id in raw:
            parts, item = raw[card.id]
            value = sharecode.parse_choice(catalog, card, parts, item, items.web)
            if value is not None:
                try:
                    check_choice(view, card, value)  # type: ignore[arg-type]
                except ScorerError as err:
                    raise ScorerError(f"{err.message} ('{item}')", sharecode.WHERE) from None
            pinned[card.id] = value
    discard = None
    if link.discard is not None:
        discard = tuple(sharecode.card_of(catalog, d, d) for d in link.discard)
    elif link.is_link:
        discard = ()
    return Pool(catalog, [c for c in cards if not c.cursed], pinned, discard,
                tuple(c for c in cards if c.cursed),
                link.players if link.players is not None else players, link.lang)


def parse_discard(text: str, label: str, names: Names) -> list[Card]:
    """A discard area written one card per line (the hand-file format without choices)."""
    cards = []
    for group in parse_lines(text, label, names).values():
        for e in group:
            if e.choice is not None:
                raise ScorerError("a discard area lists cards only; remove the ':'",
                                  f"{label}:{e.line}")
            cards.append(e.card)
    return no_repeats(cards)


def discard_list(spec: str, names: Names) -> list[Card]:
    """A discard area written as a comma-separated list (``"Knights, Queen"``)."""
    return no_repeats([names.card(part) for part in spec.split(",") if part.strip()])


def no_repeats(cards: list[Card]) -> list[Card]:
    ids = [c.id for c in cards]
    dup = next((c for c in cards if ids.count(c.id) > 1), None)
    if dup is not None:
        raise ScorerError(f"{dup.name} is listed twice in the discard area")
    return cards


def check_apart(held: list[Card], discard: list[Card]) -> None:
    both = next((c for c in discard if c in held), None)
    if both is not None:
        raise ScorerError(f"{both.name} cannot be both held and in the discard area")
