"""The folder of compiled code (``batch/cache.py``): seeded from the package, checked before use.

Issue 41, point 10: a truncated compiled module killed ``best`` and ``advise`` with SIGBUS, and
a damaged Numba index made ``score_many`` raise. Here each damaged file is found before anything
reads it, set aside with one line on standard error, and restored from the package where it
ships it. Nothing here compiles: the files are written by hand (a module's stamp, Numba's
index layout: its version pickled, then the pickled stamp and overloads).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import os
import pickle
import subprocess
import sys

import pytest

from fantasy_scorer.realms.solve.batch import aot, cache

MODULE = aot.NAME + importlib.machinery.EXTENSION_SUFFIXES[0]
INDEX = "kernel.resolve_batch-862.py311.nbi"


@pytest.fixture
def home(tmp_path, monkeypatch):
    """An empty cache, a package that ships nothing, and a process that has not looked yet."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(cache, "SHIPPED", tmp_path / "package-ships-nothing")
    monkeypatch.setattr(cache, "_ready", set())
    return tmp_path


def folder():
    return cache.root() / f"code-{cache.digest()}"


def module_files(data: bytes, size: int | None = None) -> dict[str, bytes]:
    """A module and the stamp aot.build writes beside it (size and digest of ``data``)."""
    stamp = {"build": aot._stamp(), "size": len(data) if size is None else size,
             "sha256": hashlib.sha256(data).hexdigest()}
    return {MODULE: data, aot.NAME + ".json": json.dumps(stamp).encode()}


def index_bytes(overloads: dict) -> bytes:
    return pickle.dumps("0.68.1") + pickle.dumps((cache.digest(), overloads))


def write(where, files: dict[str, bytes]) -> None:
    where.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (where / name).write_bytes(data)


def aside():
    damaged = cache.root() / "damaged"
    return sorted(p.name for p in damaged.iterdir()) if damaged.exists() else []


def test_a_truncated_module_is_set_aside_with_one_line_and_never_loaded(home, capsys) -> None:
    whole = b"\x7fELF" + bytes(range(256)) * 40
    files = module_files(whole)
    files[MODULE] = whole[:1000]  # cut short, as a full disk or a killed copy leaves it
    write(folder(), files)
    cache.ready()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and MODULE in err and "set aside" in err
    assert "compiled again" in err  # the source tree ships nothing to restore it from
    assert not (folder() / MODULE).exists()
    assert [n.endswith(MODULE) for n in aside()] == [True]
    assert aot.current() is None  # so the command line loads Numba's code instead


def test_an_intact_module_is_kept_and_found(home, capsys) -> None:
    write(folder(), module_files(b"\x7fELF" + bytes(300)))
    cache.ready()
    assert capsys.readouterr().err == ""
    assert aot.current() == folder() / MODULE
    assert aside() == []


def test_a_corrupted_numba_index_is_set_aside_and_a_sound_one_kept(home, capsys) -> None:
    good = "search.subsets_batch-300.py311.nbi"
    write(folder(), {INDEX: pickle.dumps("0.68.1") + b"\x80\x05garbage, not a pickle",
                     good: index_bytes({})})
    cache.ready()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and INDEX in err
    assert not (folder() / INDEX).exists() and (folder() / good).exists()
    manifest = json.loads((folder() / cache.MANIFEST).read_text())
    assert list(manifest) == [good]


def test_a_truncated_numba_data_file_is_set_aside(home, capsys) -> None:
    data = "kernel.resolve_batch-862.py311.1.nbc"
    write(folder(), {data: pickle.dumps((b"object code" * 100, "x"))[:50]})
    cache.ready()
    assert data in capsys.readouterr().err
    assert not (folder() / data).exists()


def test_a_checked_file_is_not_read_again_until_it_changes(home, monkeypatch, capsys) -> None:
    write(folder(), {INDEX: index_bytes({})})
    cache.ready()
    read = []
    monkeypatch.setattr(cache, "_intact", lambda f, name: read.append(name) or True)
    monkeypatch.setattr(cache, "_ready", set())  # a new process
    cache.ready()
    assert read == []  # same size and time as the manifest says: not read
    (folder() / INDEX).write_bytes(index_bytes({"a signature": "a data file"}))
    monkeypatch.setattr(cache, "_ready", set())
    cache.ready()
    assert read == [INDEX]
    assert capsys.readouterr().err == ""


def test_the_package_s_files_seed_an_empty_cache(home) -> None:
    shipped = home / "package"
    files = {**module_files(b"\x7fELF" + bytes(300)), INDEX: index_bytes({})}
    write(shipped, {**files, cache.STAMP: json.dumps(cache.stamp()).encode()})
    cache.SHIPPED = shipped  # restored by the fixture's monkeypatch
    cache.ready()
    for name, data in files.items():
        assert (folder() / name).read_bytes() == data
    assert (folder() / cache.STAMP).exists()
    assert aot.current() == folder() / MODULE


def test_files_shipped_for_another_numba_are_not_used(home) -> None:
    shipped = home / "package"
    other = dict(cache.stamp(), numba="0.0.1")
    write(shipped, {INDEX: index_bytes({}), cache.STAMP: json.dumps(other).encode()})
    cache.SHIPPED = shipped
    cache.ready()
    assert not (folder() / INDEX).exists()


def test_a_damaged_file_the_package_ships_is_restored_from_it(home, capsys) -> None:
    shipped = home / "package"
    whole = b"\x7fELF" + bytes(range(256)) * 40
    write(shipped, {**module_files(whole), cache.STAMP: json.dumps(cache.stamp()).encode()})
    cache.SHIPPED = shipped
    cache.ready()  # seeded
    (folder() / MODULE).write_bytes(whole[:100])  # then damaged
    cache._ready.clear()  # a new process
    cache.ready()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "restored from the package" in err
    assert (folder() / MODULE).read_bytes() == whole
    assert aot.current() == folder() / MODULE


def test_checking_a_new_numba_index_does_not_import_numba(home) -> None:
    # Another process compiled a new signature: its index names Numba's types. Reading that
    # through by unpickling imported Numba, so the next ``fr-score advise`` waited for it
    # although it runs the module built ahead of time (a test of that failed so, issue 36).
    from numba.core import types

    overloads = {((types.int64[::1],), "cpu"): "search.subsets_batch-300.py311.1.nbc"}
    write(folder(), {"search.subsets_batch-300.py311.nbi": index_bytes(overloads),
                     cache.STAMP: json.dumps(cache.stamp()).encode()})
    program = ("import sys; from fantasy_scorer.realms.solve.batch import cache; "
               "cache.ready(); print(sorted(m for m in sys.modules if m.startswith('numba')))")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          env=dict(os.environ, NUMBA_CACHE_DIR=str(home / "cache")),
                          check=True, timeout=120)
    assert done.stdout.strip() == "[]", done.stderr
    assert done.stderr == ""  # nothing set aside: the index is whole
    manifest = json.loads((folder() / cache.MANIFEST).read_text())
    assert "search.subsets_batch-300.py311.nbi" in manifest  # checked, and so recorded
