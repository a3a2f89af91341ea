"""Best hands by plain enumeration: every 7-card subset of a pool, every extra card.

Two enumerations give the same hands and choices: :func:`compiled_best` scores every subset
with its optimal choices in compiled code (``batch/search.py``: the options of
:mod:`.choices`, collapsed alike and tried in the same order, so the first best choices are
the same); :func:`enumerate_best` does it all in Python (no compiled code to load: quicker
for a handful of subsets) and is the reference the other searches are tested against.
Either way a subset's score is exactly the evaluator's best for it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb

from ...errors import ScorerError
from .. import effects as fx
from ..catalog import Card, Catalog
from ..hand import ChoiceValue, Hand
from .choices import optimal_choices


@dataclass(frozen=True)
class Candidate:
    """A card set the evaluator has scored, with its optimal choices."""

    cards: tuple[Card, ...]  # the hand in universe order, extra cards last
    extra: tuple[Card, ...]
    total: int
    choices: dict


@dataclass(frozen=True)
class Table:
    """What lies around a hand: the discard area (None if not given), the number of players
    and the Cursed Items held. A card Necromancer takes leaves the discard area."""

    discard: tuple[Card, ...] | None = None
    players: int | None = None
    cursed: tuple[Card, ...] = ()

    def area(self, taken: Sequence[Card] = ()) -> tuple[Card, ...] | None:
        if self.discard is None:
            return None
        return tuple(c for c in self.discard if c not in taken)

    def context(self, taken: Sequence[Card] = ()) -> fx.Context:
        area = self.area(taken)
        printed = None if area is None else tuple(
            c.in_discard() for c in area)
        if printed is None and self.players is None and not self.cursed:
            return fx.NO_CONTEXT
        return fx.Context(printed, self.players, len(self.cursed))

    def hand(self, catalog: Catalog, cards: Sequence[Card], choices: Mapping[str, ChoiceValue],
             taken: Sequence[Card] = ()) -> Hand:
        return Hand(catalog, tuple(cards), dict(choices), self.area(taken), self.players,
                    self.cursed)


NO_TABLE = Table()


def pins_for(cards: Sequence[Card], pinned: Mapping[str, ChoiceValue]
             ) -> dict[str, ChoiceValue] | None:
    """The pins that apply to these cards, or None if a pin names a card not among them.

    A pinned choice is the player's decision: a hand that keeps the chooser keeps what it
    points at (a Doppelgänger pinned to Knights cannot be kept without Knights).
    """
    out: dict[str, ChoiceValue] = {}
    ids = {c.id for c in cards}
    for c in cards:
        if c.id not in pinned:
            continue
        value = pinned[c.id]
        out[c.id] = value
        if value is None:
            continue
        target = value[0] if isinstance(value, tuple) else value
        in_hand = not (isinstance(c.choice, fx.Copy) and c.choice.source == "game")
        if in_hand and target.id not in ids:
            return None
    return out


def extra_options(base: Sequence[Card], discard: Sequence[Card],
                  most: int | None = None) -> list[tuple[Card, ...]]:
    """The hands ``base`` can become with its extra-card effects: none first, then each card
    (at most ``most`` extra cards)."""
    givers = [c for c in base if c.extra is not None]
    out: list[tuple[Card, ...]] = [()]
    if not givers:
        return out
    ids = {c.id for c in base}
    pool = [d for d in discard if d.id not in ids and not d.cursed]
    top = len(givers) if most is None else min(len(givers), most)
    for k in range(1, top + 1):
        for extra in combinations(pool, k):
            if _fits(givers, extra):
                out.append(extra)
    return out


def _fits(givers: list[Card], extra: tuple[Card, ...]) -> bool:
    """Each extra card can be given by a different giver (a tiny matching)."""
    def place(i: int, used: frozenset[int]) -> bool:
        if i == len(extra):
            return True
        for g, giver in enumerate(givers):
            fits = extra[i].suits & giver.extra.suits  # type: ignore[union-attr]
            if g not in used and fits and place(i + 1, used | {g}):
                return True
        return False
    return place(0, frozenset())


def room(catalog: Catalog) -> int | None:
    """How many extra cards a hand may take at most (None: no cap)."""
    return None if catalog.max_hand is None else catalog.max_hand - catalog.hand_size


def score_set(base: Sequence[Card], discard: Sequence[Card], catalog: Catalog,
              pinned: Mapping[str, ChoiceValue], order: Callable[[Card], int],
              table: Table = NO_TABLE) -> Candidate | None:
    """The best hand holding exactly ``base`` (plus its best extra card), or None if illegal."""
    best: Candidate | None = None
    for extra in extra_options(base, discard, room(catalog)):
        cards = tuple(sorted(base, key=order)) + tuple(sorted(extra, key=order))
        pins = pins_for(cards, pinned)
        if pins is None:
            continue
        try:
            total, choices = optimal_choices(cards, catalog, pins, table.context(extra),
                                             table.cursed)
        except ScorerError:  # a pinned Island target that is not a Flood/Flame (R4)
            continue
        if best is None or total > best.total:
            best = Candidate(cards, tuple(extra), total, choices)
    return best


def rank_key(cand: Candidate, order: Callable[[Card], int]) -> tuple:
    """Higher total first; then the game's own tie-break (lower printed strength); then the
    hand holding the earliest card of the pool where two hands differ."""
    early = sum(1 << (1000 - order(c)) for c in cand.cards)
    return (-cand.total, sum(c.strength for c in cand.cards), -early)


def enumerate_best(pool: Sequence[Card], catalog: Catalog, discard: Sequence[Card] = (),
                   pinned: Mapping[str, ChoiceValue] | None = None, top: int = 1,
                   time_limit: float | None = None, table: Table = NO_TABLE,
                   progress: Progress | None = None) -> tuple[list[Candidate], bool]:
    """(the ``top`` best hands, proven) over every 7-card subset of ``pool``."""
    pinned = dict(pinned or {})
    order = _order_of(pool, discard)
    t0 = time.perf_counter()
    found: list[Candidate] = []
    proven = True
    size = min(catalog.hand_size, len(pool))
    total = comb(len(pool), size)
    step = max(1, total // 50)
    for done, base in enumerate(combinations(pool, size), start=1):
        if time_limit is not None and time.perf_counter() - t0 > time_limit and found:
            proven = False
            break
        cand = score_set(base, discard, catalog, pinned, order, table)
        if cand is not None:
            found.append(cand)
        if progress is not None and (done % step == 0 or done == total):
            progress(done, total)
    found.sort(key=lambda c: rank_key(c, order))
    return found[:top], proven

#: ``progress(done, total)``: how many of the subsets a search has scored.
Progress = Callable[[int, int], None]


def _order_of(pool: Sequence[Card], discard: Sequence[Card]) -> Callable[[Card], int]:
    position = {c.id: i for i, c in enumerate(list(pool) + list(discard))}
    return lambda c: position[c.id]


def compiled_fits(pool: Sequence[Card], catalog: Catalog, discard: Sequence[Card] = (),
                  table: Table = NO_TABLE) -> bool:
    """Whether :func:`compiled_best` takes this pool: every card's effects known to the
    compiled code, and at most two extra cards in any hand."""
    from .batch.scorer import compiled

    if not compiled(catalog).supports(list(pool) + list(discard) + list(table.cursed)):
        return False
    givers = sum(1 for c in pool if c.extra is not None)
    most = room(catalog)
    return not discard or min(givers, givers if most is None else most) <= 2


def compiled_best(pool: Sequence[Card], catalog: Catalog, discard: Sequence[Card] = (),
                  pinned: Mapping[str, ChoiceValue] | None = None, top: int = 1,
                  time_limit: float | None = None, table: Table = NO_TABLE,
                  progress: Progress | None = None) -> tuple[list[Candidate], bool] | None:
    """:func:`enumerate_best` in compiled code: (the ``top`` best hands, proven), or None
    when the compiled code does not take the pool (:func:`compiled_fits`). One compiled
    function does all of it (a process loads only it), on two threads for larger pools."""
    import numpy as np

    from .batch.scorer import compiled, pins_array
    from .batch.search import subsets_batch

    if not compiled_fits(pool, catalog, discard, table):
        return None
    pinned = dict(pinned or {})
    scorer = compiled(catalog)
    pool, discard = list(pool), list(discard)
    size = min(catalog.hand_size, len(pool))
    most = room(catalog)
    args = (np.array(scorer.ids(pool), dtype=np.int64), pins_array(scorer, pool, pinned), size)
    area_args = (np.array(scorer.ids(discard), dtype=np.int64), table.discard is not None,
                 -1 if table.players is None else table.players,
                 np.array(scorer.ids(table.cursed) + [-1], dtype=np.int64),
                 -1 if most is None else most)
    total = comb(len(pool), size)
    out = np.zeros((total, 5), dtype=np.int64)
    no_choices = np.zeros((0, size + 2, 3), dtype=np.int64)

    def run(start: int, n: int) -> None:
        first = np.array(unrank(start, len(pool), size), dtype=np.int64)
        subsets_batch(scorer.M, scorer.OF, *args, first, n, *area_args,
                      out[start:start + n], no_choices)

    t0 = time.perf_counter()
    done, chunk, proven = 0, 16, True
    while done < total:
        if time_limit is not None and time.perf_counter() - t0 > time_limit \
                and (out[:done, 0] == 0).any():
            proven = False
            break
        n = min(chunk, total - done)
        t1 = time.perf_counter()
        if n >= 64:  # the compiled code runs without the GIL: two threads share the chunk
            half = n // 2
            later = _threads().submit(run, done + half, n - half)
            run(done, half)
            later.result()
        else:
            run(done, n)
        done += n
        if progress is not None:
            progress(done, total)
        if time.perf_counter() - t1 < 0.05:  # about twenty checks a second
            chunk *= 2

    def choices_of(mask: int) -> np.ndarray:
        """The first best choices of one subset, scored again (the same compiled call)."""
        start = np.array([p for p in range(len(pool)) if mask >> p & 1], dtype=np.int64)
        row = np.zeros((1, 5), dtype=np.int64)
        got = np.zeros((1, size + 2, 3), dtype=np.int64)
        subsets_batch(scorer.M, scorer.OF, *args, start, 1, *area_args, row, got)
        return got[0]

    return _best_rows(out[:done], pool, discard, catalog, top, choices_of), proven


def unrank(index: int, n: int, k: int) -> list[int]:
    """The ``index``-th combination of ``k`` of ``range(n)`` in the order of
    ``itertools.combinations``."""
    out: list[int] = []
    x = 0
    for i in range(k):
        while comb(n - x - 1, k - i - 1) <= index:
            index -= comb(n - x - 1, k - i - 1)
            x += 1
        out.append(x)
        x += 1
    return out


_POOL: list = []


def _threads():
    """One worker thread beside the caller's, made once."""
    if not _POOL:
        from concurrent.futures import ThreadPoolExecutor

        _POOL.append(ThreadPoolExecutor(max_workers=1, thread_name_prefix="best"))
    return _POOL[0]


def _best_rows(rows, pool: list[Card], discard: list[Card], catalog: Catalog, top: int,
               choices_of: Callable) -> list[Candidate]:
    """The ``top`` best of the compiled search's subsets, in the order of :func:`rank_key`,
    each with its first best choices (``choices_of(mask)``: the compiled enumeration tries
    the options of :mod:`.choices` in the same order, so they are its choices)."""
    import numpy as np

    order = _order_of(pool, discard)
    valid = np.flatnonzero(rows[:, 0] == 0)
    if not valid.size:
        return []
    totals = rows[valid, 1]
    if valid.size > top:
        kth = np.partition(totals, -top)[-top]
        valid = valid[totals >= kth]
    keyed = []
    for r in valid.tolist():
        mask, a, b = int(rows[r, 4]), int(rows[r, 2]), int(rows[r, 3])
        base = tuple(c for p, c in enumerate(pool) if mask >> p & 1)
        extra = tuple(discard[q] for q in (a, b) if q >= 0)
        cand = Candidate(base + extra, extra, int(rows[r, 1]), {})
        keyed.append((rank_key(cand, order), mask, cand))
    keyed.sort(key=lambda kc: kc[0])
    return [Candidate(cand.cards, cand.extra, cand.total,
                      _decode(choices_of(mask), cand.cards, catalog))
            for _, mask, cand in keyed[:top]]


def _decode(values, cards: Sequence[Card], catalog: Catalog) -> dict[str, ChoiceValue]:
    """The compiled search's choices of a hand (its rows of kernel values) as choice values,
    every chooser included (``None``: unassigned), as ``optimal_choices`` gives them."""
    from .batch.kernel import CV_CHANGE, CV_COPY, CV_TARGET
    from .batch.scorer import compiled

    everything = compiled(catalog).cards
    choices: dict[str, ChoiceValue] = {}
    for i, c in enumerate(cards):
        if c.choice is None:
            continue
        kind, a, b = (int(x) for x in values[i])
        if kind == CV_COPY:
            choices[c.id] = everything[a]
        elif kind == CV_CHANGE:
            choices[c.id] = (cards[a], catalog.suits[b])
        elif kind == CV_TARGET:
            choices[c.id] = cards[a]
        else:
            choices[c.id] = None
    return choices
