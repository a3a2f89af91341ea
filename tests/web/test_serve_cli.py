"""``fr-score serve``: it starts uvicorn on the given address, and says how to install the web
extra when it is missing."""

from __future__ import annotations

import sys

from click.testing import CliRunner

from fantasy_scorer.cli.main import main


def test_serve_runs_the_app_on_the_given_address(monkeypatch) -> None:
    import uvicorn

    seen = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, host, port, **kw: seen.update(
        app=app, host=host, port=port))
    r = CliRunner().invoke(main, ["serve", "--port", "8123"])
    assert r.exit_code == 0, r.output
    assert (seen["host"], seen["port"]) == ("127.0.0.1", 8123)
    assert "http://127.0.0.1:8123/" in r.output
    assert {"/api/score", "/api/best", "/api/explain"} <= set(seen["app"].openapi()["paths"])


def test_serve_without_the_web_extra_says_how_to_install_it(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if it were not installed
    r = CliRunner().invoke(main, ["serve"])
    assert r.exit_code == 2
    assert r.output.strip().splitlines() == [
        'Error: the web page needs uvicorn; install them with: '
        'pip install ".[web]" (in a clone of the project)'
    ]


def test_serve_refuses_a_bad_port() -> None:
    r = CliRunner().invoke(main, ["serve", "--port", "99999"])
    assert r.exit_code == 2 and "99999" in r.output
