"""``best`` pruned by the sweep's bound gives exactly the hands of the full enumeration.

The same hands, totals, choices and order as the compiled enumeration (and the Python one) on
random pools of 8 to 12 cards with several choice cards: the base game, with the promos, with
pins, the expansion's table (players, a discard area), homebrew cards; ties at the top found
whole; pools the bound does not cover (a card the sweep does not describe, an extra card from
the discard area, Cursed Items) enumerated whole; and ``auto`` still the enumeration's answer.
"""

from __future__ import annotations

from contextlib import contextmanager
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fantasy_scorer.realms.catalog import base_catalog
from fantasy_scorer.realms.solve.api import best_hand
from fantasy_scorer.realms.solve.batch import pruned
from fantasy_scorer.realms.solve.batch.pruned import pruned_best, pruned_fits
from fantasy_scorer.realms.solve.exhaustive import Table

from ..strategies import random_pins
from .test_batch import HOME
from .test_best_compiled import same

CAT = base_catalog()
BASE = CAT.cards[:53]  # the base game's 53 cards, before the two promos (cards/base.yaml)
EXP = base_catalog("cursed-hoards")


def quick(n: int) -> settings:
    return settings(max_examples=n, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def pools(cards, low: int = 8, high: int = 12, least: int = 2):
    """Pools of low..high cards holding at least ``least`` choice cards (three to five most
    often: the pools the pruned search is for)."""
    choosers = [c for c in cards if c.choice is not None]
    plain = [c for c in cards if c.choice is None]
    return st.integers(low, high).flatmap(lambda n: st.integers(least, min(5, n)).flatmap(
        lambda k: st.tuples(
            st.lists(st.sampled_from(choosers), min_size=k, max_size=k, unique_by=lambda c: c.id),
            st.lists(st.sampled_from(plain), min_size=n - k, max_size=n - k,
                     unique_by=lambda c: c.id),
            st.randoms(use_true_random=False)))).map(
        lambda t: t[2].sample(t[0] + t[1], len(t[0]) + len(t[1])))


@contextmanager
def batches(size: int):
    """Subsets scored per batch: 1 decides after every subset whether to stop, and takes the
    closer look at every subset (a stop one subset too early, or a tie left out, shows at
    once); the default batch and closer looks as they are."""
    if size != 1:
        yield
        return
    with mock.patch.object(pruned, "BATCH", 1), mock.patch.object(pruned, "REFINE", 0.0), \
            mock.patch.object(pruned, "REFINE_COPY", 0.0):
        yield


#: The batch sizes tried: one subset, and the default.
BATCH = st.sampled_from([1, pruned.BATCH])


def test_the_base_pools_are_the_base_game() -> None:
    assert len(BASE) == 53 and all(c.id.startswith("FR") for c in BASE)
    assert {c.name for c in CAT.cards} - {c.name for c in BASE} == {"Jester", "Phoenix"}


@quick(60)
@given(pools(BASE, least=0), st.sampled_from([1, 3]), BATCH)
def test_pruned_best_equals_the_compiled_enumeration_on_the_base_game(pool, top, batch) -> None:
    assert pruned_fits(pool, CAT)  # every base card is described by the bound
    with batches(batch):
        got = best_hand(pool, CAT, top=top, method="pruned")
    same(got, best_hand(pool, CAT, top=top, method="compiled"))


@quick(40)
@given(pools(CAT.cards), st.sampled_from([1, 3]), BATCH)
def test_pruned_best_equals_the_compiled_enumeration_with_the_promos(pool, top, batch) -> None:
    assert pruned_fits(pool, CAT)
    with batches(batch):
        got = best_hand(pool, CAT, top=top, method="pruned")
    same(got, best_hand(pool, CAT, top=top, method="compiled"))


@quick(12)
@given(pools(CAT.cards, 8, 9, 2), st.sampled_from([1, 3]), BATCH)
def test_pruned_best_equals_the_python_enumeration(pool, top, batch) -> None:
    with batches(batch):
        got = best_hand(pool, CAT, top=top, method="pruned")
    same(got, best_hand(pool, CAT, top=top, method="python"))


@quick(25)
@given(pools(CAT.cards, 8, 10, 2), st.randoms(use_true_random=False), BATCH)
def test_pruned_best_keeps_pinned_choices_as_the_enumeration_does(pool, rnd, batch) -> None:
    pinned = random_pins(pool, CAT, rnd, 0.5)
    try:
        want = best_hand(pool, CAT, pinned=pinned, top=2, method="compiled")
    except Exception as e:  # no legal hand with these pins: the same error
        with pytest.raises(type(e)):
            best_hand(pool, CAT, pinned=pinned, top=2, method="pruned")
        return
    with batches(batch):
        got = best_hand(pool, CAT, pinned=pinned, top=2, method="pruned")
    same(got, want)


@quick(20)
@given(pools(EXP.suit_cards, 9, 11, 2),
       st.lists(st.sampled_from(EXP.suit_cards), max_size=4, unique_by=lambda c: c.id),
       st.sampled_from([2, 4, 6]), st.booleans())
def test_pruned_best_equals_the_enumeration_with_the_expansion(pool, area, players,
                                                               given_area) -> None:
    # a discard area given, or an empty one (the discard-area cards, C5, count it); with an
    # extra-card giver in the pool and cards in the area, the whole enumeration
    discard = [c for c in area if c not in pool] if given_area else ()
    same(best_hand(pool, EXP, discard, top=2, players=players, method="pruned"),
         best_hand(pool, EXP, discard, top=2, players=players, method="compiled"))


@quick(15)
@given(pools(HOME.suit_cards, 9, 10, 1))
def test_pruned_best_equals_the_enumeration_with_homebrew_cards(pool) -> None:
    # an empty discard area given: the discard-area cards (C5) score it
    same(best_hand(pool, HOME, (), top=2, players=3, method="pruned"),
         best_hand(pool, HOME, (), top=2, players=3, method="compiled"))


@quick(15)
@given(pools(CAT.cards, 10, 12, 3))
def test_auto_gives_the_hands_of_the_enumeration(pool) -> None:
    same(best_hand(pool, CAT, top=2), best_hand(pool, CAT, top=2, method="compiled"))


def test_ties_at_the_top_are_all_found_and_broken_as_the_enumeration_breaks_them() -> None:
    # Each Elemental scores 4 alone (+15 per other card of its suit: none of the four share
    # one). Book of Changes (3) changes one card to an Elemental's suit: +15, whichever. Hydra
    # (12, +28 with Swamp), Unicorn (9, its partners are absent) and Warlock Lord (25, no
    # Leader, no other Wizard) score their strength; Elven Longbow (3) and Protection Rune (1)
    # too. Best: Warlock, Hydra, Unicorn, Book and three Elementals:
    # 25 + 12 + 9 + 3 + 15 + 3 * 4 = 76, whichever Elemental is left out (keeping Longbow
    # instead of one: 3 < 4). Four hands tie, with the same strengths (61): the tie-break
    # keeps the earliest cards of the pool, so the hand without Earth Elemental comes first,
    # then without Air, Water, Fire.
    names = ["Fire Elemental", "Water Elemental", "Air Elemental", "Earth Elemental",
             "Book of Changes", "Hydra", "Unicorn", "Warlock Lord", "Elven Longbow",
             "Protection Rune"]
    pool = [CAT.card(n) for n in names]
    assert pruned_fits(pool, CAT)
    got = best_hand(pool, CAT, top=5, method="pruned")
    assert [s.total for s in got[:4]] == [76, 76, 76, 76]
    assert got[4].total < 76
    left_out = [[c.name for c in s.discard if c.name.endswith("Elemental")] for s in got[:4]]
    assert left_out == [["Earth Elemental"], ["Air Elemental"], ["Water Elemental"],
                        ["Fire Elemental"]]
    for top in (1, 2, 4, 5):
        for batch in (1, pruned.BATCH):
            with batches(batch):
                got = best_hand(pool, CAT, top=top, method="pruned")
            same(got, best_hand(pool, CAT, top=top, method="compiled"))


def test_a_card_the_bound_does_not_describe_is_enumerated_whole() -> None:
    runesmith = next(c for c in HOME.suit_cards if c.id == "HB12")  # a run table it refuses
    pool = [runesmith] + [c for c in HOME.suit_cards if c.choice is not None][:3] + [
        c for c in HOME.suit_cards if c.choice is None and c is not runesmith][:6]
    assert not pruned_fits(pool, HOME)
    assert pruned_best(pool, HOME) is None
    want = best_hand(pool, HOME, (), top=2, method="compiled")
    same(best_hand(pool, HOME, (), top=2, method="pruned"), want)
    same(best_hand(pool, HOME, (), top=2), want)


def test_an_extra_card_from_the_discard_area_is_enumerated_whole() -> None:
    # Necromancer may take an Army from the discard area: the bound is of the seven cards
    names = ["Necromancer", "Doppelgänger", "Mirage", "Book of Changes", "King", "Queen",
             "Knights", "Forest", "Unicorn", "Hydra"]
    pool = [CAT.card(n) for n in names]
    area = [CAT.card("Light Cavalry"), CAT.card("Dragon")]
    assert pruned_fits(pool, CAT)  # without a discard area there is nothing to take
    assert not pruned_fits(pool, CAT, area, Table(tuple(area)))
    want = best_hand(pool, CAT, area, top=2, method="compiled")
    same(best_hand(pool, CAT, area, top=2, method="pruned"), want)
    same(best_hand(pool, CAT, area, top=2), want)


def test_cursed_items_held_are_enumerated_whole() -> None:
    cursed = [c for c in EXP.cards if c.cursed][:2]
    pool = [c for c in EXP.suit_cards if c.choice is not None][:3] + [
        c for c in EXP.suit_cards if c.choice is None and c.extra is None][:6]
    table = Table(None, 4, tuple(cursed))
    assert pruned_fits(pool, EXP, (), Table(None, 4))
    assert not pruned_fits(pool, EXP, (), table)
    assert pruned_best(pool, EXP, table=table) is None
    same(best_hand(pool, EXP, players=4, cursed=cursed, top=2, method="pruned"),
         best_hand(pool, EXP, players=4, cursed=cursed, top=2, method="python"))


def test_progress_ends_with_every_subset_decided() -> None:
    pool = [CAT.card(n) for n in ("Shapeshifter", "Mirage", "Doppelgänger", "Book of Changes",
                                  "Island", "King", "Queen", "Knights", "Forest", "Hydra",
                                  "Swamp")]
    seen: list[tuple[int, int]] = []
    best_hand(pool, CAT, method="pruned", progress=lambda d, t: seen.append((d, t)))
    assert seen and seen[-1] == (330, 330)  # C(11, 7) subsets: 11*10*9*8/(4*3*2) = 330
    assert all(a[0] <= b[0] for a, b in zip(seen, seen[1:], strict=False))


def test_out_of_time_it_gives_the_best_hand_found_unproven() -> None:
    # a pool whose bound leaves hundreds of subsets to score: the first batch cannot end it
    pool = [CAT.card(n) for n in ("Doppelgänger", "Book of Changes", "Mirage", "Island",
                                  "Shapeshifter", "Rangers", "Warhorse", "World Tree",
                                  "Enchantress", "Queen", "War Dirigible", "Blizzard")]
    got = best_hand(pool, CAT, method="pruned", time_limit=0.0)
    full = best_hand(pool, CAT, method="compiled")
    assert len(got) == 1 and not got[0].proven and full[0].proven
    assert got[0].total <= full[0].total  # a real hand, scored by resolve (api._solution)
