"""The discard advice one discard at a time (issue 41 §9): each discard is the exact best hand
of the cards left, as the whole pool's enumeration scores it, and a time limit (driven here by
a counter, never the wall clock) stops the advice between discards with the ones it reached
and the ones it missed."""

from __future__ import annotations

from itertools import count

from fantasy_scorer.realms.catalog import base_catalog
from fantasy_scorer.realms.solve.api import best_hand
from fantasy_scorer.realms.solve.discards import advise_discards, each_discard

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
