"""The page under load: how fast it loads while clients post hard ``/api/best`` pools.

Starts ``fr-score serve`` in a process of its own on a free loopback port (its default
workers, the advice's default time limit), then, for ``--duration`` seconds (at most 30):

* ``--clients`` threads post hard discard-advice pools (8 cards, four or more wild cards and
  choosers, all different so that no answer comes from the cache) one after another;
* one thread loads the page like a phone opening a share link (``GET /?code=…``, a hand with
  nothing to choose, and ``GET /``) every 100 ms.

It prints the page's load time (median, 95th percentile, worst) before and under the load,
the advice answers (200, or 503 when the lanes are full) and their times, the machine's load
average, then what five announced 50 MB bodies and 500 unfinished requests do to the server
(its memory and its open connections). Figures only: nothing is asserted here (the test
``tests/web/test_load.py`` runs it briefly and checks only that every answer had its shape).

Run: ``python benchmarks/web_load.py [--duration 20] [--clients 10]``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fantasy_scorer.realms import effects as fx  # noqa: E402
from fantasy_scorer.realms.catalog import base_catalog  # noqa: E402

MAX_DURATION = 30.0
PAGE_CODE = "FR21,FR31,FR32,FR23,FR38,FR43,FR04"  # the hand: nothing to choose
TIMEOUT = 60.0  # per request: a hang guard


def hard_pools(n: int, seed: int = 15) -> list[list[str]]:
    """``n`` different 8-card pools, each with at least four cards that make a choice."""
    cat = base_catalog()
    choosers = [c for c in cat.suit_cards if c.choice is not None]
    others = [c for c in cat.suit_cards if c.choice is None and c.extra is None]
    rng = random.Random(seed)
    seen: set[tuple[str, ...]] = set()
    pools = []
    while len(pools) < n:
        k = rng.randint(4, len(choosers))
        cards = rng.sample(choosers, k) + rng.sample(others, 8 - k)
        key = tuple(sorted(c.id for c in cards))
        if key not in seen and sum(isinstance(c.choice, fx.Copy) for c in cards) >= 2:
            seen.add(key)
            pools.append([c.id for c in cards])
    return pools


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Server:
    """``fr-score serve`` in a child process."""

    port: int = field(default_factory=free_port)
    proc: subprocess.Popen | None = None

    def __enter__(self) -> Server:
        code = "from fantasy_scorer.cli.main import main; main()"
        self.proc = subprocess.Popen(
            [sys.executable, "-c", code, "serve", "--port", str(self.port)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            cwd=Path(__file__).resolve().parent.parent)
        deadline = time.monotonic() + 60
        while True:
            try:
                get(self.port, "/")
                return self
            except OSError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.2)

    def __exit__(self, *exc) -> None:
        assert self.proc is not None
        self.proc.terminate()
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()

    def rss_mb(self) -> float:
        """The server's resident memory with its worker processes (MB)."""
        assert self.proc is not None
        total = 0
        for pid in [self.proc.pid, *children(self.proc.pid)]:
            try:
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
            except OSError:
                pass
        return total / 1024

    def open_sockets(self) -> int:
        assert self.proc is not None
        fds = Path(f"/proc/{self.proc.pid}/fd")
        return sum(1 for fd in fds.iterdir() if os.readlink(fd).startswith("socket:"))


def children(pid: int) -> list[int]:
    out = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        kids = (task / "children").read_text().split()
        out += [int(k) for k in kids]
    return out


def get(port: int, path: str) -> tuple[int, float]:
    t0 = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    try:
        conn.request("GET", path)
        r = conn.getresponse()
        r.read()
        return r.status, time.perf_counter() - t0
    finally:
        conn.close()


@dataclass
class Figures:
    page_idle: list[float] = field(default_factory=list)
    page_loaded: list[float] = field(default_factory=list)
    page_statuses: list[int] = field(default_factory=list)
    best: list[tuple[int, float, dict]] = field(default_factory=list)


def percentile(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def summary(xs: list[float]) -> str:
    if not xs:
        return "no sample"
    ms = [x * 1000 for x in xs]
    return (f"median {statistics.median(ms):.0f} ms, p95 {percentile(ms, 0.95):.0f} ms, "
            f"worst {max(ms):.0f} ms ({len(ms)} loads)")


def run(duration: float = 20.0, clients: int = 10, abuse: bool = True) -> Figures:
    """Run the load and return the raw figures (see the module's docstring)."""
    duration = min(duration, MAX_DURATION)
    figures = Figures()
    pools = hard_pools(clients * 40)
    with Server() as server:
        port = server.port
        for _ in range(10):  # before the load
            for path in (f"/?code={PAGE_CODE}", "/"):
                status, dt = get(port, path)
                figures.page_statuses.append(status)
                figures.page_idle.append(dt)
        stop = time.monotonic() + duration
        lock = threading.Lock()

        def client(n: int) -> None:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
            i = n
            while time.monotonic() < stop:
                body = json.dumps({"cards": pools[i % len(pools)]})
                i += clients
                t0 = time.perf_counter()
                try:
                    conn.request("POST", "/api/best", body,
                                 {"Content-Type": "application/json"})
                    r = conn.getresponse()
                    data = json.loads(r.read())
                except (OSError, http.client.HTTPException):
                    conn.close()
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
                    continue
                with lock:
                    figures.best.append((r.status, time.perf_counter() - t0, data))
                if r.status == 503:
                    time.sleep(0.5)  # as the page does: wait, then send again
            conn.close()

        threads = [threading.Thread(target=client, args=(n,), daemon=True)
                   for n in range(clients)]
        for t in threads:
            t.start()
        time.sleep(min(1.0, duration / 4))  # the searches are under way
        while time.monotonic() < stop:
            for path in (f"/?code={PAGE_CODE}", "/"):
                status, dt = get(port, path)
                figures.page_statuses.append(status)
                figures.page_loaded.append(dt)
            time.sleep(0.1)
        for t in threads:
            t.join(TIMEOUT)
        if abuse:
            figures.abuse = abuse_figures(server)  # type: ignore[attr-defined]
    return figures


def abuse_figures(server: Server) -> dict[str, float]:
    """Five announced 50 MB bodies, then 500 requests that never finish."""
    port = server.port
    before = server.rss_mb()
    for _ in range(5):
        with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as s:
            s.sendall(b"POST /api/best HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                      b"\r\nContent-Length: 52428800\r\n\r\n")
            chunk = b"[" * 65536
            try:
                for _ in range(800):  # 50 MB, while the server lets it in
                    s.sendall(chunk)
            except OSError:
                pass  # refused (413) and closed: the rest is not read
    after = server.rss_mb()
    socks = []
    for _ in range(500):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
            socks.append(s)
        except OSError:
            break
    time.sleep(2.0)  # those past the cap per address are answered 503 and closed by now
    held_now = server.open_sockets()
    time.sleep(12)  # past the request deadline (10 s)
    held_later = server.open_sockets()
    for s in socks:
        s.close()
    return {"rss_before_mb": before, "rss_after_bodies_mb": after,
            "sockets_at_once": held_now, "sockets_after_deadline": held_later,
            "page_after": get(port, "/")[0]}


def report(f: Figures, clients: int) -> str:
    load = os.getloadavg()
    lines = [
        f"machine: {os.cpu_count()} cores, load average {load[0]:.2f} {load[1]:.2f} "
        f"{load[2]:.2f} (1, 5, 15 min) at the end",
        f"page load, idle:             {summary(f.page_idle)}",
        f"page load, {clients} clients on /api/best: {summary(f.page_loaded)}",
    ]
    ok = [dt for s, dt, _ in f.best if s == 200]
    busy = sum(1 for s, _, _ in f.best if s == 503)
    incomplete = sum(1 for s, _, d in f.best if s == 200 and not d.get("complete", True))
    lines.append(f"/api/best: {len(ok)} answered ({incomplete} stopped at the time limit), "
                 f"{busy} refused busy (503); answered in {summary(ok).replace('loads', 'ok')}")
    abuse = getattr(f, "abuse", None)
    if abuse:
        lines.append(f"five 50 MB bodies: server {abuse['rss_before_mb']:.0f} MB before, "
                     f"{abuse['rss_after_bodies_mb']:.0f} MB after (with its workers)")
        lines.append(f"500 unfinished requests from one address: the server holds "
                     f"{abuse['sockets_at_once']} sockets 2 s later (64 per address, its "
                     f"listening socket and pipes aside), {abuse['sockets_after_deadline']} "
                     f"after the 10 s deadline; the page then answers {abuse['page_after']}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=20.0,
                        help=f"seconds of load (at most {MAX_DURATION:g})")
    parser.add_argument("--clients", type=int, default=10)
    args = parser.parse_args()
    print(report(run(args.duration, args.clients), args.clients))


if __name__ == "__main__":
    main()
