"""The game's scorer gives the scorer's totals, and picks the best of many sets as best does."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from fantasy_scorer.realms.game.scoring import Scorer
from fantasy_scorer.realms.hand import Hand
from fantasy_scorer.realms.solve.api import best_hand, score_hand

from .helpers import CAT, cards

SCORER = Scorer(CAT, 4)


@st.composite
def table(draw, size: int = 7):
    """``size`` distinct cards and a discard area of up to 9 other cards (Necromancer is
    drawn often, so that the discard area matters)."""
    pool = list(CAT.suit_cards)
    necro = CAT.card("Necromancer")
    held = draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size,
                         unique_by=lambda c: c.id))
    if draw(st.booleans()) and necro not in held:
        held[0] = necro
    rest = [c for c in pool if c not in held]
    area = draw(st.lists(st.sampled_from(rest), max_size=9, unique_by=lambda c: c.id))
    return tuple(held), tuple(area)


@settings(max_examples=60, deadline=None)
@given(table())
def test_a_total_is_what_score_hand_gives(t):
    held, area = t
    expected = score_hand(Hand(CAT, held, {}, area, 4)).total
    assert SCORER.total(held, area) == expected
    assert SCORER.total(tuple(reversed(held)), area) == expected  # the memo's key is the set


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(5, 7).flatmap(table), min_size=1, max_size=6))
def test_sets_of_several_lengths_scored_in_one_call_are_each_what_score_hand_gives(tables):
    # one compiled call pads its rows to the longest set and its discard areas to the
    # longest area: every set still gets its own total
    sc = Scorer(CAT, 4)
    expected = [score_hand(Hand(CAT, held, {}, area, 4)).total for held, area in tables]
    assert sc.totals(list(tables)) == expected


def test_cards_of_another_catalog_object_with_the_same_ids_score_the_same():
    # the scorer knows the cards by object; the same cards of a catalog read again are
    # known by their ids
    from fantasy_scorer.realms.catalog import _shipped_catalog

    other = _shipped_catalog.__wrapped__(None, None)
    assert other is not CAT
    names = "Knights, Queen, King, Princess, Rangers, Forest, Unicorn"
    ours, theirs = tuple(cards(names)), tuple(other.card(n) for n in names.split(", "))
    sc = Scorer(CAT, 4)
    assert sc.total(theirs) == sc.total(ours) == score_hand(Hand(CAT, ours, {}, (), 4)).total


def test_the_memo_tells_discard_areas_apart_where_necromancer_reads_them():
    # Necromancer 3 + Magic Wand 26 + Bell Tower 23 + Earth Elemental 64 + Mountain 9
    # + Forest 7 + Cavern 6 = 138; with Dragon in the discard area Necromancer takes it: 205
    hand = tuple(cards("Necromancer, Magic Wand, Bell Tower, Earth Elemental, Mountain, "
                       "Forest, Cavern"))
    sc = Scorer(CAT, 2)
    assert sc.total(hand, ()) == 138
    assert sc.total(hand, tuple(cards("Dragon, Swamp"))) == 205
    assert sc.total(hand, tuple(cards("Swamp"))) == 138
    assert sc.total(hand[1:] + tuple(cards("Queen")), tuple(cards("Dragon"))) == sc.total(
        hand[1:] + tuple(cards("Queen")), ())  # no Necromancer: the area is not read


@settings(max_examples=40, deadline=None)
@given(table(size=8))
def test_the_best_discard_is_best_hands_advice(t):
    held, area = t
    total, out = SCORER.best_keep(held, area)
    sol = best_hand(list(held), CAT, list(area), top=1, players=4)[0]
    assert total == sol.total
    assert [out] == list(sol.discard)
    # every discard, in best's order, with best's totals
    every = best_hand(list(held), CAT, list(area), top=8, players=4)
    assert [(s.total, s.discard[0]) for s in every] == SCORER.keeps(held, area)


@settings(max_examples=40, deadline=None)
@given(st.lists(table(), min_size=1, max_size=12), st.none() | st.integers(0, 250))
def test_the_best_of_many_sets_is_the_highest_total_then_the_lowest_tie_key(sets, beat):
    sc = Scorer(CAT, 4)
    keyed = [(held, area, (i % 3, i)) for i, (held, area) in enumerate(sets)]
    got = sc.best(keyed, beat=beat)
    scores = [(SCORER.total(h, a), key, i) for i, (h, a, key) in enumerate(keyed)]
    better = [s for s in scores if beat is None or s[0] > beat]
    if not better:
        assert got == (beat, -1)
    else:
        top = max(s[0] for s in better)
        first = min((s for s in better if s[0] == top), key=lambda s: s[1])
        assert got == (top, first[2])


@settings(max_examples=30, deadline=None)
@given(st.lists(table(), min_size=1, max_size=10), st.integers(1, 4))
def test_the_k_best_of_many_sets_are_the_k_highest_totals(sets, k):
    sc = Scorer(CAT, 4)
    keyed = [(held, area, (i % 2, i)) for i, (held, area) in enumerate(sets)]
    every = sorted(((SCORER.total(h, a), key, i) for i, (h, a, key) in enumerate(keyed)),
                   key=lambda s: (-s[0], s[1]))
    assert sc.top(keyed, k) == [(t, i) for t, _, i in every[:k]]
