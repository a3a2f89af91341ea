"""Where the compiled code is cached: per user, and per version of the compiled sources.

Numba's cache checks only the file a function is written in, but these functions read the
table layout of ``tables.py`` and call each other across files: code compiled against an
older layout would read the wrong fields (and crash). The cache directory is therefore named
after a digest of every source of this package, so that any change compiles everything anew.
The base directory is ``NUMBA_CACHE_DIR`` when set, else ``~/.cache/fantasy-scorer/numba``
(the package directory may be read-only).
"""

from __future__ import annotations

import hashlib
import os
from functools import cache
from pathlib import Path

#: The files whose code or constants the compiled functions depend on.
SOURCES = ("cache.py", "tables.py", "kernel.py", "search.py", "lines.py")


@cache
def _digest() -> str:
    """The digest of :data:`SOURCES`, read once a process (it is asked on every search the
    cost planner weighs, and the files do not change under a running process)."""
    here = Path(__file__).resolve().parent
    digest = hashlib.sha1()
    for name in SOURCES:
        digest.update((here / name).read_bytes())
    return digest.hexdigest()[:12]


def cache_dir() -> str:
    base = os.environ.get("NUMBA_CACHE_DIR") or str(
        Path.home() / ".cache" / "fantasy-scorer" / "numba")
    return str(Path(base) / f"batch-{_digest()}")


def enter() -> str:
    """Point Numba's cache at this package's directory (while its functions are defined);
    returns the previous setting for :func:`leave`."""
    from numba.core import config

    previous = config.CACHE_DIR
    config.CACHE_DIR = cache_dir()
    return previous


def leave(previous: str) -> None:
    from numba.core import config

    config.CACHE_DIR = previous
