"""The compiled scorer (``score_many`` and the internal entry) equals ``resolve`` exactly.

* Hypothesis properties: on random base, promo, Deluxe, homebrew and Cursed Hoards hands (with
  Cursed Items, discard areas and players), choices pinned, written ``none`` or left open,
  ``score_many`` gives ``resolve``'s total, from hand-file lines and from Hand objects; the
  internal entry gives it from card indices, and its optimal choices give ``score_hand``'s.
* Worked examples of the rules (blanking chains, loops R8, copies R1/R2, collections R10…).
* An illegal hand raises the very error ``resolve_hand`` raises; a card whose effect the
  compiled code does not know is scored by ``resolve``.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import fantasy_scorer as fs
from fantasy_scorer.batch import _coder
from fantasy_scorer.errors import ScorerError
from fantasy_scorer.realms import effects as fx
from fantasy_scorer.realms.catalog import Card, Catalog, base_catalog, load_catalog
from fantasy_scorer.realms.hand import Hand, format_choice
from fantasy_scorer.realms.resolve import resolve
from fantasy_scorer.realms.solve.api import optimize
from fantasy_scorer.realms.solve.batch.kernel import CV_CHANGE, CV_COPY, CV_TARGET
from fantasy_scorer.realms.solve.batch.lines import score_lines
from fantasy_scorer.realms.solve.batch.scorer import compiled

from ..strategies import hands, random_choices

CAT = base_catalog()
EXP = base_catalog("cursed-hoards")
DELUXE = base_catalog("cursed-hoards", "deluxe")
BASE_DELUXE = base_catalog(None, "deluxe")

#: Homebrew cards using the whole vocabulary: first/exactly/except/other, names in terms, a
#: copy that takes a penalty from the game, immunity, a second suit word, lonely cards…
HOMEBREW = """
cards:
  - {id: HB01, name: Sea Serpent, suit: Beast, strength: 20, text: "",
     bonus: [{points: 10, per: [Flood]}], penalty: [{blanked_unless: [Swamp, Island]}]}
  - {id: HB02, name: Tax Collector, suit: Leader, strength: 6, text: "",
     bonus: [{points: 4, per: [any]}]}
  - {id: HB03, name: Lighthouse, suit: Land, strength: 5, text: "",
     bonus: [{points: 7, first: 12, per: [Flood, Weather]}]}
  - {id: HB04, name: Oracle, suit: Wizard, strength: 8, text: "",
     bonus: [{exactly: {count: 2, of: [Wizard, Leader], points: 30}}]}
  - {id: HB05, name: Mimic, suit: Wild, strength: 0, text: "",
     copy: {from: game, suits: [Beast, Army], takes: [name, suit, penalty]}}
  - {id: HB06, name: Warden, suit: Artifact, strength: 3, text: "", grants_immunity: [Army]}
  - {id: HB07, name: Ferryman, suit: Flood, strength: 6, text: "",
     clear_one: [Army, Sea Serpent]}
  - {id: HB08, name: Hermit, suit: Wizard, strength: 30, text: "",
     penalty: [{blanks_lonely: {spare: [Wizard]}}]}
  - {id: HB09, name: Ember Golem, suit: Flame, also: [Land], strength: 12, text: "",
     keeps_suits_when_blanked: true, penalty: [{blanked_if: [Flood]}]}
  - {id: HB10, name: Choirmaster, suit: Leader, strength: 7, text: "",
     bonus: [{points: 9, per: [{match: Army, except: [Knights]}],
              with_all: [[Wizard], [Beast, Flame]]}],
     penalty: [{points: -6, per_other: [Leader]}]}
  - {id: HB11, name: Mirrorsmith, suit: Weapon, strength: 5, text: "",
     bonus: [{best_of: [{sum_strength: [Weapon]}, {max_strength: [Army]},
                        {points: 25, unless: [Beast]}]}]}
  - {id: HB12, name: Runesmith, suit: Artifact, strength: 4, text: "",
     bonus: [{runs: {2: 5, 3: 20}}], clears_word: {word: Flame, of: [Beast]}}
  - {id: HB13, name: Stone Idol, suit: Artifact, also: [Land], strength: 9, text: "",
     blanked_only_by: [Flood, Beast], never_blanks_others: true, copied_suits: [Artifact],
     discard_suits: [Land], unchangeable: true,
     penalty: [{blanks: [{match: Weather, other: true}]}, {blanked_if: [Flame]}]}
  - {id: HB14, name: Storm Crow, suit: Beast, also: [Weather], strength: 11, text: "",
     keeps_suits_when_blanked: true, change_replaces: [Beast], copied_suits: [Weather],
     bonus: [{points: 6, per_other: [Weather]}], penalty: [{blanked_unless: [Flood]}]}
"""


def _homebrew() -> Catalog:
    path = Path(tempfile.mkdtemp()) / "homebrew.yaml"
    path.write_text(HOMEBREW, encoding="utf-8")
    return load_catalog([path], "cursed-hoards")  # with the expansion: every trait at once


HOME = _homebrew()


def quick(n: int) -> settings:
    return settings(max_examples=n, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@st.composite
def written(draw, catalog: Catalog) -> tuple[Hand, list[str]]:
    """A random legal hand and its hand-file lines: names or ids, each choice written, written
    ``none`` or left off its line (both leave it unassigned), the table in sections."""
    hand = draw(hands(catalog))
    # an empty discard area cannot be written as a section: such a hand is read without one
    assume(hand.discard or not any("discard" in c.needs for c in hand.cards + hand.cursed))
    choices = dict(hand.choices)
    lines = [f"players: {hand.players}"] if hand.players is not None else []
    for c in hand.cards:
        word = draw(st.sampled_from([c.name, c.id]))
        if c.id in choices and (choices[c.id] is not None or draw(st.booleans())):
            lines.append(f"{word}: {format_choice(choices[c.id])}")
        else:
            choices.pop(c.id, None)
            lines.append(word)
    if hand.cursed:
        lines += ["[cursed items]", *(c.name for c in hand.cursed)]
    if hand.discard:
        lines += ["[discard]", *(c.name for c in hand.discard)]
    discard = hand.discard if hand.discard else None
    return Hand(catalog, hand.cards, choices, discard, hand.players, hand.cursed), lines


def compiled_path(catalog: Catalog, texts: list[list[str]]) -> list[int]:
    """The totals of the compiled path alone (no fallback): it must take every legal hand
    written here, or the property below would test ``resolve`` against itself."""
    coder, sc = _coder(catalog), compiled(catalog)
    codes = [coder.codes(t) for t in texts]
    starts = np.cumsum([0] + [len(c) for c in codes]).astype(np.int64)
    totals = np.zeros(len(texts), dtype=np.int64)
    status = np.zeros(len(texts), dtype=np.int64)
    score_lines(sc.M, sc.OF, np.array([x for c in codes for x in c] + [0], dtype=np.int64),
                starts, totals, status)
    assert status.tolist() == [0] * len(texts)
    return totals.tolist()


def check_lines(catalog: Catalog, pairs: list[tuple[Hand, list[str]]]) -> None:
    want = [resolve(h).total for h, _ in pairs]
    assert compiled_path(catalog, [lines for _, lines in pairs]) == want
    assert fs.score_many([lines for _, lines in pairs], catalog=catalog) == want
    assert fs.score_many([h for h, _ in pairs], catalog=catalog) == want


@quick(150)
@given(st.lists(written(CAT), min_size=1, max_size=6))
def test_score_many_equals_resolve_on_random_base_hands(pairs) -> None:
    check_lines(CAT, pairs)


@quick(150)
@given(st.lists(written(EXP), min_size=1, max_size=6))
def test_score_many_equals_resolve_on_cursed_hoards_hands(pairs) -> None:
    check_lines(EXP, pairs)


@quick(80)
@given(st.lists(written(DELUXE), min_size=1, max_size=4))
def test_score_many_equals_resolve_with_the_deluxe_phoenix(pairs) -> None:
    check_lines(DELUXE, pairs)


@quick(150)
@given(st.lists(written(HOME), min_size=1, max_size=6))
def test_score_many_equals_resolve_on_homebrew_hands(pairs) -> None:
    check_lines(HOME, pairs)


#: Cards whose rules interact most: choices, blanking, clearing, counting, the expansion.
LIVELY = ["Doppelgänger", "Mirage", "Shapeshifter", "Book of Changes", "Island", "Basilisk",
          "Wildfire", "Great Flood", "Rainstorm", "Blizzard", "Smoke", "Warship",
          "War Dirigible", "Phoenix", "Rangers", "Protection Rune", "Collector", "Gem of Order",
          "World Tree", "Jester", "Swamp", "Knights", "Beastmaster", "Angel", "Demon", "Lich",
          "Judge", "Crypt", "Chapel", "Garden", "Dungeon", "Castle", "Necromancer"]


@st.composite
def lively(draw, catalog: Catalog) -> tuple[Hand, list[str]]:
    """Hands of mostly interacting cards, every choice random (and legal)."""
    pool = [catalog.card(n) for n in LIVELY if catalog.lookup(n) is not None]
    cards = draw(st.lists(st.sampled_from(pool), min_size=2, max_size=catalog.hand_size,
                          unique_by=lambda c: c.id))
    rest = [c for c in catalog.suit_cards if c not in cards]
    cards += draw(st.lists(st.sampled_from(rest), max_size=catalog.hand_size - len(cards),
                           unique_by=lambda c: c.id))
    choices = random_choices(draw, cards, catalog)
    discard = tuple(c for c in rest if c not in cards)[:draw(st.integers(1, 5))]
    players = draw(st.integers(2, 6))
    try:
        hand = Hand(catalog, tuple(cards), choices, discard, players)
        resolve(hand)
    except ScorerError:  # an Island target that is not a Flood/Flame after step 2 (R4)
        choices = {k: v for k, v in choices.items()
                   if not isinstance(catalog.by_id[k].choice, fx.ClearOne)}
        hand = Hand(catalog, tuple(cards), choices, discard, players)
    lines = [f"players: {players}"] + [
        f"{c.name}: {format_choice(choices[c.id])}" if c.id in choices else c.name
        for c in cards] + ["[discard]", *(c.name for c in discard)]
    return hand, lines


@quick(200)
@given(st.lists(lively(EXP), min_size=1, max_size=5))
def test_score_many_equals_resolve_on_lively_hands(pairs) -> None:
    check_lines(EXP, pairs)


@quick(100)
@given(st.lists(lively(CAT), min_size=1, max_size=5))
def test_score_many_equals_resolve_on_lively_base_hands(pairs) -> None:
    check_lines(CAT, pairs)


# -- worked examples -------------------------------------------------------------------------

WORKED = [  # hands of the rules' worked examples (fantasy-realms.md) and their totals
    (["Mountain", "Great Flood", "Smoke", "Whirlwind", "Air Elemental", "Wildfire",
      "Mirage: Rainstorm"], 260),
    (["Bell Tower", "Candle", "Queen", "Sword of Keth", "Shield of Keth", "Gem of Order",
      "Book of Changes: Gem of Order -> Wizard"], 380),
    (["Blizzard", "Great Flood", "Wildfire"], 65),
    (["Cavern", "Blizzard", "Great Flood", "Wildfire"], 62),
    (["Blizzard", "Great Flood", "Elven Archers"], 35),
    (["Basilisk", "Doppelgänger: Basilisk"], 0),  # a loop of two Basilisks (R8 b)
    (["Dwarvish Infantry", "Doppelgänger: Dwarvish Infantry"], 26),
    (["Island: Wildfire", "Blizzard", "Wildfire", "Basilisk"], 95),
    (["Water Elemental", "Doppelgänger: Water Elemental"], 23),  # R11
    (["Collector", "Shield of Keth", "Gem of Order", "Shapeshifter: Shield of Keth",
      "Doppelgänger: Shield of Keth"], 20),  # R10: a copy adds no name
    (["Knights", "War Dirigible", "Smoke"], 47),
    (["Smoke", "War Dirigible", "Knights"], 47),  # the same in another order (R8)
    (["Smoke", "Dwarvish Infantry", "War Dirigible"], 50),
]


@pytest.mark.parametrize("lines,total", WORKED)
def test_worked_examples_through_score_many(lines: list[str], total: int) -> None:
    assert fs.score_many([lines]) == [total]


def test_R15_a_blanked_phoenix_still_gives_collector_three_suits_compiled() -> None:
    # the rules' worked example (Cursed Hoards): Garden blanks nothing here, the Phoenix is
    # blanked by Water Elemental's Flood yet counts as Beast, Flame and Weather: 132
    hand = ["Phoenix", "Water Elemental", "Fire Elemental", "Air Elemental", "Unicorn",
            "Warhorse", "Collector", "Garden"]
    assert fs.score_many([hand], catalog=EXP) == [132]


def test_R16_a_copy_of_the_phoenix_is_a_beast_only_compiled() -> None:
    hand = ["Phoenix", "Shapeshifter: Phoenix", "Doppelgänger: Phoenix", "Fire Elemental",
            "Air Elemental", "Collector", "Beastmaster"]
    assert fs.score_many([hand]) == [109]  # the rules' worked example


def test_R17_book_of_changes_replaces_only_the_phoenixs_beast_compiled() -> None:
    hand = ["Book of Changes: Phoenix -> Weather", "Elven Longbow", "Enchantress", "Phoenix",
            "Great Flood", "Forest", "Fire Elemental"]
    assert fs.score_many([hand]) == [58]  # the rules' worked example


def test_C7_only_a_flood_blanks_the_deluxe_phoenix_compiled() -> None:
    assert fs.score_many([["Great Flood", "Phoenix", "Beastmaster"]],
                         catalog=BASE_DELUXE) == [41]  # the rules' worked example


def test_C8_the_deluxe_phoenix_never_causes_a_blanking_compiled() -> None:
    assert fs.score_many([["Phoenix", "War Dirigible", "Elven Archers"]],
                         catalog=BASE_DELUXE) == [59]  # the rules' worked example


def test_a_batch_of_worked_examples_keeps_its_order() -> None:
    assert fs.score_many([lines for lines, _ in WORKED]) == [t for _, t in WORKED]


# -- errors and fallbacks ----------------------------------------------------------------------

BAD = [
    ["Mountain", "Mountain"],  # listed twice
    ["Mountian"],  # unknown card, did you mean
    ["Island: Knights", "Knights"],  # Island clears only a Flood or Flame (R4)
    ["Mirage: Basilisk"],  # not a Mirage suit
    ["Doppelgänger: Knights"],  # not in hand
    ["Book of Changes: Book of Changes -> Army"],  # not itself (R3)
    [c.name for c in CAT.cards[:9]],  # nine cards without an extra-card effect
    [],  # nothing in the hand
    ["Knights: Queen"],  # Knights makes no choice
]


@pytest.mark.parametrize("lines", BAD)
def test_an_illegal_hand_raises_the_error_resolve_hand_raises(lines: list[str]) -> None:
    with pytest.raises(ScorerError) as expected:
        fs.resolve_hand(lines)
    with pytest.raises(ScorerError) as got:
        fs.score_many([["Knights"], lines])
    assert str(got.value) == str(expected.value)


@pytest.mark.parametrize("lines", [
    ["players: 7", "Genie"],  # 2 to 6 players (C6)
    ["Ghoul", "Knights"],  # a discard-area card without a discard area (C5)
    ["Spyglass", "Knights"],  # a Cursed Item among the hand's cards
    ["Knights", "[discard]", "Knights"],  # both in hand and in the discard area
])
def test_an_illegal_expansion_hand_raises_what_resolve_hand_raises(lines: list[str]) -> None:
    with pytest.raises(ScorerError) as expected:
        fs.resolve_hand(lines, catalog=EXP)
    with pytest.raises(ScorerError) as got:
        fs.score_many([lines], catalog=EXP)
    assert str(got.value) == str(expected.value)


def test_settings_and_sections_read_as_in_a_hand_file() -> None:
    # Genie: -50 + 10 per other player; with 4 players: -50 + 30 = -20 (C6)
    assert fs.score_many([["players: 4", "Genie"]], catalog=EXP) == [-20]
    # Dark Queen: 10 + 5 per Land, Flood, Flame, Weather, Unicorn in the discard area (C5):
    # Mountain, Swamp and Unicorn there: 10 + 15 = 25
    assert fs.score_many([["Dark Queen", "[discard]", "Mountain", "Swamp", "Unicorn"]],
                         catalog=EXP) == [25]


@dataclass(frozen=True)
class Halves(fx.PointEffect):
    """An effect class the compiled tables do not know: half the kept cards' count."""

    def value(self, view: fx.View, me) -> int:
        return len(view.kept) // 2

    def explain(self, view: fx.View, me) -> tuple[int, str]:
        return self.value(view, me), "half"


def test_a_card_whose_effect_the_tables_do_not_know_is_scored_by_resolve() -> None:
    cat = Catalog(suits=list(CAT.suits), hand_size=7)
    for c in CAT.cards:
        cat.add(c, "base")
    odd = Card("ZZ01", "Odd Sage", ("Wizard",), cat.suit_bit("Wizard"), 4, bonus=(Halves(),))
    cat.add(odd, "test")
    hand = ["Odd Sage", "Knights", "Queen", "Mountain"]
    # Odd Sage 4 + 4 // 2 = 6; Knights 20 (a Leader: no -8); Queen 6 + 5 × 1 Army; Mountain 9
    assert fs.score_many([hand], catalog=cat) == [6 + 20 + 11 + 9]
    assert compiled(cat).resolve_totals([compiled(cat).ids([cat.card(n) for n in hand])]
                                        ).tolist() == [46]


# -- the internal entry --------------------------------------------------------------------------

def arrays(catalog: Catalog, hand_list: list[Hand]) -> tuple[np.ndarray, np.ndarray]:
    """Rows of card indices and of choices (the kernel's values) for these hands."""
    sc = compiled(catalog)
    w = max(len(h.cards) for h in hand_list)
    rows = np.full((len(hand_list), w), -1, dtype=np.int64)
    ch = np.zeros((len(hand_list), w, 3), dtype=np.int64)
    for r, h in enumerate(hand_list):
        pos = {c.id: i for i, c in enumerate(h.cards)}
        for i, c in enumerate(h.cards):
            rows[r, i] = sc.index[c.id]
            v = h.choices.get(c.id)
            if v is None:
                continue
            if isinstance(c.choice, fx.Copy):
                ch[r, i] = (CV_COPY, sc.index[v.id], 0)
            elif isinstance(c.choice, fx.ChangeSuit):
                ch[r, i] = (CV_CHANGE, pos[v[0].id], catalog.suits.index(v[1]))
            else:
                ch[r, i] = (CV_TARGET, pos[v.id], 0)
    return rows, ch


@quick(100)
@given(st.sampled_from([EXP, HOME]).flatmap(
    lambda cat: st.tuples(st.just(cat), st.lists(hands(cat), min_size=1, max_size=5))))
def test_the_internal_entry_equals_resolve_from_card_indices(drawn) -> None:
    cat, hand_list = drawn
    sc = compiled(cat)
    rows, ch = arrays(cat, hand_list)
    got = sc.resolve_totals(rows, ch, players=[h.players for h in hand_list],
                            discard=[sc.ids(h.discard or ()) for h in hand_list],
                            cursed=[sc.ids(h.cursed) for h in hand_list])
    assert got.tolist() == [resolve(h).total for h in hand_list]


def open_hand(h: Hand) -> Hand:
    """The hand with every choice open and, sometimes, room for Necromancer's extra card."""
    cards = h.cards
    if len(cards) > h.catalog.hand_size:
        cards = cards[: h.catalog.hand_size]
    return Hand(h.catalog, cards, {}, h.discard, h.players, h.cursed)


@quick(60)
@given(st.lists(hands(CAT, min_size=7), min_size=1, max_size=3),
       st.lists(st.sampled_from(CAT.cards), max_size=4, unique_by=lambda c: c.id))
def test_optimal_totals_equal_score_hand_on_base_hands(hand_list, area) -> None:
    sc = compiled(CAT)
    hand_list = [open_hand(h) for h in hand_list]
    discard = [[c for c in area if c not in h.cards] for h in hand_list]
    got = sc.optimal_totals([sc.ids(h.cards) for h in hand_list],
                            discard=[sc.ids(d) for d in discard])
    want = [optimize(h, d).total for h, d in zip(hand_list, discard, strict=True)]
    assert got.tolist() == want


@quick(60)
@given(st.lists(hands(EXP, min_size=8), min_size=1, max_size=3))
def test_optimal_totals_equal_score_hand_on_expansion_hands(hand_list) -> None:
    sc = compiled(EXP)
    hand_list = [open_hand(h) for h in hand_list]
    got = sc.optimal_totals([sc.ids(h.cards) for h in hand_list],
                            players=[h.players for h in hand_list],
                            discard=[sc.ids(h.discard or ()) for h in hand_list],
                            cursed=[sc.ids(h.cursed) for h in hand_list])
    assert got.tolist() == [optimize(h).total for h in hand_list]


def test_optimal_totals_take_necromancers_best_card() -> None:
    # Necromancer 3, King 8, Knights 20 (a Leader in hand: no -8). Taking Queen: King and
    # Queen pay +20 per Army (1): 3 + (8 + 20) + 20 + (6 + 20) = 77; taking Warlord:
    # 3 + (8 + 5) + 20 + (4 + 20) = 60; Mountain is not a card Necromancer may take (R13).
    sc = compiled(CAT)
    hand = [CAT.card(n) for n in ("Necromancer", "King", "Knights")]
    area = [CAT.card(n) for n in ("Warlord", "Queen", "Mountain")]
    assert sc.optimal_totals([sc.ids(hand)], discard=sc.ids(area)).tolist() == [77]
