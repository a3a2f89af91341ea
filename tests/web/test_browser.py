"""The scoring page in headless Chromium, driven as a player at the table would.

A full hand: tap seven cards, read the total, pin a wild card's choice, open the referee's
trace, follow the share link (with and without script), add an 8th card and take the discard
advice. Screenshots at phone and laptop width are saved to ``artifacts/``.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from fantasy_scorer.realms.catalog import base_catalog
from fantasy_scorer.realms.hand import Hand
from fantasy_scorer.realms.resolve import resolve
from fantasy_scorer.web import engine

from .conftest import ARTIFACTS, LAPTOP, PHONE

CAT = base_catalog()
# The rules' first worked example: 260 with Mirage as Rainstorm.
SEVEN = ["FR01", "FR08", "FR13", "FR14", "FR15", "FR16", "FR52"]
MIRAGE, RAINSTORM, KNIGHTS = "FR52", "FR11", "FR21"


def hand(ids: list[str], **choices: str) -> Hand:
    return Hand(CAT, tuple(CAT.by_id[i] for i in ids),
                {k: CAT.by_id[v] for k, v in choices.items()})


def tap(page, card_id: str, count: int) -> None:
    page.locator(f'.picker a[data-card="{card_id}"]').click()
    expect(page.locator("#count")).to_have_text(f"{count} card{'' if count == 1 else 's'}")


def no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"page is {width}px wide"


def test_a_full_hand_at_the_table(phone, live_url) -> None:
    page = phone
    page.goto("/")
    expect(page.locator("#empty")).to_be_visible()
    expect(page.locator("#total")).to_have_text("–")

    # Add seven cards; the total and the breakdown follow every tap.
    for n, cid in enumerate(SEVEN, start=1):
        tap(page, cid, n)
        expect(page.locator(f'.picker a[data-card="{cid}"]')).to_have_attribute(
            "aria-pressed", "true")
    expected = engine.score_hand(hand(SEVEN)).result.total
    expect(page.locator("#total")).to_have_text(str(expected))
    rows = page.locator("#sheet li")
    expect(rows).to_have_count(7)
    points = [int(t) for t in rows.locator(".pts").all_inner_texts()]
    assert sum(points) == expected
    no_sideways_scroll(page)

    # Pin Mirage by hand: first left unassigned, then as Rainstorm (the rules' 260 example).
    select = page.locator(f"#pin-{MIRAGE}")
    expect(select).to_have_value("optimal")
    select.select_option("none")
    unassigned = resolve(Hand(CAT, hand(SEVEN).cards, {MIRAGE: None})).total
    expect(page.locator("#total")).to_have_text(str(unassigned))
    expect(page.locator(f'#sheet li[data-card="{MIRAGE}"] .as')).to_have_count(0)
    select.select_option(RAINSTORM)
    expect(page.locator("#total")).to_have_text("260")
    assert resolve(hand(SEVEN, **{MIRAGE: RAINSTORM})).total == 260
    expect(page.locator(f'#sheet li[data-card="{MIRAGE}"] .as')).to_have_text("as Rainstorm")
    expect(page.locator('#sheet li[data-card="FR08"] .mark-cleared')).to_be_visible()
    expect(page).to_have_url(re.compile(f"code=.*{MIRAGE}:{RAINSTORM}"))

    # The referee's trace.
    page.locator("#explain summary").click()
    expect(page.locator("#explain-text")).to_contain_text("Total: 260")

    ARTIFACTS.mkdir(exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(ARTIFACTS / "phone.png"))
    page.screenshot(path=str(ARTIFACTS / "phone-full.png"), full_page=True)

    # The share link opens the same hand, pinned choice included.
    link = page.locator("#share-link").input_value()
    assert link.startswith(live_url + "/?code=")
    other = page.context.new_page()
    other.goto(link)
    expect(other.locator("#total")).to_have_text("260")
    expect(other.locator(f"#pin-{MIRAGE}")).to_have_value(RAINSTORM)
    expect(other.locator("#sheet li")).to_have_count(7)
    other.close()

    # An 8th card: discard advice, and taking it leaves the advised hand.
    tap(page, KNIGHTS, 8)
    advice = page.locator('[data-testid="advice"]')
    expect(advice).to_be_visible()
    ids = [*SEVEN, KNIGHTS]
    pins = {MIRAGE: CAT.by_id[RAINSTORM]}
    top = engine.best_discard(tuple(CAT.by_id[i] for i in ids), CAT, pins).discards[0]
    expect(advice).to_have_text(
        re.compile(rf"Discard\s+{re.escape(top.card.name)}\s+→\s+{top.scored.result.total}\s+points"))
    expect(page.locator(".discards li")).to_have_count(8)
    expect(page.locator("#notice")).to_be_visible()
    no_sideways_scroll(page)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(ARTIFACTS / "phone-discard.png"), full_page=True)
    page.locator(f'a[data-discard="{top.card.id}"]').click()
    expect(page.locator("#count")).to_have_text("7 cards")
    expect(page.locator("#advice")).to_be_hidden()
    expect(page.locator(f'.picker a[data-card="{top.card.id}"]')).to_have_attribute(
        "aria-pressed", "false")


def test_a_shared_link_renders_without_script(browser, live_url) -> None:
    context = browser.new_context(viewport=PHONE, base_url=live_url, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"/?code=FR01,FR08,FR13,FR14,FR15,FR16%2B{MIRAGE}:{RAINSTORM}")
    expect(page.locator("#total")).to_have_text("260")
    # Tapping a card is a plain link: the server adds it and redirects to the new code.
    page.locator(f'.picker a[data-card="{KNIGHTS}"]').click()
    expect(page).to_have_url(re.compile(f"{KNIGHTS}"))
    expect(page.locator("#count")).to_have_text("8 cards")
    expect(page.locator('[data-testid="advice"]')).to_be_visible()
    context.close()


def test_a_refused_tap_is_undone_with_its_reason(phone) -> None:
    page = phone
    page.goto("/?code=" + ",".join([*SEVEN, KNIGHTS]))
    expect(page.locator("#count")).to_have_text("8 cards")
    tap(page, "FR03", 8)  # a 9th card: refused, the hand stays at 8
    expect(page.locator("#error")).to_contain_text("at most 8")
    expect(page.locator('.picker a[data-card="FR03"]')).to_have_attribute("aria-pressed", "false")
    tap(page, KNIGHTS, 7)
    expect(page.locator("#error")).to_be_hidden()


def test_a_bad_share_link_says_what_is_wrong(phone) -> None:
    phone.goto("/?code=FR01,FR99")
    expect(phone.locator("#error")).to_contain_text("unknown card id 'FR99'")
    expect(phone.locator("#count")).to_have_text("0 cards")


def test_laptop_layout(browser, live_url) -> None:
    context = browser.new_context(viewport=LAPTOP, base_url=live_url)
    page = context.new_page()
    page.goto(f"/?code=FR01,FR08,FR13,FR14,FR15,FR16%2B{MIRAGE}:{RAINSTORM}")
    expect(page.locator("#total")).to_have_text("260")
    score_box = page.locator("section.score").bounding_box()
    picker_box = page.locator("section.picker").bounding_box()
    assert score_box and picker_box and score_box["x"] + score_box["width"] <= picker_box["x"]
    no_sideways_scroll(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "laptop.png"))
    context.close()


def test_switching_language_keeps_the_hand(phone) -> None:
    page = phone
    page.goto(f"/?code=FR01,FR08,FR13,FR14,FR15,FR16%2B{MIRAGE}:{RAINSTORM}")
    page.locator("#lang").select_option("de")
    expect(page).to_have_url(re.compile(r"lang=de"))
    expect(page.locator("#total")).to_have_text("260")
    expect(page.locator('#sheet li[data-card="FR01"] .name')).to_have_text("Gebirge")
    expect(page.locator(f'#sheet li[data-card="{MIRAGE}"] .as')).to_have_text("as Regensturm")
    tap(page, KNIGHTS, 8)
    expect(page).to_have_url(re.compile(rf"code=.*{KNIGHTS}.*lang=de"))
    expect(page.locator('[data-testid="advice"]')).to_contain_text("Ritter")
