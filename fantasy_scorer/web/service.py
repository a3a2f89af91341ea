"""What the page and the API do with a player's cards: validate them, score, advise, explain.

A :class:`Pool` is what lies in front of one player: the cards in hand with the choices they
pinned, the Cursed Items they hold (Cursed Hoards), and the table around them (the discard
area, the number of players). It may hold one card more than a hand (the card just drawn),
which is not a legal hand but is what discard advice is about, so it is validated here card by
card and choice by choice, and becomes a :class:`~fantasy_scorer.realms.hand.Hand` only when
it is one.

Every answer is a plain JSON-ready dict: the API sends it as it is, the page's template renders
the same dicts on the first load and its script on every tap. A refusal of this layer is a
:class:`Refusal`, whose sentence lives in the message files, so it is answered in the language
of the request.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import ScorerError, clip
from ..realms import effects as fx
from ..realms.catalog import Card, Catalog, fold
from ..realms.formats.report import result_json, status_text
from ..realms.hand import (
    MAX_DISCARD,
    ChoiceValue,
    Hand,
    change_options,
    check_choice,
    copy_options,
    protect_options,
)
from ..realms.names import Localizer
from ..realms.resolve import check_clear_targets
from ..realms.standing import of_hand
from . import engine, messages
from .games import Game

#: Words a client may send for "let the optimizer choose".
OPEN_WORDS = {"", "optimal", "open", "auto"}

#: A parsed choice meaning "not pinned: the optimizer chooses" (distinct from ``None``,
#: which pins the choice as deliberately unassigned).
OPEN = "open"


class Refusal(ScorerError):
    """A request this layer refuses, with its sentence in the message files: ``str()`` is
    the English line, :meth:`line` the same in another language. Cards among ``values`` are
    named in that language."""

    def __init__(self, key: str, **values: Any) -> None:
        self.key = key
        self.values = values
        super().__init__(self._render(messages.ENGLISH, lambda c: c.name))

    def _render(self, lang: str, name: Any) -> str:
        shown = {k: name(v) if isinstance(v, Card) else v for k, v in self.values.items()}
        return messages.text(lang, self.key, **shown)

    def line(self, game: Game, lang: str) -> str:
        return self._render(lang, lambda c: game.names.display(c, lang))


def error_line(err: ScorerError, game: Game, lang: str) -> str:
    """The one line a user reads for ``err``, in ``lang`` when its sentence is translated."""
    return err.line(game, lang) if isinstance(err, Refusal) else str(err)


@dataclass(frozen=True)
class _Cards:
    """The two things :func:`~fantasy_scorer.realms.hand.check_choice` reads from a hand.

    A pool of one card too many is not a legal :class:`Hand`, yet its pinned choices are
    checked the same way.
    """

    catalog: Catalog
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class Pool:
    """A player's cards (at most :attr:`Game.max_pool`, each once), their pinned choices, the
    Cursed Items they hold and the table: the discard area (None: not given) and players."""

    game: Game
    cards: tuple[Card, ...] = ()
    choices: Mapping[str, ChoiceValue] = field(default_factory=dict)
    cursed: tuple[Card, ...] = ()
    discard: tuple[Card, ...] | None = None
    players: int | None = None

    def __post_init__(self) -> None:
        seen: set[str] = set()
        for c in self.cards + self.cursed:
            if c.id in seen:
                raise Refusal("error.twice", card=c)
            seen.add(c.id)
        for c in self.discard or ():
            if c.id in seen:
                raise Refusal("error.hand_and_discard", card=c)
            if c.cursed:
                raise Refusal("error.cursed_in_discard", card=c)
            seen.add(c.id)
        for c in self.cards:
            if c.cursed:
                raise Refusal("error.cursed_in_hand", card=c)
        for c in self.cursed:
            if not c.cursed:
                raise Refusal("error.not_cursed", card=c)
        if len(self.cards) > self.game.max_pool:
            raise Refusal("error.too_many", n=len(self.cards), most=self.game.max_pool,
                          hand=self.game.hand_size)
        if self.discard is not None and len(self.discard) > MAX_DISCARD:
            raise Refusal("error.discard_full", n=len(self.discard), most=MAX_DISCARD)
        if self.players is not None and not 2 <= self.players <= 6:
            raise Refusal("error.players", n=self.players)
        view = _Cards(self.catalog, self.cards)
        for cid, value in self.choices.items():
            chooser = next((c for c in self.cards if c.id == cid), None)
            if chooser is None or chooser.choice is None:
                name = self.catalog.by_id.get(cid, cid)
                raise Refusal("error.not_a_chooser", card=name)
            if value is not None:
                check_choice(view, chooser, value)  # type: ignore[arg-type]
        # Island's target after step 2 (R4); while a copy or change is open, the search
        # keeps the target legal instead (issue 39)
        check_clear_targets(self.cards, self.choices, self.catalog)

    @property
    def catalog(self) -> Catalog:
        return self.game.catalog

    @property
    def code(self) -> str:
        return engine.to_code(self.catalog, self.cards, self.choices, self.cursed)

    @property
    def discard_code(self) -> str:
        return engine.ids_code(self.discard or ())

    @property
    def advisable(self) -> bool:
        """One card more than a hand: the card just drawn, one of them to let go."""
        return len(self.cards) == self.game.hand_size + 1

    def check_table(self) -> None:
        """The discard area and the number of players, where a card's score reads them."""
        for c in self.cards + self.cursed:
            if "discard" in c.needs and not self.discard:
                raise Refusal("error.needs_discard", card=c)
            if "players" in c.needs and self.players is None:
                raise Refusal("error.needs_players", card=c)

    def hand(self) -> Hand:
        """The pool as a hand; a one-line error when it is not a legal one (size, R13)."""
        self.check_table()
        return Hand(self.catalog, self.cards, dict(self.choices), self.discard, self.players,
                    self.cursed)

    def toggled(self, card: Card) -> Pool:
        """The pool with ``card`` added or taken out (to the Cursed Items if it is one); a card
        of the discard area moves into the hand; pins that no longer hold are dropped."""
        cards, cursed, area = self.cards, self.cursed, self.discard
        if card.cursed:
            cursed = _without(cursed, card) if card in cursed else (*cursed, card)
        elif card in cards:
            cards = _without(cards, card)
        else:
            cards = (*cards, card)
            if area is not None and card in area:
                area = _without(area, card)
        return self._keeping_valid(cards, dict(self.choices), cursed, area)

    def toggled_discard(self, card: Card) -> Pool:
        """The pool with ``card`` put into the discard area or taken out of it (a card in
        hand moves there)."""
        area = self.discard or ()
        cards = self.cards
        if card in area:
            area = _without(area, card)
        else:
            area = (*area, card)
            if card in cards:
                cards = _without(cards, card)
        return self._keeping_valid(cards, dict(self.choices), self.cursed, area)

    def pinned(self, chooser: Card, value: ChoiceValue | str) -> Pool:
        """The pool with ``chooser``'s choice pinned (``OPEN`` unpins it)."""
        choices = dict(self.choices)
        if value is OPEN:
            choices.pop(chooser.id, None)
        else:
            choices[chooser.id] = value  # type: ignore[assignment]
        return Pool(self.game, self.cards, choices, self.cursed, self.discard, self.players)

    def _keeping_valid(self, cards: tuple[Card, ...], choices: dict[str, ChoiceValue],
                       cursed: tuple[Card, ...], area: tuple[Card, ...] | None) -> Pool:
        kept: dict[str, ChoiceValue] = {}
        for cid, value in choices.items():
            try:
                Pool(self.game, cards, {**kept, cid: value}, cursed, area, self.players)
            except ScorerError:
                continue
            kept[cid] = value
        return Pool(self.game, cards, kept, cursed, area, self.players)


def _without(cards: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    return tuple(c for c in cards if c is not card)


# --------------------------------------------------------------------------------------------
# Reading requests
# --------------------------------------------------------------------------------------------


def parse_choice(game: Game, chooser: Card, text: str | None, lang: str | None = None
                 ) -> ChoiceValue | str:
    """A choice as the API takes it: hand-file syntax with names (any language) or ids.

    ``FR37`` / ``Basilisk`` (a copy, Island's or Angel's target), ``Blizzard -> Beast`` (Book
    of Changes; ``:`` as in share codes works too), ``none`` (deliberately unassigned), and
    ``null`` / ``optimal`` (leave it to the optimizer: returns :data:`OPEN`). A did-you-mean
    suggests names in ``lang``.
    """
    names = game.names
    if chooser.choice is None:
        raise Refusal("error.no_choice", card=chooser)
    t = (text or "").strip()
    if fold(t) in OPEN_WORDS:
        return OPEN
    if fold(t) == "none":
        return None
    if isinstance(chooser.choice, fx.ChangeSuit):
        for arrow in ("->", "→", "=>", ":"):
            if arrow in t:
                target, suit = t.split(arrow, 1)
                return (names.card(target, lang), names.suit(suit, lang))
        raise Refusal("error.change_syntax", card=chooser, got=t)
    return names.card(t, lang)


@dataclass(frozen=True)
class Table:
    """The table around a request's cards: Cursed Items, discard area, players."""

    cursed: Sequence[str] = ()
    discard: Sequence[str] | None = None
    players: int | None = None


def pool_from_request(game: Game, cards: Sequence[str],
                      choices: Mapping[str, str | None] | None = None,
                      table: Table | None = None, lang: str | None = None) -> Pool:
    """Cards by name or id plus ``{chooser: choice}`` and the table; every problem is one
    ScorerError. Cursed Items may be listed among the cards or apart."""
    table = table or Table()
    names = game.names
    listed = [names.card(t, lang) for t in cards]
    cursed = [c for c in listed if c.cursed] + [names.card(t, lang) for t in table.cursed]
    hand_cards = tuple(c for c in listed if not c.cursed)
    pins: dict[str, ChoiceValue] = {}
    keys: dict[str, str] = {}  # chooser id -> the key that named it
    for key, text in (choices or {}).items():
        chooser = names.card(key, lang)
        if chooser.id in keys:  # "Mirage" and "FR52": one card, two choices
            raise ScorerError(f"'{clip(keys[chooser.id])}' and '{clip(key)}' both give "
                              f"{chooser.name}'s choice; keep one")
        keys[chooser.id] = key
        if chooser not in hand_cards:
            raise Refusal("error.chooser_absent", card=chooser)
        value = parse_choice(game, chooser, text, lang)
        if value is not OPEN:
            pins[chooser.id] = value  # type: ignore[assignment]
    discard = None if table.discard is None else tuple(names.card(t, lang) for t in table.discard)
    return Pool(game, hand_cards, pins, tuple(cursed), discard, table.players)


def pool_from_code(game: Game, code: str, discard: str | None = None,
                   players: int | None = None) -> Pool:
    """The pool of a page address: its share code, discard area (ids) and players."""
    parsed = engine.parse_code(code, game.catalog)
    area = None if discard is None else engine.parse_ids(discard, game.catalog)
    try:
        return Pool(game, parsed.cards, parsed.choices or {}, parsed.cursed, area, players)
    except Refusal:
        raise
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


def choice_label(game: Game, value: ChoiceValue, lang: str) -> str:
    if value is None:
        return messages.text(lang, "choice.unassigned")
    names = game.names
    if isinstance(value, tuple):
        return f"{names.display(value[0], lang)} → {names.suit_display(value[1], lang)}"
    return names.display(value, lang)


def choice_options(pool: Pool, chooser: Card, lang: str) -> list[dict[str, str]]:
    """Every legal pin of ``chooser`` in this pool, as ``{value, label}``."""
    eff = chooser.choice
    values: list[ChoiceValue]
    if isinstance(eff, fx.Copy):
        values = list(copy_options(pool.cards, pool.catalog, chooser))
    elif isinstance(eff, fx.ChangeSuit):
        values = list(change_options(pool.cards, pool.catalog, chooser))
    elif isinstance(eff, fx.Protect):
        values = list(protect_options(pool.cards, chooser))
    elif isinstance(eff, fx.ClearOne):
        values = []
        others = {k: v for k, v in pool.choices.items() if k != chooser.id}
        for c in pool.cards:
            if c is chooser:
                continue
            try:  # a legal target depends on the suits after the identities (R4)
                check_clear_targets(pool.cards, {**others, chooser.id: c}, pool.catalog)
            except ScorerError:
                continue
            values.append(c)
    else:
        return []
    return [{"value": choice_value(v), "label": choice_label(pool.game, v, lang)}
            for v in values]


def card_ref(game: Game, card: Card, lang: str) -> dict[str, str]:
    return {"id": card.id, "name": card.name, "label": game.names.display(card, lang)}


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
            **card_ref(pool.game, c, lang),
            "pinned": choice_value(pool.choices[c.id]) if pinned else None,
            "used": choice_label(pool.game, made[c.id], lang) if c.id in made else None,
            "chosen_by": "you" if pinned else ("optimizer" if optimized else "nobody"),
            "options": choice_options(pool, c, lang),
        })
    return out


def share_of(pool: Pool, scored: Hand | None = None) -> dict[str, str]:
    """The web scorer's code of the pool and its page link's query (see :func:`engine.share`).

    With ``scored`` (the hand the optimizer completed), the link carries every choice that
    made its total, the optimizer's too, and Necromancer's card from the discard area, so
    that the web scorer (which never chooses) reads back the same total (issue 39)."""
    if scored is not None:
        return engine.share(engine.Shown(pool.catalog, scored.cards, scored.choices,
                                         scored.cursed, scored.discard, scored.players))
    return engine.share(engine.Shown(pool.catalog, pool.cards, pool.choices, pool.cursed,
                                     pool.discard, pool.players))


def as_written_of(pool: Pool, scored: engine.Scored) -> dict[str, int | None]:
    """``{"as_written": N}`` when the optimized total differs from the pool's hand as
    written (open choices unassigned, as the web scorer counts it; null: not legal so),
    else nothing."""
    if not scored.optimized:
        return {}
    from ..realms.solve.api import written_note

    note = written_note(pool.hand(), scored.result.total)
    return {} if note is None else {"as_written": note.total}


def localizer(game: Game, lang: str) -> Localizer:
    return game.names.localizer(lang)


def score_json(pool: Pool, lang: str = "en", optimize: bool = True,
               scored: engine.Scored | None = None) -> dict[str, Any]:
    """The score of the pool as a hand: ``result_json`` plus how the choices were made.

    Each row says whether its card is a Cursed Item and whether it was taken from the discard
    area (Necromancer's extra card, which the optimizer chose)."""
    scored = scored or engine.score_hand(pool.hand(), optimize=optimize)
    result = scored.result
    data = result_json(result)
    loc = localizer(pool.game, lang)
    held = result.hand.cards + result.hand.cursed
    names = pool.game.names
    for line, card, ln in zip(data["cards"], held, result.lines, strict=True):
        line["id"] = card.id
        line["label"] = names.display(card, lang)
        line["as_label"] = loc.name(ln.as_name)
        line["suit_label"] = (names.suit_display(ln.suit, lang) if card.cursed
                              else loc.suit_label(ln.suit))
        line["status"] = status_text(ln, loc)
        line["cursed"] = card.cursed
        line["extra"] = not card.cursed and card not in pool.cards
    data["optimized"] = scored.optimized
    if scored.optimized:
        data["proven"] = scored.proven
    data.update(as_written_of(pool, scored))
    standing = of_hand(result.total, len(result.hand.cards), result.hand.catalog)
    if standing:  # where the total stands among all hands (the census), in the page's words
        data.update(standing.as_json(), standing=loc.say(standing.message()))
    data["code"] = pool.code
    data["share"] = share_of(pool, result.hand if scored.optimized else None)
    data["choosers"] = choosers_json(pool, result.hand.choices, lang, scored.optimized)
    return data


def best_json(pool: Pool, lang: str = "en", time_limit: float | None = None) -> dict[str, Any]:
    """Discard advice for a pool of one card more than a hand, best discard first."""
    if not pool.advisable:
        raise Refusal("error.advice_size", most=pool.game.hand_size + 1,
                      hand=pool.game.hand_size, n=len(pool.cards))
    pool.check_table()
    advice = engine.best_discard(pool.cards, pool.catalog, pool.choices, pool.discard,
                                 pool.players, pool.cursed, time_limit)
    if not advice.discards and advice.complete:
        raise Refusal("error.no_discard")
    from ..realms.solve.api import written_note

    names = pool.game.names

    def written(d: engine.Discard) -> dict[str, int | None]:
        hand = d.scored.hand
        own = {k: v for k, v in pool.choices.items() if k in {c.id for c in hand.cards}}
        note = written_note(hand.with_cards(hand.cards, own), d.scored.result.total)
        return {} if note is None else {"as_written": note.total}

    return {
        "optimized": bool(advice.discards) and advice.discards[0].scored.optimized,
        "complete": advice.complete,
        "code": pool.code,
        "share": share_of(pool),
        "illegal": [{**card_ref(pool.game, c, lang), "reason": why}
                    for c, why in advice.illegal],
        # the discards a time limit kept the search from (none when complete)
        "missing": [card_ref(pool.game, c, lang) for c in advice.missing],
        "discards": [
            {
                **card_ref(pool.game, d.card, lang),
                "total": d.scored.result.total,
                **written(d),
                "optimized": d.scored.optimized,
                "proven": d.scored.proven,
                "code": engine.to_code(pool.catalog, d.scored.hand.cards, {},
                                       d.scored.hand.cursed),
                "choices": {
                    names.display(pool.catalog.by_id[k], lang): choice_label(pool.game, v, lang)
                    for k, v in d.scored.hand.choices.items()
                },
            }
            for d in advice.discards
        ],
    }


def stopped_best_json(pool: Pool, lang: str = "en") -> dict[str, Any]:
    """The discard advice of a search stopped before it settled any discard (its worker
    stopped for another player, :mod:`.workers`): incomplete, every discard missing."""
    return {"optimized": False, "complete": False, "code": pool.code, "share": share_of(pool),
            "illegal": [], "discards": [],
            "missing": [card_ref(pool.game, c, lang) for c in pool.cards]}


#: Seconds the look-ahead advice samples for (``fr-score advise``'s default budget).
ADVISE_BUDGET = 1.0
#: Samples the look-ahead advice draws at least, whatever the budget allowed (a figure
#: with no sample would be no figure).
MIN_SAMPLES = 6


def check_ahead(pool: Pool) -> None:
    """The look-ahead advice's refusals, before any sampling: one card more than a hand,
    the number of players, no Cursed Items (the game engine plays without them), a game
    not yet over (fewer than 10 cards in the discard area)."""
    if not pool.advisable:
        raise Refusal("error.advice_size", most=pool.game.hand_size + 1,
                      hand=pool.game.hand_size, n=len(pool.cards))
    if pool.players is None:
        raise Refusal("error.ahead_players")
    if pool.cursed:
        raise Refusal("error.ahead_cursed")
    if len(pool.discard or ()) >= MAX_DISCARD:
        raise Refusal("error.ahead_ended", n=len(pool.discard or ()))


def advise_json(pool: Pool, lang: str = "en", budget: float = ADVISE_BUDGET,
                min_samples: int = MIN_SAMPLES) -> dict[str, Any]:
    """The look-ahead advice (``fr-score advise``) for a pool of one card more than a hand:
    each discard with its expected final score, chance of winning and gift to the next
    player, the recommended one first. The samples are seeded by the situation, so the same
    cards get the same answer (for the same number of samples). A budget that allowed fewer
    than ``min_samples`` samples is extended to them (the browser, scoring in pure Python,
    asks for fewer rather than keep a tap waiting)."""
    from ..realms.game.advice import Situation, advise
    from ..realms.game.report import advice_json

    check_ahead(pool)
    area = tuple(pool.discard or ())
    sit = Situation(pool.catalog, pool.players, tuple(pool.cards), area)
    seed = f"{pool.code}|{','.join(c.id for c in area)}|{pool.players}"
    scorer = None
    if pool.choices:  # written choices are kept in every hand scored (issue 39)
        from ..realms.game.scoring import Scorer

        scorer = Scorer(pool.catalog, pool.players, pool.choices)
    advice = advise(sit, seed=seed, budget=budget, scorer=scorer, min_samples=min_samples)
    names = pool.game.names
    data = advice_json(advice, lambda c: names.display(c, lang), seed)
    for o in data["options"]:
        o["label"] = o["discard"]
        o["id"] = o["discard_id"]
        o["win_text"] = _shown(o["win"], "{:.0f}%", 100.0)
        o["final_text"] = _shown(o["expected_final"], "{:.1f}")
        o["gift_text"] = _shown(o["gift"], "{:.1f}")
    return data


def _shown(figure: dict[str, Any] | None, fmt: str, scale: float = 1.0) -> str:
    """A figure as the page shows it (the page and its script print this text as it is)."""
    return "–" if figure is None else fmt.format(figure["mean"] * scale)


def explain_json(pool: Pool, lang: str = "en", optimize: bool = True,
                 scored: engine.Scored | None = None) -> dict[str, Any]:
    """The referee's trace of the pool as a hand (open choices optimized as for the score)."""
    scored = scored or engine.score_hand(pool.hand(), optimize=optimize)
    return {
        "total": scored.result.total,
        "optimized": scored.optimized,
        **as_written_of(pool, scored),
        **engine.explain_hand(scored, localizer(pool.game, lang)),
    }


def hand_json(pool: Pool, lang: str = "en", optimize: bool = True) -> dict[str, Any]:
    """The score and the trace of one hand together: the optimizer runs once for both."""
    scored = engine.score_hand(pool.hand(), optimize=optimize)
    return {"score": score_json(pool, lang, optimize, scored),
            "explain": explain_json(pool, lang, optimize, scored)}
