"""What the tests of the static site share: the pinned Pyodide runtime and a built site.

The runtime is the npm tarball ``.ci/system-deps`` fetches (``npm pack pyodide@VERSION``) into
``$FR_PYODIDE_DIR`` or ``~/.cache/fantasy-scorer/pyodide``. Where it is missing, the tests fetch
it as ``fr-score site`` does (from the npm registry into that cache, checked against the pinned
integrity), so that the README's test command passes on a new machine; a test that cannot get
it fails with the command that fetches it: it is never skipped in silence.
"""

from __future__ import annotations

import functools
import http.server
import shutil
import threading
from pathlib import Path

import pytest

from fantasy_scorer.errors import ScorerError
from fantasy_scorer.web import site


def pyodide_dir() -> Path:
    folder = site.pyodide_cache()
    if not (folder / site.PYODIDE_TARBALL).is_file():
        try:
            site.read_pyodide(None)  # downloads it into the cache
        except ScorerError as e:
            pytest.fail(f"the Pyodide runtime is missing: {folder / site.PYODIDE_TARBALL} ({e}); "
                        f"fetch it with .ci/system-deps (or: cd {folder} && npm pack "
                        f"pyodide@{site.PYODIDE_VERSION}), or point ${site.PYODIDE_ENV} at its "
                        "folder")
        if not (folder / site.PYODIDE_TARBALL).is_file():  # (downloaded, but not writable)
            pytest.fail(f"the Pyodide runtime could not be saved to {folder}; point "
                        f"${site.PYODIDE_ENV} at a folder holding {site.PYODIDE_TARBALL}")
    return folder


def need_node() -> None:
    """Node.js runs the site's Python at build time to compile its modules (``sitepyc``)."""
    if shutil.which("node") is None:
        pytest.fail("node is missing: the site's modules are compiled under it; install it "
                    "with .ci/system-deps (npm brings it)")


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # noqa: D102 (no access log in the test output)
        pass


class StaticServer:
    """``python -m http.server`` for a folder, on a free loopback port, in a thread."""

    def __init__(self, folder: Path) -> None:
        handler = functools.partial(Quiet, directory=str(folder))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
