"""Every sentence a user reads about a hand, as data: a key and its arguments, said in one place.

A score sheet's status (``blanked: no Flame in hand``), a step of the referee's explanation and
the arithmetic of a bonus are :class:`Msg` objects: a key and named arguments. The engine builds
them; :func:`render` turns one into text in a language, from the templates of
``fantasy_scorer/realms/data/messages/<lang>.json``. The score sheet, ``fr-score explain``, the
JSON and the web page all call :func:`render` (through :meth:`Localizer.say
<fantasy_scorer.realms.names.Localizer.say>`), so they say the same sentence from one source.

A template is Python's ``str.format`` syntax with named fields: ``"blanked by {cards}"``,
``"{points:+d} × {n} per {terms}"``. An argument is rendered by its type:

* an ``int`` keeps its number, formatted by the field's spec (``{points:+d}`` gives ``+15``);
* a card (anything with ``id`` and ``name``) or a :class:`Name` is the card's name in the
  language, a :class:`Suit` the suit's name (from ``card-names-i18n.json``);
* a :class:`Msg` is rendered in turn, and a :class:`Join` renders its items and joins them with
  the language's words for ``and``, ``or``, a list, a sentence list (``semi``) …;
* a ``str`` is used as it is (use it only for text that is no language: ``R8 (b)``).

``{field!a}`` puts the language's indefinite article before the value (``a Flame``,
``an Army`` in English; languages without articles give the value alone).

**Adding a sentence**: build ``Msg("area.what", arg=...)`` where the text is needed, and add
the key with its template to *every* file of ``data/messages/`` (``tests/test_messages.py``
fails on a key missing from a language, or a template using other fields than English's).

**Adding a language**: copy ``en.json`` to ``<code>.json`` and translate every template
(keep the ``{fields}``; the ``_grammar`` entry holds the joining words and the article). The
language's card and suit names come from ``card-names-i18n.json``; its code must be one of the
languages listed there.
"""

from __future__ import annotations

import json
import string
from collections.abc import Iterable, Mapping
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Protocol

ENGLISH = "en"
MESSAGES_DIR = "messages"

#: How a :class:`Join` may join its items: the ``_grammar`` entries of a language file.
JOINS = ("and", "or", "list", "semi", "slash", "space", "plus")


class Name(str):
    """A card's canonical (English) name, shown in the reader's language."""

    __slots__ = ()


class Suit(str):
    """A suit's canonical name, shown in the reader's language."""

    __slots__ = ()


class Msg:
    """A sentence: the key of its template and its named arguments."""

    __slots__ = ("key", "args")

    def __init__(self, key: str, **args: Any) -> None:
        self.key = key
        self.args = args

    def __repr__(self) -> str:
        return f"Msg({self.key!r}, {self.args!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Msg) and (self.key, self.args) == (other.key, other.args)

    __hash__ = None  # type: ignore[assignment]

    @property
    def text(self) -> str:
        """The sentence in English, with the cards' English names."""
        return render(self)

    def as_json(self) -> dict[str, Any]:
        """``{"key", "args"}`` with cards and suits as their English names."""
        return {"key": self.key, "args": {k: _json(v) for k, v in self.args.items()}}


class Join:
    """Several items said together: ``how`` is one of :data:`JOINS`."""

    __slots__ = ("items", "how")

    def __init__(self, items: Iterable[Any], how: str = "and") -> None:
        if how not in JOINS:
            raise ValueError(f"unknown join {how!r}")
        self.items = tuple(items)
        self.how = how

    def __repr__(self) -> str:
        return f"Join({list(self.items)!r}, {self.how!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Join) and (self.items, self.how) == (other.items, other.how)

    __hash__ = None  # type: ignore[assignment]

    def __bool__(self) -> bool:
        return bool(self.items)


class Namer(Protocol):
    """What rendering needs from a language: the names of cards and suits in it."""

    lang: str

    def card(self, card: Any) -> str: ...

    def name(self, english: str) -> str: ...


class _English:
    """Names as the card files spell them."""

    lang = ENGLISH

    def card(self, card: Any) -> str:
        return str(card.name)

    def name(self, english: str) -> str:
        return english


ENGLISH_NAMES = _English()


# --------------------------------------------------------------------------------------------
# The templates
# --------------------------------------------------------------------------------------------


def _read(lang: str) -> str:
    name = f"{lang}.json"
    try:
        return (resources.files("fantasy_scorer.realms.data") / MESSAGES_DIR / name).read_text(
            encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        here = Path(__file__).resolve().parent / "data" / MESSAGES_DIR / name
        return here.read_text(encoding="utf-8")


@cache
def templates(lang: str = ENGLISH) -> dict[str, Any]:
    """The templates of one language (``_grammar`` included); English fills any gap, so a
    language file missing a key still prints a sentence (a test makes sure none is missing)."""
    data = json.loads(_read(lang))
    if lang == ENGLISH:
        return data
    merged = dict(templates(ENGLISH))
    merged.update(data)
    merged["_grammar"] = {**templates(ENGLISH)["_grammar"], **data.get("_grammar", {})}
    return merged


def languages() -> list[str]:
    """The languages that have a message file."""
    try:
        folder = resources.files("fantasy_scorer.realms.data") / MESSAGES_DIR
        names = [p.name for p in folder.iterdir()]
    except (ModuleNotFoundError, FileNotFoundError):
        names = [p.name for p in (Path(__file__).resolve().parent / "data" / MESSAGES_DIR)
                 .iterdir()]
    return sorted(n[:-5] for n in names if n.endswith(".json"))


# --------------------------------------------------------------------------------------------
# Rendering
# --------------------------------------------------------------------------------------------


class _Formatter(string.Formatter):
    def __init__(self, lang: str, namer: Namer) -> None:
        self.table = templates(lang)
        self.grammar = self.table["_grammar"]
        self.namer = namer

    def get_value(self, key: int | str, args: Any, kwargs: Mapping[str, Any]) -> Any:
        value = kwargs[key]  # type: ignore[index]
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        return self.say(value)

    def convert_field(self, value: Any, conversion: str | None) -> Any:
        if conversion == "a":
            text = str(value)
            vowel = text[:1].lower() in "aeiou"
            return self.grammar["article_vowel" if vowel else "article"].format(text)
        return super().convert_field(value, conversion)

    def say(self, value: Any) -> str:
        if isinstance(value, Msg):
            return self.format(self.table[value.key], **value.args)
        if isinstance(value, Join):
            return self.join([self.say(v) for v in value.items], value.how)
        if isinstance(value, (Name, Suit)):
            return self.namer.name(str(value))
        if isinstance(value, str):
            return value
        if isinstance(value, int):
            return str(value)
        if hasattr(value, "id") and hasattr(value, "name"):
            return self.namer.card(value)
        raise TypeError(f"cannot render {value!r}")

    def join(self, words: list[str], how: str) -> str:
        g = self.grammar
        if how in ("and", "or") and len(words) > 1:
            return g["list"].join(words[:-1]) + g[how] + words[-1]
        sep = g["list"] if how in ("and", "or") else g[how]
        return sep.join(words)


def render(value: Msg | Join, namer: Namer | None = None, lang: str | None = None) -> str:
    """A message (or a joined list of them) as text in ``lang``, with ``namer``'s names (the
    language of ``namer`` when ``lang`` is not given; English by default)."""
    namer = namer or ENGLISH_NAMES
    return _Formatter(lang or namer.lang, namer).say(value)


def fields(template: str) -> set[str]:
    """The named fields a template uses (for the tests of the language files)."""
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


def _json(value: Any) -> Any:
    if isinstance(value, Msg):
        return value.as_json()
    if isinstance(value, Join):
        return [_json(v) for v in value.items]
    if isinstance(value, (int, str)):
        return value if isinstance(value, int) else str(value)
    if hasattr(value, "name"):
        return str(value.name)
    return str(value)
