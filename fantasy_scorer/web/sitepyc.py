"""The package's modules compiled to ``.pyc`` for the static site, inside the pinned Pyodide.

Compiling the package's modules is a large part of their import time, and the browser would do it on
every visit before the first score. Pyodide runs a newer Python than the one building the site
(a ``.pyc`` is tied to its Python's version), so the modules are compiled by the site's own
runtime, run under Node.js at build time: the result is exactly what the browser would have
made. The files are hash-checked ``.pyc`` that are never checked (``UNCHECKED_HASH``): the
unpacked sources have new dates in the browser, and the zip ships both together anyway.

The bytes depend only on the runtime and the sources (the runtime runs with a fixed hash seed
and entries are sorted with one date), so the build stays reproducible; they are kept in the
cache folder by a digest of both, so a second build of the same package does not start Node.
Without ``node`` on the ``PATH`` (or with ``FR_SITE_PYC=0``) the site ships the sources alone,
and the browser compiles them as it imports them.
"""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path

from ..errors import ScorerError

#: Set to ``0`` to build without compiled modules (the sources alone).
SWITCH = "FR_SITE_PYC"

_NODE_PROGRAM = r"""
const fs = require("fs");
const [dir, src, out] = process.argv.slice(2);
const { loadPyodide } = require(dir + "/pyodide.js");
(async () => {
  const py = await loadPyodide({ indexURL: dir + "/", env: { PYTHONHASHSEED: "0" },
                                 stdout: () => {}, stderr: () => {} });
  py.unpackArchive(new Uint8Array(fs.readFileSync(src)), "zip",
                   { extractDir: "/home/pyodide/site" });
  fs.writeFileSync(out, py.runPython(fs.readFileSync(dir + "/compile.py", "utf8")).toJs());
})().catch((e) => { process.stderr.write(String(e && e.message || e) + "\n"); process.exit(1); });
"""

_PY_PROGRAM = r"""
import importlib, importlib.util, io, json, os, py_compile, sys, zipfile
assert sys.flags.hash_randomization == 0, "PYTHONHASHSEED was not set"
root = "/home/pyodide/site"
sys.path.insert(0, root)
from fantasy_scorer.web import browser
browser.boot(root + "/catalogs.pickle")
hand = ["FR01", "FR08", "FR13", "FR14", "FR15", "FR16", "FR52"]
for kind, body in [("read", {"query": "hand=FR01&playerCount=4"}), ("hand", {"cards": hand}),
                   ("best", {"cards": hand + ["FR11"]}), ("majesty", {})]:
    browser.handle(kind, json.dumps(body))
for name in ("fantasy_scorer.realms.game.advice", "fantasy_scorer.realms.game.report"):
    importlib.import_module(name)
used = sorted(m.__file__ for m in list(sys.modules.values())
              if (getattr(m, "__file__", None) or "").startswith(root + "/"))
found = {}
for src in used:
    if src.endswith(".py"):
        cfile = importlib.util.cache_from_source(src)
        py_compile.compile(src, cfile, dfile=os.path.relpath(src, root), doraise=True,
                           invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
        with open(cfile, "rb") as fh:
            found[os.path.relpath(cfile, root)] = fh.read()
buf = io.BytesIO()
with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
    for name in sorted(found):
        z.writestr(zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)), found[name])
buf.getvalue()
"""


def compiled_modules(runtime: dict[str, bytes], sources: bytes, cache: Path
                     ) -> dict[str, bytes]:
    """The ``__pycache__/*.pyc`` of the modules of the zip ``sources`` that the browser
    imports for its first answers (a score, a trace, a discard advice, the look-ahead, the
    Majesty page), by their path in it, compiled by the Pyodide ``runtime`` (its files by
    name); empty without Node.js. The rest (the command line, the compiled searches' code)
    is never imported there, or compiled when it is."""
    node = shutil.which("node")
    if node is None or os.environ.get(SWITCH) == "0":
        return {}
    digest = hashlib.sha256()
    for name in sorted(runtime):
        digest.update(name.encode() + b"\0" + hashlib.sha256(runtime[name]).digest())
    digest.update(sources)
    digest.update((_NODE_PROGRAM + _PY_PROGRAM).encode())
    kept = cache / f"pyc-{digest.hexdigest()[:24]}.zip"
    if kept.is_file():
        data = kept.read_bytes()
    else:
        data = _compile(node, runtime, sources)
        try:
            kept.parent.mkdir(parents=True, exist_ok=True)
            kept.write_bytes(data)
        except OSError:
            pass
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return {name: z.read(name) for name in z.namelist()}


def _compile(node: str, runtime: dict[str, bytes], sources: bytes) -> bytes:
    with tempfile.TemporaryDirectory(prefix="fr-pyc-") as tmp:
        folder = Path(tmp)
        for name, data in runtime.items():
            (folder / name).write_bytes(data)
        (folder / "compile.py").write_text(_PY_PROGRAM, encoding="utf-8")
        (folder / "compile.cjs").write_text(_NODE_PROGRAM, encoding="utf-8")
        (folder / "sources.zip").write_bytes(sources)
        out = folder / "pyc.zip"
        try:
            done = subprocess.run([node, str(folder / "compile.cjs"), str(folder),
                                   str(folder / "sources.zip"), str(out)],
                                  capture_output=True, timeout=600, check=False)
        except subprocess.TimeoutExpired:
            done = None
        if done is None or done.returncode != 0 or not out.is_file():
            tail = "" if done is None else done.stderr.decode(errors="replace").strip()
            raise ScorerError(f"cannot compile the package's modules in Pyodide under node "
                              f"({tail.splitlines()[-1] if tail else 'no answer'}); build "
                              f"without them with {SWITCH}=0")
        return out.read_bytes()
