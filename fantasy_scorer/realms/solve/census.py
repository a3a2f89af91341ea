"""The census of every hand: how many hands of the game score each total, choices made optimally.

A census counts every hand of ``size`` cards drawn from a pool (the game's hand cards, or a
smaller pool for studies and tests): its total as :func:`fantasy_scorer.score` gives it with
no discard area (so Necromancer takes no extra card). The hands are numbered in the
*colexicographic* order of their pool positions (rank ``sum(C(p_i, i + 1))``), which makes two
things simple:

* a chunk is a range of ranks, its hands rebuilt from the ranks alone (:func:`positions`), so a
  worker needs nothing but the pool and the range, and chunks can be counted anywhere, in any
  order, and added up: the histogram is exact integer counts whatever the number of workers;
* the hands of the first ``m`` pool cards are exactly the ranks below ``C(m, size)``. The pool
  lists first the cards two games share (both editions of the base game differ only in the
  Phoenix, and in what a copy from the game may take), so the chunks of those hands are the
  same in both censuses and one census can take them from the other (:func:`shared_count`).

Each chunk is scored in bulk by the compiled scorer (:meth:`~.batch.scorer.CompiledScorer.
optimal_totals`, the enumeration of choices ``best`` uses): a hand without a choice card is
scored once, a hand with choice cards over its options, collapsed where they cannot change the
score. A hand the compiled code does not take is scored by the evaluator instead.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from math import comb

from ...errors import ScorerError
from ..catalog import Card, Catalog, base_catalog, load_catalog

#: Hands a chunk holds: a few seconds of one core on the base game.
CHUNK = 250_000


@dataclass(frozen=True)
class Game:
    """What a worker needs to build the catalog itself: the shipped expansion and edition,
    and the user's card files (read again by each worker)."""

    expansion: str | None = None
    edition: str | None = None
    card_files: tuple[str, ...] = ()

    def catalog(self) -> Catalog:
        if not self.card_files:
            return base_catalog(self.expansion, self.edition)
        return _loaded(self)

    @property
    def key(self) -> str:
        """``base/standard``, ``cursed-hoards/deluxe``."""
        return f"{self.expansion or 'base'}/{self.edition or 'standard'}"


@cache
def _loaded(game: Game) -> Catalog:
    return load_catalog(game.card_files, game.expansion, game.edition)


def hand_cards(catalog: Catalog) -> list[Card]:
    """The cards a hand may hold (every card but Cursed Items), in catalog order."""
    return [c for c in catalog.cards if not c.cursed]


def differing(catalog: Catalog, other: Catalog) -> set[str]:
    """Ids of the cards whose hands may score otherwise in the other game: a card only one
    game has, and a copy from the game that may take one of those."""
    mine, theirs = {c.id for c in catalog.cards}, {c.id for c in other.cards}
    odd = mine ^ theirs
    for cat in (catalog, other):
        for c in cat.cards:
            if c.choice is not None and getattr(c.choice, "source", None) == "game" and any(
                    t.id in odd for t in cat.copy_targets(c.choice)):
                odd.add(c.id)
    return odd


def census_pool(catalog: Catalog, pool: Sequence[Card] | None = None,
                other: Catalog | None = None) -> list[Card]:
    """The pool in census order: the cards both games score alike first (catalog order),
    then those that differ from ``other`` (:func:`differing`)."""
    cards = list(pool) if pool is not None else hand_cards(catalog)
    odd = differing(catalog, other) if other is not None else set()
    return [c for c in cards if c.id not in odd] + [c for c in cards if c.id in odd]


def shared_count(pool: Sequence[Card], size: int, catalog: Catalog, other: Catalog) -> int:
    """How many of the first ranks are hands the two games score alike."""
    odd = differing(catalog, other)
    alike = 0
    while alike < len(pool) and pool[alike].id not in odd:
        alike += 1
    return comb(alike, size)


def positions(ranks, n: int, k: int):
    """The hands of the given ranks (colexicographic order of the ``k``-subsets of ``n``
    pool positions) as rows of ``k`` pool positions, in increasing order."""
    import numpy as np

    rank = np.array(ranks, dtype=np.int64)
    if rank.size and (rank.min() < 0 or rank.max() >= comb(n, k)):
        raise ValueError(f"a rank outside C({n}, {k})")
    out = np.zeros((rank.shape[0], k), dtype=np.int64)
    for i in range(k, 0, -1):
        table = np.array([comb(c, i) for c in range(n + 1)], dtype=np.int64)
        pos = np.searchsorted(table, rank, side="right") - 1
        rank -= table[pos]
        out[:, i - 1] = pos
    return out


def chunks(total: int, cut: int = 0, size: int = CHUNK) -> list[tuple[int, int]]:
    """(start, count) of each chunk of ``total`` ranks, none straddling rank ``cut`` (the
    end of the hands two games share)."""
    out = []
    for lo, hi in ((0, min(cut, total)), (min(cut, total), total)):
        for s in range(lo, hi, size):
            out.append((s, min(size, hi - s)))
    return out


@dataclass(frozen=True)
class Job:
    """One census: the game, the pool (card ids in census order) and the hand size."""

    game: Game
    pool: tuple[str, ...]
    size: int

    @property
    def hands(self) -> int:
        return comb(len(self.pool), self.size)


def make_job(game: Game, pool: Sequence[Card] | None = None, other: Game | None = None) -> Job:
    """The census of ``game`` (its hand cards, or ``pool``), ordered against ``other``."""
    catalog = game.catalog()
    cards = census_pool(catalog, pool, other.catalog() if other is not None else None)
    size = catalog.hand_size
    if len(cards) < size:
        raise ScorerError(f"the pool holds {len(cards)} cards, fewer than a hand of {size}; "
                          "list more cards")
    if len({c.id for c in cards}) != len(cards):
        raise ScorerError("the pool lists a card twice; list each card once")
    return Job(game, tuple(c.id for c in cards), size)


class _Counter:
    """A worker's means to count a job's chunks: built once per process and job."""

    def __init__(self, job: Job) -> None:
        import numpy as np

        from .batch.scorer import compiled

        catalog = job.game.catalog()
        self.scorer = compiled(catalog)
        self.index = np.array([self.scorer.index[i] for i in job.pool], dtype=np.int64)

    def totals(self, rows):
        """The optimal total of each hand (rows of pool positions), as an int64 array."""
        return self.scorer.optimal_totals(self.index[rows])


@cache
def _counter(job: Job) -> _Counter:
    return _Counter(job)


def _histogram(totals) -> dict[int, int]:
    import numpy as np

    values, counts = np.unique(totals, return_counts=True)
    return dict(zip(values.tolist(), counts.tolist(), strict=True))


def count_chunk(job: Job, start: int, count: int) -> dict[int, int]:
    """The histogram ``{total: hands}`` of ranks ``start … start + count - 1`` of a job: the
    task a worker runs (its compiled code and tables loaded once per process)."""
    import numpy as np

    if start < 0 or count < 0 or start + count > job.hands:
        raise ValueError(f"ranks {start}+{count} outside the job's {job.hands} hands")
    rows = positions(np.arange(start, start + count, dtype=np.int64), len(job.pool), job.size)
    return _histogram(_counter(job).totals(rows))


def sample_chunk(job: Job, seed: int, part: int, count: int) -> dict[int, int]:
    """The histogram of ``count`` hands drawn uniformly (with replacement) for part ``part``
    of a sample: part ``j`` draws from its own stream of ``seed``, so a sample is the same
    whoever counts its parts."""
    import numpy as np

    rng = np.random.default_rng([seed, part])
    ranks = np.sort(rng.integers(0, job.hands, size=count, dtype=np.int64))
    rows = positions(ranks, len(job.pool), job.size)
    return _histogram(_counter(job).totals(rows))


def add(into: Counter, part: dict[int, int]) -> Counter:
    """Add a chunk's histogram to a running one (exact integer counts)."""
    for total, n in part.items():
        into[int(total)] += int(n)
    return into


def hand_of(job: Job, rank: int) -> list[Card]:
    """The cards of the hand of rank ``rank`` of a job."""
    cat = job.game.catalog()
    return [cat.card(job.pool[p]) for p in positions([rank], len(job.pool), job.size)[0]]
