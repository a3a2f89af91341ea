"""Running means with a 95% confidence interval, for advice and simulations."""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054  # the two-sided 95% quantile of the normal distribution


@dataclass
class Estimate:
    """The mean of samples seen one at a time (Welford's update), and its 95% interval
    by the normal approximation. An exact figure has ``exact`` set and no spread."""

    n: int = 0
    mean: float = 0.0
    _m2: float = 0.0
    exact: bool = False
    proportion: bool = False  # samples are 0 or 1: Wilson's interval, inside [0, 1]
    unit: bool = False  # samples lie in [0, 1]: the interval is clipped to it
    nonnegative: bool = False  # samples are never below 0 (a gift): nor is the interval

    @classmethod
    def of(cls, value: float) -> Estimate:
        """An exact value (no sampling)."""
        return cls(1, float(value), 0.0, True)

    def add(self, x: float) -> None:
        self.n += 1
        d = x - self.mean
        self.mean += d / self.n
        self._m2 += d * (x - self.mean)

    @property
    def sd(self) -> float:
        """The spread of the samples (0 for fewer than two)."""
        return math.sqrt(self._m2 / (self.n - 1)) if self.n > 1 else 0.0

    @property
    def se(self) -> float:
        """The standard error of the mean (infinite for fewer than two samples)."""
        return self.sd / math.sqrt(self.n) if self.n > 1 else math.inf

    @property
    def half_width(self) -> float:
        if self.exact or self.n == 0:
            return 0.0
        if self.n == 1:
            return math.inf
        return Z95 * self.sd / math.sqrt(self.n)

    @property
    def ci95(self) -> tuple[float, float]:
        if self.proportion and not self.exact and self.n:
            return wilson(self.mean, self.n)
        h = self.half_width
        if self.unit:
            return (max(0.0, self.mean - h), min(1.0, self.mean + h))
        if self.nonnegative:
            return (max(0.0, self.mean - h), self.mean + h)
        return (self.mean - h, self.mean + h)


#: Two-sided 99% quantiles of Student's t by degrees of freedom (the normal's beyond 30):
#: the margin by which racing drops an option on a few samples.
T99 = {1: 63.66, 2: 9.925, 3: 5.841, 4: 4.604, 5: 4.032, 6: 3.707, 7: 3.499, 8: 3.355,
       9: 3.250, 10: 3.169, 12: 3.055, 15: 2.947, 20: 2.845, 30: 2.750}


def t99(dof: int) -> float:
    if dof > 30:
        return 2.576
    return T99[max(k for k in T99 if k <= dof)]


def wilson(p: float, n: int) -> tuple[float, float]:
    """Wilson's 95% score interval for a proportion ``p`` seen over ``n`` trials."""
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(max(0.0, p * (1 - p)) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def share_interval(shares: list[float]) -> tuple[float, float]:
    """The 95% interval of a win share, the mean of per-game shares (each 0, 1/k or 1).

    Wilson's score interval with the variance p(1 - p) of a win-or-lose game: a share in
    [0, 1] with mean p varies at most that much, so the interval is never too narrow, and
    it stays inside [0, 1] even when a bot never (or always) wins.
    """
    if not shares:
        return (0.0, 1.0)
    return wilson(sum(shares) / len(shares), len(shares))
