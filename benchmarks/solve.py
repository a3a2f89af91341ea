"""Solver timings: optimal choices, best hand from a pool, and the best hand in the game.

Run: ``python benchmarks/solve.py`` (add ``--quick`` for fewer samples, ``--max-limit S`` to
cap each whole-game search, default 600 s; ``--skip-max``, ``--only-best``, ``--only-max``,
``--expansion`` to add Cursed Hoards to max). Hands and pools
are random but seeded; each figure gives the machine's load (1-minute average) before it ran.

* choices: random 7-card hands holding at least one wild card, Book of Changes or Island;
* best, in process: random pools of 8 (every discard scored, as the advice does), 9, 10, 12
  and 15 cards, then 10- and 12-card pools holding three or more choice cards; after a
  warm-up that loads the compiled code, the sweep's bound and OR-Tools. Each line says which
  search ``auto`` chose, how often; the choice-heavy lines also time the same pools without
  the pruned search ("before": the planner's pick among the others, as on main);
* best, CLI: ``fr-score best POOL --quiet`` in a new process (start-up included) on random
  8-, 9-, 10- and 12-card pools; each line says whether ``fr-score compile`` built the
  command line's module ahead of time (without it, a new process loads Numba's code);
* max: ``fr-score max`` over the base game with promos, as a user runs it (a new process):
  warm (the compiled search cached) and cold (an empty cache), then in process; with
  ``--expansion``, Cursed Hoards in process.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fantasy_scorer.realms.catalog import base_catalog  # noqa: E402
from fantasy_scorer.realms.hand import Hand  # noqa: E402
from fantasy_scorer.realms.solve import api, engines  # noqa: E402
from fantasy_scorer.realms.solve.api import best_hand, max_hand, optimize  # noqa: E402
from fantasy_scorer.realms.solve.batch import aot  # noqa: E402
from fantasy_scorer.realms.solve.engine import PRUNED  # noqa: E402


def pct(times: list[float], q: float) -> float:
    s = sorted(times)
    return s[min(len(s) - 1, int(q * len(s)))] * 1000


def line(label: str, times: list[float]) -> str:
    return (f"{label:<28} n={len(times):<5} p50 {pct(times, 0.5):8.1f} ms   "
            f"p99 {pct(times, 0.99):8.1f} ms   max {max(times) * 1000:8.1f} ms")


def load() -> str:
    return f"load {os.getloadavg()[0]:.2f}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--max-limit", type=float, default=600.0)
    ap.add_argument("--skip-max", action="store_true")
    ap.add_argument("--only-best", action="store_true", help="the best figures alone")
    ap.add_argument("--only-max", action="store_true", help="the max figures alone")
    ap.add_argument("--expansion", action="store_true", help="also max with Cursed Hoards")
    args = ap.parse_args()
    if args.only_max:
        max_figures(args.max_limit, args.expansion)
        return
    cat = base_catalog()
    rng = random.Random(7)
    if not args.only_best:
        n_choice = 100 if args.quick else 1000
        times = []
        while len(times) < n_choice:
            cards = rng.sample(cat.cards, 7)
            if not any(c.choice is not None for c in cards):
                continue
            hand = Hand(cat, tuple(cards))
            t0 = time.perf_counter()
            optimize(hand)
            times.append(time.perf_counter() - t0)
        print(line("optimal choices (7 cards)", times) + f"   ({load()})")
    best_figures(cat, rng, args.quick)
    if args.only_best:
        return

    if not args.skip_max:
        max_figures(args.max_limit, args.expansion)


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


def chosen() -> tuple[list[str], object]:
    """Records the engine ``best_hand`` picks (api.pick_engine), to report it."""
    picks: list[str] = []
    original = api.pick_engine

    def spy(*args, **kwargs):
        engine = original(*args, **kwargs)
        picks.append(engine.name)
        return engine

    api.pick_engine = spy  # type: ignore[assignment]
    return picks, original


def without_pruned():
    """Makes ``best_hand`` choose as it did before the pruned search (the pruned engine
    refuses every pool); returns the function to restore."""
    engine = engines.BEST_ENGINES[PRUNED]
    original = engine.fits
    engine.fits = lambda problem: "left out"  # type: ignore[method-assign]
    return original


def best_figures(cat, rng: random.Random, quick: bool) -> None:
    """``best`` in process by pool size and with many choice cards, then from the CLI."""
    best_hand(cat.cards[:16], cat, method="cpsat")  # load OR-Tools, outside the timings
    best_hand(cat.cards[:10], cat, method="compiled")  # load the compiled code
    best_hand(cat.cards[:10], cat, method="pruned")  # and the sweep's bound
    picks, original = chosen()
    choosers = [c for c in cat.cards if c.choice is not None]
    plain = [c for c in cat.cards if c.choice is None]
    runs = [("best of 8 (every discard)", lambda: rng.sample(cat.cards, 8), 8, 300),
            ("best of 9", lambda: rng.sample(cat.cards, 9), 1, 200),
            ("best of 10", lambda: rng.sample(cat.cards, 10), 1, 200),
            ("best of 12", lambda: rng.sample(cat.cards, 12), 1, 200),
            ("best of 15", lambda: rng.sample(cat.cards, 15), 1, 20),
            ("best of 10, 3+ choice cards",
             lambda: (lambda k: rng.sample(choosers, k) + rng.sample(plain, 10 - k))(
                 rng.randint(3, 5)), 1, 100),
            ("best of 12, 3+ choice cards",
             lambda: (lambda k: rng.sample(choosers, k) + rng.sample(plain, 12 - k))(
                 rng.randint(3, 5)), 1, 100)]
    try:
        for label, draw, top, n in runs:
            n = max(5, n // 5) if quick else n
            before = load()
            heavy = "choice" in label
            picks.clear()
            times, old_times, old_picks = [], [], Counter()
            for _ in range(n):
                pool = draw()
                t0 = time.perf_counter()
                best_hand(pool, cat, top=top)
                times.append(time.perf_counter() - t0)
                if heavy:  # the same pool as before the pruned search
                    mark = len(picks)
                    fits = without_pruned()
                    try:
                        t0 = time.perf_counter()
                        best_hand(pool, cat, top=top)
                        old_times.append(time.perf_counter() - t0)
                    finally:
                        engines.BEST_ENGINES[PRUNED].fits = fits  # type: ignore[method-assign]
                    old_picks.update(picks[mark:])
                    del picks[mark:]
            used = ", ".join(f"{m} {k}" for m, k in Counter(picks).most_common())
            print(line(label, times) + f"   mean {statistics.mean(times) * 1000:6.1f} ms"
                  f"   ({before}; {used})")
            if heavy:
                was = ", ".join(f"{m} {k}" for m, k in old_picks.most_common())
                print(line("  before: without pruned", old_times)
                      + f"   mean {statistics.mean(old_times) * 1000:6.1f} ms   ({was})")
    finally:
        api.pick_engine = original  # type: ignore[assignment]
    command = ([shutil.which("fr-score")] if shutil.which("fr-score")
               else [sys.executable, "-m", "fantasy_scorer.cli.main"])
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # as installed
    built = ("the module built ahead of time" if aot.current() else
             "Numba's code: no module built ahead of time (fr-score compile builds it)")
    with tempfile.TemporaryDirectory() as tmp:
        for size in (8, 9, 10, 12):
            before = load()
            times = []
            for i in range(10 if quick else 50):
                path = Path(tmp) / f"pool{size}-{i}.txt"
                path.write_text("\n".join(c.name for c in rng.sample(cat.cards, size)) + "\n",
                                encoding="utf-8")
                t0 = time.perf_counter()
                subprocess.run([*command, "best", str(path), "--quiet"], check=True,
                               capture_output=True, env=env)
                times.append(time.perf_counter() - t0)
            print(line(f"fr-score best, {size} cards", times) + f"   (CLI, {before}; {built})")


if __name__ == "__main__":
    main()
