"""The advice as data: one shape for ``fr-score advise --json`` and the page's ``/api/advise``.

The figures are the :class:`~.advice.Advice`'s own (means with their 95% intervals); only the
card names depend on who reads them, so the caller passes ``name`` (a card in its language).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..catalog import Card
from .advice import Advice
from .scoring import ILLEGAL
from .stats import Estimate


def estimate_json(est: Estimate, scale: float = 1.0) -> dict[str, Any] | None:
    """``{"mean", "ci95", "exact"}`` (``ci95`` None with one sample), None with no sample."""
    if est.n == 0:
        return None
    lo, hi = est.ci95
    return {"mean": est.mean * scale, "ci95": [lo * scale, hi * scale] if est.n > 1 else None,
            "exact": est.exact}


def breaks_written(option: Any) -> bool:
    """Whether an option leaves a hand that breaks a choice the player wrote (its total now
    is the scorer's ILLEGAL): the advice shows it without figures (issue 39)."""
    return option.now is not None and option.now <= ILLEGAL


def advice_json(advice: Advice, name: Callable[[Card], str], seed: str) -> dict[str, Any]:
    """The situation, every option with its figures (the recommended one first, also as
    ``recommended``), and the work done (samples, seconds, seed)."""
    sit = advice.situation

    def named(c: Card | None) -> str | None:
        return None if c is None else name(c)

    options = []
    for o in advice.options:
        if breaks_written(o):  # (issue 39) no figures: the hand it leaves is not legal
            options.append({
                "action": "discard", "take": named(o.take), "discard": named(o.discard),
                "take_id": None if o.take is None else o.take.id,
                "discard_id": None if o.discard is None else o.discard.id,
                "win": None, "expected_final": None, "improves": None, "now": None,
                "gift": None, "samples": o.samples, "exact": o.exact, "dropped": True,
                "greedy": o.greedy, "illegal": True,
            })
            continue
        options.append({
            "action": "deck" if o.deck else ("take" if o.take is not None else "discard"),
            "take": named(o.take), "discard": named(o.discard),
            "take_id": None if o.take is None else o.take.id,
            "discard_id": None if o.discard is None else o.discard.id,
            "win": estimate_json(o.win), "expected_final": estimate_json(o.final),
            "improves": estimate_json(o.improves),
            "now": o.now, "gift": estimate_json(o.gift), "samples": o.samples,
            "exact": o.exact, "dropped": not o.active, "greedy": o.greedy,
        })
    return {
        "phase": sit.phase, "players": sit.players,
        "hand": [name(c) for c in sit.hand], "discard": [name(c) for c in sit.area],
        "deck": sit.deck, "recommended": options[0], "options": options,
        "samples": advice.rounds, "seconds": advice.seconds, "seed": seed,
        "objective": advice.objective, "exact": advice.exact,
        "evaluation": "exact" if advice.exact else ("learned" if advice.learned
                                                    else "play-out"),
        "check": None if advice.check is None else {
            "worlds": advice.check.worlds, "promised": advice.check.promise,
            "played": advice.check.played, "posterior": advice.check.posterior,
            "kept": advice.check.kept},
    }
