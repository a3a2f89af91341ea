"""The engines of ``max``, each behind the one interface of :mod:`.engine`.

``max`` asks for the best hand of the whole game: a :class:`MaxProblem` (the cards a hand
may hold, those it must, the Cursed Items beside it, the discard area, the table size). Three
engines take it:

- :class:`SweepMax`, the sweep (``sweep*.py``): bounds every card set and scores, with the
  evaluator, those whose bound reaches the best found. It proves the best hand of a shipped
  game in seconds, so the planner (``api.pick_max_engine``) picks it wherever it fits;
- :class:`CpsatMax`, CP-SAT (``cpsat.py``), for cards the sweep cannot bound (homebrew
  effects it does not know): one search per table size the cards depend on;
- :class:`HillClimb`, hill climbing (``local.py``): a good hand soon, never proven. The
  other two start from its hand (CP-SAT as a hint, the sweep when its time runs out before
  it scored a hand); the planner never picks it, as it proves nothing.

Every engine answers one :class:`~.engine.Found` whose ``tables`` hold the table its hand
was scored at (the number of players it chose when none was given), so ``max_hand`` can
build the hand the evaluator re-scores.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any

from .. import effects as fx
from ..catalog import Card, Catalog
from ..resolve import cursed_points
from .choices import optimal_choices
from .engine import CPSAT, LOCAL, SWEEP, Engine, Found, Unsupported
from .exhaustive import Candidate, Table, rank_key
from .local import climb

if TYPE_CHECKING:
    from .sweep import SweepProgress


@dataclass
class MaxProblem:
    """One ``max`` problem. ``pool``: the cards a hand may hold (neither forbidden nor in the
    discard area); ``required``: those it must hold; ``cursed``: the Cursed Items held beside
    it; ``area``: the discard area (None: an extra card may be any card of ``pool``, and the
    cards that read the discard area see an empty one, the card taken being its only card);
    ``players`` None: every table size, for the cards that depend on it; ``time_limit`` None:
    no limit, counted from ``started`` (when the problem was posed: building the sweep's
    bound counts); ``progress`` receives the sweep's progress as its parts end."""

    catalog: Catalog
    pool: list[Card]
    required: list[Card] = field(default_factory=list)
    cursed: tuple[Card, ...] = ()
    area: list[Card] | None = None
    players: int | None = None
    time_limit: float | None = None
    workers: int = 2
    progress: Callable[[SweepProgress], None] | None = None
    started: float = field(default_factory=time.perf_counter)
    #: What an engine's ``fits`` built that its ``run`` uses (the sweep's bound), by engine.
    prepared: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @cached_property
    def order(self) -> Callable[[Card], int]:
        """A card's place in the catalog: hands are listed, and ties broken, in this order."""
        position = {c.id: i for i, c in enumerate(self.catalog.cards)}
        return lambda c: position[c.id]

    @property
    def extras(self) -> list[Card]:
        """The cards an extra-card effect may take: the discard area, else any card."""
        return self.pool if self.area is None else self.area

    def player_counts(self, hand: Sequence[Card]) -> list[int | None]:
        """The table sizes to score ``hand`` at: the one given, else every size when a card
        of it (or a Cursed Item held) depends on the number of players."""
        if self.players is not None:
            return [self.players]
        if any("players" in c.needs for c in [*hand, *self.cursed]):
            return list(range(2, 7))
        return [None]

    def verify(self, cards: Sequence[Card]) -> tuple[Candidate, Table]:
        """The evaluator's total of a card set with its best choices, at its best table
        size, and that table."""
        base, extra = split_extra(list(cards), self.catalog.hand_size, self.order, self.area)
        hand = tuple(sorted(base, key=self.order)) + tuple(sorted(extra, key=self.order))
        best: tuple[Candidate, Table] | None = None
        for p in self.player_counts(hand):
            table = self.table_for(hand, extra, p)
            total, choices = optimal_choices(hand, self.catalog, None, table.context(extra),
                                             self.cursed)
            if best is None or total > best[0].total:
                best = (Candidate(hand, tuple(extra), total, choices), table)
        assert best is not None
        return best

    def table_for(self, hand: Sequence[Card], extra: Sequence[Card], p: int | None) -> Table:
        """The table a hand is scored at: the discard area shown only when given, or when a
        card reads it (then it holds the card taken)."""
        reads = any("discard" in c.needs for c in [*hand, *self.cursed])
        shown = (tuple(self.area) if self.area is not None
                 else (tuple(extra) if reads else None))
        return Table(shown, p, self.cursed)

    def start(self, seconds: float) -> list[Card]:
        """A good hand found by hill climbing within ``seconds`` (seeded: the same each
        time it is given as long)."""
        return climb(self.pool, self.catalog, self.required, extras=self.extras,
                     seconds=seconds, size=self.catalog.hand_size)


def split_extra(cards: list[Card], size: int, order: Callable[[Card], int],
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


class HillClimb:
    """Swaps from a few random starts, each hand scored by the evaluator (``local.py``).
    Takes every problem; never proves its hand best."""

    name = LOCAL
    #: Seconds it climbs when no time limit is given.
    SECONDS = 0.5

    def fits(self, problem: MaxProblem) -> str | None:
        return None

    def run(self, problem: MaxProblem) -> Found:
        limit = problem.time_limit
        cand, table = problem.verify(problem.start(self.SECONDS if limit is None else limit))
        return Found([cand], False, self.name, [table])


class SweepMax:
    """The sweep: proven when it completes within the time limit."""

    name = SWEEP
    #: Seconds of hill climbing when the time runs out before the sweep scored a hand.
    FALLBACK_SECONDS = 0.05

    def fits(self, problem: MaxProblem) -> str | None:
        try:
            self._bounds(problem)
        except Unsupported as e:
            return str(e)
        return None

    def _bounds(self, problem: MaxProblem) -> tuple[Any, Any]:
        """The bound of every card set and the hand shapes to sweep (built once a problem:
        ``fits`` builds them, ``run`` sweeps them)."""
        if SWEEP not in problem.prepared:
            from .sweep import SweepTable, compile_bounds, shapes

            p = problem
            area = None if p.area is None else tuple(p.area)
            bounds = compile_bounds(p.catalog, p.pool + (p.area or []),
                                    SweepTable(area, p.players, len(p.cursed)))
            hand_shapes = shapes(p.catalog, p.pool, p.required, p.area,
                                 sum(1 for c in p.cursed if c.extra is not None))
            problem.prepared[SWEEP] = (bounds, hand_shapes)
        return problem.prepared[SWEEP]

    def run(self, problem: MaxProblem) -> Found:
        from .sweep import prove

        p = problem
        bounds, hand_shapes = self._bounds(p)
        # (the sweep bounds the hand; the Cursed Items held add the same points to every one)
        offset = max(sum(cursed_points(c, _empty_view(p.catalog, n, len(p.cursed)))
                         for c in p.cursed)
                     for n in (p.player_counts(p.cursed) or [None]))
        deadline = None if p.time_limit is None else p.started + p.time_limit
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
                cand, table = p.verify(cards)
                if best is None or rank_key(cand, p.order) < rank_key(best, p.order):
                    best, best_table = cand, table
            return -1 if best is None else best.total - offset - 1

        def report(s: SweepProgress) -> None:
            if p.progress is not None:
                p.progress(replace(s, best=s.best + offset, bound=s.bound + offset,
                                   hand=() if best is None else best.cards))

        done = prove(bounds, hand_shapes, -1, improve, workers=p.workers, deadline=deadline,
                     progress=report)
        if best is None:  # out of time before any hand was scored: a quick local search
            best, best_table = p.verify(p.start(self.FALLBACK_SECONDS))
        return Found([best], done.complete and not stopped, self.name, [best_table])


class CpsatMax:
    """CP-SAT, one search per table size the cards depend on, from hill climbing's hand;
    proven when every search completes within the time limit."""

    name = CPSAT

    def fits(self, problem: MaxProblem) -> str | None:
        from .cpsat import unsupported  # OR-Tools loads only when CP-SAT is the pick

        p = problem
        odd = unsupported(p.pool + list(p.extras) + list(p.cursed))
        if odd:
            return "the CP-SAT search does not model " + ", ".join(sorted(set(odd)))
        return None

    def run(self, problem: MaxProblem) -> Found:
        from .cpsat import HandModel, search

        p = problem
        cat, size, order = p.catalog, p.catalog.hand_size, p.order
        shown = () if p.area is None else tuple(p.area)
        counts = p.player_counts(p.pool)
        quick = 2.0 if p.time_limit is None else min(5.0, p.time_limit / 10)
        each = None if p.time_limit is None else max(p.time_limit - quick, 0.01) / len(counts)
        base, extra = split_extra(p.start(quick), size, order, p.area)
        best: tuple[Candidate, Table] | None = None
        proven = True
        for n in counts:
            table = Table(shown, n, p.cursed)

            def verify(base: Sequence[Card], extra: Sequence[Card],
                       table: Table = table) -> Candidate:
                hand = tuple(sorted(base, key=order)) + tuple(sorted(extra, key=order))
                total, choices = optimal_choices(hand, cat, None, table.context(extra),
                                                 p.cursed)
                return Candidate(hand, tuple(extra), total, choices)

            model = HandModel(cat, p.pool, p.extras, required=p.required, hand_size=size,
                              table=table, deck=p.pool)
            model.hint(base, extra)
            res = search(model, verify, top=1, time_limit=each, workers=p.workers,
                         cut="hand", key=lambda c: rank_key(c, order),
                         initial=[verify(base, extra)])
            proven = proven and res.proven
            if res.found and (best is None or res.found[0].total > best[0].total):
                best = (res.found[0], table)
        if best is None:
            return Found([], proven, self.name)
        cand, table = best
        if p.area is None and not any("discard" in c.needs for c in [*cand.cards, *p.cursed]):
            table = replace(table, discard=None)  # (as the sweep's answer: no area shown)
        return Found([cand], proven, self.name, [table])


def _empty_view(cat: Catalog, players: int | None, cursed: int) -> fx.View:
    return fx.View([], [], [], cat.suits, fx.Context(None, players, cursed))


#: The engines of ``max`` by name, in the order the planner tries them.
MAX_ENGINES: dict[str, Engine[MaxProblem]] = {
    e.name: e for e in (SweepMax(), CpsatMax(), HillClimb())}

#: The engines the planner picks from (hill climbing proves nothing: asked for by name only).
PROVING = (SWEEP, CPSAT)
