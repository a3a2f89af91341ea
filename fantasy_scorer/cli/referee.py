"""The referee's commands: ``fr-score explain`` and ``fr-score game``.

They sit in their own module so the scoring command stays small; :mod:`.main` registers
them.
"""

from __future__ import annotations

import json

import click

from ..realms.catalog import EDITIONS, EXPANSIONS
from ..realms.explain import explanation_json
from ..realms.formats.handfile import names_for
from ..realms.formats.report import as_written_text, extra_json, hand_notes, result_json
from ..realms.names import check_lang
from ..realms.solve.api import rank_hands, score_hand, written_note
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
    output_options,
    read_text,
    sources,
    stdin_once,
)
from .render import console_for, echo, print_explanation, print_notes, print_result, print_rows


@click.command("explain", context_settings=CONTEXT)
@click.argument("files", nargs=-1, metavar="HAND_FILE...")
@code_option
@discard_option
@json_option("The trace as JSON, one object per hand, naming its file or code.")
@output_options
@cards_option
@game_options
@fail_cleanly
def explain_cmd(files: tuple[str, ...], codes: tuple[str, ...], discard_spec: str | None,
                as_json: bool, lang: str | None, no_color: bool, card_files: tuple[str, ...],
                expansion: str | None, edition: str | None, players: int | None) -> None:
    """Explain a score step by step, citing the rulings.

    In the order of resolution: what each wild card became, what Book of Changes changed,
    every clearing, every blanking decision and why, then each card's points with their
    arithmetic, in the language of --lang. '[R8 (b)]' cites ruling R8, part (b): every ruling
    is stated, with an example hand, in docs/rulings.md of the fantasy-scorer sources. The
    input is a hand file ('-' reads standard input), as for 'fr-score score', or a share code:

    \b
      fr-score explain examples/hand-260.txt
      fr-score explain --code 'FR37,FR53+FR53:FR37' --lang de
      fr-score explain ghoul.txt --expansion cursed-hoards --discard "King, Queen"

    Open choices are made optimally first, as the score does.
    """
    check_lang(lang)
    stdin_once(*files, discard_spec)
    inputs = sources(files, codes)
    game = Game(card_files, expansion, edition, players, discard_spec)
    console = None if as_json else console_for(no_color)
    batch = Batch()
    shown_any = False
    for source in inputs:
        with batch.each():
            hand, asked = load_source(source, game)
            result = score_hand(hand)
            written = written_note(hand, result.total)  # (issue 39: say when they differ)
            loc = names_for(hand.catalog).localizer(lang or asked)
            notes = hand_notes(hand)
            standing = of_hand(result.total, len(result.hand.cards), result.hand.catalog)
            if as_json:
                data = {**source.json_key(), **explanation_json(result, loc),
                        "extra": extra_json(result.hand, loc), "notes": notes,
                        **(standing.as_json() if standing else {})}
                if written is not None:
                    data["as_written"] = written.total
                click.echo(json.dumps(data, ensure_ascii=False))
                continue
            if shown_any:
                click.echo()
            shown_any = True
            print_explanation(result, source.label if len(inputs) > 1 else None, loc, console)
            if standing:
                click.echo(loc.say(standing.message()))
            if written is not None:
                echo(as_written_text(written.total, loc), console)
            print_notes(notes, console)
    batch.finish()


@click.command("game", context_settings=CONTEXT)
@click.argument("table_file", metavar="TABLE_FILE")
@json_option("Print the ranking as one JSON object.")
@click.option("--sheets", is_flag=True, help="Also print each player's score sheet.")
@output_options
@cards_option
@click.option("--expansion", type=click.Choice(sorted(EXPANSIONS)), default=None,
              help="Play with an expansion's cards (or 'expansion:' in the table file).")
@click.option("--edition", type=click.Choice(sorted(EDITIONS)), default=None,
              help="deluxe: the Deluxe-edition Phoenix (or 'edition:' in the table file).")
@fail_cleanly
def game_cmd(table_file: str, as_json: bool, sheets: bool, lang: str | None, no_color: bool,
             card_files: tuple[str, ...], expansion: str | None, edition: str | None) -> None:
    """Score and rank a whole table (a YAML file; '-' reads standard input).

    \b
      players: 2                # optional: it must equal the number of hands
      discard: [Knights, Queen]
      hands:
        Alice: [Mountain, Great Flood, "Mirage: Rainstorm", ...]
        Bob: |
          King
          Doppelgänger: King
          ...

    The table is checked as a whole (every player's hand, each card once in the game, 7
    cards a hand, at most 10 discarded). Equal totals are decided by the lowest total base
    strength; still equal, the place is shared.
    """
    check_lang(lang)
    text, label = read_text(table_file)
    from ..realms.formats.table import read_table, table_json, verdict  # (PyYAML: here only)

    table = read_table(text, label, card_files, expansion, edition)
    loc = names_for(table.seats[0].hand.catalog).localizer(lang)
    standings = rank_hands((seat.player, seat.hand) for seat in table.seats)
    if as_json:
        data = table_json(table, standings, lambda r: result_json(r, loc), loc.card)
        click.echo(json.dumps({"file": label, **data}, ensure_ascii=False))
        return
    console = console_for(no_color)
    rows = [("Rank", "Player", "Total", "Base strength", "")]
    rows += [(str(s.rank), s.player, str(s.total), str(s.base_strength), s.note)
             for s in standings]
    styles = ["bold green" if s.rank == 1 else "" for s in standings]
    print_rows(rows, {0, 2, 3}, console, styles)
    echo(verdict(standings), console, "bold")
    if sheets:
        for s in standings:
            click.echo()
            print_result(s.result, s.player, loc, console)
