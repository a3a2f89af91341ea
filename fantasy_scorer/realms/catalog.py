"""Load card definitions from YAML, validate them, and compile them into effect objects.

A card file looks like ``cards/base.yaml``::

    game: base
    suits: [Land, Flood, ...]          # the suits this file introduces
    aliases: {Animal: Beast}           # other spellings users type
    cards:
      - id: FR07
        name: Swamp
        suit: Flood
        strength: 18
        text: "Penalty: -3 per Army and per Flame."
        penalty:
          - {points: -3, per: [Army, Flame]}

The full grammar is documented at the top of ``cards/base.yaml``. Every problem is reported
as ``file:line: message`` through :class:`~fantasy_scorer.errors.ScorerError`; nothing unknown
is silently accepted. A user's homebrew file (``--cards FILE``) uses the same format and may
name the cards and suits of the files loaded before it.
"""

from __future__ import annotations

import difflib
import os
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from ..errors import ScorerError, clip
from ..inputs import read_limited, whole_value
from . import effects as fx


def fold(text: str) -> str:
    """Case-, accent- and spacing-insensitive form of a name (Doppelganger = Doppelgänger)."""
    decomposed = unicodedata.normalize("NFKD", text.strip().casefold())
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    plain = plain.replace("’", "'").replace("-", " ").replace("_", " ")
    return " ".join(plain.split())


#: The largest size of a number a card may hold (points, a strength): the game's own reach
#: a few hundred.
MAX_VALUE = 10_000
#: The largest number of cards (or players) a card may count.
MAX_COUNT = 100
#: The largest hand size a card file may set.
MAX_HAND = 20


# --------------------------------------------------------------------------------------------
# The domain model: a card, a penalty
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Penalty:
    """Everything after "Penalty:" on a card: it is cleared, copied and struck as a whole."""

    points: tuple[fx.PointEffect, ...] = ()
    blanks: tuple[fx.Blanks, ...] = ()
    conditions: tuple[fx.BlankedUnless | fx.BlankedIf, ...] = ()
    lonely: tuple[fx.BlanksLonely, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.points or self.blanks or self.conditions or self.lonely)

    def strike(self, mask: int) -> Penalty:
        """The penalty with a suit word cleared from it (R6)."""
        pts = tuple(p for p in (e.strike(mask) for e in self.points) if p is not None)
        bl = tuple(b for b in (e.strike(mask) for e in self.blanks) if b is not None)
        co = tuple(c for c in (e.strike(mask) for e in self.conditions) if c is not None)
        return Penalty(pts, bl, co, self.lonely)


NO_PENALTY = Penalty()


@dataclass(frozen=True, eq=False)
class Card:
    """A printed card: what its face says, compiled into effects.

    ``suits`` is a bit mask (the printed suit plus any ``also`` suits). Cards compare by
    identity; ``id`` is unique within a :class:`Catalog`.

    Traits (each a YAML key of the same name):

    * ``immune`` is ``"all"`` for a card that is never blanked (Angel, C2), else ``""``;
    * ``blanked_only_by`` selects the only cards whose blanking can hit this card, through
      any of its suits (the Deluxe Phoenix: a Flood, C7); empty: any card;
    * ``never_blanks_others``: this card never causes another card to be blanked: it meets
      no other card's "blanked with X" condition and blanks no other card (C8);
    * ``unchangeable`` cards cannot be targeted by a change of suit;
    * ``copied_suits`` (mask, 0: all of ``suits``) are the suits a copy of the card takes:
      extra suits belong to the physical card, not to its identity (R16);
    * ``discard_suits`` (mask, 0: all) are the suits the card shows in the discard area;
    * ``change_replaces`` (mask, 0: all) are the suits a change of suit replaces; the card
      keeps its other suits (R17);
    * ``keeps_suits_when_blanked``: a blanked card that still counts for its suits (R15);
    * ``grants_immunity`` selects the cards that cannot be blanked while this card is in
      hand, blanked or not (Lich, C3); a ``cursed`` card is a Cursed Item, scored beside the
      hand and never blanked.
    """

    id: str
    name: str
    suit_names: tuple[str, ...]
    suits: int
    strength: int
    text: str = ""
    bonus: tuple[fx.PointEffect, ...] = ()
    penalty: Penalty = NO_PENALTY
    clears: tuple[fx.Clears, ...] = ()
    clears_word: tuple[fx.ClearsWord, ...] = ()
    choice: fx.Copy | fx.ChangeSuit | fx.ClearOne | fx.Protect | None = None
    extra: fx.ExtraCard | None = None
    keeps_suits_when_blanked: bool = False
    source: str = ""
    immune: str = ""
    unchangeable: bool = False
    copied_suits: int = 0
    grants_immunity: tuple[fx.Term, ...] = ()
    cursed: bool = False
    replaces: str | None = None
    needs: frozenset[str] = frozenset()  # "discard", "players": context its score reads
    discard_suits: int = 0
    change_replaces: int = 0
    blanked_only_by: tuple[fx.Term, ...] = ()
    never_blanks_others: bool = False
    share_id: str = ""  # the id the popular web scorer gives it, when not ours (FR55P)

    def __repr__(self) -> str:
        return f"Card({self.id} {self.name})"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """Pretty printers (IPython's, hypothesis's) print a dataclass field by field, every
        compiled effect included: a failing example names the card instead."""
        printer.text(repr(self))

    @property
    def suit(self) -> str:
        return "/".join(self.suit_names)

    @property
    def code_id(self) -> str:
        """The card's id in a share code: the web scorer's id for it (data: ``share_id``)."""
        return self.share_id or self.id

    @property
    def copy_suits(self) -> int:
        """The suits a copy of this card takes (R16: only the printed suit of a Phoenix)."""
        return self.copied_suits or self.suits

    @property
    def suits_in_discard(self) -> int:
        """The suits this card shows in the discard area (C5)."""
        return self.discard_suits or self.suits

    def in_discard(self) -> fx.Printed:
        """This card as a discard-area bonus reads it: name, shown suits, strength (C5)."""
        return fx.Printed(self.name, self.suits_in_discard, self.strength)

    @property
    def kept_on_change(self) -> int:
        """The suits a change of suit leaves on this card (R17: a Phoenix keeps Flame and
        Weather when Book of Changes replaces its Beast)."""
        return self.suits & ~self.change_replaces if self.change_replaces else 0

    @property
    def special_blanking(self) -> bool:
        """Whether this card changes who may blank whom (C2, C7, C8): the searches that do
        not model these traits refuse such a card."""
        return bool(self.immune or self.blanked_only_by or self.never_blanks_others)

    def may_take_extra(self, other: Card) -> bool:
        """Whether this card's extra-card effect may take ``other`` (R13, C4): a card of
        its suits as the discard area shows them (any card, for an effect without suits)."""
        if self.extra is None or other is self:
            return False
        return not self.extra.suits or bool(other.suits_in_discard & self.extra.suits)


@dataclass(repr=False)
class Catalog:
    """All cards of a game (base set, expansions, homebrew) with their suits and aliases."""

    suits: list[str] = field(default_factory=list)
    cards: list[Card] = field(default_factory=list)
    hand_size: int = 7  # cards in hand before extra cards
    max_hand: int | None = None  # the most a hand may ever hold (Cursed Hoards: 9, C4)
    games: list[str] = field(default_factory=list)  # the card files loaded, by their 'game' key
    aliases: dict[str, str] = field(default_factory=dict)  # folded alias -> canonical name
    alias_spelling: dict[str, str] = field(default_factory=dict)  # folded alias -> as written
    by_id: dict[str, Card] = field(default_factory=dict)
    by_name: dict[str, Card] = field(default_factory=dict)  # folded name -> card
    by_code: dict[str, Card] = field(default_factory=dict)  # share-code id -> card

    def __repr__(self) -> str:
        """Short: a catalog holds every card's effects, whose full text helps nobody (a
        failing test or a property test's strategy prints it)."""
        return f"Catalog({'+'.join(self.games) or 'no game'}, {len(self.cards)} cards)"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(repr(self))

    # -- suits ----------------------------------------------------------------------------
    def suit_bit(self, name: str) -> int:
        return 1 << self.suits.index(name)

    def suit_label(self, mask: int) -> str:
        return "/".join(s for i, s in enumerate(self.suits) if mask >> i & 1) or "none"

    def find_suit(self, text: str) -> str | None:
        key = fold(text)
        key = fold(self.aliases.get(key, text))
        for s in self.suits:
            if fold(s) == key:
                return s
        return None

    # -- cards ----------------------------------------------------------------------------
    def card(self, name_or_id: str) -> Card:
        """The card with this id or name (case/accent-insensitive, aliases allowed)."""
        c = self.lookup(name_or_id)
        if c is None:
            raise ScorerError(f"unknown card '{name_or_id}'{self.suggest(name_or_id)}")
        return c

    def lookup(self, name_or_id: str) -> Card | None:
        if name_or_id in self.by_id:
            return self.by_id[name_or_id]
        key = fold(name_or_id)
        key = fold(self.aliases.get(key, key))
        return self.by_name.get(key)

    def suggest(self, text: str, words: Iterable[str] | None = None) -> str:
        """A ``" (did you mean …?)"`` hint, or an empty string."""
        pool = list(words) if words is not None else [c.name for c in self.cards]
        folded = {fold(w): w for w in pool}
        hits = difflib.get_close_matches(fold(text), list(folded), n=3, cutoff=0.6)
        if not hits:
            return ""
        return " (did you mean " + " or ".join(f"'{folded[h]}'" for h in hits) + "?)"

    def copy_targets(self, copy: fx.Copy) -> list[Card]:
        """The cards of the game a ``from: game`` copy may take (R14)."""
        return [c for c in self.cards if c.copy_suits & copy.suits and not c.cursed]

    @property
    def suit_cards(self) -> list[Card]:
        """The cards that can be held in hand (every card but the Cursed Items)."""
        return [c for c in self.cards if not c.cursed]

    def add(self, card: Card, where: str) -> None:
        if card.replaces is not None:
            old = self.by_id.get(card.replaces)
            if old is None:
                raise ScorerError(f"{card.id} replaces unknown card {card.replaces}", where)
            self.cards[self.cards.index(old)] = card
            del self.by_id[old.id]
            del self.by_name[fold(old.name)]
            del self.by_code[old.code_id]
            self.by_id[card.id] = card
            self.by_name[fold(card.name)] = card
            self._add_code(card, where)
            return
        if card.id in self.by_id:
            raise ScorerError(f"card id {card.id} is defined twice", where)
        key = fold(card.name)
        if key in self.by_name or key in self.aliases:
            raise ScorerError(f"card name '{card.name}' is defined twice", where)
        self.cards.append(card)
        self.by_id[card.id] = card
        self.by_name[key] = card
        self._add_code(card, where)

    def _add_code(self, card: Card, where: str) -> None:
        other = self.by_code.get(card.code_id)
        if other is not None:
            raise ScorerError(f"{card.id}: share id {card.code_id} is already {other.name}'s",
                              where)
        self.by_code[card.code_id] = card




# --------------------------------------------------------------------------------------------
# Compiling entries into effects
# --------------------------------------------------------------------------------------------

_CARD_KEYS = {
    "id", "name", "suit", "also", "strength", "text", "bonus", "penalty", "clears",
    "clears_word", "copy", "change_suit", "clear_one", "protect", "extra_card",
    "keeps_suits_when_blanked", "immune", "unchangeable", "copied_suits", "discard_suits",
    "change_replaces", "blanked_only_by", "never_blanks_others", "grants_immunity",
    "cursed", "replaces", "share_id",
}
_POINT_KEYS = {"points", "per", "per_other", "with", "with_all", "unless", "in_discard",
               "players", "other_cursed", "first"}
_POINT_KINDS = {"best_of", "sum_strength", "max_strength", "collection", "runs",
                "distinct_suits", "odd_strength", "exactly", "per_penalty", "per_other_player"}
_PENALTY_KINDS = {"blanks", "blanked_unless", "blanked_if", "blanks_lonely"}
_COPY_TAKES = {"name", "suit", "strength", "penalty"}


class _Compiler:
    """Turns one file's entries into :class:`Card` objects, reporting ``file:line`` problems."""

    def __init__(self, catalog: Catalog, source: str, names: set[str]) -> None:
        self.catalog = catalog
        self.source = source
        self.names = names  # folded names of every card known to this catalog (+ this file)
        self.line = 0

    def fail(self, message: str, node: Any = None) -> ScorerError:
        line = getattr(node, "line", 0) or self.line
        return ScorerError(message, f"{self.source}:{line}")

    # -- terms --------------------------------------------------------------------------
    def word(self, text: Any, node: Any) -> tuple[int, frozenset[str], bool]:
        """One selector word: a suit, a card name or ``any``."""
        if not isinstance(text, str):
            raise self.fail(f"expected a suit or card name, got {clip(repr(text))}", node)
        if fold(text) == "any":
            return 0, frozenset(), True
        suit = self.catalog.find_suit(text)
        if suit is not None:
            return self.catalog.suit_bit(suit), frozenset(), False
        key = fold(text)
        key = fold(self.catalog.aliases.get(key, key))
        if key in self.names:
            return 0, frozenset([self.names_canon[key]]), False
        pool = self.catalog.suits + list(self.names_canon.values())
        raise self.fail(
            f"unknown suit or card name '{clip(text)}'{self.catalog.suggest(text, pool)}", node
        )

    names_canon: dict[str, str] = {}

    def words(self, items: Any, node: Any) -> tuple[int, frozenset[str], bool, list[str]]:
        if isinstance(items, str):
            items = [items]
        if not isinstance(items, list) or not items:
            raise self.fail("expected a list of suits or card names, got "
                            f"{clip(repr(items))}", node)
        mask, names, anything = 0, frozenset[str](), False
        self.last_words: list[tuple[str, int]] = []  # canonical, in order (Term.words)
        for it in items:
            m, n, a = self.word(it, items)
            mask |= m
            names |= n
            anything |= a
            self.last_words.append(self.canon(m, n, a))
        return mask, names, anything, [str(i) for i in items]

    def term(self, item: Any, parent: Any, other: bool = False) -> fx.Term:
        if isinstance(item, Mapping):
            unknown = set(item) - {"match", "except", "other"}
            if unknown:
                raise self.fail(f"unknown key '{sorted(unknown, key=str)[0]}' in a selector "
                                "(expected match, except, other)", item)
            if "match" not in item:
                raise self.fail("a selector needs 'match'", item)
            mask, names, anything, texts = self.words(item["match"], item)
            words = tuple(self.last_words)
            ex_mask, ex_names = 0, frozenset[str]()
            ex_words: tuple[tuple[str, int], ...] = ()
            text = "/".join(texts)
            if "except" in item:
                ex_mask, ex_names, ex_any, ex_texts = self.words(item["except"], item)
                if ex_any:
                    raise self.fail("'except: any' would select nothing", item)
                ex_words = tuple(self.last_words)
                text += " except " + ", ".join(ex_texts)
            oth = item.get("other", False)
            if not isinstance(oth, bool):
                raise self.fail("'other' must be true or false", item)
            return fx.Term(("other " if oth or other else "") + text, mask, names, anything,
                           ex_mask, ex_names, oth or other, words, ex_words)
        mask, names, anything = self.word(item, parent)
        return fx.Term(("other " if other else "") + str(item), mask, names, anything,
                       other=other, words=(self.canon(mask, names, anything),))

    def canon(self, mask: int, names: frozenset[str], anything: bool) -> tuple[str, int]:
        """One selector word as explanations say it: its canonical spelling and suit bit."""
        if anything:
            return ("any", 0)
        if mask:
            return (self.catalog.suits[mask.bit_length() - 1], mask)
        return (next(iter(names)), 0)

    def terms(self, items: Any, node: Any, other: bool = False) -> tuple[fx.Term, ...]:
        if isinstance(items, (str, Mapping)):
            items = [items]
        if not isinstance(items, list) or not items:
            raise self.fail("expected a list of suits or card names, got "
                            f"{clip(repr(items))}", node)
        return tuple(self.term(i, items, other) for i in items)

    # -- point effects --------------------------------------------------------------------
    def points(self, entry: Any, node: Any, penalty: bool) -> fx.PointEffect:
        if not isinstance(entry, Mapping):
            raise self.fail(f"expected an effect mapping, got {clip(repr(entry))}", node)
        keys = set(entry)
        kinds = _POINT_KINDS
        special = keys & kinds
        if special:
            if len(keys) != 1:
                extra = sorted(keys - special, key=str)[0] if keys - special else sorted(special)[1]
                raise self.fail(f"'{sorted(special)[0]}' stands alone; remove '{extra}'", entry)
            kind = special.pop()
            val = entry[kind]
            if kind == "best_of":
                if not isinstance(val, list) or len(val) < 2:
                    raise self.fail("best_of needs a list of at least two effects", entry)
                return fx.BestOf(tuple(self.points(v, val, penalty) for v in val))
            if kind == "sum_strength":
                return fx.SumStrength(self.terms(val, entry))
            if kind == "max_strength":
                return fx.MaxStrength(self.terms(val, entry))
            if kind in ("collection", "runs"):
                table = self.table(val, entry, kind)
                if kind == "runs":
                    return fx.Runs(table)
                return fx.Collection(table)
            if kind == "distinct_suits":
                return fx.DistinctSuits(self.integer(val, entry, kind))
            if kind == "per_penalty":
                return fx.PerPenalty(self.integer(val, entry, kind))
            if kind == "per_other_player":
                self.needs.add("players")
                return fx.PerPlayer(self.integer(val, entry, kind))
            if kind == "exactly":
                if not isinstance(val, Mapping) or set(val) != {"count", "of", "points"}:
                    raise self.fail("exactly needs {count: N, of: [..], points: N}", entry)
                return fx.Exactly(self.integer(val["points"], val, "points"),
                                  self.count(val["count"], val, "count"),
                                  self.terms(val["of"], val))
            if not isinstance(val, Mapping) or set(val) != {"per_other", "all"}:
                raise self.fail("odd_strength needs {per_other: N, all: N}", entry)
            return fx.OddStrength(self.integer(val["per_other"], val, "per_other"),
                                  self.integer(val["all"], val, "all"))
        unknown = keys - _POINT_KEYS
        if unknown:
            key = str(sorted(unknown, key=str)[0])
            raise self.fail(f"unknown effect key '{clip(key)}'"
                            f"{self.catalog.suggest(key, _POINT_KEYS | kinds)}", entry)
        if "points" not in entry:
            raise self.fail("a point effect needs 'points'", entry)
        pts = self.integer(entry["points"], entry, "points")
        per: tuple[fx.Term, ...] = ()
        if "per" in entry:
            per += self.terms(entry["per"], entry)
        if "per_other" in entry:
            per += self.terms(entry["per_other"], entry, other=True)
        with_all: tuple[tuple[fx.Term, ...], ...] = ()
        if "with_all" in entry:
            raw = entry["with_all"]
            if not isinstance(raw, list) or not raw:
                raise self.fail("with_all needs a list", entry)
            with_all = tuple(self.terms(g, raw) for g in raw)
        players = other_cursed = None
        if "players" in entry:
            players = self.count(entry["players"], entry, "players")
            self.needs.add("players")
        if "other_cursed" in entry:
            other_cursed = self.count(entry["other_cursed"], entry, "other_cursed")
        in_discard = entry.get("in_discard", False)
        if not isinstance(in_discard, bool):
            raise self.fail("'in_discard' must be true or false", entry)
        if in_discard:
            if not per:
                raise self.fail("'in_discard' counts cards: it needs 'per'", entry)
            self.needs.add("discard")
        cond = fx.Condition(
            self.terms(entry["with"], entry) if "with" in entry else (),
            with_all,
            self.terms(entry["unless"], entry) if "unless" in entry else (),
            players,
            other_cursed,
        )
        first = None
        if "first" in entry:
            first = self.count(entry["first"], entry, "first")
            if not per or in_discard:
                raise self.fail("'first' pays the first card of each 'per' term in hand", entry)
        return fx.Points(pts, per, cond, in_discard, first)

    def integer(self, val: Any, node: Any, what: str, lo: int = -MAX_VALUE,
                hi: int = MAX_VALUE) -> int:
        """A number the card holds (points, a strength), bounded at reading: every search
        and the compiled scorer add such numbers in 64 bits, so a homebrew 2**63 would
        overflow them long after the file was accepted."""
        try:
            return whole_value(val, f"'{what}'", lo, hi)
        except ScorerError as e:
            raise self.fail(e.message, node) from None

    def count(self, val: Any, node: Any, what: str) -> int:
        """A number of cards or players a card counts (``count``, ``first``, ``players``)."""
        return self.integer(val, node, what, 0, MAX_COUNT)

    def table(self, val: Any, node: Any, what: str) -> tuple[tuple[int, int], ...]:
        if not isinstance(val, Mapping) or not val:
            raise self.fail(f"{what} needs a table like {{3: 10, 4: 40}}", node)
        return tuple((self.count(k, val, f"{what} (a number of cards)"),
                      self.integer(v, val, what))
                     for k, v in val.items())

    # -- whole card -------------------------------------------------------------------------
    def card(self, entry: Any) -> Card:
        if not isinstance(entry, Mapping):
            raise self.fail(f"each card must be a mapping, got {clip(repr(entry))}")
        self.line = _line(entry)
        unknown = set(entry) - _CARD_KEYS
        if unknown:
            k = str(sorted(unknown, key=str)[0])
            raise self.fail(f"unknown card key '{clip(k)}'"
                            f"{self.catalog.suggest(k, _CARD_KEYS)}", entry)
        self.needs: set[str] = set()
        cursed = entry.get("cursed", False)
        if not isinstance(cursed, bool):
            raise self.fail("'cursed' must be true or false", entry)
        for req in ("id", "name", "strength") if cursed else ("id", "name", "suit", "strength"):
            if req not in entry:
                raise self.fail(f"card is missing '{req}'", entry)
        cid, name = entry["id"], entry["name"]
        if not isinstance(cid, str) or not cid.strip():
            raise self.fail("'id' must be a non-empty string", entry)
        if not isinstance(name, str) or not name.strip():
            raise self.fail("'name' must be a non-empty string", entry)
        suit_names = ([entry["suit"]] if "suit" in entry else []) + self.names_of(entry, "also")
        mask = 0
        canon = []
        for s in suit_names:
            found = self.catalog.find_suit(s) if isinstance(s, str) else None
            if found is None:
                hint = self.catalog.suggest(str(s), self.catalog.suits)
                raise self.fail(f"unknown suit '{clip(s)}'{hint}", entry)
            mask |= self.catalog.suit_bit(found)
            canon.append(found)
        strength = self.integer(entry["strength"], entry, "strength")

        bonus = tuple(self.points(b, entry, False) for b in self._list(entry, "bonus"))
        pts, blanks = [], []
        conds: list[fx.BlankedUnless | fx.BlankedIf] = []
        lonely = []
        for p in self._list(entry, "penalty"):
            if isinstance(p, Mapping) and set(p) & _PENALTY_KINDS:
                if len(p) != 1:
                    raise self.fail("a blanking penalty stands alone in its list entry", p)
                (kind, val), = p.items()
                if kind == "blanks_lonely":
                    if not isinstance(val, Mapping) or not set(val) <= {"spare"}:
                        raise self.fail("blanks_lonely takes {spare: [..]}", p)
                    lonely.append(fx.BlanksLonely(
                        self.terms(val["spare"], val) if "spare" in val else ()))
                    continue
                t = self.terms(val, p)
                if kind == "blanks":
                    blanks.append(fx.Blanks(t))
                elif kind == "blanked_unless":
                    conds.append(fx.BlankedUnless(t))
                else:
                    conds.append(fx.BlankedIf(t))
            else:
                pts.append(self.points(p, entry, True))
        penalty = Penalty(tuple(pts), tuple(blanks), tuple(conds), tuple(lonely))

        clears = (fx.Clears(self.terms(entry["clears"], entry)),) if "clears" in entry else ()
        clears_word: tuple[fx.ClearsWord, ...] = ()
        if "clears_word" in entry:
            cw = entry["clears_word"]
            if not isinstance(cw, Mapping) or set(cw) != {"word", "of"}:
                raise self.fail("clears_word needs {word: SUIT, of: [..]}", entry)
            word = self.catalog.find_suit(str(cw["word"]))
            if word is None:
                raise self.fail(f"clears_word: unknown suit '{cw['word']}'", cw)
            clears_word = (fx.ClearsWord(self.catalog.suit_bit(word), word,
                                         self.terms(cw["of"], cw)),)
        choice = self.choice(entry)
        extra = None
        if "extra_card" in entry:
            ec = entry["extra_card"]
            if not isinstance(ec, Mapping) or not set(ec) <= {"suits", "from", "pick"}:
                raise self.fail("extra_card needs {from: discard, suits: [..]} or "
                                "{from: deck} (with pick: true when any deck card may be "
                                "taken)", entry)
            src = ec.get("from", "discard")
            if src not in ("discard", "deck"):
                raise self.fail("extra_card: 'from' is 'discard' or 'deck'", ec)
            m, n, a, _ = self.words(ec["suits"], ec) if "suits" in ec else (0, (), True, [])
            if src == "discard" and (n or a):
                raise self.fail("extra_card from the discard area: list suits only", ec)
            pick = ec.get("pick", False)
            if not isinstance(pick, bool) or (pick and src != "deck"):
                raise self.fail("extra_card: 'pick' is true or false, for a card from the "
                                "deck", ec)
            extra = fx.ExtraCard(0 if a else m, src, pick)
        keeps = entry.get("keeps_suits_when_blanked", False)
        if not isinstance(keeps, bool):
            raise self.fail("keeps_suits_when_blanked must be true or false", entry)
        text = entry.get("text", "")
        if not isinstance(text, str):
            raise self.fail("'text' must be a string", entry)
        immune = entry.get("immune", False)
        if not isinstance(immune, bool):
            raise self.fail("'immune' must be true or false (for 'blanked only by some "
                            "cards', write blanked_only_by: [..])", entry)
        unchangeable = entry.get("unchangeable", False)
        if not isinstance(unchangeable, bool):
            raise self.fail("'unchangeable' must be true or false", entry)
        never = entry.get("never_blanks_others", False)
        if not isinstance(never, bool):
            raise self.fail("'never_blanks_others' must be true or false", entry)
        copied, shown, replaced = (self.own_suits(entry, key, mask) for key in
                                   ("copied_suits", "discard_suits", "change_replaces"))
        only_by = (self.terms(entry["blanked_only_by"], entry)
                   if "blanked_only_by" in entry else ())
        grants = self.terms(entry["grants_immunity"], entry) if "grants_immunity" in entry else ()
        replaces = entry.get("replaces")
        if replaces is not None and not isinstance(replaces, str):
            raise self.fail("'replaces' is the id of the card this one replaces", entry)
        share_id = entry.get("share_id", "")
        if not isinstance(share_id, str) or ("share_id" in entry and not share_id.strip()):
            raise self.fail("'share_id' is the id share codes give the card", entry)
        if cursed and (penalty or choice or clears or clears_word):
            raise self.fail("a Cursed Item has only a value and point effects", entry)
        return Card(cid.strip(), name.strip(), tuple(canon), mask, strength, text, bonus, penalty,
                    clears, clears_word, choice, extra, keeps, self.source,
                    "all" if immune else "", unchangeable, copied, grants,
                    cursed, replaces, frozenset(self.needs), shown, replaced, only_by, never,
                    share_id.strip())

    def names_of(self, entry: Mapping, key: str) -> list[str]:
        """A list of suit names (one name alone is a list of one), else a one-line error."""
        val = entry.get(key)
        if val is None:
            return []
        found = names_list(val)
        if found is None:
            raise self.fail(f"'{key}' lists suit names, such as [Beast], got "
                            f"{clip(repr(val))}", entry)
        return found

    def own_suits(self, entry: Mapping, key: str, mask: int) -> int:
        """A trait listing some of the card's own suits (``copied_suits: [Beast]``); 0 if
        absent (the trait then covers all of them)."""
        if key not in entry:
            return 0
        got, names, anything, _ = self.words(entry[key], entry)
        if names or anything:
            raise self.fail(f"{key}: list suits only", entry)
        if got & ~mask:
            raise self.fail(f"{key}: list only suits the card has", entry)
        return got

    def _list(self, entry: Mapping, key: str) -> list:
        val = entry.get(key, [])
        if val is None:
            return []
        if not isinstance(val, list):
            raise self.fail(f"'{key}' must be a list of effects", entry)
        return val

    def choice(self, entry: Mapping) -> fx.Copy | fx.ChangeSuit | fx.ClearOne | fx.Protect | None:
        present = [k for k in ("copy", "change_suit", "clear_one", "protect") if k in entry]
        if len(present) > 1:
            raise self.fail(f"a card has at most one choice; found {', '.join(present)}", entry)
        if not present:
            return None
        kind = present[0]
        val = entry[kind]
        if kind in ("change_suit", "protect"):
            if val is not True:
                raise self.fail(f"{kind} must be 'true'", entry)
            return fx.ChangeSuit() if kind == "change_suit" else fx.Protect()
        if kind == "clear_one":
            return fx.ClearOne(self.terms(val, entry))
        if not isinstance(val, Mapping) or not set(val) <= {"from", "suits", "takes"}:
            raise self.fail("copy needs {from: hand|game, suits: [..], takes: [..]}", entry)
        src = val.get("from")
        if src not in ("hand", "game"):
            raise self.fail("copy: 'from' must be 'hand' or 'game'", val)
        takes = val.get("takes")
        if (not isinstance(takes, list) or not takes
                or not all(isinstance(t, str) and t in _COPY_TAKES for t in takes)):
            raise self.fail(f"copy: 'takes' lists some of {', '.join(sorted(_COPY_TAKES))}", val)
        mask = 0
        if src == "game":
            if "suits" not in val:
                raise self.fail("copy from game needs 'suits'", val)
            mask, names, anything, _ = self.words(val["suits"], val)
            if names or anything:
                raise self.fail("copy: 'suits' lists suits only", val)
        elif "suits" in val:
            raise self.fail("copy from hand takes any other card; remove 'suits'", val)
        return fx.Copy(src, mask, frozenset(takes))


_FILE_KEYS = {"game", "suits", "aliases", "cards", "hand_size", "max_hand"}


def _line(node: Any) -> int:
    """The line of a card file a mapping or list was read from (:mod:`.yaml_lines` gives
    each one its ``line``)."""
    return node.line


def load_into(catalog: Catalog, text: str, source: str) -> list[Card]:
    """Add the cards of one YAML document to ``catalog``; returns the new cards."""
    from .yaml_lines import load_yaml  # (PyYAML only where a card file is read)

    data = load_yaml(text, source)
    if not isinstance(data, Mapping):
        raise ScorerError("a card file is a mapping with a 'cards' list", f"{source}:1")
    unknown = set(data) - _FILE_KEYS
    if unknown:
        k = sorted(unknown, key=str)[0]
        raise ScorerError(f"unknown top-level key '{clip(k)}' (expected "
                          f"{', '.join(sorted(_FILE_KEYS))})", f"{source}:{_line(data)}")
    where = f"{source}:{_line(data)}"
    for key in ("hand_size", "max_hand"):
        if key in data:
            setattr(catalog, key, whole_value(data[key], f"'{key}'", 1, MAX_HAND, where))
    game = data.get("game")
    if game is not None and not isinstance(game, str):
        raise ScorerError(f"'game' is the name of the game, got {clip(repr(game))}", where)
    if game:
        catalog.games.append(game)
    suits = names_list(data.get("suits") or [])
    if suits is None:
        raise ScorerError("'suits' lists the new suits' names, such as [Dragonkin], got "
                          f"{clip(repr(data['suits']))}", where)
    for s in suits:
        if not s.strip():
            raise ScorerError(f"bad suit name {clip(repr(s))}", where)
        if catalog.find_suit(s) is None:
            catalog.suits.append(s.strip())
    aliases = data.get("aliases") or {}
    if not isinstance(aliases, Mapping) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in aliases.items()):
        raise ScorerError("'aliases' maps other spellings to names, such as {Animal: Beast}, "
                          f"got {clip(repr(aliases))}", where)
    for alias, target in aliases.items():
        catalog.aliases[fold(alias)] = target
        catalog.alias_spelling[fold(alias)] = alias
    entries = data.get("cards")
    if not isinstance(entries, list):
        raise ScorerError("a card file needs a 'cards' list", f"{source}:{_line(data)}")
    # Names first, so a card may name a card defined further down the file.
    names = {fold(c.name): c.name for c in catalog.cards}
    for e in entries:
        if isinstance(e, Mapping) and isinstance(e.get("name"), str):
            names.setdefault(fold(e["name"]), e["name"].strip())
    comp = _Compiler(catalog, source, set(names))
    comp.names_canon = names
    new = []
    for e in entries:
        card = comp.card(e)
        catalog.add(card, f"{source}:{e.line}")
        new.append(card)
    if len(catalog.suits) > 62:
        raise ScorerError("too many suits (at most 62)", source)
    return new


def names_list(val: Any) -> list[str] | None:
    """A YAML value that lists names: a list of texts, or one text alone (a list of one);
    None for anything else (a number, a mapping, a list holding one)."""
    if isinstance(val, str):
        return [val]
    if isinstance(val, list) and all(isinstance(v, str) for v in val):
        return list(val)
    return None


def shipped_text(name: str) -> str:
    """Text of a card file shipped with the package (works from a source tree and a wheel)."""
    try:
        return (resources.files("fantasy_scorer.cards") / name).read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        here = Path(__file__).resolve().parents[2] / "cards" / name
        return here.read_text(encoding="utf-8")


#: Shipped expansions and editions, by the name users give (``--expansion``, ``--edition``).
EXPANSIONS = {"cursed-hoards": "cursed-hoards.yaml"}
EDITIONS = {"standard": None, "deluxe": "deluxe.yaml"}


T = TypeVar("T")


def per_catalog(cache: dict[int, Any], catalog: Catalog, build: Callable[[Catalog], T]) -> T:
    """What ``build`` makes of ``catalog``, made once per catalog object (compiled tables,
    line coders): kept by the object's id, checked against the object itself (an id may be
    reused once a catalog is gone), at most a few dozen kept."""
    found = cache.get(id(catalog))
    if found is None or found.catalog is not catalog:
        if len(cache) > 32:
            cache.clear()
        found = cache[id(catalog)] = build(catalog)
    return found


def base_catalog(expansion: str | None = None, edition: str | None = None) -> Catalog:
    """The base game with its two promos, optionally with an expansion and an edition's
    replacement cards (cached: each combination is read once per process, so every caller
    gets the very same Card objects)."""
    key = (expansion, None if edition == "standard" else edition)
    prebuilt = _prebuilt.get(key)
    return prebuilt if prebuilt is not None else _shipped_catalog(*key)


#: Catalogs built in another process, by (expansion, edition): see :func:`use_prebuilt`.
_prebuilt: dict[tuple[str | None, str | None], Catalog] = {}


def use_prebuilt(found: dict[tuple[str | None, str | None], Catalog]) -> None:
    """Make :func:`base_catalog` answer the catalogs ``found`` (keyed by expansion and edition,
    ``None`` for the standard edition) instead of reading the card files: the static site
    unpickles them in the browser, which has no PyYAML to read the files with. A game not
    among them is still read from its files."""
    _prebuilt.update(found)


@cache
def _shipped_catalog(expansion: str | None, edition: str | None) -> Catalog:
    return _cached([(name, shipped_text(name)) for name in shipped_files(expansion, edition)])


def shipped_files(expansion: str | None, edition: str | None) -> list[str]:
    """The shipped card files of an expansion and edition, in the order they are read (an
    unknown name is a one-line error with a did-you-mean)."""
    files = ["base.yaml"]
    if expansion is not None:
        if expansion not in EXPANSIONS:
            raise ScorerError(f"unknown expansion '{expansion}'"
                              f"{Catalog().suggest(expansion, EXPANSIONS)}; known: "
                              + ", ".join(EXPANSIONS))
        files.append(EXPANSIONS[expansion])
    if edition is not None:
        if edition not in EDITIONS:
            raise ScorerError(f"unknown edition '{edition}'"
                              f"{Catalog().suggest(edition, EDITIONS)}; known: "
                              + ", ".join(EDITIONS))
        replacing = EDITIONS[edition]
        if replacing:
            files.append(replacing)
    return files


#: The modules whose classes a catalog is made of (a pickled catalog names them).
_PICKLED = ("catalog.py", "effects.py")


def _cached(files: list[tuple[str, str]]) -> Catalog:
    """The catalog of the shipped card files ``files`` ((name, text) pairs, in order), read
    from the user's cache where an earlier process left it, else compiled and left there.

    Every ``fr-score`` process starts by reading the shipped cards: importing PyYAML,
    parsing and compiling them is a good part of a plain ``fr-score hand.txt``; unpickling
    the result costs a small fraction of that. The file is named after a
    digest of the card files, of the code that compiles them and of the interpreter, so any
    change to one of those reads the YAML again. The cache is only ever a shortcut: a file
    that is missing, unreadable or not a catalog is compiled anew, and a cache that cannot be
    written is simply not written."""
    import hashlib
    import pickle
    import sys

    digest = hashlib.sha1(sys.version.encode())
    here = Path(__file__).resolve().parent
    for name in _PICKLED:
        digest.update((here / name).read_bytes())
    for name, text in files:
        digest.update(f"\0{name}\0{text}".encode())
    path = Path.home() / ".cache" / "fantasy-scorer" / "catalogs" / f"{digest.hexdigest()}.pickle"
    try:
        with path.open("rb") as f:
            found = pickle.load(f)
        if isinstance(found, Catalog):
            return found
    except Exception:  # noqa: BLE001 (missing, half-written by another process, stale: compile)
        pass
    cat = Catalog()
    for name, text in files:
        load_into(cat, text, name)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        part = path.with_name(f"{path.name}.{os.getpid()}.part")
        part.write_bytes(pickle.dumps(cat, protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(part, path)  # (whole or not at all, for a process reading it meanwhile)
    except OSError:
        pass
    return cat


def load_catalog(extra_files: Iterable[str | Path] = (), expansion: str | None = None,
                 edition: str | None = None) -> Catalog:
    """The base catalog (with an expansion and edition) plus the user's own card files."""
    extra_files = list(extra_files)
    if not extra_files:
        return base_catalog(expansion, edition)
    cat = Catalog()  # (the user's cards are added to a catalog of their own)
    for name in shipped_files(expansion, edition):
        load_into(cat, shipped_text(name), name)
    for f in extra_files:
        load_into(cat, read_card_file(Path(f)), str(f))
    return cat


def read_card_file(path: Path) -> str:
    """A user's card file as text: UTF-8 (a byte-order mark is fine), else a one-line error."""
    try:
        with path.open("rb") as f:
            data = read_limited(f.read, str(path))
    except OSError as e:
        raise ScorerError(f"cannot read card file: {e.strerror}", str(path)) from None
    return decode_utf8(data, str(path))


def decode_utf8(data: bytes, source: str) -> str:
    """Bytes a user gave as UTF-8 text (a leading byte-order mark is dropped); anything else
    is a one-line error naming the line of the first byte that is not UTF-8."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise ScorerError(f"not UTF-8 text (byte 0x{data[e.start]:02x}); save the file as "
                          "UTF-8", f"{source}:{line}") from None


def shipped_games() -> list[tuple[str | None, str]]:
    """Every shipped (expansion, edition) pair, the plainest first."""
    return [(x, e) for x in (None, *EXPANSIONS) for e in EDITIONS]


def shipped_home(card_id: str, share: bool = False) -> tuple[str | None, str] | None:
    """(expansion, edition) of the plainest shipped game holding a card id (a share-code id
    with ``share``), or None. Used to tell a user which option brings a card in."""
    for expansion, edition in shipped_games():
        cat = base_catalog(expansion, edition)
        if card_id in (cat.by_code if share else cat.by_id):
            return expansion, edition
    return None


def game_options(expansion: str | None, edition: str) -> str:
    """The command-line options that select a shipped game (``--expansion cursed-hoards``)."""
    out = [f"--expansion {expansion}"] if expansion else []
    if edition != "standard":
        out.append(f"--edition {edition}")
    return " ".join(out)
