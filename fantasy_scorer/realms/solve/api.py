"""The public face of the solver: optimal choices, best hand from a pool, best hand in the game.

Every :class:`Solution` is re-scored by :func:`~fantasy_scorer.realms.resolve.resolve`, and that is
the score reported, whichever search found it. ``proven`` says whether the search finished
(``False`` when a time limit stopped it: the hand is the best found so far).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...errors import ScorerError
from .. import effects as fx
from ..catalog import Card, Catalog, base_catalog
from ..hand import MAX_DISCARD, ChoiceValue, Hand, format_choice, hand_limit
from ..ranking import Standing, rank
from ..resolve import Result, resolve
from . import engines
from .batch.best import compiled_best, compiled_fits
from .engine import (
    COMPILED,
    CPSAT,
    LOCAL,
    PRUNED,
    PYTHON,
    SWEEP,
    Engine,
    Problem,
    Unsupported,
)
from .exhaustive import NO_TABLE, Candidate, SubsetProgress, Table, best_with_extras
from .max_engines import MAX_ENGINES, PROVING, MaxProblem
from .plan import costs

if TYPE_CHECKING:
    from . import sweep

#: The searches ``best_hand`` may be asked for by name.
METHODS = ("auto", "exhaustive", "cpsat", "compiled", "pruned", "python")


@dataclass(frozen=True)
class Solution:
    """A hand with all its choices made, its scored result, and whether it is proven best."""

    hand: Hand
    result: Result
    proven: bool
    discard: tuple[Card, ...] = ()  # pool cards the hand leaves out (best)

    @property
    def total(self) -> int:
        return self.result.total


def _solution(cand: Candidate, catalog: Catalog, proven: bool,
              discard: Sequence[Card] = (), table: Table = NO_TABLE) -> Solution:
    hand = table.hand(catalog, cand.cards, cand.choices, cand.extra)
    result = resolve(hand)
    if result.total != cand.total:  # pragma: no cover - the searches use the evaluator
        raise AssertionError(f"search said {cand.total}, evaluator says {result.total}")
    return Solution(hand, result, proven, tuple(discard))


def optimize(hand: Hand, discard: Sequence[Card] | None = None) -> Solution:
    """The best choices for every open choice of ``hand`` (pinned ones are kept).

    With a discard area (``discard``, else the hand's own), a hand holding Necromancer (or
    any extra-card effect) with room for its extra card also gets the best card to take
    from it, or none.
    """
    cat = hand.catalog
    area = tuple(discard) if discard is not None else hand.discard
    table = Table(area, hand.players, hand.cursed)
    fast = _compiled_optimum(hand, area, table)
    if fast is not None:
        return _solution(fast, cat, True, table=table)
    limit = hand_limit(hand.cards, cat, hand.cursed)
    best = best_with_extras(hand.cards, cat, dict(hand.choices), table,
                            limit - len(hand.cards))
    return _solution(best, cat, True, table=table)


#: Combinations of open choices and extra cards (an estimate) from which :func:`optimize`
#: hands the hand to the compiled enumeration: below, the Python enumeration answers before
#: the compiled code would load.
COMPILED_FROM = 200_000


def combinations_estimate(hand: Hand, area: Sequence[Card] | None) -> int:
    """About how many combinations of its open choices (and extra cards) a hand has: a copy
    from the game counts a dozen targets and Book of Changes half its (card, suit) pairs,
    as the enumeration collapses options that cannot differ."""
    n = len(hand.cards)
    count = 1
    for c in hand.open_choices:
        eff = c.choice
        if isinstance(eff, fx.Copy) and eff.source == "game":
            count *= 12
        elif isinstance(eff, fx.ChangeSuit):
            count *= max(1, n * len(hand.catalog.suits) // 2)
        else:
            count *= n
    if area and any(c.extra is not None for c in hand.cards + hand.cursed):
        count *= len(area) + 1
    return count


def _compiled_optimum(hand: Hand, area: Sequence[Card] | None, table: Table
                      ) -> Candidate | None:
    """The optimum of a hand of the catalog's hand size whose combinations are too many for
    the Python enumeration to answer soon (many choice cards and an extra card to take), by
    the compiled enumeration of ``best`` on the hand as a pool of its own size: the same
    totals (and written choices kept alike). None when it does not apply, or finds no legal
    completion (the Python enumeration then says why)."""
    cat = hand.catalog
    if len(hand.cards) != cat.hand_size or combinations_estimate(hand, area) < COMPILED_FROM:
        return None
    pool, extra = list(hand.cards), list(area or ())
    if not compiled_fits(pool, cat, extra, table):
        return None
    found, _ = compiled_best(pool, cat, extra, dict(hand.choices), 1, None, table)
    return found[0] if found else None


def score_hand(hand: Hand) -> Result:
    """The authoritative score of one player's hand at game end.

    Pinned choices are used as given; every open choice (a chooser left without a value) is
    chosen optimally, and a Necromancer with room for its extra card takes the best card of the
    hand's discard area (R13). A table and the game engine score every hand through this.
    """
    return optimize(hand).result


def as_written(hand: Hand) -> Result | None:
    """The hand as the player wrote it: every open choice left unassigned and no extra card
    taken, as the web scorer scores a code (it never chooses). None when a written choice
    is legal only through a choice left open (an Island target, R4)."""
    try:
        return resolve(hand)
    except ScorerError:
        return None


@dataclass(frozen=True)
class Written:
    """The as-written total beside an optimized one that differs from it (None: the hand
    is not legal as written)."""

    total: int | None


def written_note(hand: Hand, total: int) -> Written | None:
    """What to say of ``hand`` as written beside its optimized ``total``: None when the two
    are the same (nothing to say)."""
    written = as_written(hand)
    if written is not None and written.total == total:
        return None
    return Written(None if written is None else written.total)


def refused_discards(pool: Sequence[Card], catalog: Catalog,
                     pinned: Mapping[str, ChoiceValue], discard: Sequence[Card] | None,
                     players: int | None, cursed: Sequence[Card], listed: set[str]
                     ) -> list[tuple[Card, str]]:
    """The single discards of a pool that leave no legal hand, each with why: a written
    choice names the card let go, or no way of making the open choices keeps the written
    ones legal (issue 39). ``listed``: ids of the discards a search answered (skipped)."""
    out = []
    for card in pool:
        if card.id in listed:
            continue
        rest = tuple(c for c in pool if c is not card)
        ids = {c.id for c in rest}
        named = [(c, v) for c in rest if c.id in pinned and (v := pinned[c.id]) is not None
                 and (v[0] if isinstance(v, tuple) else v) is card]
        if named:
            chooser, value = named[0]
            out.append((card, f"{chooser.name}: {format_choice(value)} is written"))
            continue
        pins = {k: v for k, v in pinned.items() if k in ids}
        area = None if discard is None else tuple(discard)
        try:
            optimize(Hand(catalog, rest, pins, area, players, tuple(cursed)))
        except ScorerError as e:
            out.append((card, e.message))
    return out


def rank_hands(seats: Iterable[tuple[str, Hand]]) -> list[Standing]:
    """Score every player's hand (:func:`score_hand`) and place them (the tie-break of
    :mod:`..ranking`)."""
    return rank([(player, score_hand(hand)) for player, hand in seats])


def best_hand(pool: Sequence[Card], catalog: Catalog | None = None,
              discard: Sequence[Card] | None = None,
              pinned: Mapping[str, ChoiceValue] | None = None,
              top: int = 1, time_limit: float | None = None, method: str = "auto",
              workers: int = 2, players: int | None = None, cursed: Sequence[Card] = (),
              progress: SubsetProgress | None = None) -> list[Solution]:
    """The ``top`` best legal hands from ``pool`` (at least a hand's worth of cards), best
    first.

    A hand is 7 pool cards (the catalog's hand size), plus one card of the discard area per
    extra-card effect in it. ``players`` and ``cursed`` complete the table for expansion
    cards. Every method gives the same hands: ``"auto"`` takes the one expected to answer
    soonest (:mod:`.plan`: by the pool's choice cards and their options, and what is already
    loaded); ``"exhaustive"`` enumerates (compiled, compiled and pruned by the sweep's bound,
    or in Python, whichever is expected sooner); ``"cpsat"``, ``"compiled"``, ``"pruned"``
    and ``"python"`` ask for one search (a pool the pruned search does not take is
    enumerated whole, and one the compiled code does not take in Python).
    ``progress(done, total)`` is called as an enumeration scores its subsets.
    ``discard`` None is no discard area given, ``()`` an empty one (C5 cards score it).
    """
    cat = catalog or base_catalog()
    pool = list(pool)
    area = None if discard is None else tuple(d for d in discard if d not in pool)
    discard = list(area or ())
    pinned = dict(pinned or {})
    table = Table(area, players, tuple(cursed))
    size = cat.hand_size
    if method not in METHODS:
        raise ScorerError(f"unknown method '{method}'; known: {', '.join(METHODS)}")
    if len(pool) < size:
        raise ScorerError(f"a pool needs at least {size} cards, got {len(pool)}")
    if len({c.id for c in pool}) != len(pool):
        raise ScorerError("a card is listed twice in the pool; each card exists once")
    problem = Problem(pool, cat, discard, pinned, table, top, time_limit, workers, progress)
    if method in ("auto", "exhaustive"):
        method = pick_engine(problem, cpsat=method == "auto").name
    found = engines.run(method, problem)
    if not found.candidates:
        raise ScorerError("no legal hand can be made from these cards and pinned choices")
    out = []
    for cand in found.candidates:
        kept = {c.id for c in cand.cards}
        out.append(_solution(cand, cat, found.proven, [c for c in pool if c.id not in kept],
                             table))
    return out


def pick_engine(problem: Problem, cpsat: bool = True) -> Engine[Problem]:
    """The engine expected to answer soonest among those that take the problem (:mod:`.plan`
    estimates each; ``cpsat`` False leaves CP-SAT out). Whether an engine takes the problem
    is asked only of the pick: asking loads numpy, numba or OR-Tools, which the command line
    would pay for a small pool."""
    refused: set[str] = set() if cpsat else {CPSAT}
    while True:
        est = costs(problem.pool, problem.catalog, problem.discard, dict(problem.pinned),
                    compiled_ok=COMPILED not in refused, cpsat_ok=CPSAT not in refused,
                    pruned_ok=PRUNED not in refused)
        engine = engines.BEST_ENGINES[est.best()]
        if engine.name == PYTHON or engine.fits(problem) is None:
            return engine
        refused.add(engine.name)


def max_hand(catalog: Catalog | None = None, with_: Iterable[Card] = (),
             without: Iterable[Card] = (), time_limit: float | None = None,
             workers: int = 2, discard: Sequence[Card] | None = None,
             players: int | None = None,
             progress: Callable[[sweep.SweepProgress], None] | None = None,
             method: str = "auto") -> Solution:
    """The highest-scoring legal hand of the whole game, extra cards included.

    The sweep (``sweep.py``) lists every card set whose upper bound reaches the best total
    found, and each is scored by the evaluator, best bound first; when it completes, the
    answer is proven. Cards the sweep cannot bound (homebrew effects it does not know) go to
    the CP-SAT search instead (:func:`pick_max_engine`; the engines are in
    :mod:`.max_engines`). ``method`` asks for one by name: ``"sweep"``, ``"cpsat"``, or
    ``"local"`` (hill climbing: a good hand, never proven).

    ``with_`` may name Cursed Items: they are held beside the hand (none otherwise).
    ``discard``: the discard area; None means an extra card from it may be any card and the
    cards that score the discard area score an empty one (the card taken was its only card).
    ``players``: None tries every table size for the cards that depend on it.
    ``progress`` receives the sweep's :class:`~.sweep.SweepProgress` as parts end.
    """
    cat = catalog or base_catalog()
    if method not in MAX_METHODS:
        raise ScorerError(f"unknown method '{method}'; known: {', '.join(MAX_METHODS)}")
    without_ids = {c.id for c in without}
    cursed = tuple(c for c in with_ if c.cursed)
    required = [c for c in with_ if not c.cursed]
    area = None if discard is None else list(discard)
    for c in area or ():
        if c.cursed:
            raise ScorerError(f"{c.name} is a Cursed Item; it cannot be in the discard area")
    if area is not None and len(area) > MAX_DISCARD:
        raise ScorerError(f"the discard area holds {len(area)} cards; the game ends when it "
                          f"reaches {MAX_DISCARD}")
    named = [c.id for c in [*required, *cursed]]
    for c in [*required, *cursed]:
        if named.count(c.id) > 1:  # (the searches count a required card once)
            raise ScorerError(f"{c.name} is required twice; each card exists once in the game")
        if c.id in without_ids:
            raise ScorerError(f"{c.name} is both required and forbidden")
        if area is not None and c in area:
            raise ScorerError(f"{c.name} is in the discard area; it cannot be in the hand")
    if len(required) > (cat.max_hand or cat.hand_size + 1):
        raise ScorerError(f"{len(required)} required cards: more than a hand holds")
    pool = [c for c in cat.suit_cards
            if c.id not in without_ids and (area is None or c not in area)]
    problem = MaxProblem(cat, pool, required, cursed, area, players, time_limit, workers,
                         progress)
    if method == "auto":
        engine = pick_max_engine(problem)
    else:
        engine = MAX_ENGINES[method]
        why = engine.fits(problem)
        if why is not None:
            raise Unsupported(why)
    found = engine.run(problem)
    if not found.candidates or any(c not in found.candidates[0].cards for c in required):
        names = ", ".join(c.name for c in required)
        raise ScorerError(f"no legal hand holds all of the required cards ({names})"
                          if required else "no legal hand can be made from these cards")
    return _solution(found.candidates[0], cat, found.proven, table=found.tables[0])


#: The searches ``max_hand`` may be asked for by name.
MAX_METHODS = ("auto", SWEEP, CPSAT, LOCAL)


def pick_max_engine(problem: MaxProblem) -> Engine[MaxProblem]:
    """The first engine of ``max`` that takes the problem: the sweep (it proves a shipped
    game's best hand in seconds, where CP-SAT cannot close the gap), else CP-SAT. Hill
    climbing proves nothing, so it is never picked."""
    why = []
    for name in PROVING:
        engine = MAX_ENGINES[name]
        reason = engine.fits(problem)
        if reason is None:
            return engine
        why.append(reason)
    raise ScorerError("max cannot search these cards: " + "; ".join(why))
