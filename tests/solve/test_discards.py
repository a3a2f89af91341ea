"""The discard advice one discard at a time (issue 41 §9): each discard is the exact best hand
of the cards left, as the whole pool's enumeration scores it, and a time limit (driven here by
a counter, never the wall clock) stops the advice between discards with the ones it reached
and the ones it missed."""

from __future__ import annotations

from itertools import count

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fantasy_scorer.errors import ScorerError
from fantasy_scorer.realms.catalog import base_catalog
from fantasy_scorer.realms.solve.api import best_hand
from fantasy_scorer.realms.solve.discards import advise_discards, each_discard

from ..strategies import random_pins

CAT = base_catalog()
HAND_260 = ["Mountain", "Great Flood", "Smoke", "Whirlwind", "Air Elemental", "Wildfire",
            "Mirage"]
# Four choosers and two wild cards (the web tests' hard pool): Doppelgänger, Mirage,
# Shapeshifter, Book of Changes, Island, Wildfire, Basilisk, Great Flood.
HARD_POOL = [CAT.by_id[i] for i in ("FR53", "FR52", "FR51", "FR49", "FR09", "FR16", "FR08",
                                    "FR37")]


def by_discard(pool) -> dict[str, int]:
    """Each discard's total by the enumeration of the whole pool (``best_hand``, every
    subset): the reference."""
    return {s.discard[0].id: s.total for s in best_hand(pool, CAT, top=len(pool))}


def test_the_260_hand_plus_a_junk_card_lets_the_junk_go() -> None:
    pool = [CAT.card(n) for n in HAND_260 + ["Magic Wand"]]
    advice = advise_discards(pool, CAT)
    assert advice.complete and advice.missing == []
    best = advice.ranked()[0]
    assert ([c.name for c in best.discard], best.total) == (["Magic Wand"], 260)
    assert {s.card.id: s.solution.total for s in advice.settled} == by_discard(pool)


def test_every_discard_of_a_hard_pool_is_the_whole_enumerations() -> None:
    advice = advise_discards(HARD_POOL, CAT)
    assert [s.card for s in advice.settled] == HARD_POOL  # the pool's order
    assert {s.card.id: s.solution.total for s in advice.settled} == by_discard(HARD_POOL)
    assert all(s.solution.proven for s in advice.settled)
    totals = [s.total for s in advice.ranked()]
    assert totals == sorted(totals, reverse=True)


def test_a_time_limit_stops_between_discards_with_the_ones_reached() -> None:
    # The clock counts 0, 1, 2, …: read at the start and after each discard, a limit of 3
    # stops after the third discard, whatever the machine's speed.
    advice = advise_discards(HARD_POOL, CAT, time_limit=3, clock=count().__next__)
    assert [s.card for s in advice.settled] == HARD_POOL[:3]
    assert advice.missing == HARD_POOL[3:]
    assert not advice.complete
    reference = by_discard(HARD_POOL)
    for s in advice.settled:  # each one reached is exact
        assert s.solution.total == reference[s.card.id]


def test_the_first_discard_is_searched_even_with_no_time_left() -> None:
    advice = advise_discards(HARD_POOL, CAT, time_limit=0, clock=count().__next__)
    assert [s.card for s in advice.settled] == HARD_POOL[:1]
    assert len(advice.missing) == len(HARD_POOL) - 1


def test_a_written_choice_naming_a_card_makes_its_discard_illegal() -> None:
    # 'Island: Wildfire' is written: a hand without Wildfire cannot keep it (issue 39).
    island, wildfire = CAT.card("Island"), CAT.card("Wildfire")
    settled = {s.card.id: s for s in each_discard(HARD_POOL, CAT, pinned={island.id: wildfire})}
    assert settled[wildfire.id].solution is None
    assert settled[wildfire.id].reason == "Island: Wildfire is written"
    kept = [s for s in settled.values() if s.solution is not None]
    assert len(kept) == len(HARD_POOL) - 1
    assert all(s.solution.hand.choices[island.id] is wildfire for s in kept
               if island in s.solution.hand.cards)


CHOOSERS = [CAT.card(n) for n in ("Doppelgänger", "Mirage", "Shapeshifter", "Book of Changes",
                                  "Island", "Necromancer")]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_each_discard_of_random_pools_with_pins_is_the_whole_enumerations(data) -> None:
    # Random pools of one card more than a hand, two or three choice cards and some pins
    # (random_pins: a copy's target, a change of suit, Island's card): one discard at a time
    # gives the whole pool's enumeration's total for every discard, and the discards it
    # calls illegal are exactly those that enumeration leaves out.
    choosers = data.draw(st.lists(st.sampled_from(CHOOSERS), min_size=2, max_size=3,
                                  unique_by=lambda c: c.id))
    others = data.draw(st.lists(st.sampled_from([c for c in CAT.suit_cards
                                                 if c.choice is None and c.extra is None]),
                                min_size=8 - len(choosers), max_size=8 - len(choosers),
                                unique_by=lambda c: c.id))
    pool = data.draw(st.permutations(choosers + others))
    pinned = random_pins(pool, CAT, data.draw(st.randoms(use_true_random=False)), 0.4)
    area = data.draw(st.lists(st.sampled_from([c for c in CAT.suit_cards if c not in pool]),
                              max_size=3, unique_by=lambda c: c.id))
    try:
        whole = best_hand(pool, CAT, discard=area, pinned=pinned, top=len(pool))
    except ScorerError:
        whole = []
    expected = {s.discard[0].id: s.total for s in whole if len(s.discard) == 1}
    advice = advise_discards(pool, CAT, area, pinned)
    assert advice.complete
    assert {s.card.id: s.solution.total for s in advice.settled
            if s.solution is not None} == expected
    assert {c.id for c, _ in advice.illegal()} == {c.id for c in pool} - set(expected)
