"""The census and simulate on 1 and on N workers: hands (or games) per second, and the ratio.

Run one of::

    python benchmarks/census.py census [--chunks 8] [--hands 100000] [--workers 2]
    python benchmarks/census.py simulate [--games 40] [--bots advisor,greedy,greedy,greedy]
                                         [--workers 2]

``census`` counts ``--chunks`` slices of ``--hands`` hands spread evenly over the ranks of
the base game's census (so cheap hands without choice cards and dear ones with several are
both in), first in this process, then on a local cluster of ``--workers`` processes (its
start is timed apart), and checks both histograms are equal. From the rate it prints the
time a whole census of C(55, 7) hands would take. ``simulate`` plays the same games both
ways and checks the results are equal. The machine's load (``os.getloadavg``) is printed
before and after: the figures are wall-clock times on a shared machine. No test asserts any.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fantasy_scorer import cluster  # noqa: E402
from fantasy_scorer.realms.solve import census as cs  # noqa: E402


def load() -> str:
    return "load {:.1f} {:.1f} {:.1f}".format(*os.getloadavg())


def census(chunks: int, hands: int, workers: int) -> None:
    job = cs.make_job(cs.Game(), other=cs.Game(None, "deluxe"))
    step = job.hands // chunks
    tasks = [(job, min(i * step, job.hands - hands), hands) for i in range(chunks)]
    cs.count_chunk(job, 0, 10)  # the compiled code loaded before the clock starts
    print(load())
    t0 = time.perf_counter()
    one: Counter = Counter()
    for _, part in cluster.run(cs.count_chunk, tasks, workers=1):
        cs.add(one, part)
    t1 = time.perf_counter() - t0
    whole = job.hands / (chunks * hands) * t1 / 60
    print(f"1 worker:  {chunks * hands:,} hands in {t1:.1f} s, "
          f"{chunks * hands / t1:,.0f} hands/s; a whole census ~{whole:.0f} min")
    t0 = time.perf_counter()
    many: Counter = Counter()
    warm = [(job, 0, 10)] * workers  # one per worker, most likely: each loads its code
    first, waiting = 0.0, workers
    for i, part in cluster.run(cs.count_chunk, warm + tasks, workers=workers):
        if i < workers:
            waiting -= 1
            if not waiting:  # the cluster started and its workers loaded the compiled code
                first = time.perf_counter() - t0
                t0 = time.perf_counter()
            continue
        cs.add(many, part)
    tn = time.perf_counter() - t0
    print(f"{workers} workers: start {first:.1f} s, then {tn:.1f} s, "
          f"{chunks * hands / tn:,.0f} hands/s; ratio {tn / t1:.2f} of 1 worker; "
          f"equal: {many == one}")
    print(load())


def simulate(games: int, bots: str, workers: int) -> None:
    from fantasy_scorer.cli.workers import simulate_on
    from fantasy_scorer.realms.game.simulate import parse_lineup

    lineup = parse_lineup(bots, len(bots.split(",")))
    players = len(lineup)
    print(load())
    t0 = time.perf_counter()
    one = simulate_on(cs.Game(), players, lineup, games, "1", None, None, workers=1).to_json()
    t1 = time.perf_counter() - t0
    t0 = time.perf_counter()
    many = simulate_on(cs.Game(), players, lineup, games, "1", None, None,
                       workers=workers).to_json()
    tn = time.perf_counter() - t0
    one.pop("seconds"), many.pop("seconds")
    print(f"{games} games of {bots}: 1 worker {t1:.1f} s, {workers} workers {tn:.1f} s "
          f"(cluster start included); ratio {tn / t1:.2f}; equal: {one == many}")
    print(load())


def main() -> None:
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="what", required=True)
    c = sub.add_parser("census")
    c.add_argument("--chunks", type=int, default=8)
    c.add_argument("--hands", type=int, default=100_000)
    c.add_argument("--workers", type=int, default=2)
    s = sub.add_parser("simulate")
    s.add_argument("--games", type=int, default=40)
    s.add_argument("--bots", default="advisor,greedy,greedy,greedy")
    s.add_argument("--workers", type=int, default=2)
    a = ap.parse_args()
    if a.what == "census":
        census(a.chunks, a.hands, a.workers)
    else:
        simulate(a.games, a.bots, a.workers)


if __name__ == "__main__":
    main()
