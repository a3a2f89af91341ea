"""The options and helpers every ``fr-score`` command shares.

One definition of ``--cards``, ``--expansion``/``--edition``/``--players``, ``--code``,
``--discard``, ``--json``, ``--lang``/``--no-color``, of reading a file or standard input, of
reading each input (a hand file, a share code or a page link) on its own, and of turning a
user's mistake into one ``Error:`` line with exit code 2. Commands import from here; this
module imports no command, so the command line has no import cycle.
"""

from __future__ import annotations

import difflib
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import wraps
from typing import Any

import click

from ..errors import ScorerError, clip
from ..inputs import read_limited
from ..realms.catalog import EDITIONS, EXPANSIONS, Card, Catalog, decode_utf8, load_catalog
from ..realms.formats.handfile import hand_catalog, names_for, read_hand
from ..realms.formats.pool import discard_list, parse_discard
from ..realms.formats.sharecode import read_share, share_game
from ..realms.hand import Hand

CONTEXT = {"help_option_names": ["-h", "--help"]}


class CommandError(click.ClickException):
    """A mistake on the command line itself: one ``Error:`` line, exit code 2."""

    exit_code = 2


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


def usage_line(err: click.UsageError) -> str:
    """Click's usage error as one line that names the option and where the fix is: Click
    prints the usage, a hint and the error on three lines."""
    message = " ".join(err.format_message().split())
    where = err.ctx.command_path if err.ctx is not None else None
    if where is None:
        return message
    return f"{message.rstrip('.')} (run '{where} --help' for the options)"


class OneLineGroup(click.Group):
    """A command group whose usage errors (a bad option value, an unknown option, a
    missing argument), its own and its commands', are one ``Error:`` line with exit code 2,
    like every other mistake."""

    def make_context(self, info_name: str | None, args: list[str],
                     parent: click.Context | None = None, **extra: Any) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.UsageError as e:
            raise CommandError(usage_line(e)) from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as e:
            raise CommandError(usage_line(e)) from None


class Seconds(click.FloatRange):
    """A number of seconds: a finite number within the range (``nan`` compares false with
    every bound, so a plain float range takes it; ``inf`` would never stop)."""

    name = "seconds"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if number != number or number in (float("inf"), float("-inf")):
            self.fail(f"{value!r} is not a number of seconds; give one such as 5", param, ctx)
        return number


def unknown_command(args: list[str], commands: Iterable[str]) -> str | None:
    """The error for a first argument that is neither a command nor an existing file but
    reads like a mistyped command (``scroe``); None when it may be a file name."""
    if not args:
        return None
    word = args[0]
    if word.startswith("-") or word in commands or os.path.exists(word):
        return None
    if "." in word or "/" in word or os.sep in word:
        return None  # a file name: its reader says "no such file"
    close = difflib.get_close_matches(word, list(commands), n=1, cutoff=0.6)
    if not close:
        return None
    return f"no such command or file: '{clip(word)}'; did you mean '{close[0]}'?"


# --------------------------------------------------------------------------------------------
# Reading text
# --------------------------------------------------------------------------------------------


def read_text(path: str) -> tuple[str, str]:
    """(text, display name) of a file, ``-`` being standard input; UTF-8, a byte-order mark
    accepted, anything else a one-line error, and so is a file larger than any input needs
    (``/dev/zero``)."""
    if path == "-":
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:
            return read_limited(lambda n: sys.stdin.read(n).encode(), "<stdin>").decode(), \
                "<stdin>"
        return decode_utf8(read_limited(stream.read, "<stdin>"), "<stdin>"), "<stdin>"
    try:
        with open(path, "rb") as f:
            data = read_limited(f.read, path)
    except FileNotFoundError:
        raise ScorerError(f"no such file: {clip(path)}") from None
    except IsADirectoryError:
        raise ScorerError(f"{clip(path)} is a folder, not a file") from None
    except OSError as e:
        raise ScorerError(f"cannot read {clip(path)}: {e.strerror}") from None
    return decode_utf8(data, path), path


def stdin_once(*uses: str | None) -> None:
    """Standard input can be read once: '-' given for two inputs is an error."""
    if sum(1 for u in uses if u == "-") > 1:
        raise ScorerError("'-' (standard input) is given twice; it can be read once")


# --------------------------------------------------------------------------------------------
# Shared options
# --------------------------------------------------------------------------------------------


def cards_option(fn: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--cards", "card_files", multiple=True, metavar="FILE",
        help="Add your own (homebrew) cards from a YAML file in the format of cards/base.yaml.",
    )(fn)


def game_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """--expansion, --edition and --players (a hand file or a link may set them too)."""
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
        help="A hand as a share code or a page link of the web scorer, e.g. "
             "'FR49,FR44,FR30,FR55P,FR08,FR04,FR20+FR49:FR55P:weather' (repeatable).",
    )(fn)


def discard_option(fn: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--discard", "discard_spec", metavar="FILE|CARDS",
        help="The discard area: a file (one card per line) or a list such as "
             "\"Knights, Queen\". Dark Queen, Ghoul, Specter and Death Knight score it; "
             "Necromancer may take its extra card from it.",
    )(fn)


def json_option(help_text: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return click.option("--json", "as_json", is_flag=True, help=help_text)


def output_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``--lang`` and ``--no-color``, shared by every command that prints cards."""
    fn = click.option("--no-color", "no_color", is_flag=True,
                      help="Plain text even on a terminal.")(fn)
    return click.option(
        "--lang", metavar="CODE", default=None,
        help="Print names, statuses and explanations in this language "
             "(cz, de, en, es, fr, kr, pl, pt, ru, ua, zh).",
    )(fn)


# --------------------------------------------------------------------------------------------
# Reading each input on its own
# --------------------------------------------------------------------------------------------


def read_discard(spec: str | None, catalog: Catalog) -> tuple[Card, ...] | None:
    """``--discard FILE`` (one card per line, ``-`` for standard input) or
    ``--discard "Knights, Queen"``; None if not given."""
    if spec is None:
        return None
    names = names_for(catalog)
    if os.path.isfile(spec) or spec == "-":
        text, label = read_text(spec)
        return tuple(parse_discard(text, label, names))
    if not spec.strip():
        return ()
    try:
        return tuple(discard_list(spec, names))
    except ScorerError as e:
        raise e.at("--discard") from None


@dataclass(frozen=True)
class Game:
    """What the command line says about the game and the table, for every input."""

    card_files: tuple[str, ...] = ()
    expansion: str | None = None
    edition: str | None = None
    players: int | None = None
    discard_spec: str | None = None


@dataclass(frozen=True)
class Source:
    """One input: a hand file (or ``-``), or a share code / page link."""

    text: str
    is_code: bool

    @property
    def label(self) -> str:
        return clip(self.text, 80) if self.is_code else ("<stdin>" if self.text == "-"
                                                          else self.text)

    def json_key(self) -> dict[str, str]:
        """How a JSON object names its input: ``{"file": path}`` or ``{"code": code}``."""
        return {"code": self.text} if self.is_code else {"file": self.label}


def sources(files: tuple[str, ...], codes: tuple[str, ...]) -> list[Source]:
    """Every input given, files first; at least one."""
    out = [Source(f, False) for f in files] + [Source(c, True) for c in codes]
    if not out:
        raise ScorerError("give a hand file ('-' reads standard input) or --code")
    return out


def load_source(source: Source, game: Game) -> tuple[Hand, str | None]:
    """The hand one input holds, read with the command line's game and table, and the
    language a page link of this tool asks for (None otherwise)."""
    if source.is_code:
        expansion, edition = share_game(source.text, game.expansion, game.edition)
        catalog = load_catalog(game.card_files, expansion, edition)
        discard = read_discard(game.discard_spec, catalog)
        shared = read_share(source.text, catalog, players=game.players, discard=discard)
        return shared.hand, shared.lang
    text, label = read_text(source.text)
    catalog = hand_catalog(text, label, game.card_files, game.expansion, game.edition)
    discard = read_discard(game.discard_spec, catalog)
    return read_hand(text, label, catalog, names_for(catalog), game.players, discard), None


class Batch:
    """Several inputs, each on its own: a bad one prints its ``Error:`` line and the others
    still print their results; :meth:`finish` then exits with code 2 if any failed."""

    def __init__(self) -> None:
        self.failed = 0

    @contextmanager
    def each(self) -> Iterator[None]:
        """Run one input's work; its :class:`ScorerError` is printed and counted."""
        try:
            yield
        except ScorerError as e:
            click.echo(f"Error: {e}", err=True)
            self.failed += 1

    def finish(self) -> None:
        if self.failed:
            sys.exit(2)


def no_effect(flag: str, why: str) -> ScorerError:
    """A flag that would change nothing in this combination: refused rather than ignored."""
    return ScorerError(f"{flag} has no effect {why}; leave it out")
