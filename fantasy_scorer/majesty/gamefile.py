"""Reading and validating the YAML files: a game to score and a replay log.

Every problem becomes one `InputError` whose message names the problem and the fix. Nothing
given is silently ignored: unknown keys and duplicate keys are errors.

A game to score::

    side: A                 # A, B, or one letter per location 1-8 (mixed variant): ABABABAB
    players:                # 2-4 players
      - name: Ann
        points: 41          # collected during play (default 0)
        realm: {mill: 3, brewery: 0, cottage: 2, guardhouse: 1, barracks: 2, inn: 1,
                castle: 2, infirmary: 1}
        # meeples: 3        # leftover meeples, only with the --meeple-tiebreak variant

A realm maps locations (1-8 or their names; missing ones are 0) to card counts, or is a list of
eight counts for locations 1-8. Each realm holds 12 cards unless scored with ``--partial``.
The replay-log format is described in `fantasy_scorer.majesty.replay`.
"""

from __future__ import annotations

import itertools
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ..errors import ScorerError, clip
from ..inputs import bound_ints, check_yaml, read_limited
from .cards import CARD_TYPES, card_index
from .names import character_index, location_index, suggest
from .rules import (
    CHARACTERS,
    LOCATIONS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    REALM,
    REALM_SIZE,
    parse_side,
)


class InputError(ValueError):
    """A problem with a user's file, as one line that says how to fix it."""


class _StrictLoader(yaml.SafeLoader):
    """SafeLoader that refuses duplicate mapping keys instead of keeping the last one."""


def _construct_mapping(loader: _StrictLoader, node: yaml.MappingNode, deep: bool = False) -> dict:
    seen: set[object] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            line = key_node.start_mark.line + 1
            raise InputError(f"line {line}: the key {key!r} appears twice; keep one")
        seen.add(key)
    return loader.construct_mapping(node, deep=deep)


_StrictLoader.add_constructor(
    yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping
)
bound_ints(_StrictLoader)


def load_yaml(path: str | Path) -> Any:
    """Parse a YAML file (``-`` is standard input); any read or syntax problem becomes an
    InputError, and so does a file larger than any game needs (``/dev/zero``)."""
    label = "<stdin>" if str(path) == "-" else str(path)
    try:
        if str(path) == "-":
            stream = getattr(sys.stdin, "buffer", None)
            data = read_limited(stream.read if stream is not None
                                else lambda n: sys.stdin.read(n).encode(), label)
        else:
            with open(path, "rb") as f:
                data = read_limited(f.read, label)
    except ScorerError as exc:
        raise InputError(str(exc)) from None
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(f"{label} is not UTF-8 text; save it as UTF-8") from None
    return parse_yaml(text, label)


def parse_yaml(text: str, label: str) -> Any:
    """Parse YAML text; `label` names its source in the error messages. Empty text (or only
    comments) is an error: a game file, a replay log or standard input that holds nothing is
    a mistake, never a game with nothing to print."""
    try:
        check_yaml(text, label)  # nesting and aliases bounded before the loader builds it
    except ScorerError as exc:
        raise InputError(str(exc)) from None
    try:
        data = yaml.load(text, Loader=_StrictLoader)  # noqa: S506 - a SafeLoader subclass
    except InputError as exc:
        raise InputError(f"{label}: {exc}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise InputError(f"{label} is not valid YAML{where}: {problem}") from None
    if data is None:
        raise InputError(f"{label} is empty; write the game in it (see --help for the format)")
    return data


# ------------------------------------------------------------------ small checks


def check_keys(data: object, where: str, required: set[str], optional: set[str]) -> dict:
    """`data` must be a mapping with all `required` keys and nothing unknown."""
    if not isinstance(data, dict):
        raise InputError(f"{where} must be a mapping of keys to values")
    allowed = required | optional
    for key in data:
        if key not in allowed:
            raise InputError(f"{where}: unknown key {key!r}{suggest(str(key), sorted(allowed))}")
    for key in sorted(required):
        if key not in data:
            raise InputError(f"{where}: the key {key!r} is missing")
    return data


#: The largest number a game file or replay log may give (points, counts, a seed): far more
#: than any game holds, small enough for every sum of them.
LARGEST = 10**9


def as_int(value: object, what: str, minimum: int | None = 0, largest: int = LARGEST) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{what} must be a whole number, not {clip(repr(value))}")
    if minimum is not None and value < minimum:
        raise InputError(f"{what} must be at least {minimum}, not {value}")
    if abs(value) > largest:
        raise InputError(f"{what} must be at most {largest} (in size), not a number of "
                         f"{len(str(abs(value)))} digits")
    return value


def as_name(value: object, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"{what} must be a non-empty text (quote it if it looks like a number)")
    return value.strip()


def as_side(value: object) -> str:
    try:
        return parse_side(str(value))
    except ValueError as exc:
        raise InputError(str(exc)) from None


def player_names(values: object, where: str = "players") -> list[str]:
    if not isinstance(values, list) or not MIN_PLAYERS <= len(values) <= MAX_PLAYERS:
        count = len(values) if isinstance(values, list) else 0
        raise InputError(f"{where} must list 2-4 players, not {count}")
    names = [as_name(v, f"{where}[{i + 1}]") for i, v in enumerate(values)]
    for name in names:
        if names.count(name) > 1:
            raise InputError(f"the player name {name!r} is used twice; names must be different")
    return names


# ------------------------------------------------------------------ game to score


@dataclass(frozen=True)
class ScoreFile:
    side: str
    names: list[str]
    points: list[int]
    realms: list[list[int]]
    meeples: list[int] | None


def parse_realm(value: object, who: str) -> list[int]:
    """A realm as a location mapping or a list of eight counts -> eight counts."""
    if isinstance(value, list):
        if len(value) != 8:
            raise InputError(
                f"{who}: a realm list needs 8 counts (locations 1-8), not {len(value)}"
            )
        return [as_int(v, f"{who}: the count at {LOCATIONS[i]}") for i, v in enumerate(value)]
    if not isinstance(value, dict):
        raise InputError(f"{who}: realm must map locations to counts, e.g. {{mill: 2, inn: 1}}")
    counts = [0] * 8
    given: dict[int, object] = {}
    for key, count in value.items():
        try:
            loc = location_index(key)
        except ValueError as exc:
            raise InputError(f"{who}: {exc}") from None
        if loc in given:
            raise InputError(
                f"{who}: the {LOCATIONS[loc]} is given twice ({given[loc]!r} and {key!r}); "
                "keep one"
            )
        given[loc] = key
        counts[loc] = as_int(count, f"{who}: the count at {LOCATIONS[loc]}")
    return counts


def check_box(realms: list[list[int]]) -> None:
    """The realms together must be buildable from the 60 cards in the box.

    Hall's condition: every set of locations 1-7 needs no more cards than the box has cards
    with a half that fits one of them (any card can lie in an Infirmary).
    """
    total = sum(sum(r) for r in realms)
    box = sum(c.tier1 + c.tier2 for c in CARD_TYPES)
    if total > box:
        raise InputError(f"the realms hold {total} cards but the box has only {box}")
    for size in range(1, 8):
        for subset in itertools.combinations(REALM, size):
            need = sum(r[loc] for r in realms for loc in subset)
            have = sum(
                c.tier1 + c.tier2 for c in CARD_TYPES if any(h in subset for h in c.halves)
            )
            if need > have:
                where = " + ".join(LOCATIONS[loc] for loc in subset)
                chars = "/".join(CHARACTERS[loc] for loc in subset)
                raise InputError(
                    f"the realms need {need} {chars} cards at {where} together but the box has "
                    f"only {have} that can go there; check those counts"
                )


def parse_score_file(
    data: object, partial: bool = False, meeple_tiebreak: bool = False
) -> ScoreFile:
    """Validate a parsed game-to-score file."""
    top = check_keys(data, "the game file", {"side", "players"}, set())
    side = as_side(top["side"])
    players = top["players"]
    if not isinstance(players, list) or not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        count = len(players) if isinstance(players, list) else 0
        raise InputError(f"players must list 2-4 players, not {count}")
    names: list[str] = []
    points: list[int] = []
    realms: list[list[int]] = []
    meeples: list[int] = []
    for i, entry in enumerate(players):
        where = f"player {i + 1}"
        check_keys(entry, where, {"name", "realm"}, {"points", "meeples"})
        name = as_name(entry["name"], f"{where}: name")
        if name in names:
            raise InputError(f"the player name {name!r} is used twice; names must be different")
        who = f"player {name}"
        names.append(name)
        points.append(as_int(entry.get("points", 0), f"{who}: points"))
        realm = parse_realm(entry["realm"], who)
        size = sum(realm)
        if size > REALM_SIZE:
            raise InputError(f"{who}: the realm has {size} cards; a realm holds at most 12")
        if size != REALM_SIZE and not partial:
            raise InputError(
                f"{who}: the realm has {size} cards but a finished realm has 12 "
                "(use --partial to score an unfinished game)"
            )
        realms.append(realm)
        if "meeples" in entry:
            if not meeple_tiebreak:
                raise InputError(
                    f"{who}: meeples only count in the --meeple-tiebreak variant; "
                    "pass that option or remove meeples"
                )
            meeples.append(as_int(entry["meeples"], f"{who}: meeples"))
        elif meeple_tiebreak:
            raise InputError(f"{who}: the --meeple-tiebreak variant needs meeples: N")
    check_box(realms)
    return ScoreFile(side, names, points, realms, meeples if meeple_tiebreak else None)


# ------------------------------------------------------------------ replay log


@dataclass(frozen=True)
class LogMove:
    """One move of a replay log, typed but not yet checked against the game."""

    number: int
    player: str
    take: int
    half: int | None
    heal: int | None
    trade: int
    points: int | None
    meeples: int | None = None
    card: int | None = None


@dataclass(frozen=True)
class ReplayLog:
    """A parsed log. With neither `deck` nor `seed` the log was written as played: the deck
    is unknown and every move names the card it takes (`as_played`)."""

    names: list[str]
    side: str
    deck: list[int] | None
    seed: int | None
    all60: bool
    everyone_self: bool
    meeple_tiebreak: bool
    moves: list[LogMove]

    @property
    def as_played(self) -> bool:
        return self.deck is None and self.seed is None


def _character(value: object, what: str) -> int:
    try:
        return character_index(value)
    except ValueError as exc:
        raise InputError(f"{what}: {exc}") from None


def _card(value: object, what: str) -> int:
    try:
        return card_index(value)
    except ValueError as exc:
        raise InputError(f"{what}: {exc}") from None


def _optional_int(entry: dict, key: str, where: str) -> int | None:
    return as_int(entry[key], f"{where}: {key}") if key in entry else None


def parse_log_move(entry: object, number: int, names: list[str]) -> LogMove:
    where = f"move {number}"
    check_keys(
        entry, where, {"player", "take"}, {"half", "heal", "trade", "points", "meeples", "card"}
    )
    player = as_name(entry["player"], f"{where}: player")
    if player not in names:
        raise InputError(f"{where}: unknown player {player!r}{suggest(player, names)}")
    return LogMove(
        number=number,
        player=player,
        take=as_int(entry["take"], f"{where}: take"),
        half=_character(entry["half"], f"{where}: half") if "half" in entry else None,
        heal=_character(entry["heal"], f"{where}: heal") if "heal" in entry else None,
        trade=as_int(entry.get("trade", 0), f"{where}: trade", minimum=None),
        points=_optional_int(entry, "points", where),
        meeples=_optional_int(entry, "meeples", where),
        card=_card(entry["card"], f"{where}: card") if "card" in entry else None,
    )


def parse_replay_log(data: object) -> ReplayLog:
    """Validate a parsed replay log (format in `fantasy_scorer.majesty.replay`)."""
    top = check_keys(
        data,
        "the replay log",
        {"players", "side", "moves"},
        {"seed", "deck", "all60", "everyone", "tiebreak"},
    )
    names = player_names(top["players"])
    side = as_side(top["side"])
    if "seed" in top and "deck" in top:
        raise InputError(
            "the replay log gives both seed: and deck:; keep one (or neither, for a game "
            "written down as it is played, each move naming its card)"
        )
    seed = (as_int(top["seed"], "seed", minimum=None, largest=2**63 - 1) if "seed" in top
            else None)
    deck = None
    if "deck" in top:
        if not isinstance(top["deck"], list):
            raise InputError("deck must be a list of cards, top card first, e.g. [Miller, Witch]")
        deck = [_card(name, f"deck card {i + 1}") for i, name in enumerate(top["deck"])]
    all60 = top.get("all60", False)
    if not isinstance(all60, bool):
        raise InputError(f"all60 must be true or false, not {all60!r}")
    if all60 and deck is not None:
        raise InputError("all60 only applies to a dealt set-up; remove it or remove deck:")
    everyone = top.get("everyone", "all")
    if everyone not in ("all", "opponents"):
        raise InputError(
            f"everyone must be all (ruling M1: the active player too) or opponents, "
            f"not {everyone!r}"
        )
    tiebreak = top.get("tiebreak", "shared")
    if tiebreak not in ("shared", "meeples"):
        raise InputError(f"tiebreak must be shared or meeples, not {tiebreak!r}")
    moves = top["moves"]
    if moves is None:
        moves = []
    if not isinstance(moves, list):
        raise InputError("moves must be a list like - {player: Ann, take: 0}")
    log = ReplayLog(
        names=names,
        side=side,
        deck=deck,
        seed=seed,
        all60=all60,
        everyone_self=everyone == "all",
        meeple_tiebreak=tiebreak == "meeples",
        moves=[parse_log_move(m, i + 1, names) for i, m in enumerate(moves)],
    )
    if log.as_played:
        for m in log.moves:
            if m.card is None:
                raise InputError(
                    f"move {m.number}: this log has no seed: or deck:, so it is read as "
                    "written at the table and every move names the card it takes "
                    "(e.g. card: Miller/Knight); add card:, or give the seed or the deck"
                )
    return log
