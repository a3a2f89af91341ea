"""``fr-score card NAME`` and ``fr-score cards``: what a card does, for the referee.

A card is shown with its text, suit, strength and the ids of the rulings that concern it.
Which rulings concern a card is read off its effects and traits (the compiled YAML), never
off its name, so a homebrew card gets the rulings its effects call for: a card that copies a
card in hand is concerned by R1 whatever it is called.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import click

from ..errors import ScorerError
from ..realms import effects as fx
from ..realms.catalog import EDITIONS, EXPANSIONS, Card, Catalog, load_catalog
from ..realms.formats.handfile import names_for
from ..realms.names import Localizer, check_lang
from .options import CONTEXT, cards_option, fail_cleanly, output_options
from .render import console_for, echo, print_rows, suit_style

# --------------------------------------------------------------------------------------------
# Which rulings concern a card, from its effects
# --------------------------------------------------------------------------------------------


def _bonus_points(card: Card) -> list[fx.Points]:
    """The card's bonus ``Points`` effects, the options of a "X, or Y" included."""
    out: list[fx.Points] = []
    for effect in card.bonus:
        options = effect.options if isinstance(effect, fx.BestOf) else (effect,)
        out += [o for o in options if isinstance(o, fx.Points)]
    return out


def _counts_own_suit_others(card: Card) -> bool:
    """A bonus per *other* card of the card's own suit (the Elementals, R11)."""
    return any(t.other and t.suits & card.suits for p in _bonus_points(card) for t in p.per)


def _pays_once(card: Card) -> bool:
    """A "with"/"if" bonus, or a "X, or Y if ..." bonus (R9)."""
    if any(isinstance(e, fx.BestOf) for e in card.bonus):
        return True
    return any(p.condition.with_any or p.condition.with_all for p in _bonus_points(card))


def _multi_suit(card: Card) -> bool:
    return bin(card.suits).count("1") > 1


def _copy(card: Card, source: str | None = None) -> bool:
    return isinstance(card.choice, fx.Copy) and source in (None, card.choice.source)


def _blanks(card: Card) -> bool:
    """Its penalty blanks cards, or blanks itself on a condition."""
    p = card.penalty
    return bool(p.blanks or p.conditions or p.lonely)


def _struck_by_a_word(card: Card, catalog: Catalog) -> bool:
    """Its penalty changes when a "clears the word X" of the game strikes X (R6)."""
    words = {cw.suits for c in catalog.cards for cw in c.clears_word}
    return bool(card.penalty) and any(card.penalty.strike(m) != card.penalty for m in words)


def _keeps_suits_in_game(catalog: Catalog) -> bool:
    return any(c.keeps_suits_when_blanked for c in catalog.cards)


#: Ruling id -> whether it concerns a card of a catalog. One line per ruling; each reads only
#: effects and traits. Until the rulings index of ``docs/rulings.md`` lands, this is the map.
CONCERNS: dict[str, Callable[[Card, Catalog], bool]] = {
    # identities: a copy from hand takes the printed card, penalty included
    "R1": lambda c, cat: _copy(c, "hand"),
    # a copy of a card of the game counts as its name and suit, and scores 0
    "R2": lambda c, cat: _copy(c, "game"),
    "R3": lambda c, cat: isinstance(c.choice, fx.ChangeSuit),
    "R4": lambda c, cat: isinstance(c.choice, fx.ClearOne),
    # clearing comes before blanking; every penalty can be cleared
    "R5": lambda c, cat: bool(c.clears or c.clears_word or isinstance(c.choice, fx.ClearOne)
                              or c.penalty or any(isinstance(e, fx.PerPenalty) for e in c.bonus)),
    "R6": lambda c, cat: bool(c.clears_word) or _struck_by_a_word(c, cat),
    # a blanked card counts for nothing (a card that keeps its suits is the exception)
    "R7": lambda c, cat: _blanks(c) or c.keeps_suits_when_blanked,
    "R8": lambda c, cat: bool(c.penalty.blanks or c.penalty.conditions),
    "R9": lambda c, cat: _pays_once(c),
    "R10": lambda c, cat: any(isinstance(e, fx.Collection | fx.Runs) for e in c.bonus),
    "R11": lambda c, cat: _counts_own_suit_others(c),
    "R12": lambda c, cat: any(isinstance(e, fx.OddStrength) for e in c.bonus),
    "R13": lambda c, cat: c.extra is not None and c.extra.source == "discard",
    "R14": lambda c, cat: _copy(c),
    # a card of several suits; and what a blanked card that keeps its suits still counts for
    "R15": lambda c, cat: _multi_suit(c) or (
        _keeps_suits_in_game(cat)
        and any(isinstance(e, fx.Collection | fx.DistinctSuits) for e in c.bonus)),
    # the extra suits belong to the physical card, not to a copy of it
    "R16": lambda c, cat: _copy(c) or _multi_suit(c),
    # a change of suit replaces only the printed suit of a card of several suits
    "R17": lambda c, cat: isinstance(c.choice, fx.ChangeSuit)
    or (_multi_suit(c) and not c.unchangeable),
    "C1": lambda c, cat: bool(c.penalty.lonely),
    "C2": lambda c, cat: isinstance(c.choice, fx.Protect) or c.immune == "all",
    "C3": lambda c, cat: bool(c.grants_immunity),
    "C4": lambda c, cat: c.extra is not None,
    "C5": lambda c, cat: "discard" in c.needs,
    "C6": lambda c, cat: "players" in c.needs,
    # no other card may blank it (but a Flood), and it never makes another card blanked
    "C7": lambda c, cat: c.immune == "others",
    "C8": lambda c, cat: c.immune == "others",
}


def rulings_for(card: Card, catalog: Catalog) -> list[str]:
    """The ids of the rulings that concern ``card`` in ``catalog``, in the rules' order."""
    return [rid for rid, concerns in CONCERNS.items() if concerns(card, catalog)]


# --------------------------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------------------------


def suit_text(card: Card, loc: Localizer) -> str:
    return loc.suit_label(card.suit) if card.suit_names else "Cursed Item"


def card_json(card: Card, catalog: Catalog, loc: Localizer) -> dict[str, Any]:
    return {
        "id": card.id,
        "name": loc.card(card),
        "suit": suit_text(card, loc),
        "suits": [loc.name(s) for s in card.suit_names],
        "strength": card.strength,
        "text": loc.text(card.text),
        "cursed": card.cursed,
        "rulings": rulings_for(card, catalog),
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
    data = card_json(card, catalog, loc)
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False))
        return
    console = console_for(no_color)
    echo(f"{data['name']} ({card.id}): {data['suit']}, strength {card.strength}", console,
         f"bold {suit_style(card.suit)}".strip())
    if data["text"]:
        echo(data["text"], console)
    echo(f"Rulings: {', '.join(data['rulings']) or 'none'}", console)


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
            click.echo(json.dumps(card_json(card, catalog, loc), ensure_ascii=False))
        return
    rows = [["Id", "Card", "Suit", "Strength", "Rulings"]]
    rows += [[c.id, loc.card(c), suit_text(c, loc), str(c.strength),
              ", ".join(rulings_for(c, catalog))] for c in shown]
    print_rows(rows, {3}, console_for(no_color), [suit_style(c.suit) for c in shown])
