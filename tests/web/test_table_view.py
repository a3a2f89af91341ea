"""The table view (issue 40 §4): several players' hand links ranked with the game's tie-break,
as ``fr-score game`` ranks a table file; its engine call ``table_json``, fr-score serve's
``/api/table`` and the page in Chromium at phone width.

The table is the one of ``examples/table.yaml``, hand-computed in
tests/referee/test_referee_table.py from the rules:
  Alice (King, Knights, Light Cavalry, Dwarvish Infantry, Elven Archers, Warlord, Rangers):
    176, base strength 79;
  Bob (Swamp, Hydra, Forest, Unicorn, Earth Elemental, Doppelgänger as Hydra, Water
    Elemental): 160, base strength 54;
  Carol (Fire Elemental, Forge, Princess, Candle, Sword of Keth, Shield of Keth, Warhorse):
    176, base strength 34.
  Alice and Carol tie on 176: the lower base strength wins (34 < 79), so Carol, Alice, Bob.
"""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest

from fantasy_scorer.errors import ScorerError
from fantasy_scorer.web.majesty_calls import table_json

HOST = "https://fantasy-realms.example/"
DISCARD = "FR12,FR11,FR19,FR09,FR37,FR39,FR41,FR42,FR50,FR30"
ALICE = HOST + "?hand=FR31,FR21,FR23,FR24,FR22,FR34,FR25+&playerCount=3&discard=" + DISCARD
BOB = "FR07,FR40,FR04,FR36,FR05,FR53,FR10+FR53:FR40"  # a bare share code
CAROL = HOST + "?hand=FR20,FR18,FR33,FR17,FR43,FR46,FR38%2B"
TABLE = [("Alice", ALICE), ("Bob", BOB), ("Carol", CAROL)]


def request(seats=TABLE, **extra) -> dict:
    return {"hands": [{"player": p, "link": link} for p, link in seats], **extra}


def places(answer: dict) -> list[tuple]:
    return [(s["rank"], s["player"], s["total"], s["base_strength"], s["tie_on_total"],
             s["shared"]) for s in answer["ranking"]]


def test_the_example_table_is_ranked_with_the_tie_break() -> None:
    got = table_json(request())
    assert places(got) == [(1, "Carol", 176, 34, True, False), (2, "Alice", 176, 79, True, False),
                           (3, "Bob", 160, 54, False, False)]
    assert got["winners"] == ["Carol"] and got["players"] == 3
    assert len(got["discard"]) == 10 and got["expansion"] is None
    bob = next(s for s in got["ranking"] if s["player"] == "Bob")
    assert bob["code"] == "FR07,FR40,FR04,FR36,FR05,FR53,FR10+FR53:FR40"


def test_names_come_in_the_language_asked() -> None:
    got = table_json(request(lang="de"))
    bob = next(s for s in got["ranking"] if s["player"] == "Bob")
    assert "Sumpf" in bob["cards"] and "Einhorn" in bob["cards"]


def test_one_card_in_two_hands_is_refused() -> None:
    with pytest.raises(ScorerError, match="Unicorn is in the hands of Bob and Dan; each card"):
        table_json(request([("Bob", BOB), ("Dan", "FR36,FR01,FR02,FR03,FR06,FR08,FR13+")]))


@pytest.mark.parametrize(("seats", "says"), [
    ([("Alice", ALICE)], "a table has 2 to 6 hands, not 1"),
    ([("Alice", ALICE), ("Alice", BOB)], "two hands belong to Alice"),
    ([("Alice", ALICE), ("Bob", "")], "Bob: paste the link of the hand"),
    ([("Alice", ALICE), ("Bob", "FR07,FR40,FR04,FR36,FR05,FR53+"), ("Carol", CAROL)],
     "Bob: 6 cards; at game end a hand holds 7"),
    ([("Alice", ALICE), ("Bob", BOB)], "Alice: the link says playerCount=3 but the table has 2"),
    ([("Alice", ALICE), ("Bob", BOB), ("Carol", CAROL + "&discard=FR12")],
     "the links of Alice and Carol show different discard areas"),
    ([("Alice", ALICE), ("Bob", BOB), ("Carol", CAROL + "&discard=")],
     "the links of Alice and Carol show different discard areas"),
    ([("Alice", ALICE), ("Bob", BOB.replace("FR07", "FR12")), ("Carol", CAROL)],
     "Bob: Blizzard is both in the hand and in the discard area"),
    ([("Alice", ALICE), ("Bob", HOST + "?hand=FR07&colour=red"), ("Carol", CAROL)],
     "Bob: 'colour' is not a parameter of a share link"),
    ([("Alice", ALICE), ("Bob", "FR07,FR40,FR04,FR36,FR05,FR53,XX99+"), ("Carol", CAROL)],
     "Bob: "),
])
def test_a_bad_table_is_one_line_naming_the_player_and_the_fix(seats, says) -> None:
    with pytest.raises(ScorerError) as e:
        table_json(request(seats))
    assert says in str(e.value) and "\n" not in str(e.value)


def test_a_language_the_page_does_not_have_is_refused() -> None:
    with pytest.raises(ScorerError, match="unknown language 'xx'"):
        table_json(request(lang="xx"))


def test_unknown_fields_are_refused() -> None:
    with pytest.raises(ScorerError, match="unknown field 'discard'"):
        table_json(request(discard=[]))
    with pytest.raises(ScorerError, match="unknown field 'score'"):
        table_json({"hands": [{"player": "A", "link": BOB, "score": 3},
                              {"player": "B", "link": CAROL}]})


def test_the_server_answers_the_call(client) -> None:
    got = client.post("/api/table", json=request())
    assert got.status_code == 200 and places(got.json())[0][:3] == (1, "Carol", 176)
    bad = client.post("/api/table", json=request(TABLE[:1]))
    assert bad.status_code == 400 and "2 to 6 hands" in bad.json()["detail"]
    assert client.get("/table.html").status_code == 200


# --------------------------------------------------------------------------------------------
# The page in Chromium
# --------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def site():
    from fantasy_scorer.web.app import create_app

    from .conftest import LiveServer

    with LiveServer(create_app(advice_time_limit=None)) as live:
        yield live.url


def test_the_table_on_one_phone(browser, site) -> None:
    from playwright.sync_api import expect

    from .conftest import PHONE, open_page, shot

    context, page = open_page(browser, site, PHONE)
    page.screen = "phone"
    page.goto("/table.html")
    # Headless Chromium on Linux has no BarcodeDetector: the page says to paste instead.
    expect(page.locator("#no-camera")).to_be_visible()
    expect(page.locator("#scan")).to_be_hidden()
    for player, link in TABLE:
        page.locator("#player").fill(player)
        page.locator("#link").fill(link)
        page.locator("#add").click()
    rows = page.locator("#ranking li")
    expect(rows.locator(".who")).to_have_text(["Carol", "Alice", "Bob"])
    expect(rows.locator(".total")).to_have_text(["176", "176", "160"])
    expect(rows.nth(0).locator(".why")).to_have_text(
        "176 points · base strength 34 · tie on total: the lower base strength wins")
    expect(page.locator("#winner")).to_have_text("Winner: Carol")
    shot(page, "table-view", full=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    # The address holds the table: opened again (in German), it ranks the same.
    url = page.url
    assert "p=Alice&h=" + quote(ALICE, safe="").replace("%20", "+")[:20] in url
    page.goto(url + "&lang=de")
    expect(page.locator("#ranking li .who")).to_have_text(["Carol", "Alice", "Bob"])
    expect(page.locator("#winner")).to_have_text("Sieg: Carol")
    expect(page.locator('#ranking li[data-player="Bob"] .cards')).to_contain_text("Sumpf")

    # A hand removed: two left, Carol still first; one more removed: the page asks for two.
    page.locator('#hands li[data-player="Alice"] button').click()
    expect(page.locator("#ranking li .who")).to_have_text(["Carol", "Bob"])
    expect(page).not_to_have_url(re.compile("p=Alice"))
    page.locator('#hands li[data-player="Bob"] button').click()
    expect(page.locator("#need-two")).to_be_visible()
    expect(page.locator("#result")).to_be_hidden()

    # A bad link: the engine's one line, naming the player.
    page.locator("#player").fill("Dan")
    page.locator("#link").fill("FR01,FR02+")
    page.locator("#add").click()
    expect(page.locator("#error")).to_contain_text("Dan: ")
    context.close()
    assert not page.script_errors, page.script_errors


def test_a_cursed_hoards_table_plays_the_expansion_with_its_discard_area() -> None:
    # Ann's hand is hand-computed in tests/web/test_page.py: with 3 players and the discard
    # area Basilisk, Warhorse, Light Cavalry, Necromancer takes Light Cavalry: 217. Her link
    # names the expansion and the discard area; the bare codes of the others are read in that
    # game (their FR06/FR08 would be refused: Cursed Hoards replaces them by CH17/CH18).
    ann = (HOST + "?expansions=ch_items,ch_suits&playerCount=3&hand=CH11,CH20,FR31,FR32,FR21,"
           "FR22,FR24,CH06,CH24+&discard=FR37,FR38,FR23")
    got = table_json(request([("Ann", ann), ("Ben", "FR01,FR02,FR04,FR05,CH17,FR07,CH18,FR09+"),
                              ("Cy", "FR10,FR11,FR12,FR13,FR14,FR15,CH01,FR17+")]))
    assert got["expansion"] == "cursed-hoards"
    assert got["discard"] == ["Basilisk", "Warhorse", "Light Cavalry"]
    assert next(s["total"] for s in got["ranking"] if s["player"] == "Ann") == 217
