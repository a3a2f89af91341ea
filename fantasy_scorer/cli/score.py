"""``fr-score score`` (the default command): score hand files and share codes."""

from __future__ import annotations

import json

import click

from ..realms.formats.handfile import names_for
from ..realms.formats.report import result_json
from ..realms.formats.sharecode import hand_code
from ..realms.names import check_lang
from ..realms.resolve import resolve
from .options import (
    CONTEXT,
    cards_option,
    code_option,
    fail_cleanly,
    game_options,
    load_hands,
    output_options,
)
from .render import console_for, print_result


@click.command("score", context_settings=CONTEXT)
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
    from .solve import optimized  # the solver loads only when scoring needs it

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


