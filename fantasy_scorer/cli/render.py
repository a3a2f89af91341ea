"""Putting results on the terminal: plain text when piped, colour by suit on a terminal.

Every command prints through these functions. The plain form is the exact text of
:mod:`fantasy_scorer.realms.formats.report` and
:func:`fantasy_scorer.realms.explain.explanation_lines` (scripts and
tests read it); the colour form draws the same rows with ``rich``, each card in its suit's
colour, and is used only when standard output is a terminal that takes colour and neither
``--no-color`` nor the ``NO_COLOR`` environment variable says otherwise.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

import click

from ..realms.explain import explanation_lines
from ..realms.formats.report import (
    card_cell,
    choices_json,
    headers,
    localized_line,
    pad,
    result_table,
    status_text,
    text_width,
)
from ..realms.messages import Msg, render
from ..realms.names import Localizer
from ..realms.resolve import Result

if TYPE_CHECKING:  # rich loads only when a terminal draws in colour (see console_for)
    from rich.console import Console
    from rich.text import Text

#: A colour per suit, after the card frames; a suit not listed (homebrew) is drawn plain.
SUIT_STYLES: dict[str, str] = {
    "Land": "dark_orange3",
    "Flood": "blue",
    "Weather": "cyan",
    "Flame": "red",
    "Army": "grey50",
    "Wizard": "magenta",
    "Leader": "purple",
    "Beast": "green",
    "Weapon": "bright_black",
    "Artifact": "yellow",
    "Wild": "white",
}


def may_be_terminal() -> bool:
    """Whether rich could take standard output for a terminal: it is one, or a variable
    with which rich draws on any stream is set. When not, the output is plain and rich is
    not even loaded (its import would slow every piped ``fr-score``)."""
    try:
        tty = sys.stdout.isatty()
    except (AttributeError, ValueError):  # no stream, or a closed one
        tty = False
    return tty or any(os.environ.get(v) for v in ("FORCE_COLOR", "TTY_COMPATIBLE"))


def console_for(no_color: bool) -> Console | None:
    """A colour console when colour is wanted and possible, else None (plain text)."""
    if no_color or not may_be_terminal():
        return None
    from rich.console import Console

    console = Console(highlight=False)
    if not console.is_terminal or console.no_color or console.color_system is None:
        return None
    return console


def suit_style(suit_label: str) -> str:
    """The style of a card by its first suit (``Beast/Flame/Weather`` is drawn as a Beast)."""
    return SUIT_STYLES.get(suit_label.split("/")[0], "")


def _suit_names(result: Result) -> dict[str, str]:
    """Display name of every card (and copy) in the hand → its style, for colouring text."""
    return {ln.as_name: suit_style(ln.suit) for ln in result.lines} | {
        ln.name: suit_style(result.hand.catalog.suit_label(c.suits))
        for ln, c in zip(result.lines, result.hand.cards, strict=True)
    }


def _colour_words(text: str, styles: dict[str, str], loc: Localizer | None) -> Text:
    from rich.text import Text

    out = Text(text)
    for english, style in styles.items():
        if style:
            out.highlight_words([loc.name(english) if loc else english], style)
    return out


# --------------------------------------------------------------------------------------------
# A score sheet
# --------------------------------------------------------------------------------------------


def print_result(result: Result, title: str | None, loc: Localizer | None,
                 console: Console | None) -> None:
    if console is None:
        click.echo(result_table(result, title, loc))
        return
    from rich.table import Table
    from rich.text import Text

    table = Table(title=title, title_justify="left", box=None, header_style="bold")
    heads = headers(loc)
    for i, head in enumerate(heads):
        table.add_column(head, justify="right" if 2 <= i <= 5 else "left")
    for raw in result.lines:
        ln = localized_line(raw, loc)
        style = suit_style(raw.suit)
        table.add_row(
            Text(card_cell(raw, loc), style=style), Text(ln.suit, style=style), str(ln.base),
            _signed(ln.bonus), _signed(ln.penalty),
            Text("—" if ln.blanked else str(ln.points), style="dim" if ln.blanked else "bold"),
            Text(status_text(raw, loc), style="italic"),
        )
    total = loc.say(Msg("sheet.total")) if loc else render(Msg("sheet.total"))
    table.add_row(total, "", "", "", "", Text(str(result.total), style="bold"), "")
    console.print(table)
    made = {k: v for k, v in choices_json(result, loc).items() if v is not None}
    if made:
        console.print("Choices: " + "; ".join(f"{k}: {v}" for k, v in made.items()))


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


# --------------------------------------------------------------------------------------------
# An explanation
# --------------------------------------------------------------------------------------------


def print_explanation(result: Result, title: str | None, loc: Localizer | None,
                      console: Console | None) -> None:
    lines = explanation_lines(result, loc)
    if title:
        lines = [f"{title}", *lines]
    if console is None:
        click.echo("\n".join(lines))
        return
    from rich.text import Text

    styles = _suit_names(result)
    for i, line in enumerate(lines):
        if (title and i == 0) or (line[:1].isdigit() and ". " in line[:4]) or \
                line.startswith("Total"):
            console.print(Text(line, style="bold"))
            continue
        text = _colour_words(line, styles, loc)
        text.highlight_regex(r"\[R\d+[^\]]*\]$", "dim")
        console.print(text)


# --------------------------------------------------------------------------------------------
# A ranking
# --------------------------------------------------------------------------------------------


def print_rows(rows: Sequence[Sequence[str]], right: set[int], console: Console | None,
               row_styles: Sequence[str] = ()) -> None:
    """A plain table (two spaces between columns) or the same rows drawn by rich."""
    if console is None:
        widths = [max(text_width(r[i]) for r in rows) for i in range(len(rows[0]))]
        for r in rows:
            cells = [pad(r[i], widths[i], right=i in right) for i in range(len(r))]
            click.echo("  ".join(cells).rstrip())
        return
    from rich.table import Table

    table = Table(box=None, header_style="bold")
    for i, head in enumerate(rows[0]):
        table.add_column(head, justify="right" if i in right else "left")
    for n, r in enumerate(rows[1:]):
        table.add_row(*r, style=row_styles[n] if n < len(row_styles) else "")
    console.print(table)


def echo(text: str, console: Console | None, style: str = "") -> None:
    if console is None:
        click.echo(text)
    else:
        from rich.text import Text

        console.print(Text(text, style=style))


def print_notes(notes: Sequence[str], console: Console | None) -> None:
    """Remarks under a score sheet (``Note: …``), dim on a terminal."""
    for note in notes:
        echo(f"Note: {note}", console, "dim")
