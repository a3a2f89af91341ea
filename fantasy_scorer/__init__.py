"""Exact scoring for Fantasy Realms (and, in :mod:`fantasy_scorer.majesty`, Majesty).

The small public API, for scripts and notebooks::

    >>> import fantasy_scorer as fs
    >>> fs.score(["Mountain", "Great Flood", "Smoke", "Whirlwind", "Air Elemental",
    ...           "Wildfire", "Mirage"]).total
    260
    >>> fs.hand(["Mirage: Rainstorm", "Whirlwind", "Rainstorm", "Blizzard"]).choices
    {'FR52': Card(FR11 Rainstorm)}

Cards are named in any of the game's 11 languages, by id (``FR13``) or by name, and a choice
goes after a colon as in a hand file (``Book of Changes: Blizzard -> Beast``). A choice left
open is made optimally by :func:`score`; :func:`resolve_hand` scores exactly what it is given,
and :func:`score_many` does the same for many hands at once, with compiled code.
Every score comes from one place, :func:`fantasy_scorer.realms.resolve.resolve`.

The packages behind it: :mod:`fantasy_scorer.realms` (the rules), ``realms.solve`` (the
searches), ``realms.formats`` (hand files, share codes, tables), ``realms.game`` (the game),
:mod:`fantasy_scorer.cli` and :mod:`fantasy_scorer.web` (the faces).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .batch import score_many
from .errors import ScorerError
from .realms.catalog import Card, Catalog, base_catalog, load_catalog
from .realms.explain import Step, explanation_lines
from .realms.explain import explain as _explain
from .realms.formats.handfile import names_for, read_hand
from .realms.hand import Hand
from .realms.resolve import Result, resolve
from .realms.solve.api import Solution, best_hand, max_hand, score_hand

__all__ = [
    "Card", "Catalog", "Hand", "Result", "ScorerError", "Solution", "Step",
    "base_catalog", "best_hand", "explain", "explanation_lines", "hand", "load_catalog",
    "max_hand", "resolve", "resolve_hand", "score", "score_many",
]


def hand(cards: Hand | Iterable[str], *, catalog: Catalog | None = None,
         discard: Sequence[str] | None = None, players: int | None = None) -> Hand:
    """A :class:`Hand` from card names (or ids), each optionally with its choice after a
    colon, as one line of a hand file; a :class:`Hand` is returned as it is."""
    if isinstance(cards, Hand):
        return cards
    cat = catalog or base_catalog()
    lines = list(cards)
    if discard is not None:
        lines += ["[discard]", *discard]
    if players is not None:
        lines.insert(0, f"players: {players}")
    return read_hand("\n".join(lines), "<hand>", cat, names_for(cat))


def score(cards: Hand | Iterable[str], *, catalog: Catalog | None = None,
          discard: Sequence[str] | None = None, players: int | None = None) -> Result:
    """The score of a hand at game end, every open choice made optimally (and Necromancer's
    best card taken from the discard area, when one is given)."""
    return score_hand(hand(cards, catalog=catalog, discard=discard, players=players))


def resolve_hand(cards: Hand | Iterable[str], *, catalog: Catalog | None = None,
                 discard: Sequence[str] | None = None, players: int | None = None) -> Result:
    """The score of exactly the hand given: an open choice stays unassigned."""
    return resolve(hand(cards, catalog=catalog, discard=discard, players=players))


def explain(cards: Hand | Iterable[str] | Result, *, catalog: Catalog | None = None,
            discard: Sequence[str] | None = None, players: int | None = None) -> list[Step]:
    """The referee's account of a score, step by step in the order of resolution, each step
    citing its rulings (``docs/rulings.md``)."""
    result = cards if isinstance(cards, Result) else score(
        cards, catalog=catalog, discard=discard, players=players)
    return _explain(result)
