"""The public face of the solver: optimal choices, best hand from a pool, best hand in the game.

Every :class:`Solution` is re-scored by :func:`~fantasy_scorer.realms.resolve.resolve`, and that is
the score reported, whichever search found it. ``proven`` says whether the search finished
(``False`` when a time limit stopped it: the hand is the best found so far).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ...errors import ScorerError
from .. import effects as fx
from ..catalog import Card, Catalog, base_catalog
from ..hand import MAX_DISCARD, ChoiceValue, Hand, format_choice, hand_limit
from ..ranking import Standing, rank
from ..resolve import Result, cursed_points, resolve
from . import engines
from .batch.best import compiled_best, compiled_fits
from .choices import optimal_choices
from .engine import COMPILED, CPSAT, PRUNED, PYTHON, Engine, Problem, Unsupported
from .exhaustive import NO_TABLE, Candidate, SubsetProgress, Table, best_with_extras, rank_key
from .local import climb
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


def _order(cards: Sequence[Card]):
    position = {c.id: i for i, c in enumerate(cards)}
    return lambda c: position[c.id]


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


def pick_engine(problem: Problem, cpsat: bool = True) -> Engine:
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
             progress: Callable[[sweep.SweepProgress], None] | None = None) -> Solution:
    """The highest-scoring legal hand of the whole game, extra cards included.

    A quick local search gives a first hand; the sweep (``sweep.py``) then lists every card
    set whose upper bound reaches its total, and each is scored by the evaluator, best bound
    first. When the sweep is complete the answer is proven. Cards the sweep cannot bound
    (homebrew effects it does not know) go to the CP-SAT search instead.

    ``with_`` may name Cursed Items: they are held beside the hand (none otherwise).
    ``discard``: the discard area; None means an extra card from it may be any card and the
    cards that score the discard area score an empty one (the card taken was its only card).
    ``players``: None tries every table size for the cards that depend on it.
    ``progress`` receives the sweep's :class:`~.sweep.SweepProgress` as parts end.
    """
    from .sweep import SweepProgress, SweepTable, compile_bounds, prove, shapes

    t0 = time.perf_counter()
    cat = catalog or base_catalog()
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
    order = _order(cat.cards)
    size = cat.hand_size
    table_players = players

    def tables_for(hand: Sequence[Card], extra: Sequence[Card], p: int | None) -> Table:
        reads = any("discard" in c.needs for c in [*hand, *cursed])
        shown = tuple(area) if area is not None else (tuple(extra) if reads else None)
        return Table(shown, p, cursed)

    def player_counts(hand: Sequence[Card]) -> list[int | None]:
        if table_players is not None:
            return [table_players]
        if any("players" in c.needs for c in [*hand, *cursed]):
            return list(range(2, 7))
        return [None]

    def verify(cards: Sequence[Card]) -> tuple[Candidate, Table]:
        base, extra = _split_extra(list(cards), size, order, area)
        hand = tuple(sorted(base, key=order)) + tuple(sorted(extra, key=order))
        best: tuple[Candidate, Table] | None = None
        for p in player_counts(hand):
            table = tables_for(hand, extra, p)
            total, choices = optimal_choices(hand, cat, None, table.context(extra), cursed)
            if best is None or total > best[0].total:
                best = (Candidate(hand, tuple(extra), total, choices), table)
        assert best is not None
        return best

    try:
        bounds = compile_bounds(cat, pool + (area or []),
                                SweepTable(None if area is None else tuple(area), players,
                                           len(cursed)))
        hand_shapes = shapes(cat, pool, required, area,
                             sum(1 for c in cursed if c.extra is not None))
    except Unsupported as e:
        return _max_by_cpsat(cat, pool, required, cursed, area, time_limit, workers,
                             player_counts(pool), order, str(e))
    offset = max(sum(cursed_points(c, _empty_view(cat, p, len(cursed))) for c in cursed)
                 for p in (player_counts(cursed) or [None]))
    deadline = None if time_limit is None else t0 + time_limit
    stopped = False
    best: Candidate | None = None
    best_table = Table()

    def improve(found: list[tuple[tuple[Card, ...], int]]) -> int:
        """Score the new card sets, best bound first; the bar is the best total minus one
        (hands tied with the best are scored too, for the tie-break)."""
        nonlocal best, best_table, stopped
        for cards, bound in found:
            if best is not None and bound + offset < best.total:
                break
            if deadline is not None and time.perf_counter() > deadline:
                stopped = True
                break
            cand, table = verify(cards)
            if best is None or rank_key(cand, order) < rank_key(best, order):
                best, best_table = cand, table
        return -1 if best is None else best.total - offset - 1

    def report(p: SweepProgress) -> None:
        if progress is not None:
            progress(replace(p, best=p.best + offset, bound=p.bound + offset,
                             hand=() if best is None else best.cards))

    done = prove(bounds, hand_shapes, -1, improve, workers=workers, deadline=deadline,
                 progress=report)
    if best is None:  # out of time before any hand was scored: a quick local search
        start = climb(pool, cat, required, extras=pool, seconds=0.05, size=size)
        best, best_table = verify(start)
    proven = done.complete and not stopped
    if any(c not in best.cards for c in required):
        raise ScorerError("no legal hand holds all of the required cards "
                          f"({', '.join(c.name for c in required)})")
    return _solution(best, cat, proven, table=best_table)


def _empty_view(cat: Catalog, players: int | None, cursed: int) -> fx.View:
    return fx.View([], [], [], cat.suits, fx.Context(None, players, cursed))


def _split_extra(cards: list[Card], size: int, order,
                 area: Sequence[Card] | None = None) -> tuple[list[Card], list[Card]]:
    """A hand beyond ``size`` cards: the extra card is the one taken from the discard area
    (when one is given), else the last one (catalog order) an extra-card effect in hand may
    take."""
    cards = sorted(cards, key=order)
    if len(cards) <= size:
        return cards, []
    if area is not None:
        taken = [c for c in cards if c in area]
        if taken:
            return [c for c in cards if c not in taken], taken
    givers = [g for g in cards if g.extra is not None]
    for c in reversed(cards):
        if any(g.may_take_extra(c) for g in givers):
            return [x for x in cards if x is not c], [c]
    return cards[:size], cards[size:]


def _max_by_cpsat(cat: Catalog, cards: list[Card], required: list[Card],
                  cursed: tuple[Card, ...], area: list[Card] | None,
                  time_limit: float | None, workers: int, player_counts: list[int | None],
                  order, why: str) -> Solution:
    """The CP-SAT search, for cards the sweep does not describe (``why``): one search per
    table size the cards depend on (``player_counts``), with the Cursed Items held and the
    discard area (None: an extra card may be any card, and the discard area's readers see
    it empty, the card taken being its only card)."""
    from .cpsat import HandModel, search

    size = cat.hand_size
    extras = cards if area is None else area  # what Necromancer may take (any card: the deck)
    shown = () if area is None else tuple(area)
    quick = 2.0 if time_limit is None else min(5.0, time_limit / 10)
    each = None if time_limit is None else max(time_limit - quick, 0.01) / len(player_counts)
    start = climb(cards, cat, required, extras=extras, seconds=quick, size=size)
    best: tuple[Candidate, Table] | None = None
    proven = True
    for p in player_counts:
        table = Table(shown, p, cursed)

        def verify(base: Sequence[Card], extra: Sequence[Card],
                   table: Table = table) -> Candidate:
            hand = tuple(sorted(base, key=order)) + tuple(sorted(extra, key=order))
            total, choices = optimal_choices(hand, cat, None, table.context(extra), cursed)
            return Candidate(hand, tuple(extra), total, choices)

        try:
            model = HandModel(cat, cards, extras, required=required, hand_size=size,
                              table=table, deck=cards)
        except Unsupported as e:
            raise ScorerError(f"max cannot search these cards: {why}; {e}") from None
        base, extra = _split_extra(list(start), size, order, area)
        model.hint(base, extra)
        res = search(model, verify, top=1, time_limit=each, workers=workers, cut="hand",
                     key=lambda c: rank_key(c, order), initial=[verify(base, extra)])
        proven = proven and res.proven
        if res.found and (best is None or res.found[0].total > best[0].total):
            best = (res.found[0], table)
    if best is None or any(c not in best[0].cards for c in required):
        raise ScorerError("no legal hand satisfies these requirements")
    cand, table = best
    if area is None and not any("discard" in c.needs for c in [*cand.cards, *cursed]):
        table = replace(table, discard=None)  # (as the sweep's answer: no area shown)
    return _solution(cand, cat, proven, table=table)
