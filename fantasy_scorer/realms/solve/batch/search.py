"""Optimal choices and best hands from a pool, enumerated by compiled code.

The same enumeration as :mod:`..choices` and :mod:`..exhaustive` (copies first, then Book of
Changes, then Island and Angel; each extra card Necromancer may take; every subset of a pool),
with every leaf scored by :func:`.kernel.resolve_one`. Options that cannot change the score
are collapsed, and only those, so the maximum is exact:

* a copy (from the game or the hand) keeps one target per (name, suits, strength, penalty)
  it takes, where a name counts only if a card of the hand (or a Cursed Item) names it or,
  with a card that compares names (Collector), a card of the hand holds it;
* suits are alike when every term of the hand treats them alike (a suit nobody mentions is
  like any other such suit): Book of Changes tries one suit per class (with a card that
  compares suits, Collector, World Tree or Demon, each suit held in hand apart), never a
  change that changes nothing nor one that makes an open Mirage or Shapeshifter what it
  could have copied itself, and a copy's suits count by their classes (exactly, with such a
  card);
* Island tries only cards that have a penalty to clear;
* Angel tries only cards something in hand could blank (protecting another changes nothing).

These classes are never coarser than the ones of :mod:`..relevance`, so the maximum is the
one ``optimal_choices`` finds. A combination that makes a pinned Island target illegal is
skipped, as it is there (R4); a set is illegal only when every combination is.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import cache
from . import kernel as K
from . import tables as tb
from .kernel import (
    CV_CHANGE,
    CV_COPY,
    CV_NONE,
    CV_TARGET,
    ERROR,
    OK,
    S_CARD,
    S_NAME,
    S_PENU,
    S_SUITS,
    card,
    entry,
    helper,
    list_hits,
)

cache.install()  # the cache of this package's compiled code (see cache.py)

#: A chooser left open: the enumeration picks its value.
OPEN = tb.OPEN
#: Key fields of a copy option: name, suits, keeps suits, strength, penalty.
KEY_SIZE = 5
#: Pool cards a subset's own pins may fix (``subsets_batch``'s ``over``).
OVER_PINS = tb.OVER_PINS
NO_STRENGTH = -(1 << 60)


@helper
def _stage(M, OF, u):
    kind = card(M, OF, u, tb.CF_CHOICE)
    if kind == tb.CH_COPY_HAND or kind == tb.CH_COPY_GAME:
        return 0
    if kind == tb.CH_CHANGE:
        return 1
    return 2


@helper
def relevance(M, OF, cards, n, V, n_curs, REL):
    """What the hand's rules can tell apart (``relevance.relevance``). In ``REL``, per name:
    1 when a card names it, 2 when only a card of the hand holds it; then per suit (from
    ``REL[n_names]`` on) the first suit of its class, suits being alike when every term of
    the hand treats them alike (a suit no term mentions is like any other such suit).
    Returns (names compare as such: Collector; suits compare as such: Collector, World
    Tree, Demon; every name counts: two copies from the game that may take the same name
    with Collector, or a copy that takes a penalty from the game)."""
    n_names = OF[tb.O_NNAMES]
    n_suits = OF[tb.O_NSUITS]
    for q in range(n_names):
        REL[q] = 0
    words = np.int64(0)
    all_names = False
    all_suits = False
    wild = False
    overlap = False
    copies = np.int64(0)
    for i in range(n + n_curs):
        u = cards[i] if i < n else V[K.VC + i - n]
        b = OF[tb.O_CARD] + u * tb.CF_SIZE
        words |= M[b + tb.CF_WORDS]
        all_names |= M[b + tb.CF_ALLNAMES] != 0
        all_suits |= M[b + tb.CF_ALLSUITS] != 0
        wild |= M[b + tb.CF_WILDREL] != 0
        if i < n and M[b + tb.CF_CHOICE] == tb.CH_COPY_GAME:
            overlap |= (copies & M[b + tb.CF_COPYMASK]) != 0
            copies |= M[b + tb.CF_COPYMASK]
        row = OF[tb.O_MNAMES] + u * n_names
        for q in range(n_names):
            if M[row + q] != 0:
                REL[q] = 1
    for i in range(n):
        q = card(M, OF, cards[i], tb.CF_NAME)
        if REL[q] == 0:
            REL[q] = 2
    for s in range(n_suits):
        REL[n_names + s] = s
        for r in range(s):
            if REL[n_names + r] != r or (words >> s & 1) != (words >> r & 1):
                continue
            alike = True
            for i in range(n + n_curs):
                u = cards[i] if i < n else V[K.VC + i - n]
                for k in range(card(M, OF, u, tb.CF_TRM0), card(M, OF, u, tb.CF_TRM1)):
                    tt = OF[tb.O_TERM] + M[OF[tb.O_FLAT] + k] * tb.TF_SIZE
                    ts = M[tt + tb.TF_SUITS]
                    te = M[tt + tb.TF_EXS]
                    if (ts >> s & 1) != (ts >> r & 1) or (te >> s & 1) != (te >> r & 1):
                        alike = False
                        break
                if not alike:
                    break
            if alike:
                REL[n_names + s] = r
                break
    return all_names, all_suits, wild or (all_names and overlap)


@helper
def _classes(M, OF, REL, mask):
    """The classes (first suits) of a set of suits, as a mask."""
    base = OF[tb.O_NNAMES]
    out = np.int64(0)
    s = 0
    while mask:
        if mask & 1:
            out |= np.int64(1) << REL[base + s]
        mask >>= 1
        s += 1
    return out


@helper
def _blankable(M, OF, n, SL, i):
    """``choices.blankable``: whether anything in hand could blank slot ``i`` after steps
    1-2: its own condition, a blanking that selects it, or an "only card of its suit"
    penalty, every penalty read whole (unstruck, uncleared)."""
    full = M[OF[tb.O_PV] + SL[i, S_PENU] * OF[tb.O_PVW]]
    if K.pen(M, OF, full, tb.PF_CO0) < K.pen(M, OF, full, tb.PF_CO1):
        return True
    for j in range(n):
        p = M[OF[tb.O_PV] + SL[j, S_PENU] * OF[tb.O_PVW]]
        if K.pen(M, OF, p, tb.PF_LO0) < K.pen(M, OF, p, tb.PF_LO1):
            return True
        lo = K.pen(M, OF, p, tb.PF_BL0)
        hi = K.pen(M, OF, p, tb.PF_BL1)
        if lo < hi and K.can_blank(M, OF, SL, j, i):
            for k in range(lo, hi):
                if list_hits(M, OF, K.flat(M, OF, k), SL[i, S_NAME], SL[i, S_SUITS], i == j):
                    return True
    return False


@helper
def _copy_option(M, OF, v, takes, m, OPT, d, KEYS, REL, all_names, all_suits, every_name,
                 wild):
    """Card ``v`` as the ``m``-th option of a copy (``relevance.copy_signature``), unless an
    earlier option's key (name, suits, keeps suits, strength, penalty) is the same; returns
    the options' count after it."""
    name = card(M, OF, v, tb.CF_NAME)
    # a name counts if a card names it, or, for Collector, if the hand holds it
    named = every_name or REL[name] == 1 or (all_names and REL[name] == 2)
    k0 = name if (takes & tb.TAKE_NAME) and named else -1
    k1 = -1
    if takes & tb.TAKE_SUIT:
        k1 = card(M, OF, v, tb.CF_COPY_SUITS)
        if not all_suits:
            k1 = _classes(M, OF, REL, k1)
    k2 = 0  # a copy never keeps suits when blanked (R16)
    k3 = card(M, OF, v, tb.CF_STR) if takes & tb.TAKE_STRENGTH else NO_STRENGTH
    k4 = v if (takes & tb.TAKE_PENALTY) and card(M, OF, v, tb.CF_HASPEN) != 0 else -1
    if not wild:
        for q in range(m):
            if KEYS[q, 0] == k0 and KEYS[q, 1] == k1 and KEYS[q, 2] == k2 \
                    and KEYS[q, 3] == k3 and KEYS[q, 4] == k4:
                return m
    KEYS[m, 0] = k0
    KEYS[m, 1] = k1
    KEYS[m, 2] = k2
    KEYS[m, 3] = k3
    KEYS[m, 4] = k4
    OPT[d, m, 0] = CV_COPY
    OPT[d, m, 1] = v
    return m + 1


@helper
def _named(REL, q, all_names, every_name):
    """``relevance.named``: whether the hand tells name ``q`` apart."""
    return every_name or REL[q] == 1 or (all_names and REL[q] == 2)


@helper
def _copy_could(M, OF, SL, j, new, REL, all_names, all_suits, every_name):
    """``choices.copy_could``: slot ``j``, an open copy of a name and suits from the game,
    given ``new`` suits by a change, is what one of its own targets would make it."""
    u = SL[j, S_CARD]
    if card(M, OF, u, tb.CF_CHOICE) != tb.CH_COPY_GAME \
            or card(M, OF, u, tb.CF_TAKES) != (tb.TAKE_NAME | tb.TAKE_SUIT) \
            or card(M, OF, u, tb.CF_HASPEN) != 0 or card(M, OF, u, tb.CF_KEEPS) != 0:
        return False
    if _named(REL, SL[j, S_NAME], all_names, every_name):
        return False
    key = new if all_suits else _classes(M, OF, REL, new)
    for k in range(card(M, OF, u, tb.CF_TARG0), card(M, OF, u, tb.CF_TARG1)):
        v = M[OF[tb.O_FLAT] + k]
        if _named(REL, card(M, OF, v, tb.CF_NAME), all_names, every_name):
            continue
        lent = card(M, OF, v, tb.CF_COPY_SUITS)
        if (lent if all_suits else _classes(M, OF, REL, lent)) == key:
            return True
    return False


@helper
def _options(M, OF, i, n, SL, OPT, d, KEYS, REL, all_names, all_suits, every_name, wild,
             free):
    """The options of the chooser in slot ``i`` after the choices made so far (``SL`` holds
    the slots after steps 1-2), written to ``OPT[d]``; returns how many (None last).
    ``free``: the slots whose choice is open, as a mask."""
    u = SL[i, S_CARD]
    kind = card(M, OF, u, tb.CF_CHOICE)
    m = 0
    if kind == tb.CH_COPY_HAND:
        takes = card(M, OF, u, tb.CF_TAKES)
        for j in range(n):
            if j != i:
                m = _copy_option(M, OF, SL[j, S_CARD], takes, m, OPT, d, KEYS, REL, all_names,
                                 all_suits, every_name, wild)
    elif kind == tb.CH_COPY_GAME:
        takes = card(M, OF, u, tb.CF_TAKES)
        for k in range(card(M, OF, u, tb.CF_TARG0), card(M, OF, u, tb.CF_TARG1)):
            m = _copy_option(M, OF, M[OF[tb.O_FLAT] + k], takes, m, OPT, d, KEYS, REL,
                             all_names, all_suits, every_name, wild)
    elif kind == tb.CH_CHANGE:
        n_suits = OF[tb.O_NSUITS]
        first = OF[tb.O_NNAMES]
        held = np.int64(0)
        for j in range(n):
            held |= SL[j, S_SUITS]
        tried = np.int64(0)  # one suit per class; with Collector, each suit held apart
        for s in range(n_suits):
            if all_suits and (held >> s) & 1:
                tried |= np.int64(1) << s
                continue
            fresh = True
            for r in range(s):
                if REL[first + r] == REL[first + s] and not (all_suits and (held >> r) & 1):
                    fresh = False
                    break
            if fresh:
                tried |= np.int64(1) << s
        for j in range(n):
            if j == i or card(M, OF, SL[j, S_CARD], tb.CF_UNCHANGE) != 0:
                continue
            for s in range(n_suits):
                if not (tried >> s) & 1:
                    continue
                new = K.changed_suits(M, OF, SL, j, s)
                if new == SL[j, S_SUITS]:
                    continue  # no change at all (R17: a Phoenix made a Beast stays as it is)
                if (free >> j) & 1 and _copy_could(M, OF, SL, j, new, REL, all_names,
                                                   all_suits, every_name):
                    continue  # what the open copy could have made of itself
                OPT[d, m, 0] = CV_CHANGE
                OPT[d, m, 1] = j
                OPT[d, m, 2] = s
                m += 1
    elif kind == tb.CH_CLEAR_ONE:
        lst = card(M, OF, u, tb.CF_CLRONE)
        for j in range(n):
            if card(M, OF, SL[j, S_PENU], tb.CF_HASPEN) != 0 and list_hits(
                    M, OF, lst, SL[j, S_NAME], SL[j, S_SUITS], j == i):
                OPT[d, m, 0] = CV_TARGET
                OPT[d, m, 1] = j
                m += 1
    else:  # Angel: only a card something could blank (``choices.protect_choices``)
        for j in range(n):
            if j != i and _blankable(M, OF, n, SL, j):
                OPT[d, m, 0] = CV_TARGET
                OPT[d, m, 1] = j
                m += 1
    OPT[d, m, 0] = CV_NONE
    OPT[d, m, 1] = 0
    OPT[d, m, 2] = 0
    return m + 1


@helper
def _open_slots(M, OF, cards, n, CH, WORK):
    """The open choices of the hand (``CH[i, 0] == OPEN``) in the order they are made
    (copies, Book of Changes, the rest) to ``WORK[0]``, each set to no choice; returns how
    many. A card without a choice has nothing to enumerate."""
    k = 0
    for i in range(n):
        if CH[i, 0] == OPEN and card(M, OF, cards[i], tb.CF_CHOICE) == tb.CH_NONE:
            CH[i, 0] = CV_NONE
    for stage in range(3):
        for i in range(n):
            if CH[i, 0] == OPEN and _stage(M, OF, cards[i]) == stage:
                WORK[0, k] = i
                k += 1
    for j in range(k):
        CH[WORK[0, j], 0] = CV_NONE
        CH[WORK[0, j], 1] = 0
        CH[WORK[0, j], 2] = 0
    return k


@helper
def _read_hand(M, OF, cards, n, V, n_curs, k, WORK, REL):
    """What the options of the open choices WORK[0, :k] depend on (:func:`relevance`): (all
    names, all suits, every name, wild). The last hand read is kept at the end of ``REL`` (see
    :func:`_scratch`): the pruned search scores one hand option by option, each time with
    other choices open, and the hand's rules are the same each time."""
    c = OF[tb.O_NNAMES] + 64  # the kept hand: valid, n, the four answers, its cards
    same = n_curs == 0 and REL[c] == 1 and REL[c + 1] == n
    for i in range(n):
        if not same:
            break
        same = REL[c + 6 + i] == cards[i]
    if same:
        return REL[c + 2] != 0, REL[c + 3] != 0, REL[c + 4] != 0, REL[c + 5] != 0
    for i in range(OF[tb.O_NSUITS]):  # every suit apart until the hand is read
        REL[OF[tb.O_NNAMES] + i] = i
    all_names, all_suits, every_name = relevance(M, OF, cards, n, V, n_curs, REL)
    wild = False
    for i in range(n):
        if card(M, OF, cards[i], tb.CF_WILDREL) != 0:
            wild = True
    REL[c] = 1 if n_curs == 0 else 0
    REL[c + 1] = n
    REL[c + 2] = all_names
    REL[c + 3] = all_suits
    REL[c + 4] = every_name
    REL[c + 5] = wild
    for i in range(n):
        REL[c + 6 + i] = cards[i]
    return all_names, all_suits, every_name, wild


@helper
def _free(WORK, k):
    """The open slots WORK[0, :k] as a mask."""
    free = np.int64(0)
    for j in range(k):
        free |= np.int64(1) << WORK[0, j]
    return free


#: Rounds of :func:`climb_choices` at most.
CLIMB_ROUNDS = 3


@helper
def climb_choices(M, OF, cards, n, CH, SL, W, V, players, n_curs, n_disc, WORK, OPT, KEYS,
                  REL):
    """A good total of ``cards`` over its open choices, found quickly: from no choice made,
    each open choice in turn tries each of its options while the others stay, and keeps
    the best, for at most CLIMB_ROUNDS rounds or until a round changes nothing. A total
    the hand can score, so never more than its best: the pruned search's first bar.
    (status, total), ERROR when no combination met is legal (a pinned Island target);
    pins kept."""
    k = _open_slots(M, OF, cards, n, CH, WORK)
    st, best = K.resolve_one(M, OF, cards, n, CH, SL, W, V, players, n_curs, n_disc)
    if k == 0:
        return st, best
    found = st == OK  # (no choice made may leave a pinned Island target illegal: climb on)
    all_names, all_suits, every_name, wild = _read_hand(M, OF, cards, n, V, n_curs, k, WORK,
                                                        REL)
    free = _free(WORK, k)
    for _ in range(CLIMB_ROUNDS):
        better = False
        for j in range(k):
            i = WORK[0, j]
            b0 = CH[i, 0]
            b1 = CH[i, 1]
            b2 = CH[i, 2]
            CH[i, 0] = CV_NONE
            CH[i, 1] = 0
            CH[i, 2] = 0
            K.setup(M, OF, cards, n, SL)
            K.identities(M, OF, n, CH, SL)
            K.changes(M, OF, n, CH, SL)
            m = _options(M, OF, i, n, SL, OPT, 0, KEYS, REL, all_names, all_suits,
                         every_name, wild, free)
            for p in range(m):
                CH[i, 0] = OPT[0, p, 0]
                CH[i, 1] = OPT[0, p, 1]
                CH[i, 2] = OPT[0, p, 2]
                st, total = K.resolve_one(M, OF, cards, n, CH, SL, W, V, players, n_curs,
                                          n_disc)
                if st == OK and (not found or total > best):
                    found = True
                    best = total
                    b0 = CH[i, 0]
                    b1 = CH[i, 1]
                    b2 = CH[i, 2]
                    better = True
            CH[i, 0] = b0
            CH[i, 1] = b1
            CH[i, 2] = b2
        if not better:
            break
    if not found:
        return ERROR, best
    return OK, best


@helper
def best_choices(M, OF, cards, n, CH, SL, W, V, players, n_curs, n_disc, WORK, OPT, KEYS, REL,
                 BEST):
    """The best total of ``cards`` over every open choice (``CH[i, 0] == OPEN``), pinned
    ones kept (``optimal_choices``): (status, total), the first best choices in ``BEST``.
    A combination that makes a pinned Island target illegal is skipped (R4); ERROR when
    every one does. ``WORK`` holds the
    open slots (row 0), option counts (row 1) and positions (row 2)."""
    k = _open_slots(M, OF, cards, n, CH, WORK)
    if k == 0:
        st, total = K.resolve_one(M, OF, cards, n, CH, SL, W, V, players, n_curs, n_disc)
        for i in range(n):
            for f in range(3):
                BEST[i, f] = CH[i, f]
        return st, total
    all_names, all_suits, every_name, wild = _read_hand(M, OF, cards, n, V, n_curs, k, WORK,
                                                        REL)
    free = _free(WORK, k)
    best = np.int64(0)
    found = False
    d = 0
    fresh = True  # entering depth d: its options are still to be listed
    while True:
        i = WORK[0, d]
        if fresh:
            K.setup(M, OF, cards, n, SL)
            K.identities(M, OF, n, CH, SL)
            K.changes(M, OF, n, CH, SL)
            WORK[1, d] = _options(M, OF, i, n, SL, OPT, d, KEYS, REL, all_names, all_suits,
                                  every_name, wild, free)
            WORK[2, d] = 0
            fresh = False
        p = WORK[2, d]
        if p == WORK[1, d]:
            CH[i, 0] = CV_NONE
            CH[i, 1] = 0
            CH[i, 2] = 0
            if d == 0:
                break
            d -= 1
            continue
        WORK[2, d] = p + 1
        CH[i, 0] = OPT[d, p, 0]
        CH[i, 1] = OPT[d, p, 1]
        CH[i, 2] = OPT[d, p, 2]
        if d + 1 < k:
            d += 1
            fresh = True
            continue
        st, total = K.resolve_one(M, OF, cards, n, CH, SL, W, V, players, n_curs, n_disc)
        if st != OK:  # a written Island target this combination makes illegal: skipped
            continue
        if not found or total > best:
            best = total
            found = True
            for q in range(n):
                for f in range(3):
                    BEST[q, f] = CH[q, f]
    if not found:
        return ERROR, np.int64(0)
    return OK, best


@helper
def pin_hand(pool_pins, members, n, cards, CH):
    """The pins of the cards ``members`` (positions in the pool, then ``-1`` for cards of
    the discard area) as slot choices; False when a pin points at a card not in hand
    (``exhaustive.pins_for``: a pinned Doppelgänger needs its target)."""
    for i in range(n):
        p = members[i]
        if p < 0:
            CH[i, 0] = OPEN
            CH[i, 1] = 0
            CH[i, 2] = 0
            continue
        kind = pool_pins[p, 0]
        CH[i, 0] = kind
        CH[i, 1] = pool_pins[p, 1]
        CH[i, 2] = pool_pins[p, 2]
        needs_target = kind == CV_CHANGE or kind == CV_TARGET  # noqa: SIM109 - compiled
        if needs_target or (kind == CV_COPY and pool_pins[p, 3] != 0):
            target = pool_pins[p, 1]
            slot = -1
            for j in range(n):
                if cards[j] == target:
                    slot = j
                    break
            if slot < 0:
                return False
            if kind != CV_COPY:
                CH[i, 1] = slot
    return True


@helper
def _fits(M, OF, cards, n, e1, e2):
    """The extra cards (one or two) can each be given by a different giver of the hand
    (``exhaustive._fits``); a Cursed Item is never one."""
    if card(M, OF, e1, tb.CF_CURSED) != 0 or (e2 >= 0 and card(M, OF, e2, tb.CF_CURSED) != 0):
        return False
    for g in range(n):
        s = card(M, OF, cards[g], tb.CF_EXTRA_SUITS)
        if card(M, OF, cards[g], tb.CF_EXTRA) == tb.EX_NONE \
                or (card(M, OF, e1, tb.CF_SUITS) & s) == 0:
            continue
        if e2 < 0:
            return True
        for h in range(n):
            t = card(M, OF, cards[h], tb.CF_EXTRA_SUITS)
            if h != g and card(M, OF, cards[h], tb.CF_EXTRA) != tb.EX_NONE \
                    and (card(M, OF, e2, tb.CF_SUITS) & t) != 0:
                return True
    return False


@helper
def score_set(M, OF, base, size, pool_pins, disc, n_disc_all, has_disc, players, n_curs, room,
              cards, members, CH, SL, W, V, WORK, OPT, KEYS, REL, BEST, KEEP, climb):
    """The best hand holding exactly ``base`` (pool positions, in pool order) plus its best
    extra cards from the discard area (``exhaustive.best_of_set``): (status, total, first
    extra, second extra) with the extras as positions in ``disc`` (-1: none), the first best
    choices of that hand in ``KEEP``. With ``climb``, each hand's choices are those of
    :func:`climb_choices` (a total it can score, quickly; KEEP not written)."""
    n_givers = 0
    for i in range(size):
        cards[i] = base[i]
    found = False
    best = np.int64(0)
    best_a = -1
    best_b = -1
    for i in range(size):
        if card(M, OF, base[i], tb.CF_EXTRA) != tb.EX_NONE:
            n_givers += 1
    top = n_givers if room < 0 else min(n_givers, room)
    a = -1
    b = -1
    while True:
        # the hand: base, then the extra cards in discard order
        n = size
        if a >= 0:
            cards[n] = disc[a]
            n += 1
        if b >= 0:
            cards[n] = disc[b]
            n += 1
        ok = a < 0 or _fits(M, OF, cards, size, disc[a], disc[b] if b >= 0 else -1)
        if ok:
            for i in range(n):
                members[i] = WORK[3, i] if i < size else -1
            ok = pin_hand(pool_pins, members, n, cards, CH)
        if ok:
            # the discard area without the cards taken
            nd = 0
            if has_disc:
                for q in range(n_disc_all):
                    if q != a and q != b:
                        V[K.VD + nd] = disc[q]
                        nd += 1
            if climb:
                st, total = climb_choices(M, OF, cards, n, CH, SL, W, V, players, n_curs, nd,
                                          WORK, OPT, KEYS, REL)
            else:
                st, total = best_choices(M, OF, cards, n, CH, SL, W, V, players, n_curs, nd,
                                         WORK, OPT, KEYS, REL, BEST)
            if st == OK and (not found or total > best):
                found = True
                best = total
                best_a = a
                best_b = b
                if not climb:  # (a climb leaves BEST as it was)
                    for q in range(n):
                        for f in range(3):
                            KEEP[q, f] = BEST[q, f]
        # the next extra option: none, then one card, then two, in discard order
        if top == 0:
            break
        if b < 0:
            a += 1
            if a >= n_disc_all:
                if top < 2 or n_disc_all < 2:
                    break
                a = 0
                b = 1
        else:
            b += 1
            if b >= n_disc_all:
                a += 1
                b = a + 1
                if b >= n_disc_all:
                    break
    if not found:
        return ERROR, np.int64(0), -1, -1
    return OK, best, best_a, best_b


@helper
def _subsets(M, OF, pool_cards, pool_pins, size, first, count, masks, over, climb, disc,
             n_disc_all, has_disc, players, n_curs, room, out, choices, cards, members, CH, SL,
             W, V, WORK, OPT, KEYS, REL, BEST, KEEP, base):
    P = pool_cards.shape[0]
    comb = first  # advanced in place
    listed = masks.shape[0] > 0
    for r in range(count):
        if listed:  # the subset of masks[r]
            q = 0
            for p in range(P):
                if (masks[r] >> p) & 1:
                    comb[q] = p
                    q += 1
        if r < over.shape[0]:  # its own pins (of OVER_PINS pool cards; position -1: none)
            for k in range(OVER_PINS):
                p = over[r, k * 5]
                if p >= 0:
                    for f in range(4):
                        pool_pins[p, f] = over[r, k * 5 + 1 + f]
        mask = np.int64(0)
        for i in range(size):
            base[i] = pool_cards[comb[i]]
            WORK[3, i] = comb[i]
            mask |= np.int64(1) << comb[i]
        out[r, 4] = mask
        st, total, a, b = score_set(M, OF, base, size, pool_pins, disc, n_disc_all, has_disc,
                                    players, n_curs, room, cards, members, CH, SL, W, V, WORK,
                                    OPT, KEYS, REL, BEST, KEEP, climb)
        out[r, 0] = st
        out[r, 1] = total
        out[r, 2] = a
        out[r, 3] = b
        if r < over.shape[0]:
            for k in range(OVER_PINS):
                p = over[r, k * 5]
                if p >= 0:
                    for f in range(4):
                        pool_pins[p, f] = OPEN if f == 0 else 0
        if r < choices.shape[0]:
            for q in range(min(choices.shape[1], size + 2)):
                for f in range(3):
                    choices[r, q, f] = KEEP[q, f]
        if listed:
            continue
        # the next combination in lexicographic order (itertools.combinations)
        i = size - 1
        while i >= 0 and comb[i] == i + P - size:
            i -= 1
        if i < 0:
            break
        comb[i] += 1
        for j in range(i + 1, size):
            comb[j] = comb[j - 1] + 1


@njit(nogil=True)  # it allocates: reference-counted, unlike the helpers (see kernel.py)
def _scratch(OF, width):
    """The work arrays of one search over hands of at most ``width`` slots, made once per
    entry call and handed down to the helpers: SL, W, V, CH, WORK, OPT, KEYS, REL (names,
    then suit classes, then the last hand :func:`_read_hand` read), BEST, KEEP, cards,
    members, base."""
    most = max(OF[tb.O_NCARDS], width * OF[tb.O_NSUITS]) + 2
    return (np.zeros((width, K.S_SIZE), dtype=np.int64),
            np.zeros((width, K.W_SIZE), dtype=np.int64),
            np.zeros(K.V_SIZE, dtype=np.int64),
            np.zeros((width, 3), dtype=np.int64),
            np.zeros((4, width + 1), dtype=np.int64),
            np.zeros((width + 1, most, 3), dtype=np.int64),
            np.zeros((most, KEY_SIZE), dtype=np.int64),
            np.zeros(OF[tb.O_NNAMES] + 64 + 6 + width, dtype=np.int64),
            np.zeros((width, 3), dtype=np.int64),
            np.zeros((width, 3), dtype=np.int64),
            np.zeros(width, dtype=np.int64),
            np.zeros(width, dtype=np.int64),
            np.zeros(width, dtype=np.int64))


@entry
def subsets_batch(M, OF, pool_cards, pool_pins, size, first, count, masks, over, climb, disc,
                  has_disc, players, curs, room, out, choices):
    """``count`` subsets of ``size`` pool cards in lexicographic order from combination
    ``first`` (positions, advanced in place), or, when ``masks`` is not empty, the subsets
    of those masks of pool positions (``count`` of them; one entry for both, so that a
    process loads one compiled function): per subset (status, best total, first extra,
    second extra, mask of the pool positions) in ``out``, and the first best choices of its
    hand (base cards, then extras; as many rows as ``choices`` has) in ``choices``.
    ``pool_pins[p]``: the pinned choice of pool card ``p`` (kind, a, b, whether a copy's
    target must be in hand), kind OPEN when free. ``over[r]`` (rows of masks; may be empty):
    pins of subset r alone, for OVER_PINS pool cards whose choice is free, each as (pool
    position, kind, a, b, target in hand), position -1 for none (the pruned search scores
    a subset option by option, :mod:`.pruned`). With ``climb``, a quick total each subset
    can score instead of its best (:func:`climb_choices`; ``choices`` not written)."""
    SL, W, V, CH, WORK, OPT, KEYS, REL, BEST, KEEP, cards, members, base = _scratch(OF,
                                                                                 size + 2)
    n_curs = 0
    while n_curs < curs.shape[0] and curs[n_curs] >= 0:
        V[K.VC + n_curs] = curs[n_curs]
        n_curs += 1
    pins = pool_pins.copy() if over.shape[0] > 0 else pool_pins  # (callers share pool_pins)
    _subsets(M, OF, pool_cards, pins, size, first, count, masks, over, climb, disc,
             disc.shape[0], has_disc, players, n_curs, room, out, choices, cards, members, CH,
             SL, W, V, WORK, OPT, KEYS, REL, BEST, KEEP, base)


@helper
def _best_rows(M, OF, hands, pins, players, curs, disc, has_disc, out, BESTS, CH, SL, W, V,
               WORK, OPT, KEYS, REL, BEST):
    for r in range(hands.shape[0]):
        n = K.row_length(hands[r])
        n_curs, n_disc = K.load_context(curs[r], disc[r], has_disc[r], V)
        if n_curs < 0 or n > K.MAX_CARDS:
            out[r, 0] = ERROR
            continue
        for i in range(n):
            for f in range(3):
                CH[i, f] = pins[r, i, f]
        st, total = best_choices(M, OF, hands[r], n, CH, SL, W, V, players[r], n_curs, n_disc,
                                 WORK, OPT, KEYS, REL, BEST)
        out[r, 0] = st
        out[r, 1] = total
        for i in range(n):
            for f in range(3):
                BESTS[r, i, f] = BEST[i, f]


@entry
def best_batch(M, OF, hands, pins, players, curs, disc, has_disc, out, bests):
    """The best total of every row of ``hands`` over its open choices (``pins[r, i, 0] ==
    OPEN``; other pins kept): (status, total) in ``out``, the first best choices in
    ``bests``."""
    SL, W, V, CH, WORK, OPT, KEYS, REL, BEST, _, _, _, _ = _scratch(OF, max(1, hands.shape[1]))
    _best_rows(M, OF, hands, pins, players, curs, disc, has_disc, out, bests, CH, SL, W, V,
               WORK, OPT, KEYS, REL, BEST)


@helper
def hand_limit(M, OF, cards, n, V, n_curs):
    """``hand.hand_limit``: the hand size plus one per extra-card effect (Cursed Items
    included), never more than the catalog's maximum."""
    limit = OF[tb.O_HAND_SIZE]
    for i in range(n + n_curs):
        u = cards[i] if i < n else V[K.VC + i - n]
        if card(M, OF, u, tb.CF_EXTRA) != tb.EX_NONE:
            limit += 1
    if OF[tb.O_MAX_HAND] > 0 and limit > OF[tb.O_MAX_HAND]:
        limit = OF[tb.O_MAX_HAND]
    return limit


@helper
def _optimal_rows(M, OF, hands, players, curs, disc, has_disc, out, pins, cards, members, CH,
                  SL, W, V, WORK, OPT, KEYS, REL, BEST, KEEP, base):
    for r in range(hands.shape[0]):
        n = K.row_length(hands[r])
        n_curs, n_disc = K.load_context(curs[r], disc[r], has_disc[r], V)
        if n_curs < 0 or n > K.MAX_CARDS or n + 2 > cards.shape[0]:
            out[r, 0] = ERROR
            continue
        limit = hand_limit(M, OF, hands[r], n, V, n_curs)
        room = limit - n if (n_disc > 0 and n < limit) else 0
        for i in range(n):
            base[i] = hands[r, i]
            WORK[3, i] = i
        st, total, a, b = score_set(M, OF, base, n, pins, disc[r], n_disc, has_disc[r],
                                    players[r], n_curs, room, cards, members, CH, SL, W, V,
                                    WORK, OPT, KEYS, REL, BEST, KEEP, False)
        out[r, 0] = st
        out[r, 1] = total
        out[r, 2] = a
        out[r, 3] = b


@entry
def optimal_batch(M, OF, hands, players, curs, disc, has_disc, out):
    """``score_hand`` for every row of ``hands``: every choice made optimally and, with room,
    the best extra cards from the row's discard area: (status, total, extra, extra) in
    ``out`` (extras as positions in the row's discard area, -1 for none)."""
    width = hands.shape[1] + 2
    SL, W, V, CH, WORK, OPT, KEYS, REL, BEST, KEEP, cards, members, base = _scratch(OF, width)
    pins = np.full((width, 4), OPEN, dtype=np.int64)
    _optimal_rows(M, OF, hands, players, curs, disc, has_disc, out, pins, cards, members, CH,
                  SL, W, V, WORK, OPT, KEYS, REL, BEST, KEEP, base)
