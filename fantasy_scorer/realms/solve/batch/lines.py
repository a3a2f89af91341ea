"""Hands written as hand-file lines, each line read once into an integer code, decoded by
compiled code into the rows the kernel scores.

The public ``score_many`` reads each distinct line of text once (with the names, choices and
sections of the hand-file format) into a code; a hand is then a run of codes. Decoding checks
everything ``read_hand`` and :class:`~fantasy_scorer.realms.hand.Hand` check (duplicates, the
hand limit and extra cards, Cursed Items, the discard area, the number of players, every
pinned choice); a hand that any of those checks might refuse is marked ``FALLBACK``, and the
caller reads it the slow way, which scores it or raises the very error ``resolve_hand`` would.
"""

from __future__ import annotations

import numpy as np

from . import cache
from . import kernel as K
from . import tables as tb
from .kernel import CV_CHANGE, CV_COPY, CV_NONE, CV_TARGET, card, entry, helper

cache.install()  # the cache of this package's compiled code (see cache.py)

# the code of a line: kind in bits 0-2, then per kind:
#   LINE_CARD: card (bits 3-22), choice (23-25: CHOICE_*), target card (26-45), suit (46-53)
#   LINE_SECTION: SECTION_* (bits 3-5); LINE_PLAYERS: the number (bits 3-22)
LINE_BAD, LINE_CARD, LINE_SECTION, LINE_PLAYERS, LINE_BLANK = range(5)
CHOICE_OPEN, CHOICE_NONE, CHOICE_CARD, CHOICE_SUIT = range(4)
SECTION_HAND, SECTION_CURSED, SECTION_DISCARD = range(3)
#: A line the fast reader does not take (an unknown word, a setting other than players…).
BAD = -1
FALLBACK = 2

#: At most this many cards per section are decoded (larger hands go the slow way).
WIDTH = 16


def card_code(u: int, choice: int = CHOICE_OPEN, target: int = 0, suit: int = 0) -> int:
    return LINE_CARD | u << 3 | choice << 23 | target << 26 | suit << 46


def section_code(section: int) -> int:
    return LINE_SECTION | section << 3


def players_code(n: int) -> int:
    return LINE_PLAYERS | n << 3 if 0 <= n < 1 << 20 else BAD


@helper
def _in(cards, n, u):
    for i in range(n):
        if cards[i] == u:
            return i
    return -1


@helper
def _check_cards(M, OF, cards, n, curs, n_curs):
    """``hand.check_cards`` and the Cursed Items' sections: True when nothing is wrong."""
    if n == 0:
        return False
    for i in range(n):
        if card(M, OF, cards[i], tb.CF_CURSED) != 0:
            return False
    for i in range(n_curs):
        if card(M, OF, curs[i], tb.CF_CURSED) == 0:
            return False
    size = OF[tb.O_HAND_SIZE]
    extra = 0
    free = 0
    for i in range(n + n_curs):
        u = cards[i] if i < n else curs[i - n]
        kind = card(M, OF, u, tb.CF_EXTRA)
        if kind != tb.EX_NONE:
            extra += 1
            if kind != tb.EX_DISCARD:
                free += 1
    limit = size + extra
    if OF[tb.O_MAX_HAND] > 0 and limit > OF[tb.O_MAX_HAND]:
        limit = OF[tb.O_MAX_HAND]
    if n > limit:
        return False
    extra_slots = n - size
    if extra_slots > 0:
        todo = extra_slots - free
        for g in range(n):
            if todo <= 0:
                break
            if card(M, OF, cards[g], tb.CF_EXTRA) != tb.EX_DISCARD:
                continue
            todo -= 1
            s = card(M, OF, cards[g], tb.CF_EXTRA_SUITS)
            eligible = False
            for j in range(n):
                if j != g and (card(M, OF, cards[j], tb.CF_SUITS) & s) != 0:
                    eligible = True
                    break
            if not eligible:
                return False
    return True


@helper
def _check_choice(M, OF, cards, n, i, kind, target, suit):
    """``hand.check_choice`` for the choice written on card ``i``'s line."""
    u = cards[i]
    eff = card(M, OF, u, tb.CF_CHOICE)
    if eff == tb.CH_NONE:
        return False
    if kind == CHOICE_NONE:
        return True
    if kind == CHOICE_SUIT:
        if eff != tb.CH_CHANGE or target == u:
            return False
        return _in(cards, n, target) >= 0 and card(M, OF, target, tb.CF_UNCHANGE) == 0 \
            and 0 <= suit < OF[tb.O_NSUITS]
    if eff == tb.CH_CHANGE:
        return False
    if eff == tb.CH_COPY_GAME:
        return card(M, OF, target, tb.CF_CURSED) == 0 and (
            card(M, OF, target, tb.CF_COPY_SUITS) & card(M, OF, u, tb.CF_COPYMASK)) != 0
    if eff == tb.CH_COPY_HAND or eff == tb.CH_PROTECT:
        return target != u and _in(cards, n, target) >= 0
    return _in(cards, n, target) >= 0  # Island: its suits are checked while resolving (R4)


@helper
def decode(M, OF, codes, lo, hi, cards, CH, curs, disc):
    """One hand's lines: (status, n, n_curs, has discard, n_disc, players), the rows filled."""
    section = SECTION_HAND
    n = 0
    n_curs = 0
    n_disc = 0
    players = -1
    marked_discard = False
    seen_any = False
    for k in range(lo, hi):
        c = codes[k]
        if c < 0:
            return FALLBACK, 0, 0, False, 0, -1
        kind = c & 7
        if kind == LINE_BLANK:
            continue
        if kind == LINE_SECTION:
            section = (c >> 3) & 7
            if section == SECTION_DISCARD:
                marked_discard = True
            continue
        if kind == LINE_PLAYERS:
            if section != SECTION_HAND or seen_any or players >= 0:
                return FALLBACK, 0, 0, False, 0, -1
            players = (c >> 3) & 0xFFFFF
            continue
        if kind != LINE_CARD:
            return FALLBACK, 0, 0, False, 0, -1
        seen_any = True
        u = (c >> 3) & 0xFFFFF
        choice = (c >> 23) & 7
        if u >= OF[tb.O_NCARDS] or card(M, OF, u, tb.CF_UNSUP) != 0:
            return FALLBACK, 0, 0, False, 0, -1
        if _in(cards, n, u) >= 0 or _in(curs, n_curs, u) >= 0 or _in(disc, n_disc, u) >= 0:
            return FALLBACK, 0, 0, False, 0, -1  # listed twice
        if section == SECTION_HAND:
            if n >= cards.shape[0]:
                return FALLBACK, 0, 0, False, 0, -1
            cards[n] = u
            CH[n, 0] = choice
            CH[n, 1] = (c >> 26) & 0xFFFFF
            CH[n, 2] = (c >> 46) & 0xFF
            n += 1
        else:
            if choice != CHOICE_OPEN:
                return FALLBACK, 0, 0, False, 0, -1
            if section == SECTION_CURSED:
                if n_curs >= curs.shape[0]:
                    return FALLBACK, 0, 0, False, 0, -1
                curs[n_curs] = u
                n_curs += 1
            else:
                if n_disc >= disc.shape[0]:
                    return FALLBACK, 0, 0, False, 0, -1
                disc[n_disc] = u
                n_disc += 1
    has_disc = n_disc > 0
    if marked_discard and not has_disc:
        return FALLBACK, 0, 0, False, 0, -1  # an empty [discard] section: the slow way
    if not _check_cards(M, OF, cards, n, curs, n_curs):
        return FALLBACK, 0, 0, False, 0, -1
    # hand.check_table
    if players >= 0 and not 2 <= players <= 6:
        return FALLBACK, 0, 0, False, 0, -1
    if n_disc > 10:
        return FALLBACK, 0, 0, False, 0, -1
    for d in range(n_disc):
        if card(M, OF, disc[d], tb.CF_CURSED) != 0:
            return FALLBACK, 0, 0, False, 0, -1
    for i in range(n + n_curs):
        u = cards[i] if i < n else curs[i - n]
        needs = card(M, OF, u, tb.CF_NEEDS)
        if (needs & tb.NEED_DISCARD) and not has_disc:
            return FALLBACK, 0, 0, False, 0, -1
        if (needs & tb.NEED_PLAYERS) and players < 0:
            return FALLBACK, 0, 0, False, 0, -1
    # the choices, as kernel values
    for i in range(n):
        kind = CH[i, 0]
        target = CH[i, 1]
        suit = CH[i, 2]
        if kind == CHOICE_OPEN:
            CH[i, 0] = CV_NONE
            CH[i, 1] = 0
            CH[i, 2] = 0
            continue
        if not _check_choice(M, OF, cards, n, i, kind, target, suit):
            return FALLBACK, 0, 0, False, 0, -1
        if kind == CHOICE_NONE:
            CH[i, 0] = CV_NONE
            CH[i, 1] = 0
            CH[i, 2] = 0
            continue
        eff = card(M, OF, cards[i], tb.CF_CHOICE)
        if eff == tb.CH_COPY_GAME or eff == tb.CH_COPY_HAND:
            CH[i, 0] = CV_COPY
        elif eff == tb.CH_CHANGE:
            CH[i, 0] = CV_CHANGE
            CH[i, 1] = _in(cards, n, target)
        else:
            CH[i, 0] = CV_TARGET
            CH[i, 1] = _in(cards, n, target)
    return K.OK, n, n_curs, has_disc, n_disc, players


@helper
def _score_lines(M, OF, codes, starts, totals, status, cards, CH, curs, disc, SL, W, V):
    for r in range(starts.shape[0] - 1):
        st, n, n_curs, has_disc, n_disc, players = decode(M, OF, codes, starts[r], starts[r + 1],
                                                          cards, CH, curs, disc)
        if st != K.OK:
            status[r] = FALLBACK
            continue
        for q in range(n_curs):
            V[K.VC + q] = curs[q]
        for q in range(n_disc):
            V[K.VD + q] = disc[q]
        st, total = K.resolve_one(M, OF, cards, n, CH, SL, W, V, players, n_curs, n_disc)
        status[r] = st if st == K.OK else FALLBACK
        totals[r] = total


@entry
def score_lines(M, OF, codes, starts, totals, status):
    """Every hand ``codes[starts[r]:starts[r + 1]]``: its total, or status FALLBACK."""
    cards = np.zeros(WIDTH, dtype=np.int64)
    CH = np.zeros((WIDTH, 3), dtype=np.int64)
    curs = np.zeros(min(WIDTH * 2, K.MAX_CURSED), dtype=np.int64)
    disc = np.zeros(WIDTH, dtype=np.int64)
    SL = np.zeros((WIDTH, K.S_SIZE), dtype=np.int64)
    W = np.zeros((WIDTH, K.W_SIZE), dtype=np.int64)
    V = np.zeros(K.V_SIZE, dtype=np.int64)
    _score_lines(M, OF, codes, starts, totals, status, cards, CH, curs, disc, SL, W, V)
