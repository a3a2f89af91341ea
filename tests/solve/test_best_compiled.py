"""``best`` by compiled enumeration gives exactly the hands of the Python enumeration.

The same hands, totals, choices (the canonical ones) and order, on random pools of the base
game, with pinned choices, a discard area for Necromancer, the Cursed Hoards expansion (Cursed
Items, players) and homebrew cards; with many choice cards at once; and the progress callback
and the cost model's sum over subsets.
"""

from __future__ import annotations

from math import comb

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from fantasy_scorer.realms.catalog import base_catalog
from fantasy_scorer.realms.hand import format_choice
from fantasy_scorer.realms.solve.api import best_hand
from fantasy_scorer.realms.solve.plan import costs, hands_scored

from ..strategies import random_pins
from .test_batch import HOME

CAT = base_catalog()
EXP = base_catalog("cursed-hoards")
CHOOSERS = [c for c in CAT.cards if c.choice is not None]


def quick(n: int) -> settings:
    return settings(max_examples=n, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def same(a, b) -> None:
    """Two lists of solutions: the same hands, totals, choices, discards, in the same order."""
    def shown(sols):
        return [f"{s.total} {[c.name for c in s.hand.cards]} " + ", ".join(
            f"{s.hand.catalog.by_id[k].name}: {format_choice(v)}"
            for k, v in sorted(s.hand.choices.items())) + f" leave out "
            f"{[c.name for c in s.discard]} {'proven' if s.proven else 'not proven'}"
            for s in sols]
    assert shown(a) == shown(b)


@quick(40)
@given(st.lists(st.sampled_from(CAT.cards), min_size=8, max_size=10, unique_by=lambda c: c.id),
       st.lists(st.sampled_from(CAT.cards), max_size=4, unique_by=lambda c: c.id),
       st.integers(1, 4))
def test_compiled_best_equals_python_enumeration(pool, discard, top) -> None:
    discard = [c for c in discard if c not in pool]
    same(best_hand(pool, CAT, discard, top=top, method="compiled"),
         best_hand(pool, CAT, discard, top=top, method="python"))


@quick(25)
@given(st.lists(st.sampled_from(CHOOSERS), min_size=2, max_size=4, unique_by=lambda c: c.id),
       st.lists(st.sampled_from([c for c in CAT.cards if c.choice is None]), min_size=5,
                max_size=5, unique_by=lambda c: c.id))
def test_compiled_best_equals_python_with_many_choice_cards(choosers, rest) -> None:
    pool = choosers + rest
    same(best_hand(pool, CAT, top=2, method="compiled"),
         best_hand(pool, CAT, top=2, method="python"))


@quick(30)
@given(st.lists(st.sampled_from(CAT.cards), min_size=8, max_size=9, unique_by=lambda c: c.id),
       st.randoms(use_true_random=False))
def test_compiled_best_keeps_pinned_choices_as_python_does(pool, rnd) -> None:
    pinned = random_pins(pool, CAT, rnd, 0.7, unassigned=0.3)
    try:
        want = best_hand(pool, CAT, pinned=pinned, method="python")
    except Exception as e:  # no legal hand with these pins: the same error
        import pytest

        with pytest.raises(type(e)):
            best_hand(pool, CAT, pinned=pinned, method="compiled")
        return
    same(best_hand(pool, CAT, pinned=pinned, method="compiled"), want)


@quick(25)
@given(st.lists(st.sampled_from(EXP.suit_cards), min_size=9, max_size=10,
                unique_by=lambda c: c.id),
       st.lists(st.sampled_from(EXP.suit_cards), min_size=1, max_size=4,
                unique_by=lambda c: c.id),
       st.lists(st.sampled_from([c for c in EXP.cards if c.cursed]), max_size=3,
                unique_by=lambda c: c.id),
       st.integers(2, 6))
def test_compiled_best_equals_python_with_the_expansion(pool, discard, cursed, players) -> None:
    discard = [c for c in discard if c not in pool]
    assume(discard)  # the discard-area cards (C5) need one
    same(best_hand(pool, EXP, discard, top=2, players=players, cursed=cursed,
                   method="compiled"),
         best_hand(pool, EXP, discard, top=2, players=players, cursed=cursed,
                   method="python"))


@quick(20)
@given(st.lists(st.sampled_from(HOME.suit_cards), min_size=9, max_size=10,
                unique_by=lambda c: c.id),
       st.lists(st.sampled_from(HOME.suit_cards), min_size=1, max_size=3,
                unique_by=lambda c: c.id))
def test_compiled_best_equals_python_with_homebrew_cards(pool, discard) -> None:
    discard = [c for c in discard if c not in pool]
    assume(discard)  # the discard-area cards (C5) need one
    same(best_hand(pool, HOME, discard, top=2, players=3, method="compiled"),
         best_hand(pool, HOME, discard, top=2, players=3, method="python"))


@quick(10)
@given(st.lists(st.sampled_from(CAT.cards), min_size=9, max_size=11, unique_by=lambda c: c.id))
def test_auto_and_cpsat_give_the_hand_enumeration_gives(pool) -> None:
    best = best_hand(pool, CAT, method="python")[0]
    for method in ("auto", "cpsat"):
        got = best_hand(pool, CAT, method=method)[0]
        assert (got.total, [c.id for c in got.hand.cards]) == (
            best.total, [c.id for c in best.hand.cards])


def test_the_260_hand_plus_a_junk_card_discards_the_junk_compiled() -> None:
    # the rules' worked example (260, Mirage as Rainstorm) and Magic Wand, +25 only with a
    # Wizard: worth 1 here, less than any card of the hand
    pool = [CAT.card(n) for n in ("Mountain", "Great Flood", "Smoke", "Whirlwind",
                                  "Air Elemental", "Wildfire", "Mirage", "Magic Wand")]
    best = best_hand(pool, CAT, method="compiled")[0]
    assert best.total == 260
    assert [c.name for c in best.discard] == ["Magic Wand"]
    assert best.hand.choices[CAT.card("Mirage").id] is CAT.card("Rainstorm")


def test_progress_counts_every_subset() -> None:
    pool = CAT.cards[:10]
    for method in ("compiled", "python"):
        seen: list[tuple[int, int]] = []

        def note(done: int, total: int, seen: list = seen) -> None:
            seen.append((done, total))

        best_hand(pool, CAT, method=method, progress=note)
        assert seen[-1] == (comb(10, 7), comb(10, 7))  # 120 subsets, all scored
        assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_hands_scored_is_the_sum_over_subsets_of_the_products() -> None:
    # 10 cards, one with 5 options: C(9, 7) subsets without it (36) and C(9, 6) with it,
    # each tried 5 ways (84 × 5 = 420): 456 hands
    assert hands_scored([1.0] * 9 + [5.0], 7) == comb(9, 7) + 5 * comb(9, 6) == 456
    assert hands_scored([1.0] * 12, 7) == comb(12, 7)


def test_a_pool_without_choices_costs_one_hand_per_subset() -> None:
    pool = [c for c in CAT.cards if c.choice is None][:11]
    est = costs(pool, CAT)
    assert est.hands == est.subsets == comb(11, 7)


def test_best_quiet_prints_the_same_answer(tmp_path) -> None:
    from ..conftest import run, write

    pool = write(tmp_path, "pool.txt", "\n".join([
        "Mountain", "Great Flood", "Smoke", "Whirlwind", "Air Elemental", "Wildfire", "Mirage",
        "Magic Wand"]))
    loud, quiet = run(["best", pool]), run(["best", pool, "--quiet"])
    assert loud.exit_code == quiet.exit_code == 0
    assert quiet.output == loud.output
    assert "Discard Magic Wand → score 260" in quiet.output


def test_unrank_lists_the_combinations_in_order() -> None:
    from itertools import combinations

    from fantasy_scorer.realms.solve.batch.best import unrank

    for n, k in ((10, 7), (12, 7), (8, 8)):
        assert [unrank(i, n, k) for i in range(comb(n, k))] == [
            list(c) for c in combinations(range(n), k)]


def test_chapels_suits_are_kept_apart_by_the_choice_collapse() -> None:
    # Chapel counts Leaders, Wizards, Outsiders and Undead (an "exactly" effect): Book of
    # Changes must try each of them, even with no other card naming Outsider; before, the
    # collapse ignored Chapel's terms and Outsider went with the suits nobody mentions
    from fantasy_scorer.realms.solve.relevance import relevance, suit_choices

    cards = [EXP.card(n) for n in ("Unicorn", "Chapel", "Mountain", "Book of Changes",
                                   "Warlock Lord", "Cavern", "Bell Tower", "Earth Elemental")]
    tried = suit_choices(EXP, relevance(cards, EXP))
    assert {"Leader", "Wizard", "Outsider", "Undead"} <= set(tried)
    # Unicorn 9, Chapel 2, Mountain 9, Book 3, Warlock Lord 25 (no Leader, no other
    # Wizard), Cavern 6, Bell Tower 8 + 15 (a Wizard), Earth Elemental 4 + 15 × 2 = 111;
    # Chapel's +40 needs a second Leader/Wizard/Outsider/Undead: Unicorn made a Leader or a
    # Wizard costs Warlock Lord 10 (141), made an Outsider or an Undead costs nothing: 151,
    # and Outsider comes first in the game's order of suits
    best = best_hand(cards, EXP, method="python")[0]
    assert best.total == 151
    assert best.hand.choices[EXP.card("Book of Changes").id] == (EXP.card("Unicorn"),
                                                                   "Outsider")
