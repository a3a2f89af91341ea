"""The page as the server renders it, share codes, and the cards-and-pins pool behind both."""

from __future__ import annotations

import re

import pytest

from fantasy_scorer.errors import ScorerError
from fantasy_scorer.realms.catalog import base_catalog
from fantasy_scorer.web import engine, page, service

CAT = base_catalog()
CODE_260 = "FR01,FR08,FR13,FR14,FR15,FR16+FR52:FR11"


def total_of(html: str) -> str:
    m = re.search(r'id="total"[^>]*>([^<]*)<', html)
    assert m, "no total on the page"
    return m.group(1)


def test_a_share_link_renders_its_hand(client) -> None:
    r = client.get("/", params={"code": CODE_260})
    assert r.status_code == 200
    assert total_of(r.text) == "260"
    assert r.text.count('class="card selected"') == 7
    assert '<option value="FR11" selected>' in r.text


def test_a_plus_typed_into_a_link_arrives_as_a_space(client) -> None:
    r = client.get("/?code=FR01,FR08,FR13,FR14,FR15,FR16+FR52:FR11")
    assert r.status_code == 200 and total_of(r.text) == "260"


def test_eight_cards_show_discard_advice(client) -> None:
    r = client.get("/", params={"code": "FR01,FR08,FR13,FR14,FR15,FR16,FR21+FR52:FR11"})
    assert r.status_code == 200
    assert re.search(r"Discard <b>Knights</b> → <b>\d+</b> points", r.text)
    assert "discard one" in r.text


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


@pytest.mark.parametrize(("code", "message"), [
    ("FR01,FR99", "unknown card id &#39;FR99&#39;"),
    ("FR01,FR01", "appears twice"),
    ("FR01,FR02,FR03,FR04,FR05,FR06,FR07,FR09,FR10", "9 cards in hand"),
    ("FR01+FR52:FR37", "Mirage cannot become"),
    ("FR01+FR52:FR11+FR53", "at most one &#39;+&#39;"),
])
def test_a_bad_share_link_is_a_400_page_saying_why(client, code, message) -> None:
    r = client.get("/", params={"code": code})
    assert r.status_code == 400
    assert message in r.text and "share code" in r.text


def test_unknown_language_is_refused(client) -> None:
    r = client.get("/", params={"code": "FR01", "lang": "xx"})
    assert r.status_code == 400 and "unknown language" in r.text


@pytest.mark.parametrize("code", [
    "FR01", "FR01,FR08,FR13", CODE_260, "FR47,FR03,FR17,FR32,FR43,FR46+FR49:FR47:wizard",
    "FR37+FR53:FR37", "FR37+FR53:none", "FR16,FR12+FR09:FR16",
])
def test_share_codes_read_back_the_same(code) -> None:
    cards, choices = engine.parse_code(code, CAT)
    assert engine.to_code(CAT, cards, choices) == code


def test_share_codes_accept_lower_case_and_inline_choices() -> None:
    cards, choices = engine.parse_code("fr01,fr52:fr11", CAT)
    assert engine.to_code(CAT, cards, choices) == "FR01+FR52:FR11"


def test_taking_a_card_out_drops_the_pins_that_named_it() -> None:
    pool = service.pool_from_code(CAT, "FR37,FR01+FR53:FR37")
    smaller = pool.toggled(CAT.by_id["FR37"])
    assert smaller.code == "FR01,FR53"
    assert pool.toggled(CAT.by_id["FR53"]).code == "FR37,FR01"


def test_a_pool_is_at_most_a_hand_and_the_card_drawn() -> None:
    pool = service.pool_from_code(CAT, "FR01,FR02,FR03,FR04,FR05,FR06,FR07,FR09")
    with pytest.raises(ScorerError, match="at most 8"):
        pool.toggled(CAT.by_id["FR10"])
    with pytest.raises(ScorerError, match="at most 7 allowed"):
        pool.hand()


def test_island_options_follow_the_suits_after_book_of_changes() -> None:
    pool = service.pool_from_code(CAT, "FR09,FR16,FR21+FR49:FR21:flame")
    options = [o["value"] for o in service.choice_options(pool, CAT.by_id["FR09"], "en")]
    assert options == ["FR16", "FR21"]  # Knights is a Flame now (R4); Book of Changes is not


def test_page_links_keep_the_language() -> None:
    assert page.href("FR01+FR52:FR11", "de") == "/?code=FR01%2BFR52:FR11&lang=de"


def test_the_page_speaks_the_chosen_language(client) -> None:
    r = client.get("/", params={"code": CODE_260, "lang": "de"})
    assert r.status_code == 200 and total_of(r.text) == "260"
    assert 'data-label="Gebirge"' in r.text and '<option value="de" selected>' in r.text
    assert "toggle=FR01&amp;lang=de" not in r.text  # links keep the language first
    assert "&amp;lang=de" in r.text or "lang=de&amp;" in r.text
