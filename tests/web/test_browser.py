"""The scoring page in headless Chromium, driven as a player at the table would, at phone
width (390×844) and laptop width (1280×800). Screenshots go to ``artifacts/``.

1. Cursed Hoards: the switch, the suits and replacements, the Deluxe edition, the discard
   area editor, the number of players, Cursed Items, advice at nine cards.
2. Every language: the menu, the page's words, search in any language.
3. A phone in a noisy room: messages in sight, search, reset, Back, Space, a loading state
   that never shows the previous hand's trace, AA contrast, the manifest, offline.
(5.) The web scorer's links open here, and the share box prints them.

Expected totals are worked out by hand in the comments (or taken from the rules' worked
examples); the waits are hang guards, never speed tests.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from fantasy_scorer.realms.catalog import base_catalog
from fantasy_scorer.realms.hand import Hand
from fantasy_scorer.realms.resolve import resolve

from . import contrast
from .conftest import LAPTOP, PHONE, open_page, shot

CAT = base_catalog()
# The rules' first worked example: 260 with Mirage as Rainstorm.
SEVEN = ["FR01", "FR08", "FR13", "FR14", "FR15", "FR16", "FR52"]
MIRAGE, RAINSTORM, KNIGHTS = "FR52", "FR11", "FR21"
CODE_260 = "FR01,FR08,FR13,FR14,FR15,FR16%2BFR52:FR11"


def card(page, cid: str):
    return page.locator(f'.picker a[data-card="{cid}"]')


def tap(page, cid: str, count: int | None = None) -> None:
    card(page, cid).click()
    if count is not None:
        expect(page.locator("#count")).to_have_text(re.compile(rf"^\D*{count}\D*$"))
    expect(page.locator("#busy")).to_be_hidden()


def settled(page) -> None:
    expect(page.locator("#busy")).to_be_hidden()


def in_view(page, selector: str) -> None:
    """The element is on screen now, not somewhere above or below it."""
    box = page.locator(selector).bounding_box()
    height = page.viewport_size["height"]
    assert box is not None, f"{selector} is not shown"
    assert box["y"] >= 0 and box["y"] + box["height"] <= height, (selector, box, height)


def no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"page is {width}px wide"


# --------------------------------------------------------------------------------------------
# The base game, as before: a full hand, pins, the trace, the share link, the advice
# --------------------------------------------------------------------------------------------


def test_a_full_hand_at_the_table(screen, live_url) -> None:
    page = screen
    page.goto("/")
    expect(page.locator("#empty")).to_be_visible()
    expect(page.locator("#total")).to_have_text("–")
    for n, cid in enumerate(SEVEN, start=1):
        tap(page, cid, n)
        expect(card(page, cid)).to_have_attribute("aria-pressed", "true")
    # Mirage left open: the optimizer makes it Rainstorm, the worked example's 260.
    expect(page.locator("#total")).to_have_text("260")
    rows = page.locator("#sheet li")
    expect(rows).to_have_count(7)
    assert sum(int(t) for t in rows.locator(".pts").all_inner_texts()) == 260
    no_sideways_scroll(page)

    select = page.locator(f"#pin-{MIRAGE}")
    select.select_option("none")
    unassigned = resolve(Hand(CAT, tuple(CAT.by_id[i] for i in SEVEN), {MIRAGE: None})).total
    expect(page.locator("#total")).to_have_text(str(unassigned))
    select.select_option(RAINSTORM)
    expect(page.locator("#total")).to_have_text("260")
    expect(page.locator(f'#sheet li[data-card="{MIRAGE}"] .as')).to_have_text("as Rainstorm")
    expect(page.locator('#sheet li[data-card="FR08"] .mark-cleared')).to_be_visible()
    expect(page).to_have_url(re.compile(f"code=.*{MIRAGE}:{RAINSTORM}"))

    page.locator("#explain summary").click()
    expect(page.locator("#explain-text")).to_contain_text("Total: 260")
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "hand-260")

    # The share link is the web scorer's own format, and it opens the same hand here.
    link = page.locator("#share-link").input_value()
    assert link == live_url + "/?hand=FR01,FR08,FR13,FR14,FR15,FR16,FR52+FR52:FR11"
    expect(page.locator("#share-code")).to_have_text(
        "FR01,FR08,FR13,FR14,FR15,FR16,FR52+FR52:FR11")
    other = page.context.new_page()
    other.goto(link)
    expect(other.locator("#total")).to_have_text("260")
    expect(other.locator(f"#pin-{MIRAGE}")).to_have_value(RAINSTORM)
    other.close()

    # An 8th card: the advice, and taking it leaves the advised hand. Letting Knights go
    # leaves the worked example (260).
    tap(page, KNIGHTS, 8)
    expect(page.locator('[data-testid="advice"]')).to_have_text("Discard Knights → 260 points")
    expect(page.locator(".discards li")).to_have_count(8)
    expect(page.locator("#notices")).to_contain_text("8 cards: discard one")
    in_view(page, "#dock-advice")
    shot(page, "discard-advice")
    page.locator(f'a[data-discard="{KNIGHTS}"]').click()
    expect(page.locator("#count")).to_have_text("7 cards")
    expect(page.locator("#advice")).to_be_hidden()
    expect(card(page, KNIGHTS)).to_have_attribute("aria-pressed", "false")


def test_a_shared_link_renders_without_script(browser, live_url) -> None:
    context, page = open_page(browser, live_url, PHONE, java_script_enabled=False)
    page.goto(f"/?code={CODE_260}")
    expect(page.locator("#total")).to_have_text("260")
    card(page, KNIGHTS).click()  # a plain link: the server adds the card and redirects
    expect(page).to_have_url(re.compile(KNIGHTS))
    expect(page.locator("#count")).to_have_text("8 cards")
    expect(page.locator('[data-testid="advice"]')).to_be_visible()
    context.close()


# --------------------------------------------------------------------------------------------
# 1. Cursed Hoards
# --------------------------------------------------------------------------------------------


def test_cursed_hoards_with_its_table(screen) -> None:
    page = screen
    page.goto("/")
    page.locator("#game summary").click()
    page.locator('#game-form input[type=radio][name=expansion][value="cursed-hoards"]').check()
    expect(page).to_have_url(re.compile("expansion=cursed-hoards"))
    expect(page.locator("#game-summary")).to_have_text("Cursed Hoards")
    for suit in ("Building", "Outsider", "Undead", "Cursed Items"):
        expect(page.locator(".picker h2", has_text=suit)).to_be_visible()
    expect(card(page, "CH16")).to_contain_text("Bell Tower")  # replaced by the expansion's
    expect(card(page, "FR03")).to_have_count(0)
    page.locator("#game summary").click()
    page.locator("#players").select_option("3")
    settled(page)
    expect(page).to_have_url(re.compile("players=3"))

    # The discard area: a tap now puts the card there.
    page.locator('.tapmode a[data-tap="discard"]').click()
    for cid in ("FR37", "FR38", "FR23"):
        tap(page, cid)
    expect(page.locator("#discard-list .chip")).to_have_count(3)
    expect(page.locator("#discard-n")).to_have_text("3 of 10")
    expect(card(page, "FR23")).to_have_class(re.compile("in-discard"))

    page.locator('.tapmode a[data-tap="hand"]').click()
    hand = ["CH11", "CH20", "FR31", "FR32", "FR21", "FR22", "FR24", "CH06"]
    for n, cid in enumerate(hand, start=1):
        tap(page, cid, n)
    tap(page, "CH24")  # the Cursed Item Spyglass, held beside the hand
    # Hand-computed in test_page.py: Necromancer takes Light Cavalry; 217 with 3 players.
    expect(page.locator("#total")).to_have_text("217")
    expect(page.locator('#sheet li[data-card="FR23"] .mark-extra')).to_have_text(
        "from the discard area")
    expect(page.locator('#sheet li[data-card="CH24"]')).to_contain_text("Cursed Item")
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "cursed-hoards")
    no_sideways_scroll(page)

    # Two players: Spyglass −10 and Genie +10 for one other player: 217 − 9 − 10 = 198.
    page.locator("#game").evaluate("details => { details.open = true; }")
    page.locator("#players").select_option("2")
    expect(page.locator("#total")).to_have_text("198")


def test_nine_expansion_cards_get_their_advice(screen) -> None:
    # Hand-computed in test_page.py: Basilisk goes, the other eight score 326.
    page = screen
    page.goto("/?code=FR31,FR32,FR21,FR22,FR24,FR23,CH19,CH02,FR37&expansion=cursed-hoards")
    expect(page.locator('[data-testid="advice"]')).to_have_text("Discard Basilisk → 326 points")
    in_view(page, "#dock-advice")
    expect(page.locator("#dock-advice")).to_contain_text("Discard Basilisk → 326 points")


def test_the_deluxe_edition_and_back(screen) -> None:
    page = screen
    page.goto("/?code=FR08,FR55,FR27")
    expect(card(page, "FR55")).to_be_visible()
    page.locator("#game summary").click()
    page.locator('#game-form input[type=radio][name=edition][value="deluxe"]').check()
    expect(page).to_have_url(re.compile("edition=deluxe"))
    # The hand moved to the Deluxe Phoenix: Great Flood + Phoenix + Beastmaster = 41 (C7).
    expect(card(page, "FR55D")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#total")).to_have_text("41")


def test_a_game_switch_says_what_it_left_out(screen) -> None:
    page = screen
    page.goto("/?code=CH01,FR01&expansion=cursed-hoards")
    page.locator("#game summary").click()
    page.locator('#game-form input[type=radio][name=expansion][value="none"]').check()
    expect(page.locator("#notices")).to_have_text("Not in this game, left out: Dungeon.")
    in_view(page, "#notices")
    expect(page.locator("#total")).to_have_text("9")
    expect(page).not_to_have_url(re.compile("was="))  # the address is the new game's


# --------------------------------------------------------------------------------------------
# 2. Every language
# --------------------------------------------------------------------------------------------


def test_the_page_in_another_language(screen) -> None:
    page = screen
    page.goto(f"/?code={CODE_260}")
    expect(page.locator("#lang option")).to_have_text([
        "Čeština", "Deutsch", "English", "Español", "Français", "한국어", "Polski", "Português",
        "Русский", "Українська", "中文"])
    page.locator("#lang").select_option("de")
    expect(page).to_have_url(re.compile(r"lang=de"))
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("#total")).to_have_text("260")
    expect(page.locator("#unit")).to_have_text("Punkte")
    expect(page.locator("#count")).to_have_text("7 Karten")
    expect(page.locator('#sheet li[data-card="FR01"] .name')).to_have_text("Gebirge")
    expect(page.locator(f'#sheet li[data-card="{MIRAGE}"] .as')).to_have_text("als Regensturm")
    expect(page.locator("#explain summary")).to_have_text("Erklärung")
    tap(page, KNIGHTS, 8)
    expect(page.locator("#count")).to_have_text("8 Karten")
    expect(page.locator('[data-testid="advice"]')).to_have_text("Wirf Ritter ab → 260 Punkte")
    expect(page.locator("#notices")).to_have_text("8 Karten: wirf eine ab. Der Rat sagt, welche.")
    shot(page, "german")
    page.locator("#lang").select_option("pl")
    expect(page.locator("#count")).to_have_text("8 kart")
    tap(page, KNIGHTS, 7)
    expect(page.locator("#count")).to_have_text("7 kart")
    tap(page, "FR01", 6)
    tap(page, "FR08", 5)
    tap(page, "FR13", 4)
    expect(page.locator("#count")).to_have_text("4 karty")


def test_the_explanation_shows_each_cards_printed_text(screen) -> None:
    # the page as the server renders it (the trace and the texts in it): Mountain's printed
    # text under its points, its names in German (Smoke: Rauch, Wildfire: Buschfeuer); the
    # wording stays English (the game's card texts exist in English only)
    page = screen
    page.goto(f"/?code={CODE_260}&lang=de")
    page.locator("#explain summary").click()
    gebirge = page.locator("#explain-text li.line", has_text="Gebirge: 9 + 50 = 59")
    expect(gebirge.locator(".card-text")).to_have_text(
        "+50 with both Rauch and Buschfeuer. Clears the penalty of every Flut.")
    expect(gebirge.locator(".card-text")).to_have_attribute("lang", "en")


def test_search_filters_as_you_type_in_any_language(screen) -> None:
    page = screen
    page.goto("/")
    search = page.locator("#search")
    search.fill("drache")  # German for Dragon
    expect(page.locator(".picker .card:visible")).to_have_count(1)
    expect(card(page, "FR39")).to_be_visible()
    search.fill("巨龙")  # Chinese
    expect(page.locator(".picker .card:visible")).to_have_count(1)
    expect(card(page, "FR39")).to_be_visible()
    search.fill("doppelganger")  # accents optional
    expect(card(page, "FR53")).to_be_visible()
    expect(page.locator(".picker .card:visible")).to_have_count(1)
    search.fill("drache")
    expect(page.locator(".picker .suit-land")).to_be_hidden()  # a suit with no match goes
    search.fill("zzzz")
    expect(page.locator("#no-match")).to_be_visible()
    search.fill("gebirg")
    search.press("Enter")  # Enter takes the one card left
    expect(card(page, "FR01")).to_have_attribute("aria-pressed", "true")
    search.press("Escape")
    expect(page.locator("#no-match")).to_be_hidden()
    expect(page.locator(".picker .card:visible")).to_have_count(len(CAT.suit_cards))
    shot(page, "search")


# --------------------------------------------------------------------------------------------
# 3. A phone in a noisy room
# --------------------------------------------------------------------------------------------


def test_messages_appear_where_the_player_is_looking(screen) -> None:
    # The example: seven cards, tap Dragon (advice), then Hydra (a 9th: refused).
    page = screen
    page.goto("/?code=FR21,FR31,FR32,FR23,FR38,FR43,FR04")
    card(page, "FR39").scroll_into_view_if_needed()
    tap(page, "FR39", 8)
    in_view(page, "#dock-advice")
    in_view(page, "#notices")
    card(page, "FR40").scroll_into_view_if_needed()
    card(page, "FR40").click()
    expect(page.locator("#error")).to_have_text(re.compile("9 cards given, at most 8"))
    in_view(page, "#error")
    in_view(page, "#total")  # the total stays in sight too
    expect(card(page, "FR40")).to_have_attribute("aria-pressed", "false")
    shot(page, "error-in-sight")


def test_reset_and_back_undo_taps(screen) -> None:
    page = screen
    page.goto("/")
    for n, cid in enumerate(("FR01", "FR13", "FR16"), start=1):
        tap(page, cid, n)
    expect(page).to_have_url(re.compile(r"code=FR01,FR13,FR16"))
    page.go_back()  # the last tap undone
    expect(page.locator("#count")).to_have_text("2 cards")
    expect(card(page, "FR16")).to_have_attribute("aria-pressed", "false")
    expect(page).to_have_url(re.compile(r"code=FR01,FR13$"))
    page.go_forward()
    expect(page.locator("#count")).to_have_text("3 cards")
    # Mountain 59 + Smoke 27 + Wildfire 40 (hand-computed in test_guard.py): 126.
    expect(page.locator("#total")).to_have_text("126")
    page.locator("#reset").click()
    expect(page.locator("#count")).to_have_text("0 cards")
    expect(page.locator("#total")).to_have_text("–")
    page.go_back()  # Reset is undone like a tap
    expect(page.locator("#count")).to_have_text("3 cards")
    expect(page.locator("#total")).to_have_text("126")


def test_space_toggles_a_focused_card(screen) -> None:
    page = screen
    page.goto("/")
    card(page, "FR37").focus()
    page.keyboard.press("Space")
    expect(card(page, "FR37")).to_have_attribute("aria-pressed", "true")
    settled(page)
    expect(page.locator("#total")).to_have_text("35")  # Basilisk alone
    page.keyboard.press("Enter")
    expect(card(page, "FR37")).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#count")).to_have_text("0 cards")


def test_a_change_never_shows_the_previous_hands_trace(screen) -> None:
    page = screen
    page.goto(f"/?code={CODE_260}")
    page.locator("#explain summary").click()
    expect(page.locator("#explain-text")).to_contain_text("Total: 260")
    held = []
    page.route("**/api/score", lambda route: held.append(route))  # hold the answer
    card(page, "FR01").click()  # Mountain out: Great Flood's penalty is no longer cleared
    page.wait_for_function("document.body.classList.contains('busy')")
    expect(page.locator("#busy")).to_be_visible()  # a visible loading state
    expect(page.locator("#explain-text")).to_have_text("Loading…")
    expect(page.locator("#score")).to_have_attribute("aria-busy", "true")
    shot(page, "loading")
    while not held:  # the page's request, parked by the route above (a hang guard below)
        page.wait_for_timeout(50)
    held[0].continue_()
    page.unroute("**/api/score")
    settled(page)
    expect(page.locator("#count")).to_have_text("6 cards")
    total = page.locator("#total").inner_text()
    assert total != "260"
    expect(page.locator("#explain-text")).to_contain_text(f"Total: {total}")
    # no line of the previous hand's trace: no points of Mountain (other cards' printed texts
    # may name it: Wildfire's does)
    expect(page.locator("#explain-text li.line").first).to_be_visible()
    expect(page.locator("#explain-text li.line", has_text=re.compile(r"^Mountain"))
           ).to_have_count(0)


def test_every_text_meets_aa_contrast(screen) -> None:
    page = screen
    states = [
        # every base suit selected (one card each), a blanked row, a cleared row, advice
        "/?code=FR01,FR06,FR11,FR16,FR21,FR26,FR31,FR36",
        f"/?code={CODE_260}",
        # Cursed Hoards: Building, Outsider, Undead, a Cursed Item, the discard area
        "/?code=CH01,CH06,CH11,FR01,FR21,CH24&discard=FR37,FR42,FR46,FR51&players=2"
        "&expansion=cursed-hoards&tap=discard",
        "/?code=FR01,FR99",  # an error in the dock
        # the look-ahead table beside the discard advice (rendered by the server)
        "/?code=FR01,FR08,FR13,FR14,FR15,FR16,FR52,FR21&players=4&ahead=1",
    ]
    for url in states:
        page.goto(url)
        settled(page)
        page.locator("#game summary").click()  # the game panel open too
        bad = contrast.failures(page)
        assert not bad, (url, bad)
    # Each suit's colour under white text when selected, and as the heading on the page.
    page.goto("/?code=FR41,FR46,FR51&expansion=cursed-hoards")
    settled(page)
    assert not contrast.failures(page)
    measured = contrast.measure(page)
    assert len(measured) > 100  # the whole picker was measured
    shot(page, "contrast")


def test_the_page_can_be_installed(screen, live_url) -> None:
    page = screen
    page.goto("/")
    href = page.locator('link[rel="manifest"]').get_attribute("href")  # (relative to the page)
    manifest = page.request.get(f"{live_url}/{href.lstrip('/')}").json()
    assert manifest["display"] == "standalone"
    for icon in manifest["icons"]:
        assert page.request.get(live_url + icon["src"]).status == 200
    # The offline worker takes over the page (loopback is a secure context).
    scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
    assert scope == live_url + "/"


def test_offline_keeps_the_last_result_and_sends_the_taps_later(screen) -> None:
    page = screen
    page.goto(f"/?code={CODE_260}")
    expect(page.locator("#total")).to_have_text("260")
    page.context.set_offline(True)
    card(page, KNIGHTS).click()
    expect(page.locator("#offline")).to_be_visible()
    expect(page.locator("#offline")).to_contain_text("Offline")
    in_view(page, "#offline")
    expect(page.locator("#total")).to_have_text("260")  # the last result stays
    expect(card(page, KNIGHTS)).to_have_attribute("aria-pressed", "true")  # the tap is kept
    card(page, KNIGHTS).click()  # …and another: Knights out again
    card(page, "FR41").click()   # Warship in: 8 cards
    shot(page, "offline")
    page.context.set_offline(False)
    # Back online: the taps are sent; Warship is kept (the hand has Floods) and the advice
    # of eight cards comes.
    expect(page.locator("#offline")).to_be_hidden()
    expect(page.locator("#count")).to_have_text("8 cards")
    expect(page.locator('[data-testid="advice"]')).to_be_visible()
    expect(card(page, KNIGHTS)).to_have_attribute("aria-pressed", "false")


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_a_link_of_the_web_scorer_opens_here(browser, live_url, viewport) -> None:
    context, page = open_page(browser, live_url, viewport)
    page.screen = "phone" if viewport is PHONE else "laptop"
    # A Cursed Hoards link as that scorer writes it: Dark Queen, King and Queen; Unicorn and
    # Knights in the discard area. Dark Queen 10 + 5 (Unicorn); King 8; Queen 6: 29.
    page.goto("/?expansions=ch_items,ch_suits&playerCount=4&hand=CH11,FR31,FR32%2B"
              "&discard=FR36,FR21")
    expect(page.locator("#total")).to_have_text("29")
    expect(page.locator("#discard-list .chip")).to_have_count(2)
    expect(page).to_have_url(re.compile(r"code=CH11,FR31,FR32&discard=FR36,FR21&players=4"))
    link = page.locator("#share-link").input_value()
    assert link == (live_url + "/?expansions=ch_items,ch_suits&playerCount=4"
                    "&hand=CH11,FR31,FR32+&discard=FR36,FR21")
    shot(page, "web-scorer-link")
    context.close()
    assert not page.script_errors
