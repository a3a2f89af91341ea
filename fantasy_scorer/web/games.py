"""The games a page can switch between: the base game, Cursed Hoards, the Deluxe edition.

``fr-score serve`` starts with one game (``--expansion``, ``--edition``, ``--cards``); the page
has a switch for the expansion and the edition, so the server keeps one catalog per
combination, each with its own :class:`~fantasy_scorer.realms.names.Names` (names in every
language, did-you-mean). A user's ``--cards`` files are loaded on top of each combination.

A :class:`GameSpec` is the plain description of all that (files and defaults): it is what the
solver's worker processes receive, so that each builds the very same catalogs itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from threading import Lock

from ..errors import ScorerError
from ..realms.catalog import EDITIONS, EXPANSIONS, Card, Catalog, load_catalog
from ..realms.names import Names

#: The value of ``expansion`` for the base game alone (in a link: ``expansion=none``).
NO_EXPANSION = "none"
#: The edition without replacement cards.
STANDARD = "standard"


@dataclass(frozen=True)
class GameKey:
    """Which expansion and edition: ``GameKey("cursed-hoards", "deluxe")``."""

    expansion: str = NO_EXPANSION
    edition: str = STANDARD

    @property
    def label(self) -> str:
        return f"{self.expansion}/{self.edition}"


@dataclass(frozen=True)
class Game:
    """One playable combination: its catalog and its names."""

    key: GameKey
    catalog: Catalog

    @cached_property
    def names(self) -> Names:
        return Names(self.catalog)

    @property
    def hand_size(self) -> int:
        return self.catalog.hand_size

    @property
    def max_pool(self) -> int:
        """The most cards the page takes: a hand and the card just drawn (more only when the
        catalog lets a finished hand hold more)."""
        return max(self.catalog.hand_size + 1, self.catalog.max_hand or 0)

    @property
    def has_cursed(self) -> bool:
        return any(c.cursed for c in self.catalog.cards)

    @property
    def reads_table(self) -> bool:
        """Whether some card scores the discard area or the number of players (C5, C6), or
        takes an extra card from the discard area (R13): the page then shows their editors."""
        return any(c.needs or (c.extra is not None and c.extra.source == "discard")
                   for c in self.catalog.cards)


@dataclass(frozen=True)
class GameSpec:
    """What the server was started with: extra card files and the default game."""

    card_files: tuple[str, ...] = ()
    default: GameKey = field(default_factory=GameKey)


class Games:
    """The catalogs of one server, built on first use and kept (every caller of one game gets
    the very same Card objects, which compare by identity)."""

    def __init__(self, spec: GameSpec | None = None) -> None:
        self.spec = spec or GameSpec()
        self._games: dict[GameKey, Game] = {}
        self._lock = Lock()
        self.default = self.get(self.spec.default)

    def key(self, expansion: str | None = None, edition: str | None = None) -> GameKey:
        """The game a request names (missing parts: the server's default), or a one-line error."""
        exp = self.spec.default.expansion if expansion in (None, "") else expansion.strip().lower()
        ed = self.spec.default.edition if edition in (None, "") else edition.strip().lower()
        if exp != NO_EXPANSION and exp not in EXPANSIONS:
            known = ", ".join([NO_EXPANSION, *EXPANSIONS])
            raise ScorerError(f"unknown expansion '{expansion}' (choose from {known})")
        if ed not in EDITIONS:
            raise ScorerError(f"unknown edition '{edition}' (choose from {', '.join(EDITIONS)})")
        return GameKey(exp, ed)

    def get(self, key: GameKey) -> Game:
        with self._lock:
            game = self._games.get(key)
            if game is None:
                exp = None if key.expansion == NO_EXPANSION else key.expansion
                ed = None if key.edition == STANDARD else key.edition
                game = Game(key, load_catalog(self.spec.card_files, exp, ed))
                self._games[key] = game
            return game

    def of(self, expansion: str | None = None, edition: str | None = None) -> Game:
        return self.get(self.key(expansion, edition))


def counterpart(card: Card, target: Catalog) -> Card | None:
    """The same card in another game: itself, the card it replaced, or the card that replaces
    it there (Bell Tower of the base game is Bell Tower of Cursed Hoards); None when the other
    game has no such card (the expansion's Dungeon in the base game)."""
    same = target.by_id.get(card.id)
    if same is not None:
        return same
    if card.replaces is not None:
        older = target.by_id.get(card.replaces)
        if older is not None:
            return older
        # a chain: the Deluxe Phoenix replaced a card that the other game replaced differently
    for other in target.cards:
        if other.replaces is not None and other.replaces in (card.id, card.replaces):
            return other
    return None
