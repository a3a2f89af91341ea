"""The compiled half of ``fr-score max``: the bound of a branch and the sweep over card sets.

A *branch* holds the cards ``P`` and takes ``k`` more from ``R``, the free cards after the
last one taken (cards are taken in one fixed order, so every card set is met once). Its
bound (:func:`node_bound`) is at least the score of every hand ``P + S`` (``S`` ⊆ ``R``,
``|S| = k``), whatever the choices:

    fixed(P) + the k largest m_j over R,

where ``fixed(P)`` is what the cards of ``P`` score among themselves and ``m_j`` is the most
card ``j`` may add: its own strength and bonus (with the cards of ``P`` and its own ``k - 1``
best partners of ``R``) plus what it adds to the bonuses of ``P`` (its *marginal*). Because
the bonuses of ``P`` are paid through the marginals of the cards actually taken, they share
one completion ``S`` instead of each picking its own. A bonus is split into marginals so that
their sum over any ``S`` is at least what it pays (see :func:`prep`): "+5 per Army" pays each
Army 5; "+25 with any Wizard" not yet met pays 25 to every Wizard; a bonus gated by an unmet
condition pays what it would count to the members of the rarest unmet group.

Runs (Gem of Order) depend on the whole hand; with their owner in ``P`` they are bounded
jointly with the marginals (:func:`runs_joint`): a dynamic programme over the strength axis
chooses the cards that bring new strengths, the others are the best remaining marginals.
Collections (Collector) are bounded from the suits the branch may still reach.

A whole hand whose bound beats the bar is looked at more closely (:func:`refined_over`): the
choices that the bound relaxes most are tried one by one (what a copy from the hand copies,
then Book of Changes' change), and World Tree's bonus needs cards of different suits.

The arrays are those of :class:`~.sweep_tables.SweepTables` (``T`` below stands for them); a
sweep's own facts (the free cards in order, what every suffix of them holds) are ``RUN``
(see ``sweep.SweepRun``), and each thread's scratch arrays ``W`` and ``L``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .batch import cache

# The compiled code is cached with the rest of the package's (batch/cache.py: shipped in the
# package, keyed on the sources' content). No optimisation level is set: numba reads NUMBA_OPT
# from the environment at every compile, so a lower level for the sweep would lower it for all
# compiled code of the process, and it saves little of a first run's compile.
cache.install()

# The layout of the tables (sweep_tables writes them). It lives here because numba's cache
# is keyed on this file alone: a change of layout must change this file, or the cached code
# would read the tables wrongly.
MAX_TERMS = 5  # counted terms of one effect ("+5 per Land, Weather, Flood and Flame")
MAX_GATES = 4  # condition groups of one effect
TABLE = 17  # payout tables: pay for 0..16 cards
MAX_FACES = 16  # the sets of suits a copy from the game may show (its own included)
MAX_AXIS = 62  # positions of the strength axis of runs (strengths, with gaps)

# positions in the tables tuple ``T`` (``sweep_tables.SweepTables.T`` builds it in this order)
(T_CARD, T_MATCH, T_GSUIT, T_GOTHER, T_ROWS, T_TABS, T_SPLITS, T_RSTART, T_MEM, T_MSTART,
 T_NAMES, T_HOLDERS, T_NSUITS, T_NAXIS, T_CHG, T_SELFM, T_BLANK, T_MEDDLE, T_SURE,
 T_SIZE) = range(20)

# effect kinds
POINTS, SUM_STRENGTH, MAX_STRENGTH, COLLECTION, RUNS, CONSTANT, ODD, EXACTLY, PER_PENALTY, \
    DISTINCT = range(10)  # DISTINCT: a constant, but for every card of a different suit

# row layout: owner, slot (options of one "best of" share it), kind, a, b, selector group,
# the Book of Changes gain, the terms (group, pay of the first card) and the gates
R_OWNER, R_SLOT, R_KIND, R_A, R_B, R_SEL, R_GAIN, R_NT = range(8)
R_T = 8  # MAX_TERMS pairs (group, first)
R_NG = R_T + 2 * MAX_TERMS
R_G = R_NG + 1
ROW = R_G + MAX_GATES

# per-card layout
# strength, copy from the hand (2: it takes the strength), Book of Changes, odd strength,
# a penalty, position on the strength axis, printed suits, how many faces (a copy from the
# game), Book of Changes may not target it, the suits a change of suit leaves (R17), the
# suits a copy of it takes (R16)
C_STR, C_HCOPY, C_BOOK, C_ODD, C_PEN, C_AXIS, C_SUITS, C_NFACES, C_UNCH, C_KEEP, C_COPY = \
    range(11)
C_FACES = 11  # MAX_FACES suit masks, then MAX_FACES name ids (-1: a name of one suit)
C_ANY = C_FACES + 2 * MAX_FACES  # 1 while a closer look lets the card show every suit
C_AS = C_ANY + 1  # a copy from the hand whose identity a closer look fixed: the card it
#                   copies (-2: none; -1: not fixed, or not a copy)
CARD = C_AS + 1

# what a sure blanking reads of each card (sure_blanked; sweep_tables writes it): its printed
# suits; where a copy of its penalty would blank it (bit 0 as printed, bit s + 1 changed to
# suit s); whether it is a copy (1: from the hand, 2: from the game, 3: from the game, taking
# a penalty); whether it may surely blank some card; whether only some cards may blank it
# (C7); where its own blanking hits it (bits as for a copy's); and whether, as printed, it
# may surely blank a copy of itself, which blanks it in turn (R1: two Basilisks)
S_PRINTED, S_SELF, S_COPY, S_BLANKER, S_ONLY, S_LOOP, S_TWIN = range(7)
S_COLS = 7

NEG = -(1 << 40)

# Calls between compiled functions pass no literal constant (-1, 0, False): numba would
# compile one more copy of the callee for each, and the first run would wait for them.

# what prep() leaves for delta(): the value, dead, the group paid for an unmet gate, the
# amount paid to its members, the strongest selected (MAX_STRENGTH), Book of Changes in the
# set, whether a copy from the hand may match the gate paid / the selector, then per term a
# marginal and whether a copy from the hand may match it
P_VAL, P_DEAD, P_GSTAR, P_ATTR, P_M, P_BOOK, P_GDOP, P_SDOP, P_MARG = range(9)
P_TDOP = P_MARG + MAX_TERMS
PREP = P_TDOP + MAX_TERMS

# the facts of a set of cards prep() reads (ctx): Books held and free, the strongest card a
# copy may take the strength of, the hand's size, copies from the hand held and free
X_BOOKH, X_BOOKR, X_MAXALL, X_TOTAL, X_HCH, X_HCR = range(6)
CTX = 6


@njit(cache=True, nogil=True)
def _i(v):
    """v as a plain int64 (not a literal: see above)."""
    return np.int64(v)


@njit(cache=True, nogil=True)
def _fill(a, v):
    for i in range(a.shape[0]):
        a[i] = v


@njit(cache=True, nogil=True)
def _sort_desc(vals, q0, nf, order):
    """order[:nf - q0] = the positions q0..nf-1 by decreasing vals (insertion sort: a few
    dozen values)."""
    for n, i in enumerate(range(q0, nf)):
        v = vals[i]
        w = n
        while w > 0 and vals[order[w - 1]] < v:
            order[w] = order[w - 1]
            w -= 1
        order[w] = i


@njit(cache=True, nogil=True)
def strength_of(j, card, maxall):
    """The most strength card j may show: a copy from the hand that takes a strength, that of
    the strongest card it may copy."""
    s = card[j, C_STR]
    if card[j, C_HCOPY] == 2 and maxall > s:
        return maxall
    return s


@njit(cache=True, nogil=True)
def _cnt(g, x, cnt, match):
    """Cards of the set matching group g: cnt counts P, x (-1: none) is one more card."""
    n = cnt[g]
    if x >= 0:
        n += match[g, x]
    return n


@njit(cache=True, nogil=True)
def prep(r, o, P, np_, x, cnt, cntR, xr, ctx, card, match, gsuit, gother, rows, pr):
    """Row r, owned by o, in the set H = P (+ x): its value on H and what delta() needs to pay
    the marginal of a further card. cntR counts the free cards R (minus xr); ctx: see CTX.

    A copy from the hand (Doppelgänger) is no card of any group in ``match``: it matches a
    group when a card held or free does (the card it would copy), and the first such card
    taken pays for the copies held as well."""
    kind = rows[r, R_KIND]
    a = rows[r, R_A]
    bookH = ctx[X_BOOKH]
    bookR = ctx[X_BOOKR]
    hcH = ctx[X_HCH]
    for q in range(PREP):
        pr[q] = 0
    pr[P_GSTAR] = -1
    pr[P_BOOK] = 1 if bookH > 0 else 0
    if kind == POINTS:
        rarest = 1 << 30
        for q in range(rows[r, R_NG]):
            g = rows[r, R_G + q]
            held = _cnt(g, x, cnt, match)
            have = held - (match[g, o] if gother[g] else 0)
            if have > 0 or (held > 0 and hcH > 0) or (bookH > 0 and gsuit[g] == 1):
                continue
            free = cntR[g] - (match[g, xr] if xr >= 0 else 0)
            avail = free + (1 if bookR > 0 and gsuit[g] == 1 else 0)
            if held > 0:
                avail += ctx[X_HCR]  # a copy of the card held
            if avail <= 0:
                pr[P_DEAD] = 1
                return
            if avail < rarest:
                rarest = avail
                pr[P_GSTAR] = g
                pr[P_GDOP] = 1 if held + free > 0 else 0
        nt = rows[r, R_NT]
        v = 0
        if nt == 0:
            v = a
        else:
            for t in range(nt):
                g = rows[r, R_T + 2 * t]
                first = rows[r, R_T + 2 * t + 1]
                held = _cnt(g, x, cnt, match)
                free = cntR[g] - (match[g, xr] if xr >= 0 else 0)
                n = held - (match[g, o] if gother[g] else 0)
                if held > 0:
                    n += hcH  # each copy held copies one of them
                pr[P_TDOP + t] = 1 if held + free > 0 else 0
                a0 = a if a > 0 else 0
                if n > 0:
                    v += first + a * (n - 1)
                    pr[P_MARG + t] = a0
                else:
                    best = first if first > a else a
                    pr[P_MARG + t] = (best if best > 0 else 0) + hcH * a0
            if bookH > 0:
                v += rows[r, R_GAIN]
        if pr[P_GSTAR] >= 0:
            pr[P_ATTR] = v if v > 0 else 0
        else:
            pr[P_VAL] = v
        return
    if kind == SUM_STRENGTH:
        _prep_sum(r, o, P, np_, x, cnt, cntR, xr, ctx, card, match, gother, rows, pr)
        return
    if kind in (MAX_STRENGTH, ODD, PER_PENALTY):
        g = rows[r, R_SEL]
        maxall = ctx[X_MAXALL]
        copyable = False
        if kind == MAX_STRENGTH:
            held = _cnt(g, x, cnt, match)
            copyable = held > 0
            pr[P_SDOP] = 1 if held + cntR[g] - (match[g, xr] if xr >= 0 else 0) > 0 else 0
        total_s = 0
        top = 0
        odd = 0
        all_odd = True
        pens = 0
        for q in range(np_ + (1 if x >= 0 else 0)):
            y = P[q] if q < np_ else x
            s = strength_of(y, card, maxall)
            if s < 0:
                s = 0
            if kind == ODD:
                if card[y, C_ODD] == 1:
                    if y != o:
                        odd += 1
                else:
                    all_odd = False
                continue
            if kind == PER_PENALTY:
                pens += card[y, C_PEN]
                continue
            if gother[g] == 1 and y == o:
                continue
            if match[g, y] == 1 or (card[y, C_HCOPY] > 0 and copyable) or (
                    kind == MAX_STRENGTH and bookH > 0):
                total_s += s
                if s > top:
                    top = s
        if kind == MAX_STRENGTH:
            pr[P_VAL] = top
            pr[P_M] = top
        elif kind == PER_PENALTY:
            pr[P_VAL] = a * pens
        else:  # ODD
            if all_odd:
                v = a * (ctx[X_TOTAL] - 1)
                b = rows[r, R_B]
                pr[P_VAL] = b if b > v else v
                pr[P_MARG] = 0
            else:
                pr[P_VAL] = a * odd
                pr[P_MARG] = a
        return
    if kind == EXACTLY:
        g = rows[r, R_SEL]
        need = rows[r, R_B]
        held = _cnt(g, x, cnt, match)
        have = held - (match[g, o] if gother[g] else 0) + (1 if bookH > 0 else 0)
        if held > 0:
            have += hcH
        if need <= 0 or have >= need:
            pr[P_VAL] = a
            return
        need -= have
        if held == 0 and hcH > 0:  # the first card taken brings the copies held along
            need = need - hcH if need > hcH else 1
        free = cntR[g] - (match[g, xr] if xr >= 0 else 0)
        avail = free + (1 if bookR > 0 else 0)
        if held + free > 0:
            avail += ctx[X_HCR]
        if avail < need:
            pr[P_DEAD] = 1
            return
        pr[P_ATTR] = (a + need - 1) // need
        pr[P_GSTAR] = g
        pr[P_SDOP] = 1 if held + free > 0 else 0
        return
    if kind in (CONSTANT, DISTINCT):
        pr[P_VAL] = a
        return


@njit(cache=True, nogil=True)
def _prep_sum(r, o, P, np_, x, cnt, cntR, xr, ctx, card, match, gother, rows, pr):
    """prep() of "+ the strengths of the cards of a group" (Warlord) on H = P (+ x).

    A copy from the hand that takes a strength (Doppelgänger) is in the group only as a
    copy of a card of it (R1: the printed card), so it adds the strength of one of them: at
    most the strongest in H (P_M). A card of the group taken later may raise that for each
    such copy (P_GDOP of them), and when H holds none, the first one taken brings the copies
    into the group (a copy that keeps its own strength adds that: P_ATTR, paid to every card
    of the group taken, their sum being at least what the copies add)."""
    g = rows[r, R_SEL]
    held = _cnt(g, x, cnt, match)
    pr[P_SDOP] = 1 if held + cntR[g] - (match[g, xr] if xr >= 0 else 0) > 0 else 0
    top = 0
    for q in range(np_ + (1 if x >= 0 else 0)):
        y = P[q] if q < np_ else x
        if card[y, C_HCOPY] == 0 and match[g, y] == 1 and card[y, C_STR] > top:
            top = card[y, C_STR]  # the owner too: a copy of it is another card
    total = 0
    for q in range(np_ + (1 if x >= 0 else 0)):
        y = P[q] if q < np_ else x
        if gother[g] == 1 and y == o:
            continue
        s = card[y, C_STR] if card[y, C_STR] > 0 else 0
        if card[y, C_HCOPY] == 2:
            pr[P_GDOP] += 1
            if held > 0:
                total += top
        elif card[y, C_HCOPY] == 1:
            if held > 0:
                total += s
            else:
                pr[P_ATTR] += s
        elif match[g, y] == 1:
            total += s
    pr[P_M] = top
    # a Book of Changes held may change one card to join: at most the strongest card
    pr[P_VAL] = total + (ctx[X_MAXALL] if ctx[X_BOOKH] > 0 else 0)


@njit(cache=True, nogil=True)
def delta(r, o, y, pr, maxall, card, match, gsuit, rows):
    """At least what card y, added to H, adds to row r (prepared by prep())."""
    if pr[P_DEAD]:
        return 0
    kind = rows[r, R_KIND]
    hc = card[y, C_HCOPY] > 0
    d = 0
    if kind == POINTS:
        for t in range(rows[r, R_NT]):
            g = rows[r, R_T + 2 * t]
            if match[g, y] == 1 or (hc and pr[P_TDOP + t] == 1):
                d += pr[P_MARG + t]
        if card[y, C_BOOK] == 1:
            d += rows[r, R_GAIN]
        gs = pr[P_GSTAR]
        if gs >= 0 and (match[gs, y] == 1 or (hc and pr[P_GDOP] == 1)
                        or (card[y, C_BOOK] == 1 and gsuit[gs] == 1)):
            d += pr[P_ATTR]
        return d
    g = rows[r, R_SEL]
    selected = kind != ODD and kind != PER_PENALTY and (
        match[g, y] == 1 or (hc and pr[P_SDOP] == 1))
    if kind == SUM_STRENGTH:
        if selected:
            s = strength_of(y, card, maxall)
            if s > 0:
                d += s
            if not hc and s > pr[P_M]:  # the copies held may copy it (_prep_sum)
                d += pr[P_GDOP] * (s - pr[P_M])
            d += pr[P_ATTR]
        if card[y, C_BOOK] == 1:
            d += maxall
        return d
    if kind == MAX_STRENGTH:
        top = pr[P_M]
        if selected or pr[P_BOOK] == 1:  # a Book held may change y to match
            s = strength_of(y, card, maxall)
            if s > top:
                d = s - top
        if card[y, C_BOOK] == 1 and maxall - top > d:
            d = maxall - top
        return d
    if kind == ODD:
        return pr[P_MARG] * card[y, C_ODD]
    if kind == PER_PENALTY:
        return rows[r, R_A] * card[y, C_PEN]
    if kind == EXACTLY:
        if pr[P_GSTAR] >= 0 and (selected or card[y, C_BOOK] == 1):
            return pr[P_ATTR]
        return 0
    return 0


# -- collections and runs ------------------------------------------------------------------------

@njit(cache=True, nogil=True)
def _shift(counts, mask, n_suits):
    for s in range(n_suits):
        if (mask >> s) & 1:
            counts[s] += 1


@njit(cache=True, nogil=True)
def _held(k, P, np_, x, holders):
    for q in range(np_ + (1 if x >= 0 else 0)):
        y = P[q] if q < np_ else x
        if holders[k, y] == 1:
            return True
    return False


@njit(cache=True, nogil=True)
def collection_exact(P, np_, x, tab, card, holders, n_suits):
    """Per suit, the pay for its cards, in the hand H = P (+ x). A collection counts each
    name once per suit (R10): a copy from the hand counts only as itself (Wild), a copy from
    the game shows the set of suits that pays most among those whose name of several suits
    no card in hand is printed with, and the card Book of Changes changes joins any suit."""
    counts = np.zeros(n_suits, dtype=np.int64)
    width = MAX_FACES if n_suits < MAX_FACES else n_suits
    opts = np.zeros((10, width), dtype=np.int64)
    names = np.zeros((10, width), dtype=np.int64)
    for u in range(10):
        for f in range(width):
            names[u, f] = -1
    nopts = np.zeros(10, dtype=np.int64)
    nu = _i(0)
    for q in range(np_ + (1 if x >= 0 else 0)):
        y = P[q] if q < np_ else x
        if card[y, C_NFACES] > 0:
            n = 0
            for f in range(card[y, C_NFACES]):
                name = card[y, C_FACES + MAX_FACES + f]
                if name >= 0 and _held(name, P, np_, x, holders):
                    continue
                opts[nu, n] = card[y, C_FACES + f]
                names[nu, n] = name
                n += 1
            nopts[nu] = n
            nu += 1
        else:
            _shift(counts, card[y, C_SUITS], n_suits)
        if card[y, C_BOOK] == 1:
            for s in range(n_suits):
                opts[nu, s] = np.int64(1) << s
            nopts[nu] = n_suits
            nu += 1
    return _place(counts, opts, names, nopts, nu, tab, n_suits)


@njit(cache=True, nogil=True)
def _place(counts, opts, names, nopts, nu, tab, n_suits):
    """The best pay when each movable card u shows one of its sets of suits opts[u, :] (or
    adds nothing): every combination is tried (a hand holds few such cards). Two cards
    showing the same name of several suits (names[u, :] >= 0) count once (R10)."""
    choice = np.zeros(nu, dtype=np.int64)
    _fill(choice, _i(-1))
    shown = np.zeros(n_suits, dtype=np.int64)
    best = 0
    while True:
        for s in range(n_suits):
            shown[s] = counts[s]
        used = np.int64(0)
        for u in range(nu):
            q = choice[u]
            if q < 0:
                continue
            name = names[u, q]
            if name >= 0:
                if (used >> name) & 1:
                    continue
                used |= np.int64(1) << name
            _shift(shown, opts[u, q], n_suits)
        total = 0
        for s in range(n_suits):
            total += tab[min(shown[s], TABLE - 1)]
        if total > best:
            best = total
        u = 0
        while u < nu:
            choice[u] += 1
            if choice[u] < nopts[u]:
                break
            choice[u] = -1
            u += 1
        if u == nu:
            return best


@njit(cache=True, nogil=True)
def collection_bound(P, np_, x, free, q0, nf, k, tab, card, names, holders, n_suits):
    """At most what a collection pays in any hand H + S, S ⊆ R (the free cards from q0, but
    x), |S| = k: the cards split among the suits they may reach, a movable card (a copy from
    the game, the card Book of Changes changes) joining any, and a name of several suits
    adding its other suits once."""
    counts = np.zeros(n_suits, dtype=np.int64)
    avail = np.zeros(n_suits, dtype=np.int64)
    flex = 0
    for q in range(np_ + (1 if x >= 0 else 0)):
        y = P[q] if q < np_ else x
        flex += card[y, C_BOOK]
        if card[y, C_NFACES] > 0:
            flex += 1
        else:
            _shift(counts, card[y, C_SUITS], n_suits)
    for i in range(q0, nf):
        y = free[i]
        if y == x:
            continue
        flex += card[y, C_BOOK]
        if card[y, C_NFACES] > 0:
            for s in range(n_suits):
                avail[s] += 1
        else:
            _shift(avail, card[y, C_SUITS], n_suits)
    for nm in range(names.shape[0]):
        if _held(nm, P, np_, x, holders):
            continue
        able = False
        for q in range(np_ + (1 if x >= 0 else 0)):
            y = P[q] if q < np_ else x
            if names[nm, 2 + y] == 1:
                able = True
        for i in range(q0, nf):
            if free[i] != x and names[nm, 2 + free[i]] == 1:
                able = True
        if able:
            flex += names[nm, 1] - 1
    budget = k + flex
    best = np.zeros(budget + 1, dtype=np.int64)
    _fill(best, _i(NEG))
    best[0] = 0
    nxt = np.zeros(budget + 1, dtype=np.int64)
    for s in range(n_suits):
        cap = avail[s] + flex
        for used in range(budget + 1):
            nxt[used] = best[used]
        for used in range(budget + 1):
            if best[used] == NEG:
                continue
            for add in range(0, min(cap, budget - used) + 1):
                v = best[used] + tab[min(counts[s] + add, TABLE - 1)]
                if v > nxt[used + add]:
                    nxt[used + add] = v
        for used in range(budget + 1):
            best[used] = nxt[used]
    top = 0
    for used in range(budget + 1):
        if best[used] > top:
            top = best[used]
    return top


@njit(cache=True, nogil=True)
def _run_pay(counts, tab):
    """Pay of every separate run, layer by layer (R10)."""
    c = np.zeros(counts.shape[0], dtype=np.int64)
    for v in range(counts.shape[0]):
        c[v] = counts[v]
    total = 0
    while True:
        any_left = False
        run = 0
        for v in range(c.shape[0]):
            if c[v] > 0:
                run += 1
                c[v] -= 1
                any_left = True
            else:
                if run:
                    total += tab[min(run, TABLE - 1)]
                run = 0
        if run:
            total += tab[min(run, TABLE - 1)]
        if not any_left:
            return total


@njit(cache=True, nogil=True)
def runs_exact(P, np_, x, tab, card, n_axis):
    """Runs of the hand H = P (+ x). A copy from the hand shows its own strength or that of
    another card: each is tried."""
    counts = np.zeros(n_axis + 1, dtype=np.int64)
    copy = -1
    for q in range(np_ + (1 if x >= 0 else 0)):
        y = P[q] if q < np_ else x
        if card[y, C_HCOPY] == 2 and copy < 0:
            copy = y
        else:
            counts[card[y, C_AXIS]] += 1
    if copy < 0:
        return _run_pay(counts, tab)
    best = 0
    for q in range(np_ + (1 if x >= 0 else 0)):
        y = P[q] if q < np_ else x
        counts[card[y, C_AXIS]] += 1  # the copy shows y's strength (y == copy: its own)
        v = _run_pay(counts, tab)
        counts[card[y, C_AXIS]] -= 1
        if v > best:
            best = v
    return best


@njit(cache=True, nogil=True)
def _popcount(v):
    n = 0
    while v:
        v &= v - 1
        n += 1
    return n


@njit(cache=True, nogil=True)
def runs_bound(P, np_, x, free, q0, nf, k, tab, split, card, n_axis):
    """At most what runs pay in any hand H + S, S ⊆ R (free from q0, but x), |S| = k: the
    longest run the free cards can complete, and the rest split into runs. A copy adds its
    own strength or repeats another: no strength but its own."""
    one = np.int64(1)
    present = np.int64(0)
    avail = np.int64(0)
    held = np_ + (1 if x >= 0 else 0)
    for q in range(held):
        y = P[q] if q < np_ else x
        present |= one << card[y, C_AXIS]
    for i in range(q0, nf):
        if free[i] != x:
            avail |= one << card[free[i], C_AXIS]
    total = held + k
    longest = 0
    for a in range(n_axis):
        for length in range(1, total + 1):
            if a + length > n_axis:
                break
            w = ((one << length) - 1) << a
            miss = w & ~present
            if miss & ~avail or _popcount(miss) > k:
                break
            if length > longest:
                longest = length
    best = 0
    for length in range(0, longest + 1):
        v = tab[min(length, TABLE - 1)] + split[min(total - length, TABLE - 1)]
        if v > best:
            best = v
    return best


@njit(cache=True, nogil=True)
def runs_joint(P, np_, free, q0, nf, k, m, tab, split, card, n_axis, work):
    """At most runs(P + S) + Σ_{j ∈ S} m_j over S ⊆ R (free from q0), |S| = k.

    S splits into S1, one card at each strength P lacks that S brings, and S2, the rest:
    every card of S2 repeats a strength, so it pays only in runs of a second layer (at most
    the best split of those cards). A programme over the strength axis chooses S1 (the best
    m at each new strength, with the pay of the runs it makes); S2 is bounded by the best
    remaining marginals, a card of S1 allowed again (a relaxation)."""
    held = np.zeros(n_axis + 1, dtype=np.int64)
    distinct = 0
    dup = 0
    for q in range(np_):
        y = P[q]
        v = card[y, C_AXIS]
        if held[v] == 0:
            distinct += 1
        held[v] = 1
        if card[y, C_HCOPY] == 2:
            dup = 1  # it may repeat another strength instead of showing its own
    best_at = np.zeros(n_axis + 1, dtype=np.int64)
    _fill(best_at, _i(NEG))
    for i in range(q0, nf):
        y = free[i]
        v = card[y, C_AXIS]
        if held[v] == 0 and m[i] > best_at[v]:
            best_at[v] = m[i]
    lc = TABLE - 1
    while lc > 1 and tab[lc - 1] == tab[lc]:
        lc -= 1
    width = lc + 1
    cur = work[0]
    nxt = work[1]
    for u in range(k + 1):
        for r in range(width):
            cur[u, r] = NEG
    cur[0, 0] = 0
    for v in range(n_axis):
        for u in range(k + 1):
            for r in range(width):
                nxt[u, r] = NEG
        for u in range(k + 1):
            for r in range(width):
                c = cur[u, r]
                if c == NEG:
                    continue
                r2 = r + 1 if r + 1 < lc else lc
                if held[v] == 1:
                    if c > nxt[u, r2]:
                        nxt[u, r2] = c
                    continue
                end = c + tab[r]
                if end > nxt[u, 0]:
                    nxt[u, 0] = end
                if u < k and best_at[v] != NEG:
                    w = c + best_at[v]
                    if w > nxt[u + 1, r2]:
                        nxt[u + 1, r2] = w
        cur, nxt = nxt, cur
    # the best remaining marginals: top[t] = the t largest m over R
    top = np.zeros(k + 1, dtype=np.int64)
    _top_sums(m, q0, nf, _i(-1), k, top)
    best = NEG
    for u in range(k + 1):
        layer = NEG
        for r in range(width):
            if cur[u, r] != NEG and cur[u, r] + tab[r] > layer:
                layer = cur[u, r] + tab[r]
        if layer == NEG:
            continue
        rest = np_ + k - distinct - u + dup
        v = layer + top[k - u] + split[min(max(rest, 0), TABLE - 1)]
        if v > best:
            best = v
    return best if best > 0 else 0


@njit(cache=True, nogil=True)
def _top_sums(vals, q0, nf, skip, k, out):
    """out[t] = the sum of the t largest vals[q0:nf] (position skip left out), t ≤ k."""
    buf = np.zeros(k + 1, dtype=np.int64)
    nb = 0
    for i in range(q0, nf):
        if i == skip:
            continue
        v = vals[i]
        if nb < k:
            p = nb
            nb += 1
        elif k > 0 and v > buf[k - 1]:
            p = k - 1
        else:
            continue
        while p > 0 and buf[p - 1] < v:
            buf[p] = buf[p - 1]
            p -= 1
        buf[p] = v
    out[0] = 0
    for t in range(1, k + 1):
        out[t] = out[t - 1] + (buf[t - 1] if t <= nb else 0)


@njit(cache=True, nogil=True)
def _top_sum(vals, q0, nf, skip, k):
    if k <= 0:
        return 0
    out = np.zeros(k + 1, dtype=np.int64)
    _top_sums(vals, q0, nf, skip, k, out)
    return out[k]


# -- one branch ---------------------------------------------------------------------------------

@njit(cache=True, nogil=True)
def _single(rows, r, end):
    """Whether row r is alone in its slot (not one option of a "best of")."""
    return r + 1 >= end or rows[r + 1, R_SLOT] != rows[r, R_SLOT]


@njit(cache=True, nogil=True)
def _moves(kind, pr, rows, r):
    """Whether a further card may add to row r as prepared (a met "+15 with a Wizard"
    cannot)."""
    if pr[P_DEAD]:
        return False
    if kind == POINTS:
        return rows[r, R_NT] > 0 or pr[P_GSTAR] >= 0
    if kind == EXACTLY:
        return pr[P_GSTAR] >= 0
    if kind == ODD:
        return pr[P_MARG] > 0
    return kind != CONSTANT and kind != DISTINCT


@njit(cache=True, nogil=True)
def card_rows(c, P, np_, x, cnt, cntR, xr, ctx, q0, k, joint, T, RUN, acc, dl, pr):
    """The rows of card c in H = P (+ x): returns (-1 - a run row left to runs_joint, or 0;
    their value on H: a collection or a run pays the most it may with k more cards of R)
    and adds to acc[i] what the free card at i adds to them (never xr)."""
    card, match, gsuit, gother, rows, tabs, splits, rstart, mem, mstart, names, holders, \
        n_suits, n_axis = T[:14]
    free, posof = RUN[0], RUN[1]
    nf = free.shape[0]
    val = 0
    left = 0
    r = rstart[c]
    end = rstart[c + 1]
    while r < end:
        slot = rows[r, R_SLOT]
        slotv = 0
        single = _single(rows, r, end)
        spread = False  # a slot of several options: the best of them per card, in dl
        while r < end and rows[r, R_SLOT] == slot:
            kind = rows[r, R_KIND]
            if kind == COLLECTION:
                if k == 0:
                    v = collection_exact(P, np_, x, tabs[r], card, holders, n_suits)
                else:
                    v = collection_bound(P, np_, x, free, q0, nf, k, tabs[r], card, names,
                                         holders, n_suits)
            elif kind == RUNS:
                if k == 0:
                    v = runs_exact(P, np_, x, tabs[r], card, n_axis)
                elif joint:
                    left = -1 - r
                    v = 0
                else:
                    v = runs_bound(P, np_, x, free, q0, nf, k, tabs[r], splits[r], card,
                                   n_axis)
            else:
                prep(r, c, P, np_, x, cnt, cntR, xr, ctx, card, match, gsuit, gother, rows,
                     pr)
                v = pr[P_VAL]
                if k > 0 and _moves(kind, pr, rows, r):
                    if not single and not spread:
                        spread = True
                        for i in range(q0, nf):
                            dl[i] = 0
                    for e in range(mstart[r], mstart[r + 1]):
                        y = mem[e]
                        i = posof[y]
                        if i < q0 or y == xr:
                            continue
                        d = delta(r, c, y, pr, ctx[X_MAXALL], card, match, gsuit, rows)
                        if single:
                            acc[i] += d
                        elif d > dl[i]:
                            dl[i] = d
            if v > slotv:
                slotv = v
            r += 1
        val += slotv
        if spread:
            for i in range(q0, nf):
                acc[i] += dl[i]
    if joint and left < 0:
        return left, val
    return _i(0), val


@njit(cache=True, nogil=True, inline="always")
def _own(i, P, np_, cnt, ctx, q0, k, T, RUN, dj, dl, pr, ctx2):
    """What the free card at i may score itself, with P and its k - 1 best partners of R
    (ctx: the facts of P and R; ctx2: scratch)."""
    free, sufcnt = RUN[0], RUN[2]
    card, rstart = T[T_CARD], T[T_RSTART]
    j = free[i]
    if rstart[j] == rstart[j + 1]:
        return 0
    nf = free.shape[0]
    for i2 in range(q0, nf):
        dj[i2] = 0
    for q in range(CTX):
        ctx2[q] = ctx[q]
    ctx2[X_BOOKH] += card[j, C_BOOK]
    ctx2[X_BOOKR] -= card[j, C_BOOK]
    hc = 1 if card[j, C_HCOPY] > 0 else 0
    ctx2[X_HCH] += hc
    ctx2[X_HCR] -= hc
    _, own = card_rows(j, P, np_, j, cnt, sufcnt[q0], j, ctx2, q0, k - 1, _i(0), T, RUN, dj,
                       dl, pr)
    return own + _top_sum(dj, q0, nf, i, k - 1)


@njit(cache=True, nogil=True)
def _facts(P, np_, q0, total, card, RUN, ctx):
    """ctx: the facts (see CTX) of the set P with the free cards from q0 (q0 = nf: none)."""
    sufmax, sufbook, sufhc = RUN[3], RUN[4], RUN[9]
    maxP = 0
    bookP = 0
    hcP = 0
    for q in range(np_):
        y = P[q]
        bookP += card[y, C_BOOK]
        if card[y, C_HCOPY] > 0:
            hcP += 1
        elif card[y, C_STR] > maxP:
            maxP = card[y, C_STR]
    ctx[X_BOOKH] = bookP
    ctx[X_BOOKR] = sufbook[q0]
    ctx[X_MAXALL] = maxP if maxP > sufmax[q0] else sufmax[q0]
    ctx[X_TOTAL] = total
    ctx[X_HCH] = hcP
    ctx[X_HCR] = sufhc[q0]


@njit(cache=True, nogil=True)
def node_bound(P, np_, cnt, q0, k, T, RUN, m, own_in, own_out, thr, W):
    """The bound of the branch (P, free[q0:], k) and, in m[q0:nf], at least what each free
    card may add. Returns (fixed, bound): fixed is what a branch below adds to its k largest
    m (a quicker bound for it).

    A free card's own bonus with its best partners is the costly part. own_in[i] bounds it
    (from the branch above, whose hands include these); it is computed again (own_out[i])
    only for the cards that may be among the k largest, largest first, and only when the
    quick bound stays above thr."""
    card, tabs, splits, n_axis = T[T_CARD], T[T_TABS], T[T_SPLITS], T[T_NAXIS]
    free, sufcnt = RUN[0], RUN[2]
    dp, dl, dj, pr, work, ctx, ctx2 = W[0], W[1], W[2], W[3], W[4], W[6], W[7]
    nf = free.shape[0]
    _facts(P, np_, q0, RUN[8], card, RUN, ctx)
    maxall = ctx[X_MAXALL]
    for i in range(q0, nf):
        dp[i] = 0
    fixed = 0
    joint_row = -1
    for q in range(np_):
        c = P[q]
        left, val = card_rows(c, P, np_, _i(-1), cnt, sufcnt[q0], _i(-1), ctx, q0, k,
                              _i(joint_row < 0), T, RUN, dp, dl, pr)
        if left < 0:
            joint_row = -1 - left
        v = strength_of(c, card, maxall) + val
        fixed += v if v > 0 else 0
    if k == 0:
        return fixed, fixed
    for i in range(q0, nf):
        own_out[i] = own_in[i]
        v = strength_of(free[i], card, maxall) + own_in[i]
        m[i] = dp[i] + (v if v > 0 else 0)
    cheap = 0
    if joint_row >= 0:
        cheap = runs_bound(P, np_, _i(-1), free, q0, nf, k, tabs[joint_row], splits[joint_row],
                           card, n_axis)
    ub = fixed + cheap + _top_sum(m, q0, nf, _i(-1), k)
    if ub > thr:
        # the exact contributions of the cards that may be among the k largest
        order = W[5]
        _sort_desc(m, q0, nf, order)
        top = np.zeros(k + 1, dtype=np.int64)  # the k largest exact values, largest first
        nt = 0
        for p in range(nf - q0):
            i = order[p]
            if nt >= k and top[k - 1] >= m[i]:
                break
            own = _own(i, P, np_, cnt, ctx, q0, k, T, RUN, dj, dl, pr, ctx2)
            if own < own_out[i]:
                own_out[i] = own
            v = strength_of(free[i], card, maxall) + own_out[i]
            m[i] = dp[i] + (v if v > 0 else 0)
            x = m[i]
            if nt < k:
                w = nt
                nt += 1
            elif x > top[k - 1]:
                w = k - 1
            else:
                continue
            while w > 0 and top[w - 1] < x:
                top[w] = top[w - 1]
                w -= 1
            top[w] = x
        ub = fixed + cheap + _top_sum(m, q0, nf, _i(-1), k)
    if joint_row < 0 or ub <= thr:
        return fixed + cheap, ub
    joint = runs_joint(P, np_, free, q0, nf, k, m, tabs[joint_row], splits[joint_row], card,
                       n_axis, work)
    if fixed + joint < ub:
        ub = fixed + joint
    return fixed + cheap, ub


@njit(cache=True, nogil=True, inline="always")
def hand_value(P, np_, cnt, T, RUN, W):
    """At least the evaluator's total of the hand P, whatever the choices (W[8] receives
    each card's part). Inlined where it is called: as a call of its own it cost more than
    the bound itself (inlining card_rows or _over as well gained nothing more)."""
    card = T[T_CARD]
    dp, dl, pr, ctx, vals = W[0], W[1], W[3], W[6], W[8]
    nf = RUN[0].shape[0]
    _facts(P, np_, nf, np_, card, RUN, ctx)  # no free card
    zero = RUN[2][nf]  # the counts of an empty R
    total = 0
    for q in range(np_):
        c = P[q]
        _, val = card_rows(c, P, np_, _i(-1), cnt, zero, _i(-1), ctx, nf, _i(0), _i(0), T, RUN,
                           dp, dl, pr)
        v = strength_of(c, card, ctx[X_MAXALL]) + val
        vals[q] = v if v > 0 else 0
        total += vals[q]
    return total - sure_blanked(P, np_, T, vals)


@njit(cache=True, nogil=True)
def _shown_bit(y, card, sure):
    """0 where card y shows its printed suits, s + 1 where Book of Changes changed it to
    suit s (it shows s and the suits it keeps, R17: any s it keeps shows the same)."""
    shown = card[y, C_SUITS]
    if shown == sure[y, S_PRINTED]:
        return 0
    rest = shown & ~card[y, C_KEEP]
    if rest == 0:
        rest = shown
    s = 0
    while not (rest >> s) & 1:
        s += 1
    return s + 1


@njit(cache=True, nogil=True)
def sure_blanked(P, np_, T, vals):
    """Sets to 0 the part vals[q] of each card that a card of the hand P surely blanks, and
    returns the points so taken off (a blanked card scores 0, R8; the bound of the others
    stands, as it holds whoever is blanked). Card b surely blanks card y where b's blanking
    hits y as it stands (``blank``) and no card of the hand may keep b's blanking from
    applying (``meddle``: a card that may blank
    b, clear its penalty, protect or make immune; and a copy from the hand that copies b,
    or may, where a copy of b's penalty would blank b). A card b whose blanking hits itself
    is then surely blanked, and blanks nothing (a loop, R8 b: Wildfire changed to a Land);
    a copy from the hand of a card whose blanking hits such a copy and the card itself leave
    one of them unblanked at most (_twins, R1). Nothing is taken off
    while a choice that may change that is open: Book of Changes' change, a copy from the
    hand's identity, a copy from the game that takes a penalty (the closer look tries them
    one by one, and the tables then show the choice made); a copy, or a card the closer
    look lets show every suit (C_ANY), is
    never counted on, as blanker or as blanked."""
    card, blank, meddle, sure = T[T_CARD], T[T_BLANK], T[T_MEDDLE], T[T_SURE]
    hand_copy = False  # a copy from the hand of no fixed identity
    copied = _i(-1)  # the card a copy from the hand copies, where a closer look fixed it
    twin = _i(-1)  # (that copy's position in P)
    some = False
    for q in range(np_):
        y = P[q]
        if card[y, C_BOOK] == 1 or card[y, C_HCOPY] > 0 or sure[y, S_COPY] == 3:
            return 0
        if sure[y, S_COPY] == 1:
            if card[y, C_AS] == -1:
                hand_copy = True
            elif card[y, C_AS] >= 0:
                copied = card[y, C_AS]
                twin = q
        if sure[y, S_BLANKER] == 1:
            some = True
    if not some:
        return 0
    off = 0
    for qb in range(np_):
        b = P[qb]
        if sure[b, S_BLANKER] == 0 or card[b, C_ANY] == 1:
            continue
        kb = _shown_bit(b, card, sure)
        safe = True
        for qx in range(np_):
            if (meddle[P[qx], b] >> kb) & 1:
                safe = False
                break
        if not safe:
            continue
        if (sure[b, S_LOOP] >> kb) & 1:  # it blanks itself, and so nothing else (R8 b),
            off += vals[qb]  # whoever else may blank it
            vals[qb] = 0
            continue
        if (hand_copy or b == copied) and (sure[b, S_SELF] >> kb) & 1:
            continue  # the copy of its penalty may blank it
        for qy in range(np_):
            y = P[qy]
            if vals[qy] == 0 or card[y, C_ANY] == 1 or (kb > 0 and sure[y, S_ONLY] == 1):
                continue  # (C7 reads b as printed)
            if (blank[b, y] >> _shown_bit(y, card, sure)) & 1:
                off += vals[qy]
                vals[qy] = 0
    if twin >= 0 and sure[copied, S_TWIN] == 1:
        off += _twins(P, np_, copied, twin, T, vals)
    return off


@njit(cache=True, nogil=True)
def _twins(P, np_, z, qd, T, vals):
    """The copy from the hand at P[qd] copies z, whose blanking hits a copy of itself (R1:
    two Basilisks blank each other). As long as nothing may clear either penalty or protect
    either card, at most one of the two is left unblanked (were both, z's penalty would
    blank the copy), so the smaller part of the two is taken off (and returned). Which
    other cards they blank is not sure: alone, the two cancel out and blank nothing (R8 b).
    Not where Book of Changes changed either, or a closer look lets either show every
    suit."""
    card, meddle, sure = T[T_CARD], T[T_MEDDLE], T[T_SURE]
    d = P[qd]
    if card[z, C_ANY] == 1 or card[d, C_ANY] == 1 or _shown_bit(z, card, sure) != 0 \
            or card[d, C_SUITS] != card[z, C_COPY]:
        return 0
    qz = -1
    for q in range(np_):
        x = P[q]
        if x == z:
            qz = q
        elif meddle[x, z] & 1:  # (read for z as printed: the copy shows z's name and suits)
            return 0
    if qz < 0:
        return 0
    if vals[qz] < vals[qd]:
        qd, qz = qz, qd
    off = vals[qd]
    vals[qd] = 0
    return off


# -- a closer look at a hand whose bound beats the bar ------------------------------------------

@njit(cache=True, nogil=True)
def _faces_fit(P, flex, nflex, u, used, card):
    """Whether the copies from the game flex[u:] can show faces of pairwise other suits."""
    if u == nflex:
        return True
    y = P[flex[u]]
    for f in range(card[y, C_NFACES]):
        m = card[y, C_FACES + f]
        if not (used & m) and _faces_fit(P, flex, nflex, u + 1, used | m, card):
            return True
    return False


@njit(cache=True, nogil=True)
def _distinct(P, keep, freed, card, flex):
    """Whether the cards P[q] (bit q of keep) may all be of different suits: a copy from the
    game shows one of its faces, a copy from the hand any card's (free), and the card at
    position freed (-1: none) takes any suit (Book of Changes)."""
    used = np.int64(0)
    nflex = 0
    q = 0
    while keep >> q:
        if (keep >> q) & 1 and q != freed:
            y = P[q]
            if card[y, C_HCOPY] > 0:
                pass
            elif card[y, C_NFACES] > 0:
                flex[nflex] = q
                nflex += 1
            else:
                m = card[y, C_SUITS]
                if used & m:
                    return False
                used |= m
        q += 1
    return _faces_fit(P, flex, nflex, _i(0), used, card)


@njit(cache=True, nogil=True)
def _distinct_over(P, np_, total, vals, thr, book_free, T, flex):
    """Whether a bound of the hand that pays every-card-of-a-different-suit bonuses (World
    Tree) only with the cards kept of different suits still beats thr. The bonus needs the
    cards not kept blanked (they score 0), so the hand scores at most the larger of its
    parts without the bonus, and the bonus plus the parts of a set of cards, the bonus's
    card among them, that may all be of different suits."""
    card, rows, rstart = T[T_CARD], T[T_ROWS], T[T_RSTART]
    owner = -1
    a = 0
    for q in range(np_):
        c = P[q]
        for r in range(rstart[c], rstart[c + 1]):
            if rows[r, R_KIND] == DISTINCT:
                if owner >= 0:
                    return True  # two such bonuses: not looked at more closely
                owner = q
                a = rows[r, R_A]
    if owner < 0:
        return total > thr
    rest = vals[owner] - a if vals[owner] > a else 0
    if total - vals[owner] + rest > thr:
        return True  # above it without the bonus
    for keep in range(1 << np_):
        if not (keep >> owner) & 1:
            continue
        weight = a + rest
        for q in range(np_):
            if q != owner and (keep >> q) & 1:
                weight += vals[q]
        if weight <= thr:
            continue
        if _distinct(P, keep, _i(-1), card, flex):
            return True
        if book_free:
            for q in range(np_):
                if (keep >> q) & 1 and _distinct(P, keep, _i(q), card, flex):
                    return True
    return False


@njit(cache=True, nogil=True, inline="always")
def _over(P, np_, cnt, thr, book_free, T, RUN, W, flex):
    """The bound of the hand P (``hand_value``) where it beats thr, looked at with World
    Tree's cards of different suits (_distinct_over); thr where it does not."""
    total = hand_value(P, np_, cnt, T, RUN, W)
    if total <= thr or not _distinct_over(P, np_, total, W[8], thr, book_free, T, flex):
        return thr
    return total


@njit(cache=True, nogil=True)
def _read_groups(P, np_, T, rel):
    """The groups the rows of the cards of P read (rel[:n], n returned): a group no row of
    the hand reads does not change its bound (``prep``, ``delta``; any selector counted)."""
    rows, rstart = T[T_ROWS], T[T_RSTART]
    G = T[T_MATCH].shape[0]
    n = 0
    for g in range(G):
        seen = False
        for q in range(np_):
            c = P[q]
            for r in range(rstart[c], rstart[c + 1]):
                kind = rows[r, R_KIND]
                if rows[r, R_SEL] == g:
                    seen = True
                if kind == POINTS:
                    for t in range(rows[r, R_NT]):
                        if rows[r, R_T + 2 * t] == g:
                            seen = True
                    for t in range(rows[r, R_NG]):
                        if rows[r, R_G + t] == g:
                            seen = True
                if seen:
                    break
            if seen:
                break
        if seen:
            rel[n] = g
            n += 1
    return n


@njit(cache=True, nogil=True)
def _suits_around(P, np_, c, card):
    """The suits the cards of P but c may show (a copy from the game: any of its faces)."""
    out = np.int64(0)
    for q in range(np_):
        y = P[q]
        if y == c:
            continue
        out |= card[y, C_SUITS]
        for f in range(card[y, C_NFACES]):
            out |= card[y, C_FACES + f]
    return out


@njit(cache=True, nogil=True)
def _blanked_alike(P, np_, c, s, s2, T):
    """Whether card c changed to suit s or to suit s2 stands alike for the sure blanking
    (sure_blanked): blanked by the same cards of P, stopped by the same ones, blanking
    itself (or by a copy of its penalty) in both or in neither."""
    blank, meddle, sure = T[T_BLANK], T[T_MEDDLE], T[T_SURE]
    a = s + 1
    b = s2 + 1
    if ((sure[c, S_LOOP] >> a) ^ (sure[c, S_LOOP] >> b)) & 1 or \
            ((sure[c, S_SELF] >> a) ^ (sure[c, S_SELF] >> b)) & 1:
        return False
    for q in range(np_):
        x = P[q]
        if ((blank[x, c] >> a) ^ (blank[x, c] >> b)) & 1 or \
                ((meddle[x, c] >> a) ^ (meddle[x, c] >> b)) & 1:
            return False
    return True


@njit(cache=True, nogil=True)
def _same_suit(s, taken, nrel, rel, chg, ident, got, P, np_, c, T):
    """An earlier suit tried (got) that Book of Changes' change of card c to suit s cannot
    be told from, or -1: neither is a suit another card of the hand may show (nor one the
    card keeps), so suit counts (World Tree, collections) are the same, every group the
    hand reads selects the card changed to either alike, and the sure blanking stands
    alike (_blanked_alike: Wildfire spares a Weather, not a Flood): the bound is the
    same."""
    if (taken >> s) & 1:
        return -1
    for s2 in range(s):
        if got[s2] == 0 or (taken >> s2) & 1:
            continue
        alike = True
        for i in range(nrel):
            g = rel[i]
            if chg[g, ident, s2] != chg[g, ident, s]:
                alike = False
                break
        if alike and _blanked_alike(P, np_, c, s, s2, T):
            return s2
    return -1


@njit(cache=True, nogil=True, inline="always")
def _record(rec, n, z, c, s, value):
    """n + 1, with the option (z, c, s) and its bound written to rec[n] where rec is not
    empty (see _book_over)."""
    if rec.shape[0] > 0:
        rec[n, 0] = z
        rec[n, 1] = c
        rec[n, 2] = s
        rec[n, 3] = value
    return n + 1


@njit(cache=True, nogil=True, inline="always")
def _book_over(P, np_, cnt, thr, book, d, z, free, T, RUN, W, L, rec, n0):
    """Whether the bound of P beats thr with the change of Book of Changes (at book; -1:
    none) tried card by card and suit by suit, in the tables of L (the copy from the hand at
    d, if any, already shows card z there: -1, itself). free: a card may take any suit for
    World Tree (a Book's change not tried). One call of _over only: each call site would
    compile the whole bound once more.
    A suit the hand cannot tell from one already tried for the same card (_same_suit) takes
    that suit's bound, exactly, without a second call. Before its suits, a card is tried
    showing every suit at once (selected by every group any change may bring it into, and
    any suit for World Tree): a bound of all its changes, so that where it does not beat
    thr, none of them is tried.

    Returns n0 + 1 at the first change that beats thr, or n0 when none does; with ``rec``
    (not empty) every such change is written to rec[n0:] as (z, the card changed, its new
    suit, its bound; -1, -1: no change) and the new count returned (see
    :func:`refined_over`)."""
    card, match, n_suits, chg = T[T_CARD], T[T_MATCH], T[T_NSUITS], T[T_CHG]
    T_l = L[0]
    card_l, match_l, cnt_l, flex, col = T_l[0], T_l[1], L[1], L[2], L[3]
    rel, got, vals = L[6], L[7], L[8]
    G = match.shape[0]
    options = 1
    nrel = 0
    step = n_suits + 1
    if book >= 0:
        card_l[book, C_BOOK] = 0
        options += np_ * step
        nrel = _read_groups(P, np_, T, rel)
    found = n0
    taken = np.int64(0)
    skip = -1
    for opt in range(options):  # 0: no change; then per card its screen, then each suit
        c = -1
        s = -1
        suits = 0
        nfaces = 0
        screen = False
        if opt > 0:
            c = P[(opt - 1) // step]
            s = (opt - 1) % step - 1
            if c in (book, skip) or card[c, C_UNCH] == 1:
                continue
            ident = z if c == d and z >= 0 else c  # a copy keeps the name it took
            keeps = 0 if c == d else card[c, C_KEEP]  # a copy's suits are all replaced
            suits = card_l[c, C_SUITS]
            nfaces = card_l[c, C_NFACES]
            if s < 0:  # the card showing every suit at once: a bound of all its changes
                screen = True
                taken = _suits_around(P, np_, c, card_l) | keeps
                for g in range(G):
                    col[g] = match_l[g, c]
                    m = 0
                    for s2 in range(n_suits):
                        m |= chg[g, ident, s2]
                    match_l[g, c] = m
                    cnt_l[g] = cnt[g] - col[g] + m
                card_l[c, C_SUITS] = ((np.int64(1) << n_suits) - 1) | keeps
                card_l[c, C_ANY] = 1
            else:
                shown = (np.int64(1) << s) | keeps
                got[s] = 0
                if nfaces == 0 and shown == suits:
                    continue  # no change
                same = _same_suit(s, taken, nrel, rel, chg, ident, got, P, np_, c, T)
                if same >= 0:  # a suit the hand cannot tell from one tried: the same bound
                    got[s] = 1
                    vals[s] = vals[same]
                    if vals[s] > thr:
                        found = _record(rec, found, z, c, s, vals[s])
                        if rec.shape[0] == 0:
                            break
                    continue
                for g in range(G):
                    col[g] = match_l[g, c]
                    match_l[g, c] = chg[g, ident, s]
                    cnt_l[g] = cnt[g] - col[g] + chg[g, ident, s]
                card_l[c, C_SUITS] = shown
            card_l[c, C_NFACES] = 0
        else:
            for g in range(G):
                cnt_l[g] = cnt[g]
        value = _over(P, np_, cnt_l, thr, _i(free or screen), T_l, RUN, W, flex)
        keep = value > thr
        if c >= 0:
            for g in range(G):
                match_l[g, c] = col[g]
            card_l[c, C_SUITS] = suits
            card_l[c, C_NFACES] = nfaces
            if screen:
                card_l[c, C_ANY] = 0
                if not keep:
                    skip = c  # no change of this card may beat thr
                continue
            got[s] = 1
            vals[s] = value
        if keep:
            found = _record(rec, found, z, c, s, value)
            if rec.shape[0] == 0:
                break
    if book >= 0:
        card_l[book, C_BOOK] = 1
    return found


@njit(cache=True, nogil=True)
def refined_over(P, np_, cnt, thr, T, RUN, W, L, screen, FC, FMASK, FM, rec):
    """Whether a closer bound of the hand P still beats thr, the choices tried one by one in
    the order of resolution: what a copy from the hand copies (a card held, as printed, or
    nothing, R1), then Book of Changes' change, card by card and suit by suit (in the plain
    bound, a card of any suit helping every bonus at once); and World Tree's bonus only with
    cards of different suits (see _distinct_over). L holds this thread's copies of the card
    and match tables, changed and restored here. With two Books or two copies, the plain
    bound stands, but for World Tree.

    ``screen`` (1): a copy's identity whose bound with the copies from the game showing one
    face at a time (_faces_over, with FC, FMASK, FM) and the Book's change left open (the
    plain bound, a bound too) does not beat thr is not looked at change by change: with both
    a copy and a Book that costs a few bounds per identity instead of one per change. The
    sweep of ``max`` passes 0 (its closer look as it was measured; the face arrays are then
    not read: any arrays of their types do).

    Returns how many of the options tried beat thr: 0 or 1 (it stops at the first), or,
    with ``rec`` not empty (``best``, :mod:`.batch.pruned`), all of them, each written to
    ``rec`` as (the copy's identity, the card Book of Changes changes, its suit, its
    bound): -1 for no copy from the hand or the copy taking nothing, -1, -1 for no Book or
    no change; one row of -2 (and the hand's bound) when the plain bound stands (two Books
    or two copies): the hand as a whole. Each option's bound is at least the best total of
    the hands with that option fixed, so an option left out cannot beat thr however the
    other choices are made. (Empty: L[5].)"""
    card, selfm = T[T_CARD], T[T_SELFM]
    T_l = L[0]
    card_l, match_l, cnt2 = T_l[0], T_l[1], L[4]
    book = -1
    books = 0
    d = -1
    copies = 0
    for q in range(np_):
        y = P[q]
        if card[y, C_BOOK] == 1:
            books += 1
            book = y
        if card[y, C_HCOPY] > 0:
            copies += 1
            d = y
    plain = books > 1 or copies > 1
    free = _i(plain and books > 0)
    if plain:
        book = -1
        d = -1
    G = match_l.shape[0]
    saved = (card_l[max(d, 0), C_HCOPY], card_l[max(d, 0), C_STR], card_l[max(d, 0), C_AXIS],
             card_l[max(d, 0), C_SUITS], card_l[max(d, 0), C_ODD], card_l[max(d, 0), C_PEN])
    found = _i(0)
    for q in range(-1, np_):  # the copy's identities (one round without a copy)
        z = -1 if q < 0 else P[q]
        if q >= 0 and (d < 0 or z == d):
            continue
        if d >= 0:
            card_l[d, C_HCOPY] = 0
            card_l[d, C_AS] = z if z >= 0 else -2
            if z >= 0:  # it takes the card's name, strength, suits and penalty
                card_l[d, C_STR] = card[z, C_STR]
                card_l[d, C_AXIS] = card[z, C_AXIS]
                card_l[d, C_SUITS] = card[z, C_COPY]  # a Phoenix copied is only a Beast
                card_l[d, C_ODD] = card[z, C_ODD]
                card_l[d, C_PEN] = card[z, C_PEN]
            else:
                card_l[d, C_ODD] = card[d, C_STR] % 2
        for g in range(G):
            m = 0
            if d >= 0:
                m = match_l[g, z] if z >= 0 else selfm[g, d]
                match_l[g, d] = m
            cnt2[g] = cnt[g] + m
        keep = True
        if screen and book >= 0 and d >= 0:  # one bound first, then one per pair of faces
            keep = _over(P, np_, cnt2, thr, _i(1), T_l, RUN, W, L[2]) > thr
        if keep and screen and d >= 0:
            keep = _faces_over(P, np_, cnt2, thr, T, RUN, W, L, FC, FMASK, FM)
        if keep:
            found = _book_over(P, np_, cnt2, thr, _i(book), _i(d), _i(z), free, T, RUN, W, L,
                               rec, found)
        if d >= 0:
            card_l[d, C_HCOPY], card_l[d, C_STR], card_l[d, C_AXIS], card_l[d, C_SUITS], \
                card_l[d, C_ODD], card_l[d, C_PEN] = saved
            card_l[d, C_AS] = -1
            for g in range(G):
                match_l[g, d] = 0
        if found > 0 and rec.shape[0] == 0:
            break
    if plain and found > 0 and rec.shape[0] > 0:
        rec[0, 0] = -2
        rec[0, 1] = -2
        rec[0, 2] = -2
        rec[0, 3] = hand_value(P, np_, cnt, T, RUN, W)
        found = 1
    return found


def scratch(T: tuple) -> tuple:
    """This thread's copies for refined_over (from Python)."""
    return _scratch(T)


@njit(cache=True, nogil=True)
def _scratch(T):
    card_l = T[T_CARD].copy()
    match_l = T[T_MATCH].copy()
    # T with its first two arrays copied (the order of T_CARD … T_SURE)
    T_l = (card_l, match_l, T[T_GSUIT], T[T_GOTHER], T[T_ROWS], T[T_TABS], T[T_SPLITS],
           T[T_RSTART], T[T_MEM], T[T_MSTART], T[T_NAMES], T[T_HOLDERS], T[T_NSUITS],
           T[T_NAXIS], T[T_CHG], T[T_SELFM], T[T_BLANK], T[T_MEDDLE], T[T_SURE])
    G = match_l.shape[0]
    S = max(T[T_NSUITS], 1)
    return (T_l, np.zeros(G, dtype=np.int64), np.zeros(MAX_HAND + 1, dtype=np.int64),
            np.zeros(G, dtype=np.int64), np.zeros(G, dtype=np.int64),
            np.zeros((0, 4), dtype=np.int64), np.zeros(G, dtype=np.int64),
            np.zeros(S, dtype=np.int64), np.zeros(S, dtype=np.int64))


# -- the sweep ----------------------------------------------------------------------------------

MAX_HAND = 12  # cards per hand the sweep handles
OUT = MAX_HAND + 1  # a found hand: its cards (-1 padded), then its bound


@njit(cache=True, nogil=True)
def _push(y, P, np_, cnt, match):
    P[np_] = y
    for g in range(match.shape[0]):
        cnt[g] += match[g, y]
    return np_ + 1


@njit(cache=True, nogil=True)
def _pop(P, np_, cnt, match):
    np_ -= 1
    y = P[np_]
    for g in range(match.shape[0]):
        cnt[g] -= match[g, y]
    return np_


@njit(cache=True, nogil=True)
def _legal(P, np_, need_fit, fitm):
    """A hand past the hand size holds a card an extra-card effect in it may take."""
    if need_fit == 0:
        return True
    for a in range(np_):
        for b in range(np_):
            if a != b and fitm[P[a], P[b]] == 1:
                return True
    return False


@njit(cache=True, nogil=True)
def _suffix_tops(m, q0, nf, k, sfx):
    """sfx[i] = the sum of the k largest m[i + 1:nf], for i in q0..nf-1."""
    buf = np.zeros(k + 1, dtype=np.int64)
    nb = 0
    total = 0
    for i in range(nf - 1, q0 - 1, -1):
        sfx[i] = total
        if k == 0:
            continue
        v = m[i]
        if nb < k:
            p = nb
            nb += 1
            total += v
        elif v > buf[k - 1]:
            total += v - buf[k - 1]
            p = k - 1
        else:
            continue
        while p > 0 and buf[p - 1] < v:
            buf[p] = buf[p - 1]
            p -= 1
        buf[p] = v


@njit(cache=True, nogil=True)
def _workspace(nf):
    """Scratch arrays for node_bound (one set per thread)."""
    return (np.zeros(nf + 1, dtype=np.int64), np.zeros(nf + 1, dtype=np.int64),
            np.zeros(nf + 1, dtype=np.int64), np.zeros(PREP, dtype=np.int64),
            np.zeros((2, MAX_HAND + 1, TABLE), dtype=np.int64),
            np.zeros(nf + 1, dtype=np.int64), np.zeros(CTX, dtype=np.int64),
            np.zeros(CTX, dtype=np.int64), np.zeros(MAX_HAND + 1, dtype=np.int64))


def workspace(nf: int) -> tuple:
    """The same scratch arrays, made in Python for the calls from ``sweep.py`` (no compiled
    call needed for them)."""
    return _workspace.py_func(nf)


@njit(cache=True, nogil=True, inline="always")
def _leaves(P, np_, cnt, q0, screen, m, thr, T, RUN, W, L, out, found, limit, stats, ro):
    """The hands P + one free card from q0 whose bound beats the threshold, and still does
    when looked at more closely (refined_over), go to out with their bound."""
    free, fitm, need_fit = RUN[0], RUN[6], RUN[7]
    match = T[T_MATCH]
    for i in range(q0, free.shape[0]):
        if screen + m[i] <= thr[0]:
            continue
        np_ = _push(free[i], P, np_, cnt, match)
        if _legal(P, np_, need_fit, fitm):
            stats[1] += 1
            v = hand_value(P, np_, cnt, T, RUN, W)
            if v > thr[0] and ro(P, np_, cnt, thr[0], T, RUN, W, L, _i(0), T[T_RSTART],
                                 T[T_CARD], T[T_CHG], L[5]) > 0:
                if found >= limit:
                    np_ = _pop(P, np_, cnt, match)
                    return -1
                for q in range(OUT - 1):
                    out[found, q] = P[q] if q < np_ else -1
                out[found, OUT - 1] = v
                found += 1
        np_ = _pop(P, np_, cnt, match)
    return found


def signatures(T: tuple, RUN: tuple) -> tuple:
    """The signatures of node_bound and refined_over as the sweep calls them: sweep_part and
    part_bounds take them as first-class functions of these types (see :func:`entry`)."""
    from numba import typeof, types

    i64 = types.int64
    tt, run = typeof(T), typeof(RUN)
    L = scratch(T)
    W = typeof(workspace(RUN[0].shape[0]))
    row = typeof(np.zeros(1, dtype=np.int64))
    node = types.UniTuple(i64, 2)(row, i64, row, i64, i64, tt, run, row, row, row, i64, W)
    refine = i64(row, i64, row, i64, tt, run, W, typeof(L), i64, tt[7], tt[0], tt[14],
                 typeof(L[5]))
    return node, refine


def ready(fn, sig) -> None:
    """Compile fn for sig's argument types (or load it from the cache) before a call passes
    it as a first-class function; always keyed by the argument types alone, as a call from
    Python keys it, so that the cache holds one copy."""
    fn.compile(tuple(sig.args))


def entry(fn, args: tuple, *sigs):
    """fn compiled for the types of ``args`` followed by first-class functions of the
    signatures ``sigs``, and its entry point (called with args and those functions).

    Called through a pointer, a function passed so is not linked into fn's code: compiling
    fn does not optimise its code a second time, and another process may compile it
    meanwhile (``sweep_early``)."""
    from numba import typeof, types

    key = tuple(typeof(a) for a in args) + tuple(types.FunctionType(s) for s in sigs)
    fn.compile(key)
    return fn.overloads[key].entry_point


@njit(cache=True, nogil=True)
def _start(P0, n0, T):
    match = T[T_MATCH]
    P = np.zeros(MAX_HAND + 1, dtype=np.int64)
    cnt = np.zeros(match.shape[0], dtype=np.int64)
    np_ = _i(0)
    for q in range(n0):
        np_ = _push(P0[q], P, np_, cnt, match)
    return P, np_, cnt


@njit(cache=True, nogil=True)
def sweep_part(P0, n0, first, second, T, RUN, thr, out, limit, stats, beam, nb, ro):
    """Every hand of RUN's size holding P0[:n0], free[first] and free[second] (-1: none)
    and further free cards after them: the hands whose bound beats thr[0] (read as the sweep
    goes, so that a better hand found meanwhile prunes the rest) are written to out.
    Returns how many (-1: more than limit).

    With beam > 0 only the beam most promising branches below each branch are followed (a
    dive for good hands, which proves nothing)."""
    match = T[T_MATCH]
    free, own0, fitm, need_fit, size = RUN[0], RUN[5], RUN[6], RUN[7], RUN[8]
    nf = free.shape[0]
    P, np_, cnt = _start(P0, n0, T)
    np_ = _push(free[first], P, np_, cnt, match)
    q0 = first + 1
    if second >= 0:
        np_ = _push(free[second], P, np_, cnt, match)
        q0 = second + 1
    k = size - np_
    W = _workspace(nf)
    L = _scratch(T)
    if k == 0:
        if _legal(P, np_, need_fit, fitm):
            v = hand_value(P, np_, cnt, T, RUN, W)
            if v > thr[0]:
                for q in range(OUT - 1):
                    out[0, q] = P[q] if q < np_ else -1
                out[0, OUT - 1] = v
                return 1
        return 0
    if nf - q0 < k:
        return 0
    depth_max = k + 1
    m = np.zeros((depth_max, nf + 1), dtype=np.int64)
    own = np.zeros((depth_max, nf + 1), dtype=np.int64)
    kids = np.zeros((depth_max, nf + 1), dtype=np.int64)
    kidb = np.zeros((depth_max, nf + 1), dtype=np.int64)
    nk = np.zeros(depth_max, dtype=np.int64)
    ptr = np.zeros(depth_max, dtype=np.int64)
    ks = np.zeros(depth_max, dtype=np.int64)
    sfx = np.zeros(nf + 1, dtype=np.int64)
    found = _i(0)
    depth = 0
    ks[0] = k
    qcur = q0
    while True:
        # a new branch: P, free[qcur:], ks[depth] cards to take
        stats[0] += 1
        kk = ks[depth]
        own_in = own[depth - 1] if depth > 0 else own0
        screen, ub = nb(P, np_, cnt, qcur, kk, T, RUN, m[depth], own_in, own[depth], thr[0],
                        W)
        nk[depth] = 0
        ptr[depth] = 0
        if ub > thr[0]:
            if kk == 1:
                found = _leaves(P, np_, cnt, qcur, screen, m[depth], thr, T, RUN, W, L, out,
                                found, limit, stats, ro)
                if found < 0:
                    return -1
            else:
                _suffix_tops(m[depth], qcur, nf, kk - 1, sfx)
                n = 0
                for i in range(qcur, nf - kk + 1):
                    b = screen + m[depth, i] + sfx[i]
                    if b > thr[0]:
                        kids[depth, n] = i
                        kidb[depth, n] = b
                        n += 1
                if beam > 0 and n > beam:  # keep the beam largest bounds, in order
                    for a in range(beam):
                        top = a
                        for c in range(a + 1, n):
                            if kidb[depth, c] > kidb[depth, top]:
                                top = c
                        kids[depth, a], kids[depth, top] = kids[depth, top], kids[depth, a]
                        kidb[depth, a], kidb[depth, top] = kidb[depth, top], kidb[depth, a]
                    n = beam
                nk[depth] = n
        # the next branch: the next child here, or back up
        while True:
            if ptr[depth] < nk[depth]:
                p = ptr[depth]
                ptr[depth] += 1
                if kidb[depth, p] <= thr[0]:
                    continue
                i = kids[depth, p]
                np_ = _push(free[i], P, np_, cnt, match)
                depth += 1
                ks[depth] = ks[depth - 1] - 1
                qcur = i + 1
                break
            if depth == 0:
                return found
            np_ = _pop(P, np_, cnt, match)
            depth -= 1


@njit(cache=True, nogil=True)
def part_bounds(P0, n0, first, T, RUN, out, thr, nb):
    """The branch P0 + free[first]: its bound, and in out[g] the bound of each branch that
    also takes free[g] (g > first; 0 when it cannot hold enough cards)."""
    match = T[T_MATCH]
    free, own0, size = RUN[0], RUN[5], RUN[8]
    nf = free.shape[0]
    P, np_, cnt = _start(P0, n0, T)
    np_ = _push(free[first], P, np_, cnt, match)
    k = size - np_
    for g in range(nf + 1):
        out[g] = 0
    if k <= 0 or nf - first - 1 < k:
        return 0
    m = np.zeros(nf + 1, dtype=np.int64)
    sfx = np.zeros(nf + 1, dtype=np.int64)
    own = np.zeros(nf + 1, dtype=np.int64)
    W = _workspace(nf)
    screen, ub = nb(P, np_, cnt, first + 1, k, T, RUN, m, own0, own, thr, W)
    _suffix_tops(m, first + 1, nf, k - 1, sfx)
    for g in range(first + 1, nf - k + 1):
        out[g] = screen + m[g] + sfx[g]
    return ub


@njit(cache=True, nogil=True)
def all_own(P0, n0, T, RUN, out):
    """out[i]: what the free card at i may score itself in any hand of RUN (P0 held): the
    own_in of the first branches (see node_bound)."""
    free, size = RUN[0], RUN[8]
    P, np_, cnt = _start(P0, n0, T)
    k = size - np_
    W = _workspace(free.shape[0])
    ctx = W[6]
    _facts(P, np_, _i(0), size, T[T_CARD], RUN, ctx)
    for i in range(free.shape[0]):
        out[i] = _own(i, P, np_, cnt, ctx, _i(0), k, T, RUN, W[2], W[1], W[3], W[7])


@njit(cache=True, nogil=True)
def gifts(P0, n0, T, RUN, out):
    """out[a, i]: what the free card at i adds to the bonuses of the free card at a, both
    held with P0[:n0] (for the sweep's order)."""
    free, size = RUN[0], RUN[8]
    nf = free.shape[0]
    P, np_, cnt = _start(P0, n0, T)
    W = _workspace(nf)
    ctx = W[6]
    for a in range(nf):
        np_ = _push(free[a], P, np_, cnt, T[T_MATCH])
        _facts(P, np_, _i(0), size, T[T_CARD], RUN, ctx)
        acc = out[a]
        for i in range(nf):
            acc[i] = 0
        card_rows(free[a], P, np_, _i(-1), cnt, RUN[2][0], free[a], ctx, _i(0), size - np_,
                  _i(0), T, RUN, acc, W[1], W[3])
        np_ = _pop(P, np_, cnt, T[T_MATCH])


# -- bounds of many hands at once (``best``, pruned: batch/pruned.py) ---------------------------

@njit(cache=True, nogil=True)
def _held_set(pool, mask, P, cnt, match):
    """P = the cards of pool at the positions of mask, cnt their group counts; returns how
    many."""
    for g in range(cnt.shape[0]):
        cnt[g] = 0
    np_ = 0
    for p in range(pool.shape[0]):
        if (mask >> p) & 1:
            np_ = _push(pool[p], P, np_, cnt, match)
    return np_


@njit(cache=True, nogil=True, inline="always")
def _faces_over(P, np_, cnt, thr, T, RUN, W, L, FC, FMASK, FM):
    """Whether the hand P may beat thr with each copy from the game (the first two held)
    showing one face at a time: in the plain bound it shows all of them at once. FC[y]: the
    faces of card y (0: not looked at), FMASK[y, f] their suits, FM[:, y, f] the groups
    that may select it (a superset: see ``pruned._Bound``). With a copy from the hand the
    plain bound stands (it reads what the other cards show), unless its identity is taken
    already (refined_over: it is then a card like any other in L). L holds this thread's
    copies of the card and match tables, changed here and restored from T (the copies from
    the game are never changed by refined_over)."""
    card, match = T[T_CARD], T[T_MATCH]
    T_l = L[0]
    card_l, match_l, cnt_l, flex = T_l[0], T_l[1], L[1], L[2]
    G = match_l.shape[0]
    a = -1
    b = -1
    books = 0
    for q in range(np_):
        y = P[q]
        if card_l[y, C_HCOPY] > 0:
            return True
        books += card[y, C_BOOK]
        if FC[y] > 0:
            if a < 0:
                a = y
            elif b < 0:
                b = y
    if a < 0:
        return True
    free = _i(books > 0)
    nb = FC[b] if b >= 0 else 1
    keep = False
    for fa in range(FC[a]):
        for fb in range(nb):
            for g in range(G):
                cnt_l[g] = cnt[g] - match[g, a] + FM[g, a, fa]
                match_l[g, a] = FM[g, a, fa]
                if b >= 0:
                    cnt_l[g] += FM[g, b, fb] - match[g, b]
                    match_l[g, b] = FM[g, b, fb]
            card_l[a, C_SUITS] = FMASK[a, fa]
            card_l[a, C_NFACES] = 0
            if b >= 0:
                card_l[b, C_SUITS] = FMASK[b, fb]
                card_l[b, C_NFACES] = 0
            keep = _over(P, np_, cnt_l, thr, free, T_l, RUN, W, flex) > thr
            if keep:
                break
        if keep:
            break
    for g in range(G):
        match_l[g, a] = match[g, a]
        if b >= 0:
            match_l[g, b] = match[g, b]
    card_l[a, C_SUITS] = card[a, C_SUITS]
    card_l[a, C_NFACES] = card[a, C_NFACES]
    if b >= 0:
        card_l[b, C_SUITS] = card[b, C_SUITS]
        card_l[b, C_NFACES] = card[b, C_NFACES]
    return keep


@njit(cache=True, nogil=True)
def option_rows(size, n_suits):
    """The most options ``refined_over`` may record for a hand of ``size`` cards: each
    identity of the copy (none, or a card held), each with no change or a change of a card
    to a suit."""
    return (size + 1) * (1 + size * n_suits)


@njit(cache=True, nogil=True)
def subset_bounds(pool, size, masks, thr, T, RUN, FC, FMASK, FM, out, rec):
    """Bounds of subsets of ``pool`` (card indices of the tables), for ``best``.

    With no masks (an empty array): every subset of ``size`` cards, in the order of
    ``itertools.combinations``, gets (its bound as ``hand_value``, the mask of its pool
    positions) in ``out[r]``. With masks: ``out[r, 0]`` is 1 when the closer looks
    (``_faces_over``, then ``refined_over``: two bounds, each one enough to show a subset
    below) leave the bound of the subset ``masks[r]`` above ``thr``, else 0; with ``rec``
    not empty, ``out[r, 0]`` is the number of options of its copy from the hand and its
    Book of Changes whose bound beats ``thr``, written to ``rec`` from row ``out[r, 1]`` on
    (``refined_over``; rec holds at least :func:`option_rows` rows per mask).
    One entry for all three, so that a process loads one compiled function. RUN holds no
    free card (``sweep.SweepRun`` of an empty sweep)."""
    match = T[T_MATCH]
    n = pool.shape[0]
    P = np.zeros(MAX_HAND + 1, dtype=np.int64)
    cnt = np.zeros(match.shape[0], dtype=np.int64)
    W = _workspace(RUN[0].shape[0])
    if masks.shape[0] > 0:
        L = _scratch(T)
        mine = L[5]
        if rec.shape[0] > 0:
            mine = np.zeros((option_rows(size, T[T_NSUITS]), 4), dtype=np.int64)
        at = 0
        for r in range(masks.shape[0]):
            np_ = _held_set(pool, masks[r], P, cnt, match)
            found = 0
            if _faces_over(P, np_, cnt, thr, T, RUN, W, L, FC, FMASK, FM):
                found = refined_over(P, np_, cnt, thr, T, RUN, W, L, _i(1), FC, FMASK, FM,
                                     mine)
            out[r, 0] = found
            out[r, 1] = at
            if rec.shape[0] > 0:
                for q in range(found):
                    for f in range(4):
                        rec[at + q, f] = mine[q, f]
                at += found
        return
    comb = np.zeros(size, dtype=np.int64)
    for i in range(size):
        comb[i] = i
    r = 0
    while True:
        mask = np.int64(0)
        for i in range(size):
            mask |= np.int64(1) << comb[i]
        np_ = _held_set(pool, mask, P, cnt, match)
        out[r, 0] = hand_value(P, np_, cnt, T, RUN, W)
        out[r, 1] = mask
        r += 1
        i = size - 1  # the next combination in lexicographic order
        while i >= 0 and comb[i] == i + n - size:
            i -= 1
        if i < 0:
            break
        comb[i] += 1
        for j in range(i + 1, size):
            comb[j] = comb[j - 1] + 1
