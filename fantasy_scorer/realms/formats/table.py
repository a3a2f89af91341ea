"""A whole table at the end of a game: every hand, the discard area, one ranking.

A table file (see ``examples/table.yaml``)::

    players: 3                 # optional: the number of hands, which it must equal
    expansion: cursed-hoards   # optional, and so is 'edition: deluxe'
    discard: [Knights, Queen]  # the face-up discard area (at most 10 cards)
    hands:
      Alice: [Mountain, Great Flood, "Mirage: Rainstorm", ...]   # a list of hand-file lines
      Bob: |                                                     # or a hand-file block
        King
        Doppelgänger: King
        [cursed items]
        Spyglass

Each hand is read with the hand-file reader (names in any language, pinned choices on their
card's line, Cursed Items in their section), so a problem is reported as
``table.yaml: Bob: line 12: …`` with the line of the table file. The table is then checked as a
whole: every card exists once in the game (not in two hands, not in a hand and the discard
area), a hand at game end holds the game's hand size (7; 8 with Cursed Hoards) plus the extra
cards its cards allow, the discard area holds at most 10, and the number of players fits the
game (2 to 6) and the hands given. Every hand is scored with the table's discard area and
number of players, which some expansion cards read (C5, C6).

Ranking follows the rulebook: the highest total wins; equal totals are separated by the lowest
total base strength (the printed strengths of the hand); still equal, the place is shared.
Each hand is scored by :func:`fantasy_scorer.realms.solve.api.score_hand`, the one place where
open choices are decided; :mod:`fantasy_scorer.realms.ranking` places the players.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import yaml

from ...errors import ScorerError, clip
from ...inputs import check_yaml, whole_number
from ..catalog import Card, Catalog, load_catalog
from ..hand import MAX_DISCARD, Hand, hand_limit
from ..names import Names
from ..ranking import Standing, winners
from ..yaml_lines import duplicate_key_error
from .handfile import names_for, parse_lines, read_hand, read_settings

MIN_PLAYERS, MAX_PLAYERS = 2, 6
#: The game ends at once when the discard area holds this many cards.
DISCARD_LIMIT = MAX_DISCARD
TABLE_KEYS = ("players", "discard", "hands", "expansion", "edition")


@dataclass(frozen=True)
class Seat:
    player: str
    hand: Hand
    line: int  # line of the player's entry in the table file


@dataclass(frozen=True)
class GameTable:
    players: int
    seats: tuple[Seat, ...]
    discard: tuple[Card, ...]
    source: str


# --------------------------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------------------------


def _compose(text: str, source: str) -> yaml.Node | None:
    check_yaml(text, source)  # nesting and aliases bounded before the tree is built
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        line = f":{mark.line + 1}" if mark else ""
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise ScorerError(f"malformed YAML: {problem}", f"{source}{line}") from None
    _unique_keys(root, source)
    return root


def _unique_keys(node: yaml.Node | None, source: str) -> None:
    """A key written twice anywhere in the file (two players of one name, 'discard' twice)
    is an error with its line: YAML would silently keep the last."""
    if isinstance(node, yaml.MappingNode):
        bad = duplicate_key_error(node, source)
        if bad is not None:
            raise bad
        for key, value in node.value:
            _unique_keys(key, source)
            _unique_keys(value, source)
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            _unique_keys(item, source)


def _line(node: yaml.Node) -> int:
    return node.start_mark.line + 1


def _hand_lines(node: yaml.Node, source: str, player: str) -> list[tuple[int, str]]:
    """(file line, hand-file line) pairs of one player's entry."""
    where = f"{source}: {player}: line {_line(node)}"
    if isinstance(node, yaml.ScalarNode):
        first = _line(node) + (1 if node.style in ("|", ">") else 0)
        return [(first + i, text) for i, text in enumerate(str(node.value).splitlines())]
    if not isinstance(node, yaml.SequenceNode):
        raise ScorerError("a hand is a list of cards or a block of hand-file lines", where)
    out = []
    for item in node.value:
        if isinstance(item, yaml.ScalarNode):
            out.append((_line(item), str(item.value)))
        elif (isinstance(item, yaml.MappingNode) and len(item.value) == 1
              and all(isinstance(n, yaml.ScalarNode) for n in item.value[0])):
            key, value = item.value[0]  # "- Mirage: Rainstorm" written without quotes
            out.append((_line(item), f"{key.value}: {value.value}"))
        else:
            raise ScorerError("each card of a hand is one line such as 'Mirage: Rainstorm'",
                              f"{source}: {player}: line {_line(item)}")
    return out


def _read_seat(player: str, node: yaml.Node, source: str, catalog: Catalog, names: Names,
               players: int, put: Callable[[Card, int], None], discard: tuple[Card, ...]
               ) -> Hand:
    """A player's hand, each of its cards (and Cursed Items) first placed at the table."""
    lines = _hand_lines(node, source, player)
    text = "\n".join(t for _, t in lines)

    def located(e: ScorerError) -> ScorerError:
        where = e.where or ""
        if where.startswith("hand:") and where[5:].isdigit() and lines:
            n = min(int(where[5:]), len(lines))
            return ScorerError(e.message, f"{source}: {player}: line {lines[n - 1][0]}")
        return ScorerError(e.message, f"{source}: {player}: line {_line(node)}")

    settings = read_settings(text, "hand")
    for key in ("players", "expansion", "edition"):
        if key in settings.lines:
            raise located(ScorerError(f"'{key}' belongs to the whole table: set it at the top "
                                      "of the table file", f"hand:{settings.lines[key]}"))
    try:
        sections = parse_lines(text, "hand", names)
    except ScorerError as e:
        raise located(e) from None
    if sections["discard"]:
        raise located(ScorerError("the discard area belongs to the whole table: list it under "
                                  "'discard'", f"hand:{sections['discard'][0].line}"))
    for entry in sections["hand"] + sections["cursed"]:
        put(entry.card, lines[entry.line - 1][0])
    try:
        return read_hand(text, "hand", catalog, names, players, discard)
    except ScorerError as e:
        raise located(e) from None


def _settings(fields: dict[str, yaml.Node], source: str, expansion: str | None,
              edition: str | None) -> tuple[str | None, str | None]:
    """The table's expansion and edition; the command line may repeat them, not contradict."""
    out = []
    for key, given in (("expansion", expansion), ("edition", edition)):
        node = fields.get(key)
        said = str(node.value) if isinstance(node, yaml.ScalarNode) else None
        if node is not None and said is None:
            raise ScorerError(f"'{key}' is a name", f"{source}:{_line(node)}")
        if given is not None and said is not None and given != said:
            raise ScorerError(f"the table says {key}: {clip(said)} but the command line says "
                              f"--{key} {given}; keep one",
                              f"{source}:{_line(node)}")  # type: ignore[arg-type]
        out.append(given or said)
    return out[0], out[1]


def read_table(text: str, source: str, card_files: Sequence[str] = (),
               expansion: str | None = None, edition: str | None = None) -> GameTable:
    """Parse and validate a table file; every problem is one line naming file, place and line.

    The catalog is the base game plus the table's (or the command line's) expansion and
    edition, plus the user's own card files.
    """
    root = _compose(text, source)
    if not isinstance(root, yaml.MappingNode):
        raise ScorerError("a table file is a mapping with 'hands' (and optional 'discard', "
                          "'players')", f"{source}:1")
    fields: dict[str, yaml.Node] = {}
    for key, value in root.value:
        name = str(key.value)
        if name not in TABLE_KEYS:
            hint = _suggest(name, TABLE_KEYS)
            raise ScorerError(f"unknown key '{clip(name)}'{hint} (expected "
                              f"{', '.join(TABLE_KEYS)})", f"{source}:{_line(key)}")
        fields[name] = value
    expansion, edition = _settings(fields, source, expansion, edition)
    try:
        catalog = load_catalog(card_files, expansion, edition)
    except ScorerError as e:
        raise e.at(source) from None
    names = names_for(catalog)
    hands_node = fields.get("hands")
    if not isinstance(hands_node, yaml.MappingNode) or not hands_node.value:
        line = _line(hands_node) if hands_node is not None else 1
        raise ScorerError("'hands' maps each player's name to a hand", f"{source}:{line}")
    players = _players(fields.get("players"), len(hands_node.value), source)

    places: dict[str, tuple[str, int]] = {}  # card id -> (place, line)

    def put(card: Card, place: str, where: str, line: int) -> None:
        if card.id in places:
            other, other_line = places[card.id]
            raise ScorerError(
                f"{card.name} is also in {other} (line {other_line}); "
                "each card exists once in the game", f"{source}: {where}: line {line}")
        places[card.id] = (place, line)

    discard: list[Card] = []
    node = fields.get("discard")
    if node is not None and not (isinstance(node, yaml.ScalarNode) and node.value in ("", "~")):
        if not isinstance(node, yaml.SequenceNode):
            raise ScorerError("'discard' is a list of cards", f"{source}:{_line(node)}")
        for item in node.value:
            where = f"{source}: discard: line {_line(item)}"
            if not isinstance(item, yaml.ScalarNode):
                raise ScorerError("each discarded card is a name or id", where)
            try:
                card = names.card(str(item.value))
            except ScorerError as e:
                raise ScorerError(e.message, where) from None
            if card.cursed:
                raise ScorerError(f"{card.name} is a Cursed Item; it cannot be in the discard "
                                  "area", where)
            put(card, "the discard area", "discard", _line(item))
            discard.append(card)
        if len(discard) > DISCARD_LIMIT:
            raise ScorerError(f"the discard area holds {len(discard)} cards; the game ends when "
                              f"it holds {DISCARD_LIMIT}", f"{source}:{_line(node)}")

    seats: list[Seat] = []
    for key, value in hands_node.value:
        player = str(key.value).strip()
        if any(s.player == player for s in seats):
            raise ScorerError(f"{player} is listed twice", f"{source}: {player}: line {_line(key)}")

        def seat_put(card: Card, line: int, player: str = player) -> None:
            put(card, f"{player}'s hand", player, line)

        # Every hand sees the table's discard area and number of players (C5, C6).
        hand = _read_seat(player, value, source, catalog, names, players, seat_put,
                          tuple(discard))
        size, limit = len(hand.cards), hand_limit(hand.cards, catalog, hand.cursed)
        if not catalog.hand_size <= size <= limit:
            extra = f" ({limit} with its extra cards)" if limit > catalog.hand_size else ""
            raise ScorerError(f"{size} cards; at game end a hand holds {catalog.hand_size}{extra}",
                              f"{source}: {player}: line {_line(key)}")
        seats.append(Seat(player, hand, _line(key)))
    return GameTable(players, tuple(seats), tuple(discard), source)


def _suggest(word: str, options: Sequence[str]) -> str:
    close = difflib.get_close_matches(word, list(options), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def _players(node: yaml.Node | None, hands: int, source: str) -> int:
    if node is None:
        count = hands
        where = source
    else:
        where = f"{source}:{_line(node)}"
        if not (isinstance(node, yaml.ScalarNode) and node.tag.endswith(":int")):
            raise ScorerError("'players' must be a whole number", where)
        count = whole_number(node.value, "'players'", where=where)
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        raise ScorerError(f"{count} players; Fantasy Realms is played by "
                          f"{MIN_PLAYERS} to {MAX_PLAYERS}", where)
    if count != hands:
        raise ScorerError(f"players: {count}, but {hands} hands are given; list every "
                          "player's hand (or leave 'players' out)", where)
    return count


# --------------------------------------------------------------------------------------------
# Ranking
# --------------------------------------------------------------------------------------------


def verdict(standings: Sequence[Standing]) -> str:
    """One sentence naming the winner(s) and, on a tie, what decided it."""
    top = winners(standings)
    first = top[0]
    if len(top) > 1:
        return (f"Shared win: {_and([s.player for s in top])} ({first.total} points, "
                f"base strength {first.base_strength})")
    text = f"Winner: {first.player} ({first.total} points"
    tied = [s for s in standings if s.total == first.total and s is not first]
    if tied:
        text += (f"; tie on total with {_and([s.player for s in tied])}, broken by the lower "
                 f"base strength {first.base_strength} < "
                 f"{min(s.base_strength for s in tied)}")
    return text + ")"


def _and(words: Sequence[str]) -> str:
    words = list(words)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def table_json(table: GameTable, standings: Sequence[Standing], result_json: Any,
               card_name: Any = None) -> dict[str, Any]:
    """``fr-score game --json``: the ranking with each player's full result."""
    return {
        "players": table.players,
        "discard": [card_name(c) if card_name else c.name for c in table.discard],
        "ranking": [
            {"rank": s.rank, "player": s.player, "total": s.total,
             "base_strength": s.base_strength, "tie_on_total": s.tie_on_total,
             "shared": s.shared, "result": result_json(s.result)}
            for s in standings
        ],
        "winners": [s.player for s in winners(standings)],
    }
