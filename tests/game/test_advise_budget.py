"""``advise``'s budget is the user's (issue 35): it counts from the moment the question is read,
the answer says how many samples it drew, and says so in one line when it drew none (then the
recommendation is ``best``'s choice for the hand now, not a look ahead). No time is asserted:
the order of the readings is, and the words of the answer."""

from __future__ import annotations

import time

from fantasy_scorer.cli import advise as advise_cli

from ..conftest import run

HAND = "Knights, Queen, King, Swamp, Gem of Order, Hydra, Unicorn, Rainstorm"
NO_LOOK_AHEAD = "No look-ahead was done"


def test_the_budget_counts_from_the_moment_the_question_is_read(monkeypatch) -> None:
    seen: dict[str, float] = {}
    read = advise_cli._read_hand

    def reading(*args, **kwargs):
        got = read(*args, **kwargs)
        seen["read"] = time.perf_counter()
        return got

    def advising(sit, **kwargs):
        seen["started"] = kwargs["started"]
        raise SystemExit(0)  # the start is all this test needs

    import fantasy_scorer.realms.game.advice as advice_module

    monkeypatch.setattr(advise_cli, "_read_hand", reading)
    monkeypatch.setattr(advice_module, "advise", advising)
    run(["advise", HAND, "--players", "3"])
    assert seen["started"] >= seen["read"]  # not the process's start, nor the command's


def test_a_budget_spent_before_the_first_sample_says_no_look_ahead_was_done() -> None:
    r = run(["advise", HAND, "--players", "3", "--budget", "0.000001"])
    assert r.exit_code == 0, r.output
    said = [line for line in r.stdout.splitlines() if NO_LOOK_AHEAD in line]
    assert len(said) == 1
    assert "fr-score best's choice" in said[0] and "--budget" in said[0]
    assert "samples in" not in r.stdout


def test_the_answer_says_how_many_samples_it_drew() -> None:
    r = run(["advise", HAND, "--players", "3", "--samples", "3", "--budget", "3600"])
    assert r.exit_code == 0, r.output
    assert "\n3 samples in " in r.stdout
    assert NO_LOOK_AHEAD not in r.stdout


def _clocked(monkeypatch, first: float, then: float) -> list[float]:
    """A clock that stands still but for the samples: the first drawn takes ``first``
    seconds, each later one ``then``. Returns the list the start of each sample is put in."""
    import fantasy_scorer.realms.game.advice as advice_module

    now = [0.0]
    starts: list[float] = []
    drawn = advice_module.sample_world

    def sample_then_step(*args, **kwargs):
        starts.append(now[0])
        world = drawn(*args, **kwargs)
        now[0] += first if len(starts) == 1 else then
        return world

    monkeypatch.setattr(advice_module.time, "perf_counter", lambda: now[0])
    monkeypatch.setattr(advice_module, "sample_world", sample_then_step)
    return starts


def _slow_first_round(monkeypatch) -> None:
    """Every sample takes 100 s: the first round starts well within a budget of 1 s and is
    still running when the budget is spent (what a round of play-outs near the end, or a
    hand of many choices, does on a slow machine)."""
    _clocked(monkeypatch, 100.0, 100.0)


def _situation():
    from fantasy_scorer.realms.catalog import base_catalog
    from fantasy_scorer.realms.game.advice import Situation
    cat = base_catalog()
    return Situation(cat, 3, tuple(cat.card(n.strip()) for n in HAND.split(",")), ())


def test_a_first_sample_still_running_at_the_budget_is_dropped(monkeypatch) -> None:
    from fantasy_scorer.realms.game.advice import advise

    sit = _situation()
    _slow_first_round(monkeypatch)
    advice = advise(sit, seed=1, budget=1.0, started=0.0)
    assert advice.rounds == 0  # the answer came at the budget, not after the round
    assert advice.options[0].greedy  # and is best's choice for the hand now


def test_min_samples_are_drawn_whatever_the_budget(monkeypatch) -> None:
    from fantasy_scorer.realms.game.advice import advise

    sit = _situation()
    _slow_first_round(monkeypatch)
    advice = advise(sit, seed=1, budget=1.0, started=0.0, min_samples=2)
    assert advice.rounds == 2  # the page's few samples; none after them past the budget


def _asks(n: int):
    import random

    from fantasy_scorer.realms.catalog import base_catalog

    cat = base_catalog()
    rng = random.Random(n)
    out = []
    for _ in range(n):
        cards = rng.sample(cat.suit_cards, 10)
        out.append((tuple(cards[:7]), tuple(cards[7:])))
    return cat, out


def test_a_step_scored_in_chunks_gives_every_total_in_order() -> None:
    from fantasy_scorer.realms.game.advice import _scored
    from fantasy_scorer.realms.game.scoring import Scorer

    cat, asks = _asks(300)  # more than the first chunks (32, 64, 128 sets)
    whole = Scorer(cat, 2).totals(asks)
    assert _scored(Scorer(cat, 2), asks, deadline=float("inf")) == whole
    assert _scored(Scorer(cat, 2), asks) == whole


def test_a_step_still_running_at_the_deadline_stops_between_chunks(monkeypatch) -> None:
    import fantasy_scorer.realms.game.advice as advice_module
    from fantasy_scorer.realms.game.scoring import Scorer

    cat, asks = _asks(300)
    sc = Scorer(cat, 2)
    now = [0.0]
    scored: list[int] = []
    totals = sc.totals

    def slow_totals(part):
        scored.append(len(part))
        now[0] += 10.0  # every chunk takes 10 s
        return totals(part)

    monkeypatch.setattr(advice_module.time, "perf_counter", lambda: now[0])
    monkeypatch.setattr(sc, "totals", slow_totals)
    assert advice_module._scored(sc, asks, deadline=15.0) is None
    assert scored == [advice_module.SCORED_CHUNK] * 2  # two chunks begun before 15 s, no more


def test_rounds_start_while_the_budget_lasts_whatever_the_first_one_took(monkeypatch) -> None:
    """A first round that fills the memo may take half the budget, the next ones a hundredth
    of it: they are started until the budget's aim (``BUDGET_AIM``), not stopped because one
    as long as the first would end past it (what left the end's budget a fifth unused)."""
    import fantasy_scorer.realms.game.advice as advice_module

    starts = _clocked(monkeypatch, 0.5, 0.01)
    advice = advice_module.advise(_situation(), seed=1, budget=1.0, started=0.0)
    aim = advice_module.BUDGET_AIM
    assert advice.rounds == len(starts) > 2  # every round started was finished and counted
    assert max(starts) < aim <= max(starts) + 0.01 + 1e-9  # none past the aim, and up to it


def _near_the_end():
    """A 2-player decision near the end (6 cards in the discard area), where ``auto``
    plays the samples out."""
    from fantasy_scorer.realms.catalog import base_catalog
    from fantasy_scorer.realms.game.advice import Situation, _leaf_model
    from fantasy_scorer.realms.game.scoring import Scorer

    cat = base_catalog()
    hand = tuple(cat.card(n.strip()) for n in HAND.split(",")[:7])
    area = tuple(c for c in cat.suit_cards if c not in hand)[:6]
    sit = Situation(cat, 2, hand, area)
    assert _leaf_model(sit, "auto", Scorer(cat, 2)) is None  # played out, as the test needs
    return sit


def test_a_first_round_of_play_outs_past_half_the_budget_leaves_the_rest_to_the_model(
        monkeypatch) -> None:
    import fantasy_scorer.realms.game.advice as advice_module

    share = advice_module.FALLBACK_SHARE
    starts = _clocked(monkeypatch, share + 0.1, 0.01)
    advice = advice_module.advise(_near_the_end(), seed=1, budget=1.0, started=0.0)
    assert advice.learned  # the samples that count are the model's
    assert advice.rounds == len(starts) - 1 > 2  # the first round dropped, the next counted


def test_a_first_round_of_play_outs_within_half_the_budget_keeps_the_play_outs(
        monkeypatch) -> None:
    import fantasy_scorer.realms.game.advice as advice_module

    share = advice_module.FALLBACK_SHARE
    starts = _clocked(monkeypatch, share - 0.1, 0.01)
    advice = advice_module.advise(_near_the_end(), seed=1, budget=1.0, started=0.0)
    assert not advice.learned
    assert advice.rounds == len(starts) > 2
