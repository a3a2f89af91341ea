"""The order of resolution: identities, Book of Changes, clearing, blanking, then points.

:func:`resolve` scores a :class:`~fantasy_scorer.realms.hand.Hand` and returns a :class:`Result`
with one :class:`Line` per card and the resolved :class:`Slot` objects, which record *why*
each thing happened (who cleared what, who blanked whom) for the referee's explanation.
:func:`score` is the same computation returning only the total, for the searches.

This module is the single source of truth for a score: every search is checked against it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..errors import ScorerError
from . import effects as fx
from .catalog import NO_PENALTY, Card, Catalog, Penalty
from .hand import ChoiceValue, Hand
from .messages import Join, Msg, Name, Suit, render

UNDECIDED, KEPT, BLANKED = 0, 1, 2


class Slot:
    """A card as it stands in the hand during resolution.

    It starts as the printed card and is changed by the steps: a copy rewrites its identity,
    Book of Changes its suits, clearing its ``active`` penalty, blanking its ``state``.
    """

    __slots__ = (
        "card", "index", "name", "suits", "strength", "penalty", "keeps_suits", "copied",
        "changed_by", "cleared_by", "struck_by", "struck", "active", "state", "reason",
        "blanked_by", "immune", "protected_by", "needs", "attackers",
    )

    def __init__(self, card: Card, index: int) -> None:
        self.card = card
        self.index = index
        self.name = card.name
        self.suits = card.suits
        self.strength = card.strength
        self.penalty: Penalty = card.penalty
        self.keeps_suits = card.keeps_suits_when_blanked
        self.copied: Card | None = None
        self.changed_by: Card | None = None
        self.cleared_by: list[Card] = []
        self.struck_by: list[tuple[Card, str]] = []
        self.struck = 0
        self.active: Penalty = card.penalty
        self.state = UNDECIDED
        self.reason = ""
        self.blanked_by: list[Slot] = []
        self.immune = card.immune  # "all" or ""
        self.protected_by: Card | None = None
        self.needs: list[Need] = []  # its self-conditions, as blanking saw them (R8 c)
        self.attackers: list[Slot] = []  # the cards whose active penalty blanks it

    def __repr__(self) -> str:
        return f"Slot({self.name})"


# --------------------------------------------------------------------------------------------
# Steps 1-3
# --------------------------------------------------------------------------------------------


def apply_identities(slots: Sequence[Slot], choices: Mapping[str, ChoiceValue]) -> None:
    """Step 1: copies take the identity of the *printed* target card (R1, R2)."""
    for s in slots:
        eff = s.card.choice
        if type(eff) is fx.Copy:
            target = choices.get(s.card.id)
            if target is None:
                continue
            assert isinstance(target, Card)
            takes = eff.takes
            if "name" in takes:
                s.name = target.name
            if "suit" in takes:
                # Extra suits, and keeping them when blanked, belong to the physical card:
                # a copy of a Phoenix is a Beast and nothing else, and counts for nothing
                # when blanked (R16, R7).
                s.suits = target.copy_suits
                s.keeps_suits = False
            if "strength" in takes:
                s.strength = target.strength
            if "penalty" in takes:
                s.penalty = s.active = target.penalty
            s.copied = target


def apply_changes(slots: Sequence[Slot], choices: Mapping[str, ChoiceValue], cat: Catalog) -> None:
    """Step 2: Book of Changes gives one other card a new suit (R3)."""
    for s in slots:
        if type(s.card.choice) is fx.ChangeSuit:
            value = choices.get(s.card.id)
            if value is None:
                continue
            target, suit = value  # type: ignore[misc]
            for t in slots:
                if t.card is target:
                    t.suits = changed_suits(t, cat.suit_bit(suit))
                    t.changed_by = s.card


def changed_suits(t: Slot, new: int) -> int:
    """The suits of ``t`` once a change of suit gives it ``new``: the new suit replaces the
    suits the physical card lets it replace, the others stay (R3, R17). A card keeping its
    suits when blanked still does (R17)."""
    return (t.suits & t.card.kept_on_change) | new


def can_blank(attacker: Slot, target: Slot) -> bool:
    """Whether ``attacker``'s blanking may hit ``target`` at all, whatever its penalty says:
    never an immune card (C2, C3); a card that blanks only through certain cards only by
    them, through any of its suits (C7); and no card through one that never causes a
    blanking (C8). A card's own penalty always reaches itself."""
    if target.immune:
        return False
    if attacker is target:
        return True
    if attacker.card.never_blanks_others:
        return False
    only = target.card.blanked_only_by
    return not only or any(term.matches(attacker, None) for term in only)


def _immunity(slots: Sequence[Slot], choices: Mapping[str, ChoiceValue]) -> None:
    """Who cannot be blanked: Angel and its protected card (C2), and the cards a card in hand
    makes immune, blanked or not (Lich, Necromancer of the expansion: every Undead, C3).

    A card protected twice names a chosen protection (Angel) first, then the granting card
    with the lowest id, whatever the order of the hand."""
    for s in slots:
        if type(s.card.choice) is fx.Protect:
            value = choices.get(s.card.id)
            if value is not None:
                for t in slots:
                    if t.card is value:
                        t.immune = "all"
                        t.protected_by = s.card
    for s in sorted(slots, key=_by_id):
        card = s.card
        for term in card.grants_immunity:
            for t in slots:
                if term.matches(t, s) and t.immune != "all":
                    t.immune = "all"
                    t.protected_by = card


def _clearing(slots: Sequence[Slot], choices: Mapping[str, ChoiceValue]) -> None:
    """Step 3: every clearing, by every card, blanked later or not (R5, R6)."""
    for s in slots:
        card = s.card
        if not card.clears and not card.clears_word and type(card.choice) is not fx.ClearOne:
            continue
        for eff in card.clears:
            for t in slots:
                if eff.hits(t, s):
                    t.cleared_by.append(card)
        for word in card.clears_word:
            for t in slots:
                if word.hits(t, s):
                    t.struck |= word.suits
                    t.struck_by.append((card, word.word))
        if type(card.choice) is fx.ClearOne:
            value = choices.get(card.id)
            if value is not None:
                target = _clear_target(slots, s, value)
                target.cleared_by.append(card)
    for t in slots:
        if t.cleared_by:
            t.active = NO_PENALTY
        elif t.struck and t.penalty:
            t.active = t.penalty.strike(t.struck)


def _clear_target(slots: Sequence[Slot], s: Slot, value: ChoiceValue) -> Slot:
    """The slot a clearing choice names, if it is of a suit the chooser may clear (R4)."""
    target = next(t for t in slots if t.card is value)
    if not clear_legal(target, s):
        raise ScorerError(clear_message(s.card, target.card), subject=s.card.id)
    return target


def clear_legal(target: Slot, me: Slot) -> bool:
    """Whether ``me``'s clearing choice may name ``target`` as the cards stand after steps 1-2
    (Island: a Flood or Flame then, R4)."""
    eff = me.card.choice
    assert isinstance(eff, fx.ClearOne)
    return any(term.matches(target, me) for term in eff.targets)


def clear_message(chooser: Card, target: Card, open_choices: Sequence[Card] = ()) -> str:
    """Why a written clearing choice cannot stand (R4); with ``open_choices``, no way of
    making them makes it legal."""
    assert isinstance(chooser.choice, fx.ClearOne)
    allowed = " or ".join(term.text for term in chooser.choice.targets)
    if open_choices:
        left = ", ".join(c.name for c in open_choices)
        return (f"{chooser.name}: {target.name} cannot stand: {chooser.name} may clear only a "
                f"{allowed}, and no way of making the open choices ({left}) makes "
                f"{target.name} one after the identities and Book of Changes (R4); "
                "write another target or leave it open")
    return (f"{chooser.name} may clear only a {allowed}; {target.name} is not one "
            "after the identities and Book of Changes (R4)")


def illegal_clear(slots: Sequence[Slot], choices: Mapping[str, ChoiceValue]
                  ) -> tuple[Card, Card] | None:
    """The first clearing choice of ``choices`` (chooser, target) that the cards after steps
    1-2 make illegal (R4), or None: the searches skip such completions of a written one."""
    for s in slots:
        if type(s.card.choice) is fx.ClearOne:
            value = choices.get(s.card.id)
            if value is None:
                continue
            target = next(t for t in slots if t.card is value)
            if not clear_legal(target, s):
                return s.card, value  # type: ignore[return-value]
    return None


def check_clear_targets(cards: Sequence[Card], choices: Mapping[str, ChoiceValue],
                        catalog: Catalog) -> None:
    """Check, without scoring, the one kind of choice whose legality depends on the others: a
    clearing choice's target must have a suit it may clear after steps 1–2 (Island, R4).

    Readers of hands call this instead of a whole resolution, so that a hand is scored once.
    While a copy or a change of suit is still open, the check waits: the searches consider
    only the ways of making the open choices under which the written target is legal, and
    say so when there is none (issue 39).
    """
    if not any(type(c.choice) is fx.ClearOne and choices.get(c.id) is not None for c in cards):
        return
    if any(type(c.choice) in (fx.Copy, fx.ChangeSuit) and c.id not in choices for c in cards):
        return
    slots = [Slot(c, i) for i, c in enumerate(cards)]
    apply_identities(slots, choices)
    apply_changes(slots, choices, catalog)
    for s in slots:
        value = choices.get(s.card.id)
        if type(s.card.choice) is fx.ClearOne and value is not None:
            _clear_target(slots, s, value)  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------
# Step 4: blanking as a whole (R8)
# --------------------------------------------------------------------------------------------


class Need:
    """A self-condition of one card (R8 c), reduced to the cards it depends on.

    ``always`` are the cards that meet it whatever is blanked (the card itself, a blanked
    card that keeps its suits, R15); ``deps`` those that meet it while they are kept;
    ``ignored`` those that match it but can never cause a blanking (C8). Indices are
    positions in the hand.
    """

    __slots__ = ("cond", "unless", "always", "deps", "ignored")

    def __init__(self, cond: fx.BlankedUnless | fx.BlankedIf, always: list[int],
                 deps: list[int], ignored: list[int]) -> None:
        self.cond = cond
        self.unless = type(cond) is fx.BlankedUnless  # blanked unless present / if present
        self.always = always
        self.deps = deps
        self.ignored = ignored

    def status(self, state: Sequence[int]) -> int:
        """KEPT if the condition surely spares the card, BLANKED if it surely blanks it."""
        if self.always:
            present = True
        else:
            present = False
            absent = True
            for j in self.deps:
                st = state[j]
                if st == KEPT:
                    present = True
                    break
                if st != BLANKED:
                    absent = False
            if not present and not absent:
                return UNDECIDED
        if self.unless:
            return KEPT if present else BLANKED
        return BLANKED if present else KEPT

    def present(self, slots: Sequence[Slot]) -> list[Slot]:
        """The cards meeting the condition once blanking is decided."""
        return [slots[j] for j in self.always] + [
            slots[j] for j in self.deps if slots[j].state == KEPT]

    def missing(self, slots: Sequence[Slot]) -> list[Slot]:
        """The cards that would meet it but are blanked."""
        return [slots[j] for j in self.deps if slots[j].state == BLANKED]

    def fails(self, slots: Sequence[Slot]) -> bool:
        """Whether the condition blanks its card, once blanking is decided."""
        return self.status([t.state for t in slots]) == BLANKED


def _need(slots: Sequence[Slot], i: int, cond: fx.BlankedUnless | fx.BlankedIf) -> Need:
    me = slots[i]
    terms = cond.terms
    unless = type(cond) is fx.BlankedUnless
    always: list[int] = []
    deps: list[int] = []
    ignored: list[int] = []
    for j, c in enumerate(slots):
        if j == i:
            if any(t.matches(me, me) for t in terms):
                always.append(j)  # Warship made a Flood has a Flood
            continue
        if c.keeps_suits and any(t.matches_suits_only(c.suits) for t in terms):
            hit = always  # counts for its suits even when blanked (R15)
        elif any(t.matches(c, me) for t in terms):
            hit = deps
        else:
            continue
        if not unless and c.card.never_blanks_others:
            hit = ignored  # it never makes another card blanked (C8)
        hit.append(j)
    return Need(cond, always, deps, ignored)


def _blanking(slots: Sequence[Slot]) -> None:
    """Decide every card's state, independently of the order of the cards (R8).

    (a) a card is blanked when a kept card blanks it or its self-condition surely fails, and
    kept when every attacker is blanked and its self-condition surely holds; (b) when nothing
    more can be decided, the undecided cards lying on a loop of undecided cards cancel out and
    are blanked, then (a) resumes. Self-conditions (R8 c) are decided by the same rule, so that
    chains like "War Dirigible is spared because the only Weather, Smoke, has no Flame" come out
    the same whatever the order.

    Each slot records why: ``blanked_by`` (its kept attackers, or its loop), ``reason``
    (``"lonely"``, ``"loop"`` or ``""``) and ``needs`` (its self-conditions).
    """
    n = len(slots)
    for s in slots:
        a = s.active
        if a.blanks or a.conditions or a.lonely:
            break
    else:  # nobody blanks anybody: the common case
        for s in slots:
            s.state = KEPT
        return
    attackers: list[list[int]] = [[] for _ in range(n)]
    any_rule = False
    for j, s in enumerate(slots):
        for b in s.active.blanks:
            for i, t in enumerate(slots):
                if b.hits(t, s) and can_blank(s, t):
                    attackers[i].append(j)
                    any_rule = True
    needs: list[list[Need]] = [[] for _ in range(n)]
    for i, s in enumerate(slots):
        if s.immune == "all":
            continue
        for cond in s.active.conditions:
            needs[i].append(_need(slots, i, cond))
            any_rule = True
    lonely = _lonely(slots)
    if not any_rule and not lonely:
        for s in slots:
            s.state = KEPT
        return

    state = [UNDECIDED] * n
    for i, demon in lonely.items():
        # Demon blanks first, against the hand as it stands (C1).
        state[i] = BLANKED
        slots[i].reason = "lonely"
        slots[i].blanked_by = [demon]
    while True:
        changed = True
        while changed:
            changed = False
            for i in range(n):
                if state[i] != UNDECIDED:
                    continue
                decided = KEPT
                for j in attackers[i]:
                    if state[j] == KEPT:
                        decided = BLANKED
                        break
                    if state[j] == UNDECIDED:
                        decided = UNDECIDED
                if decided != BLANKED:
                    for need in needs[i]:
                        st = need.status(state)
                        if st == BLANKED:
                            decided = BLANKED
                            break
                        if st == UNDECIDED:
                            decided = UNDECIDED
                if decided != UNDECIDED:
                    state[i] = decided
                    changed = True
        undecided = [i for i in range(n) if state[i] == UNDECIDED]
        if not undecided:
            break
        deps = {i: [j for j in attackers[i] if state[j] == UNDECIDED]
                + [j for need in needs[i] for j in need.deps if state[j] == UNDECIDED]
                for i in undecided}
        for i in _on_loops(deps):
            state[i] = BLANKED
            slots[i].reason = "loop"

    for i, s in enumerate(slots):
        s.state = state[i]
        s.needs = needs[i]
        s.attackers = [slots[j] for j in attackers[i]]
        if state[i] == BLANKED and s.reason != "lonely":
            if s.reason == "loop":
                s.blanked_by = [slots[j] for j in attackers[i]]
            else:
                s.blanked_by = [slots[j] for j in attackers[i] if state[j] == KEPT]


def _lonely(slots: Sequence[Slot]) -> dict[int, Slot]:
    """Cards an uncleared "only card of its suit" penalty blanks, with the card blanking them:
    where two such penalties hit a card (Demon, and Doppelgänger as Demon), the one of the
    lower card id, so that the same hand names the same card whatever its order."""
    out: dict[int, Slot] = {}
    for s in slots:
        for eff in s.active.lonely:
            for i, t in enumerate(slots):
                if ((i in out and _by_id(out[i]) <= _by_id(s)) or not can_blank(s, t)
                        or any(term.matches(t, s) for term in eff.spared)):
                    continue
                if not any(o.suits & t.suits for o in slots if o is not t):
                    out[i] = s
    return out


def _on_loops(graph: dict[int, list[int]]) -> list[int]:
    """Nodes lying on a cycle (a strongly connected component of size > 1, or a self-loop)."""
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    stack: list[int] = []
    on_stack: set[int] = set()
    out: list[int] = []
    counter = [0]

    def visit(v: int) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 or v in graph.get(v, ()):
                out.extend(comp)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


# --------------------------------------------------------------------------------------------
# The pipeline
# --------------------------------------------------------------------------------------------


def run(cards: Sequence[Card], choices: Mapping[str, ChoiceValue], catalog: Catalog,
        context: fx.Context = fx.NO_CONTEXT) -> tuple[list[Slot], fx.View]:
    """Steps 1–4 on unvalidated input; returns the slots and the view points are scored on."""
    slots = [Slot(c, i) for i, c in enumerate(cards)]
    if choices:
        apply_identities(slots, choices)
        apply_changes(slots, choices, catalog)
    _immunity(slots, choices)
    _clearing(slots, choices)
    _blanking(slots)
    kept = [s for s in slots if s.state == KEPT]
    suited = kept if len(kept) == len(slots) else [
        s for s in slots if s.state == KEPT or s.keeps_suits
    ]
    return slots, fx.View(kept, suited, slots, catalog.suits, context)


def card_points(s: Slot, view: fx.View) -> tuple[int, int]:
    """(bonus, penalty) of one kept card."""
    bonus = 0
    for e in s.card.bonus:  # a copy keeps its own printed bonus, never the copied one (R1)
        bonus += e.value(view, s)
    pen = 0
    for e in s.active.points:
        pen += e.value(view, s)
    return bonus, pen


def cursed_points(card: Card, view: fx.View) -> int:
    """A Cursed Item's value: never blanked, so only its own conditions change it."""
    return card.strength + sum(e.value(view, card) for e in card.bonus)


def total_of(slots: Sequence[Slot], view: fx.View, cursed: Sequence[Card] = ()) -> int:
    total = 0
    for s in view.kept:
        b, p = card_points(s, view)
        total += s.strength + b + p
    for c in cursed:
        total += cursed_points(c, view)
    return total


def score(hand: Hand) -> int:
    """The total of a hand: the fast path every search uses."""
    slots, view = run(hand.cards, hand.choices, hand.catalog, hand.context)
    return total_of(slots, view, hand.cursed)


def score_raw(cards: Sequence[Card], choices: Mapping[str, ChoiceValue], catalog: Catalog,
              context: fx.Context = fx.NO_CONTEXT, cursed: Sequence[Card] = ()) -> int:
    """Total of cards already known to be legal (no validation): for inner loops of searches."""
    slots, view = run(cards, choices, catalog, context)
    return total_of(slots, view, cursed)


# --------------------------------------------------------------------------------------------
# The detailed result
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """One card's row of the score sheet.

    ``reasons`` say why the card stands as it does (blanked, kept by its condition, cleared,
    changed, protected) as messages; ``status`` is them in English, and
    :meth:`Localizer.status <fantasy_scorer.realms.names.Localizer.status>` in any language.
    """

    name: str
    as_name: str
    suit: str
    base: int
    bonus: int
    penalty: int
    points: int
    blanked: bool
    cleared: bool
    reasons: tuple[Msg, ...] = ()

    @property
    def status(self) -> str:
        """The Status column in English."""
        return render(Join(self.reasons, "semi"))

    def as_json(self) -> dict:
        return {
            "name": self.name, "as": self.as_name, "suit": self.suit, "base": self.base,
            "bonus": self.bonus, "penalty": self.penalty, "points": self.points,
            "blanked": self.blanked, "cleared": self.cleared,
        }


@dataclass(frozen=True)
class Result:
    hand: Hand
    total: int
    lines: tuple[Line, ...]
    slots: tuple[Slot, ...]
    view: fx.View

    @property
    def base_strength(self) -> int:
        """Sum of printed strengths: the tie-break (lowest wins)."""
        return sum(c.strength for c in self.hand.cards)


# --------------------------------------------------------------------------------------------
# Why: the reasons of the score sheet, which the explanation repeats
# --------------------------------------------------------------------------------------------


def label(s: Slot) -> Card | Msg:
    """A card as it stands: ``Doppelgänger (as Basilisk)``."""
    return s.card if s.name == s.card.name else Msg("label.as", card=s.card, name=Name(s.name))


def labels(slots: Sequence[Slot]) -> Join:
    """Cards named in a sentence, in the order of their ids: the same hand says the same
    sentence whatever order it was written in."""
    return Join([label(s) for s in sorted(slots, key=_by_id)], "and")


def _by_id(s: Slot) -> str:
    return s.card.id


def _witness(c: Slot, me: Slot, need: Need, suits: Sequence[str], kind: bool) -> Card | Msg:
    """A card meeting a self-condition; with ``kind``, what makes it meet it (``a Weather``)."""
    if c is me:
        return Msg("label.itself")
    shown: Card | Msg = label(c)
    blanked = c.state == BLANKED
    if blanked:  # it counts for its suits although blanked (R15)
        shown = Msg("label.keeps_suits", card=shown)
    if not kind:
        return shown
    term = next((t for t in need.cond.terms
                 if (t.matches_suits_only(c.suits) if blanked else t.matches(c, me))), None)
    if term is None or not term.suits:  # met by its name: the name says it
        return shown
    return Msg("label.of_kind", card=shown, kind=fx.a_term(term, suits))


def condition_reason(s: Slot, need: Need, slots: Sequence[Slot], suits: Sequence[str]) -> Msg:
    """What a self-condition found in hand (R8 c): ``no Flame in hand``, ``with Rainstorm
    (a Weather)``, ``Flame in hand (Wildfire)``; the same words whether it blanks or keeps."""
    what = fx.terms_msg(need.cond.terms, suits, "or")
    present = need.present(slots)
    missing = need.missing(slots)
    if need.unless and present:
        return Msg("why.has", need=what, cards=Join(
            [_witness(c, s, need, suits, False) for c in sorted(present, key=_by_id)], "list"))
    if not need.unless and present:
        return Msg("why.with", cards=Join(
            [_witness(c, s, need, suits, True) for c in sorted(present, key=_by_id)], "and"))
    if not need.unless and need.ignored:  # C8
        return Msg("why.harmless", need=what, cards=labels([slots[j] for j in need.ignored]))
    if missing:
        return Msg("why.no_left", need=what, cards=labels(missing))
    return Msg("why.no", need=what)


def blanking_reason(s: Slot, slots: Sequence[Slot], suits: Sequence[str]) -> Msg | None:
    """Why a card is blanked, or why its self-condition keeps it; None when neither applies."""
    conds = Join([condition_reason(s, nd, slots, suits) for nd in s.needs
                  if s.state == KEPT or nd.fails(slots)], "semi")
    if s.state == KEPT:
        return Msg("status.kept", reasons=conds) if conds else None
    if s.reason == "lonely":
        return Msg("status.lonely", by=label(s.blanked_by[0]))
    if s.reason == "loop":
        partners = [b for b in s.blanked_by if b is not s]
        if partners:
            return Msg("status.loop", cards=labels(partners))
        return Msg("status.self") if s in s.blanked_by else Msg("status.loop_condition")
    if s.blanked_by:
        if conds:
            return Msg("status.by_also", cards=labels(s.blanked_by), reasons=conds)
        return Msg("status.by", cards=labels(s.blanked_by))
    return Msg("status.blanked", reasons=conds)


def reasons_of(s: Slot, slots: Sequence[Slot], suits: Sequence[str]) -> tuple[Msg, ...]:
    """Every reason of a card's status, in the order of resolution's consequences."""
    parts: list[Msg] = []
    why = blanking_reason(s, slots, suits)
    if why is not None:
        parts.append(why)
    if s.cleared_by and s.penalty:
        parts.append(Msg("status.cleared", cards=Join(sorted(s.cleared_by, key=lambda c: c.id),
                                                         "and")))
    elif s.struck_by and s.active != s.penalty:  # only where the word stood in the penalty
        parts += [Msg("status.word", word=Suit(w), card=c)
                  for c, w in sorted(s.struck_by, key=lambda cw: cw[0].id)]
    if s.changed_by is not None:
        parts.append(Msg("status.changed", card=s.changed_by))
    if s.protected_by is not None:
        parts.append(Msg("status.protected", card=s.protected_by))
    return tuple(parts)


def resolve(hand: Hand) -> Result:
    """Score a hand with a per-card breakdown."""
    cat = hand.catalog
    slots, view = run(hand.cards, hand.choices, cat, hand.context)
    lines = []
    total = 0
    for s in slots:
        if s.state == KEPT:
            b, p = card_points(s, view)
            pts = s.strength + b + p
            total += pts
            base = s.strength
        else:
            b = p = pts = 0
            # A blanked card shows its strength for reference; the promo Phoenix's is 0 (R15).
            base = 0 if s.keeps_suits else s.strength
        lines.append(Line(
            name=s.card.name,
            as_name=s.name,
            suit=cat.suit_label(s.suits),
            base=base,
            bonus=b,
            penalty=p,
            points=pts,
            blanked=s.state == BLANKED,
            cleared=bool(s.cleared_by) and bool(s.penalty),
            reasons=reasons_of(s, slots, cat.suits),
        ))
    for c in hand.cursed:
        pts = cursed_points(c, view)
        total += pts
        lines.append(Line(c.name, c.name, "Cursed Item", c.strength, pts - c.strength, 0, pts,
                          False, False))
    return Result(hand, total, tuple(lines), tuple(slots), view)
