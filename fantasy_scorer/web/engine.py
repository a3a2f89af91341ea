"""The web app's only doorway into the engine.

The optimizer (:mod:`fantasy_scorer.realms.solve`), the referee's trace (:mod:`..explain`) and
share codes (:mod:`..sharecode`) are each reached through one function here, so the rest of
the app never imports them directly:

* :func:`score_hand` chooses open choices with the optimizer (``optimized`` says whether it
  ran: a hand with nothing to choose is scored as given); :func:`needs_search` says whether a
  hand has anything to choose (an open choice, or an extra card to take from the discard
  area), which decides whether the answer may be computed at once or goes to a worker.
* :func:`best_discard` ranks the discards of a one-card-too-many pool (the best-of-N search),
  within a time limit.
* :func:`explain_hand` gives the referee's trace.
* :func:`parse_code` / :func:`to_code` read and write the page's own codes (this tool's ids,
  ``ID:none`` for a choice left unassigned on purpose); a code of one card more than a hand
  (the card just drawn, which the discard advice is about) is read with the same syntax.
* :func:`read_link` reads the web scorer's page links (``?hand=…&discard=…&expansions=…&
  playerCount=…``) and :func:`share` prints that scorer's code and link, with the reader and
  printer of :mod:`..formats.sharecode`, so the page speaks exactly that scorer's format.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from threading import Lock
from typing import Any

from ..errors import ScorerError
from ..realms.catalog import Card, Catalog
from ..realms.explain import explanation_json, explanation_lines
from ..realms.formats import sharecode
from ..realms.formats.sharecode import hand_code
from ..realms.hand import ChoiceValue, Hand, hand_limit
from ..realms.names import Localizer
from ..realms.resolve import Result, resolve
from ..realms.solve.api import optimize as _optimize
from ..realms.solve.discards import advise_discards as _advise_discards

# --------------------------------------------------------------------------------------------
# Scoring and discard advice
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scored:
    """A scored hand and how its open choices were settled."""

    result: Result
    optimized: bool  # open choices (and an extra card) were chosen by the optimizer
    proven: bool | None  # the optimizer proved its choices best; None when it did not run

    @property
    def hand(self) -> Hand:
        return self.result.hand


def may_take_extra(hand: Hand) -> bool:
    """Whether the hand has room for an extra card that a card in it may take from its
    discard area (Necromancer, R13): the optimizer then picks the best one, or none."""
    if not hand.discard or len(hand.cards) >= hand_limit(hand.cards, hand.catalog, hand.cursed):
        return False
    return any(g.may_take_extra(d) for g in hand.cards if g.extra is not None
               for d in hand.discard)


def needs_search(hand: Hand) -> bool:
    """Whether scoring the hand optimally means searching (else it is one resolution)."""
    return bool(hand.open_choices) or may_take_extra(hand)


def score_hand(hand: Hand, optimize: bool = True) -> Scored:
    """Score ``hand``; its open choices (and Necromancer's extra card) are chosen optimally
    when ``optimize`` and there is something to choose. Pinned choices are kept as given."""
    if optimize and needs_search(hand):
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
    area = None if hand.discard is None else tuple(c.id for c in hand.discard)
    return (id(hand.catalog), tuple(c.id for c in hand.cards), pins, area, hand.players,
            tuple(c.id for c in hand.cursed))


@dataclass(frozen=True)
class Discard:
    """One way to go from one card too many to a hand: the card let go and the hand left."""

    card: Card
    scored: Scored


@dataclass(frozen=True)
class Advice:
    """Every discard the search reached, best first; ``complete`` when it reached them all
    (a time limit may stop it between two discards: each one listed is exact, and those it
    did not reach are ``missing``). ``illegal``: the discards reached that leave no legal
    hand, each with why."""

    discards: list[Discard]
    complete: bool
    missing: list[Card] = field(default_factory=list)
    illegal: list[tuple[Card, str]] = field(default_factory=list)


def best_discard(pool: Sequence[Card], catalog: Catalog,
                 pins: Mapping[str, ChoiceValue] | None = None,
                 discard: Sequence[Card] | None = None, players: int | None = None,
                 cursed: Sequence[Card] = (), time_limit: float | None = None,
                 clock: Callable[[], float] = time.monotonic) -> Advice:
    """The discards of a one-card-too-many pool, best first (highest total, then the lowest
    base strength, the game's tie-break).

    Each remaining hand keeps the pins that still hold once the card is gone; the optimizer
    makes its other choices (and takes Necromancer's card from the discard area). The
    discards are searched one at a time, so one stopped by ``time_limit`` (seconds of
    ``clock``) answers with those it settled (:mod:`..realms.solve.discards`).
    """
    advice = _advise_discards(list(pool), catalog, list(discard or ()), dict(pins or {}),
                              players, list(cursed), time_limit, clock)
    out = [Discard(sol.discard[0], Scored(sol.result, True, True)) for sol in advice.ranked()]
    return Advice(out, advice.complete, list(advice.missing), advice.illegal())


# --------------------------------------------------------------------------------------------
# The referee's trace
# --------------------------------------------------------------------------------------------


def explain_hand(scored: Scored, loc: Localizer) -> dict[str, Any]:
    """``{"text": str, "steps": [...], "card_texts": {...}}``: the referee's trace of the
    scored hand, and the printed text of each of its cards by the name the trace gives it
    (as ``fr-score card`` prints it: the card data's text with the names in the language),
    so that the page can show a card's rule beside its points."""
    result = scored.result
    text = "\n".join(explanation_lines(result, loc))
    texts = {loc.card(c): loc.text(c.text) for c in (*result.hand.cards, *result.hand.cursed)
             if c.text}
    return {"text": text, "steps": explanation_json(result, loc)["steps"], "card_texts": texts}


# --------------------------------------------------------------------------------------------
# Share codes: FR21,FR45,FR13+FR49:FR12:beast,FR53:FR37
# --------------------------------------------------------------------------------------------

CODE_WHERE = sharecode.WHERE


@dataclass(frozen=True)
class Code:
    """What a share code names: the cards in hand, their pinned choices, the Cursed Items."""

    cards: tuple[Card, ...] = ()
    choices: Mapping[str, ChoiceValue] | None = None
    cursed: tuple[Card, ...] = ()


def parse_code(code: str, catalog: Catalog) -> Code:
    """The cards, pinned choices and Cursed Items a share code names (an empty code: none).

    Only the code's syntax is read here, by the share-code reader's own functions (with their
    messages): the page's code may hold one card more than a hand (the card just drawn) and
    cards that read the discard area, which the page carries beside the code. The caller's
    :class:`~.service.Pool` checks the rest.
    """
    if not code.strip():
        return Code((), {}, ())
    cards, choices, cursed = _parse_pool(code, catalog)
    return Code(cards, choices, cursed)


def _parse_pool(code: str, catalog: Catalog
                ) -> tuple[tuple[Card, ...], dict[str, ChoiceValue], tuple[Card, ...]]:
    """Share-code syntax without the hand's checks (a pool may hold one card too many)."""
    cards, raw = sharecode.read_items(code, catalog)
    choices = {cid: sharecode.parse_choice(catalog, catalog.by_id[cid], parts, item)
               for cid, (parts, item) in raw.items()}
    held = tuple(c for c in cards if not c.cursed)
    return held, choices, tuple(c for c in cards if c.cursed)


def to_code(catalog: Catalog, cards: Sequence[Card], choices: Mapping[str, ChoiceValue],
            cursed: Sequence[Card] = ()) -> str:
    """The canonical share code: plain cards and Cursed Items, then ``+`` and the cards with a
    pinned choice."""
    if cards:
        try:
            return hand_code(Hand(catalog, tuple(cards), dict(choices), cursed=tuple(cursed)))
        except ScorerError:  # not a legal hand: the card just drawn is in it
            pass
    plain = [c.id for c in cards if c.id not in choices] + [c.id for c in cursed]
    pinned = [f"{c.id}:{sharecode.value_code(choices[c.id])}" for c in cards if c.id in choices]
    return ",".join(plain) + ("+" + ",".join(pinned) if pinned else "")


@dataclass(frozen=True)
class Shown:
    """What the share printers read of a hand (its catalog, cards, choices, Cursed Items and
    table), for a pool that may hold one card too many to be a :class:`Hand`."""

    catalog: Catalog
    cards: tuple[Card, ...]
    choices: Mapping[str, ChoiceValue]
    cursed: tuple[Card, ...] = ()
    discard: tuple[Card, ...] | None = None
    players: int | None = None


def share(shown: Shown) -> dict[str, str]:
    """The web scorer's code of the cards and the query of its page's link (``expansions``,
    ``playerCount``, ``hand``, ``discard``): what the page's share box prints."""
    if not shown.cards and not shown.cursed:
        return {"code": "", "query": ""}
    link = sharecode.share_link(shown, page="")  # type: ignore[arg-type]  # reads Shown's fields
    return {"code": sharecode.share_code(shown), "query": link.lstrip("?")}  # type: ignore[arg-type]


@dataclass(frozen=True)
class LinkRead:
    """What a web scorer's link says: its game, the code's cards, the table around them."""

    expansion: str | None
    edition: str
    code: Code
    discard: tuple[Card, ...]
    players: int | None


def read_link(text: str, catalog_of) -> LinkRead:
    """A page link of the web scorer (or a share code in its form) read with the reader of
    :mod:`..formats.sharecode`: the game its ids and ``expansions`` name, then its cards,
    choices and discard area in ``catalog_of(expansion, edition)``'s catalog. Only the syntax
    and the ids are checked here: the cards may be one too many for a hand (the page's
    pool), which the caller's pool checks."""
    link = sharecode.parse_link(text)
    expansion, edition = sharecode.share_game(text)
    catalog = catalog_of(expansion, edition)
    web = sharecode.split_code(link.code).web
    cards, raw = sharecode.read_items(link.code, catalog)
    choices = {cid: sharecode.parse_choice(catalog, catalog.by_id[cid], parts, item, web)
               for cid, (parts, item) in raw.items()}
    held = tuple(c for c in cards if not c.cursed)
    cursed = tuple(c for c in cards if c.cursed)
    area = tuple(sharecode.card_of(catalog, d, d) for d in link.discard or ())
    return LinkRead(expansion, edition, Code(held, choices, cursed), area, link.players)


def looks_like_link(text: str) -> bool:
    return sharecode.looks_like_link(text)


def ids_code(cards: Sequence[Card]) -> str:
    """A list of cards as ids (the discard area in a link): ``FR21,FR37``."""
    return ",".join(c.id for c in cards)


def parse_ids(text: str, catalog: Catalog) -> tuple[Card, ...]:
    """Cards listed by id (``FR21,FR37``), as a share code lists them, without choices."""
    if not text.strip():
        return ()
    cards, raw = sharecode.read_items(text, catalog)
    if raw:
        item = next(iter(raw.values()))[1]
        raise ScorerError(f"the discard area lists cards only, not choices: '{item}'", CODE_WHERE)
    return tuple(cards)
