"""The message files: every language has every sentence, with the same fields, and a German
score sheet or explanation says none of the English sentences."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from fantasy_scorer.realms import messages as m
from fantasy_scorer.realms.catalog import base_catalog
from fantasy_scorer.realms.explain import explanation_lines
from fantasy_scorer.realms.formats.handfile import load_hand, names_for
from fantasy_scorer.realms.formats.report import result_table
from fantasy_scorer.realms.names import load_i18n
from fantasy_scorer.realms.resolve import Result, resolve

from .strategies import EXP, hands

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "fantasy_scorer" / "realms"
ENGLISH = m.templates("en")
KEYS = {k for k in ENGLISH if k != "_grammar"}
GRAMMAR = {*m.JOINS, "article", "article_vowel"}


def raw(lang: str) -> dict:
    """A language file as written (no English filling its gaps)."""
    return json.loads(m._read(lang))


def test_there_is_a_message_file_for_every_language_of_the_names() -> None:
    assert m.languages() == sorted(load_i18n().languages)
    assert len(m.languages()) == 11


@pytest.mark.parametrize("lang", m.languages())
def test_every_key_exists_in_every_language_with_the_same_fields(lang: str) -> None:
    data = raw(lang)
    assert set(data) - {"_grammar"} == KEYS
    assert set(data["_grammar"]) == GRAMMAR
    for key in KEYS:
        assert m.fields(data[key]) == m.fields(ENGLISH[key]), (lang, key)
        for _, _name, _, conv in string.Formatter().parse(data[key]):
            assert conv in (None, "a"), (lang, key)  # {x!a}: the article, nothing else


def keys_in_code() -> set[str]:
    """Message keys written in the engine's source (literal keys and key prefixes)."""
    text = "".join(p.read_text(encoding="utf-8") for p in SOURCES.rglob("*.py"))
    areas = sorted({k.split(".")[0] for k in KEYS} | {"section", "empty"})
    alternatives = "|".join(areas)
    pattern = re.compile(rf"""["']((?:{alternatives})\.[a-z_]*)["']""")
    return set(pattern.findall(text))


def test_every_key_the_code_uses_exists_and_every_key_is_used() -> None:
    used = keys_in_code()
    literal = {k for k in used if not k.endswith(".")}
    prefixes = {k for k in used if k.endswith(".")}  # "section." + name
    assert literal <= KEYS, f"add to en.json: {sorted(literal - KEYS)}"
    unused = {k for k in KEYS - literal if not any(k.startswith(p) for p in prefixes)}
    assert not unused, f"keys no code uses: {sorted(unused)}"


def test_rendering_joins_and_articles() -> None:
    assert m.render(m.Msg("word.a", what=m.Suit("Army"))) == "an Army"
    assert m.render(m.Msg("word.a", what=m.Suit("Flame"))) == "a Flame"
    assert m.render(m.Join([m.Suit("Land"), m.Suit("Flood"), m.Suit("Flame")], "or")) == (
        "Land, Flood or Flame")
    assert m.render(m.Msg("fx.run", n=3, pay=10)) == "run of 3 +10"
    names = names_for(base_catalog()).localizer("de")
    assert names.say(m.Msg("why.no", need=m.Suit("Flame"))) == "Flamme fehlt auf der Hand"


def english_phrases() -> list[str]:
    """The literal text of every English template: each piece of two words or more."""
    out = set()
    for key in KEYS:
        for literal, *_ in string.Formatter().parse(ENGLISH[key]):
            for piece in re.split(r"[(){}:;,'=+×/]", literal):
                piece = piece.strip()
                if len(re.findall(r"[A-Za-z]+", piece)) >= 2:
                    out.add(piece)
    return sorted(out, key=len, reverse=True)


PHRASES = english_phrases()
#: Each phrase as whole words ("in a" is English, the end of "Zauberin auf" is not).
PATTERNS = [(p, re.compile(r"(?<!\w)" + re.escape(p) + r"(?!\w)")) for p in PHRASES]


def german_output(result: Result) -> str:
    loc = names_for(result.hand.catalog).localizer("de")
    sheet = result_table(result, None, loc)
    sheet = "\n".join(ln for ln in sheet.splitlines() if not ln.startswith("Choices"))
    return sheet + "\n" + "\n".join(explanation_lines(result, loc))


def assert_no_english(result: Result) -> None:
    text = german_output(result)
    found = [p for p, pattern in PATTERNS if pattern.search(text)]
    assert not found, (found, text)


HANDS = [
    ("Mountain; Great Flood; Smoke; Whirlwind; Air Elemental; Wildfire; Mirage: Rainstorm",
     None, None),
    ("Bell Tower; Candle; Queen; Sword of Keth; Shield of Keth; Gem of Order;"
     "Book of Changes: Gem of Order -> Wizard", None, None),
    ("Island: Wildfire; Blizzard; Wildfire; Basilisk", None, None),
    ("Basilisk; Doppelgänger: Basilisk; Knights", None, None),
    ("Wildfire; Book of Changes: Wildfire -> Leader; King", None, None),
    ("Rangers; Swamp; Dwarvish Infantry; Knights; Protection Rune; Doppelgänger: Knights",
     None, None),
    ("Knights; War Dirigible; Smoke; Collector; Jester; Warlord; Fountain of Life", None, None),
    ("Necromancer; Book of Changes: Necromancer -> Army; Great Flood; King; Queen; Unicorn;"
     "Warhorse; Hydra", None, None),
    ("Book of Changes: Phoenix -> Weather; Elven Longbow; Enchantress; Phoenix; Great Flood;"
     "Forest; Fire Elemental", None, None),
    ("Phoenix; Shapeshifter: Phoenix; Doppelgänger: Phoenix; Fire Elemental; Air Elemental;"
     "Collector; Beastmaster", None, None),
    ("Mirage; Shapeshifter: none; Book of Changes; World Tree", None, None),
    ("Phoenix; War Dirigible; Elven Archers", None, "deluxe"),
    ("Great Flood; Phoenix; Beastmaster", None, "deluxe"),
    ("players: 4; Demon; Angel: Knights; Knights; Dungeon; Lich; Ghoul; Genie; Garden;"
     "[cursed items]; Treasure Chest; Rake; Shovel; Backpack; [discard]; King; Unicorn",
     "cursed-hoards", None),
    ("Leprechaun; Wildfire; Castle; Chapel; Judge; Crypt; Necromancer; Bell Tower",
     "cursed-hoards", None),
]


@pytest.mark.parametrize(("hand", "expansion", "edition"), HANDS)
def test_a_german_score_sheet_and_explanation_contain_no_english_sentence(
        hand: str, expansion: str | None, edition: str | None) -> None:
    assert "penalty cleared by" in PHRASES  # the phrases are the English templates' words
    result = resolve(load_hand(hand.replace(";", "\n"), "t", expansion=expansion,
                               edition=edition))
    assert_no_english(result)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(hands())
def test_random_german_output_contains_no_english_sentence(hand) -> None:
    assert_no_english(resolve(hand))


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(hands(EXP))
def test_random_german_output_with_the_expansion_contains_no_english_sentence(hand) -> None:
    assert_no_english(resolve(hand))


@pytest.mark.parametrize("lang", m.languages())
def test_every_language_renders_a_whole_explanation(lang: str) -> None:
    hand, expansion, edition = HANDS[13]
    result = resolve(load_hand(hand.replace(";", "\n"), "t", expansion=expansion))
    loc = names_for(result.hand.catalog).localizer(lang)
    lines = explanation_lines(result, loc)
    assert lines[-1].endswith(str(result.total))
    assert result_table(result, None, loc)
