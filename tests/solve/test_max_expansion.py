"""``max`` with Cursed Hoards: the sweep's bound is never below the evaluator's optimum on
expansion hands (any table: discard area, players), and on games small enough to enumerate
the proven best hand is the one brute force finds (extra cards, Angel, Demon, Lich, Judge,
Chapel, the discard-area cards, Cursed Items held beside the hand)."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fantasy_scorer.errors import ScorerError
from fantasy_scorer.realms import effects as fx
from fantasy_scorer.realms.catalog import base_catalog
from fantasy_scorer.realms.hand import hand_limit
from fantasy_scorer.realms.resolve import resolve
from fantasy_scorer.realms.solve.api import max_hand
from fantasy_scorer.realms.solve.choices import optimal_choices
from fantasy_scorer.realms.solve.sweep import SweepTable, compile_bounds

from .test_sweep import swept_and_wanted

EXP = base_catalog("cursed-hoards")
DLX = base_catalog("cursed-hoards", "deluxe")
HAND = [c for c in EXP.suit_cards]
NEW = [c for c in EXP.suit_cards if c.id.startswith("CH")]


def cards(names, cat=EXP):
    return [cat.card(n) for n in names]


def context(discard, players, cursed=0) -> fx.Context:
    area = None if discard is None else tuple(c.in_discard() for c in discard)
    return fx.Context(area, players, cursed)


def best_total(hand, cat=EXP, discard=None, players=None, cursed=()) -> int:
    """The evaluator's optimum for these cards at this table (every table size when the
    number of players is not given; an empty discard area when none is)."""
    counts = [players] if players is not None else [2, 3, 4, 5, 6]
    return max(optimal_choices(tuple(hand), cat, None,
                               context(discard if discard is not None else (), p,
                                       len(cursed)), tuple(cursed))[0] for p in counts)


@st.composite
def tables(draw, cat=EXP):
    """A hand of 8 or 9 cards (half of them from the expansion), a discard area (or none)
    and a number of players (or none)."""
    new = [c for c in cat.suit_cards if c.id.startswith("CH")]
    hand = draw(st.lists(st.sampled_from(new), min_size=2, max_size=5, unique=True))
    rest = [c for c in cat.suit_cards if c not in hand]
    hand += draw(st.lists(st.sampled_from(rest), min_size=8 - len(hand),
                          max_size=9 - len(hand), unique=True))
    others = [c for c in cat.suit_cards if c not in hand]
    discard = draw(st.none() | st.lists(st.sampled_from(others), max_size=6, unique=True))
    players = draw(st.none() | st.integers(2, 6))
    return hand, discard, players


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_the_bound_is_never_below_the_best_choices_on_expansion_hands(case) -> None:
    hand, discard, players = case
    b = compile_bounds(EXP, EXP.suit_cards, SweepTable(None if discard is None else
                                                 tuple(discard), players))
    assert b.bound(hand) >= best_total(hand, EXP, discard, players)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(DLX))
def test_the_bound_holds_with_the_deluxe_phoenix(case) -> None:
    hand, discard, players = case
    if DLX.card("Phoenix") not in hand:
        hand = hand[:-1] + [DLX.card("Phoenix")] if DLX.card("Phoenix") not in hand[:-1] \
            else hand
    b = compile_bounds(DLX, DLX.suit_cards, SweepTable(None if discard is None else
                                                 tuple(discard), players))
    assert b.bound(hand) >= best_total(hand, DLX, discard, players)


EXP_BOUNDS = compile_bounds(EXP, EXP.suit_cards)
WT = [EXP.card(n) for n in ("World Tree", "Book of Changes", "Mirage", "Shapeshifter",
                            "Doppelgänger", "Phoenix", "Collector", "Candle")]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_the_closer_look_at_a_hand_never_drops_one_that_beats_the_bar(data) -> None:
    """A hand's bound, with what Doppelgänger copies and Book of Changes' change tried one
    by one and World Tree's bonus only for cards of different suits, is still at least what
    the hand scores (here at a table of 4; the bound holds for any): asked whether it beats
    its own total minus one, the answer is always yes."""
    hand = data.draw(st.lists(st.sampled_from(WT), min_size=2, max_size=3, unique=True))
    hand += data.draw(st.lists(st.sampled_from([c for c in HAND if c not in hand]),
                               min_size=8 - len(hand), max_size=9 - len(hand), unique=True))
    total = best_total(hand, players=4)
    assert EXP_BOUNDS.refined_beats(hand, total - 1)


#: the wild cards, Island, the extra-card cards and the expansion's subtlest counts
SUBTLE = ["Doppelgänger", "Mirage", "Shapeshifter", "Book of Changes", "Island",
          "Necromancer", "Leprechaun", "Genie", "Phoenix", "Chapel", "Warlord", "Collector",
          "Gem of Order", "World Tree", "Angel", "Lich", "Judge", "Dark Queen", "Ghoul"]
#: a few tables the bounds are compiled for (a discard area or none, a table size or any)
AREA = ("Rainstorm", "Knights", "Unicorn", "Wildfire", "Magic Wand", "Dragon")
TABLES = [(None, None), (None, 3), (AREA, None), (AREA[:2], 6)]
BOUNDS_AT = {t: compile_bounds(EXP, [c for c in HAND if t[0] is None or c.name not in t[0]]
                               + cards(t[0] or ()),
                               SweepTable(None if t[0] is None else tuple(cards(t[0])), t[1]))
             for t in TABLES}


@st.composite
def subtle_pools(draw, least=6, most=11):
    """A table of TABLES and cards in a random order (none of its discard area), one to
    four of them subtle."""
    table = draw(st.sampled_from(TABLES))
    avoid = set(table[0] or ())
    some = draw(st.lists(st.sampled_from(cards(SUBTLE)), min_size=1, max_size=4,
                         unique=True))
    rest = [c for c in HAND if c not in some and c.name not in avoid]
    some += draw(st.lists(st.sampled_from(rest), min_size=least - len(some),
                          max_size=most - len(some), unique=True))
    return table, draw(st.permutations(some))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(subtle_pools(), st.data())
def test_a_branch_bound_is_never_below_any_of_its_expansion_hands(case, data) -> None:
    """For cards held (P) and k more to take from R, the branch's bound is at least the
    bound of every hand P + S, S ⊆ R, |S| = k (here with the wild and extra-card cards, at
    several tables)."""
    table, pool = case
    b = BOUNDS_AT[table]
    held = data.draw(st.integers(min_value=1, max_value=min(6, len(pool) - 1)))
    P, R = pool[:held], pool[held:]
    k = data.draw(st.integers(min_value=1, max_value=min(3, len(R), 9 - held)))
    branch = b.branch(P, R, k)
    for S in combinations(R, k):
        assert branch >= b.bound(P + list(S))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(subtle_pools(least=10, most=11), st.data())
def test_the_sweep_meets_every_expansion_hand_whose_bound_beats_its_threshold(case,
                                                                             data) -> None:
    """Down the whole tree of branches, at several tables: no hand of 8 or 9 cards whose
    bound beats the threshold is pruned."""
    table, pool = case
    forced = pool[:data.draw(st.integers(0, 2))]
    size = data.draw(st.sampled_from([8, 8, 9]))
    swept, wanted = swept_and_wanted(BOUNDS_AT[table], pool, forced, size, data)
    assert wanted <= swept


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(subtle_pools(least=8, most=9))
def test_the_bound_holds_with_wild_and_extra_card_cards_at_any_table(case) -> None:
    """A hand of 8 or 9 cards holding wild and extra-card cards: its bound is at least the
    evaluator's optimum at that table (an empty discard area when none is given)."""
    (area, players), hand = case
    b = BOUNDS_AT[(area, players)]
    total = best_total(hand, EXP, None if area is None else cards(area), players)
    assert b.bound(hand) >= total
    assert b.refined_beats(hand, total - 1)


def test_chapel_counts_the_copy_of_the_card_taken_later() -> None:
    """Chapel and Doppelgänger held, King to take: Doppelgänger as King makes two Leaders
    (exactly two: Chapel +40). Chapel 2 + 40, King 8, Doppelgänger 8 = 58. The branch took
    Chapel's bonus for dead (two cards needed, one left to take), not allowing for the
    copy: 2 + 8 + 8 = 18."""
    hand = cards(["Chapel", "Doppelgänger", "King"])
    assert optimal_choices(tuple(hand), EXP)[0] == 58
    assert EXP_BOUNDS.branch(hand[:2], hand[2:], 1) >= 58


def _legal_hands(pool, cat, discard=None, cursed=()):
    """Every legal hand of ``pool``: the catalog's hand size, and one card more with an
    extra-card effect that may take one of its cards (from the discard area when one is
    given), never past the catalog's maximum."""
    size = cat.hand_size
    out = list(combinations(pool, size))
    for extra in combinations(pool, size + 1):
        if hand_limit(extra, cat, cursed) < size + 1:
            continue
        givers = [g for g in extra if g.extra is not None] + [
            c for c in cursed if c.extra is not None]
        if any(g.extra.source != "discard" or discard is None and any(
                g.may_take_extra(c) for c in extra) for g in givers):
            out.append(extra)
    if discard is not None:  # an extra card taken from the area given
        for base in combinations(pool, size):
            for g in base:
                if g.extra is not None and g.extra.source == "discard":
                    out += [base + (d,) for d in discard if g.may_take_extra(d)]
    return out


def _brute_max(pool, cat=EXP, discard=None, players=None, cursed=()) -> int:
    best = None
    for hand in _legal_hands(pool, cat, discard, cursed):
        taken = [c for c in hand if discard is not None and c in discard]
        area = None if discard is None else [d for d in discard if d not in taken]
        v = best_total(hand, cat, area, players, cursed)  # Cursed Items included
        best = v if best is None else max(best, v)
    return best


def _only(pool, cat=EXP) -> list:
    return [c for c in cat.suit_cards if c not in pool]


ANGELS = ["Angel", "Demon", "Basilisk", "King", "Queen", "Lich", "Judge", "Chapel",
          "Leprechaun", "Crypt", "Garden", "Knights"]


def test_a_small_expansion_game_agrees_with_brute_force() -> None:
    """Angel's protection, Demon's lonely cards, Lich's immunity, Judge's penalties and
    Chapel's exact count, with Leprechaun's 9th card: 495 hands of 8 and 220 of 9."""
    pool = cards(ANGELS)
    sol = max_hand(EXP, without=_only(pool))
    assert sol.proven
    assert sol.total == _brute_max(pool)
    assert sol.total == resolve(sol.hand).total


def test_the_discard_area_cards_score_an_empty_area_unless_one_is_given() -> None:
    """Dark Queen, Ghoul, Specter and Death Knight read the discard area (C5). Without one
    they score their strength; with one, what it holds, and Necromancer may take a card of
    it as the 9th."""
    pool = cards(["Dark Queen", "Ghoul", "Specter", "Death Knight", "Lich", "Necromancer",
                  "Dungeon", "Crypt", "Bell Tower", "Chapel", "Warlord"])
    sol = max_hand(EXP, without=_only(pool))
    assert sol.proven and sol.total == _brute_max(pool)
    area = cards(["Rainstorm", "Knights", "Unicorn", "Wildfire", "Magic Wand"])
    sol = max_hand(EXP, without=_only(pool), discard=area)
    assert sol.proven and sol.total == _brute_max(pool, discard=area)
    assert sol.total == resolve(sol.hand).total


def test_a_discard_area_given_leaves_leprechauns_ninth_card_beside_necromancer() -> None:
    """With a discard area given, Necromancer's shapes hold only the hands whose 9th card
    is of the area; a hand of nine pool cards holding Necromancer is Leprechaun's, and was
    swept by no shape. Here the area (Great Flood) holds nothing Necromancer may take, and
    the best hand is the base game's 397 (Bell Tower 8 + 15, Candle 2 + 100, Necromancer 3,
    Sword of Keth 7 + 40, Shield of Keth 4 + 40, Gem of Order 5 + 150, Book of Changes 3,
    Warhorse 6 + 14) with Leprechaun 20 as its 9th card: 417 (max said 397, proven)."""
    pool = cards(["Necromancer", "Leprechaun", "Bell Tower", "Candle", "Book of Changes",
                  "Warhorse", "Gem of Order", "Fountain of Life", "Sword of Keth",
                  "Shield of Keth"])
    area = cards(["Great Flood"])
    best = [c for c in pool if c.name != "Fountain of Life"]
    assert best_total(best, EXP, area) == 417
    sol = max_hand(EXP, without=_only(pool + area), discard=area)
    assert sol.proven and sol.total == 417 == _brute_max(pool, discard=area)
    assert sol.total == resolve(sol.hand).total


def test_portal_beside_the_hand_leaves_necromancer_its_card_of_the_area() -> None:
    """Portal held and a discard area given: a 9th card may be Portal's (a pool card) or
    Necromancer's (a card of the area); the sweep looked at Portal's only (293, proven).
    Knights taken from the area: Knights 20, Elven Archers 10 + 5 (no Weather), Light
    Cavalry 17 (no Land), Dwarvish Infantry 15 (Rangers clears the word Army, R6), Rangers 5,
    Necromancer 3, King 8 + 100 and Queen 6 + 100 (five Armies, with each other), Warlord
    4 + 67 (20 + 10 + 17 + 15 + 5) = 360, and Portal -20: 340."""
    pool = cards(["Necromancer", "Warlord", "Rangers", "Light Cavalry", "Dwarvish Infantry",
                  "Elven Archers", "King", "Queen", "Bell Tower", "Candle"])
    area = cards(["Knights"])
    portal = (EXP.card("Portal"),)
    hand = [c for c in pool if c.name not in ("Bell Tower", "Candle")] + area
    assert best_total(hand, EXP, [], None, portal) == 340
    sol = max_hand(EXP, with_=portal, without=_only(pool + area), discard=area)
    assert sol.proven and sol.total == 340 == _brute_max(pool, EXP, area, None, portal)
    assert sol.total == resolve(sol.hand).total


def test_genie_is_scored_at_the_best_table_size_or_the_one_given() -> None:
    """Genie (-50, +10 per other player) with Leprechaun: a 9th card either way."""
    pool = cards(["Genie", "Leprechaun", "Gem of Order", "Candle", "Bell Tower",
                  "Book of Changes", "Necromancer", "Warlord", "Fountain of Life",
                  "Queen", "Lightning"])
    for players in (None, 2):
        sol = max_hand(EXP, without=_only(pool), players=players)
        assert sol.proven and sol.total == _brute_max(pool, players=players)
        assert sol.total == resolve(sol.hand).total


def test_a_cursed_item_named_is_held_beside_the_hand() -> None:
    """Portal (-20) gives any hand a 9th card; it is scored beside the hand."""
    pool = cards(["Gem of Order", "Candle", "Bell Tower", "Book of Changes", "Necromancer",
                  "Warlord", "Fountain of Life", "Queen", "Lightning", "Knights"])
    portal = EXP.card("Portal")
    sol = max_hand(EXP, with_=[portal], without=_only(pool))
    assert sol.proven and portal in sol.hand.cursed
    assert sol.total == resolve(sol.hand).total
    brute = max(best_total(h, EXP, None, None, (portal,))
                for h in _legal_hands(pool, EXP, None, (portal,)))
    assert sol.total == brute


def test_a_card_in_the_discard_area_cannot_be_required() -> None:
    with pytest.raises(ScorerError, match="discard area"):
        max_hand(EXP, with_=cards(["Ghoul"]), discard=cards(["Ghoul", "Knights"]))


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(NEW), min_size=5, max_size=6, unique=True),
       st.lists(st.sampled_from([c for c in HAND if not c.id.startswith("CH")]), min_size=5,
                max_size=5, unique=True))
def test_random_small_expansion_games_agree_with_brute_force(new, old) -> None:
    pool = new + old
    sol = max_hand(EXP, without=_only(pool), players=4)
    assert sol.proven
    assert sol.total == _brute_max(pool, players=4)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(cards(SUBTLE)), min_size=2, max_size=4, unique=True),
       st.data())
def test_random_small_games_with_a_discard_area_agree_with_brute_force(subtle, data) -> None:
    """Wild and extra-card cards, a discard area given (Necromancer takes from it,
    Leprechaun and Genie from the deck) and a table size or none."""
    rest = [c for c in HAND if c not in subtle]
    pool = subtle + data.draw(st.lists(st.sampled_from(rest), min_size=10 - len(subtle),
                                       max_size=10 - len(subtle), unique=True))
    others = [c for c in HAND if c not in pool]
    area = data.draw(st.lists(st.sampled_from(others), min_size=1, max_size=3, unique=True))
    players = data.draw(st.none() | st.integers(2, 6))
    sol = max_hand(EXP, without=_only(pool + area), discard=area, players=players)
    assert sol.proven
    assert sol.total == _brute_max(pool, discard=area, players=players)


def test_the_best_expansion_hand_found_scores_447() -> None:
    """The hand the sweep proves best with Cursed Hoards, computed by hand: Bell Tower 8 + 15
    (a Wizard: Collector), Candle 2 + 100 (Book of Changes, Bell Tower, a Wizard), Collector
    7 + 40 (Book of Changes makes Bell Tower a fourth Artifact: Bell Tower, Shield of Keth,
    Gem of Order, Book of Changes), Queen 6 (no Army), Sword of Keth 7 + 40 and Shield of
    Keth 4 + 40 (a Leader and each other), Gem of Order 5 + 150 (strengths 2, 3, 4, 5, 6,
    7, 8: a run of 7), Leprechaun 20 (its 9th card), Book of Changes 3 = 447."""
    hand = cards(["Bell Tower", "Candle", "Collector", "Queen", "Sword of Keth",
                  "Shield of Keth", "Gem of Order", "Leprechaun", "Book of Changes"])
    pinned = {EXP.card("Book of Changes").id: (EXP.card("Bell Tower"), "Artifact")}
    assert optimal_choices(tuple(hand), EXP, pinned)[0] == 447
    assert optimal_choices(tuple(hand), EXP)[0] == 447  # no choice does better
    assert EXP_BOUNDS.bound(hand) >= 447
