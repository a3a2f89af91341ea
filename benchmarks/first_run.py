"""A new user's first commands: install into a fresh venv, then run with an empty home.

Run: ``python benchmarks/first_run.py`` (``--venv DIR`` reuses an installed venv and skips
the install; ``--wheel FILE`` installs a built wheel instead of the source tree; ``--pools
N``). It prints, as issue 35 asks (goals in brackets):

* ``pip install .`` into a fresh venv (pip's own download cache kept, as on a machine that
  has installed Python packages before; the build's compile starts from an empty home)
  [< 3 minutes];
* ``fr-score best POOL --quiet`` on random 12-card pools, each in a new process, the first one
  in a new, empty home: p50, p95, max [p95 < 300 ms, max < 400 ms];
* the first ``fr-score advise`` (default budget) on an 8-card hand, in a new empty home: its
  samples and wall time [>= 50 samples within 1.6 s];
* the first ``fr-score max`` in a new empty home: its total, whether proven, wall time
  [397 proven in < 10 s].

Each figure gives the machine's load (1-minute average) before it ran: two cores are shared.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from fantasy_scorer.realms.catalog import base_catalog  # noqa: E402


def load() -> str:
    return f"load {os.getloadavg()[0]:.1f}"


def fresh_home(base: Path, name: str) -> dict:
    home = base / name
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "PYTHONPATH")}
    env["HOME"] = str(home)
    return env


def install(base: Path, wheel: str | None) -> tuple[Path, float]:
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = venv / "bin" / "pip"
    env = fresh_home(base, "home-install")
    cache = subprocess.run([sys.executable, "-m", "pip", "cache", "dir"], capture_output=True,
                           text=True).stdout.strip()
    if cache:
        env["PIP_CACHE_DIR"] = cache  # pip's downloads: a machine that has used pip before
    print(f"installing ({load()}) …", flush=True)
    t0 = time.perf_counter()
    subprocess.run([str(pip), "install", "-q", wheel or str(ROOT)], check=True, env=env,
                   cwd=base)
    return venv, time.perf_counter() - t0


def run(command: list[str], env: dict, cwd: Path) -> tuple[float, subprocess.CompletedProcess]:
    t0 = time.perf_counter()
    done = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True)
    return time.perf_counter() - t0, done


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--venv", help="an installed venv to use (skips the install)")
    parser.add_argument("--wheel", help="install this wheel instead of the source tree")
    parser.add_argument("--pools", type=int, default=25)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="fr-first-") as tmp:
        base = Path(tmp)
        if args.venv:
            venv = Path(args.venv)
        else:
            venv, seconds = install(base, args.wheel)
            print(f"pip install: {seconds:.1f} s", flush=True)
        fr = str(venv / "bin" / "fr-score")

        env = fresh_home(base, "home-best")
        cat = base_catalog()
        rng = random.Random(35)
        times, failures = [], 0
        print(f"best on {args.pools} random 12-card pools ({load()}) …", flush=True)
        for i in range(args.pools):
            pool = base / f"pool{i}.txt"
            pool.write_text("\n".join(c.name for c in rng.sample(cat.cards, 12)) + "\n",
                            encoding="utf-8")
            seconds, done = run([fr, "best", str(pool), "--quiet"], env, base)
            failures += done.returncode != 0
            times.append(seconds)
        first = times[0]
        times.sort()
        p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
        print(f"best, from the first call: p50 {statistics.median(times) * 1000:.0f} ms, "
              f"p95 {p95 * 1000:.0f} ms, max {times[-1] * 1000:.0f} ms, the very first "
              f"{first * 1000:.0f} ms; failures {failures}", flush=True)

        env = fresh_home(base, "home-advise")
        hand = "Knights, Queen, King, Swamp, Gem of Order, Hydra, Unicorn, Rainstorm"
        print(f"first advise ({load()}) …", flush=True)
        seconds, done = run([fr, "advise", hand, "--players", "3"], env, base)
        found = re.search(r"(\d+) samples in ([\d.]+) s", done.stdout)
        said = found.group(0) if found else (done.stdout.strip().splitlines() or ["?"])[-1]
        print(f"first advise: {said}; wall {seconds:.2f} s (rc {done.returncode})", flush=True)

        env = fresh_home(base, "home-max")
        print(f"first max ({load()}) …", flush=True)
        seconds, done = run([fr, "max", "--quiet", "--json"], env, base)
        total = re.search(r'"total": (\d+)', done.stdout)
        proven = re.search(r'"proven": (true|false)', done.stdout)
        print(f"first max: total {total.group(1) if total else '?'}, proven "
              f"{proven.group(1) if proven else '?'}, wall {seconds:.1f} s "
              f"(rc {done.returncode}; {load()})", flush=True)


if __name__ == "__main__":
    main()
