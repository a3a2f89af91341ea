"""``fr-score card NAME`` and ``fr-score cards``: what a card does, for the referee.

A card is shown with its text, suit, strength and the rulings that concern it. Which rulings
concern a card comes from the rulings index (:mod:`fantasy_scorer.realms.rulings`, the data
behind ``docs/rulings.md``): the cards each ruling names, by id, and the kinds of effect it
concerns, read off the compiled card, so a homebrew card that copies a card in hand is
concerned by R1 whatever it is called.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import click

from ..errors import ScorerError
from ..realms.catalog import EDITIONS, EXPANSIONS, Card, Catalog, load_catalog
from ..realms.formats.handfile import names_for
from ..realms.names import Localizer, check_lang
from ..realms.rulings import concerning, ruling
from .options import CONTEXT, cards_option, fail_cleanly, output_options
from .render import console_for, echo, print_rows, suit_style

# --------------------------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------------------------


def suit_text(card: Card, loc: Localizer) -> str:
    return loc.suit_label(card.suit) if card.suit_names else "Cursed Item"


def card_json(card: Card, loc: Localizer) -> dict[str, Any]:
    return {
        "id": card.id,
        "name": loc.card(card),
        "suit": suit_text(card, loc),
        "suits": [loc.name(s) for s in card.suit_names],
        "strength": card.strength,
        "text": loc.text(card.text),
        "cursed": card.cursed,
        "rulings": concerning(card),
    }


def catalog_for(card_files: tuple[str, ...], expansion: str | None, edition: str | None,
                lang: str | None) -> tuple[Catalog, Localizer]:
    check_lang(lang)
    catalog = load_catalog(card_files, expansion, edition)
    return catalog, names_for(catalog).localizer(lang)


def game_choice(fn: Callable[..., Any]) -> Callable[..., Any]:
    """--expansion and --edition: which cards the game has."""
    fn = click.option("--edition", type=click.Choice(sorted(EDITIONS)), default=None,
                      help="deluxe: the Deluxe-edition Phoenix replaces the promo Phoenix.")(fn)
    return click.option("--expansion", type=click.Choice(sorted(EXPANSIONS)), default=None,
                        help="Play with an expansion's cards (cursed-hoards).")(fn)


# --------------------------------------------------------------------------------------------
# Commands
# --------------------------------------------------------------------------------------------


@click.command("card", context_settings=CONTEXT)
@click.argument("words", nargs=-1, metavar="NAME")
@click.option("--json", "as_json", is_flag=True, help="Print the card as one JSON object.")
@output_options
@cards_option
@game_choice
@fail_cleanly
def card_cmd(words: tuple[str, ...], as_json: bool, lang: str | None, no_color: bool,
             card_files: tuple[str, ...], expansion: str | None, edition: str | None) -> None:
    """What a card does: its text, suit, strength and the rulings that concern it.

    \b
      fr-score card Warlock Lord
      fr-score card Gebirge --lang de        # a name in any of the 11 languages
      fr-score card FR53                      # or its id
      fr-score card Lich --expansion cursed-hoards

    The ids (R1-R17, C1-C8) are those of docs/rulings.md.
    """
    if not words:
        raise ScorerError("give a card name, e.g. fr-score card 'Warlock Lord' "
                          "(fr-score cards lists them all)")
    catalog, loc = catalog_for(card_files, expansion, edition, lang)
    card = names_for(catalog).card(" ".join(words))
    data = card_json(card, loc)
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False))
        return
    console = console_for(no_color)
    echo(f"{data['name']} ({card.id}): {data['suit']}, strength {card.strength}", console,
         f"bold {suit_style(card.suit)}".strip())
    if data["text"]:
        echo(data["text"], console)
    if not data["rulings"]:
        echo("Rulings: none", console)
        return
    echo("Rulings (docs/rulings.md):", console)
    width = max(len(rid) for rid in data["rulings"])
    for rid in data["rulings"]:
        echo(f"  {rid:<{width}}  {ruling(rid).title}", console)


@click.command("cards", context_settings=CONTEXT)
@click.option("--suit", metavar="SUIT", default=None,
              help="Only the cards of this suit (any language; a card of several suits "
                   "is listed under each).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per card.")
@output_options
@cards_option
@game_choice
@fail_cleanly
def cards_cmd(suit: str | None, as_json: bool, lang: str | None, no_color: bool,
              card_files: tuple[str, ...], expansion: str | None, edition: str | None) -> None:
    """List every card of the game: id, name, suit, strength and rulings.

    \b
      fr-score cards
      fr-score cards --suit Flame
      fr-score cards --expansion cursed-hoards --lang fr --json
      fr-score cards --cards my-cards.yaml     # with your homebrew cards

    'fr-score card NAME' shows one card with its text.
    """
    catalog, loc = catalog_for(card_files, expansion, edition, lang)
    shown = catalog.cards
    if suit is not None:
        bit = catalog.suit_bit(names_for(catalog).suit(suit))
        shown = [c for c in shown if c.suits & bit]
    if as_json:
        for card in shown:
            click.echo(json.dumps(card_json(card, loc), ensure_ascii=False))
        return
    rows = [["Id", "Card", "Suit", "Strength", "Rulings"]]
    rows += [[c.id, loc.card(c), suit_text(c, loc), str(c.strength),
              ", ".join(concerning(c))] for c in shown]
    print_rows(rows, {3}, console_for(no_color), [suit_style(c.suit) for c in shown])
