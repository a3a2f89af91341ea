"""The order of resolution of ``realms/resolve.py``, compiled with Numba over integer tables.

Every function here mirrors one step of :mod:`fantasy_scorer.realms.resolve` (the single source
of truth) on the tables of :mod:`.tables`: identities, Book of Changes, immunity, clearing,
blanking as a whole (R8, loops included) and points. The property tests check the two agree on
random hands of every kind; a hand this code cannot take (an illegal choice, a rule it cannot
decide) is reported with a status, and the caller scores it with ``resolve``.

``M`` is the tables' flat memory and ``OF`` the offsets of its blocks (``tables.O_*``). A hand
is a row of card indices (rows of the card table), ``-1``-padded; its choices a row of
``(kind, a, b)`` per card: ``CV_COPY`` (a: the card copied), ``CV_CHANGE`` (a: the slot
changed, b: the new suit), ``CV_TARGET`` (a: the slot cleared or protected) or ``CV_NONE``
(unassigned). Slots are the hand's cards as resolution changes them (``SL[i, S_*]``); a set of
slots is a bit mask over slot indices. ``V`` holds the suit totals, a buffer, and the hand's
context (its discard area and Cursed Items).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import cache
from . import tables as tb
from .tables import (  # choice values, results of a hand: in tables.py, importable without Numba
    CV_CHANGE,
    CV_COPY,
    CV_NONE,  # noqa: F401 (search.py and lines.py read it here)
    CV_TARGET,
    ERROR,
    OK,
)

cache.install()  # the cache of this package's compiled code (see cache.py)

#: Functions that never allocate are compiled without reference counting: a counted call
#: pays an atomic increment per array argument, which was most of the time (20x). Only the
#: entry points (``*_batch``, ``score_lines``) allocate their work arrays, and only they are
#: cached: an entry's cached code holds every function it calls, and a process that loads
#: it never builds the others (which keeps the command line's start quicker).
helper = njit(nogil=True, _nrt=False)
tiny = njit(nogil=True, _nrt=False, inline="always")
entry = njit(cache=True, nogil=True)

# slot fields
S_CARD, S_NAME, S_SUITS, S_STR, S_PENU, S_KEEPS, S_IMMUNE, S_CLR, S_STRUCK, S_ACTIVE, \
    S_SIZE = range(11)
#: Most conditions ("blanked unless/if") one card's penalty may have.
MAX_NEEDS = 8
#: Blanking work per slot: attackers, number of needs, all their deps, then 3 per need.
W_SIZE = 3 + 3 * MAX_NEEDS
UNDECIDED, KEPT, BLANKED = 0, 1, 2
#: Most cards in a hand (slot sets are bit masks of an int64).
MAX_CARDS = 62
# the V work array: suit totals, a buffer, the discard area, the Cursed Items
VT, VB, VD, VC, V_SIZE = 0, 64, 128, 160, 192
MAX_DISCARD = VC - VD
MAX_CURSED = V_SIZE - VC


@tiny
def bit(i):
    return np.int64(1) << np.int64(i)


@helper
def popcount(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@tiny
def card(M, OF, u, f):
    return M[OF[tb.O_CARD] + u * tb.CF_SIZE + f]


@tiny
def flat(M, OF, k):
    return M[OF[tb.O_FLAT] + k]


@tiny
def list_range(M, OF, lst):
    b = OF[tb.O_LISTS] + 2 * lst
    return M[b], M[b + 1]


@tiny
def term_matches(M, OF, t, name, suits, is_source):
    """``Term.matches``: a card (its name and suits) selected by term ``t``."""
    b = OF[tb.O_TERM] + t * tb.TF_SIZE
    if M[b + tb.TF_OTHER] != 0 and is_source:
        return False
    if not (M[b + tb.TF_ANY] != 0 or (suits & M[b + tb.TF_SUITS]) != 0
            or (M[b + tb.TF_HASN] != 0
                and M[OF[tb.O_TNAMES] + t * OF[tb.O_NNAMES] + name] != 0)):
        return False
    if (suits & M[b + tb.TF_EXS]) != 0:
        return False
    return not (M[b + tb.TF_HASEXN] != 0
                and M[OF[tb.O_TEXNAMES] + t * OF[tb.O_NNAMES] + name] != 0)


@tiny
def suits_only(M, OF, t, suits):
    """``Term.matches_suits_only`` (a blanked card that keeps its suits, R15)."""
    b = OF[tb.O_TERM] + t * tb.TF_SIZE
    ts = M[b + tb.TF_SUITS]
    if ts == 0 or (suits & ts) == 0:
        return False
    return (suits & M[b + tb.TF_EXS]) == 0


@tiny
def list_hits(M, OF, lst, name, suits, is_source):
    """Any term of selector ``lst`` selects the card (``Selecting.hits``)."""
    lo, hi = list_range(M, OF, lst)
    for k in range(lo, hi):
        if term_matches(M, OF, flat(M, OF, k), name, suits, is_source):
            return True
    return False


# ---------------------------------------------------------------------------------------------
# Steps 1-3
# ---------------------------------------------------------------------------------------------

@helper
def setup(M, OF, cards, n, SL):
    """The slots as printed."""
    for i in range(n):
        u = cards[i]
        b = OF[tb.O_CARD] + u * tb.CF_SIZE
        SL[i, S_CARD] = u
        SL[i, S_NAME] = M[b + tb.CF_NAME]
        SL[i, S_SUITS] = M[b + tb.CF_SUITS]
        SL[i, S_STR] = M[b + tb.CF_STR]
        SL[i, S_PENU] = u
        SL[i, S_KEEPS] = M[b + tb.CF_KEEPS]
        SL[i, S_IMMUNE] = M[b + tb.CF_IMMUNE]
        SL[i, S_CLR] = 0
        SL[i, S_STRUCK] = 0
        SL[i, S_ACTIVE] = M[OF[tb.O_PV] + u * OF[tb.O_PVW]]


@helper
def identities(M, OF, n, CH, SL):
    """Step 1: a copy takes the identity of the printed card copied (R1, R2)."""
    for i in range(n):
        u = SL[i, S_CARD]
        kind = card(M, OF, u, tb.CF_CHOICE)
        if (kind == tb.CH_COPY_HAND or kind == tb.CH_COPY_GAME) and CH[i, 0] == CV_COPY:
            v = CH[i, 1]
            takes = card(M, OF, u, tb.CF_TAKES)
            if takes & tb.TAKE_NAME:
                SL[i, S_NAME] = card(M, OF, v, tb.CF_NAME)
            if takes & tb.TAKE_SUIT:
                # a copy takes only the suits the card lends, and never keeps them when
                # blanked: they belong to the physical card (R16, R7)
                SL[i, S_SUITS] = card(M, OF, v, tb.CF_COPY_SUITS)
                SL[i, S_KEEPS] = 0
            if takes & tb.TAKE_STRENGTH:
                SL[i, S_STR] = card(M, OF, v, tb.CF_STR)
            if takes & tb.TAKE_PENALTY:
                SL[i, S_PENU] = v
                SL[i, S_ACTIVE] = M[OF[tb.O_PV] + v * OF[tb.O_PVW]]


@helper
def changes(M, OF, n, CH, SL):
    """Step 2: Book of Changes gives one other card a new suit (R3), replacing only the
    suits the card lets it replace (R17)."""
    for i in range(n):
        if card(M, OF, SL[i, S_CARD], tb.CF_CHOICE) == tb.CH_CHANGE and CH[i, 0] == CV_CHANGE:
            t = CH[i, 1]
            SL[t, S_SUITS] = changed_suits(M, OF, SL, t, CH[i, 2])


@tiny
def changed_suits(M, OF, SL, t, suit):
    """``resolve.changed_suits``: slot ``t``'s suits once a change gives it ``suit``."""
    return (SL[t, S_SUITS] & card(M, OF, SL[t, S_CARD], tb.CF_KEPT_ON_CHANGE)) | bit(suit)


@helper
def immunity(M, OF, n, CH, SL):
    """Who cannot be blanked: Angel's protected card (C2), and what Lich grants (C3)."""
    for i in range(n):
        u = SL[i, S_CARD]
        protect = card(M, OF, u, tb.CF_CHOICE) == tb.CH_PROTECT
        g = card(M, OF, u, tb.CF_GRANTS)
        if g < 0 and not protect:
            continue
        if protect and CH[i, 0] == CV_TARGET:
            SL[CH[i, 1], S_IMMUNE] = tb.IM_ALL
        if g >= 0:
            lo, hi = list_range(M, OF, g)
            for k in range(lo, hi):
                t = flat(M, OF, k)
                for j in range(n):
                    if SL[j, S_IMMUNE] != tb.IM_ALL and term_matches(
                            M, OF, t, SL[j, S_NAME], SL[j, S_SUITS], j == i):
                        SL[j, S_IMMUNE] = tb.IM_ALL


@helper
def clearing(M, OF, n, CH, SL):
    """Step 3: every clearing by every card (R5, R6); ERROR for an Island target that is
    not one of its suits after steps 1-2 (R4)."""
    for i in range(n):
        u = SL[i, S_CARD]
        b = OF[tb.O_CARD] + u * tb.CF_SIZE
        for k in range(M[b + tb.CF_CLR0], M[b + tb.CF_CLR1]):
            lst = flat(M, OF, k)
            for j in range(n):
                if list_hits(M, OF, lst, SL[j, S_NAME], SL[j, S_SUITS], j == i):
                    SL[j, S_CLR] = 1
        for k in range(M[b + tb.CF_CW0], M[b + tb.CF_CW1], 2):
            word = flat(M, OF, k)
            lst = flat(M, OF, k + 1)
            for j in range(n):
                if list_hits(M, OF, lst, SL[j, S_NAME], SL[j, S_SUITS], j == i):
                    SL[j, S_STRUCK] |= word
        if M[b + tb.CF_CHOICE] == tb.CH_CLEAR_ONE and CH[i, 0] == CV_TARGET:
            t = CH[i, 1]
            if not list_hits(M, OF, M[b + tb.CF_CLRONE], SL[t, S_NAME], SL[t, S_SUITS], t == i):
                return ERROR
            SL[t, S_CLR] = 1
    n_words = OF[tb.O_NWORDS]
    for j in range(n):
        if SL[j, S_CLR]:
            SL[j, S_ACTIVE] = 0
        elif SL[j, S_STRUCK] != 0 and card(M, OF, SL[j, S_PENU], tb.CF_HASPEN) != 0:
            sub = 0
            for w in range(n_words):
                if SL[j, S_STRUCK] & M[OF[tb.O_WORDS] + w]:
                    sub |= 1 << w
            SL[j, S_ACTIVE] = M[OF[tb.O_PV] + SL[j, S_PENU] * OF[tb.O_PVW] + sub]
    return OK


# ---------------------------------------------------------------------------------------------
# Step 4: blanking as a whole (R8)
# ---------------------------------------------------------------------------------------------

@tiny
def pen(M, OF, p, f):
    return M[OF[tb.O_PEN] + p * tb.PF_SIZE + f]


@tiny
def _need_status(always, deps, unless, kept, blanked):
    if always or (deps & kept) != 0:
        present = True
    elif (deps & ~blanked) == 0:
        present = False
    else:
        return UNDECIDED
    if unless:
        return KEPT if present else BLANKED
    return BLANKED if present else KEPT


@helper
def can_blank(M, OF, SL, j, i):
    """``resolve.can_blank``: whether slot ``j``'s blanking may hit slot ``i`` at all (C2,
    C3, C7, C8)."""
    if SL[i, S_IMMUNE] != tb.IM_NONE:
        return False
    if i == j:
        return True
    if card(M, OF, SL[j, S_CARD], tb.CF_NEVER_BLANKS) != 0:
        return False
    only = card(M, OF, SL[i, S_CARD], tb.CF_ONLY_BY)
    return only < 0 or list_hits(M, OF, only, SL[j, S_NAME], SL[j, S_SUITS], False)


@helper
def _rules(M, OF, n, SL, W):
    """Who blanks whom and the self-conditions (``resolve._blanking``'s graph and needs);
    returns (any rule, lonely cards) or -1 lonely when a penalty has too many conditions."""
    any_rule = False
    for i in range(n):
        W[i, 0] = 0
        W[i, 1] = 0
        W[i, 2] = 0
    for j in range(n):
        p = SL[j, S_ACTIVE]
        for k in range(pen(M, OF, p, tb.PF_BL0), pen(M, OF, p, tb.PF_BL1)):
            lst = flat(M, OF, k)
            for i in range(n):
                if list_hits(M, OF, lst, SL[i, S_NAME], SL[i, S_SUITS], i == j) \
                        and can_blank(M, OF, SL, j, i):
                    W[i, 0] |= bit(j)
                    any_rule = True
    for i in range(n):
        if SL[i, S_IMMUNE] == tb.IM_ALL:
            continue
        p = SL[i, S_ACTIVE]
        for k in range(pen(M, OF, p, tb.PF_CO0), pen(M, OF, p, tb.PF_CO1), 2):
            unless = flat(M, OF, k)
            lst = flat(M, OF, k + 1)
            always = False
            deps = np.int64(0)
            lo, hi = list_range(M, OF, lst)
            for j in range(n):
                if j == i:
                    if list_hits(M, OF, lst, SL[i, S_NAME], SL[i, S_SUITS], True):
                        always = True  # Warship made a Flood has a Flood
                    continue
                hit = 0
                if SL[j, S_KEEPS] != 0:
                    for q in range(lo, hi):
                        if suits_only(M, OF, flat(M, OF, q), SL[j, S_SUITS]):
                            hit = 1  # counts for its suits even when blanked (R15)
                            break
                if hit == 0 and list_hits(M, OF, lst, SL[j, S_NAME], SL[j, S_SUITS], False):
                    hit = 2
                if hit == 0 or (unless == 0 and card(M, OF, SL[j, S_CARD],
                                                     tb.CF_NEVER_BLANKS) != 0):
                    continue  # it never makes another card blanked (C8)
                if hit == 1:
                    always = True
                else:
                    deps |= bit(j)
            c = W[i, 1]
            if c >= MAX_NEEDS:
                return any_rule, np.int64(-1)
            W[i, 3 + 3 * c] = unless
            W[i, 4 + 3 * c] = 1 if always else 0
            W[i, 5 + 3 * c] = deps
            W[i, 1] = c + 1
            W[i, 2] |= deps
            any_rule = True
    lonely = np.int64(0)
    for s in range(n):
        p = SL[s, S_ACTIVE]
        for k in range(pen(M, OF, p, tb.PF_LO0), pen(M, OF, p, tb.PF_LO1)):
            spared = flat(M, OF, k)
            for i in range(n):
                if (lonely >> i) & 1 or not can_blank(M, OF, SL, s, i):
                    continue
                if list_hits(M, OF, spared, SL[i, S_NAME], SL[i, S_SUITS], i == s):
                    continue
                alone = True
                for o in range(n):
                    if o != i and (SL[o, S_SUITS] & SL[i, S_SUITS]) != 0:
                        alone = False
                        break
                if alone:
                    lonely |= bit(i)
    return any_rule, lonely


@helper
def blanking(M, OF, n, SL, W):
    """The kept cards as a mask (``resolve._blanking``); -1 when undecidable (never)."""
    everyone = bit(n) - 1
    rule = False
    for i in range(n):
        if pen(M, OF, SL[i, S_ACTIVE], tb.PF_BLANKING) != 0:
            rule = True
            break
    if not rule:
        return everyone
    any_rule, lonely = _rules(M, OF, n, SL, W)
    if lonely < 0:
        return np.int64(-1)
    if not any_rule and lonely == 0:
        return everyone
    kept = np.int64(0)
    blanked = lonely  # Demon blanks first, against the hand as it stands (C1)
    undecided = everyone & ~blanked
    while True:
        changed = True
        while changed:  # (a), in card order, each decision seen by the next card
            changed = False
            for i in range(n):
                if not (undecided >> i) & 1:
                    continue
                att = W[i, 0]
                if att & kept:
                    decided = BLANKED
                else:
                    decided = UNDECIDED if (att & undecided) != 0 else KEPT
                    for c in range(W[i, 1]):
                        st = _need_status(W[i, 4 + 3 * c] != 0, W[i, 5 + 3 * c],
                                          W[i, 3 + 3 * c] != 0, kept, blanked)
                        if st == BLANKED:
                            decided = BLANKED
                            break
                        if st == UNDECIDED:
                            decided = UNDECIDED
                if decided != UNDECIDED:
                    undecided &= ~bit(i)
                    if decided == KEPT:
                        kept |= bit(i)
                    else:
                        blanked |= bit(i)
                    changed = True
        if undecided == 0:
            return kept
        # (b) the undecided cards on a loop of undecided cards cancel out: a card is on a
        # loop when it reaches itself
        loops = np.int64(0)
        for i in range(n):
            if not (undecided >> i) & 1:
                continue
            seen = (W[i, 0] | W[i, 2]) & undecided
            frontier = seen
            while frontier:
                j = 0
                while not (frontier >> j) & 1:
                    j += 1
                frontier &= ~bit(j)
                more = (W[j, 0] | W[j, 2]) & undecided & ~seen
                seen |= more
                frontier |= more
            if (seen >> i) & 1:
                loops |= bit(i)
        if loops == 0:
            return np.int64(-1)
        blanked |= loops
        undecided &= ~loops


# ---------------------------------------------------------------------------------------------
# Points
# ---------------------------------------------------------------------------------------------

@tiny
def eff(M, OF, e, f):
    return M[OF[tb.O_EFF] + e * tb.EF_SIZE + f]


@tiny
def count(M, OF, t, me, me_suits, SL, kept, suited, V):
    """``View.count``: how many cards term ``t`` selects (``me``: the card asking, -1 for a
    Cursed Item, which is not in the view)."""
    b = OF[tb.O_TERM] + t * tb.TF_SIZE
    idx = M[b + tb.TF_IDX]
    if idx >= 0:
        c = V[VT + idx]
        if M[b + tb.TF_OTHER] != 0 and (me_suits & M[b + tb.TF_SUITS]) != 0:
            c -= 1
        return c
    c = 0
    h = kept
    j = 0
    while h:
        if h & 1 and term_matches(M, OF, t, SL[j, S_NAME], SL[j, S_SUITS], j == me):
            c += 1
        h >>= 1
        j += 1
    if suited != kept:
        other = M[b + tb.TF_OTHER] != 0
        h = suited & ~kept
        j = 0
        while h:
            if h & 1 and not (other and j == me) and suits_only(M, OF, t, SL[j, S_SUITS]):
                c += 1
            h >>= 1
            j += 1
    return c


@tiny
def has(M, OF, lst, me, me_suits, SL, kept, suited, V):
    lo, hi = list_range(M, OF, lst)
    for k in range(lo, hi):
        if count(M, OF, flat(M, OF, k), me, me_suits, SL, kept, suited, V) != 0:
            return True
    return False


@helper
def _kept_hits(M, OF, lst, me, SL, kept):
    """The kept cards selected by ``lst`` (for sums, maxima, exact counts)."""
    out = np.int64(0)
    h = kept
    j = 0
    while h:
        if h & 1 and list_hits(M, OF, lst, SL[j, S_NAME], SL[j, S_SUITS], j == me):
            out |= bit(j)
        h >>= 1
        j += 1
    return out


@helper
def _runs_pay(M, OF, tab, SL, kept, n, V):
    """Gem of Order: every separate run of consecutive strengths, layer by layer (R10)."""
    k = 0
    for j in range(n):
        if (kept >> j) & 1:
            v = SL[j, S_STR]
            q = k
            while q > 0 and V[VB + q - 1] > v:  # insertion sort: a handful of values
                V[VB + q] = V[VB + q - 1]
                q -= 1
            V[VB + q] = v
            k += 1
    if k < 2:
        return 0
    pay = OF[tb.O_PAY] + tab * tb.PAY_SIZE
    total = 0
    used = np.int64(0)
    left = k
    while left > 0:
        run = 0
        prev = np.int64(0)
        first = True
        for q in range(k):
            if (used >> q) & 1:
                continue
            v = V[VB + q]
            if not first and v == prev:
                continue  # one card per strength in a layer
            if first or v != prev + 1:
                if run > 1:
                    total += M[pay + min(run, tb.PAY_SIZE - 1)]
                run = 1
            else:
                run += 1
            prev = v
            first = False
            used |= bit(q)
            left -= 1
        if run > 1:
            total += M[pay + min(run, tb.PAY_SIZE - 1)]
    return total


@helper
def _points_value(M, OF, e, me, me_suits, SL, kept, suited, V, players, n_curs, n_disc):
    """``Points.value``."""
    if eff(M, OF, e, tb.EF_CEMPTY) == 0:
        if eff(M, OF, e, tb.EF_HASPLAYERS) != 0 and players != eff(M, OF, e, tb.EF_PLAYERS):
            return 0
        if eff(M, OF, e, tb.EF_HASOC) != 0 and n_curs - 1 < eff(M, OF, e, tb.EF_OC):
            return 0
        w = eff(M, OF, e, tb.EF_WITH)
        if w >= 0 and not has(M, OF, w, me, me_suits, SL, kept, suited, V):
            return 0
        for k in range(eff(M, OF, e, tb.EF_WALL0), eff(M, OF, e, tb.EF_WALL1)):
            if not has(M, OF, flat(M, OF, k), me, me_suits, SL, kept, suited, V):
                return 0
        u = eff(M, OF, e, tb.EF_UNLESS)
        if u >= 0 and has(M, OF, u, me, me_suits, SL, kept, suited, V):
            return 0
    per = eff(M, OF, e, tb.EF_PER)
    pts = eff(M, OF, e, tb.EF_A)
    if per < 0:
        return pts
    lo, hi = list_range(M, OF, per)
    c = 0
    if eff(M, OF, e, tb.EF_HASFIRST) != 0:
        first = eff(M, OF, e, tb.EF_FIRST)
        for k in range(lo, hi):
            got = count(M, OF, flat(M, OF, k), me, me_suits, SL, kept, suited, V)
            if got != 0:
                c += first + pts * (got - 1)
        return c
    if eff(M, OF, e, tb.EF_INDISC) != 0:
        for k in range(lo, hi):
            t = flat(M, OF, k)
            for d in range(n_disc):
                v = V[VD + d]
                if term_matches(M, OF, t, card(M, OF, v, tb.CF_NAME),
                                card(M, OF, v, tb.CF_DISC_SUITS), False):
                    c += 1
        return pts * c
    for k in range(lo, hi):
        c += count(M, OF, flat(M, OF, k), me, me_suits, SL, kept, suited, V)
    return pts * c


@helper
def _witnesses(M, OF, lst, me, SL, kept, suited):
    """``View.witnesses``: the cards any term of ``lst`` selects, the blanked cards that
    keep their suits included (R15)."""
    out = _kept_hits(M, OF, lst, me, SL, kept)
    if suited != kept:
        lo, hi = list_range(M, OF, lst)
        h = suited & ~kept
        j = 0
        while h:
            if h & 1:
                for k in range(lo, hi):
                    t = flat(M, OF, k)
                    other = M[OF[tb.O_TERM] + t * tb.TF_SIZE + tb.TF_OTHER] != 0
                    if not (other and j == me) and suits_only(M, OF, t, SL[j, S_SUITS]):
                        out |= bit(j)
                        break
            h >>= 1
            j += 1
    return out


@helper
def _other_value(M, OF, e, me, SL, n, kept, suited, V, players):
    """``value`` of the effects that are neither ``Points`` nor ``best_of``."""
    kind = eff(M, OF, e, tb.EF_KIND)
    if kind == tb.K_SUM:
        hits = _kept_hits(M, OF, eff(M, OF, e, tb.EF_TERMS), me, SL, kept)
        s = 0
        for j in range(n):
            if (hits >> j) & 1:
                s += SL[j, S_STR]
        return s
    if kind == tb.K_MAX:
        lst = eff(M, OF, e, tb.EF_TERMS)
        best = 0
        for j in range(n):
            if (kept >> j) & 1 and SL[j, S_STR] > best and list_hits(
                    M, OF, lst, SL[j, S_NAME], SL[j, S_SUITS], j == me):
                best = SL[j, S_STR]
        return best
    if kind == tb.K_COLL:
        pay = OF[tb.O_PAY] + eff(M, OF, e, tb.EF_TAB) * tb.PAY_SIZE
        total = 0
        for s in range(OF[tb.O_NSUITS]):
            if V[VT + s] < 3:
                continue
            sb = bit(s)
            names = 0
            for j in range(n):  # names in the suit, blanked Phoenix included (R15)
                if (suited >> j) & 1 and (SL[j, S_SUITS] & sb) != 0:
                    fresh = True
                    for q in range(j):
                        if (suited >> q) & 1 and (SL[q, S_SUITS] & sb) != 0 \
                                and SL[q, S_NAME] == SL[j, S_NAME]:
                            fresh = False
                            break
                    if fresh:
                        names += 1
            total += M[pay + min(names, tb.PAY_SIZE - 1)]
        return total
    if kind == tb.K_RUNS:
        return _runs_pay(M, OF, eff(M, OF, e, tb.EF_TAB), SL, kept, n, V)
    if kind == tb.K_DISTINCT:
        seen = np.int64(0)
        for j in range(n):
            if (kept >> j) & 1:
                if seen & SL[j, S_SUITS]:
                    return 0
                seen |= SL[j, S_SUITS]
        return eff(M, OF, e, tb.EF_A)
    if kind == tb.K_ODD:
        odd = 0
        all_odd = True
        for j in range(n):
            if (kept >> j) & 1:
                if SL[j, S_STR] & 1:
                    if j != me:
                        odd += 1
                else:
                    all_odd = False
        per = eff(M, OF, e, tb.EF_A) * odd
        if popcount(kept) == n and all_odd:
            return max(eff(M, OF, e, tb.EF_B), per)
        return per
    if kind == tb.K_EXACTLY:
        c = popcount(_witnesses(M, OF, eff(M, OF, e, tb.EF_TERMS), me, SL, kept, suited))
        return eff(M, OF, e, tb.EF_A) if c == eff(M, OF, e, tb.EF_B) else 0
    if kind == tb.K_PERPEN:
        c = 0
        for j in range(n):
            if (kept >> j) & 1 and pen(M, OF, SL[j, S_ACTIVE], tb.PF_NONEMPTY) != 0:
                c += 1
        return eff(M, OF, e, tb.EF_A) * c
    if kind == tb.K_PERPLAYER:
        return eff(M, OF, e, tb.EF_A) * ((players if players > 0 else 1) - 1)
    return 0


@helper
def value(M, OF, e, me, me_suits, SL, n, kept, suited, V, players, n_curs, n_disc):
    """``PointEffect.value`` (a ``best_of`` is the largest of its options, R9)."""
    kind = eff(M, OF, e, tb.EF_KIND)
    if kind == tb.K_POINTS:
        return _points_value(M, OF, e, me, me_suits, SL, kept, suited, V, players, n_curs,
                             n_disc)
    if kind == tb.K_BEST:
        lo = eff(M, OF, e, tb.EF_OPT0)
        best = np.int64(0)
        for k in range(lo, eff(M, OF, e, tb.EF_OPT1)):
            o = flat(M, OF, k)
            if eff(M, OF, o, tb.EF_KIND) == tb.K_POINTS:
                v = _points_value(M, OF, o, me, me_suits, SL, kept, suited, V, players,
                                  n_curs, n_disc)
            else:
                v = _other_value(M, OF, o, me, SL, n, kept, suited, V, players)
            if k == lo or v > best:
                best = v
        return best
    return _other_value(M, OF, e, me, SL, n, kept, suited, V, players)


@helper
def effects_total(M, OF, lo, hi, me, me_suits, SL, n, kept, suited, V, players, n_curs,
                  n_disc):
    """The sum of the point effects ``FLAT[lo:hi]`` of one card. The commonest kind,
    "+N per / with / unless" plain suits (``EF_PLAIN``), is counted here from the suit
    totals, without a call."""
    total = np.int64(0)
    for k in range(lo, hi):
        e = flat(M, OF, k)
        b = OF[tb.O_EFF] + e * tb.EF_SIZE
        if M[b + tb.EF_PLAIN] == 0:
            total += value(M, OF, e, me, me_suits, SL, n, kept, suited, V, players, n_curs,
                           n_disc)
            continue
        ok = True
        for g in range(M[b + tb.EF_PL0], M[b + tb.EF_PL1], 2):  # conditions: (mode, term)
            mode = flat(M, OF, g)
            t = flat(M, OF, g + 1)
            tt = OF[tb.O_TERM] + t * tb.TF_SIZE
            c = V[VT + M[tt + tb.TF_IDX]]
            if M[tt + tb.TF_OTHER] != 0 and (me_suits & M[tt + tb.TF_SUITS]) != 0:
                c -= 1
            if mode == tb.PLAIN_WITH and c == 0 or mode == tb.PLAIN_UNLESS and c != 0:
                ok = False
                break
        if not ok:
            continue
        per = M[b + tb.EF_PER]
        if per < 0:
            total += M[b + tb.EF_A]
            continue
        lo2, hi2 = list_range(M, OF, per)
        c = 0
        for q in range(lo2, hi2):
            tt = OF[tb.O_TERM] + flat(M, OF, q) * tb.TF_SIZE
            c += V[VT + M[tt + tb.TF_IDX]]
            if M[tt + tb.TF_OTHER] != 0 and (me_suits & M[tt + tb.TF_SUITS]) != 0:
                c -= 1
        total += M[b + tb.EF_A] * c
    return total


@helper
def points(M, OF, n, SL, kept, V, players, n_curs, n_disc):
    """The total of a resolved hand: kept cards and Cursed Items (``resolve.total_of``)."""
    everyone = bit(n) - 1
    suited = kept
    if kept != everyone:
        for j in range(n):
            if SL[j, S_KEEPS] != 0:
                suited |= bit(j)
    for s in range(OF[tb.O_NSUITS]):
        V[VT + s] = 0
    for j in range(n):
        if (suited >> j) & 1:
            m = SL[j, S_SUITS]
            s = 0
            while m:
                if m & 1:
                    V[VT + s] += 1
                m >>= 1
                s += 1
    total = np.int64(0)
    for i in range(n):
        if not (kept >> i) & 1:
            continue
        b = OF[tb.O_CARD] + SL[i, S_CARD] * tb.CF_SIZE
        total += SL[i, S_STR]
        lo, hi = M[b + tb.CF_BON0], M[b + tb.CF_BON1]
        if lo < hi:  # a call costs more than most effects: none for a card without any
            total += effects_total(M, OF, lo, hi, i, SL[i, S_SUITS], SL, n, kept, suited, V,
                                   players, n_curs, n_disc)
        p = SL[i, S_ACTIVE]
        lo, hi = pen(M, OF, p, tb.PF_PTS0), pen(M, OF, p, tb.PF_PTS1)
        if lo < hi:
            total += effects_total(M, OF, lo, hi, i, SL[i, S_SUITS], SL, n, kept, suited, V,
                                   players, n_curs, n_disc)
    for c in range(n_curs):
        b = OF[tb.O_CARD] + V[VC + c] * tb.CF_SIZE
        total += M[b + tb.CF_STR]
        total += effects_total(M, OF, M[b + tb.CF_BON0], M[b + tb.CF_BON1], -1,
                               M[b + tb.CF_SUITS], SL, n, kept, suited, V, players, n_curs,
                               n_disc)
    return total


@helper
def finish(M, OF, n, CH, SL, W, V, players, n_curs, n_disc):
    """Steps 3-5 on slots whose identities and suits are set: (status, total)."""
    immunity(M, OF, n, CH, SL)
    if clearing(M, OF, n, CH, SL) != OK:
        return ERROR, np.int64(0)
    kept = blanking(M, OF, n, SL, W)
    if kept < 0:
        return ERROR, np.int64(0)
    return OK, points(M, OF, n, SL, kept, V, players, n_curs, n_disc)


@helper
def resolve_one(M, OF, cards, n, CH, SL, W, V, players, n_curs, n_disc):
    """One hand with its choices (``resolve.score_raw``): (status, total). The hand's
    discard area and Cursed Items are in ``V``."""
    setup(M, OF, cards, n, SL)
    identities(M, OF, n, CH, SL)
    changes(M, OF, n, CH, SL)
    return finish(M, OF, n, CH, SL, W, V, players, n_curs, n_disc)


@helper
def load_context(curs, disc, has_disc, V):
    """Copy one row's Cursed Items and discard area into ``V``: (n_curs, n_disc), or -1
    when there are more than ``V`` holds."""
    n_curs = 0
    while n_curs < curs.shape[0] and curs[n_curs] >= 0:
        if n_curs >= MAX_CURSED:
            return -1, 0
        V[VC + n_curs] = curs[n_curs]
        n_curs += 1
    n_disc = 0
    if has_disc:
        while n_disc < disc.shape[0] and disc[n_disc] >= 0:
            if n_disc >= MAX_DISCARD:
                return -1, 0
            V[VD + n_disc] = disc[n_disc]
            n_disc += 1
    return n_curs, n_disc


@helper
def row_length(row):
    n = 0
    while n < row.shape[0] and row[n] >= 0:
        n += 1
    return n


def work(width: int) -> tuple:
    """The work arrays for hands of at most ``width`` cards."""
    return (np.zeros((max(1, width), S_SIZE), dtype=np.int64),
            np.zeros((max(1, width), W_SIZE), dtype=np.int64),
            np.zeros(V_SIZE, dtype=np.int64))


@helper
def _resolve_rows(M, OF, cards, choices, players, curs, disc, has_disc, totals_out,
                  status_out, SL, W, V):
    for r in range(cards.shape[0]):
        n = row_length(cards[r])
        n_curs, n_disc = load_context(curs[r], disc[r], has_disc[r], V)
        if n_curs < 0 or n > MAX_CARDS:
            status_out[r] = ERROR
            totals_out[r] = 0
            continue
        st, total = resolve_one(M, OF, cards[r], n, choices[r], SL, W, V, players[r], n_curs,
                                n_disc)
        status_out[r] = st
        totals_out[r] = total


@entry
def resolve_batch(M, OF, cards, choices, players, curs, disc, has_disc, totals_out, status_out):
    """Every row of ``cards`` (``-1``-padded) with its choices and context: ``players``
    (-1: not given), ``curs`` (Cursed Items), ``disc`` (the discard area, where
    ``has_disc``). Writes each total and status (OK, or ERROR: ask ``resolve``)."""
    width = cards.shape[1]
    SL = np.zeros((max(1, width), S_SIZE), dtype=np.int64)
    W = np.zeros((max(1, width), W_SIZE), dtype=np.int64)
    V = np.zeros(V_SIZE, dtype=np.int64)
    _resolve_rows(M, OF, cards, choices, players, curs, disc, has_disc, totals_out, status_out,
                  SL, W, V)
