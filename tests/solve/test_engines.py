"""One interface for the searches (issue 38 §2): the registry of the effect kinds each engine
models matches every engine's own builders, every engine says "can't" with the one
``Unsupported``, the planners pick only an engine that takes the problem, and ``max`` answers
through CP-SAT for cards the sweep cannot bound, at any table (players, Cursed Items, a
discard area). ``max``'s engines (the sweep, CP-SAT, hill climbing) are engines like
``best``'s: each asked by name agrees with brute force."""

from __future__ import annotations

import inspect

import pytest

from fantasy_scorer.errors import ScorerError
from fantasy_scorer.realms import effects as fx
from fantasy_scorer.realms.catalog import base_catalog, load_catalog
from fantasy_scorer.realms.resolve import resolve
from fantasy_scorer.realms.solve import engines
from fantasy_scorer.realms.solve.api import best_hand, max_hand, pick_engine, pick_max_engine
from fantasy_scorer.realms.solve.engine import (
    CHOICE_KINDS,
    EFFECT_ENGINES,
    ENGINES,
    Problem,
    Unsupported,
    modelled_by,
)
from fantasy_scorer.realms.solve.exhaustive import Table
from fantasy_scorer.realms.solve.max_engines import MAX_ENGINES, MaxProblem

from .homebrew import CHAMELEON
from .test_batch import HOME
from .test_max_expansion import ANGELS, EXP, _brute_max, _legal_hands, _only, best_total

BASE = base_catalog()


def _unbounded_pool() -> list:
    """Ten homebrew-game cards the sweep's bound refuses (Runesmith's run table), three of
    them choice cards."""
    runesmith = next(c for c in HOME.suit_cards if c.id == "HB12")
    return [runesmith] + [c for c in HOME.suit_cards if c.choice is not None][:3] + [
        c for c in HOME.suit_cards if c.choice is None and c is not runesmith][:6]


def _effect_kinds() -> set[type]:
    """Every class of ``effects.py`` that is an effect: a point effect, or a class with a
    ``kind`` of its own (blanking, clearing, choices, extra cards)."""
    return {cls for _, cls in inspect.getmembers(fx, inspect.isclass)
            if cls.__module__ == fx.__name__ and cls is not fx.PointEffect
            and (issubclass(cls, fx.PointEffect) or "kind" in vars(cls))}


def test_every_effect_kind_of_effects_py_is_in_the_registry() -> None:
    kinds = _effect_kinds()
    assert fx.Runs in kinds and fx.Copy in kinds and fx.ExtraCard in kinds  # the reader works
    assert kinds - set(EFFECT_ENGINES) == set()
    assert set(EFFECT_ENGINES) - kinds == set()
    for names in EFFECT_ENGINES.values():
        assert names <= set(ENGINES)


def test_the_sweeps_compilers_match_the_registry() -> None:
    from fantasy_scorer.realms.solve.sweep_tables import COMPILERS

    assert set(COMPILERS) == set(modelled_by("sweep", fx.PointEffect))


def test_cp_sats_builders_match_the_registry() -> None:
    from fantasy_scorer.realms.solve.cpsat import CHOICES, POINT_BUILDERS

    assert set(POINT_BUILDERS) == set(modelled_by("cpsat", fx.PointEffect))
    assert set(CHOICES) == set(modelled_by("cpsat")) & set(CHOICE_KINDS)


def test_the_compiled_scorers_kinds_match_the_registry() -> None:
    from fantasy_scorer.realms.solve.batch.tables import KNOWN_CHOICES, KNOWN_EFFECTS

    assert set(KNOWN_EFFECTS) == set(modelled_by("compiled", fx.PointEffect))
    assert set(KNOWN_CHOICES) == set(modelled_by("compiled")) & set(CHOICE_KINDS)


def test_the_pruned_enumeration_models_only_what_the_compiled_code_and_the_sweep_do() -> None:
    both = set(modelled_by("compiled")) & set(modelled_by("sweep"))
    assert set(modelled_by("pruned")) <= both


def test_python_enumeration_and_hill_climbing_model_every_kind() -> None:
    """They score with ``resolve``, which defines every kind."""
    assert set(modelled_by("python")) == set(EFFECT_ENGINES) == set(modelled_by("local"))


def test_an_unknown_engine_is_named() -> None:
    with pytest.raises(ValueError, match="unknown engine 'greedy'"):
        modelled_by("greedy")


def test_the_unsupported_of_every_engine_is_one_class_and_a_scorer_error() -> None:
    from fantasy_scorer.realms.solve import cpsat, sweep, sweep_tables
    from fantasy_scorer.realms.solve.batch import best, pruned, tables

    assert issubclass(Unsupported, ScorerError)
    for module in (cpsat, sweep, sweep_tables, best, pruned, tables):
        assert module.Unsupported is Unsupported, module.__name__




@pytest.fixture(scope="module")
def chameleon_game(tmp_path_factory):
    """The expansion with a homebrew card the sweep cannot bound (a copy from the game that
    takes a strength)."""
    f = tmp_path_factory.mktemp("homebrew") / "chameleon.yaml"
    f.write_text(CHAMELEON, encoding="utf-8")
    return load_catalog([f], "cursed-hoards")


def _refused_by_the_sweep(cat, pool) -> None:
    from fantasy_scorer.realms.solve.sweep import compile_bounds

    with pytest.raises(Unsupported):
        compile_bounds(cat, pool)


def test_max_answers_through_cp_sat_at_every_table_size_for_genie(chameleon_game) -> None:
    """Genie (-50, +10 per other player) required, with no number of players given: the best
    table is six players (+50). CP-SAT used to be asked with no players (Genie +0 in its
    model, which the evaluator then beat); it is now asked once per table size, and the
    answer is brute force's."""
    cat = chameleon_game
    genie = cat.card("Genie")
    pool = [cat.card(n) for n in ["Chameleon", "Genie", "Hydra", "Island", "Swamp",
                                  "Great Flood", "Water Elemental", "Mountain", "Knights"]]
    _refused_by_the_sweep(cat, pool)
    sol = max_hand(cat, with_=[genie], without=_only(pool, cat))
    brute = max(best_total(h, cat) for h in _legal_hands(pool, cat) if genie in h)
    assert sol.proven and genie in sol.hand.cards and sol.hand.players == 6
    assert sol.total == brute == resolve(sol.hand).total


def test_max_answers_through_cp_sat_with_a_cursed_item_held(chameleon_game) -> None:
    """A Cursed Item named used to end max with "max cannot search these cards" when the
    sweep refused a card; CP-SAT holds it beside the hand (C6)."""
    cat = chameleon_game
    pool = [cat.card(n) for n in ["Chameleon", "Hydra", "Island", "Swamp", "Great Flood",
                                  "Water Elemental", "Mountain", "Knights", "Candle"]]
    portal = cat.card("Portal")
    sol = max_hand(cat, with_=[portal], without=_only(pool, cat), players=4)
    assert sol.proven and portal in sol.hand.cursed
    assert sol.total == _brute_max(pool, cat, None, 4, (portal,)) == resolve(sol.hand).total


def test_max_answers_through_cp_sat_with_a_discard_area(chameleon_game) -> None:
    """Necromancer takes a card of the discard area given; Dark Queen reads it (C5)."""
    cat = chameleon_game
    pool = [cat.card(n) for n in ["Chameleon", "Necromancer", "Dark Queen", "Hydra",
                                  "Island", "Swamp", "Great Flood", "Water Elemental",
                                  "Knights"]]
    area = [cat.card(n) for n in ["Unicorn", "Rainstorm", "Basilisk"]]
    sol = max_hand(cat, without=_only(pool + area, cat), discard=area, players=3)
    assert sol.proven
    assert sol.total == _brute_max(pool, cat, area, 3) == resolve(sol.hand).total


def test_the_planner_picks_only_an_engine_that_takes_the_problem() -> None:
    """A homebrew pool the pruned search does not bound: whichever engine is cheapest, the
    one picked takes it, and its answer is the Python enumeration's."""
    pool = _unbounded_pool()
    problem = Problem(pool, HOME, table=Table(None, 3))
    engine = pick_engine(problem)
    assert engine.fits(problem) is None
    assert [s.total for s in best_hand(pool, HOME, top=2, players=3)] == \
        [s.total for s in best_hand(pool, HOME, top=2, players=3, method="python")]


def test_the_planner_leaves_cp_sat_out_when_told() -> None:
    pool = BASE.cards[:16]
    problem = Problem(pool, BASE)
    assert pick_engine(problem, cpsat=False).name != "cpsat"


def test_an_engine_asked_by_name_falls_back_when_it_refuses() -> None:
    """``--method pruned`` on a pool the bound does not cover is enumerated whole (compiled,
    else in Python), as before the engines had one interface."""
    pool = _unbounded_pool()
    problem = Problem(pool, HOME, table=Table(None, 3))
    assert engines.BEST_ENGINES["pruned"].fits(problem) is not None
    found = engines.run("pruned", problem)
    assert found.engine in ("compiled", "python")
    assert found.candidates[0].total == best_hand(pool, HOME, players=3,
                                                  method="python")[0].total


def test_cp_sat_is_not_left_out_with_cursed_items() -> None:
    """CP-SAT models the Cursed Items held (C6): asked by name it answers as the
    enumeration does, so the planner may pick it too."""
    exp = base_catalog("cursed-hoards")
    pool = [c for c in exp.suit_cards if c.id.startswith("CH")][:9]
    portal = (exp.card("Portal"),)
    problem = Problem(pool, exp, table=Table(None, 4, portal))
    assert engines.BEST_ENGINES["cpsat"].fits(problem) is None
    by_cpsat = best_hand(pool, exp, players=4, cursed=portal, method="cpsat")
    by_python = best_hand(pool, exp, players=4, cursed=portal, method="python")
    assert [s.total for s in by_cpsat] == [s.total for s in by_python]


# -- max's engines -----------------------------------------------------------------------------


class Unmodelled(fx.PointEffect):
    """A homebrew effect kind no engine has learnt (not in the registry)."""

    def value(self, view, me) -> int:
        return 3


def _with_unmodelled(card):
    from dataclasses import replace

    return replace(card, bonus=(Unmodelled(),))


def test_max_engines_are_the_ones_the_registry_names() -> None:
    assert set(MAX_ENGINES) == {"sweep", "cpsat", "local"} <= set(ENGINES)
    for name, engine in MAX_ENGINES.items():
        assert engine.name == name


@pytest.mark.parametrize("game", [(None, None), ("cursed-hoards", None),
                                  ("cursed-hoards", "deluxe")])
def test_every_max_engine_takes_every_shipped_game(game) -> None:
    """The registry says the sweep and CP-SAT model every effect kind of the shipped cards;
    so each takes the whole game, and the planner picks the sweep (the fast path)."""
    cat = base_catalog(*game)
    problem = MaxProblem(cat, list(cat.suit_cards))
    for engine in MAX_ENGINES.values():
        assert engine.fits(problem) is None, engine.name
    assert pick_max_engine(problem).name == "sweep"


def test_max_engines_refuse_a_kind_the_registry_does_not_name() -> None:
    """An effect kind outside the registry: the sweep and CP-SAT refuse it, naming it or its
    card; hill climbing scores through ``resolve`` and takes it; the planner says why it
    cannot search (one line, a ScorerError)."""
    assert Unmodelled not in EFFECT_ENGINES
    pool = [_with_unmodelled(BASE.card("Unicorn"))] + [
        c for c in BASE.suit_cards if c.name != "Unicorn"][:10]
    problem = MaxProblem(BASE, pool)
    assert "Unmodelled" in (MAX_ENGINES["sweep"].fits(problem) or "")
    assert "Unicorn" in (MAX_ENGINES["cpsat"].fits(problem) or "")
    assert MAX_ENGINES["local"].fits(problem) is None
    with pytest.raises(ScorerError, match="^max cannot search these cards: .*Unmodelled"):
        pick_max_engine(problem)


def test_the_max_planner_picks_cp_sat_for_what_the_sweep_cannot_bound() -> None:
    """Runesmith's run table is a ``Runs`` the registry gives both, but past the sweep's
    bound (a limit finer than a kind, refused by the sweep itself)."""
    problem = MaxProblem(HOME, _unbounded_pool(), players=3)
    assert "run table" in (MAX_ENGINES["sweep"].fits(problem) or "")
    assert pick_max_engine(problem).name == "cpsat"


def test_a_max_engine_asked_by_name_that_refuses_says_why() -> None:
    pool = _unbounded_pool()
    with pytest.raises(Unsupported, match="run table"):
        max_hand(HOME, without=_only(pool, HOME), players=3, method="sweep")
    with pytest.raises(ScorerError, match="unknown method 'greedy'"):
        max_hand(HOME, method="greedy")


@pytest.fixture(scope="module")
def angels_brute() -> int:
    return _brute_max([EXP.card(n) for n in ANGELS])


@pytest.mark.parametrize("method", ["auto", "sweep", "cpsat"])
def test_max_by_each_proving_engine_is_brute_forces(method, angels_brute) -> None:
    """Twelve expansion cards (Angel's protection, Demon's lonely cards, Leprechaun's 9th
    card): 495 hands of 8 and 220 of 9, every one scored by brute force."""
    pool = [EXP.card(n) for n in ANGELS]
    sol = max_hand(EXP, without=_only(pool), method=method)
    assert sol.proven
    assert sol.total == angels_brute == resolve(sol.hand).total


def test_max_by_hill_climbing_is_a_legal_hand_never_proven(angels_brute) -> None:
    pool = [EXP.card(n) for n in ANGELS]
    sol = max_hand(EXP, without=_only(pool), method="local")
    assert not sol.proven
    assert set(sol.hand.cards) <= set(pool)
    assert sol.total == resolve(sol.hand).total <= angels_brute


def test_max_by_each_engine_holds_the_required_cards() -> None:
    pool = [EXP.card(n) for n in ANGELS]
    demon = EXP.card("Demon")
    brute = max(best_total(h) for h in _legal_hands(pool, EXP) if demon in h)
    for method in ("sweep", "cpsat"):
        sol = max_hand(EXP, with_=[demon], without=_only(pool), method=method)
        assert sol.proven and demon in sol.hand.cards and sol.total == brute, method
    assert demon in max_hand(EXP, with_=[demon], without=_only(pool),
                             method="local").hand.cards
