"""Simulated 4-player Majesty games per second (aim: at least 300).

Run from the repository root: ``python benchmarks/majesty.py [--games N]``. Each line plays
seeded bot games with the engine and the bots exactly as ``majesty-score simulate`` does.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fantasy_scorer.majesty.bots import simulate  # noqa: E402

LINEUPS = {
    "greedy/random": ["greedy", "random", "greedy", "random"],
    "all greedy": ["greedy"] * 4,
    "all random": ["random"] * 4,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per measurement")
    args = parser.parse_args()
    for side in ("A", "B"):
        for label, lineup in LINEUPS.items():
            start = time.perf_counter()
            simulate(4, args.games, side, seed=1, bots=lineup)
            seconds = time.perf_counter() - start
            print(
                f"side {side}, {label:<13}: {args.games / seconds:7.0f} 4-player games/s "
                f"({args.games} games in {seconds:.2f} s)"
            )


if __name__ == "__main__":
    main()
