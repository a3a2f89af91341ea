"""Evaluator throughput: scores 100,000 random legal hands and prints hands per second.

Each hand is 7 random cards of the base game plus promos; every choice card in it gets a
random legal choice (so copies, Book of Changes and Island are exercised), and a hand holding
Necromancer gets an eighth card it could have taken. Run: ``python benchmarks/score.py``.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fantasy_scorer.realms import effects as fx  # noqa: E402
from fantasy_scorer.realms.catalog import base_catalog  # noqa: E402
from fantasy_scorer.realms.hand import change_options, copy_options  # noqa: E402
from fantasy_scorer.realms.resolve import score_raw  # noqa: E402


def random_hands(n: int, seed: int = 1) -> list:
    cat = base_catalog()
    rng = random.Random(seed)
    hands = []
    while len(hands) < n:
        cards = rng.sample(cat.cards, 7)
        if any(c.extra for c in cards):
            rest = [c for c in cat.cards if c not in cards and c.suits & cards[0].suits | True]
            giver = next(c for c in cards if c.extra)
            rest = [c for c in rest if c.suits & giver.extra.suits]
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


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    cat = base_catalog()
    hands = random_hands(n)
    t0 = time.perf_counter()
    total = 0
    for cards, choices in hands:
        total += score_raw(cards, choices, cat)
    dt = time.perf_counter() - t0
    print(f"scored {n:,} random hands in {dt:.2f} s: {n / dt:,.0f} hands/s "
          f"(mean score {total / n:.1f})")


if __name__ == "__main__":
    main()
