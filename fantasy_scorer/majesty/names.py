"""Turning what people type (location, character and card names) into indices, and back.

Names are data: `LANGUAGES` maps a language code to the seven character names and the eight
location names, in the index order of `rules`. Input accepts every language of the table,
case- and accent-insensitively; output (``--lang``) uses one of them. A new language is one
more entry in the table, and every file, option and message knows it.

Every lookup failure says what was wrong and suggests the closest valid name, because a
typo in a hand-written game file is the most common mistake.
"""

from __future__ import annotations

import difflib
import unicodedata
from typing import NamedTuple

from ..errors import clip
from .rules import CHARACTERS, LOCATIONS

ENGLISH = "en"


class Words(NamedTuple):
    """The names of one language: characters 0-6 and locations 0-7 (7 = the Infirmary)."""

    characters: tuple[str, ...]
    locations: tuple[str, ...]


#: Every language the Majesty names are known in. Only the English names are shipped: no
#: other edition's names have been checked against its printed cards yet.
LANGUAGES: dict[str, Words] = {ENGLISH: Words(CHARACTERS, LOCATIONS)}


def fold(text: str) -> str:
    """Case-, accent- and spacing-insensitive form of a name (``Müller`` = ``muller``)."""
    decomposed = unicodedata.normalize("NFKD", str(text).strip().casefold())
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(plain.replace("-", " ").replace("_", " ").split())


def suggest(word: str, choices: list[str] | tuple[str, ...]) -> str:
    """`` (did you mean X?)`` for the closest choice, or a list of the valid ones."""
    folded = {fold(c): c for c in choices}
    close = difflib.get_close_matches(fold(word), list(folded), n=1, cutoff=0.5)
    if close:
        return f" (did you mean {folded[close[0]]}?)"
    return f" (valid: {', '.join(dict.fromkeys(choices))})"


def check_lang(lang: str | None) -> str:
    """A known language code (any case), English when none is given; else ValueError."""
    if lang is None:
        return ENGLISH
    code = lang.strip().lower()
    if code not in LANGUAGES:
        raise ValueError(
            f"unknown language {lang!r} for Majesty: its names are known in "
            f"{', '.join(LANGUAGES)}"
        )
    return code


def _all(kind: str) -> list[str]:
    """Every spelling of one kind (characters or locations) over all languages."""
    return [name for words in LANGUAGES.values() for name in getattr(words, kind)]


def _find(text: str, kind: str) -> int | None:
    key = fold(text)
    for words in LANGUAGES.values():
        for i, name in enumerate(getattr(words, kind)):
            if fold(name) == key:
                return i
    return None


def location_index(key: object) -> int:
    """A location given as 1-8, by name, or by its character's name (``Miller`` = the mill),
    in any known language, any case -> index 0-7."""
    if isinstance(key, bool):
        raise ValueError(f"unknown location {key!r}: use 1-8 or a name like mill")
    if isinstance(key, int):
        if 1 <= key <= 8:
            return key - 1
        raise ValueError(f"unknown location {key}: locations are numbered 1-8")
    text = str(key).strip()
    if text.isascii() and text.isdigit():  # (str.isdigit alone takes '²')
        if len(text) > 3:
            raise ValueError(f"unknown location {clip(text)}: locations are numbered 1-8")
        return location_index(int(text))
    found = _find(text, "locations")
    if found is None:
        found = _find(text, "characters")  # a character's home is the location of its index
    if found is not None:
        return found
    raise ValueError(
        f"unknown location {clip(repr(text))}"
        f"{suggest(text, _all('locations') + _all('characters'))}"
    )


def character_index(name: object) -> int:
    """A character name (any known language, any case) -> its index 0-6 (its location)."""
    text = str(name).strip()
    found = _find(text, "characters")
    if found is None:
        raise ValueError(f"unknown character {text!r}{suggest(text, _all('characters'))}")
    return found


def character_name(index: int, lang: str = ENGLISH) -> str:
    return LANGUAGES[lang].characters[index]


def location_name(index: int, lang: str = ENGLISH) -> str:
    return LANGUAGES[lang].locations[index]
