"""The web app's only doorway into the engine.

The optimizer (:mod:`fantasy_scorer.realms.solve`), the referee's trace (:mod:`..explain`),
translated card names (:mod:`..names`) and share codes (:mod:`..sharecode`) are each reached
through one function here, so the rest of the app never imports them directly:

* :func:`score_hand` chooses open choices with the optimizer (``optimized`` says whether it
  ran: a hand with no open choice is scored as given). Nothing is labelled optimal unless the
  optimizer chose it.
* :func:`best_discard` ranks the discards of an 8-card pool (the optimizer's best-of-8).
* :func:`explain_hand` gives the referee's trace.
* :func:`parse_code` / :func:`to_code` read and write share codes; a code of one card more
  than a hand (the card just drawn, which the discard advice is about) is read here with the
  same syntax, since a share code proper is a legal hand.
* :func:`card_name`, :func:`suit_name`, :func:`localizer` and :func:`languages` give names in
  the languages of the shipped translations.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from threading import Lock
from typing import Any

from ..errors import ScorerError
from ..realms.catalog import Card, Catalog, base_catalog
from ..realms.explain import explanation_json, explanation_lines
from ..realms.formats import sharecode
from ..realms.formats.sharecode import hand_code
from ..realms.formats.sharecode import parse_code as parse_hand_code
from ..realms.hand import ChoiceValue, Hand, hand_limit
from ..realms.names import Localizer, Names, load_i18n
from ..realms.resolve import Result, resolve
from ..realms.solve.api import best_hand as _best_hand
from ..realms.solve.api import optimize as _optimize

# --------------------------------------------------------------------------------------------
# Scoring and discard advice
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scored:
    """A scored hand and how its open choices were settled."""

    result: Result
    optimized: bool  # open choices were chosen by the optimizer
    proven: bool | None  # the optimizer proved its choices best; None when it did not run

    @property
    def hand(self) -> Hand:
        return self.result.hand


def score_hand(hand: Hand, optimize: bool = True) -> Scored:
    """Score ``hand``; its open choices are chosen optimally when ``optimize`` and possible.

    Pinned choices (those in ``hand.choices``) are always kept as given.
    """
    if optimize and hand.open_choices:
        key = _hand_key(hand)
        with _LOCK:
            if key in _SOLVED:
                _SOLVED.move_to_end(key)
                return _SOLVED[key]
        sol = _optimize(hand)
        scored = Scored(sol.result, True, bool(sol.proven))
        with _LOCK:
            _SOLVED[key] = scored
            while len(_SOLVED) > _SOLVED_MAX:
                _SOLVED.popitem(last=False)
        return scored
    return Scored(resolve(hand), False, None)


# A tap asks for the score, then the trace, of the same hand; a hard hand takes the optimizer
# a second or more, so its answer is kept for the next request.
_SOLVED: OrderedDict[tuple[Any, ...], Scored] = OrderedDict()
_SOLVED_MAX = 256
_LOCK = Lock()


def _hand_key(hand: Hand) -> tuple[Any, ...]:
    pins = tuple(sorted((k, sharecode.value_code(v)) for k, v in hand.choices.items()))
    return (id(hand.catalog), tuple(c.id for c in hand.cards), pins)


@dataclass(frozen=True)
class Discard:
    """One way to go from 8 cards to a hand: the card let go and the hand that remains."""

    card: Card
    scored: Scored


def best_discard(pool: tuple[Card, ...], catalog: Catalog,
                 pins: Mapping[str, ChoiceValue] | None = None) -> list[Discard]:
    """Every discard of a one-card-too-many pool, best first (highest total, then the
    lowest base strength, the game's tie-break).

    Each remaining hand keeps the pins that still hold once the card is gone; the optimizer
    makes its other choices (without the optimizer they are left unassigned).
    """
    out: list[Discard] = []
    pinned = dict(pins or {})
    for sol in _best_hand(list(pool), catalog, pinned=pinned, top=len(pool)):
        if len(sol.discard) == 1:
            out.append(Discard(sol.discard[0], Scored(sol.result, True, bool(sol.proven))))
    out.sort(key=lambda d: (-d.scored.result.total, d.scored.result.base_strength))
    return out


def _hand_keeping_pins(catalog: Catalog, cards: tuple[Card, ...],
                       pins: Mapping[str, ChoiceValue]) -> Hand | None:
    """``cards`` as a hand with the pins that still apply, or None if not a legal hand."""
    try:
        Hand(catalog, cards)
    except ScorerError:
        return None  # e.g. eight cards whose Necromancer was the one let go
    kept: dict[str, ChoiceValue] = {}
    for cid, value in pins.items():
        try:
            trial = Hand(catalog, cards, {**kept, cid: value})
            resolve(trial)  # Island's target is checked after the identities (R4)
        except ScorerError:
            continue
        kept[cid] = value
    return Hand(catalog, cards, kept)


# --------------------------------------------------------------------------------------------
# The referee's trace
# --------------------------------------------------------------------------------------------


def explain_hand(scored: Scored, lang: str = "en") -> dict[str, Any]:
    """``{"text": str, "steps": [...]}``: the referee's trace of the scored hand."""
    loc = localizer(lang)
    text = "\n".join(explanation_lines(scored.result, loc))
    return {"text": text, "steps": explanation_json(scored.result, loc)["steps"]}


# --------------------------------------------------------------------------------------------
# Share codes: FR21,FR45,FR13+FR49:FR12:beast,FR53:FR37
# --------------------------------------------------------------------------------------------

CODE_WHERE = sharecode.WHERE


def parse_code(code: str, catalog: Catalog) -> tuple[tuple[Card, ...], dict[str, ChoiceValue]]:
    """The cards and pinned choices a share code names (an empty code is no cards).

    A legal hand is read by :func:`fantasy_scorer.sharecode.parse_code`, with its messages. A
    code of one card more than a hand is read with the same syntax; the caller checks it.
    """
    if not code.strip():
        return (), {}
    try:
        hand = parse_hand_code(code, catalog)
    except ScorerError as refused:
        try:
            cards, choices = _parse_pool(code, catalog)
        except ScorerError:
            raise refused from None
        if len(cards) != hand_limit(cards) + 1:
            raise refused from None
        return cards, choices
    return hand.cards, dict(hand.choices)


def _parse_pool(code: str, catalog: Catalog) -> tuple[tuple[Card, ...], dict[str, ChoiceValue]]:
    """Share-code syntax without the hand's checks (a pool may hold one card too many)."""
    cards, raw = sharecode.read_items(code, catalog)
    choices = {cid: sharecode.parse_choice(catalog, catalog.by_id[cid], parts, item)
               for cid, (parts, item) in raw.items()}
    return tuple(cards), choices


def to_code(catalog: Catalog, cards: tuple[Card, ...], choices: Mapping[str, ChoiceValue]
            ) -> str:
    """The canonical share code: plain cards, then ``+`` and the cards with a pinned choice."""
    try:
        return hand_code(Hand(catalog, cards, dict(choices)))
    except ScorerError:  # not a legal hand: the card just drawn is in it
        pass
    plain = [c.id for c in cards if c.id not in choices]
    pinned = [f"{c.id}:{sharecode.value_code(choices[c.id])}" for c in cards if c.id in choices]
    return ",".join(plain) + ("+" + ",".join(pinned) if pinned else "")


# --------------------------------------------------------------------------------------------
# Display names
# --------------------------------------------------------------------------------------------


@cache
def _names() -> Names:
    """Display names come from the shipped translations, keyed by card id."""
    return Names(base_catalog())


def languages() -> tuple[str, ...]:
    """Languages the page offers: those of the shipped translations."""
    return load_i18n().languages


def check_lang(lang: str) -> str:
    """The language code for ``lang`` (case-insensitive), or a one-line error listing them."""
    return _names().check_lang(lang)


def card_name(card: Card, lang: str = "en") -> str:
    """A card's name in ``lang`` (its English name when there is no translation)."""
    return _names().display(card, lang)


def suit_name(suit: str, lang: str = "en") -> str:
    """A suit's name in ``lang``."""
    return _names().suit_display(suit, lang)


def localizer(lang: str = "en") -> Localizer:
    """Says the engine's output (statuses, trace) in ``lang``: its sentences and names."""
    return _names().localizer(lang)
