"""The CP-SAT search over Cursed Hoards, its Cursed Items and the Deluxe Phoenix (issue 38 §3).

* Property: on random pools (base game, Cursed Hoards, each with the Deluxe Phoenix), with a
  random discard area, table and pinned choices, CP-SAT finds the hand exhaustive
  enumeration finds, and every hand it reports scores what ``resolve`` says (the solution
  is re-scored by ``resolve`` in ``api._solution``; the search itself raises when the
  evaluator finds more than the model promised).
* Property: the model's objective for a fixed hand with every choice pinned equals the
  evaluator's score, so the model is exact, not only an upper bound.
* One test per effect kind or trait newly modelled, its total computed by hand from the
  rules (rulings C1–C8 of /work/shared/rules/cursed-hoards.md).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fantasy_scorer.errors import ScorerError
from fantasy_scorer.realms import effects as fx
from fantasy_scorer.realms.catalog import Card, Catalog, base_catalog
from fantasy_scorer.realms.hand import Hand
from fantasy_scorer.realms.resolve import resolve, score
from fantasy_scorer.realms.solve.api import best_hand
from fantasy_scorer.realms.solve.choices import optimal_choices as enumerated_choices
from fantasy_scorer.realms.solve.cpsat import HandModel, cpsat_choices, objective_of, unsupported
from fantasy_scorer.realms.solve.exhaustive import NO_TABLE, Table

from ..strategies import random_choices, random_pins

BASE = base_catalog()
EXP = base_catalog("cursed-hoards")
DELUXE = base_catalog(edition="deluxe")
EXP_DELUXE = base_catalog("cursed-hoards", "deluxe")


def quick(n: int) -> settings:
    return settings(max_examples=n, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def names(cat: Catalog, *words: str) -> list[Card]:
    return [cat.card(w) for w in words]


def model_best(cat: Catalog, cards: list[Card], table: Table = NO_TABLE,
               pinned: dict | None = None, discard: list[Card] | None = None) -> int | None:
    """The model's optimum holding exactly ``cards`` (open choices chosen by the model; an
    extra card from ``discard`` when a card in hand may take one)."""
    model = HandModel(cat, cards, discard or (), pinned, required=cards,
                      hand_size=len(cards), table=table)
    return objective_of(model)


# ------------------------------------------------------------------------------------------
# Every shipped card is modelled
# ------------------------------------------------------------------------------------------


def test_every_shipped_card_is_modelled() -> None:
    for cat in (BASE, EXP, DELUXE, EXP_DELUXE):
        assert unsupported(cat.cards) == []


# ------------------------------------------------------------------------------------------
# Properties: CP-SAT equals exhaustive enumeration
# ------------------------------------------------------------------------------------------


@st.composite
def tables(draw, cat: Catalog, min_size: int, max_size: int):
    """A pool of ``min_size``–``max_size`` cards, a discard area, players, Cursed Items and
    pinned choices."""
    playable = cat.suit_cards
    pool = draw(st.lists(st.sampled_from(playable), min_size=min_size, max_size=max_size,
                         unique_by=lambda c: c.id))
    rest = [c for c in playable if c not in pool]
    discard = draw(st.lists(st.sampled_from(rest), max_size=4, unique_by=lambda c: c.id))
    cursed_deck = [c for c in cat.cards if c.cursed]
    cursed = draw(st.lists(st.sampled_from(cursed_deck), max_size=4,
                           unique_by=lambda c: c.id)) if cursed_deck else []
    players = draw(st.integers(2, 6))
    rnd = draw(st.randoms(use_true_random=False))
    pinned = random_pins(pool, cat, rnd, 0.3, 0.1)
    if any(c.choice is not None and not isinstance(c.choice, fx.ClearOne)
           and c.id not in pinned for c in pool):
        # a pinned Island target is judged after the open copies and changes of suit (R4);
        # the enumeration learns that in issue 39: until then, pin Island only where no
        # other choice is open
        pinned = {k: v for k, v in pinned.items()
                  if not isinstance(cat.by_id[k].choice, fx.ClearOne)}
    return pool, discard, players, cursed, pinned


def agree(cat: Catalog, pool, discard, players, cursed, pinned) -> None:
    try:
        exhaustive = best_hand(pool, cat, discard, pinned, method="python", players=players,
                               cursed=cursed)[0]
    except ScorerError:  # the pinned choices leave no legal hand: CP-SAT finds none either
        with pytest.raises(ScorerError, match="no legal hand"):
            best_hand(pool, cat, discard, pinned, method="cpsat", players=players,
                      cursed=cursed)
        return
    cpsat = best_hand(pool, cat, discard, pinned, method="cpsat", players=players,
                      cursed=cursed)[0]
    assert cpsat.proven and exhaustive.proven
    assert cpsat.total == exhaustive.total
    assert [c.id for c in cpsat.hand.cards] == [c.id for c in exhaustive.hand.cards]
    assert resolve(cpsat.hand).total == cpsat.total


@quick(30)
@given(tables(BASE, 8, 10))
def test_cpsat_equals_exhaustive_on_random_base_pools(t) -> None:
    agree(BASE, *t)


@quick(60)
@given(tables(EXP, 9, 10))
def test_cpsat_equals_exhaustive_on_random_cursed_hoards_pools(t) -> None:
    agree(EXP, *t)


#: Expansion cards whose rules interact: immunity, Demon, discard-area readers, extra cards,
#: counting, a few choices; the pools below draw mostly from them. (Book of Changes and
#: Doppelgänger, whose options the enumeration multiplies most, come in the random pools.)
LIVELY = ("Angel", "Demon", "Lich", "Necromancer", "Dark Queen", "Ghoul", "Specter",
          "Death Knight", "Chapel", "Judge", "Dungeon", "Castle", "Genie", "Garden", "Crypt",
          "Great Flood", "Island", "Shapeshifter", "Rangers", "World Tree", "Basilisk",
          "Wildfire", "Phoenix", "Collector", "King", "Knights", "Warship", "Smoke",
          "War Dirigible", "Beastmaster", "Leprechaun")


@st.composite
def lively_tables(draw, cat: Catalog):
    """A pool of 9–10 cards, most of them lively, and a discard area of 2–5 cards that
    Necromancer may take from."""
    pool, _, players, cursed, pinned = draw(tables(cat, 2, 3))
    lively = [cat.card(n) for n in LIVELY if cat.card(n) not in pool]
    k = draw(st.integers(9, 10)) - len(pool)
    pool = pool + draw(st.lists(st.sampled_from(lively), min_size=k, max_size=k,
                                unique_by=lambda c: c.id))
    rest = [c for c in cat.suit_cards if c not in pool]
    discard = draw(st.lists(st.sampled_from(rest), min_size=2, max_size=5,
                            unique_by=lambda c: c.id))
    return cat, pool, discard, players, cursed, pinned


@quick(60)
@given(st.sampled_from([EXP, EXP_DELUXE]).flatmap(lively_tables))
def test_cpsat_equals_exhaustive_on_lively_expansion_pools(t) -> None:
    agree(*t)


@quick(30)
@given(tables(EXP_DELUXE, 9, 10))
def test_cpsat_equals_exhaustive_on_random_cursed_hoards_pools_with_the_deluxe_phoenix(t):
    agree(EXP_DELUXE, *t)


@quick(20)
@given(tables(DELUXE, 8, 9))
def test_cpsat_equals_exhaustive_on_random_deluxe_pools(t) -> None:
    agree(DELUXE, *t)


# ------------------------------------------------------------------------------------------
# Property: the model is exact on fixed hands
# ------------------------------------------------------------------------------------------


@st.composite
def fixed_hands(draw, cat: Catalog) -> Hand:
    """A full hand with every choice pinned, a discard area, players and Cursed Items."""
    playable = cat.suit_cards
    cards = draw(st.lists(st.sampled_from(playable), min_size=cat.hand_size,
                          max_size=cat.hand_size, unique_by=lambda c: c.id))
    rest = [c for c in playable if c not in cards]
    discard = tuple(draw(st.lists(st.sampled_from(rest), max_size=6, unique_by=lambda c: c.id)))
    deck = [c for c in cat.cards if c.cursed]
    cursed = tuple(draw(st.lists(st.sampled_from(deck), max_size=4,
                                 unique_by=lambda c: c.id))) if deck else ()
    players = draw(st.integers(2, 6))
    choices = random_choices(draw, cards, cat)
    try:
        hand = Hand(cat, tuple(cards), choices, discard, players, cursed)
        score(hand)
    except Exception:  # an Island target that is no Flood or Flame after step 2 (R4)
        choices = {k: (None if isinstance(cat.by_id[k].choice, fx.ClearOne) else v)
                   for k, v in choices.items()}
        hand = Hand(cat, tuple(cards), choices, discard, players, cursed)
    return hand


@quick(150)
@given(st.sampled_from([EXP, EXP_DELUXE]).flatmap(fixed_hands))
def test_model_objective_equals_the_evaluator_on_random_expansion_hands(hand: Hand) -> None:
    pinned = {c.id: hand.choices.get(c.id) for c in hand.cards if c.choice is not None}
    table = Table(hand.discard, hand.players, hand.cursed)
    assert model_best(hand.catalog, list(hand.cards), table, pinned) == score(hand)


@st.composite
def open_hands(draw, cat: Catalog) -> tuple[Hand, dict]:
    """A fixed hand (as ``fixed_hands``) and some of its choices pinned, the rest open."""
    hand = draw(fixed_hands(cat))
    keep = draw(st.lists(st.sampled_from(sorted(hand.choices) or [""]), unique=True))
    pinned = {k: v for k, v in hand.choices.items() if k in keep}
    if any(hand.catalog.by_id[k].choice is not None and k not in pinned
           and not isinstance(hand.catalog.by_id[k].choice, fx.ClearOne)
           for k in hand.choices):  # a pinned Island judged after open choices: issue 39
        pinned = {k: v for k, v in pinned.items()
                  if not isinstance(hand.catalog.by_id[k].choice, fx.ClearOne)}
    return hand, pinned


@quick(150)
@given(st.sampled_from([BASE, EXP, EXP_DELUXE]).flatmap(open_hands))
def test_cpsat_choices_are_the_enumeration_s_optimum(t) -> None:
    hand, pinned = t
    table = Table(hand.discard, hand.players, hand.cursed)
    want, _ = enumerated_choices(hand.cards, hand.catalog, pinned, table.context(),
                                 hand.cursed)
    total, choices = cpsat_choices(hand.cards, hand.catalog, pinned, table)
    assert total == want
    assert {k: choices[k] for k in pinned} == pinned  # written choices are kept
    assert score(hand.with_choices(choices)) == total


# ------------------------------------------------------------------------------------------
# Each newly modelled effect kind, by hand from the rules
# ------------------------------------------------------------------------------------------


def test_C2_angel_protects_the_card_it_chooses_and_itself() -> None:
    # Demon would blank the lonely Basilisk first (C1); Angel protects it (C2), so Basilisk
    # blanks King and Queen: Angel 16 + Basilisk 35 + Demon 45 = 96 (protecting King
    # instead: 16 + King 8 + Queen 6 + 45 = 75).
    cards = names(EXP, "Angel", "King", "Basilisk", "Demon", "Queen")
    assert model_best(EXP, cards) == 96
    angel, basilisk, king = EXP.card("Angel"), EXP.card("Basilisk"), EXP.card("King")
    assert model_best(EXP, cards, pinned={angel.id: king}) == 75
    assert model_best(EXP, cards, pinned={angel.id: basilisk}) == 96


def test_C1_demon_blanks_the_lonely_cards_first_against_the_hand_as_it_stands() -> None:
    # Great Flood is the only Flood: Demon blanks it before its own penalty acts, so the two
    # Armies stay. Demon 45 + Knights 20 − 8 (no Leader) + Elven Archers 10 + 5 (no
    # Weather) = 72.
    cards = names(EXP, "Demon", "Great Flood", "Knights", "Elven Archers")
    assert model_best(EXP, cards) == 72


def test_C1_a_cleared_demon_blanks_nothing() -> None:
    # Protection Rune clears every penalty: Demon 45 + Great Flood 32 + Knights 20 +
    # Elven Archers 10 + 5 + Protection Rune 1 = 113.
    cards = names(EXP, "Demon", "Great Flood", "Knights", "Elven Archers", "Protection Rune")
    assert model_best(EXP, cards) == 113


def test_C3_lich_keeps_every_undead_from_being_blanked() -> None:
    # Wildfire blanks Undead, but not while Lich is in hand: Wildfire 40 + Lich 13 + 10 (one
    # other Undead) + Dark Queen 10 + 5 × (Candle, Unicorn in the discard area) = 83.
    cards = names(EXP, "Wildfire", "Lich", "Dark Queen")
    area = tuple(names(EXP, "Candle", "Unicorn", "Knights"))
    assert model_best(EXP, cards, Table(area)) == 83


def test_C7_only_a_flood_blanks_the_deluxe_phoenix() -> None:
    # The worked example of C7: Great Flood blanks it as a Flame even with its own penalty
    # cleared by Beastmaster: Great Flood 32 + Beastmaster 9 = 41.
    cards = names(DELUXE, "Great Flood", "Phoenix", "Beastmaster")
    assert model_best(DELUXE, cards) == 41
    # Basilisk blanks every other Beast, but not it: Basilisk 35 + Phoenix 14 = 49.
    assert model_best(DELUXE, names(DELUXE, "Basilisk", "Phoenix")) == 49


def test_C8_the_deluxe_phoenix_never_causes_a_blanking() -> None:
    # The worked example of C8: Phoenix 14 + War Dirigible 35 + Elven Archers 10 = 59 (it is
    # a Weather for Elven Archers' bonus, but it does not blank War Dirigible).
    cards = names(DELUXE, "Phoenix", "War Dirigible", "Elven Archers")
    assert model_best(DELUXE, cards) == 59


def test_chapel_pays_for_exactly_two_cards() -> None:
    # Chapel 2 + 40 (King and Queen: exactly two Leaders) + King 8 + Queen 6 = 56; with
    # Warlock Lord there are three: Chapel 2 + King 8 + Queen 6 + Warlock Lord 25 − 20 = 21.
    assert model_best(EXP, names(EXP, "Chapel", "King", "Queen")) == 56
    assert model_best(EXP, names(EXP, "Chapel", "King", "Queen", "Warlock Lord")) == 21


def test_judge_counts_the_penalties_left_after_clearing() -> None:
    # Knights' penalty stands, Dragon's is cleared by Beastmaster: Judge 11 + 10 + Knights
    # 20 − 8 + Dragon 30 + Beastmaster 9 + 9 = 81.
    cards = names(EXP, "Judge", "Knights", "Dragon", "Beastmaster")
    assert model_best(EXP, cards) == 81


def test_C6_genie_and_spyglass_read_the_number_of_players() -> None:
    # Genie −50 + 10 per other player; King 8.
    cards = names(EXP, "Genie", "King")
    assert model_best(EXP, cards, Table(players=4)) == -50 + 30 + 8
    assert model_best(EXP, cards, Table(players=2)) == -50 + 10 + 8
    # Cursed Items beside the hand (C6): Treasure Chest −5 + 25 (three others), Spyglass
    # −1 − 9 (two players), Sarcophagus 5, Blindfold 5; King 8: total 28.
    cursed = tuple(names(EXP, "Treasure Chest", "Spyglass", "Sarcophagus", "Blindfold"))
    assert model_best(EXP, [EXP.card("King")], Table(players=2, cursed=cursed)) == 28
    # three players, two other Cursed Items: 8 − 5 − 1 + 5 = 7
    assert model_best(EXP, [EXP.card("King")], Table(players=3, cursed=cursed[:3])) == 7


def test_first_of_each_term_pays_more() -> None:
    # Dungeon 7 + 10 (first Undead) + 5 (second Undead) + 10 (first Beast); Lich 13 + 10
    # (one other Undead); Dark Queen 10 (an empty discard area); Unicorn 9: total 74.
    cards = names(EXP, "Dungeon", "Lich", "Dark Queen", "Unicorn")
    assert model_best(EXP, cards, Table(())) == 74
    # Castle 10 + 10 (Leader) + 10 (Army) + 10 (Land) + 10 (first other Building); Bell
    # Tower 8; King 8 + 5; Knights 20; Forest 7: total 98.
    cards = names(EXP, "Castle", "King", "Knights", "Forest", "Bell Tower")
    assert model_best(EXP, cards) == 98


def test_C5_a_card_taken_from_the_discard_area_leaves_it() -> None:
    # Death Knight +7 per Weapon and Army in the discard area (Knights, Magic Wand): 14 + 14,
    # Necromancer 3: 31. Necromancer taking Knights (C4): Knights 20 − 8, Death Knight 14 + 7:
    # 3 + 21 + 12 = 36, the better.
    cards = names(EXP, "Necromancer", "Death Knight")
    area = names(EXP, "Knights", "Magic Wand")
    assert model_best(EXP, cards, Table(tuple(area)), discard=area) == 36
    assert model_best(EXP, cards, Table(tuple(area))) == 31


def test_R4_a_pinned_island_target_is_judged_after_book_of_changes() -> None:
    # Island pinned to Knights: Book of Changes must make Knights a Flood or Flame for the
    # hand to be legal, and then Island clears it: Island 14 + Book 3 + Knights 20 = 37.
    cards = names(BASE, "Island", "Knights", "Book of Changes")
    island, knights = BASE.card("Island"), BASE.card("Knights")
    assert model_best(BASE, cards, pinned={island.id: knights}) == 37
    book = BASE.card("Book of Changes")
    # with Book pinned to change nothing, the pinned target is illegal: no hand
    assert model_best(BASE, cards, pinned={island.id: knights, book.id: None}) is None


def test_best_with_cursed_items_by_cpsat_is_the_enumeration_s() -> None:
    pool = names(EXP, "Angel", "Demon", "Basilisk", "King", "Queen", "Lich", "Dark Queen",
                 "Wildfire", "Chapel", "Judge")
    area = names(EXP, "Knights", "Candle", "Magic Wand")
    cursed = names(EXP, "Treasure Chest", "Spyglass", "Sarcophagus", "Portal")
    agree(EXP, pool, area, 2, cursed, {})
