"""The page's words in 11 languages, kept as data: one JSON file per language in ``i18n/``.

Each file maps a key to a sentence with ``{name}`` placeholders (``"Discard {card}"``). A
sentence that depends on a number is an object of plural forms, chosen by the language's
plural rule (CLDR's categories ``one``, ``few``, ``many``, ``other``)::

    "count.cards": {"one": "{n} card", "other": "{n} cards"}

The server renders the first page with :func:`text`; the page's script receives the same
table (:func:`catalog`) and picks plural forms with the browser's ``Intl.PluralRules`` for the
same language (:data:`BCP47` maps this project's codes, the editions' own, to standard tags).
A test checks that every key exists in every language with the same placeholders, and that
the Python rule below agrees with the browser's.

A language is added by writing its file; ``_language`` holds its name in itself (the menu
shows ``Deutsch``, ``Polski``, ``中文``).
"""

from __future__ import annotations

import json
import string
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from ..realms.names import ENGLISH, load_i18n

#: This project's language codes (those of the printed editions) as BCP 47 tags.
BCP47 = {"cz": "cs", "kr": "ko", "ua": "uk"}
LANGUAGE_NAME = "_language"


def tag(lang: str) -> str:
    """The standard tag for ``lang`` (``cz`` → ``cs``), for ``<html lang>`` and the browser."""
    return BCP47.get(lang, lang)


@cache
def table(lang: str) -> dict[str, Any]:
    """Every message of ``lang`` (a shipped language; see :func:`languages`)."""
    name = f"{lang}.json"
    try:
        text = (resources.files("fantasy_scorer.web") / "i18n" / name).read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        text = (Path(__file__).resolve().parent / "i18n" / name).read_text(encoding="utf-8")
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError(f"i18n/{name} must be an object")
    return data


def languages() -> tuple[str, ...]:
    """The languages of the card names, which are also those of the page."""
    return load_i18n().languages


def language_name(lang: str) -> str:
    return str(table(lang)[LANGUAGE_NAME])


def plural(lang: str, n: int) -> str:
    """CLDR's plural category of a whole number ``n`` in ``lang``."""
    lang = tag(lang)
    n = abs(n)
    if lang in ("ko", "zh"):
        return "other"
    if lang == "fr":
        return "one" if n in (0, 1) else "other"
    if lang == "pt":  # CLDR's pt (Brazil): 0 and 1 are singular
        return "one" if n in (0, 1) else "other"
    if lang == "cs":
        return "one" if n == 1 else "few" if 2 <= n <= 4 else "other"
    if lang == "pl":
        if n == 1:
            return "one"
        return "few" if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else "many"
    if lang in ("ru", "uk"):
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        return "few" if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else "many"
    return "one" if n == 1 else "other"


def text(lang: str, key: str, **values: Any) -> str:
    """The message ``key`` in ``lang`` with its placeholders filled (English if ``lang`` lacks
    it; a test keeps every language complete, so this only guards a homebrew file)."""
    msg = table(lang).get(key)
    if msg is None:
        msg = table(ENGLISH)[key]
    if isinstance(msg, dict):
        n = int(values.get("n", 0))
        msg = msg.get(plural(lang, n)) or msg["other"]
    return str(msg).format(**values)


def catalog(lang: str) -> dict[str, Any]:
    """The whole table of ``lang`` (English where it lacks a key), for the page's script."""
    return {**table(ENGLISH), **table(lang)}


def placeholders(message: str | dict[str, str]) -> set[str]:
    """The ``{names}`` a message uses (all of its plural forms together)."""
    forms = message.values() if isinstance(message, dict) else [message]
    return {f for m in forms for _, f, _, _ in string.Formatter().parse(m) if f}
