"""The ``majesty-score`` command: score a game file, replay a log, simulate bot games.

``majesty-score game.yaml`` scores (the ``score`` subcommand is the default), ``majesty-score
replay log.yaml`` checks a game move by move, ``majesty-score simulate`` plays bot games.
Bad input ends with one ``Error: ...`` line and exit code 2, never a traceback.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import click

from ..majesty.bots import BOTS, Simulation, simulate
from ..majesty.gamefile import InputError, load_yaml, parse_replay_log, parse_score_file
from ..majesty.replay import replay
from ..majesty.rules import MAX_PLAYERS, MIN_PLAYERS, parse_side, side_label
from ..majesty.scoring import FinalScore, score
from .options import unknown_command


class MajestyError(click.ClickException):
    """A user error: printed as one ``Error:`` line, exit code 2."""

    exit_code = 2


class DefaultToScore(click.Group):
    """A group whose first argument, when it is not a subcommand, is a file to score."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        mistyped = unknown_command(args, self.commands)
        if mistyped is not None:
            raise MajestyError(mistyped)
        if args and args[0] not in self.commands and args[0] not in ctx.help_option_names:
            args = ["score", *args]
        return super().parse_args(ctx, args)


def render_score(final: FinalScore) -> str:
    """The final scoring as a small table plus the winner line."""
    width = max(6, *(len(p.name) for p in final.players))
    lines = [
        f"Final scoring, side {side_label(final.side)}",
        f"{'player':<{width}}  {'play':>5}  {'infirmary':>9}  {'variety':>7}  "
        f"{'majorities':>10}  {'total':>5}",
    ]
    for p in final.players:
        won = ", ".join(f"{loc} {pts}" for loc, pts in p.majorities.items()) or "none"
        lines.append(
            f"{p.name:<{width}}  {p.points:>5}  {p.infirmary:>9}  {p.variety:>7}  "
            f"{sum(p.majorities.values()):>10}  {p.total:>5}   ({won})"
        )
    label = "Winner" if len(final.winners) == 1 else "Winners (shared victory)"
    lines.append(f"{label}: {', '.join(final.winners)}")
    return "\n".join(lines)


def render_simulation(sim: Simulation) -> str:
    data = sim.to_json()
    lines = [
        f"{sim.players} players, {sim.games} games, side {side_label(sim.side)}, seed "
        f"{sim.seed}; seats {', '.join(sim.lineup)} (rotated every game)",
        f"final scores: mean {data['mean']:.1f}, spread (sd) {data['spread']:.1f}, "
        f"min {data['min']}, max {data['max']}",
        f"{'bot':<8} {'seats':>6} {'mean':>7} {'spread':>7} {'win rate':>9}",
    ]
    for b in sim.bots.values():
        lines.append(
            f"{b.name:<8} {len(b.scores):>6} {b.mean:>7.1f} {b.spread:>7.1f} "
            f"{b.win_rate:>9.1%}"
        )
    lines.append(
        f"win rate = wins per seat (fair share {1 / sim.players:.1%}); "
        f"{sim.shared} shared victories split evenly"
    )
    return "\n".join(lines)


@contextmanager
def progress_bar(total: int) -> Iterator[Callable[[int], None] | None]:
    """A rich progress bar on stderr when it is a terminal and the run is long; else None."""
    if total < 50 or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("simulating", total=total)
        yield lambda done: bar.update(task, completed=done)


@click.group(cls=DefaultToScore, invoke_without_command=True)
@click.pass_context
def main(ctx: click.Context) -> None:
    """Majesty: For the Realm - final scoring, replays and bot simulations.

    \b
    majesty-score game.yaml            score a finished game (same as: score game.yaml)
    majesty-score replay log.yaml      check a game move by move, then score it
    majesty-score simulate --players 3 --games 1000 --side B --seed 1
    """
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())
        ctx.exit(2)


@main.command("score")
@click.argument("file")
@click.option("--json", "as_json", is_flag=True, help="Print the scoring as JSON.")
@click.option("--partial", is_flag=True, help="Allow realms with fewer than 12 cards.")
@click.option(
    "--meeple-tiebreak",
    is_flag=True,
    help="Variant: leftover meeples break ties (every player then needs meeples: N).",
)
def score_command(file: str, as_json: bool, partial: bool, meeple_tiebreak: bool) -> None:
    """Score FILE: side, and per player the points from play and the realm."""
    try:
        game = parse_score_file(load_yaml(file), partial, meeple_tiebreak)
    except InputError as exc:
        raise MajestyError(str(exc)) from None
    final = score(game.side, game.names, game.points, game.realms, game.meeples, meeple_tiebreak)
    click.echo(json.dumps(final.to_json(), indent=2) if as_json else render_score(final))


@main.command("replay")
@click.argument("log")
@click.option("--json", "as_json", is_flag=True, help="Print turns and scoring as JSON.")
@click.option("--partial", is_flag=True, help="Score a log that stops before the game end.")
def replay_command(log: str, as_json: bool, partial: bool) -> None:
    """Check the game in LOG move by move and score it (format: see the docs)."""
    try:
        result = replay(parse_replay_log(load_yaml(log)), partial)
    except InputError as exc:
        raise MajestyError(str(exc)) from None
    names = result.game.names
    if as_json:
        data: dict[str, object] = {
            "turns": [
                {
                    "turn": t.number,
                    "player": t.player,
                    "move": t.text,
                    "points": dict(zip(names, t.points, strict=True)),
                }
                for t in result.turns
            ]
        }
        if result.final is not None:
            data["final"] = result.final.to_json()
        click.echo(json.dumps(data, indent=2))
    else:
        width = max(len(n) for n in names)
        for t in result.turns:
            pts = ", ".join(f"{n} {p}" for n, p in zip(names, t.points, strict=True))
            click.echo(f"turn {t.number:>2}  {t.player:<{width}}  {t.text}  [{pts}]")
        if result.final is not None:
            click.echo(render_score(result.final))
    if result.error is not None:
        raise MajestyError(result.error)


@main.command("simulate")
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
def simulate_command(
    players: int,
    games: int,
    side: str,
    seed: int,
    bots: str | None,
    all60: bool,
    opponents_only: bool,
    as_json: bool,
) -> None:
    """Play bot games and report mean and spread of final scores and win rates."""
    try:
        side = parse_side(side)
        lineup = [b.strip() for b in bots.split(",")] if bots else None
        with progress_bar(games) as progress:
            sim = simulate(
                players, games, side, seed, lineup, all60, not opponents_only, progress
            )
    except ValueError as exc:
        raise MajestyError(str(exc)) from None
    click.echo(json.dumps(sim.to_json(), indent=2) if as_json else render_simulation(sim))
