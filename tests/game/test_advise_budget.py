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
