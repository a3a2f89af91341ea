"""The static site's figures in headless Chromium at 390×844, served from loopback.

Run::

    python benchmarks/site.py [--site DIR] [--throttle 4] [--pyodide DIR]

It builds the site (``fr-score site``) unless ``--site`` names a built one, serves it with a
static server on 127.0.0.1, and prints, for a first visit (empty cache) and a second visit
(the service worker's cache):

* ``cards``: the hand's cards on screen after opening a web-scorer link (ms);
* ``score``: the first total on screen (ms);
* ``tap``: a tap that re-scores a plain hand once loaded (ms, median of 5);
* where the first score's time goes: when the worker was created, when it ran, when Pyodide
  had started (``runtime``), the package was unpacked and imported (``fsEngine.times``);
* ``bytes``: bytes the first visit transferred (the responses' Content-Length, the service
  worker's caching included);
* ``away``: requests to any host but the site's own (must be 0).

The second visit opens a new page ``--idle`` seconds (10) after the first page was closed, as
a player comes back later (Chromium caches the runtime's compiled code once it has optimized
it in the background). ``--throttle N`` repeats the runs with the CPU slowed N times (DevTools'
``Emulation.setCPUThrottlingRate``). The machine's load is printed before and after: these
are wall-clock times on a shared machine. No test asserts any of them.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.web.site_fixtures import StaticServer  # noqa: E402

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]
LINK = "/?playerCount=4&hand=FR01,FR08,FR13,FR14,FR15,FR16,FR52%2B"  # the worked example: 260
HANG = 300_000


def build(pyodide: Path | None) -> Path:
    from click.testing import CliRunner

    from fantasy_scorer.cli.main import main

    out = Path(tempfile.mkdtemp(prefix="fr-site-")) / "public"
    args = ["site", str(out)] + (["--pyodide", str(pyodide)] if pyodide else [])
    result = CliRunner().invoke(main, args)
    if result.exit_code:
        sys.exit(result.output)
    return out


def visit(page, throttle: float) -> dict[str, Any]:
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    t0 = time.perf_counter()
    page.goto(LINK, wait_until="commit")
    page.wait_for_selector("#sheet li", timeout=HANG)
    cards = time.perf_counter() - t0
    page.wait_for_function("document.getElementById('total').textContent === '260'",
                           timeout=HANG)
    score = time.perf_counter() - t0
    page.wait_for_selector("#busy", state="hidden", timeout=HANG)
    steps = page.evaluate("window.fsEngine.times || {}")  # the worker's start, on the page's clock
    taps = []
    for _ in range(5):  # Wildfire out and back in: a plain hand each time
        for want in ("6 cards", "7 cards"):
            t = time.perf_counter()
            page.locator('.picker a[data-card="FR16"]').click()
            page.wait_for_function(
                f"document.getElementById('count').textContent === '{want}' && "
                "document.getElementById('busy').hidden", timeout=HANG)
            taps.append(time.perf_counter() - t)
    return {"cards": cards * 1000, "score": score * 1000, "tap": statistics.median(taps) * 1000,
            "steps": steps}


def run(site: Path, throttle: float, idle: float) -> None:
    server = StaticServer(site)
    origin = urlsplit(server.url).netloc
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            context = browser.new_context(viewport={"width": 390, "height": 844},
                                          base_url=server.url)
            sizes: list[int] = []
            away: list[str] = []

            def seen(response) -> None:
                if urlsplit(response.url).netloc != origin:
                    away.append(response.url)
                sizes.append(int(response.headers.get("content-length") or 0))

            context.on("response", seen)
            first = visit(context.new_page(), throttle)
            page = context.pages[0]
            page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=HANG)
            page.wait_for_timeout(500)
            first_bytes = sum(sizes)
            # a second visit comes later: the first page is closed (its worker with it) and
            # the browser left to finish its background work (the service worker's copy,
            # the optimizing compiler's tier-up of the runtime, which it then caches)
            page.close()
            time.sleep(idle)
            second = visit(context.new_page(), throttle)
            browser.close()
    finally:
        server.stop()
    for name, figures in (("first visit", first), ("second visit", second)):
        print(f"  CPU ×{throttle:g} {name:13s} cards {figures['cards']:7.0f} ms   "
              f"score {figures['score']:7.0f} ms   tap {figures['tap']:5.0f} ms")
        steps = "  ".join(f"{k} {v:.0f}" for k, v in figures["steps"].items())
        print(f"    the engine's start (ms since the page's clock began): {steps}")
    print(f"  bytes of the first visit: {first_bytes / 1e6:.2f} MB; requests off the origin: "
          f"{len(away)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--site", type=Path, help="a built site (default: build one now)")
    ap.add_argument("--pyodide", type=Path, help="the folder of the Pyodide tarball")
    ap.add_argument("--throttle", type=float, default=4.0, help="CPU slow-down of the 2nd run")
    ap.add_argument("--idle", type=float, default=10.0,
                    help="seconds between closing the first visit and the second one")
    args = ap.parse_args()
    print(f"load before: {os.getloadavg()}")
    site = args.site or build(args.pyodide)
    for rate in sorted({1.0, args.throttle}):  # (--throttle 1: one run only)
        run(site, rate, args.idle)
    print(f"load after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
