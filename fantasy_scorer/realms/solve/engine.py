"""What a search engine is, the one way it says "can't", and which effect kinds each models.

The solver has six engines: the Python enumeration (``exhaustive.py``, ``choices.py``), the
compiled enumeration (``batch/best.py``), the compiled enumeration pruned by the sweep's bound
(``batch/pruned.py``), the ``max`` sweep (``sweep*.py``), CP-SAT (``cpsat.py``) and hill
climbing (``local.py``). Each either takes a problem or refuses it, and a refusal is always
:class:`Unsupported` (with the reason), so a caller can fall back to another engine or say
why. The engines of ``best`` (``engines.py``) and those of ``max`` (``max_engines.py``: the
sweep, CP-SAT, hill climbing) are :class:`Engine` objects; the planners in ``api.py`` pick
among those that fit.

:data:`EFFECT_ENGINES` is the one table of the effect kinds (the classes of ``effects.py``)
each engine models. Adding an effect kind means adding its row here: the test of the registry
then names every engine whose builders must learn it (``COMPILERS`` of the sweep,
``POINT_BUILDERS`` and ``CHOICES`` of CP-SAT, ``KNOWN_EFFECTS`` and ``KNOWN_CHOICES`` of the
compiled scorer). The Python enumeration and hill climbing score through ``resolve``, which
defines every kind. Limits finer than a kind (a copy from the game that takes a strength, a
Cursed Item whose value reads the hand) are refused by the engine itself, as Unsupported.

This module loads nothing heavy: the planner asks it before any engine is imported.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, TypeVar

from ...errors import ScorerError
from .. import effects as fx
from .exhaustive import NO_TABLE, SubsetProgress, Table

if TYPE_CHECKING:
    from ..catalog import Card, Catalog
    from ..hand import ChoiceValue
    from .exhaustive import Candidate


class Unsupported(ScorerError):
    """An engine cannot take these cards (the message says which and why): the caller falls
    back to another engine, or says so."""


#: Every engine, by the name the planner and ``--method`` use.
PYTHON, COMPILED, PRUNED, SWEEP, CPSAT, LOCAL = (
    "python", "compiled", "pruned", "sweep", "cpsat", "local")
ENGINES = (PYTHON, COMPILED, PRUNED, SWEEP, CPSAT, LOCAL)

_ALL = frozenset(ENGINES)

#: Effect kind -> the engines that model it. The pruned enumeration needs both the compiled
#: scorer and the sweep's bound; the Python enumeration and hill climbing use ``resolve``.
EFFECT_ENGINES: dict[type, frozenset[str]] = {
    # points (bonuses and penalties)
    fx.Points: _ALL,
    fx.BestOf: _ALL,
    fx.SumStrength: _ALL,
    fx.MaxStrength: _ALL,
    fx.Collection: _ALL,
    fx.Runs: _ALL,
    fx.DistinctSuits: _ALL,
    fx.OddStrength: _ALL,
    fx.Exactly: _ALL,
    fx.PerPenalty: _ALL,
    fx.PerPlayer: _ALL,
    # blanking and clearing
    fx.Blanks: _ALL,
    fx.BlankedUnless: _ALL,
    fx.BlankedIf: _ALL,
    fx.BlanksLonely: _ALL,
    fx.Clears: _ALL,
    fx.ClearsWord: _ALL,
    # choices
    fx.Copy: _ALL,
    fx.ChangeSuit: _ALL,
    fx.ClearOne: _ALL,
    fx.Protect: _ALL,
    # extra cards (the pruned enumeration takes a pool holding one only when no card can be
    # taken: no discard area)
    fx.ExtraCard: _ALL - {PRUNED},
}


def modelled_by(engine: str, base: type = object) -> tuple[type, ...]:
    """The effect kinds (subclasses of ``base``) that ``engine`` models, in registry order.

    >>> from fantasy_scorer.realms import effects as fx
    >>> fx.Runs in modelled_by("cpsat", fx.PointEffect)
    True
    >>> fx.Copy in modelled_by("cpsat", fx.PointEffect)
    False
    """
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; known: {', '.join(ENGINES)}")
    return tuple(k for k, names in EFFECT_ENGINES.items()
                 if engine in names and issubclass(k, base))


#: The choice effects (a card's ``choice``).
CHOICE_KINDS = (fx.Copy, fx.ChangeSuit, fx.ClearOne, fx.Protect)


@dataclass
class Problem:
    """One ``best`` problem: the ``top`` best hands of ``pool`` around ``table``.

    ``discard``: the cards an extra-card effect may take; ``pinned``: choices written by the
    player (constraints); ``time_limit`` None: no limit; ``progress(done, total)``: called as
    an enumeration scores its subsets."""

    pool: list[Card]
    catalog: Catalog
    discard: list[Card] = field(default_factory=list)
    pinned: Mapping[str, ChoiceValue] = field(default_factory=dict)
    table: Table = NO_TABLE
    top: int = 1
    time_limit: float | None = None
    workers: int = 2
    progress: SubsetProgress | None = None

    @property
    def cards(self) -> list[Card]:
        """Every card an engine must model: the pool, the discard area and the Cursed Items
        held beside the hand."""
        return list(self.pool) + list(self.discard) + list(self.table.cursed)


@dataclass(frozen=True)
class Found:
    """What an engine found: the best hands, best first, and whether they are proven best
    (False: a time limit stopped the search first, or the engine never proves). ``tables``:
    the table each hand was scored at, when the engine chose it (``max`` tries every number
    of players); empty when it is the problem's own."""

    candidates: Sequence[Candidate]
    proven: bool
    engine: str
    tables: Sequence[Table] = ()


#: The problem an engine takes: :class:`Problem` (``best``) or ``MaxProblem`` (``max``).
P = TypeVar("P", contravariant=True)


class Engine(Protocol[P]):
    """A search. ``fits`` says, without searching, whether it takes a problem (None) or why
    not; ``run`` searches, and raises :class:`Unsupported` on a problem it does not take."""

    name: str

    def fits(self, problem: P) -> str | None: ...

    def run(self, problem: P) -> Found: ...
