"""What a user types, turned into cards and suits, and cards and suits turned back into words.

Names match case-, accent- and spacing-insensitively (``doppelganger`` finds Doppelgänger), by
card id (``FR53``), by the aliases the card files declare (``Animal`` = Beast,
``Book of Transfiguration`` = Book of Changes) and by the official names of the 11 editions in
``fantasy_scorer/data/card-names-i18n.json`` (``Gebirge``, ``Montaña`` and ``高山`` all find
Mountain). The translations are data: a new language is a new key in that file, not code.

Two cards may share a word in different languages (the Portuguese "Caverna" is Cavern in the
base game and Dungeon in Cursed Hoards). Such a word is never guessed: it is an error listing the
candidates, and the card id always works. An unknown word gets a "did you mean" hint drawn from
every language.

The same data prints names: :meth:`Names.display` and :meth:`Names.suit_display` give a card's or
a suit's name in one language, and :class:`Localizer` says the score sheet's statuses and the
explanation's steps in that language (their templates are ``data/messages/<lang>.json``).
"""

from __future__ import annotations

import difflib
import html
import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from ..errors import ScorerError, clip
from .catalog import Card, Catalog, fold, game_options, shipped_home
from .messages import Join, Msg, render

I18N_FILE = "card-names-i18n.json"
#: The language the card files are written in; it needs no table.
ENGLISH = "en"


# --------------------------------------------------------------------------------------------
# The translation data
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class I18n:
    """Official card and suit names by language, as shipped in ``card-names-i18n.json``.

    ``cards`` maps a card id to ``{language: name}``; ``alternates`` maps a card id to the names
    of another printing of the same card (the promo Phoenix's ``FR55P`` entry belongs to
    ``FR55``): they are accepted as input and used for display when the card has no name of its
    own in a language. ``suits`` maps a folded English suit name to ``{language: name}``.
    """

    languages: tuple[str, ...]
    cards: dict[str, dict[str, str]]
    alternates: dict[str, dict[str, str]]
    suits: dict[str, dict[str, str]]


def _unescape(names: Any, where: str) -> dict[str, str]:
    if not isinstance(names, dict):
        raise ScorerError(f"{I18N_FILE}: {where} must map languages to names")
    return {str(lang): html.unescape(str(n)).strip() for lang, n in names.items() if n}


def parse_i18n(data: Any) -> I18n:
    """Check and normalise the JSON document (HTML entities such as ``&apos;`` are unescaped).

    An entry whose id is another entry's id plus ``P`` (``FR55P``) is an alternate printing of
    that card: its names become alternates of the base id rather than a card of their own.
    """
    if not isinstance(data, dict) or not {"languages", "cards", "suits"} <= set(data):
        raise ScorerError(f"{I18N_FILE}: expected an object with languages, suits and cards")
    langs = tuple(str(lang) for lang in data["languages"])
    cards: dict[str, dict[str, str]] = {}
    alternates: dict[str, dict[str, str]] = {}
    raw_cards = data["cards"]
    for cid, names in raw_cards.items():
        base = cid[:-1]
        if cid.endswith("P") and base in raw_cards:
            alternates[base] = _unescape(names, cid)
        else:
            cards[cid] = _unescape(names, cid)
    suits = {fold(key): _unescape(names, key) for key, names in data["suits"].items()}
    return I18n(langs, cards, alternates, suits)


@cache
def load_i18n() -> I18n:
    """The shipped translations (from the installed package, or the source tree)."""
    try:
        shipped = resources.files("fantasy_scorer.realms.data") / I18N_FILE
        text = shipped.read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        here = Path(__file__).resolve().parent / "data" / I18N_FILE
        text = here.read_text(encoding="utf-8")
    return parse_i18n(json.loads(text))


def check_lang(lang: str | None, i18n: I18n | None = None) -> str:
    """A supported language code (case-insensitive), English when none is given."""
    if lang is None:
        return ENGLISH
    languages = (i18n or load_i18n()).languages
    code = lang.strip().lower()
    if code not in languages:
        raise ScorerError(f"unknown language '{lang}' (choose from {', '.join(languages)})")
    return code


# --------------------------------------------------------------------------------------------
# Lookup
# --------------------------------------------------------------------------------------------


class _Index:
    """Folded word → {target: labels saying where the word comes from}, keeping the first spelling.

    A word reaching two targets is ambiguous; the labels let the error say why (``es, pt``).
    """

    def __init__(self) -> None:
        self.hits: dict[str, dict[Any, list[str]]] = {}
        self.spelling: dict[str, str] = {}

    def add(self, word: str, target: Any, label: str) -> None:
        key = fold(word)
        if not key:
            return
        labels = self.hits.setdefault(key, {}).setdefault(target, [])
        if label not in labels:
            labels.append(label)
        self.spelling.setdefault(key, word.strip())

    def find(self, text: str) -> dict[Any, list[str]]:
        return self.hits.get(fold(text), {})


def elsewhere(ids: list[str], share: bool = False) -> str:
    """Why cards of these ids are not in this game, and the option that brings them in: a
    shipped expansion or edition (read from the card files), else the user's own card file."""
    for cid in ids:
        home = shipped_home(cid, share)
        if home is not None and home != (None, "standard"):
            expansion, edition = home
            game = (f"the {expansion} expansion" if expansion else f"the {edition} edition")
            return f"{cid} is a card of {game}; run with {game_options(*home)}"
    return (f"{' or '.join(ids)} is not a card of this game "
            "(add its card file with --cards)")


class Names:
    """Name lookup and display for one catalog, in every language of the translation data."""

    def __init__(self, catalog: Catalog, i18n: I18n | None = None) -> None:
        self.catalog = catalog
        self.i18n = i18n if i18n is not None else load_i18n()
        self._ids = {fold(c.id): c for c in catalog.cards}
        self._cards = _Index()
        self._suits = _Index()
        self._elsewhere = _Index()  # names of cards the data knows but this catalog lacks
        for cid, words in self.i18n.cards.items():
            if fold(cid) not in self._ids:
                for lang, word in words.items():
                    self._elsewhere.add(word, cid, lang)
        for c in catalog.cards:
            self._cards.add(c.name, c, "name")
            for lang, word in self.i18n.cards.get(c.id, {}).items():
                self._cards.add(word, c, lang)
            for lang, word in self.i18n.alternates.get(c.id, {}).items():
                self._cards.add(word, c, lang)
        for s in catalog.suits:
            self._suits.add(s, s, "name")
            for lang, word in self.i18n.suits.get(fold(s), {}).items():
                self._suits.add(word, s, lang)
        for alias, target in catalog.aliases.items():
            spelled = catalog.alias_spelling.get(alias, alias)
            card = catalog.by_name.get(fold(target))
            if card is not None:
                self._cards.add(spelled, card, "alias")
            elif catalog.find_suit(target) is not None:
                self._suits.add(spelled, catalog.find_suit(target), "alias")

    # -- input ------------------------------------------------------------------------------
    def card(self, text: str, lang: str | None = None) -> Card:
        """The card a user means, or a one-line error (unknown with suggestions, or ambiguous).

        Any language is understood; ``lang`` is the language of the request, in which an
        unknown name's did-you-mean is given (every language when None)."""
        found = self._ids.get(fold(text))
        if found is not None:
            return found
        hits = self._cards.find(text)
        if len(hits) == 1:
            return next(iter(hits))
        if hits:
            options = " or ".join(
                f"{c.name} ({c.id}; {', '.join(labels)})" for c, labels in hits.items()
            )
            raise ScorerError(
                f"'{clip(text.strip())}' is ambiguous: {options}; write the card id or the "
                "English name"
            )
        other = self._elsewhere.find(text)
        if other:
            raise ScorerError(f"unknown card '{clip(text.strip())}': {elsewhere(sorted(other))}")
        raise ScorerError(f"unknown card '{clip(text.strip())}'"
                          f"{self._hint(text, self._cards, lang)}")

    def suit(self, text: str, lang: str | None = None) -> str:
        """The suit a user means, in any language, or a one-line error (a did-you-mean in
        ``lang``, or the list of the suits in ``lang`` when no suit is close)."""
        hits = self._suits.find(text)
        if len(hits) == 1:
            return next(iter(hits))
        if hits:
            options = " or ".join(f"{s} ({', '.join(labels)})" for s, labels in hits.items())
            raise ScorerError(f"suit '{clip(text.strip())}' is ambiguous: {options}")
        hint = self._hint(text, self._suits, lang)
        if not hint and lang is not None:
            shown = ", ".join(self.suit_display(s, lang) for s in self.catalog.suits)
            hint = f" (the suits: {shown})"
        raise ScorerError(f"unknown suit '{clip(text.strip())}'{hint}")

    def _hint(self, text: str, index: _Index, lang: str | None = None) -> str:
        """`` (did you mean 'Gebirge' (Mountain)?)`` from the spellings of ``lang`` (the
        English names and the aliases for English), or of every language when None."""
        word = fold(text)
        keys = list(index.hits)
        if lang is not None:
            own = {"name", "alias", ENGLISH} if lang == ENGLISH else {lang}
            keys = [k for k in keys
                    if any(own & set(labels) for labels in index.hits[k].values())]
        close = difflib.get_close_matches(word, keys, n=3, cutoff=0.6)
        if not close:
            return ""
        # Only the best matches: "Armmy" suggests Army, not also the French "Arme" (Weapon).
        score = {k: difflib.SequenceMatcher(None, word, k).ratio() for k in close}
        close = [k for k in close if score[k] >= max(score.values()) - 0.1]
        shown: list[str] = []
        seen: set[str] = set()
        for key in close:  # best match first; one suggestion per card or suit
            targets = [t.name if isinstance(t, Card) else t for t in index.hits[key]]
            if seen.issuperset(targets):
                continue
            seen.update(targets)
            spelled = index.spelling[key]
            same = lang is not None or (len(targets) == 1 and fold(targets[0]) == key)
            shown.append(f"'{spelled}'" if same else f"'{spelled}' ({' or '.join(targets)})")
        return " (did you mean " + " or ".join(shown) + "?)"

    # -- output -----------------------------------------------------------------------------
    def check_lang(self, lang: str | None) -> str:
        return check_lang(lang, self.i18n)

    def display(self, card: Card, lang: str = ENGLISH) -> str:
        """The card's name in ``lang``: its own, else its alternate printing's, else English."""
        if lang == ENGLISH:
            return card.name
        own = self.i18n.cards.get(card.id, {}).get(lang)
        return own or self.i18n.alternates.get(card.id, {}).get(lang) or card.name

    def suit_display(self, suit: str, lang: str = ENGLISH) -> str:
        if lang == ENGLISH:
            return suit
        return self.i18n.suits.get(fold(suit), {}).get(lang) or suit

    def localizer(self, lang: str | None) -> Localizer:
        return Localizer(self, self.check_lang(lang))


class Localizer:
    """Everything a hand's output says, in one language.

    :meth:`say` renders a message (statuses, explanation steps) from that language's
    templates with its card and suit names (:mod:`~fantasy_scorer.realms.messages`);
    :meth:`status` is a score sheet's Status cell. :meth:`text` swaps the card and suit names
    inside a line that is no message (a choice written ``Blizzard -> Beast``): whole words
    only, longest name first, so "Great Flood" is not read as the suit Flood.
    """

    def __init__(self, names: Names, lang: str) -> None:
        self.names = names
        self.lang = lang
        self._words: dict[str, str] = {}
        if lang != ENGLISH:
            for s in names.catalog.suits:
                self._words[s] = names.suit_display(s, lang)
            for c in names.catalog.cards:
                self._words[c.name] = names.display(c, lang)
            for words in names.i18n.suits.values():  # labels no card has ("Cursed Item")
                if words.get(ENGLISH) and words.get(lang):
                    self._words.setdefault(words[ENGLISH], words[lang])
            self._words = {k: v for k, v in self._words.items() if k != v}
        self._pattern = (
            re.compile(
                r"(?<!\w)("
                + "|".join(re.escape(w) for w in sorted(self._words, key=len, reverse=True))
                + r")(?!\w)"
            )
            if self._words
            else None
        )

    @property
    def active(self) -> bool:
        """Whether this language differs from the card files' English."""
        return self.lang != ENGLISH

    def say(self, value: Msg | Join) -> str:
        """A message in this language."""
        return render(value, self)

    def status(self, line: Any) -> str:
        """A score-sheet line's Status cell (its ``reasons``) in this language."""
        return render(Join(line.reasons, "semi"), self)

    def card(self, card: Card) -> str:
        return self.names.display(card, self.lang)

    def name(self, english: str) -> str:
        """A canonical English card name (or suit) in this language."""
        return self._words.get(english, english)

    def suit_label(self, label: str) -> str:
        """``Beast/Flame/Weather`` in this language."""
        return "/".join(self.name(s) for s in label.split("/"))

    def text(self, english: str) -> str:
        """A line of English output with every card and suit name in this language."""
        if self._pattern is None:
            return english
        return self._pattern.sub(lambda m: self._words[m.group(1)], english)
