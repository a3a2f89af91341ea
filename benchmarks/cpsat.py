"""CP-SAT on random Cursed Hoards pools: how many it answers, proves, and how fast.

Draws seeded random pools of the expansion (with a discard area, a number of players and,
with ``--cursed``, Cursed Items), asks ``best_hand(method="cpsat")`` for each, and prints per
pool whether CP-SAT answered (or refused with its one-line message), whether the answer is
proven, its seconds, and, with ``--check``, whether it equals the enumeration in Python.

    python benchmarks/cpsat.py                  # 20 pools of 12 cards
    python benchmarks/cpsat.py --size 10 --check --cursed
    python benchmarks/cpsat.py --edition deluxe --pools 40
"""

from __future__ import annotations

import argparse
import os
import random
import time

from fantasy_scorer.errors import ScorerError
from fantasy_scorer.realms.catalog import base_catalog
from fantasy_scorer.realms.solve.api import best_hand


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pools", type=int, default=20)
    ap.add_argument("--size", type=int, default=12, help="cards per pool")
    ap.add_argument("--seed", type=int, default=38)
    ap.add_argument("--edition", default=None, help="e.g. deluxe")
    ap.add_argument("--cursed", action="store_true", help="also hold 0-3 Cursed Items")
    ap.add_argument("--check", action="store_true",
                    help="compare each answer with the enumeration in Python")
    ap.add_argument("--limit", type=float, default=120.0, help="seconds per pool")
    args = ap.parse_args()
    cat = base_catalog("cursed-hoards", args.edition) if args.edition else \
        base_catalog("cursed-hoards")
    rng = random.Random(args.seed)
    playable = cat.suit_cards
    cursed_deck = [c for c in cat.cards if c.cursed]
    load = os.getloadavg()[0]
    best_hand(playable[:cat.hand_size], cat, method="cpsat")  # load OR-Tools first
    answered = proven = agreed = 0
    seconds = []
    for k in range(args.pools):
        pool = rng.sample(playable, args.size)
        rest = [c for c in playable if c not in pool]
        discard = rng.sample(rest, rng.randint(0, 5))
        players = rng.randint(2, 6)
        cursed = rng.sample(cursed_deck, rng.randint(0, 3)) if args.cursed else []
        t0 = time.perf_counter()
        try:
            sol = best_hand(pool, cat, discard, time_limit=args.limit, method="cpsat",
                            players=players, cursed=cursed)[0]
        except ScorerError as e:
            print(f"pool {k:2}: refused: {e}")
            continue
        dt = time.perf_counter() - t0
        seconds.append(dt)
        answered += 1
        proven += sol.proven
        line = f"pool {k:2}: total {sol.total:4} proven {sol.proven!s:5} {dt:7.2f} s"
        if args.check:
            ref = best_hand(pool, cat, discard, method="python", players=players,
                            cursed=cursed)[0]
            same = ref.total == sol.total and ref.hand.cards == sol.hand.cards
            agreed += same
            line += f"  enumeration {ref.total:4} {'same hand' if same else 'DIFFERENT'}"
        print(line, flush=True)
    print(f"answered {answered}/{args.pools}, proven {proven}"
          + (f", equal to the enumeration {agreed}" if args.check else "")
          + (f"; seconds: median {sorted(seconds)[len(seconds) // 2]:.2f}, "
             f"max {max(seconds):.2f}" if seconds else "")
          + f" (pools of {args.size}, seed {args.seed}, load before {load:.2f})")


if __name__ == "__main__":
    main()
