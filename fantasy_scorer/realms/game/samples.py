"""How many samples an advisor bot draws per decision when it is given neither a number nor a
time budget (``fr-score simulate``). Apart from the bots so that the command line can say it
in ``--help`` without importing the game."""

from __future__ import annotations

#: Samples per advisor decision where none are given, by number of players, where more were
#: measured to pay: with four players, over the same 1,000 deals against greedy bots, 24
#: samples won 31.1%, 48 won 34.1%, 64 won 35.2% (``benchmarks/game.py wins --samples N``).
#: Every other table size keeps :data:`BASE_SAMPLES`, the count it was measured with.
SAMPLES = {4: 64}
BASE_SAMPLES = 24


def default_samples(players: int) -> int:
    """The samples per decision of an advisor given neither samples nor a time budget."""
    return SAMPLES.get(players, BASE_SAMPLES)
