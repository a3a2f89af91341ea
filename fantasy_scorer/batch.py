"""``score_many``: many hands scored by compiled code, each total exactly ``resolve``'s.

A hand is what :func:`fantasy_scorer.hand` reads: card names or ids, a choice after a colon
(``Mirage: Rainstorm``, ``Book of Changes: Blizzard -> Beast``, ``none``), and optionally the
``players: N`` line and the ``[cursed items]`` and ``[discard]`` sections of a hand file; or a
:class:`~fantasy_scorer.realms.hand.Hand`. Each distinct line is read once (names in every
language, did-you-mean and all) into an integer code, and compiled code decodes, checks and
scores the hands (``realms/solve/batch``). A hand the compiled path does not take (a setting
other than ``players``, anything the checks of a hand file might refuse, a card whose effects
the compiled code does not know) is read and scored the ordinary way, so an illegal hand
raises exactly the error :func:`fantasy_scorer.resolve_hand` raises.

The compiled code (Numba) is loaded on the first call: importing this package stays quick.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Iterable, Sequence

from .errors import ScorerError
from .realms.catalog import Catalog, base_catalog, fold, per_catalog
from .realms.formats.handfile import (
    SECTIONS,
    Entry,
    names_for,
    parse_choice,
    parse_setting,
    read_hand,
)
from .realms.hand import Hand
from .realms.resolve import resolve

#: Distinct lines remembered per catalog (a bound, so a stream of odd lines cannot grow it).
MEMO_SIZE = 200_000


class LineCoder:
    """Reads hand-file lines into the integer codes of ``realms.solve.batch.lines``."""

    def __init__(self, catalog: Catalog) -> None:
        from .realms.solve.batch import lines as L

        self.L = L
        self.catalog = catalog
        self.names = names_for(catalog)
        self.index = {c.id: u for u, c in enumerate(catalog.cards)}
        self.memo: dict[object, int] = {}

    def code(self, raw: object) -> int:
        """The code of one line (``BAD`` when the fast path should not take it)."""
        L = self.L
        if not isinstance(raw, str) or len(raw.splitlines()) > 1:
            return L.BAD
        line = raw.split("#", 1)[0].strip()
        if not line:
            return L.LINE_BLANK
        if line.startswith("["):
            title = fold(line.strip("[] "))
            if not line.endswith("]") or title not in SECTIONS:
                return L.BAD
            return L.section_code({"hand": L.SECTION_HAND, "cursed": L.SECTION_CURSED,
                                   "discard": L.SECTION_DISCARD}[SECTIONS[title]])
        setting = parse_setting(line)
        if setting is not None:
            key, value = setting
            if key != "players" or not (value.isascii() and value.isdigit()) or len(value) > 2:
                return L.BAD  # (the full reader says what is wrong with it)
            return L.players_code(int(value))
        name, sep, rest = line.partition(":")
        try:
            card = self.names.card(name)
            choice = rest.strip() if sep else None
            if choice is None:
                return L.card_code(self.index[card.id])
            if not choice or card.choice is None:
                return L.BAD
            value = parse_choice(Entry(0, card, choice), self.names)
        except ScorerError:
            return L.BAD
        u = self.index[card.id]
        if value is None:
            return L.card_code(u, L.CHOICE_NONE)
        if isinstance(value, tuple):
            target, suit = value
            return L.card_code(u, L.CHOICE_SUIT, self.index[target.id],
                               self.catalog.suits.index(suit))
        return L.card_code(u, L.CHOICE_CARD, self.index[value.id])

    def read(self, line: object) -> int:
        """The code of a line, remembered."""
        if len(self.memo) > MEMO_SIZE:
            self.memo.clear()
        code = self.memo[line] = self.code(line)
        return code

    def codes(self, lines: Iterable[object]) -> list[int]:
        memo = self.memo
        if not isinstance(lines, (list, tuple)):
            lines = list(lines)
        try:
            found = list(map(memo.get, lines))
        except TypeError:  # an unhashable line: the slow way says what is wrong
            return [self.L.BAD]
        if not lines:
            return []
        if None in found:
            if len(memo) > MEMO_SIZE:
                memo.clear()
            for i, c in enumerate(found):
                if c is None:
                    c = found[i] = self.code(lines[i])
                    memo[lines[i]] = c
        return found  # type: ignore[return-value]


_CODERS: dict[int, LineCoder] = {}


def _coder(catalog: Catalog) -> LineCoder:
    return per_catalog(_CODERS, catalog, LineCoder)


def score_many(hands: Iterable[Hand | Sequence[str]], *, catalog: Catalog | None = None
               ) -> list[int]:
    """The total of every hand, exactly as :func:`fantasy_scorer.resolve_hand` gives it (an
    open choice stays unassigned), computed by compiled code.

    Each hand is a sequence of hand-file lines (card names or ids with their choices, and
    optionally ``players: N``, ``[cursed items]`` and ``[discard]``) or a
    :class:`~fantasy_scorer.realms.hand.Hand`; the base game when no catalog is given::

        >>> import fantasy_scorer as fs
        >>> fs.score_many([["Mountain", "Great Flood", "Smoke", "Whirlwind", "Air Elemental",
        ...                 "Wildfire", "Mirage: Rainstorm"], ["Basilisk", "Knights"]])
        [260, 35]

    An illegal hand raises the :class:`~fantasy_scorer.errors.ScorerError` that
    ``resolve_hand`` raises for it.
    """
    import numpy as np

    from .realms.solve.batch.lines import FALLBACK, score_lines
    from .realms.solve.batch.scorer import compiled

    cat = catalog or base_catalog()
    coder = _coder(cat)
    scorer = compiled(cat)
    hands = list(hands)
    flat: list[int | None] = []
    starts = [0]
    objects: list[int] = []  # positions of Hand objects
    get = coder.memo.get
    extend, mark = flat.extend, starts.append
    try:  # the common case in C: every line already read once
        for r, h in enumerate(hands):
            if isinstance(h, Hand):
                objects.append(r)
                flat.append(coder.L.BAD)
            else:
                extend(map(get, h))
            mark(len(flat))
    except TypeError:  # not a sequence of lines, or an unhashable line: the slow way
        flat, starts, objects = [], [0], []
        for r, h in enumerate(hands):
            if isinstance(h, Hand):
                objects.append(r)
                flat.append(coder.L.BAD)
            else:
                flat += coder.codes(h)
            starts.append(len(flat))
    if None in flat:  # lines met for the first time: read each once
        for k in [k for k, c in enumerate(flat) if c is None]:
            if flat[k] is None:
                r = bisect_right(starts, k) - 1
                line = hands[r][k - starts[r]]  # type: ignore[index]
                flat[k] = get(line)
                if flat[k] is None:
                    flat[k] = coder.read(line)
    totals = np.zeros(len(hands), dtype=np.int64)
    status = np.zeros(len(hands), dtype=np.int64)
    codes = np.frombuffer(array("q", flat), dtype=np.int64)  # type: ignore[arg-type]
    score_lines(scorer.M, scorer.OF, codes, np.frombuffer(array("q", starts), dtype=np.int64),
                totals, status)
    out = totals.tolist()
    if objects:
        for r, total in zip(objects, scorer.resolve_hands([hands[r] for r in objects]),
                            strict=True):
            out[r] = total
            status[r] = 0
    for r in np.flatnonzero(status == FALLBACK).tolist():
        out[r] = resolve(_read(hands[r], cat)).total
    return out


def _read(lines: Sequence[str], catalog: Catalog) -> Hand:
    """A hand read the ordinary way (what :func:`fantasy_scorer.hand` does)."""
    return read_hand("\n".join(lines), "<hand>", catalog, names_for(catalog))
