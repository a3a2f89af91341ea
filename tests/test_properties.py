"""Invariants of the evaluator, over random legal hands."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from fantasy_scorer.realms.hand import Hand
from fantasy_scorer.realms.resolve import KEPT, card_points, resolve, score

from .strategies import EXP, hands

ANY_HAND = hands() | hands(EXP)


@settings(max_examples=400, deadline=None)
@given(ANY_HAND, st.randoms(use_true_random=False))
def test_R8_order_of_cards_does_not_matter(hand: Hand, rnd) -> None:
    cards = list(hand.cards)
    rnd.shuffle(cards)
    shuffled = hand.with_cards(cards, hand.choices)
    a, b = resolve(hand), resolve(shuffled)
    assert a.total == b.total
    assert sorted(ln.as_json().items().__repr__() for ln in a.lines) == sorted(
        ln.as_json().items().__repr__() for ln in b.lines
    )
    # the sentences too: the same hand gets the same status lines whatever its order
    assert sorted((ln.name, ln.status) for ln in a.lines) == sorted(
        (ln.name, ln.status) for ln in b.lines)


@settings(max_examples=300, deadline=None)
@given(ANY_HAND)
def test_lines_add_up_to_the_total(hand: Hand) -> None:
    result = resolve(hand)
    assert result.total == score(hand)
    assert result.total == sum(ln.points for ln in result.lines)
    for ln in result.lines:
        assert ln.points == (0 if ln.blanked else ln.base + ln.bonus + ln.penalty)


@settings(max_examples=300, deadline=None)
@given(ANY_HAND)
def test_every_effect_explains_the_value_it_scores(hand: Hand) -> None:
    result = resolve(hand)
    for s in result.slots:
        if s.state != KEPT:
            continue
        bonus = sum(e.explain(result.view, s)[0] for e in s.card.bonus)
        penalty = sum(e.explain(result.view, s)[0] for e in s.active.points)
        assert (bonus, penalty) == card_points(s, result.view)
