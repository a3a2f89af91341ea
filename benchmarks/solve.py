"""Solver timings: optimal choices, best of 8, best of 15, and the best hand in the game.

Run: ``python benchmarks/solve.py`` (add ``--quick`` for fewer samples, ``--max-limit S`` to
cap each whole-game search, default 600 s; ``--only-max`` for the max figures alone,
``--expansion`` to add Cursed Hoards). Hands and pools are random but seeded.

* choices: random 7-card hands holding at least one wild card, Book of Changes or Island;
* best of 8: random 8-card pools (hand plus the card just drawn), all discards scored;
* best of 15: random 15-card pools (CP-SAT);
* max: ``fr-score max`` over the base game with promos, as a user runs it (a new process,
  start-up included): warm (the compiled search cached) and cold (an empty cache: the
  first run compiles it), then in process; with ``--expansion``, Cursed Hoards in process.
  Each line gives the machine's load (1-minute average) before it ran: the machine is
  shared, and a figure taken under load says so.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
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
    ap.add_argument("--only-max", action="store_true")
    ap.add_argument("--expansion", action="store_true", help="also max with Cursed Hoards")
    args = ap.parse_args()
    if args.only_max:
        max_figures(args.max_limit, args.expansion)
        return
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
        max_figures(args.max_limit, args.expansion)


def load() -> str:
    return f"load {os.getloadavg()[0]:.2f}"


def cli_max(limit: float, cache: str | None) -> tuple[float, str]:
    """``fr-score max`` in a new process (cache: its compile cache directory, None: the
    user's). Returns the seconds and the first line printed."""
    env = dict(os.environ)
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = cache
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "fantasy_scorer.cli.main", "max", "--quiet",
                          "--time-limit", str(limit)], capture_output=True, text=True,
                         env=env, check=True).stdout
    return time.perf_counter() - t0, out.splitlines()[0]


def max_figures(limit: float, expansion: bool) -> None:
    cli_max(limit, None)  # the user's cache holds the compiled search from now on
    before = load()
    dt, line = cli_max(limit, None)
    print(f"max, CLI warm:  {dt:6.1f} s   {line}   ({before})")
    with tempfile.TemporaryDirectory() as cache:
        before = load()
        dt, line = cli_max(limit, cache)
        print(f"max, CLI cold:  {dt:6.1f} s   {line}   ({before}; compile included)")
    cat = base_catalog()
    max_hand(cat, time_limit=limit)
    before = load()
    t0 = time.perf_counter()
    sol = max_hand(cat, time_limit=limit)
    dt = time.perf_counter() - t0
    names = ", ".join(c.name for c in sol.hand.cards)
    print(f"max, in process: {dt:5.1f} s   {sol.total} "
          f"({'proven' if sol.proven else 'not proven'}): {names}   ({before})")
    if expansion:
        exp = base_catalog("cursed-hoards")
        before = load()
        t0 = time.perf_counter()
        sol = max_hand(exp, time_limit=limit)
        dt = time.perf_counter() - t0
        names = ", ".join(c.name for c in sol.hand.cards)
        print(f"max, Cursed Hoards: {dt:5.1f} s   {sol.total} "
              f"({'proven' if sol.proven else 'not proven'}): {names}   ({before})")


if __name__ == "__main__":
    main()
