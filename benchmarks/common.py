"""What the win-share benchmarks (``advice.py``, ``game.py wins``) share: the machine's load
beside every figure, and games split over processes with their results merged."""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor


def load() -> str:
    """The load averages (a figure on a shared machine means little without them)."""
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} ({os.cpu_count()} cores)"


def percentiles(times: list[float], quantiles: tuple[float, ...] = (0.5, 0.95)) -> str:
    """``p50 … s, p95 … s, max … s``: the given quantiles of ``times`` (seconds), then the
    largest."""
    times = sorted(times)
    at = [(q, times[min(len(times) - 1, int(q * len(times)))]) for q in quantiles]
    return ", ".join([f"p{round(100 * q)} {t:.3f} s" for q, t in at]
                     + [f"max {times[-1]:.3f} s"])


def play_parts(part: Callable[[tuple], dict], games: int, start: int, jobs: int, *rest
               ) -> tuple[list[list[float]], list[list[float]]]:
    """Games ``start`` to ``start + games - 1`` in ``jobs`` processes, each running
    ``part((games of the part, its first game, *rest))``, which returns ``{"shares": [...],
    "scores": [...]}`` per entry of the line-up; the entries' shares and scores over all."""
    per = -(-games // jobs)
    args = [(min(per, games - s), start + s, *rest) for s in range(0, games, per)]
    with ProcessPoolExecutor(jobs) as pool:
        parts = list(pool.map(part, args))
    entries = range(len(parts[0]["shares"]))
    return ([[x for p in parts for x in p["shares"][i]] for i in entries],
            [[x for p in parts for x in p["scores"][i]] for i in entries])
