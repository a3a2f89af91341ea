"""The referee's explanation: how a score came about, step by step, in the order of resolution.

When a player disputes a result, the table needs an account a person can follow and check
against the rules. :func:`explain` reads what the resolver recorded on each resolved card
(``resolve.Slot``: what it copied, who changed its suit, who cleared or struck its penalty,
whether it was blanked and by whom) and turns it into a list of :class:`Step` objects:

1. ``identity``: what each wild card became (R1, R2, R14);
2. ``change``: what Book of Changes changed (R3);
   ``protect``: the cards that cannot be blanked (Angel, Lich; C2, C3);
3. ``extra``: the extra cards of Necromancer and the expansion's cards (R13, C4);
4. ``clear``: every clearing, by which card, of which penalty or which word of it (R4-R6);
5. ``blank`` / ``keep``: every blanking decision with its cause, and the cards that were
   attacked but spared because their attacker was itself blanked (R8 a-c, R15, C1);
6. ``points``: each card's base strength, then every bonus and penalty with its arithmetic,
   taken from the effects' own ``explain()`` (so the numbers are the engine's numbers), then
   each Cursed Item's value;
7. ``total``.

Nothing here decides a rule: the resolver did. The explanation only re-reads the card data to
say *which part* of a penalty applied, so that the trace can never disagree with the score
(a test checks, on random hands, that the ``points`` steps add up to the resolver's total).
Step texts are English with canonical names; :class:`~fantasy_scorer.realms.names.Localizer`
translates the names for ``--lang``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from . import effects as fx
from .catalog import Card, Catalog, Penalty
from .names import Localizer
from .resolve import BLANKED, KEPT, Result, Slot

#: The sections of a trace, in the order of resolution, with what to say when one is empty.
SECTIONS: tuple[tuple[str, str, str], ...] = (
    ("identity", "Identities", "no card takes another card's identity"),
    ("change", "Book of Changes", "no card changes a suit"),
    ("protect", "Immunity", ""),
    ("extra", "Extra cards", ""),
    ("clear", "Clearing", "no penalty is cleared"),
    ("blank", "Blanking", "no card blanks another; no card is blanked"),
    ("points", "Points", ""),
)


@dataclass(frozen=True)
class Step:
    """One statement of the explanation.

    ``rulings`` are the cited rulings as written in the rules (``R8 (b)``); ``points`` is set on
    ``points`` and ``total`` steps only; ``part`` says which part of a card's score a ``points``
    step is (``base``, ``bonus``, ``penalty``, ``blanked``); ``by`` are the cards that caused
    the step (the card copied, the clearer, the blanker...).
    """

    step: str
    card: Card | None
    text: str
    rulings: tuple[str, ...] = ()
    points: int | None = None
    part: str | None = None
    by: tuple[Card, ...] = field(default=())

    @property
    def ruling(self) -> str | None:
        """The main ruling id (``R8``), or None."""
        return self.rulings[0].split()[0] if self.rulings else None

    def as_json(self, loc: Localizer | None = None) -> dict[str, Any]:
        tr = loc.text if loc else (lambda s: s)
        out: dict[str, Any] = {
            "step": self.step,
            "card": None if self.card is None else (loc.card(self.card) if loc else self.card.name),
            "card_id": None if self.card is None else self.card.id,
            "text": tr(self.text),
            "ruling": self.ruling,
            "rulings": list(self.rulings),
        }
        if self.points is not None:
            out["points"] = self.points
        if self.part is not None:
            out["part"] = self.part
        if self.by:
            out["by"] = [loc.card(c) if loc else c.name for c in self.by]
        return out


# --------------------------------------------------------------------------------------------
# Words
# --------------------------------------------------------------------------------------------


def _and(words: Sequence[str]) -> str:
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def _a(word: str) -> str:
    """``a Flame``, ``an Army``."""
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def _every(term: str) -> str:
    """``every Flood``; ``every card except …`` for the selector ``any except …``."""
    return "every card" + term[3:] if term.startswith("any") else "every " + term


def _or(words: Sequence[str]) -> str:
    words = list(words)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _label(s: Slot) -> str:
    """A card as it stands: ``Doppelgänger (as Basilisk)``."""
    return s.card.name if s.name == s.card.name else f"{s.card.name} (as {s.name})"


def _terms(terms: Sequence[fx.Term], joiner: str = ", ") -> str:
    return joiner.join(t.text for t in terms)


def describe_points(e: fx.PointEffect) -> str:
    """A point effect in words, from its data (used for penalties whose words were struck)."""
    if isinstance(e, fx.Points):
        per = f" per {_terms(e.per)}" if e.per else ""
        cond = e.condition.text()
        return f"{e.points:+d}{per}" + (f" {cond}" if cond else "")
    if isinstance(e, fx.BestOf):
        return ", or ".join(describe_points(o) for o in e.options)
    return type(e).__name__


def describe_penalty(p: Penalty) -> str:
    """A penalty in words, from its data."""
    parts = ["blanks " + ", ".join(_every(t.text) for t in b.targets) for b in p.blanks]
    for c in p.conditions:
        if isinstance(c, fx.BlankedUnless):
            parts.append(f"blanked unless with {_terms(c.terms, ' or ')}")
        else:
            parts.append(f"blanked with any {_terms(c.terms, ' or ')}")
    parts += [describe_points(e) for e in p.points]
    return "; ".join(parts) or "nothing"


def _printed_penalty(card: Card) -> str | None:
    """The words after "Penalty:" on the card (its first sentence), if the card says them."""
    head, sep, rest = card.text.partition("Penalty:")
    if not sep:
        return None
    sentence = rest.strip().split(". ")[0]
    return sentence.rstrip(".").strip() or None


def _penalty_source(s: Slot) -> Card:
    """The card whose printed penalty this slot carries (a Doppelgänger's is the copied one)."""
    if s.copied is not None and s.penalty is s.copied.penalty and s.copied.penalty:
        return s.copied
    return s.card


def penalty_words(s: Slot) -> str:
    """The slot's full penalty in words: the printed text when there is one."""
    src = _penalty_source(s)
    return _printed_penalty(src) or describe_penalty(s.penalty)


# --------------------------------------------------------------------------------------------
# Steps 1-3: identities, Book of Changes, extra card
# --------------------------------------------------------------------------------------------

_TAKES = (("name", "name"), ("strength", "base strength"), ("suit", "suit"),
          ("penalty", "penalty"))
_NOT_TAKEN = (("strength", "strength"), (None, "bonus"), ("penalty", "penalty"))


def _identities(result: Result) -> list[Step]:
    hand = result.hand
    steps = []
    for s in result.slots:
        eff = s.card.choice
        if not isinstance(eff, fx.Copy):
            continue
        rulings: tuple[str, ...] = ("R1",) if eff.source == "hand" else ("R2",)
        if s.copied is None:
            how = ("is left unassigned" if s.card.id in hand.choices
                   else "has no choice recorded and is scored unassigned")
            steps.append(Step(
                "identity", s.card,
                f"{s.card.name} {how}: it keeps its own name, the suit {s.card.suit} and "
                f"strength {s.card.strength}", ("R2",)))
            continue
        target = s.copied
        taken = [word for key, word in _TAKES if key in eff.takes]
        left = [word for key, word in _NOT_TAKEN if key is None or key not in eff.takes]
        text = (f"{s.card.name} becomes {target.name}: it takes its {_and(taken)} "
                f"({target.suit}, {target.strength}), not its {_or(left)}")
        if eff.source == "game" and target not in hand.cards:
            text += f"; {target.name} itself is not in this hand, any card of the game will do"
            rulings += ("R14",)
        changed = next((t for t in result.slots if t.card is target and t.changed_by), None)
        if changed is not None and "suit" in eff.takes:
            text += (f"; it copies the printed suit, although {changed.changed_by.name} "  # type: ignore[union-attr]
                     f"changes the suit of {target.name} later")
            rulings = ("R1",) + tuple(r for r in rulings if r != "R1")
        steps.append(Step("identity", s.card, text, rulings, by=(target,)))
    return steps


def _suits_before_change(s: Slot) -> int:
    eff = s.card.choice
    if s.copied is not None and isinstance(eff, fx.Copy) and "suit" in eff.takes:
        return s.copied.suits
    return s.card.suits


def _changes(result: Result) -> list[Step]:
    hand, cat = result.hand, result.hand.catalog
    steps = []
    for s in result.slots:
        if not isinstance(s.card.choice, fx.ChangeSuit):
            continue
        value = hand.choices.get(s.card.id)
        if value is None:
            how = "is left unassigned" if s.card.id in hand.choices else "has no choice recorded"
            steps.append(Step("change", s.card, f"{s.card.name} {how}: no suit changes", ("R3",)))
            continue
        target, suit = value  # type: ignore[misc]
        t = next(x for x in result.slots if x.card is target)
        before = cat.suit_label(_suits_before_change(t))
        steps.append(Step(
            "change", s.card,
            f"{s.card.name} changes {_label(t)} from {before} to {suit}: it counts as a {suit} "
            f"everywhere, its own effects included; its name, bonus and penalty stay",
            ("R3",), by=(target,)))
    return steps


def _immunity(result: Result) -> list[Step]:
    """Who cannot be blanked, and why (C2, C3; the Deluxe Phoenix's own trait)."""
    hand = result.hand
    steps = []
    for s in result.slots:
        card = s.card
        if isinstance(card.choice, fx.Protect):
            value = hand.choices.get(card.id)
            if value is None:
                how = "is left unassigned" if card.id in hand.choices else "has no choice recorded"
                text = f"{card.name} {how}: it protects no other card"
            else:
                text = f"{card.name} protects {value.name}: it cannot be blanked"  # type: ignore[union-attr]
            if card.immune == "all":
                text += f", and neither can {card.name} itself"
            steps.append(Step("protect", card, text, ("C2",),
                              by=(value,) if isinstance(value, Card) else ()))
        elif card.immune == "all":
            steps.append(Step("protect", card, f"{card.name} can never be blanked", ("C2",)))
        elif card.immune == "others":
            steps.append(Step("protect", card, f"{card.name} cannot be blanked by another card; "
                              "only its own penalty may blank it"))
        if card.grants_immunity:
            covered = [t for t in result.slots if t.protected_by is card]
            what = _or([t.text for t in card.grants_immunity])
            text = (f"{card.name}, blanked or not, makes every {what} in hand immune to "
                    f"blanking" + (f" ({_names(covered)})" if covered else ": there is none"))
            steps.append(Step("protect", card, text, ("C3",), by=tuple(t.card for t in covered)))
    return steps


def _extra(result: Result) -> list[Step]:
    cat = result.hand.catalog
    size = cat.hand_size
    cards = result.hand.cards
    if len(cards) <= size:
        return []
    steps = []
    extra = len(cards) - size
    holders = [(c, c.extra) for c in cards + result.hand.cursed if c.extra is not None]
    state = {s.card.id: s.state for s in result.slots}
    for card, eff in holders[:extra]:
        assert eff is not None
        if eff.source == "discard":
            allowed = cat.suit_label(eff.suits).split("/")
            text = (f"{card.name} lets the hand hold one more card: {_a(_or(allowed))} taken "
                    "from the discard area")
            rulings: tuple[str, ...] = ("R13",)
        else:
            text = f"{card.name} adds one more card to the hand, drawn from the deck"
            rulings = ("C4",)
        if state.get(card.id) == BLANKED:
            text += f"; it stays in hand although {card.name} is blanked"
            rulings += ("C4",) if "C4" not in rulings else ()
        steps.append(Step("extra", card, text + f" ({len(cards)} cards in hand)", rulings))
    return steps


# --------------------------------------------------------------------------------------------
# Step 3: clearing
# --------------------------------------------------------------------------------------------


def _clearing(result: Result) -> list[Step]:
    steps = []
    slot_of = {s.card.id: s for s in result.slots}
    for s in result.slots:
        if not s.penalty:
            continue
        if s.cleared_by:
            rulings = ["R5"]
            notes = []
            for c in s.cleared_by:
                if isinstance(c.choice, fx.ClearOne):
                    rulings.insert(0, "R4")
                    notes.append(f"{c.name} chose {s.card.name}")
                if slot_of[c.id].state == BLANKED:
                    notes.append(f"{c.name} is blanked later but still clears")
            whose = "the penalty it copied" if _penalty_source(s) is not s.card else "its penalty"
            text = (f"{_and([c.name for c in s.cleared_by])} clear"
                    f"{'s' if len(s.cleared_by) == 1 else ''} the penalty of {_label(s)} "
                    f"({penalty_words(s)}): {whose} counts for nothing")
            if s.penalty.blanks:
                text += " and it blanks nothing"
            if notes:
                text += " (" + "; ".join(notes) + ")"
            steps.append(Step("clear", s.card, text, tuple(rulings), by=tuple(s.cleared_by)))
        elif s.struck_by and s.active != s.penalty:
            clearers = []
            for c, _word in s.struck_by:
                if c not in clearers:
                    clearers.append(c)
            words = sorted({w for _, w in s.struck_by})
            after = describe_penalty(s.active) if s.active else None
            verb = "clears" if len(clearers) == 1 else "clear"
            text = (f"{_and([c.name for c in clearers])} {verb} the word {_and(words)} from "
                    f"the penalty of {_label(s)} ({penalty_words(s)}): ")
            text += f"what is left is '{after}'" if after else "nothing of it is left"
            steps.append(Step("clear", s.card, text, ("R6",), by=tuple(clearers)))
    return steps


# --------------------------------------------------------------------------------------------
# Step 4: blanking
# --------------------------------------------------------------------------------------------


def _hit_by(slots: Sequence[Slot]
            ) -> tuple[list[list[tuple[Slot, str]]], list[list[tuple[Slot, str]]]]:
    """For each card, the cards whose active penalty blanks it, with the words that do; and
    apart, those whose blow its immunity stops (C2, C3: never blanked; the Deluxe Phoenix: by
    no other card)."""
    hits: list[list[tuple[Slot, str]]] = [[] for _ in slots]
    stopped: list[list[tuple[Slot, str]]] = [[] for _ in slots]
    for a in slots:
        for b in a.active.blanks:
            for i, t in enumerate(slots):
                if b.hits(t, a):
                    term = next(x for x in b.targets if x.matches(t, a))
                    blocked = t.immune == "all" or (t.immune == "others" and t is not a)
                    (stopped if blocked else hits)[i].append((a, term.text))
    return hits, stopped


def _immune_why(s: Slot) -> tuple[str, tuple[str, ...]]:
    """Why a card cannot be blanked, and the ruling."""
    by = s.protected_by
    if by is not None and isinstance(by.choice, fx.Protect):
        return f"{by.name} protects it", ("C2",)
    if by is not None:
        return f"{by.name} makes it immune", ("C3",)
    if s.immune == "all":
        return "it can never be blanked", ("C2",)
    return "no other card may blank it", ()


def _condition_cards(slots: Sequence[Slot], s: Slot, cond: fx.BlankedUnless | fx.BlankedIf
                     ) -> tuple[list[Slot], list[Slot]]:
    """(kept cards that meet the condition, blanked cards that would have): R8 (c), R15."""
    present, missing = [], []
    for c in slots:
        if any(t.matches(c, s) for t in cond.terms):
            (present if c.state == KEPT else missing).append(c)
        elif c.state == BLANKED and c.keeps_suits and any(
            t.matches_suits_only(c.suits) for t in cond.terms
        ):
            present.append(c)
    return present, missing


def _names(slots: Sequence[Slot]) -> str:
    return _and([_label(c) for c in slots])


def _blank_step(s: Slot, hits: list[tuple[Slot, str]], stopped: list[tuple[Slot, str]],
                slots: Sequence[Slot], cat: Catalog) -> Step | None:
    if s.state == BLANKED:
        extra_rule: tuple[str, ...] = ("R15",) if s.keeps_suits else ()
        tail = (f"; blanked, it still counts as {s.card.suit.replace('/', ', ')}"
                if s.keeps_suits else "")
        if s.reason == "lonely":
            demon = s.blanked_by[0]
            text = (f"{_label(s)} is blanked by {_label(demon)}: no other card in hand shares "
                    f"its suit ({cat.suit_label(s.suits)}), and "
                    f"{demon.card.name} blanks such cards before any other blanking")
            return Step("blank", s.card, text + tail, ("C1",) + extra_rule, by=(demon.card,))
        if s.reason == "loop":
            partners = [b for b in s.blanked_by if b is not s]
            if s in s.blanked_by and not partners:
                text = (f"{_label(s)} blanks itself ({_words(hits, s)}): a card that blanks "
                        "itself is blanked")
            elif partners:
                text = (f"{_label(s)} is blanked: it and {_names(partners)} blank each other, "
                        "and cards on such a loop cancel out: all are blanked and blank nothing")
            else:
                text = (f"{_label(s)} is blanked: its penalty depends on cards that depend on it "
                        "in turn, and such a loop cancels out")
            return Step("blank", s.card, text + tail, ("R8 (b)",) + extra_rule,
                        by=tuple(b.card for b in s.blanked_by))
        if s.blanked_by:
            causes = [f"{_label(a)} ({_every(w)})" for a, w in hits if a in s.blanked_by]
            text = f"{_label(s)} is blanked by {_and(causes)}"
            return Step("blank", s.card, text + tail, ("R8 (a)",) + extra_rule,
                        by=tuple(b.card for b in s.blanked_by))
        reasons = []
        for cond in s.active.conditions:
            present, missing = _condition_cards(slots, s, cond)
            words = _terms(cond.terms, " or ")
            if isinstance(cond, fx.BlankedUnless) and not present:
                why = f"it is blanked unless the hand has {_a(words)}, and none is left"
                if missing:
                    why += f" ({_names(missing)} {'is' if len(missing) == 1 else 'are'} blanked)"
                reasons.append(why)
            elif isinstance(cond, fx.BlankedIf) and present:
                reasons.append(f"it is blanked if the hand has {_a(words)}: {_names(present)}")
        text = f"{_label(s)} is blanked: " + "; ".join(reasons or ["its own condition fails"])
        return Step("blank", s.card, text + tail, ("R8 (c)",) + extra_rule)

    # Kept: say why when something could have blanked it.
    parts: list[str] = []
    rulings: list[str] = []
    by: list[Card] = []
    if stopped or (s.immune == "all" and s.penalty.conditions):
        why, cite = _immune_why(s)
        if stopped:
            parts.append(f"{_words(stopped, s)} would blank it, but {why}")
        if s.immune == "all" and s.active.conditions:
            parts.append(f"its own condition does not apply: {why}")
        rulings += cite
        if s.protected_by is not None:
            by.append(s.protected_by)
    if hits:
        attackers = [a for a, _ in hits]
        itself = "is itself" if len(attackers) == 1 else "are themselves"
        parts.append(f"{_words(hits, s)} would blank it, but {_names(attackers)} {itself} "
                     "blanked, and a blanked card blanks nothing")
        rulings.append("R8 (a)")
        by += [a.card for a in attackers]
    for cond in () if s.immune == "all" else s.active.conditions:
        present, missing = _condition_cards(slots, s, cond)
        words = _terms(cond.terms, " or ")
        if isinstance(cond, fx.BlankedUnless):
            parts.append(f"it needs {_a(words)} and has one ({_names(present)})")
        else:
            why = f"it is blanked only with {_a(words)}, and none is left"
            if missing:
                why += f" ({_names(missing)} {'is' if len(missing) == 1 else 'are'} blanked)"
            parts.append(why)
        rulings.append("R8 (c)")
        if any(c.keeps_suits and c.state == BLANKED for c in present):
            rulings.append("R15")
    if not parts:
        return None
    return Step("keep", s.card, f"{_label(s)} stays: " + "; ".join(parts),
                tuple(dict.fromkeys(rulings)), by=tuple(by))


def _words(hits: list[tuple[Slot, str]], s: Slot) -> str:
    """``Great Flood (every Flame except Lightning)`` for each attacker of ``s``."""
    return _and([f"{_label(a)} ({_every(w)})" if a is not s else _every(w) for a, w in hits])


def _blanking(result: Result) -> list[Step]:
    slots = result.slots
    hits, stopped = _hit_by(slots)
    index = {id(s): i for i, s in enumerate(slots)}
    # Dependencies: a card's decision follows its attackers' and its condition's cards.
    deps: list[list[int]] = []
    for i, s in enumerate(slots):
        d = [index[id(a)] for a, _ in hits[i]]
        for cond in s.active.conditions:
            d += [j for j, c in enumerate(slots) if j != i
                  and any(t.matches(c, s) for t in cond.terms)]
        deps.append(d)
    order: list[int] = []
    state = [0] * len(slots)  # 0 new, 1 visiting, 2 done

    def visit(i: int) -> None:
        if state[i]:
            return
        state[i] = 1
        for j in deps[i]:
            visit(j)
        state[i] = 2
        order.append(i)

    for i in range(len(slots)):
        visit(i)
    steps = []
    for i in order:
        step = _blank_step(slots[i], hits[i], stopped[i], slots, result.hand.catalog)
        if step is not None:
            steps.append(step)
    return steps


# --------------------------------------------------------------------------------------------
# Step 4 (continued): points
# --------------------------------------------------------------------------------------------


def _effect_rulings(e: fx.PointEffect, card: Card, text: str, result: Result
                    ) -> tuple[str, ...]:
    """The rulings a point effect's arithmetic rests on (read from the effect's data)."""
    out: list[str] = []
    if isinstance(e, fx.BestOf):
        out.append("R9")
    elif isinstance(e, (fx.Collection, fx.Runs)):
        out.append("R10")
    elif isinstance(e, fx.OddStrength):
        out.append("R12")
    elif (isinstance(e, fx.Points) and e.per and all(t.other for t in e.per)
          and e in card.bonus and any(t.suits & card.suits for t in e.per)):
        out.append("R11")  # an Elemental: every other card of its suit, copies included
    if isinstance(e, fx.Points) and e.in_discard:
        out.append("C5")
    if isinstance(e, fx.PerPlayer) or (isinstance(e, fx.Points)
                                       and e.condition.players is not None):
        out.append("C6")
    if any(len(c.card.suit_names) > 1 and c.card.name in text for c in result.slots):
        out.append("R15")
    return tuple(out)


def _points(result: Result) -> list[Step]:
    view = result.view
    steps = []
    for s in result.slots:
        if s.state != KEPT:
            why = "blanked: it scores 0"
            if s.keeps_suits:
                why += f" but still counts as {s.card.suit.replace('/', ', ')}"
            steps.append(Step("points", s.card, why, ("R7", "R15") if s.keeps_suits else ("R7",),
                              0, "blanked"))
            continue
        base = f"base strength {s.strength}"
        if s.copied is not None and s.strength == s.copied.strength != s.card.strength:
            base += f" (copied from {s.copied.name})"
        steps.append(Step("points", s.card, base, (), s.strength, "base"))
        for e in s.card.bonus:  # a copy keeps its own printed bonus (R1)
            value, text = e.explain(view, s)
            steps.append(Step("points", s.card, text, _effect_rulings(e, s.card, text, result),
                              value, "bonus"))
        for e in s.active.points:
            value, text = e.explain(view, s)
            if s.struck_by and s.active != s.penalty:
                text += " (what is left after clearing)"
            steps.append(Step("points", s.card, text, _effect_rulings(e, s.card, text, result),
                              value, "penalty"))
    for c in result.hand.cursed:  # scored beside the hand, never blanked
        steps.append(Step("points", c, f"Cursed Item: value {c.strength}", (), c.strength,
                          "base"))
        for e in c.bonus:
            value, text = e.explain(view, c)
            steps.append(Step("points", c, text, _effect_rulings(e, c, text, result), value,
                              "bonus"))
    return steps


def explain(result: Result) -> list[Step]:
    """Every step of a scored hand, in the order of resolution, ending with the total."""
    steps = (_identities(result) + _changes(result) + _immunity(result) + _extra(result)
             + _clearing(result) + _blanking(result) + _points(result))
    steps.append(Step("total", None, f"Total: {result.total}", (), result.total))
    return steps


def explanation_json(result: Result, loc: Localizer | None = None) -> dict[str, Any]:
    """``--json``: the same trace as data."""
    return {"total": result.total, "steps": [s.as_json(loc) for s in explain(result)]}


# --------------------------------------------------------------------------------------------
# Text
# --------------------------------------------------------------------------------------------

_SECTION_OF = {"keep": "blank"}


def _cite(step: Step) -> str:
    return f"  [{', '.join(step.rulings)}]" if step.rulings else ""


def _formula(parts: Sequence[Step]) -> str:
    """``9 + 27 = 36`` from a card's points steps (``-`` for penalties)."""
    numbers = [p.points or 0 for p in parts if p.points or p.part == "base"]
    total = sum(p.points or 0 for p in parts)
    if not numbers:
        return str(total)
    text = str(numbers[0])
    for n in numbers[1:]:
        text += f" + {n}" if n >= 0 else f" - {-n}"
    return text if len(numbers) == 1 else f"{text} = {total}"


def explanation_lines(result: Result, loc: Localizer | None = None) -> list[str]:
    """The explanation as plain lines of text (numbered sections, rulings in brackets)."""
    tr = loc.text if loc else (lambda s: s)
    name = (lambda c: loc.card(c)) if loc else (lambda c: c.name)
    steps = explain(result)
    out: list[str] = []
    number = 0
    for key, title, empty in SECTIONS:
        mine = [s for s in steps if _SECTION_OF.get(s.step, s.step) == key]
        if not mine and not empty:
            continue
        number += 1
        out.append(f"{number}. {title}")
        if not mine:
            out.append(f"   {empty}")
        if key != "points":
            out += [f"   {tr(s.text)}{_cite(s)}" for s in mine]
            continue
        cards: dict[int, list[Step]] = {}
        for s in mine:
            cards.setdefault(id(s.card), []).append(s)
        for parts in cards.values():
            card = parts[0].card
            assert card is not None
            if parts[0].part == "blanked":
                out.append(f"   {name(card)}: {tr(parts[0].text)}{_cite(parts[0])}")
                continue
            out.append(f"   {name(card)}: {_formula(parts)}")
            out += [f"     {tr(p.text)}{_cite(p)}" for p in parts if p.part != "base"]
    total = steps[-1]
    out.append(tr(total.text))
    return out
