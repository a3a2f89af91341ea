"""``fr-score site``: the static site's build, its errors, and the dispatcher both faces call.

The browser runs the package on the standard library alone: a process in which NumPy, Numba,
OR-Tools, PyYAML and click cannot be imported boots the site's Python (the same zip the worker
unpacks) and scores, explains and advises with it. The totals are the rules' worked example
(hand-260: Mountain 59, Great Flood 32, Smoke 27, Whirlwind 53, Air Elemental 49, Wildfire 40,
Mirage as Rainstorm 0 = 260).
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from fantasy_scorer.cli.main import main
from fantasy_scorer.web import calls, messages, site, sitepyc

from .site_fixtures import need_node, pyodide_dir

HAND_260 = ["Mountain", "Great Flood", "Smoke", "Whirlwind", "Air Elemental", "Wildfire",
            "Mirage"]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site") / "public"
    result = CliRunner().invoke(main, ["site", str(out), "--pyodide", str(pyodide_dir())])
    assert result.exit_code == 0, result.output
    return out


def files_of(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_the_build_is_reproducible(built, tmp_path) -> None:
    again = tmp_path / "again"
    result = CliRunner().invoke(main, ["site", str(again), "--pyodide", str(pyodide_dir())])
    assert result.exit_code == 0, result.output
    first, second = files_of(built), files_of(again)
    assert sorted(first) == sorted(second)
    differ = [name for name in first if first[name] != second[name]]
    assert differ == []


def test_the_site_holds_the_page_the_engine_and_the_runtime(built) -> None:
    files = files_of(built)
    for name in ("index.html", "sw.js", "manifest.webmanifest", "icon-192.png",
                 "static/app.js", "static/engine.js", "static/worker.js", "static/style.css",
                 "data/cards.json", "data/words-de.json", "py/fantasy_scorer.zip",
                 *(f"pyodide/{n}" for n in site.PYODIDE_FILES)):
        assert name in files, name
    html = files["index.html"].decode()
    assert '<meta name="fs-engine" content="worker">' in html
    # every address is relative: the site may live in a folder of its host
    assert 'src="/' not in html and 'href="/' not in html
    sw = files["sw.js"].decode()
    listed = json.loads(sw.split("const FILES = ", 1)[1].split(";", 1)[0])
    assert sorted(listed) == sorted(["./", *(n for n in files if n != "sw.js")])
    names = zipfile.ZipFile(built / "py" / "fantasy_scorer.zip").namelist()
    assert "fantasy_scorer/web/calls.py" in names and "catalogs.pickle" in names
    assert not [n for n in names if n.endswith(".yaml")]
    # the modules the browser imports first, compiled by the site's Python (3.13), beside
    # their sources; nothing compiled for another Python
    need_node()
    pyc = [n for n in names if n.endswith(".pyc")]
    assert "fantasy_scorer/web/__pycache__/calls.cpython-313.pyc" in pyc
    assert all(".cpython-313." in n and "/__pycache__/" in n for n in pyc)
    assert not [n for n in pyc if "/cli/" in n]  # the command line is never imported there


def test_the_compiled_modules_are_the_same_bytes_each_time(tmp_path) -> None:
    # two compilations by two runs of the runtime under node, with no cache between them
    need_node()
    runtime = site.read_pyodide(pyodide_dir())
    entries = site.package_entries()
    entries["catalogs.pickle"] = site.compiled_catalogs()
    sources = site.deterministic_zip(entries)
    first = sitepyc.compiled_modules(runtime, sources, tmp_path / "a")
    second = sitepyc.compiled_modules(runtime, sources, tmp_path / "b")
    assert first and first == second


def test_the_server_and_the_site_serve_the_same_page_files(built, client) -> None:
    for name in ("app.js", "engine.js", "worker.js", "style.css"):
        assert client.get(f"/static/{name}").content == (built / "static" / name).read_bytes()
    for name in ("cards.json", "words-de.json"):
        assert client.get(f"/data/{name}").content == (built / "data" / name).read_bytes()


# --------------------------------------------------------------------------------------------
# One-line errors, exit code 2
# --------------------------------------------------------------------------------------------


def run_site(*args: str):
    return CliRunner().invoke(main, ["site", *args])


def test_a_missing_pyodide_folder_is_one_line(tmp_path) -> None:
    result = run_site(str(tmp_path / "out"), "--pyodide", str(tmp_path / "nowhere"))
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and "no such folder" in result.output
    assert "npm pack pyodide@" in result.output


def test_a_tarball_with_another_checksum_is_refused(tmp_path) -> None:
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / site.PYODIDE_TARBALL).write_bytes(b"not the published runtime")
    result = run_site(str(tmp_path / "out"), "--pyodide", str(bad))
    assert result.exit_code == 2
    assert "checksum does not match" in result.output and result.output.count("\n") == 1
    assert not (tmp_path / "out").exists()


def test_a_folder_that_is_not_empty_needs_force(tmp_path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    result = run_site(str(out), "--pyodide", str(pyodide_dir()))
    assert result.exit_code == 2 and "--force" in result.output
    assert (out / "keep.txt").read_text() == "mine"


def test_a_download_is_saved_whole_only_when_its_checksum_matches(tmp_path, monkeypatch
                                                                   ) -> None:
    # the registry is stood in for (a response reads like a file: BytesIO): a tarball whose
    # checksum is the pinned one is saved under its name (written whole, then renamed: no
    # partial file is left), any other is not
    good, bad = b"the pinned runtime", b"something else"
    monkeypatch.setattr(site, "PYODIDE_INTEGRITY", site.integrity_of(good))
    tarball = tmp_path / "cache" / site.PYODIDE_TARBALL
    monkeypatch.setattr(site.urllib.request, "urlopen", lambda url, timeout: io.BytesIO(bad))
    assert site._download(tarball) == bad
    assert not tarball.parent.exists() or not any(tarball.parent.iterdir())
    monkeypatch.setattr(site.urllib.request, "urlopen", lambda url, timeout: io.BytesIO(good))
    assert site._download(tarball) == good
    assert tarball.read_bytes() == good
    assert [p.name for p in tarball.parent.iterdir()] == [site.PYODIDE_TARBALL]


def test_the_published_integrity_is_npms_sha512() -> None:
    # npm's integrity of the bytes "abc": sha512, base64 (RFC 6234's test vector in base64)
    assert site.integrity_of(b"abc") == (
        "sha512-3a81oZNherrMQXNJriBBMRLm+k6JqX6iCp7u5ktV05ohkpkqJ0/BqDa6PCOj/uu9RU1EI2Q86A4qmslPp"
        "Uyknw==")


# --------------------------------------------------------------------------------------------
# The dispatcher (calls.py)
# --------------------------------------------------------------------------------------------


def test_call_scores_the_worked_example() -> None:
    status, data = calls.call("score", {"cards": HAND_260})
    assert status == 200 and data["total"] == 260
    assert [c["points"] for c in data["cards"]] == [59, 32, 27, 53, 49, 40, 0]


def test_the_explanation_gives_each_cards_printed_text_in_the_requests_language() -> None:
    # Mountain's printed text: "+50 with both Smoke and Wildfire. Clears the penalty of every
    # Flood.", keyed by the name the trace gives the card, its names in the language asked
    status, data = calls.call("explain", {"cards": HAND_260, "lang": "de"})
    assert status == 200
    assert "   Gebirge: 9 + 50 = 59" in data["text"].splitlines()
    assert data["card_texts"]["Gebirge"] == ("+50 with both Rauch and Buschfeuer. Clears the "
                                             "penalty of every Flut.")
    english = calls.call("explain", {"cards": HAND_260})[1]["card_texts"]
    assert english["Air Elemental"] == "+15 per other Weather."
    assert len(english) == 7  # every card of the hand, Mirage's own text too


def test_call_answers_a_refusal_in_the_requests_language() -> None:
    status, data = calls.call("score", {"cards": ["Mountain", "Mountain"], "lang": "de"})
    assert status == 400
    # the German sentence of i18n/de.json with Mountain's German name (Gebirge)
    assert data["detail"] == messages.text("de", "error.twice", card="Gebirge")
    assert data["detail"].startswith("Gebirge ")


def test_call_refuses_bad_bodies_and_unknown_kinds() -> None:
    assert calls.call("score", {"cards": "Mountain"})[0] == 422
    assert calls.call("score", {"cards": [], "colour": "red"}) == (
        422, {"detail": "colour: Extra inputs are not permitted"})
    status, data = calls.call("nonsense", {})
    assert status == 404 and "score" in data["detail"]


def test_calls_is_a_plain_registry() -> None:
    def echo(body):
        return {"echo": body["x"]}

    calls.CALLS["echo-test"] = echo
    try:
        assert calls.call("echo-test", {"x": 3}) == (200, {"echo": 3})
    finally:
        del calls.CALLS["echo-test"]


BROWSER_PROGRAM = r"""
import importlib.abc, json, sys, zipfile

class NoNative(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("numpy", "numba", "ortools", "yaml", "click", "llvmlite"):
            raise ImportError(f"{name} is not in the browser")
        return None

sys.meta_path.insert(0, NoNative())
site = sys.argv[1]
zipfile.ZipFile(sys.argv[2]).extractall(site)
sys.path.insert(0, site)
from fantasy_scorer.web import browser
browser.boot(site + "/catalogs.pickle")
hand = ["FR01", "FR08", "FR13", "FR14", "FR15", "FR16", "FR52"]
out = {}
for kind, body in [("score", {"cards": hand}), ("explain", {"cards": hand}),
                   ("best", {"cards": hand + ["FR11"]}),
                   ("advise", {"cards": hand + ["FR11"], "players": 4}),
                   ("read", {"query": "hand=FR01,FR08,FR13,FR14,FR15,FR16,FR52%2B&playerCount=4"})]:
    out.setdefault(kind, []).append(json.loads(browser.handle(kind, json.dumps(body))))
out["native"] = sorted(m for m in sys.modules if m.split(".")[0] in browser.NATIVE)
print(json.dumps(out))
"""


def test_the_browsers_python_needs_no_native_module(built, tmp_path) -> None:
    done = subprocess.run([sys.executable, "-I", "-c", BROWSER_PROGRAM, str(tmp_path / "py"),
                           str(built / "py" / "fantasy_scorer.zip")],
                          capture_output=True, text=True, cwd=tmp_path, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(done.stdout)
    assert out["native"] == []
    score = out["score"][0]
    assert score["status"] == 200 and score["body"]["total"] == 260
    assert out["explain"][0]["body"]["text"].splitlines()[-1] == "Total: 260"
    # 8 cards: letting Rainstorm go keeps the worked example's 260 (Mirage copies it)
    best = out["best"][0]["body"]["discards"][0]
    assert (best["id"], best["total"]) == ("FR11", 260)
    # no compiled scorer here: the look-ahead scores in pure Python, with the browser's budget
    # of samples (one at least; the page prints how many), and still recommends a discard
    advise = out["advise"][0]
    assert advise["status"] == 200, advise
    assert advise["body"]["samples"] >= 1
    eight = {"FR01", "FR08", "FR13", "FR14", "FR15", "FR16", "FR52", "FR11"}
    assert {o["id"] for o in advise["body"]["options"]} <= eight
    read = out["read"][0]["body"]
    assert read["cards"] == ["FR01", "FR08", "FR13", "FR14", "FR15", "FR16", "FR52"]
    assert read["players"] == 4
