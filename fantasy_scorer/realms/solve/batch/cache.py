"""Where the compiled code lives: shipped in the package, kept per user, checked before use.

**Keyed on the sources' content.** The compiled functions read the table layout of
``tables.py`` and call each other across files, so code compiled against another version of
any of them would read the wrong fields (and crash). Every compiled function of this package
is therefore cached under one directory named after a digest of :data:`SOURCES` (their
content, not their time stamps), by a cache locator of our own (:class:`Locator`), which
also gives Numba that digest as the source stamp it checks. Numba's own locators name the
directory after the source file's *path*, so code compiled when the package was built would
not be found once it is installed elsewhere; with this one it is.

**Shipped in the package.** The build (``build_support/fantasy_build.py``) compiles
everything once and puts the files into the wheel (:data:`SHIPPED`, with a stamp naming the
digest and the Numba, NumPy and Python it was compiled with). The first process that needs
them copies them into the user's directory (:func:`ready`): Numba writes there too, when it
compiles something new (a homebrew card file, another signature), and the package directory
may be read-only. The user's directory is ``NUMBA_CACHE_DIR`` when set, else
``~/.cache/fantasy-scorer/numba``, with one folder per digest.

**Checked before use.** A damaged file (a truncated compiled module maps past its end and
kills the process with SIGBUS; a damaged Numba index raises from deep inside a search) is
found before anything reads it: the directory keeps a manifest of the files it has checked
(size and modification time); a file that is new or changed since is read through before use
(:func:`_intact`; Numba's files opcode by opcode, which imports nothing).
A damaged one is moved aside (into ``damaged/`` beside the folders) with
one line on standard error saying so, and rebuilt: copied again from the package when it
ships it, else compiled again on first use (``fr-score compile`` rebuilds everything).
"""

from __future__ import annotations

import hashlib
import json
import os
import pickletools
import shutil
import sys
import threading
import time
from functools import cache
from pathlib import Path

#: The files whose code or constants the compiled functions depend on (under realms/solve).
SOURCES = ("batch/tables.py", "batch/kernel.py", "batch/search.py",
           "batch/lines.py", "sweep_kernel.py")
_SOLVE = Path(__file__).resolve().parent.parent
#: Where the build puts the compiled code inside the package.
SHIPPED = Path(__file__).resolve().parent / "compiled"
STAMP = "stamp.json"  # what the shipped files were compiled for
MANIFEST = "checked.json"  # the files of a user's folder checked intact: name -> [size, mtime]
#: The suffixes of the files kept here: Numba's index and data, the module built ahead of time
#: (``aot.py``) and its stamp.
KINDS = (".nbi", ".nbc", ".so", ".pyd", ".json")

# Reentrant: reading a Numba index back may import a module of compiled functions, whose
# definition asks for the folder again (answered at once: :data:`_busy`).
_lock = threading.RLock()
_ready: set[str] = set()
_busy: set[str] = set()


@cache
def digest() -> str:
    """The digest of :data:`SOURCES`, read once a process (it is asked on every search the
    cost planner weighs, and the files do not change under a running process)."""
    h = hashlib.sha1()
    for name in SOURCES:
        h.update((_SOLVE / name).read_bytes())
    return h.hexdigest()[:12]


def root() -> Path:
    """The user's folder of compiled code (one folder per digest inside)."""
    base = os.environ.get("NUMBA_CACHE_DIR")
    return Path(base) if base else Path.home() / ".cache" / "fantasy-scorer" / "numba"


def cache_dir() -> str:
    """This version's folder in the user's cache (made ready on first use: :func:`ready`)."""
    return str(ready())


def stamp() -> dict:
    """What compiled code must have been compiled for, besides its sources: this Numba
    (Numba's own cache checks it too), this Python, and NumPy's major version (the C
    extension of ``aot.py`` uses NumPy's binary interface, the same within a major version:
    a build's isolated environment may hold another minor version than the user's)."""
    return {"digest": digest(), "numba": _version("numba"), "numpy": numpy_major(),
            "python": f"{sys.implementation.cache_tag}"}


def numpy_major() -> str:
    import numpy as np

    return str(np.__version__).split(".")[0]


def _version(dist: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(dist)
    except PackageNotFoundError:
        return "?"


def ready() -> Path:
    """This version's folder, seeded from the package and checked, once a process."""
    folder = root() / f"code-{digest()}"
    key = str(folder)
    if key in _ready:
        return folder
    with _lock:
        if key in _ready or key in _busy:
            return folder
        _busy.add(key)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            checked = _check(folder)
            if not checked.get(STAMP) and _shipped_fits():
                _seed(folder, checked)
        except OSError:
            pass  # a read-only home: Numba's own locators take over (see Locator)
        finally:
            _busy.discard(key)
            _ready.add(key)
    return folder


def _shipped_fits() -> bool:
    """Whether the package ships compiled code for these sources, this Numba and NumPy."""
    try:
        shipped = json.loads((SHIPPED / STAMP).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return shipped == stamp()


def _seed(folder: Path, checked: dict) -> None:
    """Copy the package's compiled code into ``folder`` (each file whole, then renamed, so
    that a process reading meanwhile sees the old file or the new one), the stamp last."""
    names = sorted(p.name for p in SHIPPED.iterdir() if p.suffix in KINDS and p.name != STAMP)
    for name in [*names, STAMP]:
        target = folder / name
        tmp = folder / f".{name}.{os.getpid()}.tmp"
        shutil.copyfile(SHIPPED / name, tmp)
        os.replace(tmp, target)
        st = target.stat()
        checked[name] = [st.st_size, st.st_mtime_ns]
    _write_manifest(folder, checked)


def _check(folder: Path) -> dict:
    """The manifest of ``folder`` once every file not in it (or changed since) is read
    through: damaged ones are set aside (one line each on standard error) and restored from
    the package where it ships them."""
    try:
        checked = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        if not isinstance(checked, dict):
            checked = {}
    except (OSError, ValueError):
        checked = {}
    seen: dict = {}
    changed = False
    damaged: list[str] = []
    for entry in os.scandir(folder):
        name = entry.name
        if name == MANIFEST or name.startswith(".") or ".tmp." in name \
                or not name.endswith(KINDS) or not entry.is_file():
            continue
        st = entry.stat()
        now = [st.st_size, st.st_mtime_ns]
        if checked.get(name) == now:
            seen[name] = now
            continue
        changed = True
        if _intact(folder, name):
            seen[name] = now
        else:
            damaged.append(name)
    for name in damaged:
        _set_aside(folder, name, seen)
    if changed or len(seen) != len(checked):
        _write_manifest(folder, seen)
    return seen


def _intact(folder: Path, name: str) -> bool:
    """Whether the file reads through: a Numba index or data file is whole pickles, a compiled
    module has the size and digest its stamp recorded, a stamp is JSON."""
    path = folder / name
    try:
        if name.endswith(".json"):
            json.loads(path.read_text(encoding="utf-8"))
            return True
        if name.endswith((".so", ".pyd")):
            return _module_intact(path)
        # Numba's index: its version, then the pickled (stamp, overloads); a data file: one
        return _whole_pickles(path.read_bytes(), 2 if name.endswith(".nbi") else 1)
    except OSError:
        return True  # gone meanwhile (another process set it aside): nothing to read
    except Exception:  # noqa: BLE001 - any failure to read it back is damage
        return False


def _whole_pickles(data: bytes, count: int) -> bool:
    """Whether ``data`` is exactly ``count`` whole pickles, read opcode by opcode without
    running them: unpickling Numba's files would import Numba (their signatures name its
    types), and a process that only loads the module built ahead of time must not wait for
    that because another process compiled something new.

    >>> import pickle
    >>> _whole_pickles(pickle.dumps("0.68.1") + pickle.dumps(("stamp", {})), 2)
    True
    >>> _whole_pickles((pickle.dumps("0.68.1") + pickle.dumps(("stamp", {})))[:-3], 2)
    False
    """
    at = 0
    for _ in range(count):
        try:
            ops = pickletools.genops(data[at:])
            at += next(pos for op, _arg, pos in ops if op.name == "STOP") + 1
        except (ValueError, StopIteration):  # cut short, or not a pickle
            return False
    return at == len(data)


def _module_intact(path: Path) -> bool:
    """Whether the module built ahead of time matches the size and digest recorded beside
    it (``aot.py`` writes them): a truncated one would be mapped past its end."""
    try:
        meta = json.loads(path.with_suffix("").with_suffix(".json").read_text("utf-8"))
    except (OSError, ValueError):
        return False
    data = path.read_bytes()
    return meta.get("size") == len(data) and meta.get("sha256") == hashlib.sha256(
        data).hexdigest()


def _set_aside(folder: Path, name: str, checked: dict) -> None:
    aside = folder.parent / "damaged"
    aside.mkdir(parents=True, exist_ok=True)
    target = aside / f"{time.strftime('%Y%m%d-%H%M%S')}-{folder.name}-{name}"
    try:
        os.replace(folder / name, target)
    except FileNotFoundError:
        return  # another process set it aside first
    restored = (SHIPPED / name).is_file() and _shipped_fits()
    if restored:
        tmp = folder / f".{name}.{os.getpid()}.tmp"
        shutil.copyfile(SHIPPED / name, tmp)
        os.replace(tmp, folder / name)
        st = (folder / name).stat()
        checked[name] = [st.st_size, st.st_mtime_ns]
    how = "restored from the package" if restored else "it is compiled again when needed"
    print(f"fr-score: a damaged file of the compiled code's cache ({name}) was set aside in "
          f"{aside}; {how}.", file=sys.stderr)


def _write_manifest(folder: Path, checked: dict) -> None:
    tmp = folder / f".{MANIFEST}.{os.getpid()}.tmp"
    try:
        tmp.write_text(json.dumps(checked, sort_keys=True), encoding="utf-8")
        os.replace(tmp, folder / MANIFEST)
    except OSError:
        pass  # read-only: checked again next time


def recheck() -> None:
    """Check the folder again in this process (after a compile wrote to it, say)."""
    with _lock:
        _ready.clear()
    ready()


# --------------------------------------------------------------------------------------------
# Numba's side
# --------------------------------------------------------------------------------------------

_installed = False


def install() -> None:
    """Put :class:`Locator` first among Numba's cache locators (before any compiled function
    of this package is defined: Numba picks a function's locator when it is decorated)."""
    global _installed
    if _installed:
        return
    from numba.core import caching

    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
    impl._locator_classes.insert(0, _locator_class(caching))
    _installed = True


@cache
def _locator_class(caching):
    base = caching._CacheLocator

    class Locator(base):
        """Numba's cache for the functions of this package's compiled sources: this
        version's folder (:func:`ready`), the sources' digest as the stamp Numba checks."""

        def __init__(self, py_func, py_file):
            self._lineno = py_func.__code__.co_firstlineno

        def get_cache_path(self):
            return cache_dir()

        def get_source_stamp(self):
            return digest()

        def get_disambiguator(self):
            return str(self._lineno)

        @classmethod
        def from_function(cls, py_func, py_file):
            try:
                if Path(py_file).resolve().parent not in (_SOLVE, _SOLVE / "batch"):
                    return None
            except OSError:
                return None
            self = cls(py_func, py_file)
            try:
                self.ensure_cache_path()
            except OSError:
                return None  # not writable: Numba's own locators
            return self

    return Locator
