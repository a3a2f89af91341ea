"""Every word of the page in 11 languages (issue 15 §2): each language has every key with the
same placeholders and the plural forms its grammar needs, the plural rule agrees with the
browser's, a German page shows no English sentence, and a did-you-mean is given in the
language of the request."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from fantasy_scorer.realms import messages as rules_messages
from fantasy_scorer.web import messages

LANGS = messages.languages()
EN = messages.table("en")
#: The plural categories of whole numbers in each language (CLDR).
CATEGORIES = {"en": {"one", "other"}, "de": {"one", "other"}, "es": {"one", "other"},
              "fr": {"one", "other"}, "pt": {"one", "other"}, "cz": {"one", "few", "other"},
              "pl": {"one", "few", "many"}, "ru": {"one", "few", "many"},
              "ua": {"one", "few", "many"}, "kr": {"other"}, "zh": {"other"}}


def test_the_page_speaks_the_languages_of_the_card_names() -> None:
    assert set(LANGS) == set(CATEGORIES) == {"cz", "de", "en", "es", "fr", "kr", "pl", "pt",
                                             "ru", "ua", "zh"}


@pytest.mark.parametrize("lang", LANGS)
def test_every_key_in_every_language_with_the_same_placeholders(lang: str) -> None:
    table = messages.table(lang)
    assert set(table) == set(EN), (sorted(set(EN) - set(table)), sorted(set(table) - set(EN)))
    for key, english in EN.items():
        if key == messages.LANGUAGE_NAME:
            continue
        assert messages.placeholders(table[key]) == messages.placeholders(english), key
        assert table[key], key


@pytest.mark.parametrize("lang", LANGS)
def test_plural_forms_cover_the_languages_grammar(lang: str) -> None:
    needed = CATEGORIES[lang]
    for key, msg in messages.table(lang).items():
        if isinstance(msg, dict):
            assert needed <= set(msg) and "other" in msg, (key, sorted(msg))
    assert {messages.plural(lang, n) for n in range(200)} == needed


@pytest.mark.parametrize(("lang", "n", "text"), [
    ("en", 1, "1 card"), ("en", 7, "7 cards"), ("de", 8, "8 Karten"),
    ("pl", 1, "1 karta"), ("pl", 3, "3 karty"), ("pl", 5, "5 kart"), ("pl", 22, "22 karty"),
    ("pl", 12, "12 kart"), ("ru", 21, "21 карта"), ("ru", 4, "4 карты"), ("ru", 11, "11 карт"),
    ("ua", 2, "2 карти"), ("ua", 9, "9 карт"), ("cz", 4, "4 karty"), ("cz", 5, "5 karet"),
    ("fr", 0, "0 carte"), ("kr", 7, "카드 7장"), ("zh", 7, "7 张牌"),
])
def test_counts_read_as_the_language_writes_them(lang: str, n: int, text: str) -> None:
    assert messages.text(lang, "count.cards", n=n) == text


def test_the_plural_rule_agrees_with_the_browsers(browser) -> None:
    page = browser.new_page()
    try:
        for lang in LANGS:
            tag = messages.tag(lang)
            theirs = page.evaluate(
                "tag => [...Array(250).keys()].map(n => new Intl.PluralRules(tag).select(n))",
                tag)
            ours = [messages.plural(lang, n) for n in range(250)]
            assert ours == theirs, lang
    finally:
        page.close()


def test_each_language_is_named_in_itself() -> None:
    assert [messages.language_name(x) for x in ("de", "pl", "zh", "ua", "cz", "kr")] == [
        "Deutsch", "Polski", "中文", "Українська", "Čeština", "한국어"]


# --------------------------------------------------------------------------------------------
# A German page has no English sentence
# --------------------------------------------------------------------------------------------


class _Visible(HTMLParser):
    """The text nodes and the user-facing attributes of a page (scripts left out)."""

    SHOWN = ("placeholder", "aria-label", "title", "alt", "value")

    def __init__(self) -> None:
        super().__init__()
        self.nodes: list[str] = []
        self._script = 0

    def handle_starttag(self, tag, attrs) -> None:
        if tag == "script":
            self._script += 1
        for name, value in attrs:
            if name in self.SHOWN and value and not value.startswith(("http", "/")):
                self.nodes.append(value.strip())

    def handle_endtag(self, tag) -> None:
        if tag == "script":
            self._script -= 1

    def handle_data(self, data) -> None:
        if not self._script and data.strip():
            self.nodes.append(" ".join(data.split()))


def visible(html: str) -> list[str]:
    parser = _Visible()
    parser.feed(html)
    return parser.nodes


def english_sentences() -> list[tuple[str, re.Pattern[str]]]:
    """Each English sentence that German says differently, as a pattern with its
    placeholders open: the page's own (each plural form), and the rules core's (a card's
    status, the referee's trace: ``realms/data/messages``)."""
    forms: list[str] = []
    page_de, rules_de = messages.table("de"), rules_messages.templates("de")
    for key, msg in EN.items():
        if key != messages.LANGUAGE_NAME and msg != page_de[key]:
            forms += list(msg.values()) if isinstance(msg, dict) else [msg]
    for key, template in rules_messages.templates("en").items():
        if not key.startswith("_") and template != rules_de.get(key):
            forms.append(template)
    out = []
    for form in forms:
        pattern = re.sub(r"\\\{[^}]*\\\}", ".+?", re.escape(form))
        out.append((form, re.compile(r"(?<!\w)" + pattern + r"(?!\w)")))
    return out


def words(form: str) -> int:
    """How many words a message has besides its placeholders."""
    return len(re.findall(r"\w+", re.sub(r"\{[^}]*\}", "", form)))


GERMAN_PAGES = [
    # a hand with a pinned choice and the trace (the worked example 260)
    {"code": "FR01,FR08,FR13,FR14,FR15,FR16+FR52:FR11", "lang": "de"},
    # one card too many: the advice and its notice
    {"code": "FR01,FR08,FR13,FR14,FR15,FR16,FR21+FR52:FR11", "lang": "de"},
    # the expansion: Cursed Items, a discard area, players, Necromancer's extra card, Angel
    {"code": "CH11,CH20,CH08,FR31,FR32,FR21,CH06,CH24", "discard": "FR37,FR23",
     "players": "3", "expansion": "cursed-hoards", "lang": "de", "tap": "discard"},
    # a switch that leaves cards out
    {"code": "CH01,FR01", "expansion": "none", "was": "cursed-hoards/standard", "lang": "de"},
    # a refusal of this layer
    {"code": "CH06", "expansion": "cursed-hoards", "lang": "de"},
]


@pytest.mark.parametrize("params", GERMAN_PAGES)
def test_a_german_page_contains_none_of_the_english_strings(client, params) -> None:
    r = client.get("/", params=params)
    assert r.status_code == 200
    nodes = visible(r.text)
    whole = "\n".join(nodes)
    assert "Dschinn hängt von der Spielerzahl ab" in whole or params.get("code") != "CH06"
    for form, pattern in english_sentences():
        if words(form) >= 2:  # a phrase: nowhere on the page
            assert not pattern.search(whole), f"English on the German page: {form!r}"
        else:  # a single word: not as a whole label
            assert not any(pattern.fullmatch(n) for n in nodes), f"English label: {form!r}"


# --------------------------------------------------------------------------------------------
# Did you mean, in the language of the request
# --------------------------------------------------------------------------------------------

BOOK_HAND = ["Bell Tower", "Candle", "Queen", "Sword of Keth", "Shield of Keth",
             "Gem of Order", "Book of Changes"]


@pytest.mark.parametrize(("lang", "choice", "detail"), [
    # Once 'King -> Dragon' in English suggested the Spanish 'Mago' and the Polish 'Broń'.
    ("en", "King -> Dragon", "unknown suit 'Dragon' (the suits: Land, Flood, Weather, Flame, "
                             "Army, Wizard, Leader, Beast, Weapon, Artifact, Wild)"),
    ("en", "Queen -> Wizrd", "unknown suit 'Wizrd' (did you mean 'Wizard'?)"),
    ("es", "Queen -> Mgo", "unknown suit 'Mgo' (did you mean 'Mago'?)"),
    ("de", "Queen -> Zaubrer", "unknown suit 'Zaubrer' (did you mean 'Zauberer'?)"),
    ("de", "Köngin -> Zauberer", "unknown card 'Köngin' (did you mean 'Königin'?)"),
])
def test_a_did_you_mean_answers_in_the_language_of_the_request(client, lang, choice,
                                                               detail) -> None:
    r = client.post("/api/score", json={"cards": BOOK_HAND, "lang": lang,
                                        "choices": {"Book of Changes": choice}})
    assert r.status_code == 400 and r.json()["detail"] == detail


def test_a_mistyped_card_is_suggested_in_the_requests_language(client) -> None:
    r = client.post("/api/score", json={"cards": ["Gebirg"], "lang": "de"})
    assert r.json()["detail"] == "unknown card 'Gebirg' (did you mean 'Gebirge'?)"
    r = client.post("/api/score", json={"cards": ["Montain"], "lang": "en"})
    assert r.json()["detail"] == "unknown card 'Montain' (did you mean 'Mountain'?)"
