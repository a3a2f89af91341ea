"""``fr-score``: the command group, and the one place every command is registered.

``fr-score hand.txt`` scores a hand file (``-`` reads standard input): ``score`` is the
default command. Each command family lives in its own module (``score``, ``referee``,
``solve``, ``advise``, ``serve``, ``cards``); they share their options through
:mod:`.options` and never import this module, so registering them makes no import cycle.
"""

from __future__ import annotations

import contextlib
import os
import sys

import click

from . import advise, cards, census, referee, score, serve, site, solve
from .options import CONTEXT, CommandError, OneLineGroup, unknown_command


class DefaultGroup(OneLineGroup):
    """A group whose default command is ``score``: ``fr-score hand.txt`` just works, and a
    mistyped command that is no file gets a did-you-mean."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        mistyped = unknown_command(args, self.commands)
        if mistyped is not None:
            raise CommandError(mistyped)
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h", "--version"):
            args = ["score", *args]
        elif not args:
            args = ["--help"]
        return super().parse_args(ctx, args)


@click.group(cls=DefaultGroup, context_settings=CONTEXT)
@click.version_option(package_name="fantasy-scorer")
def main() -> None:
    """Exact Fantasy Realms scoring.

    \b
    fr-score hand.txt                   score a hand (one card per line)
    fr-score alice.txt bob.txt          score several hands
    fr-score hand.txt --json            machine-readable result
    fr-score --code 'FR21,FR45,FR13+'   score a share code or a page link of the
                                        web scorer; --print-code prints one
    fr-score explain hand.txt           step-by-step account with the rulings
    fr-score best pool.txt              the best hand from 8 or more cards
    fr-score game table.yaml            rank a whole table
    fr-score card Warlock Lord          what a card does, and the rulings on it
    fr-score advise hand.txt --players 4 --discard "Queen, Hydra"
                                        advice that looks ahead, mid-game
    fr-score simulate --players 4       bot games: does the advice win?
    fr-score compile                    compile the fast searches once
    fr-score census --out census.json   count every hand by its total

    Run 'fr-score COMMAND --help' for each command.
    """


for command in (score.score_cmd, referee.explain_cmd, referee.game_cmd, solve.best_cmd,
                solve.max_cmd, solve.compile_cmd, advise.advise_cmd, advise.simulate_cmd,
                serve.serve_cmd, site.site_cmd, cards.card_cmd, cards.cards_cmd,
                census.census_cmd):
    main.add_command(command)



def run() -> None:
    """The ``fr-score`` program: :func:`main`, then a prompt exit.

    Once a command has loaded the compiled code, the interpreter spends a long while
    tearing it down at exit, longer than many answers
    take. By then everything is written, so the program flushes its output and leaves at
    once with the command's exit code. (Tests call :func:`main` and are not concerned.)
    It also asks for the compiled code that ``fr-score compile`` built ahead of time
    (``realms.solve.batch.aot``), which a new process loads sooner than Numba's.
    And it tells the linear algebra library under NumPy to start one thread, not one per
    core, unless the environment says otherwise: nothing here multiplies matrices of any
    size, and starting its threads costs every start time.
    """
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before anything imports NumPy
    from ..realms.solve.batch import aot

    aot.prefer()  # the compiled code built ahead of time, where it is there (the default;
    #               said again: a test may have turned it off in this process)
    try:
        main()
        code = 0
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
        if isinstance(stop.code, str):
            print(stop.code, file=sys.stderr)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe (... | head)
            stream.flush()
    os._exit(code)


if __name__ == "__main__":  # pragma: no cover
    run()
