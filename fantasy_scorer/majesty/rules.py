"""The eight locations of both sides, as data.

Every location ability is a short list of `Ability` records read top to bottom by one
interpreter (`fantasy_scorer.majesty.engine`), so a rule lives in exactly one place: this
table. Sides are looked up per location, which is what makes the unofficial mixed variant
(`side: ABABABAB`) cost nothing extra.

Indices: location ``i`` (0-based) is the home of character ``i``; index 7 is the Infirmary,
which has no character. Abilities count only the active player's face-up characters at
locations 0-6 unless a line names the Infirmary (``INFIRMARY`` in ``locs``).
"""

from __future__ import annotations

from typing import NamedTuple

CHARACTERS: tuple[str, ...] = (
    "Miller",
    "Brewer",
    "Witch",
    "Guard",
    "Knight",
    "Innkeeper",
    "Noble",
)
LOCATIONS: tuple[str, ...] = (
    "mill",
    "brewery",
    "cottage",
    "guardhouse",
    "barracks",
    "inn",
    "castle",
    "infirmary",
)
MILL, BREWERY, COTTAGE, GUARDHOUSE, BARRACKS, INN, CASTLE, INFIRMARY = range(8)
#: Locations that hold face-up characters (the Infirmary does not count for abilities).
REALM = range(7)
SIDES = ("A", "B")

START_MEEPLES = 5
MAX_MEEPLES = 5
REALM_SIZE = 12
DISPLAY_SIZE = 6
MIN_PLAYERS, MAX_PLAYERS = 2, 4

# Ability kinds. Plain strings keep the table readable and the interpreter a flat if-chain.
HEAL = "heal"  # top Infirmary card back to its location, not activated (signpost)
DEFEND = "defend"  # only the Guard count used by attacks: no effect on placement
ATTACK = "attack"  # each opponent with fewer Guards than your Knights loses a card
TRADE = "trade"  # side-B Castle: points <-> meeples 1:1, optional, before the points
POINTS = "points"  # +amount per character at each of locs
MEEPLES = "meeples"  # +amount meeples per character at each of locs
EVERYONE = "everyone"  # every player with >= 1 character at locs[0] gains amount (M1)
BONUS = "bonus"  # +amount once if you have >= 1 character at every one of locs
FULLEST = "fullest"  # per character at locs[0]: +amount x the size of your fullest location


class Ability(NamedTuple):
    """One line of a location card."""

    kind: str
    amount: int = 0
    locs: tuple[int, ...] = ()


class Location(NamedTuple):
    """One side of a location card: its abilities (top to bottom) and majority value."""

    abilities: tuple[Ability, ...]
    value: int


class InfirmaryRule(NamedTuple):
    """Game-end penalty of the Infirmary: per card, and extra for the most cards (ties pay)."""

    per_card: int
    most: int


def _a(kind: str, amount: int = 0, *locs: int) -> Ability:
    return Ability(kind, amount, tuple(locs))


#: side -> the seven locations 1-7 (index 0-6).
LOCATION_RULES: dict[str, tuple[Location, ...]] = {
    "A": (
        Location((_a(POINTS, 2, MILL),), 10),
        Location((_a(POINTS, 2, BREWERY), _a(MEEPLES, 1, BREWERY), _a(EVERYONE, 2, MILL)), 11),
        Location((_a(HEAL), _a(POINTS, 2, MILL, BREWERY, COTTAGE)), 12),
        Location((_a(DEFEND), _a(POINTS, 2, GUARDHOUSE, BARRACKS, INN)), 13),
        Location((_a(ATTACK), _a(POINTS, 3, BARRACKS)), 14),
        Location((_a(POINTS, 4, INN), _a(EVERYONE, 3, BREWERY)), 15),
        Location((_a(POINTS, 5, CASTLE), _a(MEEPLES, 1, CASTLE)), 16),
    ),
    "B": (
        Location((_a(POINTS, 2, MILL), _a(EVERYONE, 3, COTTAGE)), 14),
        Location((_a(MEEPLES, 1, MILL, BREWERY), _a(BONUS, 10, INN, CASTLE)), 12),
        Location((_a(HEAL), _a(POINTS, 3, COTTAGE)), 12),
        Location(
            (_a(DEFEND), _a(POINTS, 2, BREWERY, COTTAGE, GUARDHOUSE), _a(EVERYONE, 3, INN)), 8
        ),
        Location((_a(ATTACK), _a(POINTS, 3, BARRACKS, INN, CASTLE)), 8),
        Location((_a(FULLEST, 2, INN),), 12),
        Location((_a(TRADE), _a(POINTS, 4, CASTLE, INFIRMARY)), 16),
    ),
}

INFIRMARY_RULES: dict[str, InfirmaryRule] = {
    "A": InfirmaryRule(per_card=1, most=0),
    "B": InfirmaryRule(per_card=2, most=10),
}


def parse_side(text: str) -> str:
    """Normalise a side: ``A``, ``B`` or eight letters (mixed variant) -> eight letters.

    Raises ValueError with a message that says how to fix the value.
    """
    side = str(text).strip().upper()
    if side in SIDES:
        return side * 8
    if len(side) == 8 and set(side) <= set(SIDES):
        return side
    raise ValueError(
        f"side {text!r} is not valid: use A, B, or eight letters A/B, one per location "
        "1-8 (e.g. ABABABAB)"
    )


def side_label(side: str) -> str:
    """``AAAAAAAA`` -> ``A``; a mixed side stays as it is."""
    return side[0] if len(set(side)) == 1 else side


def locations_for(side: str) -> tuple[Location, ...]:
    """The seven locations 1-7 for an eight-letter side string."""
    return tuple(LOCATION_RULES[side[i]][i] for i in REALM)


def infirmary_for(side: str) -> InfirmaryRule:
    return INFIRMARY_RULES[side[INFIRMARY]]
