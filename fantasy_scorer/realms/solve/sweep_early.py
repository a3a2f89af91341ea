"""The sweep's first compile on two cores: a second process compiles part of it meanwhile.

On a machine where ``fr-score max`` has never run, Numba compiles the sweep before it
starts: most of the wait of a first run. Numba compiles one function at a time in a
process (a global lock), but its cache is shared between processes: while this process
compiles the bounds (``all_own``, ``gifts``, ``part_bounds``, ``node_bound``) and the sweep
itself (``sweep_part``), a second one compiles the closer look at whole hands (``refined_over``,
about a third of the work) and caches it. sweep_part takes refined_over as a first-class
function (``sweep_kernel.entry``), so it compiles without it; before its first call this
process loads refined_over from the cache. The second process is only an accelerator: if
it fails, or is not done in time, this process compiles refined_over itself, to the same
code.

Run as ``python -m fantasy_scorer.realms.solve.sweep_early``, it reads refined_over's
signature (pickled) from standard input and compiles it.
"""

from __future__ import annotations

import atexit
import os
import pickle
import subprocess
import sys
import threading
from pathlib import Path

#: Longest wait for the second process (seconds) before compiling here instead.
PATIENCE = 120.0

_lock = threading.Lock()
_pending: subprocess.Popen | None = None
_asked = False


def start(sig) -> None:
    """Start the second process to compile refined_over for the signature ``sig`` (as the
    sweep calls it), once a process, unless the compiled code is cached."""
    global _pending, _asked
    with _lock:
        if _asked:
            return
        _asked = True
        try:
            from . import sweep_kernel as kern

            ro = kern.refined_over
            key = tuple(sig.args)
            if key in ro.overloads or ro._cache.load_overload(key, ro.targetctx):
                return  # compiled here already, or cached: nothing to gain
            root = str(Path(__file__).resolve().parents[3])
            env = dict(os.environ)
            env["PYTHONPATH"] = os.pathsep.join(
                p for p in (root, env.get("PYTHONPATH")) if p)
            proc = subprocess.Popen([sys.executable, "-m", __name__], stdin=subprocess.PIPE,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                    env=env)
        except Exception:  # an accelerator only: this process compiles everything itself
            return
        try:
            assert proc.stdin is not None
            proc.stdin.write(pickle.dumps(sig))
            proc.stdin.close()
        except OSError:
            proc.kill()
            return
        _pending = proc
        atexit.register(_stop)


def wait() -> None:
    """Before the first sweep_part: let the second process finish caching refined_over
    (at most :data:`PATIENCE` seconds), so that this one loads it instead of compiling it."""
    global _pending
    with _lock:
        proc, _pending = _pending, None
    if proc is None:
        return
    try:
        proc.wait(timeout=PATIENCE)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _stop() -> None:
    """At exit (say, Ctrl-C during the compile): the second process goes too."""
    proc = _pending
    if proc is not None and proc.poll() is None:
        proc.kill()


def main() -> None:
    from . import sweep_kernel as kern  # first: it names Numba's cache before Numba loads

    kern.ready(kern.refined_over, pickle.loads(sys.stdin.buffer.read()))


if __name__ == "__main__":
    main()
