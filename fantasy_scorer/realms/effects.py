"""The effect vocabulary: every card ability is one of a small number of effect kinds.

A card in ``cards/*.yaml`` is data; the catalog compiles each of its entries into the objects
below, and the resolver (``resolve.py``) runs them in the documented order of resolution. No
code anywhere tests a card's *name* to decide what it does: a card's name matters only where
another card's text names it (``+50 with Smoke and Wildfire``).

Three groups of effects exist, matching the three moments of resolution:

* **choices** (step 1–3): :class:`Copy` (Doppelgänger, Mirage, Shapeshifter),
  :class:`ChangeSuit` (Book of Changes) and :class:`ClearOne` (Island);
* **clearing** (step 3): :class:`Clears` and :class:`ClearsWord`;
* **penalties and bonuses** (step 4): :class:`Blanks`, :class:`BlankedUnless`,
  :class:`BlankedIf` and the point effects (:class:`Points`, :class:`BestOf`,
  :class:`SumStrength`, :class:`MaxStrength`, :class:`Collection`, :class:`Runs`,
  :class:`DistinctSuits`, :class:`OddStrength`).

Point effects are evaluated against a :class:`View` of the hand after blanking. Each has two
methods: ``value`` (the fast path used by every search) and ``explain`` (the same number with
a :class:`~fantasy_scorer.realms.messages.Msg` saying which cards produced it, for the
referee's trace, in any language). Tests check that the two always agree.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from .messages import Join, Msg, Name, Suit

# --------------------------------------------------------------------------------------------
# Selecting cards
# --------------------------------------------------------------------------------------------


class Holder(Protocol):
    """What a term looks at: a card as it stands in a hand (see ``resolve.Slot``), or a card
    as printed. Read only: a term never changes what it looks at."""

    @property
    def name(self) -> str: ...
    @property
    def suits(self) -> int: ...
    @property
    def strength(self) -> int: ...


@dataclass(frozen=True)
class Term:
    """One entry of a card selector: ``Flame``, ``Lightning``, ``any``, or a refined form.

    ``suits`` is a bit mask over the game's suits, ``names`` a set of card names. A card matches
    when it has one of the suits or one of the names (or ``any`` is set), is not excluded by
    ``except_suits``/``except_names``, and, when ``other`` is set, is not the source card.
    ``text`` keeps the YAML spelling for explanations.
    """

    text: str
    suits: int = 0
    names: frozenset[str] = frozenset()
    any: bool = False
    except_suits: int = 0
    except_names: frozenset[str] = frozenset()
    other: bool = False

    #: For a bare single-suit term, the suit's index (it is counted from suit totals alone);
    #: otherwise -1. Computed once, as terms are asked this in every evaluation.
    suit_index: int = field(init=False, repr=False, compare=False, default=-1)
    #: The words of ``match`` and ``except`` in the card file's order, canonical, each with
    #: its suit bit (0 for a card name or ``any``): explanations say them in that order.
    words: tuple[tuple[str, int], ...] = field(default=(), repr=False, compare=False)
    except_words: tuple[tuple[str, int], ...] = field(default=(), repr=False, compare=False)

    def __post_init__(self) -> None:
        plain = (not self.any and not self.names and not self.except_suits
                 and not self.except_names and self.suits != 0
                 and self.suits & (self.suits - 1) == 0)
        object.__setattr__(self, "suit_index", self.suits.bit_length() - 1 if plain else -1)

    @property
    def plain_suit(self) -> bool:
        """True for a bare suit term: it can be counted from suit totals alone."""
        return self.suit_index >= 0

    def matches(self, card: Holder, source: object = None) -> bool:
        """Whether ``card`` is selected by this term (``source`` is the card holding the effect)."""
        if self.other and card is source:
            return False
        if not (self.any or card.suits & self.suits or card.name in self.names):
            return False
        return not (card.suits & self.except_suits or card.name in self.except_names)

    def matches_suits_only(self, suits: int) -> bool:
        """Match on suits alone: used for cards that count for their suits while blanked (R15)."""
        if not self.suits or not (suits & self.suits):
            return False
        return not (suits & self.except_suits)

    def without_suit(self, mask: int) -> Term | None:
        """This term with a suit struck out ("clears the word Army", R6); None if none is left."""
        if not (self.suits & mask):
            return self
        left = self.suits & ~mask
        if not left and not self.names and not self.any:
            return None
        return Term(
            self.text, left, self.names, self.any, self.except_suits, self.except_names,
            self.other, tuple(w for w in self.words if not w[1] & mask), self.except_words,
        )


def strike(terms: Sequence[Term], mask: int) -> tuple[Term, ...]:
    """Remove a suit from every term of a selector (R6)."""
    out = []
    for t in terms:
        s = t.without_suit(mask)
        if s is not None:
            out.append(s)
    return tuple(out)


def describe(terms: Sequence[Term]) -> str:
    return ", ".join(t.text for t in terms)


def _suits_of(mask: int, suit_names: Sequence[str]) -> list[Suit]:
    return [Suit(s) for i, s in enumerate(suit_names) if mask >> i & 1]


def suits_msg(mask: int, suit_names: Sequence[str], how: str = "slash") -> Join:
    """A set of suits in words (``Beast/Flame/Weather``)."""
    return Join(_suits_of(mask, suit_names), how)


def _words(words: Sequence[tuple[str, int]], mask: int, names: frozenset[str],
           suit_names: Sequence[str]) -> list[Suit | Name]:
    if words:
        return [Suit(w) if bit else Name(w) for w, bit in words if w != "any" or bit]
    return _suits_of(mask, suit_names) + [Name(n) for n in sorted(names)]


def term_msg(t: Term, suit_names: Sequence[str]) -> Msg | Join:
    """One selector term in words, from its data: ``Flame except Lightning``, ``other Land``."""
    what: Msg | Join = Join(_words(t.words, t.suits, t.names, suit_names), "slash")
    if t.any:
        what = Msg("term.any")
    if t.except_suits or t.except_names:
        but = Join(_words(t.except_words, t.except_suits, t.except_names, suit_names), "list")
        what = Msg("term.any_except", but=but) if t.any else Msg("term.except", what=what,
                                                                    but=but)
    return Msg("term.other", what=what) if t.other else what


def terms_msg(terms: Sequence[Term], suit_names: Sequence[str], how: str = "list") -> Join:
    return Join([term_msg(t, suit_names) for t in terms], how)


def every_msg(t: Term, suit_names: Sequence[str]) -> Msg:
    """``every Flood``, ``every card except …``: what a blanking or clearing selects."""
    if t.any and (t.except_suits or t.except_names):
        return Msg("term.every_card_except", but=Join(
            _words(t.except_words, t.except_suits, t.except_names, suit_names), "list"))
    if t.any:
        return Msg("term.every_card")
    return Msg("term.every", what=term_msg(t, suit_names))


def a_term(t: Term, suit_names: Sequence[str]) -> Msg:
    """A term with the language's article: ``a Flame``, ``an Army``."""
    return Msg("word.a", what=term_msg(t, suit_names))


# --------------------------------------------------------------------------------------------
# The hand as point effects see it
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Printed:
    """A card outside the hand (the discard area), as printed: only its name and suits count."""

    name: str
    suits: int
    strength: int


@dataclass(frozen=True)
class Context:
    """What a hand's score may depend on besides its cards (Cursed Hoards, C5 and C6).

    ``discard`` is the discard area (None when not given), ``players`` the number of players
    (None when not given) and ``cursed`` the number of Cursed Items the player holds.
    """

    discard: tuple[Printed, ...] | None = None
    players: int | None = None
    cursed: int = 0


NO_CONTEXT = Context()


class View:
    """The hand after blanking, as bonuses and penalties see it (R7, R15).

    ``kept`` are the cards that are not blanked. ``suited`` are the cards whose suits count:
    the kept cards plus blanked cards that keep their suits (the promo Phoenix). Suit totals are
    precomputed because "per Army" and "with any Wizard" are by far the commonest questions.
    """

    __slots__ = ("kept", "suited", "suit_totals", "all_cards", "context", "suit_names")

    def __init__(self, kept: list, suited: list, all_cards: list, suit_names: Sequence[str],
                 context: Context = NO_CONTEXT) -> None:
        self.kept = kept
        self.suited = suited
        self.all_cards = all_cards
        self.context = context
        self.suit_names = suit_names
        totals = [0] * len(suit_names)
        for c in suited:
            for i in _bits(c.suits):
                totals[i] += 1
        self.suit_totals = totals

    def count(self, term: Term, source: object) -> int:
        """How many cards ``term`` selects (a card with two matching suits counts once)."""
        i = term.suit_index
        if i >= 0:
            n = self.suit_totals[i]
            if term.other and source is not None and source.suits & term.suits:  # type: ignore[attr-defined]
                n -= 1
            return n
        return len(self.selected(term, source))

    def selected(self, term: Term, source: object) -> list:
        """The cards ``term`` selects, in hand order."""
        out = [c for c in self.kept if term.matches(c, source)]
        if len(self.suited) != len(self.kept):
            kept = set(map(id, self.kept))
            out += [
                c
                for c in self.suited
                if id(c) not in kept and not (term.other and c is source)
                and term.matches_suits_only(c.suits)
            ]
        return out

    def has(self, terms: Sequence[Term], source: object) -> bool:
        """Whether any card matches any of ``terms``."""
        return any(self.count(t, source) for t in terms)

    def witnesses(self, terms: Sequence[Term], source: object) -> list:
        seen: list = []
        for t in terms:
            for c in self.selected(t, source):
                if c not in seen:
                    seen.append(c)
        return seen


_BITS: dict[int, tuple[int, ...]] = {}


def _bits(mask: int) -> tuple[int, ...]:
    """Indices of the set bits of a suit mask (memoised: there are few distinct masks)."""
    found = _BITS.get(mask)
    if found is None:
        found = _BITS[mask] = tuple(i for i in range(mask.bit_length()) if mask >> i & 1)
    return found


def _names(cards: Sequence[Holder]) -> Join:
    return Join([Name(c.name) for c in cards], "list")


# --------------------------------------------------------------------------------------------
# Point effects (bonuses, and numeric penalties with negative points)
# --------------------------------------------------------------------------------------------


class PointEffect:
    """Base of every effect that adds points to its card."""

    kind = "points"
    #: The suits this effect's selectors mention, so "clears the word Army" can strike them.
    def value(self, view: View, me: Holder) -> int:
        raise NotImplementedError

    def explain(self, view: View, me: Holder) -> tuple[int, Msg]:
        raise NotImplementedError

    def strike(self, mask: int) -> PointEffect | None:
        """This effect with a suit word cleared (R6); None when nothing of it is left."""
        return self


@dataclass(frozen=True)
class Condition:
    """``with`` (any of), ``with_all`` (each group present) and ``unless`` (none present)."""

    with_any: tuple[Term, ...] = ()
    with_all: tuple[tuple[Term, ...], ...] = ()
    unless: tuple[Term, ...] = ()
    players: int | None = None  # exactly this many players (Spyglass, C6)
    other_cursed: int | None = None  # at least this many other Cursed Items (Treasure Chest)

    def holds(self, view: View, me: Holder) -> bool:
        if self.players is not None and view.context.players != self.players:
            return False
        if self.other_cursed is not None and view.context.cursed - 1 < self.other_cursed:
            return False
        if self.with_any and not view.has(self.with_any, me):
            return False
        for group in self.with_all:
            if not view.has(group, me):
                return False
        return not (self.unless and view.has(self.unless, me))

    def msg(self, suit_names: Sequence[str]) -> Join:
        """The condition in words: ``with Rainstorm and Blizzard/Great Flood``."""
        parts: list[Msg] = []
        if self.with_any:
            parts.append(Msg("cond.with", terms=terms_msg(self.with_any, suit_names, "or")))
        if self.with_all:
            groups = Join([terms_msg(g, suit_names, "slash") for g in self.with_all], "and")
            parts.append(Msg("cond.with", terms=groups))
        if self.unless:
            parts.append(Msg("cond.unless", terms=terms_msg(self.unless, suit_names, "or")))
        if self.players is not None:
            parts.append(Msg("cond.players", n=self.players))
        if self.other_cursed is not None:
            parts.append(Msg("cond.other_cursed", n=self.other_cursed))
        return Join(parts, "space")

    def strike(self, mask: int) -> Condition | None:
        """Strike a suit; a group or list left empty makes the condition vanish (R6)."""
        w = strike(self.with_any, mask)
        groups = tuple(strike(g, mask) for g in self.with_all)
        u = strike(self.unless, mask)
        if (self.with_any and not w) or any(not g for g in groups) or (self.unless and not u):
            return None
        return Condition(w, groups, u, self.players, self.other_cursed)

    @property
    def empty(self) -> bool:
        return not (self.with_any or self.with_all or self.unless or self.players is not None
                    or self.other_cursed is not None)


@dataclass(frozen=True)
class Points(PointEffect):
    """``points`` once, or ``points`` per selected card, when a condition holds.

    Covers "+5 per Army", "+15 per other Land", "+25 with any Wizard", "+40 with Rainstorm and
    (Blizzard or Great Flood)", "+5 if no Weather", "−8 unless with a Leader",
    "−3 per Army and per Flame" (each term is counted separately: a card that is both a Beast
    and a Flame counts twice for "per Beast and per Flame", R15).
    """

    points: int
    per: tuple[Term, ...] = ()
    condition: Condition = field(default_factory=Condition)
    in_discard: bool = False  # count the discard area's printed cards (Dark Queen…, C5)
    first: int | None = None  # the first card of each term pays this instead (Dungeon, Castle)

    def value(self, view: View, me: Holder) -> int:
        if not self.condition.empty and not self.condition.holds(view, me):
            return 0
        if not self.per:
            return self.points
        n = 0
        if self.first is not None:
            for t in self.per:
                k = view.count(t, me)
                if k:
                    n += self.first + self.points * (k - 1)
            return n
        if self.in_discard:
            for t in self.per:
                n += sum(1 for c in view.context.discard or () if t.matches(c, me))
            return self.points * n
        for t in self.per:
            n += view.count(t, me)
        return self.points * n

    def explain(self, view: View, me: Holder) -> tuple[int, Msg]:
        v = self.value(view, me)
        names = view.suit_names
        cond = self.condition.msg(names)
        if not self.condition.empty and not self.condition.holds(view, me):
            return 0, Msg("fx.not_met", points=self.points, cond=cond)
        per = terms_msg(self.per, names)
        if not self.per:
            if not cond:
                return v, Msg("fx.flat_plain", points=self.points)
            w = view.witnesses(self.condition.with_any, me) if self.condition.with_any else []
            if w:
                return v, Msg("fx.flat_with", points=self.points, cond=cond, cards=_names(w))
            return v, Msg("fx.flat", points=self.points, cond=cond)
        if self.first is not None:
            parts = []
            for t in self.per:
                got = view.selected(t, me)
                if got:
                    parts.append(Msg("fx.first_part", term=term_msg(t, names), first=self.first,
                                     points=self.points, k=len(got) - 1, cards=_names(got)))
            found = Join(parts, "semi") if parts else Msg("fx.none_of", terms=per)
            return v, Msg("fx.first", first=self.first, points=self.points, terms=per,
                          parts=found, value=v)
        if self.in_discard:
            cards = [c for t in self.per for c in view.context.discard or () if t.matches(c, me)]
        else:
            cards = [c for t in self.per for c in view.selected(t, me)]
        return v, Msg("fx.per", points=self.points, n=len(cards), terms=per,
                      where=Msg("fx.in_discard") if self.in_discard else "",
                      gate=Msg("fx.gate", cond=cond) if cond else "",
                      cards=Msg("fx.cards", cards=_names(cards)) if cards else "", value=v)

    def strike(self, mask: int) -> PointEffect | None:
        cond = self.condition.strike(mask)
        if cond is None:
            # "unless with an Army" struck: the clause no longer applies (R6).
            return None
        if self.per and not self.in_discard:
            per = strike(self.per, mask)
            if not per:
                return None
            return Points(self.points, per, cond, self.in_discard, self.first)
        return Points(self.points, self.per, cond, self.in_discard, self.first)


@dataclass(frozen=True)
class BestOf(PointEffect):
    """"X, or Y if …": the larger of several point effects (R9)."""

    options: tuple[PointEffect, ...]

    def value(self, view: View, me: Holder) -> int:
        return max(o.value(view, me) for o in self.options)

    def explain(self, view: View, me: Holder) -> tuple[int, Msg]:
        best = max((o.explain(view, me) for o in self.options), key=lambda e: e[0])
        return best[0], Msg("fx.larger", inner=best[1])

    def strike(self, mask: int) -> PointEffect | None:
        opts = tuple(o for o in (o.strike(mask) for o in self.options) if o is not None)
        return BestOf(opts) if opts else None


@dataclass(frozen=True)
class SumStrength(PointEffect):
    """Plus the base strengths of the selected cards (Warlord: every Army)."""

    terms: tuple[Term, ...]

    def value(self, view: View, me: Holder) -> int:
        return sum(c.strength for c in view.kept if any(t.matches(c, me) for t in self.terms))

    def explain(self, view: View, me: Holder) -> tuple[int, Msg]:
        cards = [c for c in view.kept if any(t.matches(c, me) for t in self.terms)]
        v = sum(c.strength for c in cards)
        parts = Join([Msg("fx.strength_of", strength=c.strength, card=Name(c.name))
                      for c in cards], "plus") if cards else Msg("fx.no_card")
        return v, Msg("fx.sum", terms=terms_msg(self.terms, view.suit_names), parts=parts,
                      value=v)


@dataclass(frozen=True)
class MaxStrength(PointEffect):
    """Plus the base strength of the strongest selected card, itself included (Fountain of Life)."""

    terms: tuple[Term, ...]

    def value(self, view: View, me: Holder) -> int:
        best = 0
        for c in view.kept:
            if c.strength > best and any(t.matches(c, me) for t in self.terms):
                best = c.strength
        return best

    def explain(self, view: View, me: Holder) -> tuple[int, Msg]:
        cards = [c for c in view.kept if any(t.matches(c, me) for t in self.terms)]
        terms = terms_msg(self.terms, view.suit_names)
        if not cards:
            return 0, Msg("fx.max_none", terms=terms)
        top = max(cards, key=lambda c: c.strength)
        v = max(0, top.strength)
        return v, Msg("fx.max", terms=terms, card=Name(top.name), value=v)


def _suit_members(view: View, bit: int) -> list:
    """The cards counting in a suit: the kept ones and the blanked ones that keep their
    suits (R15: a blanked promo Phoenix still gives Collector a name in each of its suits)."""
    return [c for c in view.suited if c.suits & bit]


def tiered(table: Sequence[tuple[int, int]], n: int) -> int:
    """The best payout of a ``(at least n, points)`` table for a count of ``n``."""
    best = 0
    for need, pts in table:
        if n >= need and pts > best:
            best = pts
    return best


def best_splits(pay: Callable[[int], int], most: int) -> list[int]:
    """For each n up to ``most``: the most n cards pay split into groups, a group of k
    paying ``pay(k)`` (the ceiling of Collector's suits and of Gem of Order's runs)."""
    best = [0] * (most + 1)
    for n in range(1, most + 1):
        best[n] = max(best[n - k] + pay(k) for k in range(1, n + 1))
    return best


@dataclass(frozen=True)
class Collection(PointEffect):
    """Per suit, points by the number of differently named cards of that suit (Collector, R10)."""

    table: tuple[tuple[int, int], ...]  # (at least n names, points), any order

    def _pay(self, n: int) -> int:
        return tiered(self.table, n)

    def value(self, view: View, me: Holder) -> int:
        total = 0
        for i in range(len(view.suit_totals)):
            bit = 1 << i
            if view.suit_totals[i] >= 3:
                total += self._pay(len({c.name for c in _suit_members(view, bit)}))
        return total

    def explain(self, view: View, me: Holder) -> tuple[int, Msg]:
        parts = []
        total = 0
        for i, label in enumerate(view.suit_names):
            names = sorted({c.name for c in _suit_members(view, 1 << i)})
            pay = self._pay(len(names))
            if pay:
                total += pay
                parts.append(Msg("fx.suit_names", suit=Suit(label), n=len(names),
                                 names=Join([Name(n) for n in names], "list"), pay=pay))
        if not parts:
            return total, Msg("fx.collection_none", value=total)
        return total, Msg("fx.collection", parts=Join(parts, "semi"), value=total)


def run_lengths(strengths: Sequence[int]) -> list[int]:
    """Lengths of the runs of consecutive strengths, each strength used once per run (R10).

    The strengths are peeled in layers: the distinct values form the first layer of runs, the
    values held twice the second, and so on (4,4,5,5,6,6 → two runs of 3).
    """
    counts: dict[int, int] = {}
    for s in strengths:
        counts[s] = counts.get(s, 0) + 1
    runs: list[int] = []
    while counts:
        values = sorted(counts)
        length = 1
        for a, b in zip(values, values[1:], strict=False):
            if b == a + 1:
                length += 1
            else:
                runs.append(length)
                length = 1
        runs.append(length)
        for v in values:
            counts[v] -= 1
            if not counts[v]:
                del counts[v]
    return [r for r in runs if r > 1]


@dataclass(frozen=True)
class Runs(PointEffect):
    """Points for every run of consecutive base strengths in hand (Gem of Order, R10)."""

    table: tuple[tuple[int, int], ...]  # (run length at least, points)

    def _pay(self, n: int) -> int:
        return tiered(self.table, n)

    def value(self, view: View, me: Holder) -> int:
        return sum(self._pay(n) for n in run_lengths([c.strength for c in view.kept]))

    def explain(self, view: View, me: Holder) -> tuple[int, Msg]:
        runs = run_lengths([c.strength for c in view.kept])
        paid = [(n, self._pay(n)) for n in runs if self._pay(n)]
        v = sum(p for _, p in paid)
        strengths = Join(sorted(c.strength for c in view.kept), "list")
        text = (Join([Msg("fx.run", n=n, pay=p) for n, p in paid], "semi") if paid
                else Msg("fx.no_run"))
        return v, Msg("fx.runs", strengths=strengths, runs=text, value=v)


@dataclass(frozen=True)
class DistinctSuits(PointEffect):
    """Points if no two non-blanked cards share a suit (World Tree; blanked cards never count)."""

    points: int

    def value(self, view: View, me: Holder) -> int:
        seen = 0
        for c in view.kept:
            if seen & c.suits:
                return 0
            seen |= c.suits
        return self.points

    def explain(self, view: View, me: Holder) -> tuple[int, Msg]:
        v = self.value(view, me)
        return v, Msg("fx.distinct" if v else "fx.distinct_not", points=self.points)


@dataclass(frozen=True)
class OddStrength(PointEffect):
    """Jester: points per other odd-strength card, or a flat sum if every card is odd (R12).

    A blanked card has no strength, which is not odd: any blanked card spoils the flat sum.
    """

    per_other: int
    all_odd: int

    def value(self, view: View, me: Holder) -> int:
        odd = sum(1 for c in view.kept if c is not me and c.strength % 2)
        if len(view.kept) == len(view.all_cards) and all(c.strength % 2 for c in view.kept):
            return max(self.all_odd, self.per_other * odd)
        return self.per_other * odd

    def explain(self, view: View, me: Holder) -> tuple[int, Msg]:
        v = self.value(view, me)
        odd = [c for c in view.kept if c is not me and c.strength % 2]
        if len(view.kept) == len(view.all_cards) and all(c.strength % 2 for c in view.kept):
            return v, Msg("fx.all_odd", value=v)
        return v, Msg("fx.odd", per=self.per_other, n=len(odd), cards=_names(odd), value=v)


@dataclass(frozen=True)
class Exactly(PointEffect):
    """Points if exactly ``count`` cards in hand match one of ``terms`` (Chapel)."""

    points: int
    count: int
    terms: tuple[Term, ...]

    def _cards(self, view: View, me: Holder) -> list:
        return view.witnesses(self.terms, me)  # a blanked Phoenix counts by its suits (R15)

    def value(self, view: View, me: Holder) -> int:
        return self.points if len(self._cards(view, me)) == self.count else 0

    def explain(self, view: View, me: Holder) -> tuple[int, Msg]:
        cards = self._cards(view, me)
        v = self.value(view, me)
        return v, Msg("fx.exactly", points=self.points, count=self.count,
                      terms=terms_msg(self.terms, view.suit_names), n=len(cards),
                      cards=_names(cards), value=v)


@dataclass(frozen=True)
class PerPenalty(PointEffect):
    """Points per card in hand whose penalty is not cleared (Judge)."""

    points: int

    def _cards(self, view: View) -> list:
        return [c for c in view.kept if c.active]  # type: ignore[attr-defined]

    def value(self, view: View, me: Holder) -> int:
        return self.points * len(self._cards(view))

    def explain(self, view: View, me: Holder) -> tuple[int, Msg]:
        cards = self._cards(view)
        v = self.points * len(cards)
        return v, Msg("fx.per_penalty", points=self.points, n=len(cards),
                      cards=Msg("fx.cards", cards=_names(cards)) if cards else "", value=v)


@dataclass(frozen=True)
class PerPlayer(PointEffect):
    """Points per other player at the table (Genie, C6)."""

    points: int

    def value(self, view: View, me: Holder) -> int:
        return self.points * ((view.context.players or 1) - 1)

    def explain(self, view: View, me: Holder) -> tuple[int, Msg]:
        n = (view.context.players or 1) - 1
        return self.points * n, Msg("fx.per_player", points=self.points, n=n,
                                    value=self.points * n)


# --------------------------------------------------------------------------------------------
# Blanking penalties
# --------------------------------------------------------------------------------------------


class Selecting:
    """An effect that acts on every card its ``targets`` select (blanking, clearing)."""

    targets: tuple[Term, ...]

    def hits(self, card: Holder, me: Holder) -> bool:
        for t in self.targets:
            if t.matches(card, me):
                return True
        return False


@dataclass(frozen=True)
class Blanks(Selecting):
    """Penalty: blanks every card selected by ``targets`` (it may select its own card, R8)."""

    targets: tuple[Term, ...]
    kind = "blanks"


    def strike(self, mask: int) -> Blanks | None:
        t = strike(self.targets, mask)
        return Blanks(t) if t else None


@dataclass(frozen=True)
class _Condition:
    """A penalty that blanks its own card depending on what else the hand holds (R8 c)."""

    terms: tuple[Term, ...]

    def strike(self, mask: int):  # -> the same class, or None when nothing is left (R6)
        t = strike(self.terms, mask)
        return type(self)(t) if t else None


@dataclass(frozen=True)
class BlankedUnless(_Condition):
    """Penalty: this card is blanked unless the hand has one of ``terms`` (Smoke, Warship…).

    The card itself counts (Warship turned into a Flood has a Flood).
    """

    kind = "blanked_unless"


@dataclass(frozen=True)
class BlankedIf(_Condition):
    """Penalty: this card is blanked if the hand has one of ``terms`` (War Dirigible, Phoenix)."""

    kind = "blanked_if"


SelfCondition = BlankedUnless | BlankedIf


@dataclass(frozen=True)
class BlanksLonely:
    """Penalty: blanks every card that is the only card of its suit in hand, before any other
    blanking and against the hand as it stands (Demon, C1). ``spared`` are never hit."""

    spared: tuple[Term, ...]
    kind = "blanks_lonely"

    def strike(self, mask: int) -> BlanksLonely:
        return self


# --------------------------------------------------------------------------------------------
# Clearing
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Clears(Selecting):
    """Clears the whole penalty of every selected card (Mountain, Cavern, Protection Rune…)."""

    targets: tuple[Term, ...]
    kind = "clears"



@dataclass(frozen=True)
class ClearsWord(Selecting):
    """Strikes a suit word from the penalties of the selected cards (Rangers, Warship; R6)."""

    suits: int
    word: str
    targets: tuple[Term, ...]
    kind = "clears_word"



# --------------------------------------------------------------------------------------------
# Choices
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ClearOne:
    """Choice: clears the penalty of one card in hand selected by ``targets`` (Island, R4)."""

    targets: tuple[Term, ...]
    kind = "clear_one"


@dataclass(frozen=True)
class Copy:
    """Choice: take the identity of another card (step 1).

    ``source`` is ``"hand"`` (Doppelgänger: one other card in hand) or ``"game"`` (Mirage,
    Shapeshifter: any card of the game whose printed suit is one of ``suits``). ``takes`` lists
    what is copied among ``name``, ``suit``, ``strength`` and ``penalty``; a copy never takes a
    bonus or a clearing (R1, R2).
    """

    source: str
    suits: int
    takes: frozenset[str]
    kind = "copy"


@dataclass(frozen=True)
class ChangeSuit:
    """Choice: change the suit of one other card to any suit of the game (Book of Changes, R3)."""

    kind = "change_suit"


@dataclass(frozen=True)
class Protect:
    """Choice: one other card in hand cannot be blanked (Angel, C2)."""

    kind = "protect"


@dataclass(frozen=True)
class ExtraCard:
    """The hand may hold one more card (R13, C4).

    ``source`` is ``"discard"`` (Necromancer: a card of ``suits`` from the discard area) or
    ``"deck"`` (Leprechaun, Genie, Portal: any card; ``suits`` is 0). ``pick`` says how a card
    comes from the deck at game end, for the game engine: the holder picks any card (Genie),
    or draws the top one (Leprechaun; ``False``).
    """

    suits: int
    source: str = "discard"
    pick: bool = False
    kind = "extra_card"
