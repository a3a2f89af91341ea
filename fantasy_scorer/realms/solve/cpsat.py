"""The CP-SAT model of "which hand scores most", built from the compiled effects.

Nothing here knows a card by name. The model follows the order of resolution:

1. **Selection**: one boolean per card that may be held; exactly 7 from the pool, plus one
   extra card from the discard area per extra-card effect in hand (Necromancer, R13).
2. **Choices**: one boolean per option of every choice effect (a copy's target, Book of
   Changes' target and suit, Island's target, Angel's protected card); the options are
   collapsed as in the choice enumerator (``relevance.py``), and a pinned choice is the only
   option (a pinned Island target must be a Flood/Flame after the other choices, R4).
3. **Identities**: each card's suits, name, strength, penalty and "keeps its suits when
   blanked" become literals and linear terms over those choices.
4. **Clearing**: every clearing effect contributes "this card's penalty is cleared" and "the
   word X is struck from it" literals; each penalty is then present in the variants it can
   take (as printed, with a word struck, or cleared away).
5. **Blanking**: immunity (Angel, Lich, C2, C3) and who may blank whom (C7, C8) filter the
   attack edges; the "only card of its suit" blanking (Demon, C1) is decided first, against
   the cards held; each blanking effect adds attack edges, each self-condition adds its needs;
   "kept" is the fixpoint of R8. On edges that can lie on a loop, ranks make every decision
   rest on earlier ones, and since R8 (b) happens at most once, a potential over the cards
   still undecided at that round makes sure every card on a loop is cancelled.
6. **Points**: every point effect adds its value through a builder registered for its class
   (:data:`POINT_BUILDERS`), so a homebrew card written in YAML is modelled automatically.
   Each value is also capped, linearly, by what its card can add at most: CP-SAT's
   relaxation sees those caps, not the chains of booleans behind them.

The table around the hand (:class:`~.exhaustive.Table`) gives the discard area that
discard-area bonuses read (C5, less the card an extra-card effect takes from it), the number
of players and the Cursed Items held (C6: constants once the table is known; a Cursed Item
adds its value beside the hand).

Cards with rules the model does not describe (an effect kind without a builder, a Cursed
Item whose bonus reads the hand) are refused by name (:class:`Unsupported`); callers then
enumerate. The model is exact on every hand the tests have drawn; in any case it must be an
upper bound (the true resolution of any hand is one of its solutions), and :func:`search`
scores each candidate with the evaluator, checks that the model did not promise less, and
cuts it off, so every answer is the evaluator's.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from ortools.sat.python import cp_model

from ...errors import ScorerError
from .. import effects as fx
from ..catalog import NO_PENALTY, Card, Catalog, Penalty
from ..hand import BASE_HAND, ChoiceValue
from ..resolve import cursed_points, score_raw
from .engine import Unsupported
from .exhaustive import NO_TABLE, Candidate, Table
from .literals import Lit, Logic
from .relevance import Relevance, game_copy_targets, relevance, suit_choices

Terms = Sequence[fx.Term]


#: The choice effects the model describes (step 2).
CHOICES = (fx.Copy, fx.ChangeSuit, fx.ClearOne, fx.Protect)


def unsupported(cards: Iterable[Card]) -> list[str]:
    """Names of cards whose rules the model does not describe: a point effect without a
    builder, a choice of another kind, or a Cursed Item whose value reads the hand (only its
    table conditions are modelled, C6). Every shipped card is described."""
    out = []
    for c in cards:
        stack = list(c.bonus) + list(c.penalty.points)
        while stack:
            e = stack.pop()
            if isinstance(e, fx.BestOf):
                stack.extend(e.options)
            elif type(e) not in POINT_BUILDERS or (c.cursed and not _table_only(e)):
                out.append(c.name)
                break
        else:
            if c.choice is not None and type(c.choice) not in CHOICES:
                out.append(c.name)
    return out


def _table_only(eff: object) -> bool:
    """Whether a point effect reads only the table (players, Cursed Items), not the hand."""
    if isinstance(eff, fx.PerPlayer):
        return True
    if not isinstance(eff, fx.Points):
        return False
    cond = eff.condition
    return not (eff.per or cond.with_any or cond.with_all or cond.unless)


def _bits(mask: int) -> list[int]:
    out = []
    i = 0
    while mask:
        if mask & 1:
            out.append(i)
        mask >>= 1
        i += 1
    return out


@dataclass
class PenaltyPart:
    """One penalty as it may stand in hand: its effects, and when it is the active one."""

    owner: Card
    penalty: Penalty
    gate: Lit


@dataclass
class NeedLits:
    """A self-condition of a card as the model's literals (``resolve.Need`` is the
    evaluator's): ``unless`` (blanked unless present) or ``if``."""

    unless: bool
    gate: Lit
    always: Lit
    deps: dict[int, Lit] = field(default_factory=dict)  # card index -> "matches" literal


class HandModel:
    """The model for one search: which cards may be held, from where, with which pins.

    ``discard`` are the cards an extra-card effect may take; ``table`` what lies around the
    hand, as the enumeration scores it (``exhaustive.Table``): the discard area its readers
    count (C5), the number of players (None: no other player) and the Cursed Items held.
    """

    def __init__(self, catalog: Catalog, pool: Sequence[Card], discard: Sequence[Card] = (),
                 pinned: Mapping[str, ChoiceValue] | None = None,
                 required: Iterable[Card] = (), forbidden: Iterable[Card] = (),
                 hand_size: int = BASE_HAND, table: Table = NO_TABLE,
                 deck: Sequence[Card] = ()) -> None:
        self.cat = catalog
        self.table = table
        odd = unsupported(list(pool) + list(discard) + list(table.cursed))
        if odd:
            raise Unsupported("the CP-SAT search does not model "
                              + ", ".join(sorted(set(odd))))
        self.m = cp_model.CpModel()
        self.L = Logic(self.m)
        self.pinned = dict(pinned or {})
        universe: list[Card] = []
        for c in list(pool) + list(discard) + list(deck):
            if c not in universe:
                universe.append(c)
        self.U = universe
        self.n = len(universe)
        self.index = {c.id: i for i, c in enumerate(universe)}
        self.pool = {c.id for c in pool}
        self.discard = {c.id for c in discard}
        self.deck = {c.id for c in deck}
        self.rel: Relevance = relevance(universe, catalog)
        self.n_suits = len(catalog.suits)
        self.hand_size = hand_size
        givers = sum(1 for c in universe if c.extra is not None and c.id in self.pool) + sum(
            1 for c in table.cursed if c.extra is not None)
        room = givers if discard or deck else 0
        if catalog.max_hand is not None:
            room = min(room, max(catalog.max_hand - hand_size, 0))
        self.room = room
        self.max_cards = min(len(universe), hand_size + room)
        self._memo: dict[tuple, Lit] = {}
        self.total_terms: list = []  # linear terms of the objective

        self._selection(set(c.id for c in required), set(c.id for c in forbidden))
        self._choices()
        self._immunity()
        self._clearing()
        self._penalties()
        self._blanking()
        self._points()
        self._suit_rows()
        self.total_terms.append(self._cursed_items())
        self.objective = sum(self.total_terms)
        self.goal = self.objective
        self.ordered = False
        self.m.maximize(self.objective)

    # ---------------------------------------------------------------------------- step 1
    def _selection(self, required: set[str], forbidden: set[str]) -> None:
        m, L = self.m, self.L
        self.x: list = []
        self.base: list = []  # held as one of the 7
        self.extra: list = []  # held as an extra card
        for c in self.U:
            b = m.new_bool_var(f"base_{c.id}") if c.id in self.pool else False
            e = (m.new_bool_var(f"extra_{c.id}") if c.id in self.discard or c.id in self.deck
                 else False)
            if b is not False and e is not False:
                x = m.new_bool_var(f"x_{c.id}")
                m.add(x == b + e)
            else:
                x = b if b is not False else e
            self.base.append(b)
            self.extra.append(e)
            self.x.append(x)
            if c.id in required:
                L.implies(True, x)
            if c.id in forbidden:
                L.implies(x, False)
        m.add(sum(b for b in self.base if b is not False) == self.hand_size)
        # (giver, held): the givers among the 7, and the Cursed Items beside the hand
        givers: list[tuple[Card, Lit]] = [(c, self.base[i]) for i, c in enumerate(self.U)
                                          if c.extra is not None and self.base[i] is not False]
        givers += [(c, True) for c in self.table.cursed if c.extra is not None]
        extras = [e for e in self.extra if e is not False]
        if extras:
            # as the enumeration takes them (exhaustive.extra_options): each extra card
            # given by a different giver held, not more than the hand's room (C4); a card of
            # the discard area of a suit it may take, or (``deck``: max) any card of the game
            m.add(sum(extras) <= self.room)
            gives: list[list] = [[] for _ in givers]
            for i, e in enumerate(self.extra):
                if e is False:
                    continue
                able = []
                for k, (giver, held) in enumerate(givers):
                    if giver is not self.U[i] and self._may_give(giver, self.U[i]):
                        a = m.new_bool_var(f"gives_{giver.id}_{self.U[i].id}")
                        L.implies(a, held)
                        gives[k].append(a)
                        able.append(a)
                if able:
                    m.add(sum(able) == e)
                else:
                    L.implies(e, False)
            for ways in gives:
                if len(ways) > 1:
                    m.add_at_most_one(ways)

    def _may_give(self, giver: Card, card: Card) -> bool:
        """Whether ``giver``'s extra-card effect may take ``card``: from the discard area, a
        card of its suits; from the deck (R13, C4), any card of ``deck``."""
        assert giver.extra is not None
        if giver.extra.source == "discard":
            return card.id in self.discard and bool(card.suits & giver.extra.suits)
        return card.id in self.deck

    # ---------------------------------------------------------------------------- step 2
    def _choices(self) -> None:
        m, L = self.m, self.L
        self.copy: dict[int, dict[int | str, Lit]] = {}  # chooser -> {target key: literal}
        self.copy_cards: dict[int, dict[int | str, Card]] = {}
        self.change: dict[tuple[int, int, int], Lit] = {}  # (book, target, suit index)
        self.clear_one: dict[tuple[int, int], Lit] = {}  # (island, target)
        held = 0  # suits some card could hold without Book (for Collector / World Tree)
        for c in self.U:
            held |= c.suits
            if isinstance(c.choice, fx.Copy) and c.choice.source == "game":
                for t in self.cat.copy_targets(c.choice):
                    held |= t.suits
        suits = [self.cat.suits.index(s) for s in suit_choices(self.cat, self.rel, held)]
        for i, c in enumerate(self.U):
            eff = c.choice
            pin = self.pinned.get(c.id, "open")
            if isinstance(eff, fx.Copy):
                if eff.source == "hand":
                    targets = [t for t in self.U if t is not c]
                else:
                    targets = game_copy_targets(eff, self.cat, self.rel)
                if pin != "open":
                    targets = [pin] if pin is not None else []
                opts: dict[int | str, Lit] = {}
                cards: dict[int | str, Card] = {}
                for t in targets:
                    y = m.new_bool_var(f"copy_{c.id}_{t.id}")
                    L.implies(y, self.x[i])
                    if eff.source == "hand":
                        if t.id not in self.index:
                            L.implies(y, False)
                        else:
                            L.implies(y, self.x[self.index[t.id]])
                    opts[t.id] = y
                    cards[t.id] = t
                if opts:
                    m.add_at_most_one(list(opts.values()))
                    if pin not in ("open", None):
                        L.equal(next(iter(opts.values())), self.x[i])
                self.copy[i] = opts
                self.copy_cards[i] = cards
            elif isinstance(eff, fx.ChangeSuit):
                self._change_suit(i, c, pin, suits)
        # one change per target is enough (a second one is the same as leaving it unused)
        per_target: dict[int, list] = {}
        for (_, j, _), y in self.change.items():
            per_target.setdefault(j, []).append(y)
        for ys in per_target.values():
            if len(ys) > 1:
                m.add_at_most_one(ys)
        # Island: a target that is a Flood/Flame after steps 1-2 (checked in _clearing);
        # Angel: any other card (C2)
        self.protect: dict[tuple[int, int], Lit] = {}  # (angel, target)
        for i, c in enumerate(self.U):
            if isinstance(c.choice, fx.ClearOne):
                self._one_card(i, c, "clear", self.clear_one, itself=True)
            elif isinstance(c.choice, fx.Protect):
                self._one_card(i, c, "protect", self.protect, itself=False)

    def _one_card(self, i: int, c: Card, label: str, into: dict[tuple[int, int], Lit],
                  itself: bool) -> None:
        """A choice of one card in hand (one-hot, or none); a pinned one is held with its
        chooser (a hand keeping the chooser keeps what it names)."""
        m, L = self.m, self.L
        pin = self.pinned.get(c.id, "open")
        lits = []
        for j, t in enumerate(self.U):
            if (pin != "open" and pin is not t) or (j == i and not itself):
                continue
            if self.x[j] is False:
                continue
            y = m.new_bool_var(f"{label}_{c.id}_{t.id}")
            L.implies(y, self.x[i])
            L.implies(y, self.x[j])
            into[(i, j)] = y
            lits.append(y)
        if lits:
            m.add_at_most_one(lits)
        if pin not in ("open", None):
            L.equal(lits[0] if lits else False, self.x[i])

    def _change_suit(self, i: int, c: Card, pin: object, suits: list[int]) -> None:
        """Book of Changes: which card (one-hot) and which suit (one-hot); the pair is their
        conjunction. Two small choices branch better than one over every (card, suit)."""
        m, L = self.m, self.L
        if pin != "open":
            if pin is None:
                return
            j = self.index[pin[0].id]  # type: ignore[index]
            s = self.cat.suits.index(pin[1])  # type: ignore[index]
            L.implies(self.x[i], self.x[j])
            self.change[(i, j, s)] = self.x[i]
            return
        targets = {j: m.new_bool_var(f"book_{c.id}_{t.id}") for j, t in enumerate(self.U)
                   if t is not c and self.x[j] is not False and not t.unchangeable}
        if not targets:
            return
        picks = {s: m.new_bool_var(f"book_{c.id}_suit{s}") for s in suits}
        m.add(sum(targets.values()) == sum(picks.values()))
        m.add_at_most_one(list(targets.values()))
        for j, y in targets.items():
            L.implies(y, self.x[i])
            L.implies(y, self.x[j])
            for s, z in picks.items():
                self.change[(i, j, s)] = L.and_([y, z])

    # ------------------------------------------------------------------ step 1-2 attributes
    def _copy_with(self, i: int, what: str) -> list[tuple[Card, Lit]] | None:
        """(target, literal) pairs when card i copies ``what`` from its target, else None."""
        c = self.U[i]
        eff = c.choice
        if not isinstance(eff, fx.Copy) or what not in eff.takes:
            return None
        return [(self.copy_cards[i][k], y) for k, y in self.copy[i].items()]

    def no_copy(self, i: int) -> Lit:
        opts = self.copy.get(i)
        if not opts:
            return True
        return self.L.neg(self.L.or_(opts.values()))

    def changed(self, i: int) -> Lit:
        k = ("changed", i)
        if k not in self._memo:
            self._memo[k] = self.L.or_(y for (_, j, _), y in self.change.items() if j == i)
        return self._memo[k]

    def suit(self, i: int, s: int) -> Lit:
        """Card i has suit s after identities and Book of Changes."""
        k = ("suit", i, s)
        if k in self._memo:
            return self._memo[k]
        L = self.L
        c = self.U[i]
        copies = self._copy_with(i, "suit")
        bit = 1 << s
        if copies is None:
            base: Lit = bool(c.suits & bit)
        else:  # a copy takes only the suits the target lends (R16)
            base = L.or_([y for t, y in copies if t.copy_suits & bit]
                         + [L.and_([self.no_copy(i), bool(c.suits & bit)])])
        booked = [y for (_, j, ss), y in self.change.items() if j == i and ss == s]
        # a change of suit leaves the suits the physical card keeps (R17)
        kept = [self.changed(i)] if c.kept_on_change & bit else []
        lit = L.or_([L.and_([base, L.neg(self.changed(i))])] + booked + kept)
        self._memo[k] = lit
        return lit

    def name(self, i: int, name: str) -> Lit:
        k = ("name", i, name)
        if k in self._memo:
            return self._memo[k]
        L = self.L
        c = self.U[i]
        copies = self._copy_with(i, "name")
        if copies is None:
            lit: Lit = c.name == name
        else:
            lit = L.or_([y for t, y in copies if t.name == name]
                        + [L.and_([self.no_copy(i), c.name == name])])
        self._memo[k] = lit
        return lit

    def names_of(self, i: int) -> set[str]:
        copies = self._copy_with(i, "name")
        out = {self.U[i].name}
        if copies:
            out |= {t.name for t, _ in copies}
        return out

    def keeps(self, i: int) -> Lit:
        k = ("keeps", i)
        if k in self._memo:
            return self._memo[k]
        L = self.L
        c = self.U[i]
        copies = self._copy_with(i, "suit")
        # a copy never keeps suits when blanked (R16); a change of suit does not stop the
        # physical card keeping them (R17)
        if copies is None:
            lit: Lit = c.keeps_suits_when_blanked
        else:
            lit = L.and_([self.no_copy(i), c.keeps_suits_when_blanked])
        self._memo[k] = lit
        return lit

    def strength(self, i: int) -> list[tuple[int, Lit]]:
        """Card i's strength as a sum of (value, literal) terms."""
        c = self.U[i]
        copies = self._copy_with(i, "strength")
        if copies is None:
            return [(c.strength, True)] if c.strength else []
        out = [(t.strength, y) for t, y in copies if t.strength]  # one at most holds
        if c.strength:
            out.append((c.strength, self.no_copy(i)))
        return out

    def strength_values(self, i: int) -> dict[int, Lit]:
        """{strength value: literal that card i has it}."""
        c = self.U[i]
        copies = self._copy_with(i, "strength")
        if copies is None:
            return {c.strength: True}
        out: dict[int, list] = {}
        for t, y in copies:
            out.setdefault(t.strength, []).append(y)
        out.setdefault(c.strength, []).append(self.no_copy(i))
        return {v: self.L.or_(ls) for v, ls in out.items()}

    def printed_penalties(self, i: int) -> list[tuple[Penalty, Lit]]:
        c = self.U[i]
        copies = self._copy_with(i, "penalty")
        if copies is None:
            return [(c.penalty, True)] if c.penalty else []
        out = [(t.penalty, y) for t, y in copies if t.penalty]
        if c.penalty:
            out.append((c.penalty, self.no_copy(i)))
        return out

    # ---------------------------------------------------------------------------- matching
    def match(self, term: fx.Term, i: int, src: int | None) -> Lit:
        """Term selects card i (``src`` is the index of the card holding the effect)."""
        if term.other and src == i:
            return False
        k = ("match", term, i)
        if k in self._memo:
            return self._memo[k]
        L = self.L
        pos: Lit = True if term.any else L.or_(
            [self.suit(i, s) for s in _bits(term.suits)]
            + [self.name(i, n) for n in sorted(term.names)]
        )
        neg = L.or_([self.suit(i, s) for s in _bits(term.except_suits)]
                    + [self.name(i, n) for n in sorted(term.except_names)])
        lit = L.and_([pos, L.neg(neg)])
        self._memo[k] = lit
        return lit

    def match_any(self, terms: Terms, i: int, src: int | None) -> Lit:
        return self.L.or_(self.match(t, i, src) for t in terms)

    def match_suits_only(self, term: fx.Term, i: int) -> Lit:
        if not term.suits:
            return False
        L = self.L
        pos = L.or_(self.suit(i, s) for s in _bits(term.suits))
        neg = L.or_(self.suit(i, s) for s in _bits(term.except_suits))
        return L.and_([pos, L.neg(neg)])

    # ------------------------------------------------------------------------ immunity
    def _immunity(self) -> None:
        """Who cannot be blanked (C2, C3): a card immune by itself, Angel's chosen card, and
        every card a card in hand (kept or not) makes immune, judged after steps 1-2."""
        L = self.L
        self.immune: list[Lit] = []
        for i, c in enumerate(self.U):
            lits: list[Lit] = [bool(c.immune)]
            lits += [y for (_, j), y in self.protect.items() if j == i]
            for h, giver in enumerate(self.U):
                if giver.grants_immunity and self.x[h] is not False:
                    lits.append(L.and_([self.x[h], self.match_any(giver.grants_immunity, i, h)]))
            self.immune.append(L.and_([self.x[i], L.or_(lits)]))

    def can_blank(self, j: int, i: int) -> Lit:
        """Whether card j's blanking may hit card i at all (``resolve.can_blank``): never an
        immune card (C2, C3); a card blanked only by some cards only by them (C7); no card
        through one that never causes a blanking (C8). A card's own penalty reaches itself."""
        L = self.L
        if j == i:
            return L.neg(self.immune[i])
        if self.U[j].never_blanks_others:
            return False
        only = self.U[i].blanked_only_by
        by = self.match_any(only, j, None) if only else True
        return L.and_([L.neg(self.immune[i]), by])

    # ---------------------------------------------------------------------------- step 3
    def _clearing(self) -> None:
        L = self.L
        cleared: list[list] = [[] for _ in range(self.n)]
        struck: dict[tuple[int, int], list] = {}
        self.words = 0
        for h, holder in enumerate(self.U):
            for eff in holder.clears:
                for i in range(self.n):
                    cleared[i].append(L.and_([self.x[h], self.x[i],
                                              self.match_any(eff.targets, i, h)]))
            for eff in holder.clears_word:
                self.words |= eff.suits
                for i in range(self.n):
                    for s in _bits(eff.suits):
                        struck.setdefault((i, s), []).append(
                            L.and_([self.x[h], self.x[i], self.match_any(eff.targets, i, h)]))
        for (h, j), y in self.clear_one.items():
            eff = self.U[h].choice
            assert isinstance(eff, fx.ClearOne)
            L.implies(y, self.match_any(eff.targets, j, h))  # R4: after steps 1-2
            cleared[j].append(y)
        self.cleared = [L.or_(ls) for ls in cleared]
        self.struck = {k: L.or_(v) for k, v in struck.items()}

    def _penalties(self) -> None:
        """Every penalty in each variant it may take after clearing (R5, R6)."""
        L = self.L
        self.parts: list[PenaltyPart] = []
        words = _bits(self.words)
        for i in range(self.n):
            for pen, gate in self.printed_penalties(i):
                base = L.and_([self.x[i], gate, L.neg(self.cleared[i])])
                if base is False:
                    continue
                for r in range(len(words) + 1):
                    for chosen in combinations(words, r):
                        pattern = [self.struck.get((i, s), False) for s in chosen] + [
                            L.neg(self.struck.get((i, s), False))
                            for s in words if s not in chosen]
                        g = L.and_([base, *pattern])
                        if g is False:
                            continue
                        mask = sum(1 << s for s in chosen)
                        variant = pen.strike(mask) if mask else pen
                        if variant != NO_PENALTY:
                            self.parts.append(PenaltyPart(self.U[i], variant, g))

    # ---------------------------------------------------------------------------- step 4a
    def _blanking(self) -> None:
        m, L = self.m, self.L
        n = self.n
        attack: dict[tuple[int, int], list] = {}
        needs: list[list[NeedLits]] = [[] for _ in range(n)]
        lonely: list[list] = [[] for _ in range(n)]
        for part in self.parts:
            j = self.index[part.owner.id]
            for b in part.penalty.blanks:
                for i in range(n):
                    a = L.and_([part.gate, self.x[i], BLANK_BUILDERS[type(b)](self, b, i, j),
                                self.can_blank(j, i)])
                    if a is not False:
                        attack.setdefault((j, i), []).append(a)
            free = L.and_([part.gate, L.neg(self.immune[j])])  # an immune card has no needs
            for cond in part.penalty.conditions:
                needs[j].append(NEED_BUILDERS[type(cond)](self, cond, j, free))
            for eff in part.penalty.lonely:
                for i in range(n):
                    hit = L.and_([part.gate, self.x[i], self.can_blank(j, i),
                                  L.neg(self.match_any(eff.spared, i, j))])
                    if hit is not False:
                        lonely[i].append(hit)
        self.attack = {k: L.or_(v) for k, v in attack.items()}
        self.needs = needs
        self.lonely = [L.and_([L.or_(ls), L.neg(self._shares_a_suit(i))]) if ls else False
                       for i, ls in enumerate(lonely)]
        # potential dependency graph: j -> i when j's state can decide i's
        edges: dict[int, set[int]] = {i: set() for i in range(n)}
        for (j, i) in self.attack:
            edges[j].add(i)
        for i in range(n):
            for nd in needs[i]:
                for j in nd.deps:
                    edges[j].add(i)
        cyclic_nodes, self.cyclic = _cyclic_edges(edges)

        self.kept = [m.new_bool_var(f"kept_{c.id}") if self.x[i] is not False else False
                     for i, c in enumerate(self.U)]
        self.loop: list[Lit] = [False] * n
        self.rank: dict[int, cp_model.IntVar] = {}
        horizon = 2 * (self.hand_size + 2)
        for i in cyclic_nodes:
            if self.x[i] is False:
                continue
            self.loop[i] = m.new_bool_var(f"loop_{self.U[i].id}")
            self.rank[i] = m.new_int_var(0, horizon, f"rank_{self.U[i].id}")
        self.loop_round = m.new_int_var(0, horizon + 1, "loop_round")
        self._lt: dict[tuple[int, int], Lit] = {}

        attackers: dict[int, list[tuple[int, Lit]]] = {i: [] for i in range(n)}
        for (j, i), a in self.attack.items():
            attackers[i].append((j, a))
        self.attackers = attackers
        for i in range(n):
            if self.x[i] is False:
                continue
            kept = self.kept[i]
            hit = L.or_(L.and_([a, self.kept[j]]) for j, a in attackers[i])
            oks = [self._need_ok(nd, i) for nd in needs[i]]
            L.equal(kept, L.and_([self.x[i], L.neg(self.lonely[i]), L.neg(hit), *oks,
                                  L.neg(self.loop[i])]))
            self._well_founded(i)
        self._one_loop_round()

    def _shares_a_suit(self, i: int) -> Lit:
        """Another card held shares a suit with card i, after steps 1-2, blanked or not (C1:
        Demon looks at the hand as it stands)."""
        L = self.L
        ways = []
        for s in range(self.n_suits):
            mine = self.suit(i, s)
            if mine is False:
                continue
            others = L.or_(L.and_([self.x[j], self.suit(j, s)])
                           for j in range(self.n) if j != i and self.x[j] is not False)
            ways.append(L.and_([mine, others]))
        return L.or_(ways)

    def _need_ok(self, nd: NeedLits, i: int) -> Lit:
        L = self.L
        present = L.or_([nd.always] + [L.and_([d, self.kept[j]]) for j, d in nd.deps.items()])
        return L.or_([L.neg(nd.gate), present if nd.unless else L.neg(present)])

    def lt(self, j: int, i: int) -> Lit:
        """rank(j) < rank(i) on an edge that may lie on a loop; True elsewhere."""
        if (j, i) not in self.cyclic or j not in self.rank or i not in self.rank:
            return True
        k = (j, i)
        if k not in self._lt:
            b = self.m.new_bool_var("lt")
            self.m.add(self.rank[j] < self.rank[i]).only_enforce_if(b)
            self.m.add(self.rank[j] >= self.rank[i]).only_enforce_if(~b)
            self._lt[k] = b
        return self._lt[k]

    def _well_founded(self, i: int) -> None:
        """Ranks on loop-prone edges: every decision rests on earlier ones (R8 a), and the
        cards a loop cancels lie on a loop of cards cancelled together (R8 b)."""
        if i not in self.rank:
            return
        L = self.L
        kept, loop = self.kept[i], self.loop[i]
        blanked = L.and_([self.x[i], L.neg(kept), L.neg(loop)])
        lonely = self.lonely[i]
        reasons = [lonely]
        if lonely is not False:  # blanked before every other decision (C1)
            L.implies(lonely, L.neg(loop))
            self.m.add(self.rank[i] == 0).only_enforce_if(lonely)
        if any(self.lonely[j] is not False for j in self.rank):
            first = L.neg(lonely)
            if first is True:
                self.m.add(self.rank[i] >= 1)
            elif first is not False:
                self.m.add(self.rank[i] >= 1).only_enforce_if(first)
        for j, a in self.attackers[i]:
            # kept: every attacker was blanked earlier
            L.implies(L.and_([kept, a]), L.and_([L.neg(self.kept[j]), self.lt(j, i)]))
            reasons.append(L.and_([a, self.kept[j], self.lt(j, i)]))
            if (j, i) in self.cyclic:  # a loop card: no kept attacker decided earlier
                L.implies(L.and_([loop, a, self.kept[j]]), L.neg(self.lt(j, i)))
        for nd in self.needs[i]:
            earlier_present = L.or_([nd.always] + [
                L.and_([d, self.kept[j], self.lt(j, i)]) for j, d in nd.deps.items()])
            earlier_absent = L.and_([L.neg(nd.always)] + [
                L.or_([L.neg(d), L.and_([L.neg(self.kept[j]), self.lt(j, i)])])
                for j, d in nd.deps.items()])
            if nd.unless:
                L.implies(L.and_([kept, nd.gate]), earlier_present)
                reasons.append(L.and_([nd.gate, earlier_absent]))
            else:
                L.implies(L.and_([kept, nd.gate]), earlier_absent)
                reasons.append(L.and_([nd.gate, earlier_present]))
        L.implies(blanked, L.or_(reasons))
        # loop: a predecessor and a successor cancelled with it
        preds, succs = [], []
        for (a_, b_) in self.cyclic:
            if b_ == i and a_ in self.rank:
                preds.append(L.and_([self._edge(a_, i), self.loop[a_]]))
            if a_ == i and b_ in self.rank:
                succs.append(L.and_([self._edge(i, b_), self.loop[b_]]))
        L.implies(loop, self.x[i])
        L.implies(loop, L.or_(preds))
        L.implies(loop, L.or_(succs))
        self.m.add(self.rank[i] == self.loop_round).only_enforce_if(loop)

    def _one_loop_round(self) -> None:
        """R8 (b) happens at most once: when propagation stalls, every card on a loop of
        undecided cards is cancelled, and loops among fewer cards were loops already. So
        at that round R, no loop may run through a card that is still undecided at R and
        not cancelled. A potential over the undecided cards proves it: it must grow
        strictly along every edge except between two cancelled cards."""
        if not self.rank:
            return
        m, L = self.m, self.L
        horizon = 2 * (self.hand_size + 2)
        any_loop = L.or_(self.loop[i] for i in self.rank)
        if any_loop is False:
            return
        m.add(self.loop_round == horizon + 1).only_enforce_if(L.neg(any_loop))
        undecided = {}
        for i, r in self.rank.items():
            u = m.new_bool_var("undecided")
            m.add(r >= self.loop_round).only_enforce_if(u)
            m.add(r < self.loop_round).only_enforce_if(~u)
            undecided[i] = u
        phi = {i: m.new_int_var(0, len(self.rank), "phi") for i in self.rank}
        for (u, v) in sorted(self.cyclic):
            if u not in self.rank or v not in self.rank:
                continue
            both = L.and_([self._edge(u, v), undecided[u], undecided[v]])
            if both is False:
                continue
            strict = L.and_([both, L.neg(L.and_([self.loop[u], self.loop[v]]))])
            if u == v:
                L.implies(strict, False)
                continue
            if both is True:
                m.add(phi[u] <= phi[v])
            else:
                m.add(phi[u] <= phi[v]).only_enforce_if(both)
            if strict is True:
                m.add(phi[u] < phi[v])
            elif strict is not False:
                m.add(phi[u] < phi[v]).only_enforce_if(strict)

    def _edge(self, j: int, i: int) -> Lit:
        """j's state matters to i: j attacks i, or j is one of i's needs."""
        ls = [self.attack.get((j, i), False)]
        for nd in self.needs[i]:
            if j in nd.deps:
                ls.append(self.L.and_([nd.gate, nd.deps[j]]))
        return self.L.or_(ls)

    # ---------------------------------------------------------------------------- step 4b
    def sel(self, term: fx.Term, i: int, src: int | None) -> Lit:
        """Term selects card i among the cards that count (View.selected, R7, R15)."""
        k = ("sel", term, i, src if term.other else None)
        if k in self._memo:
            return self._memo[k]
        L = self.L
        full = L.and_([self.kept[i], self.match(term, i, src)])
        keeps = self.keeps(i)
        suited: Lit = False
        if keeps is not False and not (term.other and src == i):
            suited = L.and_([self.x[i], L.neg(self.kept[i]), keeps,
                             self.match_suits_only(term, i)])
        lit = L.or_([full, suited])
        self._memo[k] = lit
        return lit

    def count(self, term: fx.Term, src: int | None) -> list[Lit]:
        return [s for s in (self.sel(term, i, src) for i in range(self.n)) if s is not False]

    def has(self, terms: Terms, src: int | None) -> Lit:
        return self.L.or_(s for t in terms for s in self.count(t, src))

    def linear(self, terms: Iterable[tuple[int, Lit]]) -> tuple[object, int, int]:
        """A linear expression of (coefficient, literal) terms with its bounds."""
        expr: object = 0
        lo = hi = 0
        for coef, lit in terms:
            if lit is False or coef == 0:
                continue
            if lit is True:
                expr = expr + coef
                lo += coef
                hi += coef
                continue
            expr = expr + coef * lit
            if coef > 0:
                hi += coef
            else:
                lo += coef
        return expr, lo, hi

    def capped(self, terms: list[tuple[int, Lit]], gate: Lit, reach: int, owner: int,
               feeds: dict[int, int] | None = None) -> tuple[object, int, int]:
        """The sum of (value, literal) terms, with bounds stated for the LP relaxation.

        ``|sum| ≤ reach × gate`` and ``≤ reach × held(owner)``; with ``feeds`` (card index →
        most it adds), also ``sum ≤ Σ feeds[j] × held(j)``: a bonus grows only with the cards
        that feed it. These hold in every solution; they make the relaxation honest.
        """
        expr, lo, hi = self.linear(terms)
        if isinstance(expr, int) or gate is False:
            return expr, lo, hi
        reach = abs(reach)
        g = 1 if gate is True else gate
        mine = self.x[owner]
        if reach < hi:
            hi = reach
            self.m.add(expr <= hi * g)
        if -reach > lo:
            lo = -reach
            self.m.add(expr >= lo * g)
        if hi > 0 and mine is not True:
            self.m.add(expr <= hi * mine)
        if feeds and hi > 0:
            self.m.add(expr <= sum(v * self.x[j] for j, v in feeds.items()
                                   if self.x[j] is not False))
        return expr, lo, hi

    def max_suits(self, j: int) -> int:
        """The most suits card j can hold at once."""
        copies = self._copy_with(j, "suit")
        masks = [self.U[j].suits] + ([t.suits for t, _ in copies] if copies else [])
        return max(max(bin(m).count("1") for m in masks), 1)

    def _points(self) -> None:
        """Each kept card adds its strength, its own bonus and its active penalty (R1: a copy
        keeps its printed bonus). A card's whole contribution is also capped by its best
        possible one times "it is held", a linear fact the relaxation can use."""
        L = self.L
        self.caps: dict[int, int] = {}
        held: list[tuple[int, object]] = []
        parts: dict[int, list[PenaltyPart]] = {}
        for part in self.parts:
            parts.setdefault(self.index[part.owner.id], []).append(part)
        for i in range(self.n):
            if self.x[i] is False:
                continue
            kept = self.kept[i]
            strength = self.linear((v, L.and_([kept, lit])) for v, lit in self.strength(i))
            most = max([v for v, _ in self.strength(i)] + [0])  # one strength at a time
            values = [(strength[0], min(strength[1], 0), most)]
            for eff in self.U[i].bonus:
                values.append(self.point(eff, i, kept))
            for part in parts.get(i, []):
                gate = L.and_([kept, part.gate])
                for eff in part.penalty.points:
                    values.append(self.point(eff, i, gate))
            expr = sum(v[0] for v in values)
            cap = sum(max(v[2], 0) for v in values)
            self.caps[i] = cap
            if isinstance(expr, int) or self.x[i] is True:
                self.total_terms.append(expr)
                continue
            self.total_terms.append(expr)
            held.append((cap, self.x[i]))
        # Σ contributions ≤ Σ cap × held, stated once over all cards: CP-SAT's relaxation
        # keeps constraints of many terms (two-term ones are left to propagation only)
        if held:
            self.m.add(sum(self.total_terms) <= sum(cap * x for cap, x in held)
                       + sum(self.caps[i] for i in range(self.n) if self.x[i] is True))

    def _suit_rows(self) -> None:
        """Per suit: the kept cards holding it are at most the held cards printed in it, plus
        one for each card that can change or take a suit (Book, copies). Redundant for the
        solutions, but it stops the relaxation from spreading Book's one change over every
        card and every suit."""
        L = self.L
        changers = [x for c, x in zip(self.U, self.x, strict=True)
                    if x is not False and isinstance(c.choice, (fx.ChangeSuit, fx.Copy))]
        if not changers:
            return
        for s in range(self.n_suits):
            bit = 1 << s
            held = [L.and_([self.kept[j], self.suit(j, s)]) for j in range(self.n)]
            held = [h for h in held if h is not False and h is not True]
            printed = [x for c, x in zip(self.U, self.x, strict=True)
                       if x is not False and c.suits & bit and not isinstance(c.choice, fx.Copy)]
            if len(held) >= 2:
                self.m.add(sum(held) <= sum(printed) + sum(changers))

    def _cursed_items(self) -> int:
        """The Cursed Items held beside the hand: never blanked, in no suit, their value
        read off the table alone (``unsupported`` refuses one that reads the hand)."""
        view = fx.View([], [], [], self.cat.suits, fx.Context(
            None, self.table.players, len(self.table.cursed)))
        return sum(cursed_points(c, view) for c in self.table.cursed)

    def point(self, eff: fx.PointEffect, i: int, gate: Lit) -> tuple[object, int, int]:
        builder = POINT_BUILDERS.get(type(eff))
        if builder is None:
            raise NotImplementedError(f"no CP-SAT builder for {type(eff).__name__}")
        return builder(self, eff, i, gate)

    # ---------------------------------------------------------------------------- reading
    def solution_cards(self, solver: cp_model.CpSolver) -> tuple[list[Card], list[Card]]:
        """(the 7 cards, the extra cards) of the solver's current solution."""
        base = [c for c, b in zip(self.U, self.base, strict=True)
                if self.L.value(solver, b)]
        extra = [c for c, e in zip(self.U, self.extra, strict=True)
                 if self.L.value(solver, e)]
        return base, extra

    def solution_choices(self, solver: cp_model.CpSolver) -> dict[str, ChoiceValue]:
        """The choices of the solver's current solution, in the form ``Hand`` takes, for
        every chooser held (None: left unassigned)."""
        held = set(map(id, sum(self.solution_cards(solver), [])))
        out: dict[str, ChoiceValue] = {c.id: None for c in self.U
                                       if c.choice is not None and id(c) in held}

        def on(lit: Lit) -> bool:
            return self.L.value(solver, lit)

        for i, opts in self.copy.items():
            for k, y in opts.items():
                if on(y):
                    out[self.U[i].id] = self.copy_cards[i][k]
        for (i, j, s), y in self.change.items():
            if on(y):
                out[self.U[i].id] = (self.U[j], self.cat.suits[s])
        for (i, j), y in list(self.clear_one.items()) + list(self.protect.items()):
            if on(y):
                out[self.U[i].id] = self.U[j]
        return out

    def order_ties(self, position: Mapping[str, int]) -> bool:
        """Break ties inside the objective as ``exhaustive.rank_key`` does: lower printed
        strength first (the game's tie-break), then cards earlier in ``position``. One solve
        then yields the next hand in that order, instead of one solve per tied hand.
        Only for small pools, where the weights stay far from 64-bit limits."""
        size = max(position.values(), default=0) + 1
        if size > 30:
            return False
        span = 1 << (size + 1)
        held = [(c, x) for c, x in zip(self.U, self.x, strict=True) if x is not False]
        strength = sum(c.strength * x for c, x in held)
        early = sum((1 << (size - position[c.id])) * x for c, x in held)
        weight = (sum(max(c.strength, 0) for c, _ in held) + 2) * span
        self.goal = self.objective * weight - strength * span + early
        self.m.maximize(self.goal)
        self.ordered = True
        return True

    def hint(self, base: Sequence[Card], extra: Sequence[Card] = ()) -> None:
        """Start the search from this hand."""
        ids, more = {c.id for c in base}, {c.id for c in extra}
        for c, b, e in zip(self.U, self.base, self.extra, strict=True):
            if b is not False and b is not True:
                self.m.add_hint(b, c.id in ids)
            if e is not False and e is not True:
                self.m.add_hint(e, c.id in more)

    def exclude_base(self, cards: Sequence[Card]) -> None:
        """A no-good cut on the 7 pool cards: never this choice of 7 again."""
        ids = {c.id for c in cards}
        self.m.add_bool_or([~b for b, c in zip(self.base, self.U, strict=True)
                            if c.id in ids and b is not False and b is not True])

    def exclude(self, cards: Sequence[Card]) -> None:
        """A no-good cut: never this exact set of cards again."""
        ids = {c.id for c in cards}
        inside = [self.x[i] for i, c in enumerate(self.U) if c.id in ids]
        outside = [self.x[i] for i, c in enumerate(self.U) if c.id not in ids
                   and self.x[i] is not False]
        self.m.add_bool_or([~v for v in inside if v is not True] + outside)


# ------------------------------------------------------------------------------------------
# Blanking penalties and self-conditions
# ------------------------------------------------------------------------------------------


def _blanks(model: HandModel, eff: fx.Blanks, i: int, j: int) -> Lit:
    return model.match_any(eff.targets, i, j)


def _need(model: HandModel, cond: fx.BlankedUnless | fx.BlankedIf, i: int, gate: Lit) -> NeedLits:
    L = model.L
    unless = isinstance(cond, fx.BlankedUnless)
    always = [model.match_any(cond.terms, i, i)]
    deps: dict[int, Lit] = {}
    for j in range(model.n):
        if j == i or model.x[j] is False:
            continue
        if not unless and model.U[j].never_blanks_others:
            continue  # it never makes another card blanked (C8)
        keeps = model.keeps(j)
        if keeps is not False:
            always.append(L.and_([model.x[j], keeps] + [
                L.or_(model.match_suits_only(t, j) for t in cond.terms)]))
        d = L.and_([model.x[j], model.match_any(cond.terms, j, i)])
        if d is not False:
            deps[j] = d
    return NeedLits(unless, gate, L.or_(always), deps)


BLANK_BUILDERS: dict[type, Callable[[HandModel, object, int, int], Lit]] = {
    fx.Blanks: _blanks,  # type: ignore[dict-item]
}
NEED_BUILDERS: dict[type, Callable[[HandModel, object, int, Lit], NeedLits]] = {
    fx.BlankedUnless: _need,  # type: ignore[dict-item]
    fx.BlankedIf: _need,  # type: ignore[dict-item]
}


def _cyclic_edges(edges: dict[int, set[int]]) -> tuple[set[int], set[tuple[int, int]]]:
    """Nodes and edges inside a strongly connected component that holds a loop."""
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    comp_of: dict[int, int] = {}
    stack: list[int] = []
    on: set[int] = set()
    counter = 0
    comps: list[list[int]] = []
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                    advanced = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    comp_of[w] = len(comps)
                    if w == v:
                        break
                comps.append(comp)
    nodes: set[int] = set()
    cyc: set[tuple[int, int]] = set()
    for j, outs in edges.items():
        for i in outs:
            if comp_of[i] == comp_of[j] and (i == j or len(comps[comp_of[i]]) > 1):
                cyc.add((j, i))
                nodes.add(i)
                nodes.add(j)
    return nodes, cyc


# ------------------------------------------------------------------------------------------
# Point effects: one builder per effect class
# ------------------------------------------------------------------------------------------

Value = tuple[object, int, int]

# Point values feed nothing but the objective, which is maximised. So "the larger of" can be
# a free choice of one option, "the strongest card" a free choice of one card, and a paying
# threshold a literal that may be true only when the threshold is met: the solver picks the
# best, which is the value the evaluator computes. Every value is a sum of literals that each
# imply the effect's gate (its card is kept, its condition holds), and is capped by a bound
# times the gate: this keeps the LP relaxation close to "each card adds at most so much".


def _condition(model: HandModel, cond: fx.Condition, i: int) -> Lit:
    L = model.L
    table = model.table
    if cond.players is not None and table.players != cond.players:
        return False  # C6: a table condition is known before the search
    if cond.other_cursed is not None and len(table.cursed) - 1 < cond.other_cursed:
        return False
    parts: list[Lit] = []
    if cond.with_any:
        parts.append(model.has(cond.with_any, i))
    for group in cond.with_all:
        parts.append(model.has(group, i))
    if cond.unless:
        parts.append(L.neg(model.has(cond.unless, i)))
    return L.and_(parts)


def _top(values: Iterable[int], k: int) -> int:
    return sum(sorted(values, reverse=True)[:k])


def _points(model: HandModel, eff: fx.Points, i: int, gate: Lit) -> Value:
    L = model.L
    g = L.and_([gate, _condition(model, eff.condition, i)])
    if g is not True and g is not False and eff.points > 0:
        # a "with" bonus needs a witness in hand: say it linearly, for the relaxation
        for group in ([eff.condition.with_any] if eff.condition.with_any else []) + list(
                eff.condition.with_all):
            able = [model.x[j] for j in range(model.n)
                    if model.x[j] is not False and any(
                        model.sel(t, j, i) is not False for t in group)]
            if not any(a is True for a in able):
                model.m.add(g <= sum(able))
    if not eff.per or g is False:
        return model.linear([(eff.points, g)])
    if eff.in_discard:
        return _in_discard(model, eff, i, g)
    terms = []
    per_card: dict[int, int] = {}
    for t in eff.per:
        for j in range(model.n):
            s = model.sel(t, j, i)
            if s is not False:
                terms.append((eff.points, L.and_([g, s])))
                per_card[j] = per_card.get(j, 0) + 1
    if eff.first is not None:
        return _first(model, eff, i, g, terms, per_card)
    plain = all(t.plain_suit for t in eff.per)
    mult = {j: min(k, model.max_suits(j)) if plain else k for j, k in per_card.items()}
    reach = _top(mult.values(), model.max_cards)
    feeds = {j: eff.points * k for j, k in mult.items()} if eff.points > 0 else None
    return model.capped(terms, g, eff.points * reach, i, feeds)


def _first(model: HandModel, eff: fx.Points, i: int, g: Lit, terms: list[tuple[int, Lit]],
           per_card: dict[int, int]) -> Value:
    """"``first`` for the first card of each term, ``points`` per further one" (Dungeon,
    Castle): ``points`` per card, plus ``first - points`` for each term met at all."""
    L = model.L
    first = eff.first
    assert first is not None
    lo = hi = 0
    for t in eff.per:
        met = L.or_(model.count(t, i))
        terms.append((first - eff.points, L.and_([g, met])))
        most = min(len(model.count(t, i)), model.max_cards)
        pays = [0] + [first + eff.points * (k - 1) for k in range(1, most + 1)]
        lo += min(pays)
        hi += max(pays)
    feeds = None
    if first >= 0 and eff.points >= 0:  # each card adds its term's first or further pay
        feeds = {j: max(first, eff.points) * k for j, k in per_card.items()}
    return model.capped(terms, g, max(hi, -lo), i, feeds)


def _in_discard(model: HandModel, eff: fx.Points, i: int, g: Lit) -> Value:
    """Per card of the discard area as printed (C5): each matching term counts, and a card
    an extra-card effect takes leaves the area. No discard area given: none counts."""
    L = model.L
    area = model.table.discard
    if area is None:
        return 0, 0, 0
    terms = []
    for d in area:
        shown = d.in_discard()
        k = sum(1 for t in eff.per if t.matches(shown, None))
        if not k:
            continue
        j = model.index.get(d.id)
        taken = model.extra[j] if j is not None else False
        terms.append((eff.points * k, L.and_([g, L.neg(taken)])))
    return model.linear(terms)


def _exactly(model: HandModel, eff: fx.Exactly, i: int, gate: Lit) -> Value:
    """Points if exactly ``count`` cards match (Chapel): the cards whose suits count, a
    blanked card keeping its suits included (R15)."""
    L = model.L
    if gate is False:
        return 0, 0, 0
    seen = [L.or_(model.sel(t, j, i) for t in eff.terms) for j in range(model.n)]
    seen = [w for w in seen if w is not False]
    if len(seen) < eff.count:
        return 0, 0, 0
    met = model.m.new_bool_var("exactly")
    model.m.add(sum(seen) == eff.count).only_enforce_if(met)
    if eff.points < 0:  # a loss is paid whenever the count is met: say it both ways
        model.m.add(sum(seen) != eff.count).only_enforce_if(~met)
    return model.linear([(eff.points, L.and_([gate, met]))])


def _per_penalty(model: HandModel, eff: fx.PerPenalty, i: int, gate: Lit) -> Value:
    """Points per kept card whose penalty stands after clearing (Judge): a penalty part of
    the card is active and not emptied by a struck word."""
    L = model.L
    if gate is False:
        return 0, 0, 0
    active: dict[int, list] = {}
    for part in model.parts:
        active.setdefault(model.index[part.owner.id], []).append(part.gate)
    terms = [(eff.points, L.and_([gate, model.kept[j], L.or_(gates)]))
             for j, gates in active.items()]
    feeds = {j: eff.points for j in active} if eff.points > 0 else None
    return model.capped(terms, gate, abs(eff.points) * min(len(active), model.max_cards), i,
                        feeds)


def _per_player(model: HandModel, eff: fx.PerPlayer, i: int, gate: Lit) -> Value:
    """Points per other player (Genie, C6): a constant of the table."""
    return model.linear([(eff.points * ((model.table.players or 1) - 1), gate)])


def _best_of(model: HandModel, eff: fx.BestOf, i: int, gate: Lit) -> Value:
    if gate is False:
        return 0, 0, 0
    L = model.L
    picks = [model.m.new_bool_var("option") for _ in eff.options]
    model.m.add(sum(picks) == (1 if gate is True else gate))
    opts = [model.point(o, i, L.and_([gate, z])) for o, z in zip(eff.options, picks, strict=True)]
    return sum(o[0] for o in opts), min(o[1] for o in opts), max(o[2] for o in opts)


def _sum_strength(model: HandModel, eff: fx.SumStrength, i: int, gate: Lit) -> Value:
    L = model.L
    terms = []
    best: dict[int, int] = {}
    for j in range(model.n):
        sel = L.and_([gate, model.kept[j], model.match_any(eff.terms, j, i)])
        if sel is False:
            continue
        for v, lit in model.strength(j):
            terms.append((v, L.and_([sel, lit])))
            best[j] = max(best.get(j, 0), v)
    return model.capped(terms, gate, _top(best.values(), model.max_cards), i, best)


def _max_strength(model: HandModel, eff: fx.MaxStrength, i: int, gate: Lit) -> Value:
    L = model.L
    terms = []
    picks = []
    hi = 0
    for j in range(model.n):
        sel = L.and_([gate, model.kept[j], model.match_any(eff.terms, j, i)])
        if sel is False:
            continue
        w = model.m.new_bool_var("strongest")
        L.implies(w, sel)
        picks.append(w)
        for v, lit in model.strength(j):
            terms.append((v, L.and_([w, lit])))
            hi = max(hi, v)
    if picks:
        model.m.add_at_most_one(picks)
    return model.capped(terms, gate, hi, i)


def _at_least(model: HandModel, lits: list, n: int) -> Lit:
    """A literal that may be true only when at least ``n`` of ``lits`` are (maximised use)."""
    if len(lits) < n:
        return False
    if n <= 0:
        return True
    b = model.m.new_bool_var("at_least")
    model.m.add(sum(lits) >= n * b)
    return b


def _table(table: Sequence[tuple[int, int]], most: int) -> list[tuple[int, int]]:
    """(threshold, extra points) steps of an "at least n: points" table, up to ``most``."""
    def pay(n: int) -> int:
        return max([p for need, p in table if n >= need] + [0])
    out, prev = [], 0
    for n in range(1, most + 1):
        if pay(n) > prev:
            out.append((n, pay(n) - prev))
            prev = pay(n)
    return out


def _best_split(cards: int, pay: Callable[[int], int]) -> int:
    """The most ``cards`` can pay split into groups, each group paying ``pay(size)``."""
    return fx.best_splits(pay, cards)[cards]


def _collection(model: HandModel, eff: fx.Collection, i: int, gate: Lit) -> Value:
    """Different names per suit = the cards counting in that suit (kept, or blanked and
    keeping their suits, R15), less each card that repeats
    the name of an earlier one. Only a copy can repeat a name, so the repeats are few
    literals (one per pair of cards that may share a name) instead of a name-by-suit grid."""
    L = model.L
    if gate is False:
        return 0, 0, 0
    live = [j for j in range(model.n) if model.x[j] is not False]
    names = {j: model.names_of(j) for j in live}
    pairs = [(j, c) for c in live for j in live if j < c and names[j] & names[c]]
    terms = []
    pays = []
    steps = _table(eff.table, model.max_cards)
    for s in range(model.n_suits):
        suited = [L.and_([model.x[j], L.or_([model.kept[j], model.keeps(j)]), model.suit(j, s)])
                  for j in live]
        enough = _at_least(model, [x for x in suited if x is not False], 3)
        if enough is False:
            continue
        # a blanked card that keeps its suits keeps its name for Collector too (R15)
        held = dict(zip(live, suited, strict=True))
        count = [h for h in held.values() if h is not False]
        repeats: dict[int, list] = {}
        for j, c in pairs:
            same = L.or_(L.and_([model.name(j, nm), model.name(c, nm)])
                         for nm in sorted(names[j] & names[c]))
            both = L.and_([held[j], held[c], same])
            if both is not False:
                repeats.setdefault(c, []).append(both)
        repeat = []
        for ways in repeats.values():
            r = model.m.new_bool_var("repeat")  # may be true only if c repeats a name
            L.implies(L.or_(ways), r)
            repeat.append(r)
        for need, extra in steps:
            if len(count) < need:
                continue
            b = model.m.new_bool_var("names")
            model.m.add(sum(count) - sum(repeat) >= need * b)
            terms.append((extra, L.and_([gate, enough, b])))
        pays.append(sum(x for _, x in steps if _ <= len(count)))
    # the held cards' suits split among the suits; a multi-suit card (Phoenix) counts in each
    extra = sum(sorted((model.max_suits(j) - 1 for j in live), reverse=True)[:model.max_cards])
    reach = _best_split(model.max_cards + extra,
                        lambda k: max([p for need, p in eff.table if k >= need] + [0]))
    return model.capped(terms, gate, min(reach, sum(pays)), i)


def _runs(model: HandModel, eff: fx.Runs, i: int, gate: Lit) -> Value:
    L = model.L
    if gate is False:
        return 0, 0, 0
    has: dict[int, list] = {}
    for j in range(model.n):
        if model.x[j] is False:
            continue
        for v, lit in model.strength_values(j).items():
            lit2 = L.and_([model.kept[j], lit])
            if lit2 is not False:
                has.setdefault(v, []).append(lit2)
    layers = max((len(v) for v in has.values()), default=0)
    size = model.max_cards

    def pay(n: int) -> int:
        return max([p for need, p in eff.table if n >= need] + [0])

    terms: list[tuple[int, Lit]] = []
    for layer in range(1, min(layers, size) + 1):
        present: dict[int, Lit] = {}
        for v, ls in has.items():
            if len(ls) < layer:
                continue
            if layer == 1:
                present[v] = L.or_(ls)
            else:
                b = model.m.new_bool_var("layer")
                model.m.add(sum(ls) >= layer).only_enforce_if(b)
                model.m.add(sum(ls) < layer).only_enforce_if(~b)
                present[v] = b
        for start in sorted(present):
            for length in range(2, size + 1):
                p = pay(length)
                vals = range(start, start + length)
                if not p or any(v not in present for v in vals):
                    continue
                run = L.and_([gate] + [present[v] for v in vals]
                             + [L.neg(present.get(start - 1, False)),
                                L.neg(present.get(start + length, False))])
                terms.append((p, run))
    return model.capped(terms, gate, _best_split(size, pay), i)


def _distinct_suits(model: HandModel, eff: fx.DistinctSuits, i: int, gate: Lit) -> Value:
    L = model.L
    if gate is False:
        return 0, 0, 0
    w = model.m.new_bool_var("distinct")
    L.implies(w, gate)
    for s in range(model.n_suits):
        held = [L.and_([model.kept[j], model.suit(j, s)]) for j in range(model.n)]
        held = [x for x in held if x is not False]
        if len(held) >= 2:
            model.m.add(sum(held) <= 1).only_enforce_if(w)
    return model.linear([(eff.points, w)])


def _odd_strength(model: HandModel, eff: fx.OddStrength, i: int, gate: Lit) -> Value:
    L = model.L
    if gate is False:
        return 0, 0, 0
    odd_lits = []
    all_odd = []
    for j in range(model.n):
        if model.x[j] is False:
            continue
        odd = L.or_(lit for v, lit in model.strength_values(j).items() if v % 2)
        if j != i:
            odd_lits.append(L.and_([model.kept[j], odd]))
        all_odd.append(L.or_([L.neg(model.x[j]), L.and_([model.kept[j], odd])]))
    flat = model.m.new_bool_var("all_odd")  # take the flat sum instead of the per-card one
    L.implies(flat, L.and_([gate, *all_odd]))
    terms = [(eff.all_odd, flat)]
    terms += [(eff.per_other, L.and_([gate, L.neg(flat), x])) for x in odd_lits]
    reach = max(eff.all_odd, eff.per_other * min(len(odd_lits), model.max_cards - 1), 0)
    return model.capped(terms, gate, reach, i)


POINT_BUILDERS: dict[type, Callable[..., Value]] = {
    fx.Points: _points,
    fx.BestOf: _best_of,
    fx.SumStrength: _sum_strength,
    fx.MaxStrength: _max_strength,
    fx.Collection: _collection,
    fx.Runs: _runs,
    fx.DistinctSuits: _distinct_suits,
    fx.OddStrength: _odd_strength,
    fx.Exactly: _exactly,
    fx.PerPenalty: _per_penalty,
    fx.PerPlayer: _per_player,
}


# ------------------------------------------------------------------------------------------
# Search: solve, verify with the evaluator, cut, repeat
# ------------------------------------------------------------------------------------------


@dataclass
class SearchResult:
    found: list[Candidate]
    proven: bool
    solves: int = 0
    seconds: float = 0.0


def search(model: HandModel, verify: Callable[[list[Card], list[Card]], Candidate | None],
           top: int = 1, time_limit: float | None = None, workers: int = 2,
           cut: str = "hand", key: Callable[[Candidate], object] | None = None,
           max_ties: int = 32, initial: Sequence[Candidate] = ()) -> SearchResult:
    """The ``top`` best card sets, each verified by ``verify`` (the evaluator).

    Loop: solve the model; its optimum bounds every card set not yet cut off; score the
    solution's cards with the evaluator; cut them off (``cut="hand"``: that exact set of
    cards; ``"base"``: that choice of 7 pool cards, whatever the extra card); stop when the
    ``top``-th best verified total is above the bound. Hands tied with the last one kept are
    all collected first (up to ``max_ties``), so that ``key`` breaks ties, not the solver.
    """
    key = key or (lambda c: -c.total)
    t0 = time.perf_counter()
    found: list[Candidate] = list(initial)
    for cand in initial:  # already scored: the solver need not find them again
        if cut == "base":
            model.exclude_base(cand.cards[:len(cand.cards) - len(cand.extra)])
        else:
            model.exclude(cand.cards)
    solves = 0
    proven = False
    while True:
        left = None if time_limit is None else time_limit - (time.perf_counter() - t0)
        if left is not None and left <= 0:
            break
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = workers
        if left is not None:
            solver.parameters.max_time_in_seconds = left
        status = solver.solve(model.m)
        solves += 1
        if status == cp_model.INFEASIBLE:
            proven = True
            break
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            break
        base, extra = model.solution_cards(solver)
        cand = verify(base, extra)
        promised = solver.value(model.objective)
        if cand is not None and status == cp_model.OPTIMAL and cand.total > promised:
            # the model must bound every hand: a hand scoring more than it promised means
            # a rule is modelled wrongly, and the search could miss the best hand
            raise AssertionError(f"CP-SAT promised {promised} for "
                                 f"{', '.join(c.name for c in cand.cards)}; the evaluator "
                                 f"scores {cand.total}")
        if cut == "base":
            model.exclude_base(base)
        else:
            model.exclude(base + extra)
        if cand is not None:
            found.append(cand)
        found.sort(key=key)
        if status != cp_model.OPTIMAL:
            break  # out of time: the best found so far, not proven
        bound = round(solver.value(model.objective))
        if len(found) >= top:
            if model.ordered:
                # the solution is the best remaining hand in the order of ``key`` (its total
                # as the model sees it): anything listed that ranks at least as well wins
                reached = Candidate(tuple(base + extra), tuple(extra), bound, {})
                if key(found[top - 1]) <= key(reached):
                    proven = True
                    break
            last = found[top - 1].total
            if last > bound:
                proven = True
                break
            if last == bound and sum(1 for c in found if c.total == last) >= max_ties:
                proven = True  # the value is proven; not every tied hand is listed
                break
        # every later solution is worth at most this one: say so, it prunes the next search
        model.m.add(model.goal <= round(solver.objective_value))
    found.sort(key=key)
    return SearchResult(found, proven, solves, time.perf_counter() - t0)


def cpsat_choices(cards: Sequence[Card], catalog: Catalog,
                  pinned: Mapping[str, ChoiceValue] | None = None,
                  table: Table = NO_TABLE) -> tuple[int, dict[str, ChoiceValue]]:
    """(best total, the choices reaching it) for exactly these cards, as
    ``choices.optimal_choices`` gives them: pinned choices are kept, the open ones chosen by
    the model. The total is ``resolve``'s score of the choices found; the model must have
    promised exactly that (anything else is a fault in the model, and raises)."""
    model = HandModel(catalog, cards, (), pinned, required=cards, hand_size=len(cards),
                      table=table)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    status = solver.solve(model.m)
    if status == cp_model.INFEASIBLE:
        raise ScorerError("no legal choices for these cards: a pinned choice names a card "
                          "it may not take (R4)")
    if status != cp_model.OPTIMAL:  # pragma: no cover - a hand is a small model
        raise ScorerError("the CP-SAT search found no answer")
    choices = model.solution_choices(solver)
    total = score_raw(cards, choices, catalog, table.context(), table.cursed)
    promised = round(solver.objective_value)
    if total != promised:
        raise AssertionError(f"CP-SAT promised {promised} for these choices; the "
                             f"evaluator scores {total}")
    return total, choices


def objective_of(model: HandModel) -> int | None:
    """Solve a model once (used by the tests on fully pinned hands)."""
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    status = solver.solve(model.m)
    if status != cp_model.OPTIMAL:
        return None
    return round(solver.objective_value)
