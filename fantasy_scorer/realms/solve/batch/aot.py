"""The compiled entry points as a C extension built ahead of time, for the command line.

A new process that calls Numba's cached code waits before the first call: to import Numba,
and for Numba to set up its compiler's registries, which it does even to
load cached code. The searches themselves take far less,
so in ``fr-score best`` or ``fr-score advise`` that wait was most of the answer (and most of
``advise``'s one-second budget). The package's build (``warmup.ship``), and ``fr-score
compile`` where the package was built without it, therefore also build the entry points
of :data:`SIGNATURES` into one C extension with Numba's ahead-of-time compiler
(``numba.pycc``), from the very same Python functions the Numba code is compiled from. Loading
it needs numpy and the module, and no Numba. Its functions release the GIL
while they run, as Numba's ``nogil`` code does, so that two threads share a search here too
(:func:`_releasing_the_gil`; a Numba that cannot build it so builds nothing, and the command
line loads Numba's code).

Every process uses it where it is present: a script's first ``advise`` (issue 36: an
answer within its budget from the first call of a process) waits for numpy and the module,
not for Numba. ``fr-score serve`` turns it off (:func:`prefer`): a long-running server pays
Numba's load once, and its other compiled searches are Numba's anyway. Both run the same
source; the tests compare them.

The module lives beside the Numba cache, in the directory named after a digest of the compiled
sources (``cache.py``, which also copies it there from the wheel and checks its size and
digest before it is loaded), under the interpreter's own extension suffix, with the numpy
major version and the signatures it was built for beside it: after any change to those it is
simply not
there, and everything runs on Numba's code as before (the cost planner, :mod:`..plan`, knows
which is present).
Numba marks ``pycc`` as pending deprecation, and the build needs a C compiler: when it fails,
``fr-score compile`` says why and nothing else changes.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import importlib.util
import json
import os
import tempfile
import warnings
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from .cache import cache_dir, numpy_major, recheck

_A1, _A2, _A3 = "i8[::1]", "i8[:,::1]", "i8[:,:,::1]"  # C-contiguous int64 arrays
#: The entry points the command line calls: the module of each, and the one signature it is
#: always called with (what Numba's code is compiled for, too).
SIGNATURES: dict[str, tuple[str, str]] = {
    "subsets_batch": ("search", f"void({_A1}, {_A1}, {_A1}, {_A2}, i8, {_A1}, i8, {_A1}, {_A2}, "
                                f"b1, {_A1}, b1, i8, {_A1}, i8, {_A2}, {_A3})"),
    "optimal_batch": ("search", f"void({_A1}, {_A1}, {_A2}, {_A1}, {_A2}, {_A2}, b1[::1], {_A2})"),
    "resolve_batch": ("kernel", f"void({_A1}, {_A1}, {_A2}, {_A3}, {_A1}, {_A2}, {_A2}, "
                                f"b1[::1], {_A1}, {_A1})"),
}
NAME = "fantasy_scorer_aot"


class BuildError(Exception):
    """The module could not be built (the reason, in one line)."""


def module_path() -> Path:
    """Where the module is (or would be) for the sources and interpreter of this process."""
    return Path(cache_dir()) / (NAME + importlib.machinery.EXTENSION_SUFFIXES[0])


def _stamp_path() -> Path:
    return module_path().with_name(NAME + ".json")


def _numpy_version() -> str:
    """NumPy's major version: its binary interface is the same within one (see
    ``cache.stamp``)."""
    return numpy_major()


def _stamp() -> dict:
    """What a built module must have been built for, besides its sources: this numpy and
    these signatures."""
    return {"numpy": _numpy_version(), "signatures": {k: v[1] for k, v in SIGNATURES.items()},
            "gil": "released"}


_preferred = True
_loaded: ModuleType | None | bool = False  # False: not looked for yet


def prefer(on: bool = True) -> None:
    """Use the built module in this process wherever it is present (the default), or not."""
    global _preferred, _loaded
    _preferred, _loaded = on, False


def usable() -> bool:
    """Whether this process would run the built module (preferred and present; a file check
    only, so that the cost planner can ask it of every pool)."""
    return _preferred and module_path().exists()


def loaded() -> bool:
    """Whether the built module is loaded in this process."""
    return isinstance(_loaded, ModuleType)


def native() -> ModuleType | None:
    """The built module when this process uses it (see :func:`prefer`), else None."""
    global _loaded
    if _loaded is False:
        _loaded = _load() if usable() else None
    return _loaded if isinstance(_loaded, ModuleType) else None


def current() -> Path | None:
    """The built module's path when it is there, built against this numpy with these
    signatures (its size and digest are checked by ``cache.ready`` before anything loads
    it: a truncated module would be mapped past its end)."""
    try:
        stamp = json.loads(_stamp_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    fresh = isinstance(stamp, dict) and stamp.get("build") == _stamp() and \
        module_path().exists()
    return module_path() if fresh else None


def _load() -> ModuleType | None:
    if current() is None:
        return None  # built against another numpy: its binary layout may differ
    try:
        spec = importlib.util.spec_from_file_location(NAME, module_path())
        if spec is None or spec.loader is None:
            return None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except (OSError, ValueError, ImportError):
        return None
    if not all(hasattr(module, name) for name in SIGNATURES):
        return None
    return module


def entry(name: str) -> Any:
    """The compiled function ``name`` of :data:`SIGNATURES`: the built module's where this
    process uses it (through :func:`_checked`), else Numba's."""
    module = native()
    if module is not None:
        return _checked(name, getattr(module, name))
    source = importlib.import_module(f"{__package__}.{SIGNATURES[name][0]}")
    return getattr(source, name)


def _arrays(signature: str) -> list[tuple[str, int] | None]:
    """Per argument of ``signature``: (numpy dtype name, dimensions) of an array, None for
    a scalar."""
    out: list[tuple[str, int] | None] = []
    for arg in signature[signature.index("(") + 1:-1].replace("::1", "").split(", "):
        kind = {"i8": "int64", "b1": "bool"}[arg.split("[")[0]]
        out.append((kind, arg.count(":") + 1) if "[" in arg else None)
    return out


@cache
def _checked(name: str, fn: Any) -> Any:
    """``fn`` refusing arrays of another type, shape or layout. Numba's code would compile
    itself anew for them; the built module, compiled for one signature, would read their
    memory as if they matched (a float array is read as integers), so a caller's
    mistake would be a wrong answer instead of an error. One wrapper per function: the
    scorers ask :func:`entry` on every call."""
    wanted = _arrays(SIGNATURES[name][1])

    def call(*args: Any) -> Any:
        if len(args) != len(wanted):
            raise TypeError(f"{name} takes {len(wanted)} arguments, not {len(args)}")
        for i, (arg, want) in enumerate(zip(args, wanted, strict=True)):
            if want is not None and not (
                    getattr(arg, "dtype", None) == want[0] and arg.ndim == want[1]
                    and arg.flags.c_contiguous):
                raise TypeError(f"{name}: argument {i + 1} must be a C-contiguous {want[0]} "
                                f"array of {want[1]} dimension(s)")
        return fn(*args)

    call.native = fn  # type: ignore[attr-defined]
    return call


def build() -> Path:
    """Build the module for this process's sources and interpreter (a slow step); its
    path. Raises :class:`BuildError` with the reason."""
    global _loaded
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # pycc's pending deprecation: handled by falling back
            from numba.pycc import CC
    except ImportError as e:
        raise BuildError(f"this Numba has no ahead-of-time compiler ({e})") from None
    target = module_path()
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=target.parent) as tmp:
            _compile(CC, tmp)
            built = [f for f in os.listdir(tmp) if f.startswith(NAME)]
            if not built:
                raise BuildError("the C extension did not build: no module was written")
            data = Path(tmp, built[0]).read_bytes()
            # the stamp first: a module found without its stamp is never loaded
            _stamp_path().write_text(json.dumps(
                {"build": _stamp(), "size": len(data),
                 "sha256": hashlib.sha256(data).hexdigest()}), encoding="utf-8")
            os.replace(os.path.join(tmp, built[0]), target)
    except OSError as e:
        raise BuildError(f"cannot write to {target.parent}: {e.strerror or e}") from None
    _loaded = False  # look again
    recheck()  # the new files, into the folder's manifest
    return target


def _compile(compiler, folder: str) -> None:
    """Export :data:`SIGNATURES` with ``compiler`` (numba.pycc's CC) into ``folder``."""
    cc = compiler(NAME)
    cc.output_dir = folder
    for name, (module, signature) in SIGNATURES.items():
        source = importlib.import_module(f"{__package__}.{module}")
        cc.export(name, signature)(getattr(source, name).py_func)
    try:
        with warnings.catch_warnings(), _releasing_the_gil():
            warnings.simplefilter("ignore")
            cc.compile()
    except Exception as e:  # a missing C compiler, a Numba that cannot do it: the reason
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise BuildError(f"the C extension did not build: {first}") from None


@contextmanager
def _releasing_the_gil():
    """While it is open, the functions pycc compiles release the GIL while they run, as
    Numba's ``nogil=True`` code does, so that two threads share a search in the command line
    too. pycc has no option for it: it compiles each export with the flags of a
    ``Flags()`` it makes itself, so the class it makes them from is, for the build, one whose
    flags say so (``release_gil``; Numba's own wrapper then lets the GIL go around the call).
    A Numba whose pycc makes them otherwise cannot build the module (:class:`BuildError`)."""
    from numba.pycc import compiler as pycc

    plain = getattr(pycc, "Flags", None)
    if not isinstance(plain, type) or not hasattr(plain(), "release_gil"):
        raise BuildError("this Numba's ahead-of-time compiler cannot release the GIL")

    class Released(plain):  # type: ignore[misc, valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.release_gil = True

    pycc.Flags = Released
    try:
        yield
    finally:
        pycc.Flags = plain
