"""Turning what people type (location and character names) into indices.

Every lookup failure says what was wrong and suggests the closest valid name, because a
typo in a hand-written game file is the most common mistake.
"""

from __future__ import annotations

import difflib

from .rules import CHARACTERS, LOCATIONS


def suggest(word: str, choices: list[str] | tuple[str, ...]) -> str:
    """`` (did you mean X?)`` for the closest choice, or a list of the valid ones."""
    close = difflib.get_close_matches(word.lower(), [c.lower() for c in choices], n=1, cutoff=0.5)
    if close:
        match = next(c for c in choices if c.lower() == close[0])
        return f" (did you mean {match}?)"
    return f" (valid: {', '.join(choices)})"


def location_index(key: object) -> int:
    """A location given as 1-8 or by name (any case) -> index 0-7."""
    if isinstance(key, bool):
        raise ValueError(f"unknown location {key!r}: use 1-8 or a name like mill")
    if isinstance(key, int):
        if 1 <= key <= 8:
            return key - 1
        raise ValueError(f"unknown location {key}: locations are numbered 1-8")
    text = str(key).strip()
    if text.isdigit():
        return location_index(int(text))
    low = text.lower()
    if low in LOCATIONS:
        return LOCATIONS.index(low)
    raise ValueError(f"unknown location {text!r}{suggest(text, LOCATIONS)}")


def character_index(name: object) -> int:
    """A character name (any case) -> its index 0-6 (which is also its location)."""
    text = str(name).strip()
    for i, char in enumerate(CHARACTERS):
        if char.lower() == text.lower():
            return i
    raise ValueError(f"unknown character {text!r}{suggest(text, CHARACTERS)}")
