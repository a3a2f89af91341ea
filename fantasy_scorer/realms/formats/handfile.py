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
``FILE:LINE: message``, on the line of the card it is about; nothing on a line is silently
dropped. A ``[discard]`` section with no card under it is an empty discard area.

Reading a hand checks it without scoring it (the one choice that depends on others, Island's
target, is checked after the identities alone), so a command scores each hand once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...errors import ScorerError, clip
from ...inputs import whole_number
from .. import effects as fx
from ..catalog import EDITIONS, EXPANSIONS, Card, Catalog, fold, load_catalog
from ..hand import ChoiceValue, Hand, check_cards, check_choice, hand_limit
from ..names import Names
from ..resolve import check_clear_targets

SETTINGS = ("expansion", "edition", "players")
SECTIONS = {"hand": "hand", "cursed items": "cursed", "cursed": "cursed", "discard": "discard",
            "discard area": "discard"}


@dataclass(frozen=True)
class Entry:
    """One card line of a hand file."""

    line: int
    card: Card
    choice: str | None  # the text after ':' (None when the line has no ':')


class Sections(dict[str, list[Entry]]):
    """The card lines of each section (``hand``, ``cursed``, ``discard``); ``titled`` holds the
    sections whose heading the file wrote, so that an empty ``[discard]`` is an empty discard
    area rather than none given."""

    def __init__(self) -> None:
        super().__init__(hand=[], cursed=[], discard=[])
        self.titled: dict[str, int] = {}  # section -> line of its heading

    def line_of(self, card_id: str | None) -> int | None:
        """The line a card is written on (None if it is not in the file)."""
        return next((e.line for group in self.values() for e in group if e.card.id == card_id),
                    None)


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


def parse_setting(line: str) -> tuple[str, str] | None:
    key, sep, value = line.partition(":")
    if sep and fold(key) in SETTINGS:
        return fold(key), value.strip()
    return None


def check_agrees(settings: Settings, source: str, **given: str | int | None) -> None:
    """The command line may repeat a file's settings (``expansion=…``, ``players=…``), never
    contradict them: nothing the user gave is silently overridden."""
    for key, value in given.items():
        said = getattr(settings, key)
        if value is not None and said is not None and value != said:
            raise ScorerError(f"the file says {key}: {said} but the command line says "
                              f"--{key} {value}; keep one", f"{source}:{settings.lines[key]}")


def read_settings(text: str, source: str) -> Settings:
    """The game and table settings of a hand file (read before its cards, which need them)."""
    s = Settings()
    for no, line in _lines(text):
        kv = parse_setting(line)
        if kv is None:
            continue
        key, value = kv
        where = f"{source}:{no}"
        if key in s.lines:
            raise ScorerError(f"'{key}' is set twice (also line {s.lines[key]})", where)
        s.lines[key] = no
        if key == "players":
            s.players = whole_number(value, "players", where=where)
        elif key == "expansion":
            if value not in EXPANSIONS:
                raise ScorerError(f"unknown expansion '{clip(value)}'; known: "
                                  + ", ".join(EXPANSIONS), where)
            s.expansion = value
        else:
            if value not in EDITIONS:
                raise ScorerError(f"unknown edition '{clip(value)}'; known: "
                                  + ", ".join(EDITIONS), where)
            s.edition = value
    return s


def parse_lines(text: str, source: str, names: Names) -> Sections:
    """The card lines of each section (``hand``, ``cursed``, ``discard``)."""
    sections = Sections()
    current = "hand"
    for no, line in _lines(text):
        where = f"{source}:{no}"
        if line.startswith("["):
            title = fold(line.strip("[] "))
            if not line.endswith("]") or title not in SECTIONS:
                hint = names.catalog.suggest(title, ["hand", "cursed items", "discard"])
                raise ScorerError(f"unknown section '{clip(line)}'{hint}; sections are [hand], "
                                  "[cursed items] and [discard]", where)
            current = SECTIONS[title]
            sections.titled.setdefault(current, no)
            continue
        if parse_setting(line) is not None:
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
                              f"remove ': {clip(choice)}'", where)
        if sep and not choice:
            raise ScorerError(f"nothing after ':' for {card.name}; write a choice or 'none'",
                              where)
        sections[current].append(Entry(no, card, choice))
    return sections


def parse_choice(entry: Entry, names: Names) -> ChoiceValue:
    eff = entry.card.choice
    text = entry.choice or ""
    if text.strip().casefold() == "none":
        return None
    if isinstance(eff, fx.ChangeSuit):
        for arrow in ("->", "→", "=>"):
            if arrow in text:
                target, suit = text.split(arrow, 1)
                return (names.card(target), names.suit(suit))
        raise ScorerError(f"write {entry.card.name}'s choice as 'CARD -> SUIT', "
                          f"got '{clip(text)}'")
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
    """Parse and validate a hand; errors name the file and the line of the card at fault.

    ``players`` (the command line's ``--players``) and ``discard`` (``--discard``, or a
    table's discard area) complete what the file does not say; a file that says otherwise
    is an error, never silently overridden.
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
        line = sections.line_of(err.subject)
        if line is None:
            culprit = next((e for e in entries + sections["cursed"]
                            if e.card.cursed != (e in sections["cursed"])), None)
            if culprit is None:
                culprit = entries[min(len(entries) - 1, max(limit, catalog.hand_size))]
            line = culprit.line
        raise err.at(f"{source}:{line}") from None

    if "discard" in sections.titled:
        if discard is not None:
            raise ScorerError("the file has a [discard] section and --discard gives a discard "
                              "area too; keep one", f"{source}:{sections.titled['discard']}")
        discard = tuple(e.card for e in sections["discard"])
    check_agrees(settings, source, players=players)
    table_players = settings.players if settings.players is not None else players
    try:
        base = Hand(catalog, cards, {}, discard, table_players, cursed)
    except ScorerError as err:
        line = sections.line_of(err.subject)
        if line is None and "players" in err.message:
            line = settings.lines.get("players")
        if line is None and "discard" in err.message:
            line = sections.titled.get("discard")
        raise err.at(f"{source}:{line or entries[0].line}") from None
    choices: dict[str, ChoiceValue] = {}
    for e in entries:
        where = f"{source}:{e.line}"
        if e.choice is None:
            continue
        if e.card.choice is None:
            raise ScorerError(f"{e.card.name} makes no choice; remove ': {clip(e.choice)}'",
                              where)
        try:
            value = parse_choice(e, names)
            if value is not None:
                check_choice(base, e.card, value)
        except ScorerError as err:
            raise err.at(where) from None
        choices[e.card.id] = value
    hand = base.with_choices(choices)
    try:
        check_clear_targets(hand.cards, hand.choices, catalog)  # Island's target (R4)
    except ScorerError as err:
        raise err.at(f"{source}:{sections.line_of(err.subject) or entries[0].line}") from None
    return hand


_NAMES: dict[int, Names] = {}


def names_for(catalog: Catalog) -> Names:
    """One :class:`Names` per catalog (building it reads every name and alias)."""
    found = _NAMES.get(id(catalog))
    if found is None or found.catalog is not catalog:
        found = _NAMES[id(catalog)] = Names(catalog)
    return found


def hand_catalog(text: str, source: str, card_files: tuple[str, ...] = (),
                 expansion: str | None = None, edition: str | None = None) -> Catalog:
    """The catalog a hand file is read with: its settings' game (or the command line's,
    which may repeat it but not contradict it), plus the user's card files."""
    settings = read_settings(text, source)
    check_agrees(settings, source, expansion=expansion, edition=edition)
    return load_catalog(card_files, expansion or settings.expansion,
                        edition or settings.edition)


def load_hand(text: str, source: str, card_files: tuple[str, ...] = (),
              expansion: str | None = None, edition: str | None = None,
              players: int | None = None, discard: tuple[Card, ...] | None = None) -> Hand:
    """Read a hand with the catalog its settings (or the command line's) call for."""
    catalog = hand_catalog(text, source, card_files, expansion, edition)
    return read_hand(text, source, catalog, names_for(catalog), players, discard)
