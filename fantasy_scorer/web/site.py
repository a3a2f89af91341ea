"""The static site (``fr-score site OUT``): the page of ``fr-score serve`` with no server.

The folder it writes is served by any static host (a GitHub Pages branch, a USB stick,
``python -m http.server``), and every file the page asks for is in it:

* ``index.html``: the page's template rendered empty, in the ``worker`` mode of
  ``static/engine.js``; the script renders the address's hand from ``data/`` at once, and
  scores it when the engine is ready;
* ``static/``: the same script, style, engine and worker files as the server's ``/static/``;
* ``data/cards.json`` (every game's cards, names in every language) and ``data/words-LANG.json``
  (the page's words): what the page shows before Python runs;
* ``py/fantasy_scorer.zip``: this package's pure-Python code and data, with the shipped
  catalogs compiled (``catalogs.pickle``) and the modules compiled to ``.pyc`` by the
  runtime itself where Node.js is at hand (:mod:`.sitepyc`), unpacked by the worker into
  Pyodide's files;
* ``pyodide/``: the Pyodide runtime, a pinned version checked against its published checksum;
* ``sw.js``, ``manifest.webmanifest``, the icons: the service worker caches every file listed
  here at build time, so the site works offline after the first visit.

The build is reproducible: the same package and runtime give the same bytes (zip entries
sorted with a fixed date, JSON with sorted keys, the catalogs pickled with a fixed hash seed).
Another page joins the site with one entry in :data:`PAGES` (a file name and a function
writing its bytes).
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.request
import zipfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ScorerError
from . import majesty_site, sitedata, sitepyc

HERE = Path(__file__).resolve().parent
PACKAGE = HERE.parent

#: The Pyodide release the site runs and the npm registry's ``dist.integrity`` of its tarball
#: (``npm view pyodide@VERSION dist.integrity``), kept as data for ``.ci/system-deps`` too.
PIN = json.loads((HERE / "pyodide.json").read_text(encoding="utf-8"))
PYODIDE_VERSION: str = PIN["version"]
PYODIDE_INTEGRITY: str = PIN["integrity"]
PYODIDE_TARBALL = f"pyodide-{PYODIDE_VERSION}.tgz"
PYODIDE_URL = f"https://registry.npmjs.org/pyodide/-/{PYODIDE_TARBALL}"
#: The runtime's files the page loads (the rest of the npm package is not needed).
PYODIDE_FILES = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")
#: Where ``.ci/system-deps`` leaves the tarball and the tests look for it.
PYODIDE_ENV = "FR_PYODIDE_DIR"

#: A fixed date for every zip entry (the earliest a zip can hold), for reproducible bytes.
ZIP_DATE = (1980, 1, 1, 0, 0, 0)


def pyodide_cache() -> Path:
    """The folder holding the pinned runtime's tarball (``$FR_PYODIDE_DIR`` or the cache)."""
    env = os.environ.get(PYODIDE_ENV)
    if env:
        return Path(env)
    return Path.home() / ".cache" / "fantasy-scorer" / "pyodide"


def integrity_of(data: bytes) -> str:
    """npm's ``integrity`` of a tarball: ``sha512-`` and the base64 digest."""
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def read_pyodide(source: Path | None) -> dict[str, bytes]:
    """The runtime's files from the pinned tarball: in ``source`` (a folder holding
    ``pyodide-VERSION.tgz``, as ``npm pack pyodide@VERSION`` leaves it), else in the cache,
    else downloaded from the npm registry into the cache. The tarball must match the
    published checksum."""
    folder = source if source is not None else pyodide_cache()
    if source is not None and not source.is_dir():
        raise ScorerError(f"--pyodide {source}: no such folder (it should hold "
                          f"{PYODIDE_TARBALL}, from: npm pack pyodide@{PYODIDE_VERSION})")
    tarball = folder / PYODIDE_TARBALL
    if tarball.is_file():
        data = tarball.read_bytes()
    elif source is not None:
        raise ScorerError(f"--pyodide {source}: no {PYODIDE_TARBALL} in it; get it with: "
                          f"npm pack pyodide@{PYODIDE_VERSION}")
    else:
        data = _download(tarball)
    if integrity_of(data) != PYODIDE_INTEGRITY:
        raise ScorerError(f"{tarball}: checksum does not match Pyodide {PYODIDE_VERSION}'s "
                          "published one; delete it and fetch it again")
    files: dict[str, bytes] = {}
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        for name in PYODIDE_FILES:
            member = tar.extractfile(f"package/{name}")
            if member is None:
                raise ScorerError(f"{tarball}: no package/{name} in it")
            files[name] = member.read()
    return files


def _download(tarball: Path) -> bytes:
    try:
        with urllib.request.urlopen(PYODIDE_URL, timeout=120) as r:  # noqa: S310 (a fixed https URL)
            data = r.read()
    except OSError as e:
        raise ScorerError(f"cannot download {PYODIDE_URL} ({e}); fetch it elsewhere with "
                          f"npm pack pyodide@{PYODIDE_VERSION} and pass its folder to "
                          "--pyodide") from None
    if integrity_of(data) == PYODIDE_INTEGRITY:
        # written whole under a temporary name, then renamed: another process (a second test
        # worker, a second build) never reads half a tarball
        part = tarball.with_name(f"{tarball.name}.{os.getpid()}.part")
        try:
            tarball.parent.mkdir(parents=True, exist_ok=True)
            part.write_bytes(data)
            os.replace(part, tarball)
        except OSError:
            part.unlink(missing_ok=True)
    return data


# --------------------------------------------------------------------------------------------
# The package, for Pyodide
# --------------------------------------------------------------------------------------------

#: What of the package the browser needs: its code and its JSON data (no YAML, no page assets).
KEEP_SUFFIXES = (".py", ".json")
SKIP_PARTS = ("__pycache__", "static", "templates")


def deterministic_zip(entries: dict[str, bytes]) -> bytes:
    """A zip of ``entries`` that depends on nothing else: sorted, one date, one mode."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for name in sorted(entries):
            info = zipfile.ZipInfo(name, ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, entries[name])
    return buf.getvalue()


def package_entries() -> dict[str, bytes]:
    """The package's ``.py`` and ``.json`` files, by their path in the zip."""
    out = {}
    for path in sorted(PACKAGE.rglob("*")):
        rel = path.relative_to(PACKAGE.parent)
        if (path.is_file() and path.suffix in KEEP_SUFFIXES
                and not any(p in SKIP_PARTS for p in rel.parts)):
            out[rel.as_posix()] = path.read_bytes()
    return out


_PICKLE_PROGRAM = """
import pickle, sys
from fantasy_scorer.realms.catalog import Catalog, load_into, shipped_files, shipped_text
out = {}
for exp in (None, "cursed-hoards"):
    for ed in (None, "deluxe"):
        cat = Catalog()
        for name in shipped_files(exp, ed):
            load_into(cat, shipped_text(name), name)
        out[(exp, ed)] = cat
sys.stdout.buffer.write(pickle.dumps(out, protocol=4))
"""


def compiled_catalogs() -> bytes:
    """Every shipped game's catalog compiled from the YAML and pickled, in a process with a
    fixed hash seed (a set's order, hence the pickle's bytes, depends on it)."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run([sys.executable, "-c", _PICKLE_PROGRAM], capture_output=True,
                          env=env, cwd=str(PACKAGE.parent), check=False)
    if done.returncode != 0:
        tail = done.stderr.decode(errors="replace").strip().splitlines()[-1:]
        raise ScorerError(f"cannot compile the cards for the site: {' '.join(tail)}")
    return done.stdout


# --------------------------------------------------------------------------------------------
# The site
# --------------------------------------------------------------------------------------------


@dataclass
class Site:
    """The files of the site being built, by their path in it."""

    files: dict[str, bytes] = field(default_factory=dict)
    version: str = ""


#: Pages of the site besides the static files: name -> function writing its bytes (called
#: once the version is known). ``index.html`` is the scoring page.
PAGES: dict[str, Callable[[Site], bytes]] = {}


def render_shell(version: str) -> str:
    """The page's template rendered as the server renders an address without a hand, in
    English, for the ``worker`` engine: the script then draws the address's hand itself."""
    import asyncio

    from jinja2 import Environment, FileSystemLoader, select_autoescape

    from . import page
    from .games import Games

    env = Environment(loader=FileSystemLoader(HERE / "templates"),
                      autoescape=select_autoescape(["html"]))
    view = page.empty_view(Games(), {})
    with ThreadPoolExecutor(1) as pool:  # (a thread of its own: the caller may run a loop)
        ctx = pool.submit(asyncio.run, page.context(view, None, version,
                                                    engine_mode="worker")).result()
    html = env.get_template("index.html").render(ctx)
    return html.replace('href="/?', 'href="?')  # (a site may live in a folder of its host)


def _index(site: Site) -> bytes:
    return render_shell(site.version).encode()


PAGES["index.html"] = _index
PAGES.update(majesty_site.PAGES)


def build(out: Path, pyodide: Path | None = None, force: bool = False) -> Site:
    """Write the site into ``out`` (empty or new, unless ``force``); one-line errors."""
    if out.exists() and not out.is_dir():
        raise ScorerError(f"{out} is a file; give a folder for the site")
    if out.is_dir() and any(out.iterdir()) and not force:
        raise ScorerError(f"{out} is not empty; choose an empty folder or add --force "
                          "(which replaces its content)")
    site = Site()
    runtime = read_pyodide(pyodide)
    for name, data in runtime.items():
        site.files[f"pyodide/{name}"] = data
    entries = package_entries()
    entries["catalogs.pickle"] = compiled_catalogs()
    entries.update(sitepyc.compiled_modules(runtime, deterministic_zip(entries),
                                            pyodide_cache()))
    site.files["py/fantasy_scorer.zip"] = deterministic_zip(entries)
    for path in sorted((HERE / "static").iterdir()):
        if path.is_file() and path.name != "sw.js":
            site.files[f"static/{path.name}"] = path.read_bytes()
    for name, data in sitedata.data_files().items():
        site.files[f"data/{name}"] = data
    from . import icons, page

    for size in icons.SIZES:
        site.files[f"icon-{size}.png"] = icons.png(size)
    site.files["manifest.webmanifest"] = sitedata.dumps(page.manifest("en", relative=True))
    digest = hashlib.sha256()
    for name in sorted(site.files):
        digest.update(name.encode() + b"\0" + site.files[name])
    for name in sorted(PAGES):  # (the pages' sources count too)
        digest.update(name.encode())
    digest.update((HERE / "templates" / "index.html").read_bytes())
    digest.update((HERE / "static" / "sw.js").read_bytes())
    site.version = digest.hexdigest()[:12]
    for name, render in sorted(PAGES.items()):
        site.files[name] = render(site)
    site.files["sw.js"] = service_worker(site)
    _write(out, site, force)
    return site


def service_worker(site: Site) -> bytes:
    """``static/sw.js`` with the site's version and its list of files (every one of them,
    so that the site works offline after the first visit)."""
    listed = sorted(["./", *[n for n in site.files if n != "sw.js"]])
    text = (HERE / "static" / "sw.js").read_text(encoding="utf-8")
    text = text.replace("__VERSION__", site.version)
    return text.replace('["__FILES__"]', json.dumps(listed)).encode()


def _write(out: Path, site: Site, force: bool) -> None:
    parent = out.resolve().parent
    parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".site-", dir=parent))
    try:
        for name, data in site.files.items():
            path = tmp / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        if out.exists():
            if force:
                shutil.rmtree(out)
            else:
                out.rmdir()
        tmp.rename(out)
    except OSError as e:
        shutil.rmtree(tmp, ignore_errors=True)
        raise ScorerError(f"cannot write the site: {e.strerror or e}", str(out)) from None
