"""Best hand from a pool: the discard decision, top-K, pins, the discard area, errors."""

from __future__ import annotations

import pytest

from fantasy_scorer.errors import ScorerError
from fantasy_scorer.realms.catalog import base_catalog
from fantasy_scorer.realms.resolve import resolve
from fantasy_scorer.realms.solve.api import best_hand, max_hand

CAT = base_catalog()
HAND_260 = ["Mountain", "Great Flood", "Smoke", "Whirlwind", "Air Elemental", "Wildfire",
            "Mirage"]


def cards(names: list[str]):
    return [CAT.card(n) for n in names]


@pytest.mark.parametrize("method", ["exhaustive", "cpsat"])
def test_the_260_hand_plus_a_junk_card_discards_the_junk(method: str) -> None:
    pool = cards(HAND_260 + ["Magic Wand"])  # +25 only with a Wizard: worth 1 here
    best = best_hand(pool, CAT, method=method)[0]
    assert [c.name for c in best.discard] == ["Magic Wand"]
    assert best.total == 260
    assert best.proven


def test_every_discard_is_scored_for_the_advice() -> None:
    pool = cards(HAND_260 + ["Magic Wand"])
    sols = best_hand(pool, CAT, top=8)
    assert len(sols) == 8
    assert len({s.discard[0].name for s in sols}) == 8
    totals = [s.total for s in sols]
    assert totals == sorted(totals, reverse=True)


@pytest.mark.parametrize("method", ["exhaustive", "cpsat"])
def test_top_k_hands_are_distinct_and_in_order(method: str) -> None:
    pool = cards(["King", "Queen", "Knights", "Light Cavalry", "Dwarvish Infantry",
                  "Elven Archers", "Rangers", "Smoke", "Basilisk", "Princess"])
    sols = best_hand(pool, CAT, top=4, method=method)
    assert len({frozenset(c.id for c in s.hand.cards) for s in sols}) == 4
    assert [s.total for s in sols] == sorted((s.total for s in sols), reverse=True)


def test_both_searches_list_the_same_top_hands() -> None:
    pool = cards(["King", "Queen", "Knights", "Light Cavalry", "Dwarvish Infantry",
                  "Elven Archers", "Rangers", "Smoke", "Basilisk", "Princess"])
    a = best_hand(pool, CAT, top=5, method="exhaustive")
    b = best_hand(pool, CAT, top=5, method="cpsat")
    assert [(s.total, [c.id for c in s.hand.cards]) for s in a] == [
        (s.total, [c.id for c in s.hand.cards]) for s in b]


def test_necromancer_may_use_the_discard_area() -> None:
    pool = cards(["Necromancer", "King", "Knights", "Light Cavalry", "Dwarvish Infantry",
                  "Elven Archers", "Rangers", "Smoke"])
    alone = best_hand(pool, CAT)[0]
    helped = best_hand(pool, CAT, discard=cards(["Queen"]))[0]
    assert len(helped.hand.cards) == 8
    assert "Queen" in [c.name for c in helped.hand.cards]
    assert helped.total > alone.total


def test_a_pinned_choice_holds_in_the_best_hand() -> None:
    pool = cards(HAND_260[:-1] + ["Mirage", "Magic Wand"])
    pinned = {CAT.card("Mirage").id: CAT.card("Knights")}
    best = best_hand(pool, CAT, pinned=pinned)[0]
    if CAT.card("Mirage") in best.hand.cards:
        assert best.hand.choices[CAT.card("Mirage").id] is CAT.card("Knights")
    assert best.total < 260


def test_fewer_than_seven_cards_is_an_error() -> None:
    with pytest.raises(ScorerError, match="at least 7"):
        best_hand(cards(HAND_260[:6]), CAT)


def test_a_time_limited_max_is_marked_not_proven_or_proven_honestly() -> None:
    """Honesty, not progress: whatever the machine reaches in 2 s, the answer's total is what
    the scorer gives its hand, never above the game's maximum (397, proven in test_sweep),
    and it claims a proof only with that maximum."""
    sol = max_hand(CAT, time_limit=2.0)
    assert sol.total == resolve(sol.hand).total
    assert sol.total <= 397
    assert not sol.proven or sol.total == 397


def test_max_respects_with_and_without() -> None:
    sol = max_hand(CAT, with_=cards(["Dragon"]), without=cards(["Necromancer"]),
                   time_limit=2.0)
    names = [c.name for c in sol.hand.cards]
    assert "Dragon" in names and "Necromancer" not in names
    with pytest.raises(ScorerError):
        max_hand(CAT, with_=cards(["Dragon"]), without=cards(["Dragon"]))


def test_a_tiny_time_limit_still_returns_a_hand_and_claims_no_false_proof() -> None:
    pool = CAT.cards[10:25]
    sol = best_hand(pool, CAT, time_limit=0.001, method="cpsat")[0]
    assert len(sol.hand.cards) >= 7
    assert sol.total == resolve(sol.hand).total
    best = best_hand(pool, CAT, method="exhaustive")[0].total
    assert sol.total <= best
    assert not sol.proven or sol.total == best  # a proof only where the optimum is reached
