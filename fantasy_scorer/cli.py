"""``fr-score``: score Fantasy Realms hands from the command line.

``fr-score hand.txt`` scores a hand file (``-`` reads standard input). Several files give one
result each. Every problem with the input is one line on standard error and exit code 2.
The referee's commands (``explain``, ``game``) live in :mod:`fantasy_scorer.commands_referee`.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import wraps
from typing import Any

import click

from .catalog import EDITIONS, EXPANSIONS, Catalog, load_catalog
from .errors import ScorerError
from .hand import Hand
from .handfile import load_hand, names_for
from .names import check_lang
from .render import console_for, output_options, print_result
from .report import result_json
from .resolve import resolve
from .sharecode import hand_code, parse_code


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


class DefaultGroup(click.Group):
    """A group whose default command is ``score``: ``fr-score hand.txt`` just works."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h", "--version"):
            args = ["score", *args]
        elif not args:
            args = ["--help"]
        return super().parse_args(ctx, args)


CONTEXT = {"help_option_names": ["-h", "--help"]}


@click.group(cls=DefaultGroup, context_settings=CONTEXT)
@click.version_option(package_name="fantasy-scorer")
def main() -> None:
    """Exact Fantasy Realms scoring.

    \b
    fr-score hand.txt              score a hand (one card per line)
    fr-score alice.txt bob.txt     score several hands
    fr-score hand.txt --json       machine-readable result
    fr-score --code 'FR01,FR13'    score a share code; --print-code prints one
    fr-score explain hand.txt      step-by-step account with the rulings
    fr-score game table.yaml       rank a whole table

    Run 'fr-score COMMAND --help' for each command.
    """


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


@main.command("score", context_settings=CONTEXT)
@click.argument("files", nargs=-1, metavar="HAND_FILE...")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per hand.")
@click.option("--optimize/--no-optimize", default=True, show_default=True,
              help="Choose every choice the hand leaves open optimally, or leave it unassigned.")
@click.option("--discard", "discard_spec", metavar="FILE|CARDS",
              help="The discard area, so that Necromancer may take its best 8th card from it.")
@code_option
@click.option("--print-code", is_flag=True, help="Print each hand's share code instead.")
@output_options
@cards_option
@game_options
@fail_cleanly
def score_cmd(files: tuple[str, ...], as_json: bool, optimize: bool, discard_spec: str | None,
              codes: tuple[str, ...], print_code: bool,
              lang: str | None, no_color: bool, card_files: tuple[str, ...],
              expansion: str | None, edition: str | None, players: int | None) -> None:
    """Score hand files (the default command; '-' reads standard input).

    One card per line; '#' starts a comment. A choice goes on its card's line:

    \b
      Doppelgänger: Basilisk
      Mirage: Rainstorm
      Shapeshifter: none
      Book of Changes: Blizzard -> Beast
      Island: Wildfire

    Necromancer's extra card is simply listed as the 8th card. With the Cursed Hoards
    expansion, a file may start with 'expansion: cursed-hoards' and 'players: N' lines and
    list its Cursed Items and the discard area under '[cursed items]' and '[discard]'.
    Names may be written in any of the game's 11 languages. A choice left out is chosen
    optimally (--no-optimize leaves it unassigned).
    """
    from .commands_solve import optimized  # the solver loads only when scoring needs it

    check_lang(lang)
    hands = load_hands(files, codes, card_files, expansion, edition, players)
    if print_code:
        for _, hand in hands:
            click.echo(hand_code(hand))
        return
    results = [(label, *(optimized(hand, discard_spec) if optimize else (resolve(hand), None)))
               for label, hand in hands]
    console = None if as_json else console_for(no_color)
    for i, (label, result, shown) in enumerate(results):
        loc = names_for(result.hand.catalog).localizer(lang)
        if as_json:
            click.echo(json.dumps(result_json(result, loc), ensure_ascii=False))
        else:
            if i:
                click.echo()
            print_result(shown.result if shown else result,
                         label if len(results) > 1 else None, loc, console)
            if shown and shown.line(loc):
                click.echo(shown.line(loc))


from . import commands_referee  # noqa: E402,F401,I001  (registers explain and game)
from . import commands_serve  # noqa: E402,F401  (registers ``fr-score serve``)
from . import commands_solve  # noqa: E402,F401  (registers ``best`` and ``max``)

if __name__ == "__main__":  # pragma: no cover
    from fantasy_scorer.cli import main as registered  # the group the commands were added to

    registered()
