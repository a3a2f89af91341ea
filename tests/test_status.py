"""The Status column tells the truth: every self-condition card in both states, the card that
caused a blanking named, and the same reason on the score sheet, in ``explain``, in the JSON
and on the web page, in English and in German.

The expected statuses are what the rules say happened (Smoke without a Flame is blanked for
want of one; War Dirigible beside Rainstorm is blanked because Rainstorm is a Weather).
"""

from __future__ import annotations

import pytest

from fantasy_scorer.realms.catalog import base_catalog
from fantasy_scorer.realms.explain import explain, explanation_json
from fantasy_scorer.realms.formats.handfile import load_hand, names_for
from fantasy_scorer.realms.formats.report import result_json, result_table
from fantasy_scorer.realms.messages import render
from fantasy_scorer.realms.resolve import Result, resolve
from fantasy_scorer.web.games import Games
from fantasy_scorer.web.service import Pool, score_json

#: (hand, expansion, edition, the card, its expected status in English)
CASES = [
    # Smoke: blanked unless the hand has a Flame
    ("Smoke; Wildfire", None, None, "Smoke", "kept: Flame in hand (Wildfire)"),
    ("Mountain; Smoke", None, None, "Smoke", "blanked: no Flame in hand"),
    ("Smoke; Wildfire; Rainstorm", None, None, "Smoke",
     "blanked: no Flame left in hand (Wildfire blanked)"),
    ("Smoke; Phoenix; Island", None, None, "Smoke",  # R15: the blanked Phoenix is a Flame
     "kept: Flame in hand (Phoenix, blanked but counting for its suits)"),
    ("Smoke; Cavern", None, None, "Smoke", "penalty cleared by Cavern"),
    # Warship: blanked unless the hand has a Flood
    ("Warship; Swamp", None, None, "Warship", "kept: Flood in hand (Swamp)"),
    ("Warship; Knights", None, None, "Warship", "blanked: no Flood in hand"),
    ("Warship; Book of Changes: Warship -> Flood", None, None, "Warship",
     "kept: Flood in hand (itself); suit changed by Book of Changes"),
    # War Dirigible: blanked unless with an Army, and blanked with any Weather
    ("War Dirigible; Knights", None, None, "War Dirigible",
     "kept: Army in hand (Knights); no Weather in hand"),
    ("War Dirigible; Rainstorm; Knights", None, None, "War Dirigible",
     "blanked: with Rainstorm (a Weather)"),
    ("War Dirigible; Mountain", None, None, "War Dirigible", "blanked: no Army in hand"),
    ("War Dirigible; Rainstorm", None, None, "War Dirigible",
     "blanked: no Army in hand; with Rainstorm (a Weather)"),
    ("Knights; War Dirigible; Smoke", None, None, "War Dirigible",
     "kept: Army in hand (Knights); no Weather left in hand (Smoke blanked)"),
    ("Phoenix; War Dirigible; Elven Archers", None, "deluxe", "War Dirigible",  # C8
     "kept: Army in hand (Elven Archers); no Weather that can blank it (Phoenix never causes "
     "a blanking)"),
    # the promo Phoenix and the Deluxe one: blanked with any Flood
    ("Phoenix; Knights", None, None, "Phoenix", "kept: no Flood in hand"),
    ("Phoenix; Swamp", None, None, "Phoenix", "blanked: with Swamp (a Flood)"),
    ("Phoenix; Knights", None, "deluxe", "Phoenix", "kept: no Flood in hand"),
    ("Phoenix; Swamp", None, "deluxe", "Phoenix", "blanked: with Swamp (a Flood)"),
    ("Phoenix; Island: Phoenix", None, "deluxe", "Phoenix", "penalty cleared by Island"),
    ("Great Flood; Phoenix; Beastmaster", None, "deluxe", "Phoenix",  # C7
     "blanked by Great Flood; penalty cleared by Beastmaster"),
    # Garden (Cursed Hoards): blanked with any Undead, Necromancer or Demon
    ("Garden; King", "cursed-hoards", None, "Garden",
     "kept: no Undead, Necromancer or Demon in hand"),
    ("Garden; Lich", "cursed-hoards", None, "Garden", "blanked: with Lich (an Undead)"),
    ("Garden; Necromancer", "cursed-hoards", None, "Garden", "blanked: with Necromancer"),
    # the causes of other blankings, and clearings, named
    ("Great Flood; Knights", None, None, "Knights", "blanked by Great Flood"),
    ("Mountain; Great Flood", None, None, "Great Flood", "penalty cleared by Mountain"),
    ("Basilisk; Doppelgänger: Basilisk", None, None, "Basilisk",
     "blanked: on a loop with Doppelgänger (as Basilisk)"),
    ("Wildfire; Book of Changes: Wildfire -> Leader", None, None, "Wildfire",
     "blanked: it blanks itself; suit changed by Book of Changes"),
    ("Rangers; Swamp", None, None, "Swamp", "Army cleared by Rangers"),
    ("Demon; Knights; Queen", "cursed-hoards", None, "Knights",
     "blanked by Demon: the only card of its suit"),
    # two "only card of its suit" penalties (C1): the sentence names the same card in
    # either order of the hand (the one of the lower id), as R8 wants of every sentence
    ("Mountain; Doppelgänger: Demon; Demon", "cursed-hoards", None, "Mountain",
     "blanked by Demon: the only card of its suit"),
    ("Demon; Doppelgänger: Demon; Mountain", "cursed-hoards", None, "Mountain",
     "blanked by Demon: the only card of its suit"),
    ("Angel: King; King; Basilisk", "cursed-hoards", None, "King", "cannot be blanked (Angel)"),
]

#: Each case's status in German, written from the rules as the English one.
GERMAN = {
    ("Smoke; Wildfire", None): "bleibt: Flamme auf der Hand (Buschfeuer)",
    ("Mountain; Smoke", None): "blockiert: Flamme fehlt auf der Hand",
    ("War Dirigible; Rainstorm; Knights", None): "blockiert: mit Regensturm (Wetter)",
    ("Phoenix; Swamp", "deluxe"): "blockiert: mit Sumpf (Flut)",
    ("Great Flood; Knights", None): "blockiert durch Große Flut",
}


def scored(hand: str, expansion: str | None, edition: str | None) -> Result:
    return resolve(load_hand(hand.replace(";", "\n"), "t", expansion=expansion,
                             edition=edition))


def line_of(result: Result, card: str):
    return next(ln for ln in result.lines if ln.name == card)


def case_ids() -> list[str]:
    return [f"{c[3]}: {c[4][:30]}" for c in CASES]


@pytest.mark.parametrize(("hand", "expansion", "edition", "card", "status"), CASES,
                         ids=case_ids())
def test_the_status_states_the_actual_reason(hand, expansion, edition, card, status) -> None:
    result = scored(hand, expansion, edition)
    assert line_of(result, card).status == status
    sheet = result_table(result)
    assert status in sheet
    assert next(c for c in result_json(result)["cards"] if c["name"] == card)["status"] == status


@pytest.mark.parametrize(("hand", "expansion", "edition", "card", "status"), CASES,
                         ids=case_ids())
def test_explain_gives_the_same_reason(hand, expansion, edition, card, status) -> None:
    result = scored(hand, expansion, edition)
    ln = line_of(result, card)
    first = ln.reasons[0]
    if first.key not in ("status.kept", "status.blanked"):
        return  # a blanking by another card, a clearing: explain words it in full
    reason = render(first.args["reasons"])  # "no Flame in hand"
    steps = [s for s in explain(result) if s.step in ("blank", "keep")
             and s.card is not None and s.card.name == card]
    assert len(steps) == 1
    assert reason in steps[0].text
    assert steps[0].text.startswith(f"{card} ")
    # the JSON trace, in English and in German, says it too
    assert reason in [s["text"] for s in explanation_json(result)["steps"]
                      if s["card"] == card and s["step"] in ("blank", "keep")][0]
    loc = names_for(result.hand.catalog).localizer("de")
    german = loc.say(first.args["reasons"])
    assert german in loc.status(ln)
    assert german in [s["text"] for s in explanation_json(result, loc)["steps"]
                      if s["card_id"] == ln_id(result, card) and s["step"] in ("blank", "keep")][0]


def ln_id(result: Result, card: str) -> str:
    return next(c.id for c in result.hand.cards if c.name == card)


@pytest.mark.parametrize(("hand", "edition"), sorted(GERMAN, key=str))
def test_german_statuses(hand, edition) -> None:
    case = next(c for c in CASES if c[0] == hand and c[2] == edition)
    result = scored(hand, None, edition)
    loc = names_for(result.hand.catalog).localizer("de")
    assert loc.status(line_of(result, case[3])) == GERMAN[(hand, edition)]


PAGE_CASES = [c for c in CASES if c[1] is None and c[2] is None and ":" not in c[0]]


@pytest.mark.parametrize(("hand", "expansion", "edition", "card", "status"), PAGE_CASES,
                         ids=[f"{c[3]}: {c[4][:30]}" for c in PAGE_CASES])
def test_the_page_says_the_same_sentence(hand, expansion, edition, card, status) -> None:
    cat = base_catalog()
    pool = Pool(Games().default, tuple(cat.card(n.strip()) for n in hand.split(";")))
    data = score_json(pool, "en", optimize=False)
    assert next(c for c in data["cards"] if c["name"] == card)["status"] == status
    result = scored(hand, None, None)
    german = names_for(cat).localizer("de").status(line_of(result, card))
    data = score_json(pool, "de", optimize=False)
    assert next(c for c in data["cards"] if c["name"] == card)["status"] == german
