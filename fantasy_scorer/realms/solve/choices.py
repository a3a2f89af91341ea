"""Optimal choices for a fixed set of cards, by enumerating only options that can differ.

The choices are made in the order of resolution: copies first (step 1), then changes of suit
(step 2), then clearing choices such as Island (step 3), whose legal targets depend on the
first two. Options that cannot change the score are collapsed before enumerating:

* a copy keeps one target per signature: the copied suits (by class) and strength, the
  copied penalty, and the copied name only when some card of the hand names it (or the hand
  holds Collector): Mirage and Shapeshifter among the game's cards, Doppelgänger among the
  hand's (two cards of the hand that lend it the same are one option);
* Book of Changes tries each suit some card mentions plus one suit nobody mentions, and never
  a change that leaves the target's suits as they are, nor one that makes an open Mirage or
  Shapeshifter what it could have copied itself;
* Island tries only the cards that have a penalty to clear;
* Angel tries only the cards something in hand could blank (a card's own condition, a
  blanking that selects it, or a "only card of its suit" penalty): protecting any other card
  changes nothing, as leaving it unassigned does.

A written choice is a constraint, never something the search may break: a written Island
target is checked once the copies and changes are made (R4), and a combination that makes
it illegal is skipped; when every combination does, the error names the written choice.

Every remaining combination is scored by the evaluator itself, so the optimum is exact. The
options are tried in a canonical order (hand order, then catalog order, "unassigned" last)
and the first best combination wins, so ties are broken the same way every time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...errors import ScorerError
from .. import effects as fx
from ..catalog import Card, Catalog
from ..hand import ChoiceValue
from ..resolve import (
    Slot,
    apply_changes,
    apply_identities,
    can_blank,
    changed_suits,
    clear_message,
    illegal_clear,
    score_raw,
)
from .relevance import (
    Relevance,
    game_copy_targets,
    hand_copy_targets,
    named,
    relevance,
    suit_choices,
    suits_key,
)

_STAGE = {fx.Copy: 0, fx.ChangeSuit: 1, fx.ClearOne: 2}  # any other choice: stage 2


def _stage(card: Card) -> int:
    return _STAGE.get(type(card.choice), 2)


def _slots(cards: Sequence[Card], choices: Mapping[str, ChoiceValue], cat: Catalog) -> list[Slot]:
    """The cards after steps 1–2 (identities and changes of suit)."""
    slots = [Slot(c, i) for i, c in enumerate(cards)]
    apply_identities(slots, choices)
    apply_changes(slots, choices, cat)
    return slots


def copy_choices(cards: Sequence[Card], cat: Catalog, chooser: Card,
                 rel: Relevance) -> list[ChoiceValue]:
    eff = chooser.choice
    assert isinstance(eff, fx.Copy)
    if eff.source == "hand":
        opts: list[ChoiceValue] = list(hand_copy_targets(cards, chooser, eff, rel))
    else:
        opts = list(game_copy_targets(eff, cat, rel))
    return opts + [None]


def change_choices(slots: Sequence[Slot], cat: Catalog, chooser: Card,
                   rel: Relevance, free: frozenset[str] = frozenset()) -> list[ChoiceValue]:
    """Each (other card, suit class) whose change changes something, then None. ``free``:
    ids of the copies still open (a change of one may be what the copy itself can do)."""
    held = 0
    for s in slots:
        held |= s.suits
    suits = suit_choices(cat, rel, held)
    opts: list[ChoiceValue] = []
    for s in slots:
        if s.card is chooser:
            continue
        if s.card.unchangeable:
            continue
        for suit in suits:
            new = changed_suits(s, cat.suit_bit(suit))
            if new == s.suits:
                continue  # no change at all (R17: a Phoenix made a Beast stays as it is)
            if s.card.id in free and copy_could(s, new, cat, rel):
                continue
            opts.append((s.card, suit))
    return opts + [None]


def copy_could(s: Slot, new: int, cat: Catalog, rel: Relevance) -> bool:
    """Whether ``s``, an open copy of a name and suits from the game (Mirage, Shapeshifter),
    with ``new`` suits after a change would be what it could have made of itself: its name
    one no card tells apart, and one of its targets of such a name lending suits of the same
    classes. That copy, with Book of Changes unassigned, is tried too and scores the same (R1,
    R3), so the change need not be."""
    card = s.card
    eff = card.choice
    if not (isinstance(eff, fx.Copy) and eff.source == "game" and set(eff.takes) ==
            {"name", "suit"} and not card.penalty and not card.keeps_suits_when_blanked):
        return False
    if named(s.name, rel):
        return False
    key = suits_key(new, rel)
    return any(not named(t.name, rel) and suits_key(t.copy_suits, rel) == key
               for t in cat.copy_targets(eff))


def other_choices(slots: Sequence[Slot], chooser: Card) -> list[ChoiceValue]:
    """A choice of one other card in hand (Angel protects one, C2)."""
    return [s.card for s in slots if s.card is not chooser] + [None]


def blankable(slots: Sequence[Slot], target: Slot) -> bool:
    """Whether anything in hand could blank ``target`` as the cards stand after steps 1-2:
    its own condition (R8 c), a blanking of some card's penalty that selects it, or an "only
    card of its suit" penalty (C1). Penalties are read whole (a clearing or a struck word only
    takes from them), so a card this says no to is never blanked: protecting it (C2) is the
    same as protecting nobody."""
    if target.penalty.conditions:
        return True
    for s in slots:
        pen = s.penalty
        if pen.lonely:
            return True
        if pen.blanks and can_blank(s, target) and any(b.hits(target, s) for b in pen.blanks):
            return True
    return False


def protect_choices(slots: Sequence[Slot], chooser: Card) -> list[ChoiceValue]:
    """The cards Angel may protect that something could blank, then None (C2)."""
    return [s.card for s in slots if s.card is not chooser and blankable(slots, s)] + [None]


def clear_choices(slots: Sequence[Slot], chooser: Card) -> list[ChoiceValue]:
    eff = chooser.choice
    if isinstance(eff, fx.Protect):
        return protect_choices(slots, chooser)
    if not isinstance(eff, fx.ClearOne):
        return other_choices(slots, chooser)
    me = next(s for s in slots if s.card is chooser)
    opts: list[ChoiceValue] = [
        s.card for s in slots
        if s.penalty and any(t.matches(s, me) for t in eff.targets)
    ]
    return opts + [None]


class ChoiceSearch:
    """Enumerates the open choices of one set of cards and keeps the first best."""

    def __init__(self, cards: Sequence[Card], catalog: Catalog,
                 pinned: Mapping[str, ChoiceValue] | None = None,
                 context: fx.Context = fx.NO_CONTEXT, cursed: Sequence[Card] = ()) -> None:
        self.cards = list(cards)
        self.cat = catalog
        self.context = context
        self.cursed = tuple(cursed)
        self.pinned = dict(pinned or {})
        choosers = [c for c in self.cards if c.choice is not None and c.id not in self.pinned]
        self.open = sorted(choosers, key=_stage)
        self.free = frozenset(c.id for c in choosers)
        # what the cards can tell apart, read only when some choice is open to collapse
        # (a Cursed Item's terms count too: its bonus reads the hand like any card's)
        self.rel: Relevance | None = (relevance(self.cards + list(self.cursed), catalog)
                                      if choosers else None)
        self.best: int | None = None
        self.best_choices: dict[str, ChoiceValue] = {}
        self.evaluated = 0
        # written clearing targets are judged once steps 1-2 are made: at the first open
        # clearing (or other stage-2) choice, or at the leaves
        self.written_clear = any(isinstance(c.choice, fx.ClearOne)
                                 and self.pinned.get(c.id) is not None for c in self.cards)
        self.check_at = next((k for k, c in enumerate(self.open) if _stage(c) == 2),
                             len(self.open))
        self.refused: tuple[Card, Card] | None = None

    def run(self) -> tuple[int, dict[str, ChoiceValue]]:
        self._walk(0, dict(self.pinned))
        if self.best is None:
            assert self.refused is not None
            chooser, target = self.refused
            early = [c for c in self.open if _stage(c) < 2]
            raise ScorerError(clear_message(chooser, target, early), subject=chooser.id)
        return self.best, self.best_choices

    def _options(self, chooser: Card, choices: dict[str, ChoiceValue]) -> list[ChoiceValue]:
        eff = chooser.choice
        assert self.rel is not None  # read whenever a choice is open
        if isinstance(eff, fx.Copy):
            return copy_choices(self.cards, self.cat, chooser, self.rel)
        slots = _slots(self.cards, choices, self.cat)  # after the choices made so far
        if isinstance(eff, fx.ChangeSuit):
            return change_choices(slots, self.cat, chooser, self.rel, self.free)
        return clear_choices(slots, chooser)

    def _walk(self, k: int, choices: dict[str, ChoiceValue]) -> None:
        if k == self.check_at and self.written_clear:
            refused = illegal_clear(_slots(self.cards, choices, self.cat), choices)
            if refused is not None:
                self.refused = self.refused or refused
                return
        if k == len(self.open):
            total = score_raw(self.cards, choices, self.cat, self.context, self.cursed)
            self.evaluated += 1
            if self.best is None or total > self.best:
                self.best = total
                self.best_choices = dict(choices)
            return
        chooser = self.open[k]
        for value in self._options(chooser, choices):
            choices[chooser.id] = value
            self._walk(k + 1, choices)
        del choices[chooser.id]


def optimal_choices(cards: Sequence[Card], catalog: Catalog,
                    pinned: Mapping[str, ChoiceValue] | None = None,
                    context: fx.Context = fx.NO_CONTEXT, cursed: Sequence[Card] = ()
                    ) -> tuple[int, dict[str, ChoiceValue]]:
    """(best total, the choices reaching it) for these cards; pinned choices are kept, and
    only combinations of the open ones under which every pinned choice is legal count (a
    :class:`ScorerError` naming the pinned choice when there is none).

    Every chooser in ``cards`` gets a value in the returned choices (``None`` when leaving it
    unassigned is best, or ties with the best).
    """
    return ChoiceSearch(cards, catalog, pinned, context, cursed).run()
