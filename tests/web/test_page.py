"""The page as the server renders it (no script): share codes, the game and the table in the
address, the expansion, the switch between games, and the pool behind it all."""

from __future__ import annotations

import re

import pytest

from fantasy_scorer.errors import ScorerError
from fantasy_scorer.web import engine, page, service
from fantasy_scorer.web.games import GameKey, Games, counterpart

GAMES = Games()
BASE = GAMES.default
CH = GAMES.get(GameKey("cursed-hoards"))
CAT = BASE.catalog
CODE_260 = "FR01,FR08,FR13,FR14,FR15,FR16+FR52:FR11"


def total_of(html: str) -> str:
    m = re.search(r'id="total"[^>]*>([^<]*)<', html)
    assert m, "no total on the page"
    return m.group(1)


def test_a_share_link_renders_its_hand(client) -> None:
    r = client.get("/", params={"code": CODE_260})
    assert r.status_code == 200
    assert total_of(r.text) == "260"  # the rules' first worked example
    assert r.text.count('class="card selected"') == 7
    assert '<option value="FR11" selected>' in r.text


def test_a_plus_typed_into_a_link_arrives_as_a_space(client) -> None:
    r = client.get("/?code=FR01,FR08,FR13,FR14,FR15,FR16+FR52:FR11")
    assert r.status_code == 200 and total_of(r.text) == "260"


def test_eight_cards_show_discard_advice(client) -> None:
    r = client.get("/", params={"code": "FR01,FR08,FR13,FR14,FR15,FR16,FR21+FR52:FR11"})
    assert r.status_code == 200
    # Letting Knights go leaves the worked example: 260.
    assert "Discard Knights → 260 points" in r.text
    assert "8 cards: discard one" in r.text


def test_links_and_the_form_work_without_script(client) -> None:
    r = client.get("/", params={"code": "FR01", "toggle": "FR08"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/?code=FR01,FR08"
    r = client.get("/", params={"code": "FR01,FR08", "toggle": "FR01"}, follow_redirects=False)
    assert r.headers["location"] == "/?code=FR08"
    r = client.get("/", params={"code": "FR01,FR52", "pin-FR52": "FR11"}, follow_redirects=False)
    assert r.headers["location"] == "/?code=FR01%2BFR52:FR11"
    r = client.get("/", params={"code": "FR01+FR52:FR11", "pin-FR52": "optimal"},
                   follow_redirects=False)
    assert r.headers["location"] == "/?code=FR01,FR52"


def test_the_discard_area_and_reset_work_without_script(client) -> None:
    # A card tapped in the discard area's mode goes there (and leaves the hand).
    r = client.get("/", params={"code": "FR01,FR28", "dtoggle": "FR01", "tap": "discard"},
                   follow_redirects=False)
    assert r.status_code == 303
    assert r.headers["location"] == "/?code=FR28&discard=FR01&tap=discard"
    r = client.get("/", params={"code": "FR28", "discard": "FR01", "toggle": "FR01"},
                   follow_redirects=False)
    assert r.headers["location"] == "/?code=FR28,FR01"
    r = client.get("/", params={"code": "FR01,FR28", "discard": "FR21", "players": "3",
                                "reset": "1"}, follow_redirects=False)
    assert r.headers["location"] == "/?code=&players=3"


@pytest.mark.parametrize(("code", "message"), [
    ("FR01,FR99", "unknown card id &#39;FR99&#39;"),
    ("FR01,FR01", "appears twice"),
    ("FR01,FR02,FR03,FR04,FR05,FR06,FR07,FR09,FR10", "9 cards given, at most 8"),
    ("FR01+FR52:FR37", "Mirage cannot become"),
    ("FR01+FR52:FR11+FR53", "at most one &#39;+&#39;"),
])
def test_a_bad_share_link_is_a_400_page_saying_why(client, code, message) -> None:
    r = client.get("/", params={"code": code})
    assert r.status_code == 400
    assert message in r.text


@pytest.mark.parametrize(("params", "message"), [
    ({"lang": "xx"}, "unknown language"),
    ({"expansion": "dragons"}, "unknown expansion &#39;dragons&#39;"),
    ({"edition": "gold"}, "unknown edition &#39;gold&#39;"),
    ({"players": "many"}, "players must be a number from 2 to 6"),
    ({"players": "9"}, "9 players: Fantasy Realms is played by 2 to 6"),
    ({"code": "FR01", "discard": "FR01"}, "Mountain is both in the hand and in the discard area"),
])
def test_a_bad_address_is_refused_in_one_line(client, params, message) -> None:
    r = client.get("/", params=params)
    assert r.status_code == 400 and message in r.text


def test_head_answers_like_get(client) -> None:
    r = client.head("/", params={"code": CODE_260})
    assert r.status_code == 200 and r.text == ""
    assert r.headers["content-type"].startswith("text/html")


# --------------------------------------------------------------------------------------------
# Cursed Hoards
# --------------------------------------------------------------------------------------------

# Dark Queen, Necromancer (Cursed Hoards), King, Queen, Knights, Elven Archers, Dwarvish
# Infantry, Genie, the Cursed Item Spyglass; discard area Basilisk, Warhorse, Light Cavalry;
# 3 players. Necromancer takes Light Cavalry (an Army) as the 9th card (R13, C4):
#   Dark Queen 10 (no Land/Flood/Flame/Weather/Unicorn left in the discard area)
#   Necromancer 3; King 8 + 20×4 Armies = 88; Queen 6 + 80 = 86; Knights 20 (with a Leader)
#   Elven Archers 10 + 5 = 15; Dwarvish Infantry 15 − 2×3 = 9; Genie −50 + 10×2 = −30
#   Light Cavalry 17 (no Land); Spyglass −1 (not a 2-player game): 217.
CH_TABLE = {"code": "CH11,CH20,FR31,FR32,FR21,FR22,FR24,CH06,CH24",
            "discard": "FR37,FR38,FR23", "players": "3"}


def test_the_expansion_page_scores_cursed_items_and_the_discard_area(ch_client) -> None:
    r = ch_client.get("/", params=CH_TABLE)
    assert r.status_code == 200, r.text[:500]
    assert total_of(r.text) == "217"
    assert '<h2>Cursed Items</h2>' in r.text
    assert 'data-card="CH24" data-cursed="1"' in r.text
    assert re.search(r'class="card in-discard"[^>]*data-card="FR23"', r.text)
    assert "from the discard area" in r.text  # Light Cavalry's row says where it came from
    assert "Cursed Hoards · 3 players" in r.text


def test_expansion_cards_load_from_a_card_file_too(tmp_path) -> None:
    # `serve --cards cards/cursed-hoards.yaml` once answered the page with a 500 (a Cursed
    # Item has no suit to group it by).
    from fastapi.testclient import TestClient

    from fantasy_scorer.web.app import create_app
    from fantasy_scorer.web.games import GameSpec

    path = tmp_path / "more.yaml"
    path.write_text("cards:\n  - {id: HB01, name: Lucky Charm, cursed: true, strength: 3}\n",
                    encoding="utf-8")
    c = TestClient(create_app(GameSpec((str(path),))))
    r = c.get("/", params={"code": "FR01,HB01"})
    assert r.status_code == 200 and total_of(r.text) == "12"  # Mountain 9 + the item's 3
    assert 'data-card="HB01" data-cursed="1"' in r.text


# Nine cards of Cursed Hoards (a hand of 8 and the card just drawn): King, Queen, Knights,
# Elven Archers, Dwarvish Infantry, Light Cavalry, Rangers, Castle and Basilisk. Basilisk
# would blank every Army and Leader, so the advice lets it go; the 8 left score
#   King 8 + 20×5 Armies = 108; Queen 6 + 100 = 106; Knights 20; Elven Archers 15;
#   Dwarvish Infantry 15 (Rangers clears the word Army from its penalty, R6);
#   Light Cavalry 17; Rangers 5 + 10 (Castle) = 15; Castle 10 + 10 (first Leader) +
#   10 (first Army) = 30: 326.
CH_NINE = "FR31,FR32,FR21,FR22,FR24,FR23,CH19,CH02,FR37"


def test_nine_expansion_cards_get_discard_advice(ch_client) -> None:
    r = ch_client.get("/", params={"code": CH_NINE})
    assert r.status_code == 200
    assert "Discard Basilisk → 326 points" in r.text
    assert "9 cards: discard one" in r.text


def test_switching_game_moves_the_hand_to_the_counterparts() -> None:
    # Bell Tower and Mirage of the base game are replaced in Cursed Hoards (CH16, CH23);
    # the pin Mirage → Rainstorm follows its card.
    pool = service.pool_from_code(BASE, "FR03,FR01+FR52:FR11")
    moved, dropped = page.switch(pool, CH)
    assert moved.code == "CH16,FR01+CH23:FR11" and dropped == []
    back, dropped = page.switch(moved, BASE)
    assert back.code == "FR03,FR01+FR52:FR11" and dropped == []
    # Dungeon and Spyglass exist only in the expansion: left out, and said so.
    expansion_only = service.pool_from_code(CH, "CH01,FR01,CH24")
    moved, dropped = page.switch(expansion_only, BASE)
    assert moved.code == "FR01" and [c.name for c in dropped] == ["Dungeon", "Spyglass"]


def test_the_switch_says_what_it_left_out(client) -> None:
    r = client.get("/", params={"code": "CH01,FR01", "expansion": "none",
                                "was": "cursed-hoards/standard"})
    assert r.status_code == 200
    assert "Not in this game, left out: Dungeon." in r.text
    assert total_of(r.text) == "9"  # Mountain alone


def test_R17_a_web_scorer_link_with_book_of_changes_on_the_promo_phoenix(client) -> None:
    # The rules' worked example, as the web scorer writes it (FR55P is the promo Phoenix):
    # Book of Changes [Phoenix → Weather] + Elven Longbow + Enchantress + Phoenix + Great
    # Flood + Forest + Fire Elemental = 58.
    r = client.get("/?hand=FR49,FR44,FR30,FR55P,FR08,FR04,FR20%2BFR49:FR55P:weather")
    assert r.status_code == 200 and total_of(r.text) == "58"
    assert 'id="share-code">FR49,FR44,FR30,FR55P,FR08,FR04,FR20+FR49:FR55P:weather<' in r.text


def test_the_deluxe_phoenix_replaces_the_promo_one() -> None:
    deluxe = GAMES.get(GameKey("none", "deluxe"))
    promo = CAT.by_id["FR55"]
    assert counterpart(promo, deluxe.catalog).id == "FR55D"
    assert counterpart(deluxe.catalog.by_id["FR55D"], CAT) is promo


# --------------------------------------------------------------------------------------------
# Share codes and the pool
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("code", [
    "FR01", "FR01,FR08,FR13", CODE_260, "FR47,FR03,FR17,FR32,FR43,FR46+FR49:FR47:wizard",
    "FR37+FR53:FR37", "FR37+FR53:none", "FR16,FR12+FR09:FR16",
])
def test_share_codes_read_back_the_same(code) -> None:
    parsed = engine.parse_code(code, CAT)
    assert engine.to_code(CAT, parsed.cards, parsed.choices) == code


def test_share_codes_accept_lower_case_and_inline_choices() -> None:
    parsed = engine.parse_code("fr01,fr52:fr11", CAT)
    assert engine.to_code(CAT, parsed.cards, parsed.choices) == "FR01+FR52:FR11"


def test_cursed_items_ride_in_the_code_beside_the_hand() -> None:
    pool = service.pool_from_code(CH, "CH24,FR01")
    assert [c.id for c in pool.cards] == ["FR01"] and [c.id for c in pool.cursed] == ["CH24"]
    assert pool.code == "FR01,CH24"


def test_taking_a_card_out_drops_the_pins_that_named_it() -> None:
    pool = service.pool_from_code(BASE, "FR37,FR01+FR53:FR37")
    smaller = pool.toggled(CAT.by_id["FR37"])
    assert smaller.code == "FR01,FR53"
    assert pool.toggled(CAT.by_id["FR53"]).code == "FR37,FR01"


def test_a_card_moves_between_the_hand_and_the_discard_area() -> None:
    pool = service.pool_from_code(BASE, "FR37,FR01+FR53:FR37", discard="")
    moved = pool.toggled_discard(CAT.by_id["FR37"])
    assert moved.code == "FR01,FR53" and moved.discard_code == "FR37"
    back = moved.toggled(CAT.by_id["FR37"])
    assert back.code == "FR01,FR53,FR37" and back.discard_code == ""


def test_a_pool_is_at_most_a_hand_and_the_card_drawn() -> None:
    pool = service.pool_from_code(BASE, "FR01,FR02,FR03,FR04,FR05,FR06,FR07,FR09")
    with pytest.raises(ScorerError, match="at most 8"):
        pool.toggled(CAT.by_id["FR10"])
    with pytest.raises(ScorerError, match="at most 7 allowed"):
        pool.hand()
    nine = service.pool_from_code(CH, CH_NINE)  # Cursed Hoards: a hand of 8 and one drawn
    assert nine.advisable and len(nine.cards) == CH.hand_size + 1 == 9


def test_a_card_that_reads_the_table_needs_it() -> None:
    with pytest.raises(ScorerError, match="Dark Queen scores the discard area"):
        service.pool_from_code(CH, "CH11", discard="").hand()
    with pytest.raises(ScorerError, match="Genie depends on the number of players"):
        service.pool_from_code(CH, "CH06").hand()
    with pytest.raises(ScorerError, match="Spyglass depends on the number of players"):
        service.pool_from_code(CH, "FR01,CH24").hand()


def test_island_options_follow_the_suits_after_book_of_changes() -> None:
    pool = service.pool_from_code(BASE, "FR09,FR16,FR21+FR49:FR21:flame")
    options = [o["value"] for o in service.choice_options(pool, CAT.by_id["FR09"], "en")]
    assert options == ["FR16", "FR21"]  # Knights is a Flame now (R4); Book of Changes is not


def test_angel_may_protect_any_other_card() -> None:
    pool = service.pool_from_code(CH, "CH08,FR01,FR37")
    options = [o["value"] for o in service.choice_options(pool, CH.catalog.by_id["CH08"], "en")]
    assert options == ["FR01", "FR37"]  # C2: one other card in hand


def test_page_links_keep_the_game_the_table_and_the_language() -> None:
    view = page.View(GAMES, service.pool_from_code(CH, "FR01+CH23:FR11", "FR21", 4), "de")
    assert page.href(view) == ("/?code=FR01%2BCH23:FR11&discard=FR21&players=4"
                               "&expansion=cursed-hoards&lang=de")


def test_the_page_speaks_the_chosen_language(client) -> None:
    r = client.get("/", params={"code": CODE_260, "lang": "de"})
    assert r.status_code == 200 and total_of(r.text) == "260"
    assert 'lang="de"' in r.text and '<option value="de" lang="de" selected>Deutsch' in r.text
    assert "Gebirge" in r.text and "Erklärung" in r.text and "Teilen" in r.text


def test_the_menu_names_each_language_in_itself(client) -> None:
    html = client.get("/").text
    names = re.findall(r'<option value="(\w+)" lang="\w+"[^>]*>([^<]+)</option>', html)
    assert dict(names) == {
        "cz": "Čeština", "de": "Deutsch", "en": "English", "es": "Español", "fr": "Français",
        "kr": "한국어", "pl": "Polski", "pt": "Português", "ru": "Русский",
        "ua": "Українська", "zh": "中文",
    }
    assert '<html lang="en">' in html
    assert '<html lang="cs">' in client.get("/", params={"lang": "cz"}).text  # BCP 47 tag


def test_the_app_can_be_installed(client) -> None:
    m = client.get("/manifest.webmanifest", params={"lang": "de"})
    assert m.status_code == 200 and m.headers["content-type"] == "application/manifest+json"
    data = m.json()
    assert data["display"] == "standalone" and data["start_url"] == "/?lang=de"
    assert data["name"] == "Fantasy-Realms-Zähler"
    sizes = {i["sizes"] for i in data["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in data["icons"]:
        png = client.get(icon["src"])
        assert png.status_code == 200 and png.headers["content-type"] == "image/png"
        assert png.content[:8] == b"\x89PNG\r\n\x1a\n"
        width = int.from_bytes(png.content[16:20], "big")
        height = int.from_bytes(png.content[20:24], "big")
        assert f"{width}x{height}" == icon["sizes"]
    assert client.get("/icon-77.png").status_code == 404
    sw = client.get("/sw.js")
    assert sw.status_code == 200 and "__VERSION__" not in sw.text
    page_html = client.get("/").text
    assert 'rel="manifest"' in page_html and 'rel="apple-touch-icon"' in page_html
