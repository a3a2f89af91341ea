"""``fr-score score`` (the default command): score hand files, share codes and page links."""

from __future__ import annotations

import json

import click

from ..realms.formats.handfile import names_for
from ..realms.formats.report import hand_notes, result_json
from ..realms.formats.sharecode import share_code, share_link, share_text
from ..realms.names import check_lang
from ..realms.resolve import resolve
from ..realms.standing import of_hand
from .options import (
    CONTEXT,
    Batch,
    Game,
    cards_option,
    code_option,
    discard_option,
    fail_cleanly,
    game_options,
    json_option,
    load_source,
    no_effect,
    output_options,
    sources,
    stdin_once,
)
from .render import console_for, print_notes, print_result


@click.command("score", context_settings=CONTEXT)
@click.argument("files", nargs=-1, metavar="HAND_FILE...")
@json_option("Print one JSON object per hand (a line each), naming its file or code.")
@click.option("--optimize/--no-optimize", default=True, show_default=True,
              help="Choose every choice the hand leaves open optimally, or leave it unassigned.")
@discard_option
@code_option
@click.option("--print-code", is_flag=True,
              help="Print each hand's share code instead of its score: the web scorer's "
                   "code, or its page link when the hand has an expansion, a number of "
                   "players or a discard area. With --json: {\"code\", \"link\"}.")
@output_options
@cards_option
@game_options
@fail_cleanly
def score_cmd(files: tuple[str, ...], as_json: bool, optimize: bool, discard_spec: str | None,
              codes: tuple[str, ...], print_code: bool,
              lang: str | None, no_color: bool, card_files: tuple[str, ...],
              expansion: str | None, edition: str | None, players: int | None) -> None:
    """Score hand files (the default command; '-' reads standard input).

    One card per line, '#' starts a comment, a choice goes on its card's line:

    \b
      # hand.txt
      Mountain
      Great Flood
      Smoke
      Whirlwind
      Air Elemental
      Wildfire
      Mirage: Rainstorm

    \b
    Other choices, each on its card's line:
      Doppelgänger: Basilisk              (a card in hand)
      Shapeshifter: none                  (left unassigned)
      Book of Changes: Blizzard -> Beast
      Island: Wildfire

    Necromancer's extra card is simply listed as the 8th card. With the Cursed Hoards
    expansion, a file may start with 'expansion: cursed-hoards' and 'players: N' lines and
    list its Cursed Items and the discard area under '[cursed items]' and '[discard]'.
    Names may be written in any of the game's 11 languages. A choice left out is chosen
    optimally (--no-optimize leaves it unassigned).

    \b
    A hand may also be a share code or a page link of the web scorer:
      fr-score --code 'FR21,FR45,FR13+'
      fr-score --code 'https://fantasy-realms.github.io/?hand=FR21,FR45,FR13%2B'
    """
    from .solve import optimized  # the solver loads only when scoring needs it

    check_lang(lang)
    if print_code and lang is not None:
        raise no_effect("--lang", "with --print-code (a code is made of card ids)")
    stdin_once(*files, discard_spec)
    inputs = sources(files, codes)
    game = Game(card_files, expansion, edition, players, discard_spec)
    console = None if as_json or print_code else console_for(no_color)
    batch = Batch()
    shown_any = False
    for source in inputs:
        with batch.each():
            hand, asked = load_source(source, game)
            if print_code:
                final = optimized(hand)[0].hand if optimize else hand
                if as_json:
                    click.echo(json.dumps({**source.json_key(), "code": share_code(final),
                                           "link": share_link(final)}, ensure_ascii=False))
                else:
                    click.echo(share_text(final))
                continue
            result, shown = optimized(hand) if optimize else (resolve(hand), None)
            loc = names_for(hand.catalog).localizer(lang or asked)
            notes = hand_notes(hand)
            standing = of_hand(result.total, len(result.hand.cards), result.hand.catalog)
            if as_json:
                data = {**source.json_key(), **result_json(result, loc),
                        **(shown.json() if shown else {}), "notes": notes,
                        **(standing.as_json() if standing else {})}
                click.echo(json.dumps(data, ensure_ascii=False))
                continue
            if shown_any:
                click.echo()
            shown_any = True
            print_result(shown.result if shown else result,
                         source.label if len(inputs) > 1 else None, loc, console)
            if standing:
                click.echo(loc.say(standing.message()))
            if shown and shown.line(loc):
                click.echo(shown.line(loc))
            print_notes(notes, console)
    batch.finish()
