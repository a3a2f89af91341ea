"""Training the value model of :mod:`.value` from games of greedy bots.

Each table size gets its own linear model. The positions: every hand a greedy player keeps
after a turn (its best 7 now, the discard area's and the deck's counts, and at the table
sizes of :data:`BANK_TABLES` its bank, :func:`.value.bank`), with the player's final
score in that game as the target. The weights are the ridge least-squares fit of
``final - now`` on the features of :func:`features` (:data:`RIDGE` keeps the weights of
rarely held cards small); the spread is the least-squares fit of the squared residuals on
the turns left, and what any hand gains (``others``) the fit of the gains on the basis
functions alone. At the table sizes of :data:`PAIR_TABLES` every pair of cards held is a
feature too: about 1,400 weights, fitted on ``--pair-games`` games (far more positions
than the other tables need) with the larger :data:`PAIR_RIDGE`.

Everything derives from the seed: game ``g`` of a table of ``p`` is dealt from the seed
``"train:{seed}:{p}:{g}"`` (the benchmarks play other seeds), greedy bots are
deterministic, and the fit is a fixed sequence of floating-point operations, so training
twice gives the same weights::

    python -m fantasy_scorer.realms.game.train --games 1000 --pair-games 5000 --seed 1 \\
        --out fantasy_scorer/realms/data/advice-value-base.json

Training uses NumPy; the model it writes is read in plain Python (:mod:`.value`).
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..catalog import Card, Catalog, base_catalog
from .bots import GreedyBot
from .engine import Game
from .scoring import Scorer
from .value import ValueModel, bank, basis, game_name, turns_left

#: The ridge penalty of the fit (on features whose scale is that of the turns left).
RIDGE = 1.0

#: The table sizes whose model has the bank among its features: two players, where only
#: the other player's turn passes before a card left in the discard area can be taken (the
#: only size it was measured at: docs/advice.md).
BANK_TABLES = (2,)

#: The table sizes whose model weighs every pair of cards held (times ``T``), and the ridge
#: of their fit. Measured with four players (docs/advice.md, the tenth step): on positions
#: of 500 held-out games the error fell from 27.1 to 26.5 points, and the advisor won more
#: games at 0.1 s and at 1 s (though the same pairs fitted on 10,000 games won no more than
#: the cards alone: how much a fit gains in games varies). With two players, pairs fitted
#: too, but won no more.
PAIR_TABLES = (4,)
PAIR_RIDGE = 100.0
#: The fit adds up its products this many positions at a time (a table of pairs would be
#: gigabytes at once).
FIT_CHUNK = 4096


@dataclass(frozen=True)
class Position:
    """A hand a player kept after a turn, and what it ended at."""

    hand: tuple[str, ...]  # card ids
    now: int  # its best 7 with the discard area of then
    area: int  # cards in the discard area after the turn
    deck: int  # cards in the deck after the turn
    final: int  # the player's final score
    bank: int = 0  # the most a card of the area (not the one just discarded) raises it


def positions(catalog: Catalog, players: int, games: int, seed: object,
              deck: Sequence[Card] | None = None) -> list[Position]:
    """Every hand kept by a greedy player in ``games`` games (seeds ``train:{seed}:...``)."""
    sc = Scorer(catalog, players)
    out: list[Position] = []
    for g in range(games):
        game = Game.deal(catalog, players, f"train:{seed}:{players}:{g}", deck)
        bots = [GreedyBot(random.Random(0), sc) for _ in range(players)]
        kept: list[tuple[int, tuple[str, ...], int, int, int, int]] = []
        while not game.over:
            seat = game.current
            bot = bots[seat]
            game.draw(bot.choose_draw(game.view()))
            game.discard(bot.choose_discard(game.view()))
            hand = tuple(game.hands[seat])
            area = tuple(game.area)
            now = sc.total(hand, area)
            banked = bank(sc.totals, hand, area, area[:-1]) if players in BANK_TABLES else 0
            kept.append((seat, tuple(c.id for c in hand), now, len(area), len(game.deck),
                         banked or 0))
        record = game.finish(sc)
        out += [Position(h, now, a, d, record.score(seat), bank)
                for seat, h, now, a, d, bank in kept]
    return out


def features(ids: Sequence[str], now: float, area: int, deck: int, players: int,
             column: dict[str, int], bank: float | None = None,
             pairs: dict[tuple[str, str], int] | None = None) -> list[float]:
    """The row of a position: per basis function its value and its value times
    ``now / 100``, then per card (``column``: card id -> index) the basis functions where the
    hand holds the card, then (unless ``bank`` is None) per basis function its value times
    ``bank / 10``, then (with ``pairs``: two card ids in order -> index) ``T`` where the hand
    holds both cards of the pair. (:meth:`.value.ValueModel.gain` is this row times the
    weights.)"""
    t = turns_left(area, deck, players)
    b = basis(t)
    row = [0.0] * (2 * len(b) + len(b) * len(column))
    if bank is not None:
        row += [g * bank / 10 for g in b]
    if pairs is not None:
        at = len(row)
        row += [0.0] * len(pairs)
        for pair in itertools.combinations(sorted(ids), 2):
            k = pairs.get(pair)
            if k is not None:
                row[at + k] = t
    for k, g in enumerate(b):
        row[2 * k] = g
        row[2 * k + 1] = g * now / 100
    for i in ids:
        at = column.get(i)
        if at is not None:
            for k, g in enumerate(b):
                row[2 * len(b) + len(b) * at + k] = g
    return row


def fit(pos: Sequence[Position], players: int, cards: Sequence[str]) -> tuple[ValueModel, dict]:
    """The ridge fit of the gains of ``pos`` and the fit of their spread; also how well it
    fits (positions, the residual's root mean square, the share of the gain's variance
    explained)."""
    import numpy as np

    column = {c: k for k, c in enumerate(cards)}
    banked = players in BANK_TABLES
    pairs = ({pr: k for k, pr in enumerate(itertools.combinations(sorted(cards), 2))}
             if players in PAIR_TABLES else None)

    def rows(part: Sequence[Position]):
        return np.array([features(p.hand, p.now, p.area, p.deck, players, column,
                                  p.bank if banked else None, pairs) for p in part],
                        dtype=np.float64)

    y = np.array([p.final - p.now for p in pos], dtype=np.float64)
    chunks = [slice(i, i + FIT_CHUNK) for i in range(0, len(pos), FIT_CHUNK)]
    width = len(rows(pos[:1])[0])
    xtx, xty = np.zeros((width, width)), np.zeros(width)
    for part in chunks:
        x = rows(pos[part])
        xtx += x.T @ x
        xty += x.T @ y[part]
    ridge = RIDGE if pairs is None else PAIR_RIDGE
    w = np.linalg.solve(xtx + ridge * np.eye(width), xty)
    r = np.concatenate([y[part] - rows(pos[part]) @ w for part in chunks])
    t = np.array([turns_left(p.area, p.deck, players) for p in pos])
    a = np.stack([np.ones_like(t), t], axis=1)
    spread = np.linalg.lstsq(a, r * r, rcond=None)[0]
    # what any hand gains, whatever its cards: the gains on the basis functions alone
    others = np.linalg.lstsq(np.array([basis(x) for x in t]), y, rcond=None)[0]
    nb = len(basis(1.0))
    model = ValueModel(
        players,
        tuple((round(float(w[2 * k]), 6), round(float(w[2 * k + 1]), 6)) for k in range(nb)),
        {c: tuple(round(float(w[2 * nb + nb * k + j]), 6) for j in range(nb))
         for c, k in column.items()},
        (round(float(spread[0]), 4), round(float(spread[1]), 4)),
        bank=(round(float(w[nb * (2 + len(column))]), 6),
              round(float(w[nb * (2 + len(column)) + 1]), 6)) if banked else (0.0, 0.0),
        pairs={} if pairs is None else _nonzero(pairs, w[width - len(pairs):]),
        others=(round(float(others[0]), 6), round(float(others[1]), 6)))
    var = float(np.var(y)) or 1.0
    rmse = round(float(np.sqrt(np.mean(r * r))), 2)
    quality = {"positions": len(pos), "rmse": rmse,
               "explained": round(1 - float(np.mean(r * r)) / var, 3)}
    return replace(model, rmse=rmse), quality


def _nonzero(pairs: dict[tuple[str, str], int], weights) -> dict[tuple[str, str], float]:
    """The pair weights that round (to 6 places) to something (a pair never held together
    in training has none: the file stays smaller)."""
    rounded = {pr: round(float(weights[k]), 6) for pr, k in pairs.items()}
    return {pr: v for pr, v in rounded.items() if v}


def train(catalog: Catalog, games: int, seed: object, tables: Sequence[int] = (2, 3, 4, 5, 6),
          deck: Sequence[Card] | None = None, log=None, pair_games: int | None = None) -> dict:
    """The weights file: per table size the model fitted on ``games`` greedy games, at the
    table sizes of :data:`PAIR_TABLES` on ``pair_games`` (``games`` if None)."""
    cards = sorted(c.id for c in (catalog.suit_cards if deck is None else deck))
    models, quality = {}, {}
    for players in tables:
        t0 = time.perf_counter()
        n = pair_games if pair_games is not None and players in PAIR_TABLES else games
        pos = positions(catalog, players, n, seed, deck)
        model, q = fit(pos, players, cards)
        models[str(players)] = model.to_json()
        quality[str(players)] = q
        if log is not None:
            log(f"{players} players: {q} ({time.perf_counter() - t0:.0f} s)")
    return {"game": game_name(catalog), "seed": str(seed), "games": games,
            "pair_games": {str(p): pair_games for p in PAIR_TABLES if p in tables
                           and pair_games is not None},
            "trained_by": "python -m fantasy_scorer.realms.game.train", "fit": quality,
            "models": models}


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000, help="greedy games per table size")
    ap.add_argument("--pair-games", type=int, default=5000,
                    help="greedy games for the table sizes whose model weighs pairs of cards")
    ap.add_argument("--seed", default="1")
    ap.add_argument("--players", default="2,3,4,5,6", help="table sizes, comma-separated")
    ap.add_argument("--out", default="-", help="the weights file (- for standard output)")
    args = ap.parse_args(argv)
    if args.games < 1 or args.pair_games < 1:
        ap.error("--games and --pair-games count games: give at least 1")
    tables = [int(p) for p in args.players.split(",")]
    data = train(base_catalog(), args.games, args.seed, tables,
                 log=lambda s: print(s, file=sys.stderr, flush=True),
                 pair_games=args.pair_games)
    text = json.dumps(data, indent=1, sort_keys=True) + "\n"
    if args.out == "-":
        sys.stdout.write(text)
    else:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)


if __name__ == "__main__":
    main()
