"""Names in the 11 languages of the shipped translations (issue 4, part 3)."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from fantasy_scorer.cli.main import main
from fantasy_scorer.errors import ScorerError
from fantasy_scorer.realms.catalog import load_catalog
from fantasy_scorer.realms.names import Names, load_i18n, parse_i18n
from fantasy_scorer.realms.resolve import resolve

from .conftest import CAT, result_of

NAMES = Names(CAT)
I18N = load_i18n()

MOUNTAIN = {"en": "Mountain", "cz": "Hora", "de": "Gebirge", "es": "Montaña", "fr": "Montagne",
            "kr": "산", "pl": "Góry", "pt": "Montanha", "ru": "Гора", "ua": "Гора", "zh": "高山"}


def test_the_translations_are_data_shipped_in_the_package() -> None:
    data_dir = resources.files("fantasy_scorer.realms.data")
    text = (data_dir / "card-names-i18n.json").read_text("utf-8")
    data = json.loads(text)
    assert len(data["languages"]) == 11
    # The English names of the data are the catalog's names for every base card.
    for card in CAT.cards:
        assert I18N.cards[card.id]["en"] == card.name


@pytest.mark.parametrize("lang,word", sorted(MOUNTAIN.items()))
def test_every_language_finds_the_card(lang: str, word: str) -> None:
    assert NAMES.card(word).name == "Mountain"
    assert NAMES.display(CAT.card("Mountain"), lang) == word


@pytest.mark.parametrize("word,name", [
    ("GEBIRGE", "Mountain"),
    ("montana", "Mountain"),                  # accents optional
    ("elemental de terre", "Earth Elemental"),  # fr "Élémental de Terre"
    ("Élémental d'Eau", "Water Elemental"),   # fr data spells it with ’
    ("buch der veranderung", "Book of Changes"),
    ("fr53", "Doppelgänger"),                 # ids still work
    ("Book of Transfiguration", "Book of Changes"),  # the rules' alias still works
    ("易经", "Book of Changes"),
    ("Phönix (Promo)", "Phoenix"),            # the FR55P entry names the promo Phoenix FR55
    ("Fênix", "Phoenix"),
])
def test_names_fold_case_accents_and_aliases(word: str, name: str) -> None:
    assert NAMES.card(word).name == name


@pytest.mark.parametrize("word,suit", [
    ("Bestie", "Beast"), ("Animal", "Beast"), ("créature", "Beast"), ("Zauberer", "Wizard"),
    ("Полум'я", "Flame"),  # "Полум&apos;я" in the data: the entity is unescaped
    ("Joker", "Wild"), ("土地", "Land"),
])
def test_suits_in_every_language(word: str, suit: str) -> None:
    assert NAMES.suit(word) == suit


def test_html_entities_are_unescaped() -> None:
    assert I18N.suits["flame"]["ua"] == "Полум'я"
    assert "&" not in json.dumps([I18N.cards, I18N.suits], ensure_ascii=False)


def test_display_falls_back_to_the_alternate_printing_then_english() -> None:
    phoenix = CAT.card("Phoenix")
    assert NAMES.display(phoenix, "de") == "Phönix (Promo)"  # FR55 has no German name itself
    assert NAMES.display(phoenix, "fr") == "Phoenix"         # nothing in French at all
    assert NAMES.suit_display("Beast", "fr") == "Créature"


def test_did_you_mean_across_languages() -> None:
    with pytest.raises(ScorerError) as e:
        NAMES.card("Gebirg")
    assert str(e.value) == "unknown card 'Gebirg' (did you mean 'Gebirge' (Mountain)?)"
    with pytest.raises(ScorerError) as e:
        NAMES.suit("Bestei")
    assert "did you mean 'Bestie' (Beast)" in str(e.value)


def test_a_card_of_another_game_says_so() -> None:
    # Dungeon is CH01 of cards/cursed-hoards.yaml: the option that brings it in is named.
    with pytest.raises(ScorerError, match="CH01 is a card of the cursed-hoards expansion; run "
                                          "with --expansion cursed-hoards"):
        NAMES.card("Dungeon")


HOMEBREW = """\
game: homebrew
suits: [Building]
cards:
  - id: CH01
    name: Dungeon
    suit: Building
    strength: 7
"""


def test_an_ambiguous_word_lists_the_candidates(tmp_path) -> None:
    # "Caverna" is Cavern in Spanish and Portuguese, and Dungeon in Portuguese.
    path = tmp_path / "dungeon.yaml"
    path.write_text(HOMEBREW, encoding="utf-8")
    names = Names(load_catalog([path]))
    with pytest.raises(ScorerError) as e:
        names.card("caverna")
    assert str(e.value) == (
        "'caverna' is ambiguous: Cavern (FR02; es, pt) or Dungeon (CH01; pt); "
        "write the card id or the English name"
    )
    assert names.card("Cavern").id == "FR02"
    assert names.card("Mazmorra").id == "CH01"
    assert names.suit("Gebäude") == "Building"


def test_ambiguity_is_found_in_any_data() -> None:
    data = {"languages": ["en", "xx"], "suits": {"land": {"en": "Land"}},
            "cards": {"FR01": {"en": "Mountain", "xx": "Same"},
                      "FR02": {"en": "Cavern", "xx": "Same"}}}
    names = Names(CAT, parse_i18n(data))
    with pytest.raises(ScorerError, match="ambiguous: Mountain .*xx.* or Cavern"):
        names.card("same")


def test_unknown_language() -> None:
    with pytest.raises(ScorerError, match=r"unknown language 'xx' \(choose from cz, de, en"):
        NAMES.localizer("xx")


def test_localizer_swaps_whole_names_longest_first() -> None:
    de = NAMES.localizer("DE")
    assert de.text("Great Flood blanks every Flame except Lightning") == (
        "Große Flut blanks every Flamme except Blitz")
    assert de.text("Wildfire is not Wild") == "Buschfeuer is not Joker"
    assert de.suit_label("Beast/Flame/Weather") == "Bestie/Flamme/Wetter"
    assert NAMES.localizer(None).text("Great Flood") == "Great Flood"


def test_a_hand_written_in_german_scores_like_english() -> None:
    german = result_of("Glockenturm", "Kerze", "Königin", "Schwert von Keth", "Schild von Keth",
                       "Juwel der Ordnung", "Buch der Veränderung: Juwel der Ordnung -> Zauberer")
    assert german.total == 380


def test_lang_prints_the_score_sheet_in_that_language(runner, tmp_path) -> None:
    hand = tmp_path / "h.txt"
    hand.write_text("Montaña\nInundación\nHumo\nTorbellino\nElemental de Aire\n"
                    "Incendio\nEspejismo: Tormenta\n", encoding="utf-8")
    res = runner.invoke(main, [str(hand), "--lang", "de"])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[1].split() == ["Gebirge", "Land", "9", "+50", "0", "59"]
    assert "Spiegelung als Regensturm" in res.output
    assert next(x for x in lines if x.startswith("Summe")).endswith("260")
    assert "Choices: Spiegelung: Regensturm" in lines


def test_lang_json_and_wide_characters_align(runner, tmp_path) -> None:
    hand = tmp_path / "h.txt"
    hand.write_text("Mountain\nGreat Flood\nSmoke\n", encoding="utf-8")
    res = runner.invoke(main, [str(hand), "--lang", "zh", "--json"])
    data = json.loads(res.output)
    assert [c["name"] for c in data["cards"]] == ["高山", "大洪水", "烟雾"]
    res = runner.invoke(main, [str(hand), "--lang", "zh"])
    # Each CJK character takes two columns: the Suit column starts at the same column.
    from fantasy_scorer.realms.formats.report import text_width
    rows = res.output.splitlines()[1:4]
    starts = {text_width(line[: line.index(suit, len(name))]) for line, name, suit in
              zip(rows, ["高山", "大洪水", "烟雾"], ["土地", "洪水", "气候"], strict=True)}
    assert len(starts) == 1


def test_unknown_language_is_a_one_line_error(runner, tmp_path) -> None:
    hand = tmp_path / "h.txt"
    hand.write_text("Mountain\n", encoding="utf-8")
    res = runner.invoke(main, [str(hand), "--lang", "xx"])
    assert res.exit_code == 2
    assert res.output.strip().count("\n") == 0
    assert res.output.startswith("Error: unknown language 'xx'")


def test_resolve_of_a_translated_choice() -> None:
    hand = result_of("Doppelgänger: Basilic", "Basilic")  # fr Basilisk
    assert resolve(hand.hand).total == 0


def test_with_the_expansion_caverna_is_ambiguous_and_replacements_keep_their_names() -> None:
    from fantasy_scorer.realms.catalog import base_catalog

    names = Names(base_catalog("cursed-hoards"))
    with pytest.raises(ScorerError, match=r"ambiguous: Cavern \(FR02; es, pt\) or Dungeon"):
        names.card("Caverna")
    assert names.card("Glockenturm").id == "CH16"  # the expansion's Bell Tower replaces FR03
    assert names.display(names.card("CH16"), "fr") == "Beffroi"
