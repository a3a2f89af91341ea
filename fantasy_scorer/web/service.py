"""What the page and the API do with a set of cards: validate it, score it, advise, explain.

A :class:`Pool` is the cards on the table in front of one player with the choices they pinned.
It may hold one card more than a hand (the card just drawn), which is not a legal hand but is
what discard advice is about, so it is validated here card by card and choice by choice, and
becomes a :class:`~fantasy_scorer.realms.hand.Hand` only when it is one.

Every function returns plain JSON-ready dicts: the API sends them as they are, the page's
template renders the same dicts on the first load and its script on every tap.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import ScorerError
from ..realms import effects as fx
from ..realms.catalog import Card, Catalog, fold
from ..realms.formats.report import result_json, status_text
from ..realms.hand import BASE_HAND, ChoiceValue, Hand, change_options, check_choice, copy_options
from ..realms.names import Names
from ..realms.resolve import run
from . import engine

#: The most cards the page takes: a full hand and the card just drawn.
MAX_POOL = BASE_HAND + 1

#: Words a client may send for "let the optimizer choose".
OPEN_WORDS = {"", "optimal", "open", "auto"}

#: A parsed choice meaning "not pinned: the optimizer chooses" (distinct from ``None``,
#: which pins the choice as deliberately unassigned).
OPEN = "open"


@dataclass(frozen=True)
class _Cards:
    """The two things :func:`~fantasy_scorer.realms.hand.check_choice` reads from a hand.

    A pool of 8 is not a legal :class:`Hand`, yet its pinned choices are checked the same way.
    """

    catalog: Catalog
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class Pool:
    """Cards (at most :data:`MAX_POOL`, each once) and the choices pinned for them."""

    catalog: Catalog
    cards: tuple[Card, ...] = ()
    choices: Mapping[str, ChoiceValue] = field(default_factory=dict)

    def __post_init__(self) -> None:
        seen: set[str] = set()
        for c in self.cards:
            if c.id in seen:
                raise ScorerError(f"{c.name} is listed twice; each card exists once in the game")
            seen.add(c.id)
        if len(self.cards) > MAX_POOL:
            raise ScorerError(
                f"{len(self.cards)} cards given, at most {MAX_POOL} "
                f"(a hand of {BASE_HAND} and the card just drawn)"
            )
        view = _Cards(self.catalog, self.cards)
        for cid, value in self.choices.items():
            chooser = next((c for c in self.cards if c.id == cid), None)
            if chooser is None or chooser.choice is None:
                name = self.catalog.by_id[cid].name if cid in self.catalog.by_id else cid
                raise ScorerError(f"{name} is not a card in hand that makes a choice")
            if value is not None:
                check_choice(view, chooser, value)  # type: ignore[arg-type]
        run(self.cards, self.choices, self.catalog)  # Island's target after step 2 (R4)

    @property
    def code(self) -> str:
        return engine.to_code(self.catalog, self.cards, self.choices)

    def hand(self) -> Hand:
        """The pool as a hand; a one-line error when it is not a legal one (size, R13)."""
        return Hand(self.catalog, self.cards, dict(self.choices))

    def toggled(self, card: Card) -> Pool:
        """The pool with ``card`` added or taken out; pins that no longer hold are dropped."""
        if card in self.cards:
            cards = tuple(c for c in self.cards if c is not card)
        else:
            cards = (*self.cards, card)
        return self._keeping_valid(cards, dict(self.choices))

    def pinned(self, chooser: Card, value: ChoiceValue | str) -> Pool:
        """The pool with ``chooser``'s choice pinned (``OPEN`` unpins it)."""
        choices = dict(self.choices)
        if value is OPEN:
            choices.pop(chooser.id, None)
        else:
            choices[chooser.id] = value  # type: ignore[assignment]
        return Pool(self.catalog, self.cards, choices)

    def _keeping_valid(self, cards: tuple[Card, ...], choices: dict[str, ChoiceValue]) -> Pool:
        kept: dict[str, ChoiceValue] = {}
        for cid, value in choices.items():
            try:
                Pool(self.catalog, cards, {**kept, cid: value})
            except ScorerError:
                continue
            kept[cid] = value
        return Pool(self.catalog, cards, kept)


# --------------------------------------------------------------------------------------------
# Reading requests
# --------------------------------------------------------------------------------------------


def parse_choice(chooser: Card, text: str | None, names: Names) -> ChoiceValue | str:
    """A choice as the API takes it: hand-file syntax with names or ids.

    ``FR37`` / ``Basilisk`` (a copy or Island's target), ``Blizzard -> Beast`` (Book of
    Changes; ``:`` as in share codes works too), ``none`` (deliberately unassigned), and
    ``null`` / ``optimal`` (leave it to the optimizer: returns :data:`OPEN`).
    """
    if chooser.choice is None:
        raise ScorerError(f"{chooser.name} makes no choice")
    t = (text or "").strip()
    if fold(t) in OPEN_WORDS:
        return OPEN
    if fold(t) == "none":
        return None
    if isinstance(chooser.choice, fx.ChangeSuit):
        for arrow in ("->", "→", "=>", ":"):
            if arrow in t:
                target, suit = t.split(arrow, 1)
                return (names.card(target), names.suit(suit))
        raise ScorerError(f"write {chooser.name}'s choice as 'CARD -> SUIT', got '{t}'")
    return names.card(t)


def pool_from_request(catalog: Catalog, names: Names, cards: Sequence[str],
                      choices: Mapping[str, str | None] | None = None) -> Pool:
    """Cards by name or id plus ``{chooser: choice}``; every problem is one ScorerError."""
    hand_cards = tuple(names.card(t) for t in cards)
    pins: dict[str, ChoiceValue] = {}
    for key, text in (choices or {}).items():
        chooser = names.card(key)
        if chooser not in hand_cards:
            raise ScorerError(f"{chooser.name} has a choice but is not among the cards")
        value = parse_choice(chooser, text, names)
        if value is not OPEN:
            pins[chooser.id] = value  # type: ignore[assignment]
    return Pool(catalog, hand_cards, pins)


def pool_from_code(catalog: Catalog, code: str) -> Pool:
    cards, choices = engine.parse_code(code, catalog)
    try:
        return Pool(catalog, cards, choices)
    except ScorerError as e:
        raise ScorerError(e.message, engine.CODE_WHERE) from None


# --------------------------------------------------------------------------------------------
# Answers
# --------------------------------------------------------------------------------------------


def choice_value(value: ChoiceValue) -> str:
    """A choice in the API's own syntax (ids), as a client sends it back to pin it."""
    if value is None:
        return "none"
    if isinstance(value, tuple):
        return f"{value[0].id} -> {value[1]}"
    return value.id


def choice_label(value: ChoiceValue, lang: str) -> str:
    if value is None:
        return "unassigned"
    if isinstance(value, tuple):
        return f"{engine.card_name(value[0], lang)} → {engine.suit_name(value[1], lang)}"
    return engine.card_name(value, lang)


def choice_options(pool: Pool, chooser: Card, lang: str) -> list[dict[str, str]]:
    """Every legal pin of ``chooser`` in this pool, as ``{value, label}``."""
    eff = chooser.choice
    values: list[ChoiceValue]
    if isinstance(eff, fx.Copy):
        values = list(copy_options(pool.cards, pool.catalog, chooser))
    elif isinstance(eff, fx.ChangeSuit):
        values = list(change_options(pool.cards, pool.catalog, chooser))
    elif isinstance(eff, fx.ClearOne):
        values = []
        others = {k: v for k, v in pool.choices.items() if k != chooser.id}
        for c in pool.cards:
            if c is chooser:
                continue
            try:  # a legal target depends on the suits after the identities (R4)
                run(pool.cards, {**others, chooser.id: c}, pool.catalog)
            except ScorerError:
                continue
            values.append(c)
    else:
        return []
    return [{"value": choice_value(v), "label": choice_label(v, lang)} for v in values]


def card_ref(card: Card, lang: str) -> dict[str, str]:
    return {"id": card.id, "name": card.name, "label": engine.card_name(card, lang)}


def choosers_json(pool: Pool, made: Mapping[str, ChoiceValue], lang: str,
                  optimized: bool) -> list[dict[str, Any]]:
    """Each card of the pool that makes a choice: what is pinned, what the score used (``made``,
    the scored hand's choices), and every legal option."""
    out = []
    for c in pool.cards:
        if c.choice is None:
            continue
        pinned = c.id in pool.choices
        out.append({
            **card_ref(c, lang),
            "pinned": choice_value(pool.choices[c.id]) if pinned else None,
            "used": choice_label(made[c.id], lang) if c.id in made else None,
            "chosen_by": "you" if pinned else ("optimizer" if optimized else "nobody"),
            "options": choice_options(pool, c, lang),
        })
    return out


def score_json(pool: Pool, lang: str = "en", optimize: bool = True) -> dict[str, Any]:
    """The score of the pool as a hand: ``result_json`` plus how the choices were made."""
    scored = engine.score_hand(pool.hand(), optimize=optimize)
    result = scored.result
    data = result_json(result)
    loc = engine.localizer(lang)
    for line, card, ln in zip(data["cards"], result.hand.cards, result.lines, strict=True):
        line["id"] = card.id
        line["label"] = engine.card_name(card, lang)
        line["as_label"] = loc.name(ln.as_name)
        line["suit_label"] = loc.suit_label(ln.suit)
        line["status"] = status_text(ln, loc)
    data["optimized"] = scored.optimized
    if scored.optimized:
        data["proven"] = scored.proven
    data["code"] = pool.code
    data["choosers"] = choosers_json(pool, result.hand.choices, lang, scored.optimized)
    return data


def best_json(pool: Pool, lang: str = "en") -> dict[str, Any]:
    """Discard advice for a pool of exactly :data:`MAX_POOL` cards, best discard first."""
    if len(pool.cards) != MAX_POOL:
        raise ScorerError(
            f"discard advice needs {MAX_POOL} cards (a hand of {BASE_HAND} and the card just "
            f"drawn); got {len(pool.cards)}"
        )
    advice = engine.best_discard(pool.cards, pool.catalog, pool.choices)
    if not advice:
        raise ScorerError("no card can be discarded to leave a legal hand")
    return {
        "optimized": advice[0].scored.optimized,
        "code": pool.code,
        "discards": [
            {
                **card_ref(d.card, lang),
                "total": d.scored.result.total,
                "optimized": d.scored.optimized,
                "proven": d.scored.proven,
                "code": engine.to_code(pool.catalog, d.scored.hand.cards, {}),
                "choices": {
                    engine.card_name(pool.catalog.by_id[k], lang): choice_label(v, lang)
                    for k, v in d.scored.hand.choices.items()
                },
            }
            for d in advice
        ],
    }


def explain_json(pool: Pool, lang: str = "en", optimize: bool = True) -> dict[str, Any]:
    """The referee's trace of the pool as a hand (open choices optimized as for the score)."""
    scored = engine.score_hand(pool.hand(), optimize=optimize)
    return {
        "total": scored.result.total,
        "optimized": scored.optimized,
        **engine.explain_hand(scored, lang),
    }
