"""The Majesty final-scoring page (issue 40 §3): its engine call, its words, and the page in
headless Chromium at phone width.

Expected totals are the worked example of /work/shared/rules/majesty.md ("Final scoring, 2
players"), checked by hand:
  Alice = 3,0,2,1,2,1,2,1 and Bob = 2,3,0,2,0,2,1,2 (12 characters each).
  Side A: Alice −1 (1 in the Infirmary) + 6² (mill, cottage, guardhouse, barracks, inn, castle)
          + mill 10 + cottage 12 + barracks 14 + castle 16 = 87;
          Bob −2 + 5² (mill, brewery, guardhouse, inn, castle) + brewery 11 + guardhouse 13
          + inn 15 = 62.
  Side B: Alice −2 + 36 + 14 + 12 + 8 + 16 = 84; Bob −4 − 10 (most in the Infirmary) + 25
          + 12 + 8 + 12 = 43.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from fantasy_scorer.errors import ScorerError
from fantasy_scorer.web import majesty_calls
from fantasy_scorer.web.majesty_calls import majesty_json

ALICE = [3, 0, 2, 1, 2, 1, 2, 1]
BOB = [2, 3, 0, 2, 0, 2, 1, 2]
I18N = Path(majesty_calls.__file__).resolve().parent / "i18n" / "majesty"
LANGS = ("cz", "de", "en", "es", "fr", "kr", "pl", "pt", "ru", "ua", "zh")
LINK = "/majesty.html?side=A&players=Alice,Bob&Alice=3,0,2,1,2,1,2,1&Bob=2,3,0,2,0,2,1,2"


def body(side: str = "A", **extra) -> dict:
    return {"side": side, "players": [{"name": "Alice", "realm": ALICE},
                                      {"name": "Bob", "realm": BOB}], **extra}


def totals(answer: dict) -> dict[str, int]:
    return {p["name"]: p["total"] for p in answer["players"]}


# --------------------------------------------------------------------------------------------
# The engine call
# --------------------------------------------------------------------------------------------


def test_the_worked_example_side_a() -> None:
    got = majesty_json(body("A"))
    assert totals(got) == {"Alice": 87, "Bob": 62}
    alice, bob = got["players"]
    assert (alice["infirmary"], alice["variety"], alice["occupied"]) == (-1, 36, 6)
    assert {m["location"]: m["value"] for m in alice["majorities"]} == {0: 10, 2: 12, 4: 14,
                                                                        6: 16}
    assert {m["location"]: m["value"] for m in bob["majorities"]} == {1: 11, 3: 13, 5: 15}
    assert got["winners"] == ["Alice"] and not got["shared_win"] and got["unfinished"] == []
    assert got["locations"][0] == "mill" and got["locations"][7] == "infirmary"


def test_the_worked_example_side_b() -> None:
    got = majesty_json(body("B"))
    assert totals(got) == {"Alice": 84, "Bob": 43}
    bob = got["players"][1]
    assert (bob["infirmary_cards"], bob["infirmary_most"], bob["variety"]) == (-4, -10, 25)


def test_a_page_language_without_majesty_names_gets_the_english_ones() -> None:
    # majesty.names knows only the English names; the German page says so and shows them.
    got = majesty_json(body("A", lang="de"))
    assert got["lang"] == "en" and got["locations"][0] == "mill"
    assert totals(got) == {"Alice": 87, "Bob": 62}


def test_points_from_the_game_add_to_the_total() -> None:
    b = body("A")
    b["players"][1]["points"] = 30
    assert totals(majesty_json(b)) == {"Alice": 87, "Bob": 92}
    assert majesty_json(b)["winners"] == ["Bob"]


def test_a_shared_majority_is_marked_and_each_tied_player_gains_it_whole() -> None:
    # Both have 2 Millers: each gains the mill's full 10 (side A), marked as shared.
    b = {"side": "A", "players": [{"name": "Ann", "realm": [2, 0, 0, 0, 0, 0, 0, 0]},
                                  {"name": "Ben", "realm": [2, 0, 0, 0, 0, 0, 0, 0]}]}
    got = majesty_json(b)
    # 1² variety + 10 for the shared mill = 11 each: a shared victory.
    assert totals(got) == {"Ann": 11, "Ben": 11}
    assert got["players"][0]["majorities"] == [{"location": 0, "value": 10,
                                                "shared_with": ["Ben"]}]
    assert got["winners"] == ["Ann", "Ben"] and got["shared_win"]
    assert got["unfinished"] == ["Ann", "Ben"]


def test_side_b_infirmary_ties_all_pay_the_extra() -> None:
    b = {"side": "B", "players": [{"name": "Ann", "realm": [0, 0, 0, 0, 0, 0, 0, 2]},
                                  {"name": "Ben", "realm": [0, 0, 0, 0, 0, 0, 0, 2]},
                                  {"name": "Cy", "realm": [0, 0, 0, 0, 0, 0, 0, 1]}]}
    # −2 per card, and both with the most (2) pay 10 more: −14, −14; Cy −2.
    assert totals(majesty_json(b)) == {"Ann": -14, "Ben": -14, "Cy": -2}


@pytest.mark.parametrize(("bad", "says"), [
    ({"side": "C"}, "side 'C' is not valid"),
    ({"players": [{"name": "Alice", "realm": ALICE}]}, "2 to 4 players, not 1"),
    ({"players": [{"name": "A", "realm": ALICE}, {"name": "A", "realm": BOB}]},
     "two players are called A"),
    ({"players": [{"name": "Alice", "realm": ALICE[:7]}, {"name": "Bob", "realm": BOB}]},
     "Alice: a realm is 8 counts"),
    ({"players": [{"name": "Alice", "realm": [13, 0, 0, 0, 0, 0, 0, 0]},
                  {"name": "Bob", "realm": BOB}]}, "the count at the mill is 13"),
    ({"players": [{"name": "Alice", "realm": ["x", 0, 0, 0, 0, 0, 0, 0]},
                  {"name": "Bob", "realm": BOB}]}, "must be a whole number"),
    ({"players": [{"name": "Alice", "realm": [6, 6, 1, 0, 0, 0, 0, 0]},
                  {"name": "Bob", "realm": BOB}]}, "holds 13 characters"),
    ({"players": [{"name": "Alice", "realm": ALICE, "points": -1},
                  {"name": "Bob", "realm": BOB}]}, "Alice: points is -1"),
    ({"players": [{"name": "Al,ice", "realm": ALICE}, {"name": "Bob", "realm": BOB}]},
     "holds one of , & = #"),
    ({"players": [{"name": "Alice", "realm": ALICE, "meeples": 2},
                  {"name": "Bob", "realm": BOB}]}, "unknown field 'meeples'"),
    ({"colour": "red"}, "unknown field 'colour'"),
    ({"lang": "xx"}, "unknown language 'xx'"),
    ({"lang": 5}, "lang is a language code"),
])
def test_bad_input_is_one_line_naming_the_fix(bad: dict, says: str) -> None:
    with pytest.raises(ScorerError) as e:
        majesty_json({**body("A"), **bad})
    assert says in str(e.value) and "\n" not in str(e.value)


def test_the_module_needs_no_compiled_search_nor_yaml() -> None:
    """It runs in the browser under Pyodide: importing it, scoring Majesty and ranking a table
    must not need NumPy, Numba, OR-Tools, PyYAML or a web framework. The shipped catalogs are
    read first in another process (the static site ships them compiled, as this cache holds
    them), then those modules are made unimportable."""
    warm = "from fantasy_scorer.realms.catalog import base_catalog as b, shipped_games as g\n" \
           "[b(*x) for x in g()]"
    subprocess.run([sys.executable, "-c", warm], check=True)
    program = """
import sys
for m in ("numpy", "numba", "ortools", "yaml", "fastapi", "starlette", "jinja2"):
    sys.modules[m] = None
from fantasy_scorer.web.majesty_calls import majesty_json, table_json
a = majesty_json({"side": "B", "players": [{"name": "A", "realm": [3,0,2,1,2,1,2,1]},
                                           {"name": "B", "realm": [2,3,0,2,0,2,1,2]}]})
t = table_json({"hands": [
    {"player": "P", "link": "http://h/?hand=FR01,FR08,FR13,FR14,FR15,FR16,FR52+FR52:FR11"},
    {"player": "Q", "link": "FR21,FR22,FR23,FR24,FR25,FR26,FR27+"}]})
print([p["total"] for p in a["players"]], [s["total"] for s in t["ranking"]])
"""
    out = subprocess.run([sys.executable, "-c", program], check=True, capture_output=True,
                         text=True).stdout
    assert out.strip() == "[84, 43] [260, 180]"


# --------------------------------------------------------------------------------------------
# The words
# --------------------------------------------------------------------------------------------


def _words(lang: str) -> dict:
    return json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))


def _holes(msg) -> set[str]:
    forms = msg.values() if isinstance(msg, dict) else [msg]
    return {h for m in forms for h in re.findall(r"\{(\w+)\}", m)}


def test_the_words_exist_in_the_eleven_languages_of_the_page() -> None:
    from fantasy_scorer.web import messages

    assert sorted(p.stem for p in I18N.glob("*.json")) == sorted(LANGS) == sorted(
        messages.languages())


@pytest.mark.parametrize("lang", LANGS)
def test_every_key_in_every_language(lang: str) -> None:
    from fantasy_scorer.web import messages

    en, words = _words("en"), _words(lang)
    assert set(words) == set(en), (sorted(set(en) - set(words)), sorted(set(words) - set(en)))
    assert words["_language"] == messages.language_name(lang)
    needed = {messages.plural(lang, n) for n in range(200)}
    for key, english in en.items():
        assert words[key], key
        assert _holes(words[key]) == _holes(english), key
        if isinstance(words[key], dict):
            assert needed | {"other"} <= set(words[key]), key


# --------------------------------------------------------------------------------------------
# The page in Chromium
# --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def site():
    """The app as ``fr-score serve`` serves it, for this module's page tests."""
    from fantasy_scorer.web.app import create_app

    from .conftest import LiveServer

    with LiveServer(create_app(advice_time_limit=None)) as live:
        yield live.url


def engine_page(browser, url: str, viewport: dict | None = None):
    """A phone page of ``fr-score serve`` (its ``static/engine.js`` posts to the server)."""
    from .conftest import PHONE, open_page

    return open_page(browser, url, viewport or PHONE)


def test_the_worked_example_on_a_phone(browser, site) -> None:
    from playwright.sync_api import expect

    from .conftest import shot

    context, page = engine_page(browser, site)
    page.screen = "phone"
    page.goto(LINK)
    total = page.locator('#scores [data-player="Alice"] .total')
    expect(total).to_have_text("87")
    expect(page.locator('#scores [data-player="Bob"] .total')).to_have_text("62")
    expect(page).to_have_title(re.compile(r"^Alice 87 · Bob 62"))
    expect(page.locator("#winner")).to_have_text("Winner: Alice")
    alice = page.locator('.realm[data-player="Alice"]')
    expect(alice.locator(".step output")).to_have_text(["3", "0", "2", "1", "2", "1", "2", "1"])
    expect(alice.locator('.step[data-loc="0"] .label')).to_have_text("1 Mill")
    shot(page, "majesty-side-a", full=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390

    # Side B, by a tap: 84 and 43, and the address says so.
    page.locator('.side label:has(input[value="B"])').click()
    expect(total).to_have_text("84")
    expect(page.locator('#scores [data-player="Bob"] .total')).to_have_text("43")
    expect(page).to_have_url(re.compile(r"side=B&players=Alice,Bob&Alice=3,0,2,1,2,1,2,1&"))
    expect(page.locator('#scores [data-player="Bob"] li', has_text="most in the Infirmary")
           ).to_contain_text("-14")

    # A tap on + at Bob's barracks: 1 Knight, Alice keeps the majority (2 > 1); Bob's variety
    # becomes 6² = 36 (43 + 11 = 54) with 13 characters, which the engine refuses.
    bob = page.locator('.realm[data-player="Bob"]')
    bob.locator('.step[data-loc="4"] button[aria-label^="One more"]').click()
    expect(page.locator("#error")).to_contain_text("Bob: the realm holds 13 characters")
    bob.locator('.step[data-loc="7"] button[aria-label^="One less"]').click()
    # Now Bob: 1 in the Infirmary (−2, and Alice ties him at 1: both pay 10 more), 6² = 36,
    # brewery 12 + guardhouse 8 + inn 12 = 30: 56. Alice: −2 −10 + 36 + 14 + 12 + 8 + 16 = 74.
    expect(page.locator("#error")).to_be_hidden()
    expect(page.locator('#scores [data-player="Bob"] .total')).to_have_text("56")
    expect(total).to_have_text("74")
    expect(page).to_have_url(re.compile(r"Bob=2,3,0,2,1,2,1,1"))

    # Points from the game and a shared majority, straight from the address.
    page.goto(LINK.replace("side=A", "side=A&lang=de").replace("Bob=2,3,0,2,0,2,1,2",
                                                               "Bob=3,3,0,2,0,2,1,1")
              + "&Bob_points=20")
    # Bob = 3,3,0,2,0,2,1,1: the mill is shared (3 = 3), 10 each. Alice −1 + 36 + 10 + 12 + 14
    # + 16 = 87; Bob −1 + 25 + 10 + 11 + 13 + 15 + 20 = 93.
    expect(page.locator('#scores [data-player="Bob"] .total')).to_have_text("93")
    expect(total).to_have_text("87")
    expect(page).to_have_title(re.compile(r"^Alice 87 · Bob 93"))
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("#winner")).to_have_text("Sieg: Bob")
    expect(page.locator('#scores [data-player="Alice"] li[data-loc="0"] .shared')
           ).to_have_text(" · geteilt mit Bob")
    expect(page.locator("#names-note")).to_be_visible()
    shot(page, "majesty-german", full=True)
    context.close()
    assert not page.script_errors, page.script_errors


def test_an_address_with_a_stranger_says_so(browser, site) -> None:
    from playwright.sync_api import expect

    context, page = engine_page(browser, site)
    page.goto(LINK + "&Carol=1,1,1,1,1,1,1,1")
    expect(page.locator("#error")).to_contain_text("Carol")
    context.close()


# --------------------------------------------------------------------------------------------
# fr-score serve's side: the call as an API, the page and its words
# --------------------------------------------------------------------------------------------


def test_the_server_answers_the_call_and_a_bad_request_in_one_line(client) -> None:
    got = client.post("/api/majesty", json=body("B"))
    assert got.status_code == 200 and totals(got.json()) == {"Alice": 84, "Bob": 43}
    bad = client.post("/api/majesty", json={**body("A"), "side": "Q"})
    assert bad.status_code == 400 and "side 'Q' is not valid" in bad.json()["detail"]
    junk = client.post("/api/majesty", content=b"{not json",
                       headers={"Content-Type": "application/json"})
    assert 400 <= junk.status_code < 500 and "detail" in junk.json()


def test_the_server_serves_the_page_and_its_words(client) -> None:
    page = client.get("/majesty.html")
    assert page.status_code == 200 and 'src="static/majesty.js"' in page.text
    assert client.get("/i18n/majesty/de.json").json()["majesty.side"] == "Seite"
    missing = client.get("/i18n/majesty/xx.json")
    assert missing.status_code == 404 and "de.json" in missing.json()["detail"]


def test_the_static_site_gets_both_pages_in_worker_mode_and_every_words_file() -> None:
    from fantasy_scorer.web import majesty_site

    assert sorted(majesty_site.PAGES) == ["i18n/majesty/" + x + ".json" for x in LANGS] + [
        "majesty.html", "table.html"]
    for name in ("majesty.html", "table.html"):
        text = majesty_site.PAGES[name](None).decode()
        assert '<meta name="fs-engine" content="worker">' in text
        assert 'content="server"' not in text and 'src="static/engine.js"' in text
    assert json.loads(majesty_site.PAGES["i18n/majesty/pl.json"](None))["_language"] == "Polski"
