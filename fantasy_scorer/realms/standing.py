"""Where a total stands among all hands of the game: "better than 99.2% of all possible hands".

The census (``fr-score census``) counted every 7-card hand of the base game, for each edition,
by its total with optimal choices; the histograms ship in ``data/census-*.json`` (a few KB,
their command and checksum in ``docs/census.md``). For Cursed Hoards, whose hands are too many
for one machine, the data is a uniform sample, and the share comes with its 95% interval.

:func:`standing` is the one function every face calls (the score sheet, ``explain``, ``best``,
the JSON and the page): the share of the game's hands whose total is *lower* than the given
one, or None when no census of that game ships (homebrew cards, another hand size).
"""

from __future__ import annotations

import json
import math
from bisect import bisect_left
from dataclasses import dataclass
from functools import cache
from importlib import resources

from .catalog import Catalog, base_catalog, shipped_games
from .messages import Msg

#: z of a two-sided 95% interval.
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Standing:
    """The share of the hands below a total (0..1), with its 95% interval when sampled."""

    share: float
    low: float
    high: float
    sampled: bool

    @property
    def percent(self) -> float:
        """The share in percent, as the JSON gives it (``"percentile"``)."""
        return 100 * self.share

    def message(self) -> Msg:
        """The sentence: ``better than 99.2% of all possible hands`` (rounded down, so never
        "100%" while a hand scores more), and the interval of a sampled estimate."""
        if self.sampled:
            return Msg("standing.sampled", percent=_shown(self.share), low=_shown(self.low),
                       high=_shown(self.high))
        return Msg("standing.census", percent=_shown(self.share))

    def as_json(self) -> dict:
        out: dict = {"percentile": round(self.percent, 4)}
        if self.sampled:
            out["percentile_ci95"] = [round(100 * self.low, 4), round(100 * self.high, 4)]
        return out


def _shown(share: float) -> str:
    """A share in percent, rounded down: one decimal, two from 99.9% on (a 260 stands
    above 99.99% of the hands, which "99.9" would hide)."""
    places = 2 if share >= 0.999 else 1
    return f"{math.floor(share * 100 * 10 ** places) / 10 ** places:.{places}f}"


def wilson(k: int, n: int) -> tuple[float, float]:
    """The 95% Wilson interval of a proportion ``k / n``."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class Census:
    """A shipped census: totals in increasing order, and the hands at or below each."""

    totals: tuple[int, ...]
    cumulative: tuple[int, ...]
    counted: int
    sampled: bool

    def below(self, total: int) -> int:
        """How many counted hands score less than ``total``."""
        i = bisect_left(self.totals, total)
        return self.cumulative[i - 1] if i else 0

    def standing(self, total: int) -> Standing:
        k = self.below(total)
        share = k / self.counted
        if not self.sampled:
            return Standing(share, share, share, False)
        low, high = wilson(k, self.counted)
        return Standing(share, low, high, True)


def data_name(expansion: str | None, edition: str) -> str:
    """``census-base-standard.json``, ``census-cursed-hoards-deluxe.json``."""
    return f"census-{expansion or 'base'}-{edition}.json"


def read_census(text: str) -> Census:
    data = json.loads(text)
    hist = sorted((int(k), int(v)) for k, v in data["histogram"].items())
    running, cumulative = 0, []
    for _, v in hist:
        running += v
        cumulative.append(running)
    return Census(tuple(k for k, _ in hist), tuple(cumulative), running, "sample" in data)


@cache
def shipped_census(expansion: str | None, edition: str) -> Census | None:
    """The census shipped for a game, or None."""
    try:
        text = (resources.files("fantasy_scorer.realms.data") / data_name(expansion, edition)
                ).read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError):
        return None
    return read_census(text)


def game_of(catalog: Catalog) -> tuple[str | None, str] | None:
    """(expansion, edition) of a shipped catalog (the very object), or None (homebrew)."""
    for expansion, edition in shipped_games():
        if base_catalog(expansion, edition) is catalog:
            return expansion, edition
    return None


def standing(total: int, catalog: Catalog | None = None) -> Standing | None:
    """Where ``total`` stands among all hands of the catalog's game (the base game when
    none is given): None when no census ships for it."""
    game = game_of(catalog) if catalog is not None else (None, "standard")
    if game is None:
        return None
    census = shipped_census(*game)
    return None if census is None else census.standing(total)


def of_hand(total: int, cards: int, catalog: Catalog) -> Standing | None:
    """Where a finished hand of ``cards`` cards stands (None for a hand still short of the
    hand size: the census counts finished hands only)."""
    if cards < catalog.hand_size:
        return None
    return standing(total, catalog)
