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
from fantasy_scorer.realms.solve.engine import Unsupported
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
    """Subsets scored per batch: 1 decides after every subset whether to stop, takes the
    closer look at every subset and scores each option by option wherever it can, and climbs
    every subset for the first bar (a stop one subset too early, a tie left out, or an
    option dropped that could reach the bar, shows at once); the default batch, closer
    looks and climb as they are."""
    if size != 1:
        yield
        return
    with mock.patch.object(pruned, "BATCH", 1), mock.patch.object(pruned, "REFINE", 0.0), \
            mock.patch.object(pruned, "REFINE_COPY", 0.0), \
            mock.patch.object(pruned, "SPLIT_SHARE", float("inf")), \
            mock.patch.object(pruned, "CLIMB_COST", 0.0):
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
    with pytest.raises(Unsupported):
        pruned_best(pool, HOME)
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
    with pytest.raises(Unsupported):
        pruned_best(pool, EXP, table=table)
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


def _hands(least_choosers: int = 2):
    """Seven base cards holding at least ``least_choosers`` choice cards, Doppelgänger and
    Book of Changes often among them (the options the closer look records are theirs)."""
    both = [CAT.card("Doppelgänger"), CAT.card("Book of Changes")]
    return st.tuples(pools(BASE, 9, 9, least_choosers), st.sampled_from([0, 1, 2])).map(
        lambda t: (both[:t[1]] + [c for c in t[0] if c not in both[:t[1]]])[:7])


def _options(hand, bound, split):
    """Every option of the hand's copy from the hand and its Book of Changes, as the closer
    look names them: (identity, changed card, suit), -1 for none (table indices)."""
    from fantasy_scorer.realms.solve.sweep_kernel import C_UNCH

    idx = bound.indices(hand).tolist()
    d = split._of((1 << 7) - 1, split.hcopy)
    b = split._of((1 << 7) - 1, split.book)
    identities = [-1] + ([idx[q] for q in range(7) if q != d] if d >= 0 else [])
    changes = [(-1, -1)] + ([(idx[q], s) for q in range(7) for s in range(bound.T[12])
                             if q != b and bound.T[0][idx[q], C_UNCH] == 0] if b >= 0 else [])
    return [(z, c, s) for z in identities for c, s in changes]


def _unchanged(option, bound, split, hand):
    """The option itself, or the option of no change where its change leaves the card as
    it is (the closer look's rule: the suit given, with the suits the card keeps, is the
    card's one suit; a copy from the hand shows its identity's suits and keeps none)."""
    from fantasy_scorer.realms.solve.sweep_kernel import C_COPY, C_KEEP, C_NFACES, C_SUITS

    z, c, s = option
    if c < 0:
        return option
    card = bound.T[0]
    d = split._of((1 << 7) - 1, split.hcopy)
    if d >= 0 and c == bound.indices(hand)[d]:
        suits, keeps = (card[z, C_COPY] if z >= 0 else card[c, C_SUITS]), 0
    else:
        suits, keeps = card[c, C_SUITS], card[c, C_KEEP]
    if card[c, C_NFACES] == 0 and (1 << s) | keeps == suits:
        return (z, -1, -1)
    return option


@quick(40)
@given(_hands(), st.integers(60, 160))
def test_an_option_the_closer_look_leaves_out_cannot_beat_its_threshold(hand, thr) -> None:
    # the closer look, option by option: every option whose best total (the hand scored with
    # that option pinned, every other choice enumerated) beats thr is among those recorded
    _check_options(hand, thr)


BLANKERS = [CAT.card(n) for n in ("Great Flood", "Rainstorm", "Blizzard", "Wildfire",
                                  "Basilisk")]


@quick(40)
@given(_hands(), st.sampled_from(BLANKERS), st.integers(40, 140))
def test_the_closer_look_with_a_card_that_blanks_others_leaves_out_no_option_that_beats(
        hand, blanker, thr) -> None:
    # the same with a blanking card in the hand: the closer look takes off the parts of the
    # cards it surely blanks (R8), also where Book of Changes' change makes it blank itself
    if blanker not in hand:
        hand = [*[c for c in hand if c.choice is not None], blanker,
                *[c for c in hand if c.choice is None]][:7]
    _check_options(hand, thr)


TWINS = [CAT.card("Basilisk"), CAT.card("Doppelgänger")]


@quick(60)
@given(_hands(), st.integers(30, 140))
def test_the_closer_look_with_a_doppelganger_beside_basilisk_leaves_out_no_option_that_beats(
        hand, thr) -> None:
    # Doppelgänger copying Basilisk leaves at most one of the two unblanked (R1): the closer
    # look takes off the smaller part of the two, and nothing more
    rest = [c for c in hand if c not in TWINS]
    _check_options([*TWINS, *rest[:5]], thr)


def _closer_look(hand, thr):
    """The closer look at a 7-card hand with bar thr, as ``pruned_best`` takes it: (its
    bound's tables, the enumeration, the split, the options recorded as rows of (identity,
    changed card, suit, bound))."""
    import numpy as np

    from fantasy_scorer.realms.solve.batch.best import Enumeration
    from fantasy_scorer.realms.solve.exhaustive import NO_TABLE
    from fantasy_scorer.realms.solve.sweep_kernel import subset_bounds

    bound = pruned._bound(hand, CAT, [], NO_TABLE)
    run = Enumeration(hand, CAT, [], {}, NO_TABLE)
    split = pruned._Split(run, bound)
    keep, rec = np.zeros((1, 2), dtype=np.int64), split.records(1)
    mask = np.array([(1 << 7) - 1], dtype=np.int64)
    subset_bounds(bound.indices(run.pool), 7, mask, thr, bound.T, bound.RUN, *bound.faces,
                  keep, rec)
    return bound, run, split, rec[:keep[0, 0]].tolist()


def _option_bound(hand, option) -> int:
    """The bound the closer look records for one option (identity, changed card, suit: card
    names, None for none) of a 7-card hand."""
    bound, _, _, rows = _closer_look(hand, -1)
    z, c, s = option
    want = (-1 if z is None else bound.position[CAT.card(z).id],
            -1 if c is None else bound.position[CAT.card(c).id], -1 if s is None else s)
    found = [r[3] for r in rows if tuple(r[:3]) == want]
    assert len(found) == 1
    return found[0]


def test_R1_doppelganger_copying_basilisk_leaves_at_most_one_of_the_two() -> None:
    """Doppelgänger copying Basilisk is a second Basilisk: each blanks the other (R1), and
    alone the two cancel out (R8 b): Basilisk 0, Doppelgänger 0, Fire Elemental 4, Water
    Elemental 4, Elven Longbow 3, Magic Wand 1, Air Elemental 4 = 16 (no Elemental has
    another card of its suit, no Longbow or Wand partner is held). The closer look's bound
    of that option counts one of the two at most: 35 + 16 = 51, not 35 + 35 + 16 = 86."""
    from fantasy_scorer.realms.resolve import score_raw

    hand = [CAT.card(n) for n in ("Basilisk", "Doppelgänger", "Fire Elemental",
                                  "Water Elemental", "Elven Longbow", "Magic Wand",
                                  "Air Elemental")]
    copy = {CAT.card("Doppelgänger").id: CAT.card("Basilisk")}
    assert score_raw(hand, copy, CAT) == 16
    assert _option_bound(hand, ("Basilisk", None, None)) == 51
    # Protection Rune (1) for Magic Wand clears both penalties: neither blanks, 35 + 35 + 16
    # = 86, which the bound must still reach
    guarded = [c for c in hand if c.name != "Magic Wand"] + [CAT.card("Protection Rune")]
    assert score_raw(guarded, copy, CAT) == 86
    assert _option_bound(guarded, ("Basilisk", None, None)) == 86


def test_R8b_a_card_blanking_itself_is_blanked_even_where_its_copy_may_blank_it() -> None:
    """Doppelgänger copies Great Flood and Book of Changes makes Great Flood a Land: Great
    Flood then blanks itself (R8 b; that its copy would blank it too changes nothing), and
    the copy, a Flood, is kept: Great Flood 0, Doppelgänger 32, Book of Changes 3, Elven
    Longbow 3, Magic Wand 1, Air Elemental 4, Shield of Keth 4 (no Leader) = 47, which is
    also the closer look's bound of that option (not 79, with Great Flood's 32)."""
    from fantasy_scorer.realms.resolve import score_raw

    hand = [CAT.card(n) for n in ("Great Flood", "Doppelgänger", "Book of Changes",
                                  "Elven Longbow", "Magic Wand", "Air Elemental",
                                  "Shield of Keth")]
    flood = CAT.card("Great Flood")
    pins = {CAT.card("Doppelgänger").id: flood,
            CAT.card("Book of Changes").id: (flood, "Land")}
    assert score_raw(hand, pins, CAT) == 47
    land = CAT.suits.index("Land")
    assert _option_bound(hand, ("Great Flood", "Great Flood", land)) == 47


def _check_options(hand, thr) -> None:
    import numpy as np

    bound, run, split, rows = _closer_look(hand, thr)
    mask = np.array([(1 << 7) - 1], dtype=np.int64)
    recorded = {tuple(r[:3]) for r in rows}
    if (-2, -2, -2) in recorded:
        return  # the hand's bound as a whole: nothing left out
    every = _options(hand, bound, split)
    cost = np.ones(len(every))
    whole, items = split.options(np.array([0]), mask, np.array([[len(every), 0]]),
                                 np.array([[*o, 0] for o in every], dtype=np.int64), cost,
                                 np.array([float("inf")]))
    assert not len(whole) and len(items) == len(every)
    out = np.zeros((len(items), 5), dtype=np.int64)
    run.listed(np.repeat(mask, len(items)), out,
               over=np.array([row for _, _, row in items], dtype=np.int64))
    beats = {o for o, row in zip(every, out.tolist(), strict=True) if row[0] == 0 and row[1] > thr}
    # a change that changes nothing is the option of no change (recorded as such)
    assert {_unchanged(o, bound, split, hand) for o in beats} <= recorded
    full = best_hand(hand, CAT, method="compiled")[0].total
    assert (full > thr) == bool(beats)  # and the options together are the hand


@quick(40)
@given(_hands(1))
def test_a_climbed_total_is_one_the_hand_scores_and_never_above_its_best(hand) -> None:
    import numpy as np

    from fantasy_scorer.realms.solve.batch.best import Enumeration
    from fantasy_scorer.realms.solve.exhaustive import NO_TABLE

    run = Enumeration(hand, CAT, [], {}, NO_TABLE)
    mask = np.array([(1 << 7) - 1], dtype=np.int64)
    climbed, best = np.zeros((1, 5), dtype=np.int64), np.zeros((1, 5), dtype=np.int64)
    run.listed(mask, climbed, climb=True)
    run.listed(mask, best)
    nothing = Enumeration(hand, CAT, [], {c.id: None for c in hand if c.choice is not None},
                          NO_TABLE)
    start = np.zeros((1, 5), dtype=np.int64)
    nothing.listed(mask, start)  # where the climb starts: no choice made
    assert start[0, 1] <= climbed[0, 1] <= best[0, 1]


def test_a_copy_from_the_game_that_takes_a_penalty_counts_for_a_bonus_per_penalty() -> None:
    # Homebrew Mimic copies a Beast or Army from the game, taking its name, suit and penalty.
    # As Dwarvish Infantry it holds that card's penalty (-2 per other Army: none here, 0) and
    # its name: Cavern 6 + 25 (with Dwarvish Infantry), Judge 11 + 10 (one card with a penalty
    # not cleared: Mimic); Bell Tower 8 + 15 with Shapeshifter as Collector (a Wizard), Book
    # of Changes (3) makes Island (14) a Land, Mountain 9: 14 + 3 + 0 + 0 + 9 + 31 + 23 + 21
    # = 101 (a table of 3 players, an empty discard area). The sweep's bound once left
    # Judge's 10 out (91): the pruned search, with a first bar of 101 from the hand holding
    # Mirage instead, dropped this one.
    from fantasy_scorer.realms.solve.sweep import SweepTable, compile_bounds

    ids = ["FR09", "FR49", "CH22", "HB05", "FR01", "FR02", "CH16", "CH07"]
    hand = [next(c for c in HOME.cards if c.id == i) for i in ids]
    assert compile_bounds(HOME, hand, SweepTable((), 3, 0)).bound(hand) >= 101
    pool = hand + [HOME.card("Mirage")]
    for method in ("pruned", "compiled"):
        got = best_hand(pool, HOME, (), top=2, players=3, method=method)
        assert [s.total for s in got] == [101, 101]
        assert HOME.card("Shapeshifter") in got[0].hand.cards
