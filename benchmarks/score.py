"""Evaluator throughput: ``resolve`` and the compiled ``score_many`` on the same random hands.

Each hand is 7 random cards of the base game plus promos; every choice card in it gets a
random legal choice (so copies and Book of Changes are exercised), and a hand holding
Necromancer gets an eighth card it could have taken. The same hands are scored

* by ``resolve`` (``score_raw`` on ready-made cards: the engine alone, which runs at the
  speed of the popular web scorer's engine),
* by ``fantasy_scorer.score_many`` from their names, as a user writes them (after one warm-up
  call, which loads the compiled code),
* by the internal entry the searches and the game engine use, on arrays of card indices
  (``CompiledScorer.resolve_totals``), and with every choice made optimally
  (``CompiledScorer.optimal_totals``, the ``score_hand`` of each hand without its choices).

Every total of ``score_many`` is checked against ``resolve``. Run:
``python benchmarks/score.py [N]`` (N hands, default 100,000).
"""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

import fantasy_scorer as fs  # noqa: E402
from fantasy_scorer.realms import effects as fx  # noqa: E402
from fantasy_scorer.realms.catalog import base_catalog  # noqa: E402
from fantasy_scorer.realms.hand import change_options, copy_options, format_choice  # noqa: E402
from fantasy_scorer.realms.resolve import score_raw  # noqa: E402
from fantasy_scorer.realms.solve.batch.kernel import CV_CHANGE, CV_COPY  # noqa: E402
from fantasy_scorer.realms.solve.batch.scorer import compiled  # noqa: E402


def random_hands(n: int, seed: int = 1) -> list:
    cat = base_catalog()
    rng = random.Random(seed)
    hands = []
    while len(hands) < n:
        cards = rng.sample(cat.cards, 7)
        giver = next((c for c in cards if c.extra), None)
        if giver is not None:
            rest = [c for c in cat.cards if c not in cards and c.suits & giver.extra.suits]
            cards.append(rng.choice(rest))
        choices = {}
        for c in cards:
            eff = c.choice
            if isinstance(eff, fx.Copy):
                choices[c.id] = rng.choice(copy_options(cards, cat, c))
            elif isinstance(eff, fx.ChangeSuit):
                choices[c.id] = rng.choice(change_options(cards, cat, c))
        hands.append((cards, choices))
    return hands


def lines_of(cards: list, choices: dict) -> list[str]:
    """The hand as a user writes it: one line per card, its choice after a colon."""
    return [f"{c.name}: {format_choice(choices[c.id])}" if c.id in choices else c.name
            for c in cards]


def arrays_of(hands: list) -> tuple[np.ndarray, np.ndarray]:
    """Rows of card indices and of choices, for the internal entry."""
    cat = base_catalog()
    sc = compiled(cat)
    rows = np.full((len(hands), 8), -1, dtype=np.int64)
    ch = np.zeros((len(hands), 8, 3), dtype=np.int64)
    for r, (cards, choices) in enumerate(hands):
        pos = {c.id: i for i, c in enumerate(cards)}
        for i, c in enumerate(cards):
            rows[r, i] = sc.index[c.id]
            v = choices.get(c.id)
            if isinstance(c.choice, fx.Copy):
                ch[r, i] = (CV_COPY, sc.index[v.id], 0)
            elif isinstance(c.choice, fx.ChangeSuit):
                ch[r, i] = (CV_CHANGE, pos[v[0].id], cat.suits.index(v[1]))
    return rows, ch


def rate(n: int, seconds: float) -> str:
    return f"{n / seconds:>12,.0f} hands/s  ({seconds:.2f} s)"


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    cat = base_catalog()
    hands = random_hands(n)
    texts = [lines_of(cards, choices) for cards, choices in hands]
    load = os.getloadavg()
    print(f"{n:,} random hands of the base game; load average {load[0]:.2f}, {load[1]:.2f}, "
          f"{load[2]:.2f} on {os.cpu_count()} cores")

    t0 = time.perf_counter()
    want = [score_raw(cards, choices, cat) for cards, choices in hands]
    t_resolve = time.perf_counter() - t0
    print(f"resolve (score_raw)          {rate(n, t_resolve)}")

    t0 = time.perf_counter()
    fs.score_many(texts[:1000])  # warm-up: loads the compiled code
    warm = time.perf_counter() - t0
    t0 = time.perf_counter()
    got = fs.score_many(texts)
    t_many = time.perf_counter() - t0
    wrong = sum(1 for a, b in zip(want, got, strict=True) if a != b)
    print(f"score_many (names)           {rate(n, t_many)}  {t_resolve / t_many:5.1f}x resolve; "
          f"warm-up {warm:.2f} s; {wrong} totals differ from resolve")

    sc = compiled(cat)
    rows, ch = arrays_of(hands)
    sc.resolve_totals(rows[:10], ch[:10])
    t0 = time.perf_counter()
    ids = sc.resolve_totals(rows, ch)
    t_ids = time.perf_counter() - t0
    wrong = int((ids != np.array(want)).sum())
    print(f"resolve_totals (card ids)    {rate(n, t_ids)}  {t_resolve / t_ids:5.1f}x resolve; "
          f"{wrong} differ")

    sc.optimal_totals(rows[:10])
    t0 = time.perf_counter()
    sc.optimal_totals(rows)
    t_opt = time.perf_counter() - t0
    print(f"optimal_totals (card ids)    {rate(n, t_opt)}  every choice made optimally")


if __name__ == "__main__":
    main()
