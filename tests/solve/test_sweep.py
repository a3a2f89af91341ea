"""The sweep behind ``fr-score max``: its bound is never below the evaluator, and the hand it
proves best is the one exhaustive enumeration finds."""

from __future__ import annotations

import os
import subprocess
import sys
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fantasy_scorer.realms.catalog import base_catalog
from fantasy_scorer.realms.resolve import score, score_raw
from fantasy_scorer.realms.solve.api import max_hand
from fantasy_scorer.realms.solve.choices import optimal_choices
from fantasy_scorer.realms.solve.sweep import Shape, Sweeper, compile_bounds

from .homebrew import CHAMELEON

CAT = base_catalog()
BOUNDS = compile_bounds(CAT, CAT.suit_cards)


def cards(names):
    return [CAT.card(n) for n in names]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(CAT.suit_cards), min_size=7, max_size=8, unique=True))
def test_the_bound_is_never_below_the_best_choices(hand) -> None:
    total, _ = optimal_choices(tuple(hand), CAT)
    assert BOUNDS.bound(hand) >= total


WILD = ["Book of Changes", "Doppelgänger", "Mirage", "Shapeshifter", "Phoenix", "Collector",
        "Gem of Order", "Necromancer", "Jester", "Warlord", "Fountain of Life", "World Tree"]


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_the_bound_holds_with_copies_and_changes_of_suit(data) -> None:
    """The same, with the cards whose choices or counts are subtlest always in play."""
    hand = data.draw(st.lists(st.sampled_from(cards(WILD)), min_size=2, max_size=4,
                              unique=True))
    rest = [c for c in CAT.suit_cards if c not in hand]
    hand += data.draw(st.lists(st.sampled_from(rest), min_size=7 - len(hand),
                               max_size=8 - len(hand), unique=True))
    total, _ = optimal_choices(tuple(hand), CAT)
    assert BOUNDS.bound(hand) >= total


def test_an_unassigned_doppelganger_counts_in_a_run_at_its_own_strength() -> None:
    """Doppelgänger left unassigned is a Wild card of strength 0 (R2): with Fountain of
    Life 1, Candle 2, Book of Changes 3, Warlord 4 and Gem of Order 5 it completes the run
    0-5 (+100). The bound must allow for it, not only for the strengths it could copy."""
    hand = cards(["Fountain of Life", "Warlord", "Gem of Order", "Book of Changes",
                  "Doppelgänger", "Lightning", "Candle"])
    total, _ = optimal_choices(tuple(hand), CAT)
    assert total == 142
    assert BOUNDS.bound(hand) >= 142


def test_R16_a_copy_of_the_promo_phoenix_is_only_a_beast_for_collector() -> None:
    """Shapeshifter as Phoenix is a Beast and nothing else (R16): with Warhorse, Unicorn,
    Hydra it makes Collector's Beasts 4 names (+40), but Lightning and Forge stay 2 Flames.
    Collector 7 + 40, Shapeshifter 0, Warhorse 6 + 14 (a Wizard), Unicorn 9, Hydra 12,
    Lightning 11, Forge 9 = 108; as a Princess it is also 108 (Unicorn +30, Beasts +10).
    The bound stays above it."""
    hand = cards(["Collector", "Shapeshifter", "Warhorse", "Unicorn", "Hydra", "Lightning",
                  "Forge"])
    pinned = {CAT.card("Shapeshifter").id: CAT.card("Phoenix")}
    assert optimal_choices(tuple(hand), CAT, pinned)[0] == 108
    total, _ = optimal_choices(tuple(hand), CAT)
    assert total == 108
    assert BOUNDS.bound(hand) >= total


BLANKERS = ["Great Flood", "Rainstorm", "Blizzard", "Wildfire", "Basilisk"]
STOPPERS = ["Mountain", "Cavern", "Island", "Rangers", "Beastmaster", "Warship",
            "Protection Rune", "Smoke", "War Dirigible", "Phoenix"]
CHOOSERS = ["Book of Changes", "Doppelgänger", "Mirage", "Shapeshifter"]


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_the_bound_holds_where_cards_blank_each_other(data) -> None:
    """The bound takes off the parts of the cards surely blanked (R8): with one or two
    blanking cards always in play, often beside cards that clear penalties or blank
    themselves and beside copies and Book of Changes, the bound, and the closer look at the
    hand's own total minus one, still allow for its best choices."""
    def some(names, low, high):
        return data.draw(st.lists(st.sampled_from(cards(names)), min_size=low, max_size=high,
                                  unique=True))

    hand = some(BLANKERS, 1, 2) + some(STOPPERS, 0, 2) + some(CHOOSERS, 0, 2)
    rest = [c for c in CAT.suit_cards if c not in hand]
    hand += data.draw(st.lists(st.sampled_from(rest), min_size=7 - len(hand),
                               max_size=7 - len(hand), unique=True))
    total, _ = optimal_choices(tuple(hand), CAT)
    assert BOUNDS.bound(hand) >= total
    assert BOUNDS.refined_beats(hand, total - 1)


def test_R8_the_parts_of_the_cards_wildfire_surely_blanks_are_taken_off() -> None:
    """Wildfire blanks Dwarvish Infantry (an Army), Fountain of Life and Swamp (Floods), and
    nothing in the hand may stop it (R8): the hand scores Enchantress 5 + 5 (one Flame),
    World Tree 2, Wildfire 40, Shield of Keth 4 = 56. The bound counts what the kept cards
    may score, penalties aside, with the blanked cards still counted for them: Enchantress
    5 + 15 (Wildfire and the two Floods), World Tree 2 + 50 (the bound does not look at
    suits), Wildfire 40, Shield of Keth 4 = 116; and nothing for the three blanked cards,
    whose parts (15, 1 + 40 and 18) made it 190."""
    hand = cards(["Enchantress", "World Tree", "Dwarvish Infantry", "Fountain of Life",
                  "Wildfire", "Swamp", "Shield of Keth"])
    assert score_raw(hand, {}, CAT) == 56
    assert BOUNDS.bound(hand) == 116
    # with Protection Rune for Shield of Keth, Wildfire's penalty may be cleared: the
    # blanked cards' parts are back (Protection Rune 1; Enchantress still 5 + 15)
    guarded = [c for c in hand if c.name != "Shield of Keth"] + cards(["Protection Rune"])
    assert BOUNDS.bound(guarded) == 116 - 4 + 1 + 15 + 41 + 18


def test_R8b_wildfire_made_a_land_blanks_itself_and_nothing_else() -> None:
    """As printed, Wildfire blanks every other card but Book of Changes (an Artifact): 3 +
    40 = 43. Book of Changes makes Wildfire a Land: it then blanks itself, and a card that
    blanks itself is blanked and blanks nothing (R8 b). Book of Changes 3, Wildfire 0, Swamp
    18 - 6 (two Armies), Dwarvish Infantry 15 - 2 (Knights), Hydra 12 + 28 (Swamp),
    Warhorse 6, Knights 20 - 8 (no Leader) = 86. The closer look, which tries that change
    with Wildfire's own part taken off and the others kept, must still reach 86."""
    hand = cards(["Book of Changes", "Wildfire", "Swamp", "Dwarvish Infantry", "Hydra",
                  "Warhorse", "Knights"])
    assert score_raw(hand, {}, CAT) == 43
    land = {CAT.card("Book of Changes").id: (CAT.card("Wildfire"), "Land")}
    assert score_raw(hand, land, CAT) == 86
    assert optimal_choices(tuple(hand), CAT)[0] == 86
    assert BOUNDS.refined_beats(hand, 85)


def test_the_bound_holds_on_the_worked_examples() -> None:
    hand_260 = cards(["Mountain", "Great Flood", "Smoke", "Whirlwind", "Air Elemental",
                      "Wildfire", "Mirage"])
    hand_380 = cards(["Bell Tower", "Candle", "Queen", "Sword of Keth", "Shield of Keth",
                      "Gem of Order", "Book of Changes"])
    assert BOUNDS.bound(hand_260) >= 260
    # no penalty here; the bound lets Book of Changes help each bonus on its own
    # (Queen counts one more Army), so it may be a little above the rules file's 380
    assert 380 <= BOUNDS.bound(hand_380) <= 400


def test_the_best_hand_found_by_hand_scores_397() -> None:
    """Bell Tower made a Leader by Book of Changes: Bell Tower 8 + 15 (a Wizard:
    Necromancer), Candle 2 + 100 (Book, Bell Tower, a Wizard), Necromancer 3, Sword of
    Keth 7 + 40 and Shield of Keth 4 + 40 (a Leader and each other), Gem of Order 5 + 150
    (strengths 2, 3, 4, 5, 6, 7, 8: a run of 7), Book of Changes 3, Warhorse 6 + 14 (a
    Leader) = 397, Warhorse being Necromancer's 8th card."""
    hand = cards(["Bell Tower", "Candle", "Necromancer", "Sword of Keth", "Shield of Keth",
                  "Gem of Order", "Book of Changes", "Warhorse"])
    total, choices = optimal_choices(tuple(hand), CAT)
    assert total == 397
    assert BOUNDS.bound(hand) >= 397


def _brute_max(pool, cat=CAT, holding=None) -> int:
    """The best total of every legal hand of ``pool`` (holding that card, if given)."""
    hands = list(combinations(pool, 7))
    necro = [c for c in pool if c.extra is not None]
    for g in necro:
        others = [c for c in pool if c is not g]
        hands += [(g,) + rest for rest in combinations(others, 7)
                  if any(g.may_take_extra(c) for c in rest)]
    return max(optimal_choices(h, cat)[0] for h in hands if holding is None or holding in h)


def _only(cat, pool) -> list:
    """``--without`` every card of the game but these."""
    return [c for c in cat.suit_cards if c not in pool]


def test_a_small_game_agrees_with_exhaustive_enumeration() -> None:
    pool = cards(["Bell Tower", "Candle", "Necromancer", "Queen", "Knights", "Sword of Keth",
                  "Shield of Keth", "Gem of Order", "Book of Changes", "Warhorse", "Wildfire",
                  "Doppelgänger"])
    sol = max_hand(CAT, without=_only(CAT, pool))
    assert sol.proven
    assert sol.total == _brute_max(pool)
    assert sol.total == score(sol.hand)


def test_required_cards_are_kept_and_the_answer_is_proven() -> None:
    pool = cards(["Island", "Swamp", "Great Flood", "Water Elemental", "Fountain of Life",
                  "Mountain", "Rainstorm", "Hydra", "Shapeshifter", "Mirage"])
    sol = max_hand(CAT, with_=cards(["Hydra"]), without=_only(CAT, pool))
    assert sol.proven and CAT.card("Hydra") in sol.hand.cards
    assert sol.total == _brute_max(pool, holding=CAT.card("Hydra"))


def test_the_whole_game_is_proven() -> None:
    """The full sweep: proven, and at least the 397 worked out by hand above."""
    sol = max_hand(CAT)
    assert sol.proven
    assert sol.total >= 397
    assert sol.total == score(sol.hand)


#: the wild cards, Island and Necromancer, and the cards whose bonuses count them subtly
SUBTLE = [*WILD, "Island", "Knights", "Queen", "Candle", "Bell Tower", "Great Flood"]


@st.composite
def pools(draw, cat=CAT, subtle=SUBTLE, least=6, most=11):
    """Cards in a random order, one to four of them subtle (wild, extra-card and the cards
    that count them)."""
    some = draw(st.lists(st.sampled_from([cat.card(n) for n in subtle]), min_size=1,
                         max_size=4, unique=True))
    rest = [c for c in cat.suit_cards if c not in some]
    some += draw(st.lists(st.sampled_from(rest), min_size=least - len(some),
                          max_size=most - len(some), unique=True))
    return draw(st.permutations(some))


@settings(max_examples=400, deadline=None)
@given(pools(), st.data())
def test_a_branch_bound_is_never_below_any_of_its_hands(pool, data) -> None:
    """What the sweep prunes with: for cards held (P) and k more to take from R, the
    branch's bound is at least the bound of every hand P + S, S ⊆ R, |S| = k."""
    held = data.draw(st.integers(min_value=1, max_value=min(5, len(pool) - 1)))
    P, R = pool[:held], pool[held:]
    k = data.draw(st.integers(min_value=1, max_value=min(3, len(R), 8 - held)))
    branch = BOUNDS.branch(P, R, k)
    for S in combinations(R, k):
        assert branch >= BOUNDS.bound(P + list(S))


def swept_and_wanted(bounds, pool, forced, size, data):
    """(the card sets one sweep of ``pool`` meets at a threshold, the hands whose closer bound
    beats it), each card set as a set of ids. The threshold is drawn among the hands' bounds,
    so that the sweep prunes."""
    free = [c for c in pool if c not in forced]
    hands = [tuple(forced) + S for S in combinations(free, size - len(forced))]
    values = sorted(bounds.bound(h) for h in hands)
    thr = values[data.draw(st.integers(len(values) // 3, len(values) - 1))] - 1
    wanted = {frozenset(c.id for c in h) for h in hands
              if bounds.bound(h) > thr and bounds.refined_beats(h, thr)}
    sweeper = Sweeper(bounds, [Shape(tuple(forced), tuple(free), size, False)], workers=1)
    swept = {frozenset(c.id for c in h) for h in sweeper.candidates(thr)}
    return swept, wanted


@settings(max_examples=100, deadline=None)
@given(pools(least=9, most=11), st.data())
def test_the_sweep_meets_every_hand_whose_bound_beats_its_threshold(pool, data) -> None:
    """What a pass relies on, down the whole tree of branches (each inheriting what its
    parent knew of a card's own bonus): no hand whose bound beats the threshold is pruned."""
    forced = pool[:data.draw(st.integers(0, 2))]
    size = data.draw(st.sampled_from([7, 7, 8]))
    swept, wanted = swept_and_wanted(BOUNDS, pool, forced, size, data)
    assert wanted <= swept


def test_a_doppelganger_held_may_copy_an_army_taken_later_for_warlord() -> None:
    """The falsified branch of issue 13: Warlord and Doppelgänger held, Knights to take.
    Warlord 4 + 40 (Knights 20 and Doppelgänger as Knights 20), Knights 20, Doppelgänger
    20 = 84. The branch bound was 64 (Warlord 4, Doppelgänger 20, Knights 20 + the 20 it
    adds to Warlord): the copy of a card not yet held was missing, and the hand pruned."""
    hand = cards(["Warlord", "Doppelgänger", "Knights"])
    assert optimal_choices(tuple(hand), CAT)[0] == 84
    assert BOUNDS.branch(hand[:2], hand[2:], 1) >= 84
    # the same with Warlord among the cards taken: Doppelgänger held alone
    assert BOUNDS.branch(hand[1:2], [hand[0], hand[2]], 2) >= 84


def test_a_small_game_of_armies_and_a_doppelganger_agrees_with_brute_force() -> None:
    """Warlord sums the Armies; Doppelgänger held early may copy the strongest taken later."""
    pool = cards(["Warlord", "Doppelgänger", "Knights", "Rangers", "Light Cavalry",
                  "Dwarvish Infantry", "Elven Archers", "Empress", "King", "Queen",
                  "Bell Tower"])
    sol = max_hand(CAT, with_=cards(["Doppelgänger"]), without=_only(CAT, pool))
    assert sol.proven
    assert sol.total == _brute_max(pool, holding=CAT.card("Doppelgänger"))


def test_more_required_cards_than_a_hand_holds_is_an_error() -> None:
    from fantasy_scorer.errors import ScorerError

    eight = cards(["Mountain", "Cavern", "Bell Tower", "Forest", "Earth Elemental",
                   "Swamp", "Island", "Rainstorm"])
    with pytest.raises(ScorerError, match="required"):
        max_hand(CAT, with_=eight)


SERPENT = """
cards:
  - id: HB01
    name: Sea Serpent
    suit: Beast
    strength: {strength}
    text: "+10 per Flood. Penalty: blanked unless with Swamp or Island."
    bonus:
      - {{points: 10, per: [Flood]}}
    penalty:
      - {{blanked_unless: [Swamp, Island]}}
"""


def test_a_homebrew_card_is_swept_from_its_yaml(tmp_path) -> None:
    from fantasy_scorer.realms.catalog import load_catalog

    f = tmp_path / "serpent.yaml"
    f.write_text(SERPENT.format(strength=20), encoding="utf-8")
    cat = load_catalog([f])
    names = ["Sea Serpent", "Island", "Swamp", "Great Flood", "Water Elemental",
             "Fountain of Life", "Hydra", "Mountain", "Knights", "Collector"]
    pool = [cat.card(n) for n in names]
    sol = max_hand(cat, without=_only(cat, pool))
    assert sol.proven
    assert sol.total == _brute_max(pool, cat)




def test_cards_the_sweep_cannot_bound_go_to_cp_sat(tmp_path) -> None:
    """A copy from the game that takes a strength is not described by the sweep's
    tables: max answers through CP-SAT instead, and still finds the best hand."""
    from fantasy_scorer.realms.catalog import load_catalog
    from fantasy_scorer.realms.solve.engine import Unsupported

    f = tmp_path / "chameleon.yaml"
    f.write_text(CHAMELEON, encoding="utf-8")
    cat = load_catalog([f])
    pool = [cat.card(n) for n in ["Chameleon", "Island", "Swamp", "Great Flood",
                                  "Water Elemental", "Hydra", "Mountain", "Knights"]]
    with pytest.raises(Unsupported):
        compile_bounds(cat, pool)
    sol = max_hand(cat, without=_only(cat, pool))
    assert sol.total == _brute_max(pool, cat)


def test_the_second_process_caches_refined_over_for_the_sweep(tmp_path) -> None:
    """On a first run (an empty compile cache) the sweep starts a second process that compiles
    refined_over into the shared cache; once it is done, this process finds it there for the
    very signature sweep_part takes it as, and compiles nothing of it itself. Run in a new
    process with a cache of its own (all_own, which the sweep compiles meanwhile, is left out:
    only the second process is under test). The wait has no limit here (PATIENCE is for
    users: past it the sweep compiles refined_over itself), so a slow machine cannot fail it."""
    program = """
from fantasy_scorer.realms.catalog import base_catalog
from fantasy_scorer.realms.solve import sweep_early
from fantasy_scorer.realms.solve import sweep_kernel as kern
from fantasy_scorer.realms.solve.sweep import Shape, Sweeper, compile_bounds

kern.all_own = lambda *args: None
sweep_early.PATIENCE = None
cat = base_catalog()
b = compile_bounds(cat, cat.suit_cards)
run = Sweeper(b, [Shape((), tuple(cat.suit_cards[:12]), 7, False)], workers=1).runs[0]
assert sweep_early._pending is not None, "no second process started"
sweep_early.wait()
ro = kern.refined_over
assert not ro.overloads, "compiled in this process"
assert ro._cache.load_overload(tuple(run.sigs[1].args), ro.targetctx) is not None, "not cached"
print("cached")
"""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["cached"]


def test_no_second_process_once_refined_over_is_compiled(monkeypatch) -> None:
    """A warm run (the sweep compiled or cached) starts no second process: it would only
    take a core from the sweep."""
    from fantasy_scorer.realms.solve import sweep_early
    from fantasy_scorer.realms.solve import sweep_kernel as kern

    run = Sweeper(BOUNDS, [Shape((), tuple(CAT.suit_cards[:12]), 7, False)], workers=1).runs[0]
    kern.ready(kern.refined_over, run.sigs[1])
    monkeypatch.setattr(sweep_early, "_asked", False)
    started = []

    def popen(*args, **kwargs):
        started.append(args)
        raise OSError("not started in this test")

    monkeypatch.setattr(sweep_early.subprocess, "Popen", popen)
    sweep_early.start(run.sigs[1])
    assert sweep_early._asked and started == [] and sweep_early._pending is None
