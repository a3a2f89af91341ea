"""Two runs of ``benchmarks/advice.py --record`` on the same deals, compared game by game.

    python benchmarks/paired.py base.json variant.json [--entry 1]

Two variants of the advisor played on the same deals share those deals' luck: a deal one
of them wins the other often wins too. The difference of their win shares is then better
measured game by game (the mean of the per-game differences and its standard error) than
by setting two independent intervals side by side. Prints both shares, the difference with
its 95% interval, and how many games each won that the other did not. No test asserts any
of these figures.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from pathlib import Path


def read(path: str) -> dict:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise SystemExit(f"paired.py: cannot read {path}: {e}") from None
    if not isinstance(data, dict) or "wins" not in data:
        raise SystemExit(f"paired.py: {path} is not a file of benchmarks/advice.py --record")
    return data


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("base")
    ap.add_argument("variant")
    ap.add_argument("--entry", type=int, default=1, help="the line-up's entry compared "
                    "(1: the advisor)")
    args = ap.parse_args()
    a, b = read(args.base), read(args.variant)
    for key in ("players", "seed", "start", "lineup"):
        if a.get(key) != b.get(key):
            raise SystemExit(f"paired.py: the runs differ in {key} ({a.get(key)!r} against "
                             f"{b.get(key)!r}): not the same deals")
    x, y = a["wins"][args.entry - 1], b["wins"][args.entry - 1]
    n = min(len(x), len(y))
    if n < 2:
        raise SystemExit("paired.py: fewer than 2 games in common")
    x, y = x[:n], y[:n]
    d = [v - u for u, v in zip(x, y, strict=True)]
    mean = statistics.fmean(d)
    se = statistics.stdev(d) / math.sqrt(n)
    print(f"{n} games from game {a['start']} ({a['players']} players, seed {a['seed']})")
    print(f"  base    {statistics.fmean(x):.3f}   ({args.base})")
    print(f"  variant {statistics.fmean(y):.3f}   ({args.variant})")
    print(f"  difference {mean:+.3f} [{mean - 1.96 * se:+.3f}, {mean + 1.96 * se:+.3f}] "
          f"(95%, game by game; standard error {se:.3f})")
    print(f"  won by the variant only: {sum(v > u for u, v in zip(x, y, strict=True))}, "
          f"by the base only: {sum(u > v for u, v in zip(x, y, strict=True))}")


if __name__ == "__main__":
    main()
