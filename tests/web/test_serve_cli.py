"""``fr-score serve``: it serves the app on the given address with the given game, bound to
127.0.0.1 by default, and says how to install the web extra when it is missing."""

from __future__ import annotations

import sys

from click.testing import CliRunner

from fantasy_scorer.cli.main import main


def run_serve(monkeypatch, *args: str) -> tuple:
    from fantasy_scorer.web import server

    seen = {}
    monkeypatch.setattr(server, "serve", lambda app, host, port, **bound: seen.update(
        app=app, host=host, port=port))
    r = CliRunner().invoke(main, ["serve", *args])
    return r, seen


def test_serve_runs_the_app_on_the_given_address(monkeypatch) -> None:
    r, seen = run_serve(monkeypatch, "--port", "8123")
    assert r.exit_code == 0, r.output
    assert (seen["host"], seen["port"]) == ("127.0.0.1", 8123)
    assert "http://127.0.0.1:8123/" in r.output
    assert {"/api/score", "/api/best", "/api/explain"} <= set(seen["app"].openapi()["paths"])
    assert seen["app"].state.solver.workers >= 1  # searches run off the event loop


def test_serve_opens_on_the_expansion_and_the_edition(monkeypatch) -> None:
    r, seen = run_serve(monkeypatch, "--expansion", "cursed-hoards", "--edition", "deluxe",
                        "--workers", "1")
    assert r.exit_code == 0, r.output
    default = seen["app"].state.games.default
    assert (default.key.expansion, default.key.edition) == ("cursed-hoards", "deluxe")
    assert default.catalog.hand_size == 8 and "FR55D" in default.catalog.by_id


def test_serve_without_the_web_extra_says_how_to_install_it(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if it were not installed
    monkeypatch.delitem(sys.modules, "fantasy_scorer.web.server", raising=False)
    r = CliRunner().invoke(main, ["serve"])
    assert r.exit_code == 2
    assert r.output.strip().splitlines() == [
        'Error: the web page needs uvicorn; install them with: '
        'pip install ".[web]" (in a clone of the project)'
    ]


def test_serve_refuses_a_bad_port_and_a_bad_game() -> None:
    r = CliRunner().invoke(main, ["serve", "--port", "99999"])
    assert r.exit_code == 2 and "99999" in r.output
    r = CliRunner().invoke(main, ["serve", "--expansion", "dragons"])
    assert r.exit_code == 2 and "dragons" in r.output


def test_serve_help_gives_examples() -> None:
    r = CliRunner().invoke(main, ["serve", "--help"])
    assert r.exit_code == 0
    assert "fr-score serve --expansion cursed-hoards" in r.output and "--time-limit" in r.output
