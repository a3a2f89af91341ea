"""The ``majesty-score`` command: score game files, replay logs, simulate bot games.

``majesty-score game.yaml`` scores (the ``score`` subcommand is the default), ``majesty-score
replay log.yaml`` checks a game move by move, ``majesty-score simulate`` plays bot games.
It follows the conventions of ``fr-score``: ``-h``, ``--version``, ``-`` for standard input,
several files at once, ``--json`` (one object per line, naming its file), ``--lang``,
``--no-color``. Bad input ends with one ``Error: ...`` line per bad file and exit code 2,
never a traceback; the good files are still printed.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import click
from rich.console import Console

from ..majesty.bots import BOTS, Simulation, simulate
from ..majesty.cards import card_name
from ..majesty.gamefile import InputError, load_yaml, parse_replay_log, parse_score_file
from ..majesty.names import LANGUAGES, check_lang, location_name
from ..majesty.replay import Replay, replay
from ..majesty.rules import (
    LOCATIONS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    infirmary_for,
    parse_side,
    side_label,
)
from ..majesty.scoring import FinalScore, score
from .options import CONTEXT, OneLineGroup, unknown_command
from .render import console_for, echo, print_rows


class MajestyError(click.ClickException):
    """A user error: printed as one ``Error:`` line, exit code 2."""

    exit_code = 2


class DefaultToScore(OneLineGroup):
    """A group whose first argument, when it is not a subcommand, is a file to score."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        mistyped = unknown_command(args, self.commands)
        if mistyped is not None:
            raise MajestyError(mistyped)
        if args and args[0] not in self.commands and args[0] not in (
            *ctx.help_option_names, "--version"
        ):
            args = ["score", *args]
        return super().parse_args(ctx, args)


# --------------------------------------------------------------------------------------------
# Options shared by the subcommands
# --------------------------------------------------------------------------------------------


def output_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``--json``, ``--lang`` and ``--no-color``, as in ``fr-score``."""
    fn = click.option("--no-color", "no_color", is_flag=True,
                      help="Plain text even on a terminal.")(fn)
    fn = click.option(
        "--lang", metavar="CODE", default=None,
        help=f"Print location and character names in this language ({', '.join(LANGUAGES)}).",
    )(fn)
    return click.option("--json", "as_json", is_flag=True,
                        help="Print JSON: one object per file, one per line.")(fn)


def language(lang: str | None) -> str:
    try:
        return check_lang(lang)
    except ValueError as exc:
        raise MajestyError(str(exc)) from None


T = TypeVar("T")


class Files:
    """Runs one command over several files: each is handled on its own; a bad one prints its
    ``Error:`` line and the others still print; the exit code is 2 if any failed."""

    def __init__(self, paths: tuple[str, ...]) -> None:
        if not paths:
            raise MajestyError("give a file ('-' reads standard input)")
        self.paths = paths
        self.failed = False
        self.shown = 0  # files printed as text so far

    @property
    def several(self) -> bool:
        return len(self.paths) > 1

    def label(self, path: str) -> str:
        return "<stdin>" if path == "-" else path

    def load(self, path: str) -> Any:
        """The YAML of one file, or None after printing why it cannot be read."""
        try:
            return load_yaml(path)
        except InputError as exc:  # the message names the file already
            self.fail(str(exc))
            return None

    def fail(self, message: str) -> None:
        click.echo(f"Error: {message}", err=True)
        self.failed = True

    def parsed(self, parse: Callable[[Any], T]) -> Iterator[tuple[str, T]]:
        """Each file's YAML through ``parse``; a file that cannot be read or parsed prints
        its error line and is skipped."""
        for path in self.paths:
            data = self.load(path)
            if data is None:
                continue
            try:
                value = parse(data)
            except InputError as exc:
                self.fail(f"{self.label(path)}: {exc}")
                continue
            yield path, value

    def heading(self, path: str, console: Console | None) -> None:
        """Before a file's text: a blank line after the previous file's, and the file's
        name when there are several."""
        if self.shown:
            click.echo()
        if self.several:
            echo(self.label(path), console, "bold")
        self.shown += 1

    def finish(self) -> None:
        if self.failed:
            sys.exit(2)

    def emit_json(self, path: str, data: dict[str, Any]) -> None:
        """One object on one line, naming its file first (as ``fr-score`` does)."""
        click.echo(json.dumps({"file": self.label(path), **data}, ensure_ascii=False))


# --------------------------------------------------------------------------------------------
# Text output
# --------------------------------------------------------------------------------------------


def won_text(majorities: dict[str, int], shared: dict[str, tuple[str, ...]], lang: str) -> str:
    """``mill 10 (shared with Bob), castle 16``: the majorities a player gains."""
    parts = []
    for loc, points in majorities.items():
        text = f"{location_name(LOCATIONS.index(loc), lang)} {points}"
        if loc in shared:
            text += f" (shared with {', '.join(shared[loc])})"
        parts.append(text)
    return ", ".join(parts) or "none"


def print_score(final: FinalScore, lang: str, console: Console | None) -> None:
    """The final scoring as a table plus the winner line.

    The Infirmary's per-card penalty has its own column; side B's extra penalty for the most
    cards gets a second one (the headers say the rule), so the arithmetic can be checked.
    """
    rule = infirmary_for(final.side)
    head = ["Player", "Play", f"Infirmary ({-rule.per_card}/card)"]
    if rule.most:
        head.append(f"Most cards (-{rule.most})")
    head += ["Variety", "Majorities", "Total", "Majorities won"]
    rows = [head]
    for p in final.players:
        row = [p.name, str(p.points), str(p.infirmary_cards)]
        if rule.most:
            row.append(str(p.infirmary_most))
        row += [str(p.variety), str(sum(p.majorities.values())), str(p.total),
                won_text(p.majorities, p.shared, lang)]
        rows.append(row)
    echo(f"Final scoring, side {side_label(final.side)}", console, "bold")
    right = set(range(1, len(head) - 1))
    styles = ["bold green" if p.name in final.winners else "" for p in final.players]
    print_rows(rows, right, console, styles)
    label = "Winner" if len(final.winners) == 1 else "Winners (shared victory)"
    echo(f"{label}: {', '.join(final.winners)}", console, "bold")


def turn_line(names: tuple[str, ...], points: list[int], meeples: list[int]) -> str:
    pts = ", ".join(f"{n} {p}" for n, p in zip(names, points, strict=True))
    mps = ", ".join(f"{n} {m}" for n, m in zip(names, meeples, strict=True))
    return f"[points {pts}; meeples {mps}]"


def deck_names(result: Replay, lang: str) -> list[str | None]:
    return [None if c is None else card_name(c, lang) for c in result.deck]


def print_replay(result: Replay, lang: str, console: Console | None) -> None:
    names = result.game.names
    width = max(len(n) for n in names)
    for t in result.turns:
        echo(f"turn {t.number:>2}  {t.player:<{width}}  {t.describe(lang)}  "
             f"{turn_line(names, t.points, t.meeples)}", console)
    if result.final is not None:
        print_score(result.final, lang, console)
    if result.deck and None in result.deck:
        shown = ", ".join(c or "?" for c in deck_names(result, lang))
        echo(f"Deck as revealed (top card first; ? was never taken): {shown}", console)


def replay_json(result: Replay, lang: str) -> dict[str, Any]:
    names = result.game.names
    data: dict[str, Any] = {
        "turns": [
            {
                "turn": t.number,
                "player": t.player,
                "card": card_name(t.card, lang),
                "move": t.describe(lang),
                "points": dict(zip(names, t.points, strict=True)),
                "meeples": dict(zip(names, t.meeples, strict=True)),
            }
            for t in result.turns
        ],
        "deck": deck_names(result, lang),
    }
    if result.final is not None:
        data["final"] = result.final.to_json(lang)
    if result.error is not None:
        data["error"] = result.error
    return data


def render_simulation(sim: Simulation, console: Console | None) -> None:
    data = sim.to_json()
    echo(f"{sim.players} players, {sim.games} games, side {side_label(sim.side)}, seed "
         f"{sim.seed}; seats {', '.join(sim.lineup)} (rotated every game)", console)
    echo(f"final scores: mean {data['mean']:.1f}, spread (sd) {data['spread']:.1f}, "
         f"min {data['min']}, max {data['max']}", console)
    rows = [["Bot", "Seats", "Mean", "Spread", "Win rate"]]
    rows += [[b.name, str(len(b.scores)), f"{b.mean:.1f}", f"{b.spread:.1f}",
              f"{b.win_rate:.1%}"] for b in sim.bots.values()]
    print_rows(rows, {1, 2, 3, 4}, console)
    echo(f"win rate = wins per seat (fair share {1 / sim.players:.1%}); "
         f"{sim.shared} shared victories split evenly", console)


@contextmanager
def progress_bar(total: int) -> Iterator[Callable[[int], None] | None]:
    """A rich progress bar on stderr when it is a terminal and the run is long; else None."""
    if total < 50 or not sys.stderr.isatty():
        yield None
        return
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("simulating", total=total)
        yield lambda done: bar.update(task, completed=done)


# --------------------------------------------------------------------------------------------
# Commands
# --------------------------------------------------------------------------------------------


@click.group(cls=DefaultToScore, invoke_without_command=True, context_settings=CONTEXT)
@click.version_option(package_name="fantasy-scorer")
@click.pass_context
def main(ctx: click.Context) -> None:
    """Majesty: For the Realm - final scoring, replays and bot simulations.

    \b
    majesty-score game.yaml            score a finished game (same as: score game.yaml)
    majesty-score a.yaml b.yaml --json several games, one JSON object per line
    majesty-score replay log.yaml      check a game move by move, then score it
    majesty-score simulate --players 3 --games 1000 --side B --seed 1

    Run 'majesty-score COMMAND --help' for each command and its file format.
    """
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())


@main.command("score", context_settings=CONTEXT)
@click.argument("files", nargs=-1, metavar="GAME_FILE...")
@output_options
@click.option("--partial", is_flag=True, help="Allow realms with fewer than 12 cards.")
@click.option(
    "--meeple-tiebreak",
    is_flag=True,
    help="Variant: leftover meeples break ties (every player then needs meeples: N).",
)
def score_command(files: tuple[str, ...], as_json: bool, lang: str | None, no_color: bool,
                  partial: bool, meeple_tiebreak: bool) -> None:
    """Score finished games (YAML files; '-' reads standard input).

    \b
      side: A                # A, B, or a letter per location 1-8 (ABABABAB)
      players:               # 2-4 players
        - name: Ann
          points: 41         # collected during play
          realm: {mill: 3, cottage: 2, guardhouse: 1, barracks: 2, inn: 1,
                  castle: 2, infirmary: 1}
        - name: Bob
          points: 57
          realm: [2, 3, 0, 2, 0, 2, 1, 2]    # or eight counts, locations 1-8

    A realm gives the cards at each location: by number (1-8), by name (mill, brewery,
    cottage, guardhouse, barracks, inn, castle, infirmary) or by its character
    (Miller: 3 is the mill); missing locations hold 0. Each realm holds 12 cards unless
    --partial is given.
    """
    lang = language(lang)
    run = Files(files)
    console = None if as_json else console_for(no_color)
    for path, game in run.parsed(lambda data: parse_score_file(data, partial, meeple_tiebreak)):
        final = score(game.side, game.names, game.points, game.realms, game.meeples,
                      meeple_tiebreak)
        if as_json:
            run.emit_json(path, final.to_json(lang))
            continue
        run.heading(path, console)
        print_score(final, lang, console)
    run.finish()


@main.command("replay", context_settings=CONTEXT)
@click.argument("logs", nargs=-1, metavar="LOG_FILE...")
@output_options
@click.option("--partial", is_flag=True, help="Score a log that stops before the game end.")
def replay_command(logs: tuple[str, ...], as_json: bool, lang: str | None, no_color: bool,
                   partial: bool) -> None:
    """Check games move by move, with points and meeples after every turn, and score them
    (YAML logs; '-' reads standard input).

    \b
      players: [Ann, Bob]     # in turn order
      side: B                 # A, B, or a letter per location 1-8
      seed: 5                 # the seeded set-up; or deck: [Miller, Witch/Guard, ...]
                              # (top card first); or neither, see card: below
      moves:
        - {player: Ann, take: 0}                # the front card (free)
        - {player: Bob, take: 2, half: Witch}   # a split card's half
        - {player: Ann, take: 1, heal: Guard}   # the half a healed split card returns as
        - {player: Bob, take: 0, trade: 3}      # side-B castle: 3 points to meeples
        - {player: Ann, take: 3, points: 17, meeples: 2}   # checks after the move
        - {player: Bob, take: 1, card: Miller/Knight, half: Knight}

    take: is the display position (0-5; position i costs i meeples). card: checks the card
    taken. A game written down at the table, without knowing the shuffled deck, leaves out
    seed: and deck: and names the card of every move: the revealed cards are the deck.
    The first illegal move or failed check stops the replay with its turn and the reason.
    """
    lang = language(lang)
    run = Files(logs)
    console = None if as_json else console_for(no_color)
    for path, result in run.parsed(lambda data: replay(parse_replay_log(data), partial)):
        if as_json:
            run.emit_json(path, replay_json(result, lang))
        else:
            run.heading(path, console)
            print_replay(result, lang, console)
        if result.error is not None:
            run.fail(f"{run.label(path)}: {result.error}")
    run.finish()


@main.command("simulate", context_settings=CONTEXT)
@click.option("--players", type=click.IntRange(MIN_PLAYERS, MAX_PLAYERS), default=4,
              show_default=True, help="Players per game.")
@click.option("--games", type=click.IntRange(min=1), default=100, show_default=True)
@click.option("--side", default="A", show_default=True,
              help="A, B, or eight letters for the mixed variant.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--bots", default=None,
              help=f"Comma-separated bot per seat ({', '.join(BOTS)}); "
                   "default alternates greedy, random.")
@click.option("--all60", is_flag=True, help="Variant: all 60 cards shuffled together.")
@click.option("--opponents-only", is_flag=True,
              help="Variant: 'everyone with >= 1 X' excludes the active player (not M1).")
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
@click.option("--no-color", "no_color", is_flag=True, help="Plain text even on a terminal.")
def simulate_command(
    players: int,
    games: int,
    side: str,
    seed: int,
    bots: str | None,
    all60: bool,
    opponents_only: bool,
    as_json: bool,
    no_color: bool,
) -> None:
    """Play bot games and report mean and spread of final scores and win rates.

    \b
      majesty-score simulate --players 3 --games 1000 --side B --seed 1
      majesty-score simulate --players 2 --bots greedy,greedy --all60

    The same seed gives the same games; the seats rotate every game.
    """
    try:
        side = parse_side(side)
        lineup = [b.strip() for b in bots.split(",")] if bots else None
        with progress_bar(games) as progress:
            sim = simulate(
                players, games, side, seed, lineup, all60, not opponents_only, progress
            )
    except ValueError as exc:
        raise MajestyError(str(exc)) from None
    if as_json:
        click.echo(json.dumps(sim.to_json(), ensure_ascii=False))
    else:
        render_simulation(sim, console_for(no_color))
