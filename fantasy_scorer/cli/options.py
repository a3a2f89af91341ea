"""The options and helpers every ``fr-score`` command shares.

One definition of ``--cards``, ``--expansion``/``--edition``/``--players``, ``--code``,
``--lang``/``--no-color``, of reading a file or standard input, and of turning a user's
mistake into one ``Error:`` line with exit code 2. Commands import from here; this module
imports no command, so the command line has no import cycle.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import wraps
from typing import Any

import click

from ..errors import ScorerError
from ..realms.catalog import EDITIONS, EXPANSIONS, Catalog, load_catalog
from ..realms.formats.handfile import load_hand
from ..realms.formats.sharecode import parse_code
from ..realms.hand import Hand


def fail_cleanly(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Turn a :class:`ScorerError` into ``Error: …`` on stderr and exit code 2."""

    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except ScorerError as e:
            click.echo(f"Error: {e}", err=True)
            sys.exit(2)

    return wrapper


def read_text(path: str) -> tuple[str, str]:
    """(text, display name) of a file, ``-`` being standard input."""
    if path == "-":
        return sys.stdin.read(), "<stdin>"
    try:
        with open(path, encoding="utf-8") as f:
            return f.read(), path
    except FileNotFoundError:
        raise ScorerError(f"no such file: {path}") from None
    except UnicodeDecodeError:
        raise ScorerError(f"{path} is not UTF-8 text") from None
    except OSError as e:
        raise ScorerError(f"cannot read {path}: {e.strerror}") from None


CONTEXT = {"help_option_names": ["-h", "--help"]}


def cards_option(fn: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--cards", "card_files", multiple=True, metavar="FILE",
        help="Add your own (homebrew) cards from a YAML file in the format of cards/base.yaml.",
    )(fn)


def game_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """--expansion, --edition and --players (a hand file may set them too)."""
    fn = click.option("--players", type=click.IntRange(2, 6), default=None,
                      help="Number of players (Genie, Spyglass).")(fn)
    fn = click.option("--edition", type=click.Choice(sorted(EDITIONS)), default=None,
                      help="deluxe: the Deluxe-edition Phoenix replaces the promo Phoenix.")(fn)
    fn = click.option("--expansion", type=click.Choice(sorted(EXPANSIONS)), default=None,
                      help="Play with an expansion's cards (cursed-hoards).")(fn)
    return fn


def catalog_from(card_files: tuple[str, ...]) -> Catalog:
    return load_catalog(card_files)


def code_option(fn: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--code", "codes", multiple=True, metavar="CODE",
        help="A hand as a share code, e.g. 'FR21,FR45,FR13,FR12,FR37+FR49:FR12:beast,FR53:FR37'.",
    )(fn)


def load_hands(files: tuple[str, ...], codes: tuple[str, ...], card_files: tuple[str, ...],
               expansion: str | None, edition: str | None, players: int | None
               ) -> list[tuple[str, Hand]]:
    """(label, hand) for every hand file and share code given, in that order."""
    if not files and not codes:
        raise ScorerError("give a hand file ('-' reads standard input) or --code")
    hands = []
    for path in files:
        text, label = read_text(path)
        hands.append((label, load_hand(text, label, card_files, expansion, edition, players)))
    if codes:
        catalog = load_catalog(card_files, expansion, edition)
        hands += [(code, parse_code(code, catalog, players)) for code in codes]
    return hands


def output_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``--lang`` and ``--no-color``, shared by every command that prints cards."""
    fn = click.option("--no-color", "no_color", is_flag=True,
                      help="Plain text even on a terminal.")(fn)
    return click.option(
        "--lang", metavar="CODE", default=None,
        help="Print names, statuses and explanations in this language "
             "(cz, de, en, es, fr, kr, pl, pt, ru, ua, zh).",
    )(fn)
