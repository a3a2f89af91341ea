"""The small public API of ``import fantasy_scorer`` (totals from the rules' worked examples)."""

from __future__ import annotations

import pytest

import fantasy_scorer as fs

HAND_260 = ["Mountain", "Great Flood", "Smoke", "Whirlwind", "Air Elemental", "Wildfire",
            "Mirage"]


def test_score_makes_open_choices_optimally() -> None:
    # Worked example: Mirage as Rainstorm gives 260.
    assert fs.score(HAND_260).total == 260


def test_resolve_hand_leaves_an_open_choice_unassigned() -> None:
    # Without Rainstorm, Whirlwind loses its +40: 260 - 40 = 220; Mirage scores 0 either way,
    # but Wildfire blanks the unassigned Mirage (suit Wild is spared): Mirage stays 0.
    # Air Elemental loses one Weather: -15 → 205.
    assert fs.resolve_hand(HAND_260).total == 205


def test_a_choice_is_written_as_in_a_hand_file() -> None:
    assert fs.score([*HAND_260[:-1], "Mirage: Rainstorm"]).total == 260
    assert fs.score(["Basilisk", "Doppelgänger: Basilisk"]).total == 0  # worked example


def test_explain_adds_up_to_the_score() -> None:
    steps = fs.explain(["Water Elemental", "Doppelgänger: Water Elemental"])
    assert steps[-1].step == "total" and steps[-1].points == 23  # worked example, R11


def test_bad_input_is_a_scorer_error() -> None:
    with pytest.raises(fs.ScorerError, match="Basilik"):
        fs.score(["Basilik"])
