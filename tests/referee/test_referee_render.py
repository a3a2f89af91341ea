"""A nicer terminal: colour by suit on a terminal, exactly the plain text otherwise (part 5)."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from fantasy_scorer.cli import render
from fantasy_scorer.cli.main import main
from fantasy_scorer.realms.formats.report import result_table

from .conftest import result_of
from .test_referee_explain import standing_lines

H260 = ("Mountain", "Great Flood", "Smoke", "Whirlwind", "Air Elemental", "Wildfire",
        "Mirage: Rainstorm")


@pytest.fixture
def hand_file(tmp_path):
    path = tmp_path / "h.txt"
    path.write_text("\n".join(H260) + "\n", encoding="utf-8")
    return str(path)


def test_piped_output_is_the_plain_table(runner, hand_file) -> None:
    expected = result_table(result_of(*H260)) + "\n" + "".join(
        line + "\n" for line in standing_lines(260))  # where 260 stands (issue 37)
    assert runner.invoke(main, [hand_file]).output == expected
    assert runner.invoke(main, [hand_file, "--no-color"]).output == expected
    assert "\x1b[" not in runner.invoke(main, ["explain", hand_file]).output


def forced() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, force_terminal=True, color_system="standard", width=200), out


def test_a_terminal_gets_colour_by_suit() -> None:
    console, out = forced()
    render.print_result(result_of(*H260), None, None, console)
    text = out.getvalue()
    assert "\x1b[31mWildfire" in text      # Flame: red
    assert "\x1b[34mGreat Flood" in text   # Flood: blue
    assert "260" in text and "Choices: Mirage: Rainstorm" in text


def test_explanations_and_rankings_in_colour() -> None:
    console, out = forced()
    render.print_explanation(result_of(*H260), "260", None, console)
    assert "\x1b[31mWildfire" in out.getvalue()
    console, out = forced()
    render.print_rows([("Rank", "Player"), ("1", "Ann")], {0}, console, ["bold green"])
    assert "Ann" in out.getvalue() and "\x1b[" in out.getvalue()


def test_when_colour_is_used(monkeypatch) -> None:
    assert render.console_for(no_color=False) is None  # not a terminal under pytest
    monkeypatch.setattr(render, "may_be_terminal", lambda: True)
    assert render.console_for(no_color=False) is None  # rich itself sees no terminal
    monkeypatch.setattr(Console, "is_terminal", property(lambda self: True))
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    assert render.console_for(no_color=False) is not None
    assert render.console_for(no_color=True) is None
    monkeypatch.setenv("NO_COLOR", "1")
    assert render.console_for(no_color=False) is None


def test_piped_output_is_plain_without_loading_rich(monkeypatch) -> None:
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    assert not render.may_be_terminal()  # pytest captures standard output
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert render.may_be_terminal()  # rich would draw in colour on any stream
    monkeypatch.setenv("FORCE_COLOR", "")
    assert not render.may_be_terminal()  # an empty FORCE_COLOR forces nothing (rich agrees)


def test_every_base_suit_has_a_colour() -> None:
    from fantasy_scorer.realms.catalog import base_catalog

    assert set(base_catalog().suits) <= set(render.SUIT_STYLES)
