"""The referee's explanation: how a score came about, step by step, in the order of resolution.

When a player disputes a result, the table needs an account a person can follow and check
against the rules. :func:`explain` reads what the resolver recorded on each resolved card
(``resolve.Slot``: what it copied, who changed its suit, who cleared or struck its penalty,
whether it was blanked and by whom) and turns it into a list of :class:`Step` objects:

1. ``identity``: what each wild card became (R1, R2, R14, R16);
2. ``change``: what Book of Changes changed (R3, R17);
   ``protect``: the cards that cannot be blanked, or only by some cards (C2, C3, C7, C8);
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
A self-condition's reason is the very message of the score sheet's Status column
(``resolve.condition_reason``), so both say the same thing.

Each step's words are a :class:`~fantasy_scorer.realms.messages.Msg`: ``step.text`` is the
English sentence, and :func:`explanation_lines` / :func:`explanation_json` say it in the
language of the :class:`~fantasy_scorer.realms.names.Localizer` they are given.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import effects as fx
from .catalog import Card, Catalog, Penalty
from .messages import Join, Msg, Name, Suit, render
from .names import Localizer
from .resolve import BLANKED, KEPT, Result, Slot, can_blank, condition_reason, label, labels

#: The sections of a trace, in the order of resolution; an empty section says so when its
#: ``empty.<key>`` message exists, else it is left out.
SECTIONS: tuple[str, ...] = ("identity", "change", "protect", "extra", "clear", "blank",
                             "points")
_SAY_EMPTY = {"identity", "change", "clear", "blank"}


@dataclass(frozen=True)
class Step:
    """One statement of the explanation.

    ``msg`` is what it says (``text`` in English); ``rulings`` are the cited rulings as written
    in docs/rulings.md (``R8 (b)``); ``points`` is set on ``points`` and ``total`` steps only;
    ``part`` says which part of a card's score a ``points`` step is (``base``, ``bonus``,
    ``penalty``, ``blanked``); ``by`` are the cards that caused the step (the card copied,
    the clearer, the blanker...).
    """

    step: str
    card: Card | None
    msg: Msg | Join
    rulings: tuple[str, ...] = ()
    points: int | None = None
    part: str | None = None
    by: tuple[Card, ...] = field(default=())

    @property
    def text(self) -> str:
        """The step in English."""
        return render(self.msg)

    @property
    def ruling(self) -> str | None:
        """The main ruling id (``R8``), or None."""
        return self.rulings[0].split()[0] if self.rulings else None

    def as_json(self, loc: Localizer | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "step": self.step,
            "card": None if self.card is None else (loc.card(self.card) if loc else self.card.name),
            "card_id": None if self.card is None else self.card.id,
            "text": loc.say(self.msg) if loc else self.text,
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


def _semi(*parts: Msg | Join | None) -> Msg | Join:
    """Clauses of one sentence, joined by semicolons (None clauses left out)."""
    kept = [p for p in parts if p is not None]
    return kept[0] if len(kept) == 1 else Join(kept, "semi")


def _how(s: Slot, choices: Any, long: bool = True) -> Msg:
    """``is left unassigned`` / ``has no choice recorded``."""
    if s.card.id in choices:
        return Msg("how.unassigned")
    return Msg("how.unrecorded_long" if long else "how.unrecorded")


# --------------------------------------------------------------------------------------------
# Penalties in words
# --------------------------------------------------------------------------------------------


def describe_points(e: fx.PointEffect, suits: Sequence[str]) -> Msg:
    """A point effect in words, from its data (penalties, and what is left of one)."""
    if isinstance(e, fx.Points):
        cond = e.condition.msg(suits)
        return Msg("pen.points", points=e.points,
                   per=Msg("pen.per", terms=fx.terms_msg(e.per, suits)) if e.per else "",
                   gate=Msg("fx.gate", cond=cond) if cond else "")
    if isinstance(e, fx.BestOf):
        out = describe_points(e.options[0], suits)
        for o in e.options[1:]:
            out = Msg("pen.or", a=out, b=describe_points(o, suits))
        return out
    return Msg("pen.other", kind=type(e).__name__)


def describe_penalty(p: Penalty, suits: Sequence[str]) -> Msg | Join:
    """A penalty in words, from its data: ``blanks every Army, every Land except Mountain``."""
    parts: list[Msg] = [
        Msg("pen.blanks", targets=Join([fx.every_msg(t, suits) for t in b.targets], "list"))
        for b in p.blanks]
    for lonely in p.lonely:
        parts.append(Msg("pen.lonely_spare", spared=fx.terms_msg(lonely.spared, suits, "or"))
                     if lonely.spared else Msg("pen.lonely"))
    for c in p.conditions:
        key = "pen.unless" if isinstance(c, fx.BlankedUnless) else "pen.if"
        parts.append(Msg(key, terms=fx.terms_msg(c.terms, suits, "or")))
    parts += [describe_points(e, suits) for e in p.points]
    return Join(parts, "semi") if parts else Msg("pen.nothing")


def _penalty_source(s: Slot) -> Card:
    """The card whose printed penalty this slot carries (a Doppelgänger's is the copied one)."""
    if s.copied is not None and s.penalty is s.copied.penalty and s.copied.penalty:
        return s.copied
    return s.card


# --------------------------------------------------------------------------------------------
# Steps 1-3: identities, Book of Changes, extra card
# --------------------------------------------------------------------------------------------

_TAKES = (("name", "word.name"), ("strength", "word.base_strength"), ("suit", "word.suit"),
          ("penalty", "word.penalty"))
_NOT_TAKEN = (("strength", "word.strength"), (None, "word.bonus"), ("penalty", "word.penalty"))


def _identities(result: Result) -> list[Step]:
    hand = result.hand
    suits = hand.catalog.suits
    steps = []
    for s in result.slots:
        eff = s.card.choice
        if not isinstance(eff, fx.Copy):
            continue
        rulings: tuple[str, ...] = ("R1",) if eff.source == "hand" else ("R2",)
        if s.copied is None:
            steps.append(Step("identity", s.card, Msg(
                "id.unassigned", card=s.card, how=_how(s, hand.choices),
                suit=fx.suits_msg(s.card.suits, suits), strength=s.card.strength), ("R2",)))
            continue
        target = s.copied
        taken = Join([Msg(word) for key, word in _TAKES if key in eff.takes], "and")
        left = Join([Msg(word) for key, word in _NOT_TAKEN
                     if key is None or key not in eff.takes], "or")
        shown = target.copy_suits if "suit" in eff.takes else target.suits
        parts: list[Msg | Join | None] = [Msg(
            "id.copy", card=s.card, target=target, taken=taken,
            suit=fx.suits_msg(shown, suits), strength=target.strength, left=left)]
        if eff.source == "game" and target not in hand.cards:
            parts.append(Msg("id.not_in_hand", target=target))
            rulings += ("R14",)
        if "suit" in eff.takes and target.copy_suits != target.suits:
            parts.append(Msg("id.own_suits", target=target,
                             suits=fx.suits_msg(target.copy_suits, suits, "or")))
            rulings += ("R16",)
        changed = next((t for t in result.slots if t.card is target and t.changed_by), None)
        if changed is not None and "suit" in eff.takes:
            parts.append(Msg("id.printed_suit", by=changed.changed_by, target=target))
            rulings = ("R1",) + tuple(r for r in rulings if r != "R1")
        steps.append(Step("identity", s.card, _semi(*parts), rulings, by=(target,)))
    return steps


def _suits_before_change(s: Slot) -> int:
    eff = s.card.choice
    if s.copied is not None and isinstance(eff, fx.Copy) and "suit" in eff.takes:
        return s.copied.copy_suits
    return s.card.suits


def _changes(result: Result) -> list[Step]:
    hand, cat = result.hand, result.hand.catalog
    steps = []
    for s in result.slots:
        if not isinstance(s.card.choice, fx.ChangeSuit):
            continue
        value = hand.choices.get(s.card.id)
        if value is None:
            steps.append(Step("change", s.card, Msg(
                "change.unassigned", card=s.card, how=_how(s, hand.choices, long=False)),
                ("R3",)))
            continue
        target, suit = value  # type: ignore[misc]
        t = next(x for x in result.slots if x.card is target)
        main = Msg("change.made", card=s.card, target=label(t),
                   before=fx.suits_msg(_suits_before_change(t), cat.suits),
                   after=fx.suits_msg(t.suits, cat.suits), suit=Suit(suit))
        kept = t.card.kept_on_change if t.copied is None else 0
        if kept:
            stays = Join([Msg("word.a", what=x) for x in fx.suits_msg(kept, cat.suits).items],
                         "and")
            steps.append(Step("change", s.card, _semi(main, Msg(
                "change.keeps", replaced=fx.suits_msg(t.card.change_replaces, cat.suits, "or"),
                kept=stays)), ("R3", "R17"), by=(target,)))
            continue
        steps.append(Step("change", s.card, main, ("R3",), by=(target,)))
    return steps


def _immunity(result: Result) -> list[Step]:
    """Who cannot be blanked, and why (C2, C3), and the Deluxe Phoenix's traits (C7, C8)."""
    hand = result.hand
    suits = hand.catalog.suits
    steps = []
    for s in result.slots:
        card = s.card
        if isinstance(card.choice, fx.Protect):
            value = hand.choices.get(card.id)
            if value is None:
                text: Msg | Join = Msg("protect.unassigned", card=card, how=_how(s, hand.choices))
            else:
                text = Msg("protect.made", card=card, target=value)
            if card.immune == "all":
                text = _semi(text, Msg("protect.self", card=card))
            steps.append(Step("protect", card, text, ("C2",),
                              by=(value,) if isinstance(value, Card) else ()))
        elif card.immune == "all":
            steps.append(Step("protect", card, Msg("protect.never", card=card), ("C2",)))
        if card.blanked_only_by:
            only = Join([fx.a_term(t, suits) for t in card.blanked_only_by], "or")
            steps.append(Step("protect", card, Msg("protect.only_by", card=card, only=only),
                              ("C7",)))
        if card.never_blanks_others:
            steps.append(Step("protect", card, Msg("protect.harmless", card=card), ("C8",)))
        if card.grants_immunity:
            covered = [t for t in result.slots if t.protected_by is card]
            what = fx.terms_msg(card.grants_immunity, suits, "or")
            if covered:
                text = Msg("protect.grants", card=card, what=what, cards=labels(covered))
            else:
                text = Msg("protect.grants_none", card=card, what=what)
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
        blanked = state.get(card.id) == BLANKED
        if eff.source == "discard":
            key = "extra.discard_blanked" if blanked else "extra.discard"
            kinds = Msg("word.a", what=fx.suits_msg(eff.suits, cat.suits, "or"))
            text = Msg(key, card=card, kinds=kinds, n=len(cards))
            rulings: tuple[str, ...] = ("R13", "C4") if blanked else ("R13",)
        else:
            key = "extra.deck_blanked" if blanked else "extra.deck"
            text = Msg(key, card=card, n=len(cards))
            rulings = ("C4",)
        steps.append(Step("extra", card, text, rulings))
    return steps


# --------------------------------------------------------------------------------------------
# Step 3: clearing
# --------------------------------------------------------------------------------------------


def _clearing(result: Result) -> list[Step]:
    steps = []
    suits = result.hand.catalog.suits
    slot_of = {s.card.id: s for s in result.slots}
    for s in result.slots:
        if not s.penalty:
            continue
        words = describe_penalty(s.penalty, suits)
        if s.cleared_by:
            rulings = ["R5"]
            notes: list[Msg] = []
            for c in s.cleared_by:
                if isinstance(c.choice, fx.ClearOne):
                    rulings.insert(0, "R4")
                    notes.append(Msg("clear.chose", card=c, target=s.card))
                if slot_of[c.id].state == BLANKED:
                    notes.append(Msg("clear.still", card=c))
            whose = Msg("word.copied_penalty" if _penalty_source(s) is not s.card
                        else "word.its_penalty")
            key = "clear.penalty" if len(s.cleared_by) == 1 else "clear.penalty_many"
            text = Msg(key, clearers=Join(s.cleared_by, "and"), target=label(s), penalty=words,
                       whose=whose,
                       also=Msg("clear.blanks_nothing") if s.penalty.blanks else "",
                       notes=Msg("clear.notes", notes=Join(notes, "semi")) if notes else "")
            steps.append(Step("clear", s.card, text, tuple(rulings), by=tuple(s.cleared_by)))
        elif s.struck_by and s.active != s.penalty:
            clearers: list[Card] = []
            for c, _word in s.struck_by:
                if c not in clearers:
                    clearers.append(c)
            struck = Join([Suit(w) for w in sorted({w for _, w in s.struck_by})], "and")
            left = (Msg("clear.left", rest=describe_penalty(s.active, suits)) if s.active
                    else Msg("clear.nothing_left"))
            key = "clear.word" if len(clearers) == 1 else "clear.word_many"
            text = Msg(key, clearers=Join(clearers, "and"), words=struck, target=label(s),
                       penalty=words, left=left)
            steps.append(Step("clear", s.card, text, ("R6",), by=tuple(clearers)))
    return steps


# --------------------------------------------------------------------------------------------
# Step 4: blanking
# --------------------------------------------------------------------------------------------


def _stopped_why(a: Slot, t: Slot, suits: Sequence[str]) -> tuple[Msg, tuple[str, ...]]:
    """Why ``a``'s blanking cannot reach ``t``, and the ruling (see ``resolve.can_blank``)."""
    by = t.protected_by
    if t.immune and by is not None and isinstance(by.choice, fx.Protect):
        return Msg("stop.protected", card=by), ("C2",)
    if t.immune and by is not None:
        return Msg("stop.immune_by", card=by), ("C3",)
    if t.immune:
        return Msg("stop.never"), ("C2",)
    if a.card.never_blanks_others:
        return Msg("stop.harmless", card=label(a)), ("C8",)
    only = Join([fx.a_term(x, suits) for x in t.card.blanked_only_by], "or")
    return Msg("stop.only_by", only=only), ("C7",)


def _hit_by(slots: Sequence[Slot]
            ) -> tuple[list[list[tuple[Slot, fx.Term]]], list[list[tuple[Slot, fx.Term]]]]:
    """For each card, the cards whose active penalty blanks it, with the term that does; and
    apart, those whose blow cannot reach it (C2, C3, C7, C8)."""
    hits: list[list[tuple[Slot, fx.Term]]] = [[] for _ in slots]
    stopped: list[list[tuple[Slot, fx.Term]]] = [[] for _ in slots]
    for a in slots:
        for b in a.active.blanks:
            for i, t in enumerate(slots):
                if b.hits(t, a):
                    term = next(x for x in b.targets if x.matches(t, a))
                    (hits if can_blank(a, t) else stopped)[i].append((a, term))
    return hits, stopped


def _blows(hits: list[tuple[Slot, fx.Term]], s: Slot, suits: Sequence[str]) -> Join:
    """``Great Flood (every Flame except Lightning)`` for each attacker of ``s``."""
    return Join([fx.every_msg(term, suits) if a is s else
                 Msg("blank.blow", card=label(a), what=fx.every_msg(term, suits))
                 for a, term in hits], "and")


def _blank_step(s: Slot, hits: list[tuple[Slot, fx.Term]], stopped: list[tuple[Slot, fx.Term]],
                slots: Sequence[Slot], cat: Catalog) -> Step | None:
    suits = cat.suits
    if s.state == BLANKED:
        extra_rule: tuple[str, ...] = ("R15",) if s.keeps_suits else ()
        tail = (Msg("blank.keeps_suits", suits=fx.suits_msg(s.suits, suits, "list"))
                if s.keeps_suits else None)
        if s.reason == "lonely":
            demon = s.blanked_by[0]
            text = Msg("blank.lonely", card=label(s), by=label(demon), demon=demon.card,
                       suits=fx.suits_msg(s.suits, suits))
            return Step("blank", s.card, _semi(text, tail), ("C1",) + extra_rule,
                        by=(demon.card,))
        if s.reason == "loop":
            partners = [b for b in s.blanked_by if b is not s]
            if s in s.blanked_by and not partners:
                text = Msg("blank.itself", card=label(s), blow=_blows(hits, s, suits))
            elif partners:
                text = Msg("blank.loop", card=label(s), cards=labels(partners))
            else:
                text = Msg("blank.loop_condition", card=label(s))
            return Step("blank", s.card, _semi(text, tail), ("R8 (b)",) + extra_rule,
                        by=tuple(b.card for b in s.blanked_by))
        failed = [nd for nd in s.needs if nd.fails(slots)]
        reasons = Join([condition_reason(s, nd, slots, suits) for nd in failed], "semi")
        if s.blanked_by:
            mine = [(a, w) for a, w in hits if a in s.blanked_by]
            text = Msg("blank.by", card=label(s), blows=_blows(mine, s, suits))
            cited = ("R8 (a)",) + (("R8 (c)",) if failed else ())
            return Step("blank", s.card,
                        _semi(text, Msg("blank.also", reasons=reasons) if failed else None, tail),
                        cited + extra_rule, by=tuple(b.card for b in s.blanked_by))
        text = Msg("blank.condition", card=label(s), reasons=reasons)
        return Step("blank", s.card, _semi(text, tail), ("R8 (c)",) + extra_rule)

    # Kept: say why when something could have blanked it.
    parts: list[Msg | Join] = []
    rulings: list[str] = []
    by: list[Card] = []
    for a, term in stopped:
        why, cite = _stopped_why(a, s, suits)
        parts.append(Msg("keep.stopped", blows=_blows([(a, term)], s, suits), why=why))
        rulings += cite
        if s.protected_by is not None and s.protected_by not in by:
            by.append(s.protected_by)
    if s.immune == "all" and s.active.conditions:
        why, cite = _stopped_why(s, s, suits)
        parts.append(Msg("keep.own_condition", why=why))
        rulings += cite
    if hits:
        attackers = [a for a, _ in hits]
        key = "keep.attacker_blanked" if len(attackers) == 1 else "keep.attackers_blanked"
        parts.append(Msg(key, blows=_blows(hits, s, suits), cards=labels(attackers)))
        rulings.append("R8 (a)")
        by += [a.card for a in attackers]
    if s.needs:
        parts.append(Join([condition_reason(s, nd, slots, suits) for nd in s.needs], "semi"))
        rulings.append("R8 (c)")
        if any(slots[j].state == BLANKED for nd in s.needs for j in nd.always):
            rulings.append("R15")
        if any(nd.ignored for nd in s.needs):
            rulings.append("C8")
    if not parts:
        return None
    return Step("keep", s.card, Msg("keep.stays", card=label(s), parts=Join(parts, "semi")),
                tuple(dict.fromkeys(rulings)), by=tuple(by))


def _blanking(result: Result) -> list[Step]:
    slots = result.slots
    hits, stopped = _hit_by(slots)
    index = {id(s): i for i, s in enumerate(slots)}
    # Dependencies: a card's decision follows its attackers' and its condition's cards.
    deps: list[list[int]] = []
    for i, s in enumerate(slots):
        d = [index[id(a)] for a, _ in hits[i]]
        for nd in s.needs:
            d += [j for j in nd.deps + nd.always if j != i]
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


def _effect_rulings(e: fx.PointEffect, card: Card, view_cards: Sequence[Slot],
                    counted: Collection[Any]) -> tuple[str, ...]:
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
    if any(len(c.card.suit_names) > 1 and c.card.name in counted for c in view_cards):
        out.append("R15")
    return tuple(out)


def _mentioned(value: Any) -> set[str]:
    """Every card name a message mentions (to cite R15 when a Phoenix counts)."""
    if isinstance(value, Msg):
        return set().union(*(_mentioned(v) for v in value.args.values()))
    if isinstance(value, Join):
        return set().union(*(_mentioned(v) for v in value.items))
    if isinstance(value, Name):
        return {str(value)}
    return set()


def _points(result: Result) -> list[Step]:
    view = result.view
    suits = result.hand.catalog.suits
    steps = []
    for s in result.slots:
        if s.state != KEPT:
            if s.keeps_suits:
                msg = Msg("points.blanked_keeps", suits=fx.suits_msg(s.suits, suits, "list"))
            else:
                msg = Msg("points.blanked")
            steps.append(Step("points", s.card, msg, ("R7", "R15") if s.keeps_suits else ("R7",),
                              0, "blanked"))
            continue
        if s.copied is not None and s.strength == s.copied.strength != s.card.strength:
            base = Msg("points.base_copied", strength=s.strength, target=s.copied)
        else:
            base = Msg("points.base", strength=s.strength)
        steps.append(Step("points", s.card, base, (), s.strength, "base"))
        for e in s.card.bonus:  # a copy keeps its own printed bonus (R1)
            value, text = e.explain(view, s)
            steps.append(Step("points", s.card, text,
                              _effect_rulings(e, s.card, result.slots, _mentioned(text)),
                              value, "bonus"))
        for e in s.active.points:
            value, text = e.explain(view, s)
            if s.struck_by and s.active != s.penalty:
                text = Msg("points.after_clearing", text=text)
            steps.append(Step("points", s.card, text,
                              _effect_rulings(e, s.card, result.slots, _mentioned(text)),
                              value, "penalty"))
    for c in result.hand.cursed:  # scored beside the hand, never blanked
        steps.append(Step("points", c, Msg("points.cursed", value=c.strength), (), c.strength,
                          "base"))
        for e in c.bonus:
            value, text = e.explain(view, c)
            steps.append(Step("points", c, text,
                              _effect_rulings(e, c, result.slots, _mentioned(text)), value,
                              "bonus"))
    return steps


def explain(result: Result) -> list[Step]:
    """Every step of a scored hand, in the order of resolution, ending with the total."""
    steps = (_identities(result) + _changes(result) + _immunity(result) + _extra(result)
             + _clearing(result) + _blanking(result) + _points(result))
    steps.append(Step("total", None, Msg("trace.total", total=result.total), (), result.total))
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
    """The explanation as plain lines of text (numbered sections, rulings in brackets), in
    the localizer's language (English without one)."""
    def say(value: Msg | Join) -> str:
        return loc.say(value) if loc else render(value)

    def name(card: Card) -> str:
        return loc.card(card) if loc else card.name

    steps = explain(result)
    out: list[str] = []
    number = 0
    for key in SECTIONS:
        mine = [s for s in steps if _SECTION_OF.get(s.step, s.step) == key]
        if not mine and key not in _SAY_EMPTY:
            continue
        number += 1
        out.append(f"{number}. {say(Msg('section.' + key))}")
        if not mine:
            out.append(f"   {say(Msg('empty.' + key))}")
        if key != "points":
            out += [f"   {say(s.msg)}{_cite(s)}" for s in mine]
            continue
        cards: dict[int, list[Step]] = {}
        for s in mine:
            cards.setdefault(id(s.card), []).append(s)
        for parts in cards.values():
            card = parts[0].card
            assert card is not None
            if parts[0].part == "blanked":
                out.append(f"   {name(card)}: {say(parts[0].msg)}{_cite(parts[0])}")
                continue
            out.append(f"   {name(card)}: {_formula(parts)}")
            out += [f"     {say(p.msg)}{_cite(p)}" for p in parts if p.part != "base"]
    out.append(say(steps[-1].msg))
    return out
