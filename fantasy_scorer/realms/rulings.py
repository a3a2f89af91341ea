"""The rulings as data: which rulings exist, and which cards and kinds of effect each concerns.

``docs/rulings.md`` states every ruling in words; ``data/rulings.json`` is its index for
programs (``fr-score card NAME`` can list "the rulings that concern it"). A ruling concerns a
card when it names the card (by id, both printings of a replaced card listed) or when the
card has one of the ruling's kinds of effect, read off the compiled card by :func:`kinds_of`
(so a homebrew card with a copy effect is concerned by R1/R2 like the shipped ones).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from . import effects as fx
from .catalog import Card

RULINGS_FILE = "rulings.json"

#: The kinds of effect a ruling may concern, as :func:`kinds_of` reads them off a card.
KINDS = frozenset({
    "copy_hand", "copy_game", "change_suit", "clear_one", "clears", "clears_word", "blanks",
    "self_condition", "blanks_lonely", "points_with", "points_per", "best_of", "elemental",
    "collection", "runs", "odd_strength", "distinct_suits", "extra_card",
    "keeps_suits_when_blanked", "several_suits", "copied_suits", "change_replaces",
    "blanked_only_by", "never_blanks_others", "protect", "immune", "grants_immunity",
    "in_discard", "players",
})


@dataclass(frozen=True)
class Ruling:
    """One ruling: its id (``R8``), its title in docs/rulings.md, the ids of the cards it
    names and the kinds of effect it concerns."""

    id: str
    title: str
    cards: tuple[str, ...]
    kinds: frozenset[str]


def _read() -> str:
    try:
        return (resources.files("fantasy_scorer.realms.data") / RULINGS_FILE).read_text(
            encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        return (Path(__file__).resolve().parent / "data" / RULINGS_FILE).read_text(
            encoding="utf-8")


@cache
def rulings() -> tuple[Ruling, ...]:
    """Every ruling, R1–R17 then C1–C8, as in docs/rulings.md."""
    data = json.loads(_read())
    out = []
    for rid, entry in data.items():
        if rid.startswith("_"):
            continue
        kinds = frozenset(entry["kinds"])
        if not kinds <= KINDS:
            raise ValueError(f"{RULINGS_FILE}: {rid} has unknown kinds {sorted(kinds - KINDS)}")
        out.append(Ruling(rid, entry["title"], tuple(entry["cards"]), kinds))
    return tuple(out)


def ruling(rid: str) -> Ruling:
    """The ruling with this id (``R8``; ``R8 (b)`` is R8)."""
    key = rid.split()[0]
    for r in rulings():
        if r.id == key:
            return r
    raise KeyError(rid)


def _points_kinds(e: object, card: Card, out: set[str]) -> None:
    if isinstance(e, fx.BestOf):
        out.add("best_of")
        for o in e.options:
            _points_kinds(o, card, out)
    elif isinstance(e, fx.Points):
        if e.in_discard:
            out.add("in_discard")
        if e.condition.players is not None:
            out.add("players")
        if e.per:
            out.add("points_per")
            if all(t.other for t in e.per) and any(t.suits & card.suits for t in e.per):
                out.add("elemental")
        if e.condition.with_any or e.condition.with_all or e.condition.unless:
            out.add("points_with")
    elif isinstance(e, fx.PerPlayer):
        out.add("players")
    else:
        names = {fx.Collection: "collection", fx.Runs: "runs", fx.OddStrength: "odd_strength",
                 fx.DistinctSuits: "distinct_suits"}
        kind = names.get(type(e))
        if kind:
            out.add(kind)


def kinds_of(card: Card) -> frozenset[str]:
    """The kinds of effect a card has, in the vocabulary of :data:`KINDS`."""
    out: set[str] = set()
    choice = card.choice
    if isinstance(choice, fx.Copy):
        out.add("copy_hand" if choice.source == "hand" else "copy_game")
    kind_of_choice = {fx.ChangeSuit: "change_suit", fx.ClearOne: "clear_one",
                      fx.Protect: "protect"}
    if type(choice) in kind_of_choice:
        out.add(kind_of_choice[type(choice)])
    for e in list(card.bonus) + list(card.penalty.points):
        _points_kinds(e, card, out)
    traits = {
        "clears": card.clears, "clears_word": card.clears_word, "blanks": card.penalty.blanks,
        "self_condition": card.penalty.conditions, "blanks_lonely": card.penalty.lonely,
        "extra_card": card.extra, "keeps_suits_when_blanked": card.keeps_suits_when_blanked,
        "several_suits": len(card.suit_names) > 1, "copied_suits": card.copied_suits,
        "change_replaces": card.change_replaces, "blanked_only_by": card.blanked_only_by,
        "never_blanks_others": card.never_blanks_others, "immune": card.immune,
        "grants_immunity": card.grants_immunity,
    }
    out.update(k for k, v in traits.items() if v)
    return frozenset(out)


def concerning(card: Card) -> list[str]:
    """The ids of the rulings that concern a card, in order: Warlock Lord's penalty counts
    once per card (R9); Doppelgänger copies a card in hand (R1, R14) and may copy a Phoenix
    (R16)::

        >>> from fantasy_scorer.realms.catalog import base_catalog
        >>> concerning(base_catalog().card("Warlock Lord"))
        ['R9']
        >>> concerning(base_catalog().card("Doppelgänger"))
        ['R1', 'R14', 'R16']
    """
    kinds = kinds_of(card)
    return [r.id for r in rulings() if card.id in r.cards or r.kinds & kinds]
