"""A catalog's cards and effects as integer tables, for the compiled scorer (``kernel.py``).

The compiled code cannot read :class:`~fantasy_scorer.realms.catalog.Card` objects, so each
effect object of the evaluator is written here as a row of integers: the same effect objects
``resolve`` runs, so a homebrew card in YAML is compiled like any shipped card. A card whose
effects this module does not know (a new effect class) is marked *unsupported*: a hand holding
it is scored by ``resolve`` instead, never approximately.

Layout (every table is a block of one flat ``int64`` memory, found by its offset in ``O_*``;
``FLAT`` holds every variable-length list):

* ``CARD[u, CF_*]``: card ``u`` of ``catalog.cards`` (printed face, penalty, choice, traits);
* ``TERM[t, TF_*]`` with ``TNAMES``/``TEXNAMES[t, name]``: selector terms;
* ``LISTS[l] = (start, end)`` into ``FLAT``: a tuple of term ids (a selector);
* ``EFF[e, EF_*]``: point effects (nested ``best_of`` flattened into one list of options);
* ``PEN[p, PF_*]``: penalties; ``PV[u, k]`` is card ``u``'s penalty with the suit words of
  subset ``k`` of ``WORDS`` struck out (R6), ``0`` being the empty penalty;
* ``PAY[tab, n]``: a payout table (collections, runs) for ``n`` cards;
* ``MNAMES[u, name]``: the names card ``u``'s terms mention (for collapsing choice options).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ... import effects as fx
from ...catalog import NO_PENALTY, Card, Catalog, Penalty
from ..engine import Unsupported

# card fields
(CF_STR, CF_SUITS, CF_COPY_SUITS, CF_NAME, CF_KEEPS, CF_DISC_SUITS, CF_IMMUNE, CF_UNCHANGE,
 CF_CURSED, CF_HASPEN, CF_BON0, CF_BON1, CF_CLR0, CF_CLR1, CF_CW0, CF_CW1, CF_CHOICE,
 CF_TAKES, CF_COPYMASK, CF_CLRONE, CF_GRANTS, CF_EXTRA, CF_EXTRA_SUITS, CF_NEEDS,
 CF_UNSUP, CF_MSUITS, CF_ALLSUITS, CF_ALLNAMES, CF_WILDREL, CF_TARG0, CF_TARG1,
 CF_KEPT_ON_CHANGE, CF_NEVER_BLANKS, CF_ONLY_BY, CF_WORDS, CF_TRM0, CF_TRM1,
 CF_SIZE) = range(38)

# a choice's value in a hand (kind, a, b); OPEN: left to the enumeration to pick
CV_NONE, CV_COPY, CV_CHANGE, CV_TARGET = range(4)
OPEN = -1
#: Pool cards one subset's own pins may fix in ``search.subsets_batch`` (its ``over``: a
#: copy from the hand and Book of Changes, option by option, for the pruned search).
OVER_PINS = 2
# results of a hand
OK, ERROR = 0, 1

# choice kinds of a card
CH_NONE, CH_COPY_HAND, CH_COPY_GAME, CH_CHANGE, CH_CLEAR_ONE, CH_PROTECT = range(6)
# what a copy takes (bits)
TAKE_NAME, TAKE_SUIT, TAKE_STRENGTH, TAKE_PENALTY = 1, 2, 4, 8
# immunity
IM_NONE, IM_ALL = 0, 1
# extra-card effects
EX_NONE, EX_DISCARD, EX_DECK = 0, 1, 2
# context a card's score reads
NEED_DISCARD, NEED_PLAYERS = 1, 2

# term fields
TF_SUITS, TF_ANY, TF_EXS, TF_OTHER, TF_IDX, TF_HASN, TF_HASEXN, TF_SIZE = range(8)

# effect kinds and fields
(K_POINTS, K_BEST, K_SUM, K_MAX, K_COLL, K_RUNS, K_DISTINCT, K_ODD, K_EXACTLY, K_PERPEN,
 K_PERPLAYER) = range(11)
(EF_KIND, EF_A, EF_B, EF_C, EF_PER, EF_HASFIRST, EF_FIRST, EF_INDISC, EF_CEMPTY, EF_WITH,
 EF_WALL0, EF_WALL1, EF_UNLESS, EF_HASPLAYERS, EF_PLAYERS, EF_HASOC, EF_OC, EF_OPT0, EF_OPT1,
 EF_TERMS, EF_TAB, EF_PLAIN, EF_PL0, EF_PL1, EF_SIZE) = range(25)
# a plain effect's conditions, as (mode, term) pairs: a group "with any of" is one term
PLAIN_WITH, PLAIN_UNLESS = 1, 2

# penalty fields
(PF_PTS0, PF_PTS1, PF_BL0, PF_BL1, PF_CO0, PF_CO1, PF_LO0, PF_LO1, PF_NONEMPTY, PF_BLANKING,
 PF_SIZE) = range(11)

# offsets of the blocks in the flat memory, then sizes
(O_CARD, O_TERM, O_TNAMES, O_TEXNAMES, O_LISTS, O_FLAT, O_EFF, O_PEN, O_PV, O_WORDS, O_PAY,
 O_MNAMES, O_NSUITS, O_NWORDS, O_NNAMES, O_PVW, O_NCARDS, O_HAND_SIZE, O_MAX_HAND,
 O_SIZE) = range(20)

#: Payout tables are kept for 0..PAY_SIZE-1 cards (a hand never holds more).
PAY_SIZE = 64
#: Suit words a catalog's cards may clear (R6); more make the strike table too large.
MAX_WORDS = 4

#: Effect classes the compiled scorer evaluates; any other marks its card unsupported (the
#: registry of which engine models which kind: ``engine.EFFECT_ENGINES``).
KNOWN_EFFECTS = (fx.Points, fx.BestOf, fx.SumStrength, fx.MaxStrength, fx.Collection, fx.Runs,
                 fx.DistinctSuits, fx.OddStrength, fx.Exactly, fx.PerPenalty, fx.PerPlayer)
#: The choice effects it evaluates (``_card_row``).
KNOWN_CHOICES = (fx.Copy, fx.ChangeSuit, fx.ClearOne, fx.Protect)
#: Effects that look at suits or names as such (not through terms): no option is collapsed.
SUIT_GENERIC = (fx.Collection, fx.DistinctSuits)
NAME_GENERIC = (fx.Collection,)


@dataclass
class ScorerTables:
    """The compiled tables of one catalog (see the module docstring)."""

    catalog: Catalog
    cards: list[Card]
    index: dict[str, int]  # card id -> row of CARD
    names: dict[str, int]  # card name -> name id
    arrays: tuple  # (memory, offsets): every table in one int64 array, and where each starts
    n_suits: int
    unsupported: set[int] = field(default_factory=set)

    def ids(self, cards: Sequence[Card]) -> list[int]:
        return [self.index[c.id] for c in cards]


class _Builder:
    """Writes effect objects into rows, sharing identical terms, selectors and effects."""

    def __init__(self, catalog: Catalog) -> None:
        self.cat = catalog
        self.names: dict[str, int] = {}
        for c in catalog.cards:
            self.names.setdefault(c.name, len(self.names))
        self.terms: list[fx.Term] = []
        self.term_ids: dict[fx.Term, int] = {}
        self.flat: list[int] = []
        self.lists: list[tuple[int, int]] = []
        self.list_ids: dict[tuple[int, ...], int] = {}
        self.effs: list[list[int]] = []
        self.eff_ids: dict[int, int] = {}  # id(effect object) -> row
        self.keep: list[object] = []  # effect objects created here (struck penalties)
        self.pens: list[list[int]] = []
        self.pays: list[list[int]] = []
        self.pen(NO_PENALTY)  # penalty 0: the empty penalty

    # -- names, terms, selectors -------------------------------------------------------------
    def name(self, name: str) -> int:
        return self.names.setdefault(name, len(self.names))

    def term(self, t: fx.Term) -> int:
        found = self.term_ids.get(t)
        if found is None:
            for n in t.names | t.except_names:
                self.name(n)
            found = self.term_ids[t] = len(self.terms)
            self.terms.append(t)
        return found

    def span(self, values: Sequence[int]) -> tuple[int, int]:
        start = len(self.flat)
        self.flat.extend(values)
        return start, len(self.flat)

    def tlist(self, terms: Sequence[fx.Term]) -> int:
        ids = tuple(self.term(t) for t in terms)
        found = self.list_ids.get(ids)
        if found is None:
            found = self.list_ids[ids] = len(self.lists)
            self.lists.append(self.span(ids))
        return found

    # -- point effects ------------------------------------------------------------------------
    def effect(self, e: object) -> int:
        found = self.eff_ids.get(id(e))
        if found is not None:
            return found
        if type(e) not in KNOWN_EFFECTS:
            raise Unsupported(type(e).__name__)
        row = [0] * EF_SIZE
        row[EF_PER] = row[EF_WITH] = row[EF_UNLESS] = row[EF_TERMS] = row[EF_TAB] = -1
        row[EF_CEMPTY] = 1
        if isinstance(e, fx.Points):
            row[EF_KIND] = K_POINTS
            row[EF_A] = e.points
            if e.per:
                row[EF_PER] = self.tlist(e.per)
            if e.first is not None:
                row[EF_HASFIRST], row[EF_FIRST] = 1, e.first
            row[EF_INDISC] = int(e.in_discard)
            cond = e.condition
            row[EF_CEMPTY] = int(cond.empty)
            if cond.with_any:
                row[EF_WITH] = self.tlist(cond.with_any)
            row[EF_WALL0], row[EF_WALL1] = self.span([self.tlist(g) for g in cond.with_all])
            if cond.unless:
                row[EF_UNLESS] = self.tlist(cond.unless)
            if cond.players is not None:
                row[EF_HASPLAYERS], row[EF_PLAYERS] = 1, cond.players
            if cond.other_cursed is not None:
                row[EF_HASOC], row[EF_OC] = 1, cond.other_cursed
            plain = self.plain(e)
            if plain is not None:
                row[EF_PLAIN] = 1
                row[EF_PL0], row[EF_PL1] = self.span(plain)
        elif isinstance(e, fx.BestOf):
            row[EF_KIND] = K_BEST
            row[EF_OPT0], row[EF_OPT1] = self.span([self.effect(o) for o in _flatten(e)])
        elif isinstance(e, (fx.SumStrength, fx.MaxStrength)):
            row[EF_KIND] = K_SUM if isinstance(e, fx.SumStrength) else K_MAX
            row[EF_TERMS] = self.tlist(e.terms)
        elif isinstance(e, (fx.Collection, fx.Runs)):
            row[EF_KIND] = K_COLL if isinstance(e, fx.Collection) else K_RUNS
            row[EF_TAB] = len(self.pays)
            self.pays.append([fx.tiered(e.table, n) for n in range(PAY_SIZE)])
        elif isinstance(e, fx.DistinctSuits):
            row[EF_KIND], row[EF_A] = K_DISTINCT, e.points
        elif isinstance(e, fx.OddStrength):
            row[EF_KIND], row[EF_A], row[EF_B] = K_ODD, e.per_other, e.all_odd
        elif isinstance(e, fx.Exactly):
            row[EF_KIND], row[EF_A], row[EF_B] = K_EXACTLY, e.points, e.count
            row[EF_TERMS] = self.tlist(e.terms)
        elif isinstance(e, fx.PerPenalty):
            row[EF_KIND], row[EF_A] = K_PERPEN, e.points
        else:
            row[EF_KIND], row[EF_A] = K_PERPLAYER, e.points  # type: ignore[attr-defined]
        self.keep.append(e)
        self.eff_ids[id(e)] = len(self.effs)
        self.effs.append(row)
        return len(self.effs) - 1

    def plain(self, e: fx.Points) -> list[int] | None:
        """The (mode, term) conditions of "+N per / with / unless" plain suits, where each
        "with" group is a single plain term; None for any other Points."""
        cond = e.condition
        if e.first is not None or e.in_discard or cond.players is not None \
                or cond.other_cursed is not None:
            return None
        groups = ([cond.with_any] if cond.with_any else []) + list(cond.with_all)
        terms = [*e.per, *(g[0] for g in groups if len(g) == 1), *cond.unless]
        if any(len(g) != 1 for g in groups) or not all(t.plain_suit for t in terms):
            return None
        out: list[int] = []
        for g in groups:
            out += [PLAIN_WITH, self.term(g[0])]
        if cond.unless:
            if len(cond.unless) != 1:
                return None
            out += [PLAIN_UNLESS, self.term(cond.unless[0])]
        return out

    # -- penalties ---------------------------------------------------------------------------
    def pen(self, p: Penalty) -> int:
        if not p and self.pens:
            return 0
        row = [0] * PF_SIZE
        row[PF_PTS0], row[PF_PTS1] = self.span([self.effect(e) for e in p.points])
        row[PF_BL0], row[PF_BL1] = self.span([self.tlist(b.targets) for b in p.blanks])
        conds: list[int] = []
        for c in p.conditions:
            if type(c) not in (fx.BlankedUnless, fx.BlankedIf):
                raise Unsupported(type(c).__name__)
            conds += [int(type(c) is fx.BlankedUnless), self.tlist(c.terms)]
        row[PF_CO0], row[PF_CO1] = self.span(conds)
        for lo in p.lonely:
            if type(lo) is not fx.BlanksLonely:
                raise Unsupported(type(lo).__name__)
        row[PF_LO0], row[PF_LO1] = self.span([self.tlist(lo.spared) for lo in p.lonely])
        row[PF_NONEMPTY] = int(bool(p))
        row[PF_BLANKING] = int(bool(p.blanks or p.conditions or p.lonely))
        for b in p.blanks:
            if type(b) is not fx.Blanks:
                raise Unsupported(type(b).__name__)
        self.pens.append(row)
        return len(self.pens) - 1


def _flatten(e: fx.BestOf) -> list[object]:
    """The options of a ``best_of``, nested ones included (a max of maxes is one max)."""
    out: list[object] = []
    for o in e.options:
        out.extend(_flatten(o) if isinstance(o, fx.BestOf) else [o])
    return out


def _effects_of(card: Card) -> list[object]:
    """Every point effect of a card (bonus and penalty, ``best_of`` options included)."""
    out: list[object] = []
    stack = list(card.bonus) + list(card.penalty.points)
    while stack:
        e = stack.pop()
        out.append(e)
        if isinstance(e, fx.BestOf):
            stack.extend(e.options)
    return out


def _terms_of(card: Card) -> list[fx.Term]:
    """Every selector term a card's rules read (points, penalty, clearing, choice, traits)."""
    out: list[fx.Term] = []
    for e in _effects_of(card):
        if isinstance(e, fx.Points):
            out += [*e.per, *e.condition.with_any, *e.condition.unless]
            for g in e.condition.with_all:
                out += g
        elif isinstance(e, (fx.SumStrength, fx.MaxStrength, fx.Exactly)):
            out += e.terms
    for b in card.penalty.blanks:
        out += b.targets
    for c in card.penalty.conditions:
        out += c.terms
    for lo in card.penalty.lonely:
        out += lo.spared
    for cl in card.clears:
        out += cl.targets
    for cw in card.clears_word:
        out += cw.targets
    if isinstance(card.choice, fx.ClearOne):
        out += card.choice.targets
    out += card.grants_immunity
    out += card.blanked_only_by
    return out


def _card_row(b: _Builder, card: Card, words: list[int]) -> tuple[list[int], list[int]]:
    """(the CARD row, the PV row) of one card; raises Unsupported for what is not known."""
    row = [0] * CF_SIZE
    row[CF_STR] = card.strength
    row[CF_SUITS] = card.suits
    row[CF_COPY_SUITS] = card.copy_suits
    row[CF_NAME] = b.name(card.name)
    row[CF_KEEPS] = int(card.keeps_suits_when_blanked)
    row[CF_DISC_SUITS] = card.suits_in_discard
    row[CF_KEPT_ON_CHANGE] = card.kept_on_change
    if card.immune not in ("", "all"):
        raise Unsupported(card.immune)
    row[CF_IMMUNE] = IM_ALL if card.immune == "all" else IM_NONE
    row[CF_NEVER_BLANKS] = int(card.never_blanks_others)
    row[CF_ONLY_BY] = b.tlist(card.blanked_only_by) if card.blanked_only_by else -1
    row[CF_UNCHANGE] = int(card.unchangeable)
    row[CF_CURSED] = int(card.cursed)
    row[CF_HASPEN] = int(bool(card.penalty))
    row[CF_BON0], row[CF_BON1] = b.span([b.effect(e) for e in card.bonus])
    for cl in card.clears:
        if type(cl) is not fx.Clears:
            raise Unsupported(type(cl).__name__)
    row[CF_CLR0], row[CF_CLR1] = b.span([b.tlist(cl.targets) for cl in card.clears])
    cw_flat: list[int] = []
    for cw in card.clears_word:
        if type(cw) is not fx.ClearsWord:
            raise Unsupported(type(cw).__name__)
        cw_flat += [cw.suits, b.tlist(cw.targets)]
    row[CF_CW0], row[CF_CW1] = b.span(cw_flat)
    ch = card.choice
    row[CF_CLRONE] = row[CF_GRANTS] = -1
    if ch is None:
        row[CF_CHOICE] = CH_NONE
    elif type(ch) is fx.Copy:
        if ch.source not in ("hand", "game"):
            raise Unsupported(ch.source)
        row[CF_CHOICE] = CH_COPY_HAND if ch.source == "hand" else CH_COPY_GAME
        row[CF_TAKES] = sum(bit for word, bit in (("name", TAKE_NAME), ("suit", TAKE_SUIT),
                                                  ("strength", TAKE_STRENGTH),
                                                  ("penalty", TAKE_PENALTY)) if word in ch.takes)
        row[CF_COPYMASK] = ch.suits
    elif type(ch) is fx.ChangeSuit:
        row[CF_CHOICE] = CH_CHANGE
    elif type(ch) is fx.ClearOne:
        row[CF_CHOICE] = CH_CLEAR_ONE
        row[CF_CLRONE] = b.tlist(ch.targets)
    elif type(ch) is fx.Protect:
        row[CF_CHOICE] = CH_PROTECT
    else:
        raise Unsupported(type(ch).__name__)
    if card.grants_immunity:
        row[CF_GRANTS] = b.tlist(card.grants_immunity)
    if card.extra is not None:
        row[CF_EXTRA] = EX_DISCARD if card.extra.source == "discard" else EX_DECK
        row[CF_EXTRA_SUITS] = card.extra.suits
    row[CF_NEEDS] = (NEED_DISCARD if "discard" in card.needs else 0) | (
        NEED_PLAYERS if "players" in card.needs else 0)
    # what the card's rules can tell apart (the choice enumeration collapses the rest)
    mentioned = 0
    for t in _terms_of(card):
        mentioned |= t.suits | t.except_suits
    for cw in card.clears_word:
        mentioned |= cw.suits
    row[CF_MSUITS] = mentioned
    for cw in card.clears_word:
        row[CF_WORDS] |= cw.suits
    row[CF_TRM0], row[CF_TRM1] = b.span(sorted({b.term(t) for t in _terms_of(card)}))
    effects = _effects_of(card)
    row[CF_ALLSUITS] = int(any(isinstance(e, SUIT_GENERIC) for e in effects)
                           or bool(card.penalty.lonely))
    row[CF_ALLNAMES] = int(any(isinstance(e, NAME_GENERIC) for e in effects))
    row[CF_WILDREL] = int(type(ch) is fx.Copy and ch.source == "game" and "penalty" in ch.takes)
    pv = [b.pen(card.penalty.strike(_subset_mask(words, k)) if k else card.penalty)
          for k in range(1 << len(words))]
    return row, pv


def _subset_mask(words: list[int], k: int) -> int:
    m = 0
    for i, w in enumerate(words):
        if k >> i & 1:
            m |= w
    return m


def compile_scorer_tables(catalog: Catalog) -> ScorerTables:
    """The tables of every card of ``catalog`` (cards the tables cannot describe are listed in
    ``unsupported``)."""
    b = _Builder(catalog)
    words = sorted({cw.suits for c in catalog.cards for cw in c.clears_word})
    too_many_words = len(words) > MAX_WORDS
    if too_many_words:
        words = []
    cards = list(catalog.cards)
    rows: list[list[int]] = []
    pvs: list[list[int]] = []
    unsupported: set[int] = set()
    for u, card in enumerate(cards):
        try:
            if too_many_words and card.clears_word:
                raise Unsupported("too many suit words")
            row, pv = _card_row(b, card, words)
        except Unsupported:
            row, pv = [0] * CF_SIZE, [0] * (1 << len(words))
            row[CF_NAME] = b.name(card.name)
            row[CF_UNSUP] = 1
            row[CF_CLRONE] = row[CF_GRANTS] = row[CF_ONLY_BY] = -1
            unsupported.add(u)
        rows.append(row)
        pvs.append(pv)
    # a game copy's targets, in catalog order (R14)
    for u, card in enumerate(cards):
        if rows[u][CF_CHOICE] == CH_COPY_GAME:
            targets = [cards.index(t) for t in catalog.copy_targets(card.choice)]
            rows[u][CF_TARG0], rows[u][CF_TARG1] = b.span(targets)
    n_names = len(b.names)
    n_terms = max(1, len(b.terms))
    term = np.zeros((n_terms, TF_SIZE), dtype=np.int64)
    tnames = np.zeros((n_terms, n_names), dtype=np.uint8)
    texnames = np.zeros((n_terms, n_names), dtype=np.uint8)
    for i, t in enumerate(b.terms):
        term[i] = [t.suits, int(t.any), t.except_suits, int(t.other), t.suit_index,
                   int(bool(t.names)), int(bool(t.except_names)), 0][:TF_SIZE]
        for n in t.names:
            tnames[i, b.names[n]] = 1
        for n in t.except_names:
            texnames[i, b.names[n]] = 1
    mnames = np.zeros((len(cards), n_names), dtype=np.uint8)
    for u, card in enumerate(cards):
        for t in _terms_of(card):
            for n in t.names | t.except_names:
                mnames[u, b.names[n]] = 1
    if max((abs(v) for r in rows for v in (r[CF_STR],)), default=0) > 1 << 40:
        raise Unsupported("strengths out of range")

    def table(data: list[list[int]], width: int) -> np.ndarray:
        arr = np.zeros((max(1, len(data)), width), dtype=np.int64)
        if data:
            arr[: len(data)] = np.array(data, dtype=np.int64).reshape(len(data), width)
        return arr

    blocks = [
        table(rows, CF_SIZE),
        term, tnames.astype(np.int64), texnames.astype(np.int64),
        table([list(x) for x in b.lists], 2),
        np.array(b.flat + [0], dtype=np.int64),
        table(b.effs, EF_SIZE),
        table(b.pens, PF_SIZE),
        table(pvs, 1 << len(words)),
        np.array(words + [0], dtype=np.int64),
        table(b.pays, PAY_SIZE),
        mnames.astype(np.int64),
    ]
    offsets = np.zeros(O_SIZE, dtype=np.int64)
    at = 0
    for k, block in enumerate(blocks):
        offsets[k] = at
        at += block.size
    offsets[O_NSUITS] = len(catalog.suits)
    offsets[O_NWORDS] = len(words)
    offsets[O_NNAMES] = n_names
    offsets[O_PVW] = 1 << len(words)
    offsets[O_NCARDS] = len(cards)
    offsets[O_HAND_SIZE] = catalog.hand_size
    offsets[O_MAX_HAND] = catalog.max_hand or 0
    memory = np.concatenate([block.ravel() for block in blocks])
    arrays = (memory, offsets)
    index = {c.id: u for u, c in enumerate(cards)}
    return ScorerTables(catalog, cards, index, dict(b.names), arrays, len(catalog.suits),
                        unsupported)
