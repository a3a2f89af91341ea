"""The look-ahead advice on the page and in the API (issue 15 §3 with issue 14's ``advise``).

The pool is the rules' first worked example (260 with Mirage as Rainstorm) and Knights, the
card just drawn: letting Knights go leaves the 260. With nine cards in the discard area my
discard ends the game, so every figure is exact and the advice must be ``best``'s.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from fantasy_scorer.realms.catalog import base_catalog
from fantasy_scorer.realms.hand import Hand
from fantasy_scorer.web import engine

from .conftest import PHONE, open_page

CAT = base_catalog()
POOL = ["Mountain", "Great Flood", "Smoke", "Whirlwind", "Air Elemental", "Wildfire",
        "Mirage", "Knights"]
CODE = "FR01,FR08,FR13,FR14,FR15,FR16,FR52,FR21"
# Nine cards none of which the pool's cards read: the tenth (my discard) ends the game.
NINE = ["Unicorn", "Hydra", "Dragon", "Basilisk", "Warhorse", "Queen", "King", "Princess",
        "Warlord"]


def advise(client, **body):
    return client.post("/api/advise", json={"cards": POOL, **body})


def test_on_the_last_turn_the_advice_is_exact_and_agrees_with_best(client) -> None:
    r = advise(client, discard=NINE, players=4)
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["exact"] is True and data["evaluation"] == "exact"
    top = data["recommended"]
    assert top == data["options"][0]
    # Discard Knights -> the worked example's 260, exactly (a final score with no sampling).
    assert (top["id"], top["label"]) == ("FR21", "Knights")
    assert top["expected_final"]["mean"] == 260 and top["expected_final"]["exact"] is True
    assert top["final_text"] == "260.0"
    best = client.post("/api/best", json={"cards": POOL, "discard": NINE,
                                          "players": 4}).json()["discards"]
    assert {o["id"]: o["expected_final"]["mean"] for o in data["options"]} == \
        {d["id"]: d["total"] for d in best}


def test_mid_game_every_discard_is_listed_once_with_its_best_hand_now(client) -> None:
    data = advise(client, players=3).json()
    ids = [o["id"] for o in data["options"]]
    assert sorted(ids) == sorted(CODE.split(","))
    assert data["recommended"] == data["options"][0]
    assert data["players"] == 3 and data["exact"] is False
    # 'now': the best 7 if the game ended after this discard, exact (scored again here).
    for o in data["options"]:
        left = tuple(CAT.card(n) for n in POOL if CAT.card(n).id != o["id"])
        assert o["now"] == engine.score_hand(Hand(CAT, left)).result.total
    knights = next(o for o in data["options"] if o["id"] == "FR21")
    assert knights["now"] == 260


def test_the_answer_says_what_ends_its_samples(client) -> None:
    """The base game's samples end with the learned value, with 2 players too (issue 36).
    The API's response model once dropped the field."""
    assert advise(client, players=3).json()["evaluation"] == "learned"
    assert advise(client, players=2).json()["evaluation"] == "learned"


def test_the_advice_needs_the_number_of_players_said_in_the_requests_language(client) -> None:
    r = advise(client)
    assert r.status_code == 400
    assert r.json()["detail"] == ("advice that looks ahead needs the number of players; "
                                  "choose it in the game panel")
    r = advise(client, lang="de")
    assert r.status_code == 400 and "Spielerzahl" in r.json()["detail"]


def test_the_advice_needs_one_card_more_than_a_hand(client) -> None:
    r = client.post("/api/advise", json={"cards": POOL[:7], "players": 4})
    assert r.status_code == 400
    assert r.json()["detail"].startswith("discard advice needs 8 cards")


def test_a_page_without_script_offers_the_look_ahead_and_shows_it(client) -> None:
    page = client.get(f"/?code={CODE}&players=4").text
    assert 'id="ahead-link"' in page and "ahead=1" in page
    page = client.get(f"/?code={CODE}&players=4&ahead=1").text
    shown = re.search(r'data-testid="ahead">([^<]*)<', page)
    assert shown is not None and "Knights" in shown.group(1)
    # Without the number of players, the section says what it needs.
    assert "Choose the number of players" in client.get(f"/?code={CODE}").text


def test_the_page_shows_the_look_ahead_beside_the_discard_advice(browser, live_url) -> None:
    context, page = open_page(browser, live_url, PHONE)
    page.goto(f"/?code={CODE}&players=4")
    expect(page.locator('[data-testid="advice"]')).to_have_text("Discard Knights → 260 points")
    ahead = page.locator('#advise [data-testid="ahead"]')
    expect(ahead).to_be_visible(timeout=30_000)
    expect(page.locator("#advise tbody tr")).to_have_count(8)
    # Taking a discard from the table leaves seven cards: no advice of either kind.
    page.locator('#advise a[data-discard="FR21"]').click()
    expect(page.locator("#count")).to_have_text("7 cards")
    expect(page.locator("#advise")).to_be_hidden()
    context.close()


def test_a_full_discard_area_ends_the_game_said_in_the_requests_language(client) -> None:
    ten = [*NINE, "Fountain of Life"]  # ten cards: the game has ended
    r = advise(client, discard=ten, players=4)
    assert r.status_code == 400
    assert r.json()["detail"] == ("the discard area holds 10 cards: the game is over, and "
                                  "the discard advice above is exact")
    r = advise(client, discard=ten, players=4, lang="de")
    assert r.status_code == 400 and r.json()["detail"].startswith("Die Ablage hat 10 Karten")
