"""What the advice assumes about the other players, measured in games of greedy bots.

Both tables come from ``python benchmarks/game.py greedy-table --games 150`` (150 games of
greedy bots for each number of players, seeds ``dist:0`` to ``dist:149``): how often a player
takes a card of the discard area rather than the deck's, and the spread of final scores.
They describe greedy players; at a real table they are a reasonable prior, no more.
(They were measured with an earlier greedy bot; today's run of the command gives the take
rates within 0.003 and the 5th to 100th percentiles within 9 points (the 0th, one lowest
score, by up to 36). They are kept as they were, since the advisor's measured win shares
were played with them.)
"""

from __future__ import annotations

from bisect import bisect_left

#: The share of turns on which a greedy player takes a card of the discard area.
TAKE_RATE = {2: 0.434, 3: 0.559, 4: 0.644, 5: 0.706, 6: 0.739}

#: Final scores of greedy players, the 0th, 5th, 10th, ... 100th percentiles.
GREEDY_SCORES = {
    2: (147, 157, 166, 170, 175, 182, 184, 187, 190, 193, 195, 198, 202, 206, 212, 215, 224,
        234, 252, 275, 354),
    3: (135, 159, 166, 171, 178, 182, 187, 190, 195, 198, 202, 207, 211, 216, 220, 229, 237,
        247, 256, 279, 380),
    4: (130, 160, 171, 176, 179, 183, 187, 189, 192, 198, 201, 204, 208, 213, 220, 228, 235,
        242, 254, 280, 380),
    5: (127, 163, 170, 176, 181, 186, 188, 192, 195, 199, 203, 206, 210, 216, 222, 229, 239,
        252, 266, 287, 385),
    6: (134, 164, 171, 176, 182, 186, 191, 194, 198, 201, 205, 209, 214, 220, 226, 233, 241,
        254, 271, 292, 356),
}


class WinModel:
    """The chance that a final score wins at a table of greedy players.

    Another player's final score is taken to be independent of mine and distributed as in
    :data:`GREEDY_SCORES` (interpolated between percentiles). The next player's score is
    raised by the gift my discard gives them.
    """

    def __init__(self, players: int) -> None:
        self.players = players
        self.q = GREEDY_SCORES[players]

    def below(self, x: float) -> float:
        """The chance that a greedy player ends below ``x``."""
        q = self.q
        if x <= q[0]:
            return 0.0
        if x > q[-1]:
            return 1.0
        i = bisect_left(q, x)  # q[i - 1] < x <= q[i]
        lo, hi = q[i - 1], q[i]
        step = 1 / (len(q) - 1)
        return (i - 1) * step + step * (x - lo) / (hi - lo)

    def win(self, final: float, gift: float = 0.0) -> float:
        """The chance that ``final`` beats every other player, the next one raised by
        ``gift``."""
        others = self.below(final) ** (self.players - 2)
        return others * self.below(final - gift)
