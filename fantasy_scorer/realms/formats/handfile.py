"""Reading a hand file: one card per line, choices written on their card's line.

::

    # Alice's hand
    Doppelgänger: Basilisk          # a card in hand
    Mirage: Rainstorm               # any allowed card of the game
    Shapeshifter: none              # leave it unassigned
    Book of Changes: Blizzard -> Beast
    Island: Wildfire
    Necromancer                     # the 8th card is simply listed

With the Cursed Hoards expansion a file may also set the game and the table, and list the
Cursed Items and the discard area in sections of their own::

    expansion: cursed-hoards        # or --expansion on the command line
    edition: deluxe                 # the Deluxe Phoenix (optional)
    players: 3                      # Genie, Spyglass (C6)
    Dark Queen
    ...
    [cursed items]
    Spyglass
    [discard]
    Knights

``#`` starts a comment, blank lines are ignored. Every problem is reported as
``FILE:LINE: message``; nothing on a line is silently dropped.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...errors import ScorerError
from .. import effects as fx
from ..catalog import EDITIONS, EXPANSIONS, Card, Catalog, fold, load_catalog
from ..hand import ChoiceValue, Hand, check_cards, check_choice, hand_limit
from ..names import Names
from ..resolve import run

SETTINGS = ("expansion", "edition", "players")
SECTIONS = {"hand": "hand", "cursed items": "cursed", "cursed": "cursed", "discard": "discard",
            "discard area": "discard"}


@dataclass(frozen=True)
class Entry:
    """One card line of a hand file."""

    line: int
    card: Card
    choice: str | None  # the text after ':' (None when the line has no ':')


@dataclass
class Settings:
    """The ``key: value`` lines of a hand file that set the game and the table."""

    expansion: str | None = None
    edition: str | None = None
    players: int | None = None
    lines: dict[str, int] = field(default_factory=dict)


def _lines(text: str):
    """(line number, content without comment) of every non-blank line."""
    for no, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if line:
            yield no, line


def _setting(line: str) -> tuple[str, str] | None:
    key, sep, value = line.partition(":")
    if sep and fold(key) in SETTINGS:
        return fold(key), value.strip()
    return None


def read_settings(text: str, source: str) -> Settings:
    """The game and table settings of a hand file (read before its cards, which need them)."""
    s = Settings()
    for no, line in _lines(text):
        kv = _setting(line)
        if kv is None:
            continue
        key, value = kv
        where = f"{source}:{no}"
        if key in s.lines:
            raise ScorerError(f"'{key}' is set twice (also line {s.lines[key]})", where)
        s.lines[key] = no
        if key == "players":
            if not value.isdigit():
                raise ScorerError(f"players must be a number, got '{value}'", where)
            s.players = int(value)
        elif key == "expansion":
            if value not in EXPANSIONS:
                raise ScorerError(f"unknown expansion '{value}'; known: "
                                  + ", ".join(EXPANSIONS), where)
            s.expansion = value
        else:
            if value not in EDITIONS:
                raise ScorerError(f"unknown edition '{value}'; known: " + ", ".join(EDITIONS),
                                  where)
            s.edition = value
    return s


def parse_lines(text: str, source: str, names: Names) -> dict[str, list[Entry]]:
    """The card lines of each section (``hand``, ``cursed``, ``discard``)."""
    sections: dict[str, list[Entry]] = {"hand": [], "cursed": [], "discard": []}
    current = "hand"
    for no, line in _lines(text):
        where = f"{source}:{no}"
        if line.startswith("["):
            title = fold(line.strip("[] "))
            if not line.endswith("]") or title not in SECTIONS:
                hint = names.catalog.suggest(title, ["hand", "cursed items", "discard"])
                raise ScorerError(f"unknown section '{line}'{hint}; sections are [hand], "
                                  "[cursed items] and [discard]", where)
            current = SECTIONS[title]
            continue
        if _setting(line) is not None:
            if current != "hand" or any(sections.values()):
                raise ScorerError("settings (expansion, edition, players) go at the top",
                                  where)
            continue
        name, sep, rest = line.partition(":")
        try:
            card = names.card(name)
        except ScorerError as e:
            raise e.at(where) from None
        choice = rest.strip() if sep else None
        if sep and current != "hand":
            raise ScorerError(f"a card in the [{current}] section makes no choice; "
                              f"remove ': {choice}'", where)
        if sep and not choice:
            raise ScorerError(f"nothing after ':' for {card.name}; write a choice or 'none'",
                              where)
        sections[current].append(Entry(no, card, choice))
    return sections


def _parse_choice(entry: Entry, names: Names) -> ChoiceValue:
    eff = entry.card.choice
    text = entry.choice or ""
    if text.strip().casefold() == "none":
        return None
    if isinstance(eff, fx.ChangeSuit):
        for arrow in ("->", "→", "=>"):
            if arrow in text:
                target, suit = text.split(arrow, 1)
                return (names.card(target), names.suit(suit))
        raise ScorerError(f"write {entry.card.name}'s choice as 'CARD -> SUIT', got '{text}'")
    return names.card(text)


def _check_game(settings: Settings, catalog: Catalog, source: str) -> None:
    """A file that names an expansion must be read with that expansion's cards."""
    if settings.expansion is not None and settings.expansion not in catalog.games:
        raise ScorerError(f"this hand is for the {settings.expansion} expansion; "
                          f"run with --expansion {settings.expansion}",
                          f"{source}:{settings.lines['expansion']}")
    if settings.edition not in (None, "standard") and settings.edition not in catalog.games:
        raise ScorerError(f"this hand is for the {settings.edition} edition; "
                          f"run with --edition {settings.edition}",
                          f"{source}:{settings.lines['edition']}")


def read_hand(text: str, source: str, catalog: Catalog, names: Names | None = None,
              players: int | None = None, discard: tuple[Card, ...] | None = None) -> Hand:
    """Parse and validate a hand; errors name the file and line.

    ``players`` (from the command line) and ``discard`` (a table's discard area) are used when
    the file does not say.
    """
    names = names or Names(catalog)
    settings = read_settings(text, source)
    _check_game(settings, catalog, source)
    sections = parse_lines(text, source, names)
    entries = sections["hand"]
    if not entries:
        raise ScorerError("no cards in the hand; list one card per line", f"{source}:1")
    seen: dict[str, tuple[Entry, str]] = {}
    for section, group in sections.items():
        for e in group:
            if e.card.id in seen:
                other, where = seen[e.card.id]
                also = f"also line {other.line}" + (f", in [{where}]" if where != "hand" else "")
                raise ScorerError(
                    f"{e.card.name} is listed twice ({also}); each card exists once in the game",
                    f"{source}:{e.line}",
                )
            seen[e.card.id] = (e, section)
    cards = tuple(e.card for e in entries)
    cursed = tuple(e.card for e in sections["cursed"])
    limit = hand_limit(cards, catalog, cursed)
    try:
        check_cards(cards, catalog, cursed)
    except ScorerError as err:
        culprit = next((e for e in entries + sections["cursed"]
                        if e.card.cursed != (e in sections["cursed"])), None)
        if culprit is None:
            culprit = entries[min(len(entries) - 1, max(limit, catalog.hand_size))]
        raise err.at(f"{source}:{culprit.line}") from None

    if sections["discard"]:
        discard = tuple(e.card for e in sections["discard"])
    table_players = settings.players if settings.players is not None else players
    try:
        base = Hand(catalog, cards, {}, discard, table_players, cursed)
    except ScorerError as err:
        line = settings.lines.get("players") if "players" in err.message else None
        first_discard = sections["discard"][0].line if sections["discard"] else None
        line = line or (first_discard if "discard" in err.message else None) or entries[0].line
        raise err.at(f"{source}:{line}") from None
    choices: dict[str, ChoiceValue] = {}
    for e in entries:
        where = f"{source}:{e.line}"
        if e.choice is None:
            continue
        if e.card.choice is None:
            raise ScorerError(f"{e.card.name} makes no choice; remove ': {e.choice}'", where)
        try:
            value = _parse_choice(e, names)
            if value is not None:
                check_choice(base, e.card, value)
        except ScorerError as err:
            raise err.at(where) from None
        choices[e.card.id] = value
    hand = base.with_choices(choices)
    try:
        run(hand.cards, hand.choices, catalog, hand.context)  # choices that depend on others (R4)
    except ScorerError as err:
        line = next((e.line for e in entries if e.card.id == err.subject), entries[0].line)
        raise err.at(f"{source}:{line}") from None
    return hand


_NAMES: dict[int, Names] = {}


def names_for(catalog: Catalog) -> Names:
    """One :class:`Names` per catalog (building it reads every name and alias)."""
    found = _NAMES.get(id(catalog))
    if found is None or found.catalog is not catalog:
        found = _NAMES[id(catalog)] = Names(catalog)
    return found


def load_hand(text: str, source: str, card_files: tuple[str, ...] = (),
              expansion: str | None = None, edition: str | None = None,
              players: int | None = None) -> Hand:
    """Read a hand with the catalog its settings (or the command line's) call for."""
    settings = read_settings(text, source)
    for key, given in (("expansion", expansion), ("edition", edition)):
        said = getattr(settings, key)
        if given is not None and said is not None and given != said:
            raise ScorerError(f"the file says {key} '{said}' but the command line says "
                              f"'{given}'", f"{source}:{settings.lines[key]}")
    catalog = load_catalog(card_files, expansion or settings.expansion,
                           edition or settings.edition)
    return read_hand(text, source, catalog, names_for(catalog), players)
