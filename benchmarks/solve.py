"""Solver timings: optimal choices, best of 8, best of 15, and the best hand in the game.

Run: ``python benchmarks/solve.py`` (add ``--quick`` for fewer samples, ``--max-limit S`` to
cap the whole-game search, default 600 s). Hands and pools are random but seeded.

* choices: random 7-card hands holding at least one wild card, Book of Changes or Island;
* best of 8: random 8-card pools (hand plus the card just drawn), all discards scored;
* best of 15: random 15-card pools (CP-SAT);
* max: ``fr-score max`` over the base game with promos.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fantasy_scorer.realms.catalog import base_catalog  # noqa: E402
from fantasy_scorer.realms.hand import Hand  # noqa: E402
from fantasy_scorer.realms.solve.api import best_hand, max_hand, optimize  # noqa: E402


def pct(times: list[float], q: float) -> float:
    s = sorted(times)
    return s[min(len(s) - 1, int(q * len(s)))] * 1000


def line(label: str, times: list[float]) -> str:
    return (f"{label:<28} n={len(times):<5} p50 {pct(times, 0.5):8.1f} ms   "
            f"p99 {pct(times, 0.99):8.1f} ms   max {max(times) * 1000:8.1f} ms")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--max-limit", type=float, default=600.0)
    ap.add_argument("--skip-max", action="store_true")
    args = ap.parse_args()
    cat = base_catalog()
    best_hand(cat.cards[:16], cat)  # load OR-Tools once, outside the timings
    rng = random.Random(7)
    n_choice, n_eight, n_fifteen = (100, 50, 5) if args.quick else (1000, 300, 20)

    times = []
    while len(times) < n_choice:
        cards = rng.sample(cat.cards, 7)
        if not any(c.choice is not None for c in cards):
            continue
        hand = Hand(cat, tuple(cards))
        t0 = time.perf_counter()
        optimize(hand)
        times.append(time.perf_counter() - t0)
    print(line("optimal choices (7 cards)", times))

    times = []
    for _ in range(n_eight):
        pool = rng.sample(cat.cards, 8)
        t0 = time.perf_counter()
        best_hand(pool, cat, top=8)
        times.append(time.perf_counter() - t0)
    print(line("best of 8 (every discard)", times))

    times = []
    for _ in range(n_fifteen):
        pool = rng.sample(cat.cards, 15)
        t0 = time.perf_counter()
        best_hand(pool, cat)
        times.append(time.perf_counter() - t0)
    print(line("best of 15 (CP-SAT)", times)
          + f"   mean {statistics.mean(times):.2f} s")

    if not args.skip_max:
        t0 = time.perf_counter()
        sol = max_hand(cat, time_limit=args.max_limit)
        dt = time.perf_counter() - t0
        names = ", ".join(c.name for c in sol.hand.cards)
        print(f"max over the base game: {sol.total} "
              f"({'proven' if sol.proven else 'not proven'}) in {dt:.1f} s: {names}")
        t0 = time.perf_counter()
        sol = max_hand(cat, time_limit=args.max_limit)
        dt = time.perf_counter() - t0
        print(f"max again (compiled code cached): {sol.total} "
              f"({'proven' if sol.proven else 'not proven'}) in {dt:.1f} s")


if __name__ == "__main__":
    main()
