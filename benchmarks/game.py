"""The game engine's figures: greedy games per second, take rates, advice latency, win shares.

Run one of::

    python benchmarks/game.py greedy [--games 1000] [--players 4]
    python benchmarks/game.py greedy-table [--games 150]
    python benchmarks/game.py advise [--cases 40] [--budget 1.0] [--cli | --fresh]
    python benchmarks/game.py wins --players 4 --games 1000 [--samples 24] [--jobs 2]
    python benchmarks/game.py calibrate --players 4 [--games 40] [--samples 20]
    python benchmarks/game.py gift --players 4 [--games 40] [--samples 20]
    python benchmarks/game.py hands --players 2 [--games 20] [--samples 16]
    python benchmarks/game.py takers --players 4 [--games 60]
    python benchmarks/game.py others --players 4 [--games 40] [--samples 8]
    python benchmarks/game.py spread --players 4 [--games 300] [--samples 12]
    python benchmarks/game.py forks --players 4 [--games 500] [--rate 0.3] [--top 3]
    python benchmarks/game.py checks --players 4 [--games 80] [--budget 3] [--start 3000]

``calibrate`` checks the advice's play-outs against greedy games: at each discard of seat 0,
the play-outs of the greedy bot's own choice predict its final score; ``advise --fresh``
times the first ``advise`` call of a new process per decision, with the scorer made before
the call and without (the call then loads the compiled code); the mean prediction
is printed beside the mean actual score, by the player's turn. ``wins`` plays ``advisor``
against greedy bots and prints the advisor's win share with its 95%
interval (``--jobs`` splits the games over processes; the games are those of one seed either
way). Each command prints the machine's load (``os.getloadavg``) before and after: the
figures are wall-clock times on a shared machine. No test asserts any of them.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from common import load, percentiles, play_parts  # noqa: E402

from fantasy_scorer.realms.catalog import base_catalog  # noqa: E402
from fantasy_scorer.realms.game.advice import Situation, advise  # noqa: E402
from fantasy_scorer.realms.game.bots import GreedyBot  # noqa: E402
from fantasy_scorer.realms.game.engine import Game, play  # noqa: E402
from fantasy_scorer.realms.game.scoring import Scorer  # noqa: E402
from fantasy_scorer.realms.game.simulate import simulate  # noqa: E402


def bench_greedy(args: argparse.Namespace) -> None:
    cat = base_catalog()
    print(load())
    t0 = time.perf_counter()
    sim = simulate(cat, args.players, ["greedy"] * args.players, args.games, seed=args.seed)
    dt = time.perf_counter() - t0
    print(f"{args.games} {args.players}-player greedy games in {dt:.1f} s "
          f"({args.games / dt:.1f} games/s, {sim.mean_turns:.1f} turns a game)")
    print(load())


def bench_greedy_table(args: argparse.Namespace) -> None:
    """The tables of ``realms/game/model.py``: per number of players, the share of turns on
    which greedy bots take from the discard area, and the percentiles of their final scores
    (seeds ``dist:0`` ...); also how final scores grow with the turns a player played (the
    least-squares slope, and the mean score by turns played)."""
    cat = base_catalog()
    print(load())
    for players in range(2, 7):
        sc = Scorer(cat, players)
        takes = turns = 0
        scores: list[int] = []
        lengths: list[int] = []  # per player and game: the turns that player played
        for g in range(args.games):
            bots = [GreedyBot(random.Random(g), sc) for _ in range(players)]
            record = play(Game.deal(cat, players, f"dist:{g}"), bots, sc)
            turns += len(record.turns)
            takes += sum(1 for t in record.turns if t.taken is not None)
            for seat in range(players):
                scores.append(record.score(seat))
                lengths.append(sum(1 for t in record.turns if t.seat == seat))
        # the least-squares slope of a player's final score on the turns they played
        slope = statistics.linear_regression(lengths, scores).slope
        mean_turns = statistics.fmean(lengths)
        by_length: dict[int, list[int]] = {}
        for x, k in zip(scores, lengths, strict=True):
            by_length.setdefault(k, []).append(x)
        by_turns = {t: round(statistics.fmean(v)) for t, v in sorted(by_length.items())
                    if len(v) >= 20}
        scores.sort()
        n = len(scores)
        q = [scores[min(n - 1, round(p / 100 * (n - 1)))] for p in range(0, 101, 5)]
        print(f"{players} players: take rate {takes / turns:.3f}, {turns / args.games:.1f} "
              f"turns a game, {mean_turns:.2f} a player; {slope:.1f} points a turn played "
              f"(mean score by turns played, 20 players or more: {by_turns}); "
              f"score percentiles 0, 5, ... 100: {q}")
    print(load())


def situations(n: int, seed: int = 1) -> list[Situation]:
    """Mid-game decisions from greedy games: each is a turn of a random game, before or
    after the draw."""
    cat = base_catalog()
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        players = rng.randint(2, 6)
        sc = Scorer(cat, players)
        game = Game.deal(cat, players, f"cases:{len(out)}")
        bots = [GreedyBot(rng, sc) for _ in range(players)]
        stop = rng.randint(0, 14)
        for _ in range(stop):
            if game.over:
                break
            bot = bots[game.current]
            game.draw(bot.choose_draw(game.view()))
            game.discard(bot.choose_discard(game.view()))
        if game.over:
            continue
        if rng.random() < 0.5:
            game.draw(bots[game.current].choose_draw(game.view()))
        out.append(Situation.from_view(game.view()))
    return out


#: A new process's first call of ``advise`` (``advise --fresh``): the decision's cards by
#: name, the scorer made before the clock starts (argument "made") or by the call ("none").
FIRST_CALL = """
import sys, time, json
from fantasy_scorer.realms.catalog import base_catalog
from fantasy_scorer.realms.game.advice import Situation, advise
from fantasy_scorer.realms.game.scoring import Scorer
cat = base_catalog()
players, hand, area, budget, made = json.loads(sys.argv[1])
sit = Situation(cat, players, tuple(cat.by_id[c] for c in hand),
                tuple(cat.by_id[c] for c in area))
sc = Scorer(cat, players) if made else None
t0 = time.perf_counter()
a = advise(sit, budget=budget, scorer=sc)
print(json.dumps([time.perf_counter() - t0, a.rounds]))
"""


def _first_calls(cases: list[Situation], budget: float, made: bool) -> tuple[list, list]:
    times, rounds = [], []
    for sit in cases:
        arg = json.dumps([sit.players, [c.id for c in sit.hand], [c.id for c in sit.area],
                          budget, made])
        out = subprocess.run([sys.executable, "-c", FIRST_CALL, arg], capture_output=True,
                             text=True, check=True).stdout
        t, r = json.loads(out)
        times.append(t)
        rounds.append(r)
    return times, rounds


def bench_advise(args: argparse.Namespace) -> None:
    cases = situations(args.cases)
    print(load())
    if args.fresh:
        for made in (True, False):
            times, rounds = _first_calls(cases, args.budget, made)
            print(f"the first advise() of a new process, scorer "
                  f"{'made before the call' if made else 'made by the call'}, budget "
                  f"{args.budget} s, {len(times)} decisions: {percentiles(times)}; samples "
                  f"median {statistics.median(rounds):.0f}, over budget + 50 ms: "
                  f"{sum(t > args.budget + 0.05 for t in times)}")
        print(load())
        return
    times, rounds = [], []
    for sit in cases:
        if args.cli:
            cmd = [sys.executable, "-m", "fantasy_scorer.cli.main", "advise",
                   ", ".join(c.name for c in sit.hand), "--players", str(sit.players),
                   "--discard", ", ".join(c.name for c in sit.area), "--json",
                   "--budget", str(args.budget)]
            t0 = time.perf_counter()
            out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
            times.append(time.perf_counter() - t0)
            rounds.append(json.loads(out)["samples"])
        else:
            t0 = time.perf_counter()
            a = advise(sit, budget=args.budget)
            times.append(time.perf_counter() - t0)
            rounds.append(a.rounds)
    where = "fr-score advise (process start included)" if args.cli else "advise() in process"
    print(f"{where}, budget {args.budget} s, {len(times)} decisions: {percentiles(times)}; "
          f"samples median {statistics.median(rounds):.0f}")
    print(load())


def _part(job: tuple) -> dict:
    """Games ``start`` to ``start + games - 1``, played in chunks of 10 so that the running
    win share is printed as it goes (a long run stopped early still says what it found)."""
    games, start, players, samples, seed = job
    lineup = ["advisor"] + ["greedy"] * (players - 1)
    t0 = time.perf_counter()
    sim = None
    cat = base_catalog()
    sc = Scorer(cat, players)  # one memo for every chunk
    for at in range(start, start + games, 10):
        part = simulate(cat, players, lineup, min(10, start + games - at), seed, samples,
                        None, scorer=sc, start=at)
        sim = part if sim is None else sim.merge(part)
        shares = sim.bots[0].shares
        print(f"  games {start}-{at + len(part.turns) - 1}: advisor win share "
              f"{sum(shares) / len(shares):.3f} over {len(shares)} (wins {sum(shares):.2f}), "
              f"mean score "
              f"{statistics.fmean(sim.bots[0].scores):.1f} vs greedy "
              f"{statistics.fmean(x for b in sim.bots[1:] for x in b.scores):.1f}; "
              f"{time.perf_counter() - t0:.0f} s, {load()}", file=sys.stderr, flush=True)
    assert sim is not None
    return {"shares": [b.shares for b in sim.bots], "scores": [b.scores for b in sim.bots],
            "turns": sim.turns, "seconds": sim.seconds}


def greedy_games(cat, sc: Scorer, players: int, games: int, tag: str, at_discard):
    """Play ``games`` games of greedy bots (seeds ``tag:0`` ...); before each discard of seat
    0, call ``at_discard(g, turn, game, view, card)`` (``turn``: seat 0's discards so far in
    the game) with the card greedy discards; yield each finished game as (g, game)."""
    for g in range(games):
        game = Game.deal(cat, players, f"{tag}:{g}")
        bots = [GreedyBot(random.Random(g), sc) for _ in range(players)]
        turn = 0
        while not game.over:
            bot, seat = bots[game.current], game.current
            game.draw(bot.choose_draw(game.view()))
            view = game.view()
            out = bot.choose_discard(view)
            if seat == 0:
                at_discard(g, turn, game, view, out)
                turn += 1
            game.discard(out)
        yield g, game


def bench_calibrate(args: argparse.Namespace) -> None:
    from fantasy_scorer.realms.game.advice import Option, _lockstep, _one, sample_world

    cat = base_catalog()
    sc = Scorer(cat, args.players)
    print(load())
    by_turn: dict[int, list[tuple[float, int]]] = {}
    predicted: list[float] = []

    def predict(g: int, turn: int, game: Game, view, out) -> None:
        sit = Situation.from_view(view)
        rng = random.Random(f"calib:{g}:{len(game.turns)}")
        finals = [_lockstep(sc, [_one(sc, sit, sample_world(sc, sit, rng),
                                      Option(discard=out), sit.players == 2)])[0][0]
                  for _ in range(args.samples)]
        predicted.append(statistics.fmean(finals))

    for _, game in greedy_games(cat, sc, args.players, args.games, "calib", predict):
        final = game.finish(sc).score(0)
        for turn, p in enumerate(predicted):
            by_turn.setdefault(turn, []).append((p, final))
        predicted.clear()
    print(f"{args.players} players, {args.games} greedy games, {args.samples} play-outs per "
          "discard of seat 0: predicted vs actual final score")
    for turn, rows in sorted(by_turn.items()):
        pred = statistics.fmean(p for p, _ in rows)
        actual = statistics.fmean(a for _, a in rows)
        print(f"  turn {turn + 1:2d} ({len(rows):3d} games): predicted {pred:6.1f}, actual "
              f"{actual:6.1f}, bias {pred - actual:+5.1f}")
    print(load())


def bench_gift(args: argparse.Namespace) -> None:
    """The advice's gift against the real one, in greedy games: at each discard of seat 0,
    the gift the advice estimates for greedy's discard (the mean over sampled hands of the
    next player, as ``advise`` computes it) beside the gift to the next player's real hand
    (how much the card raises its best 7), by the player's turn."""
    from fantasy_scorer.realms.game.advice import World, gift, sample_world

    cat = base_catalog()
    sc = Scorer(cat, args.players)
    print(load())
    by_turn: dict[int, list[tuple[float, int]]] = {}

    def compare(g: int, turn: int, game: Game, view, out) -> None:
        sit = Situation.from_view(view)
        rng = random.Random(f"gift:{g}:{turn}")
        guess = statistics.fmean(gift(sc, sit, sample_world(sc, sit, rng), out)
                                 for _ in range(args.samples))
        real = World(tuple(game.hands[1 % args.players]), [], [], [])
        by_turn.setdefault(turn, []).append((guess, gift(sc, sit, real, out)))

    for _ in greedy_games(cat, sc, args.players, args.games, "gift", compare):
        pass
    rows = [r for v in by_turn.values() for r in v]
    print(f"{args.players} players, {args.games} greedy games, {args.samples} sampled hands "
          f"per discard of seat 0: the gift of greedy's discard, estimated vs real")
    for turn, part in sorted(by_turn.items()):
        print(f"  turn {turn + 1:2d} ({len(part):3d} games): estimated "
              f"{statistics.fmean(e for e, _ in part):5.1f}, real "
              f"{statistics.fmean(r for _, r in part):5.1f}, real > 0 in "
              f"{sum(1 for _, r in part if r > 0) / len(part):.0%}")
    print(f"  all {len(rows)} discards: estimated {statistics.fmean(e for e, _ in rows):.1f}, "
          f"real {statistics.fmean(r for _, r in rows):.1f}")
    print(load())


def bench_hands(args: argparse.Namespace) -> None:
    """How close the next player's sampled hands come to their real hand, in greedy games: at
    each discard of seat 0, over the sampled hands (as ``advise`` draws them), the cards they
    share with the real hand's unseen cards, their best 7 beside the real one (the mean bias
    and the correlation over discards), and the gift of every card of seat 0's hand, estimated
    (the mean over the samples) against the real one (the mean absolute error and the
    correlation). A quick measure of an inference of the other hand: the win shares it aims
    at take a thousand games to tell apart by three points."""
    from fantasy_scorer.realms.game.advice import World, gift, sample_world

    cat = base_catalog()
    sc = Scorer(cat, args.players)
    print(load())
    shared: list[float] = []
    hiding: list[int] = []  # the real hand's cards not known to me
    bests: list[tuple[float, int]] = []
    gifts: list[tuple[float, int]] = []

    def compare(g: int, turn: int, game: Game, view, out) -> None:
        sit = Situation.from_view(view)
        rng = random.Random(f"hands:{g}:{turn}")
        real = tuple(game.hands[1 % args.players])
        hidden = set(real) - set(sit.next_holds)
        worlds = [sample_world(sc, sit, rng) for _ in range(args.samples)]
        shared.append(statistics.fmean(len(hidden & set(w.next_hand)) for w in worlds))
        hiding.append(len(hidden))
        bests.append((statistics.fmean(sc.total(w.next_hand, sit.area) for w in worlds),
                      sc.total(real, sit.area)))
        truth = World(real, [], [], [])
        for c in sit.hand:
            gifts.append((statistics.fmean(gift(sc, sit, w, c) for w in worlds),
                          gift(sc, sit, truth, c)))

    for _ in greedy_games(cat, sc, args.players, args.games, "hands", compare):
        pass
    print(f"{args.players} players, {args.games} greedy games, {len(bests)} discards of seat 0, "
          f"{args.samples} sampled hands each")
    print(f"  cards shared with the real hand: {statistics.fmean(shared):.2f} of the "
          f"{statistics.fmean(hiding):.2f} it holds unseen")
    print(f"  best 7: sampled {statistics.fmean(e for e, _ in bests):.1f}, real "
          f"{statistics.fmean(r for _, r in bests):.1f}, correlation "
          f"{statistics.correlation([e for e, _ in bests], [r for _, r in bests]):.2f}")
    print(f"  gift of each card in hand: estimated {statistics.fmean(e for e, _ in gifts):.2f}, "
          f"real {statistics.fmean(r for _, r in gifts):.2f}, mean absolute error "
          f"{statistics.fmean(abs(e - r) for e, r in gifts):.2f}, correlation "
          f"{statistics.correlation([e for e, _ in gifts], [r for _, r in gifts]):.2f}")
    print(load())


def bench_takers(args: argparse.Namespace) -> None:
    """Who takes a discarded card, in greedy games: the share of discards taken by the next
    player, the one after, ..., and later than a round (the advice counts the next player's
    gift only)."""
    cat = base_catalog()
    sc = Scorer(cat, args.players)
    print(load())
    by: dict[str, int] = {}
    discards = 0
    for g in range(args.games):
        record = play(Game.deal(cat, args.players, f"takers:{g}"),
                      [GreedyBot(random.Random(g), sc) for _ in range(args.players)], sc)
        turns = record.turns
        discards += len(turns)
        for i, t in enumerate(turns):
            later = next((j - i for j in range(i + 1, len(turns))
                          if turns[j].taken is t.discarded), None)
            if later is not None:
                key = f"+{later}" if later < args.players else "later"
                by[key] = by.get(key, 0) + 1
    print(f"{args.players} players, {args.games} greedy games, {discards} discards taken by "
          "the player this many seats on: " + ", ".join(
              f"{k} {by.get(k, 0) / discards:.1%}"
              for k in [f"+{n}" for n in range(1, args.players)] + ["later"])
          + f"; never {1 - sum(by.values()) / discards:.1%}")
    print(load())


def bench_others(args: argparse.Namespace) -> None:
    """How well the public turns foretell another player's final score, in greedy games: at
    each discard of seat 0, for every other seat, a hand sampled as the advice samples the
    next player's (the cards they took and still hold, filled with unseen cards and kept as
    a greedy player keeps one, five offered per turn that drew) and valued by the learned
    model, against the mean of the greedy scores of ``model.py`` that the advice sets my
    score against. The root-mean-square errors of both, overall and by the cards known."""
    from fantasy_scorer.realms.game.advice import KEPT_STEPS, kept_hand
    from fantasy_scorer.realms.game.model import GREEDY_SCORES
    from fantasy_scorer.realms.game.value import shipped_model

    cat = base_catalog()
    players = args.players
    sc = Scorer(cat, players)
    leaf = shipped_model(cat, players)
    assert leaf is not None
    table = statistics.fmean(GREEDY_SCORES[players])
    print(load())
    pending: list[tuple[int, int, float]] = []  # this game's (seat, known cards, guess)
    rows: list[tuple[int, float, int]] = []  # (known cards, guess, final score)

    def guess(g: int, turn: int, game: Game, view, out) -> None:
        unseen = view.unseen  # (without my cards, the area's or any seat's known ones)
        rng = random.Random(f"others:{g}:{turn}")
        area = view.discard + (out,)
        for seat in range(1, players):
            known = view.known(seat)
            drew = sum(1 for t in view.turns if t.seat == seat) - len(known)
            hidden = cat.hand_size - len(known)
            values = []
            for _ in range(args.samples):
                pool = list(unseen)
                rng.shuffle(pool)
                hand = kept_hand(sc, known, pool[:hidden + KEPT_STEPS * max(0, drew)], hidden)
                values.append(leaf.final(hand, sc.total(hand, area), len(area), view.deck_count)[0])
            pending.append((seat, len(known), statistics.fmean(values)))

    for _, game in greedy_games(cat, sc, players, args.games, "others", guess):
        record = game.finish(sc)
        rows += [(known, value, record.score(seat)) for seat, known, value in pending]
        pending.clear()

    def rms(part, pick) -> float:
        return statistics.fmean((pick(r) - r[2]) ** 2 for r in part) ** 0.5

    print(f"{players} players, {args.games} greedy games, {len(rows)} (discard of seat 0, "
          f"other seat) pairs, {args.samples} sampled hands each: error of the final score")
    for name, part in [("all", rows)] + [(f"{n} known", [r for r in rows if r[0] == n])
                                         for n in range(3)] + [
            ("3+ known", [r for r in rows if r[0] >= 3])]:
        if part:
            print(f"  {name:9s} ({len(part):4d}): sampled hands valued "
                  f"{rms(part, lambda r: r[1]):5.1f}, the greedy table's mean ({table:.0f}) "
                  f"{rms(part, lambda r: table):5.1f}")
    print(load())


def _kept_value(leaf, sc: Scorer, game: Game, seat: int) -> tuple[float, float]:
    """The learned model's (expected final score, spread) of the hand ``seat`` holds in
    ``game`` between turns."""
    hand, area = tuple(game.hands[seat]), tuple(game.area)
    return leaf.final(hand, sc.total(hand, area), len(area), len(game.deck))


def bench_spread(args: argparse.Namespace) -> None:
    """The learned value on the advisor's own hands, in games of one advisor (at
    ``--samples`` samples a decision) against greedy bots: after each of its turns, the
    model's expected final score and spread for the hand it kept, against its real final
    score; beside them the same for the greedy player after it. By the turns left: the
    root-mean-square error, the model's mean spread and the mean error."""
    from fantasy_scorer.realms.game.bots import AdvisorBot
    from fantasy_scorer.realms.game.value import shipped_model, turns_left

    cat = base_catalog()
    players = args.players
    sc = Scorer(cat, players)
    leaf = shipped_model(cat, players)
    assert leaf is not None
    print(load())
    rows: dict[str, dict[int, list[tuple[float, float]]]] = {"advisor": {}, "greedy": {}}
    for g in range(args.games):
        game = Game.deal(cat, players, f"spread:{g}")
        me = g % players
        watch = {me: "advisor", (me + 1) % players: "greedy"}
        bots = [AdvisorBot(random.Random(f"spread:{g}"), sc, samples=args.samples) if s == me
                else GreedyBot(random.Random(g), sc) for s in range(players)]
        kept = []
        while not game.over:
            seat = game.current
            game.draw(bots[seat].choose_draw(game.view()))
            game.discard(bots[seat].choose_discard(game.view()))
            if seat in watch:
                mean, sd = _kept_value(leaf, sc, game, seat)
                kept.append((seat, turns_left(len(game.area), len(game.deck), players), mean,
                             sd))
        record = game.finish(sc)
        for seat, t, mean, sd in kept:
            rows[watch[seat]].setdefault(min(int(t), 5), []).append(
                (record.score(seat) - mean, sd))
    print(f"{players} players, {args.games} games of one advisor ({args.samples} samples) "
          "against greedy bots: the learned value of each kept hand against the final score")
    for who, by_t in rows.items():
        print(f"  {who}:")
        for t, part in sorted(by_t.items()):
            print(f"    turns left {t}{'+' if t == 5 else ' '} ({len(part):5d}): error "
                  f"{statistics.fmean(e * e for e, _ in part) ** 0.5:5.1f}, spread "
                  f"{statistics.fmean(s for _, s in part):5.1f}, mean error "
                  f"{statistics.fmean(e for e, _ in part):+5.1f}")
    print(load())


#: The ranges of the model's predicted advantage of a fork over greedy's move that
#: ``forks`` prints the real advantage of.
FORK_BINS = ((-100, -15), (-15, -10), (-10, -6), (-6, -3), (-3, 0), (0, 3), (3, 8), (8, 100))


def _fork_moves(sc: Scorer, game: Game, top: int) -> list[tuple]:
    """The ``top`` first of the player's draws other than greedy's, as (kind, card taken,
    card discarded): where greedy takes a card, the deck first (its discard left to
    greedy); then each card of the discard area with the two discards that best follow
    it, by the best 7 after the turn."""
    from fantasy_scorer.realms.game.policy import greedy_draw

    hand, area = tuple(game.hands[game.current]), tuple(game.area)
    taken = greedy_draw(sc, hand, area, bool(game.deck))
    out = None if taken is None else sc.best_keep(
        hand + (taken,), tuple(c for c in area if c is not taken))[1]
    moves = []
    for c in area:
        rest, held = tuple(x for x in area if x is not c), hand + (c,)
        discards = [d for d in held if d is not c]
        sets = [(tuple(x for x in held if x is not d), rest + (d,), (i,))
                for i, d in enumerate(discards)]  # a tie goes to the earlier discard
        moves += [(now, c, discards[i]) for now, i in sc.top(sets, 2)
                  if not (c is taken and discards[i] is out)]
    moves.sort(key=lambda m: -m[0])
    found = [("take", c, d) for _, c, d in moves]
    if taken is not None and game.deck:
        found.insert(0, ("deck", None, None))
    return found[:top]


def bench_forks(args: argparse.Namespace) -> None:
    """How much the learned value's preference for a move other than greedy's is worth. In
    greedy games, at a share ``--rate`` of turns, the game is forked: the player makes one
    of the ``--top`` best other moves (:func:`_fork_moves`; after a draw from the deck, one
    of the next best discards), then greedy bots play the fork to its end, with the deck in
    the same order as the game's. Per kind of move: the model's error on greedy's kept
    hand and on the fork's, and the fork's real advantage in final score (fork less
    greedy's game) against the model's predicted one, as a line and by ranges of the
    prediction (:data:`FORK_BINS`)."""
    from fantasy_scorer.realms.game.value import shipped_model

    cat = base_catalog()
    players = args.players
    sc = Scorer(cat, players)
    leaf = shipped_model(cat, players)
    assert leaf is not None
    greedy = GreedyBot(random.Random(0), sc)
    rng = random.Random("forks")

    print(load())
    rows: dict[str, list[tuple[float, int, float, int]]] = {"take": [], "deck": [],
                                                            "discard": []}  # and "all"
    for g in range(args.games):
        game = Game.deal(cat, players, f"forks:{g}")
        pending = []
        while not game.over:
            seat, branch = game.current, None
            if rng.random() < args.rate and (moves := _fork_moves(sc, game, args.top)):
                kind, take, out = rng.choice(moves)
                branch = game.copy()
                branch.draw(take)
                branch.discard(out or greedy.choose_discard(branch.view()))
            game.draw(greedy.choose_draw(game.view()))
            if branch is None and game.source is None and rng.random() < args.rate and (
                    keeps := sc.keeps(game.hands[seat], game.area)[1:1 + args.top]):
                kind, branch = "discard", game.copy()
                branch.discard(rng.choice(keeps)[1])
            forked = None
            if branch is not None:
                predicted = _kept_value(leaf, sc, branch, seat)[0]  # before it is played out
                forked = (kind, predicted, play(branch, [greedy] * players, sc).score(seat))
            game.discard(greedy.choose_discard(game.view()))
            if forked is not None:
                pending.append((*forked, seat, _kept_value(leaf, sc, game, seat)[0]))
        record = game.finish(sc)
        for kind, predicted, final, seat, mine in pending:
            rows[kind].append((predicted, final, mine, record.score(seat)))
    print(f"{players} players, {args.games} greedy games forked at {args.rate:.0%} of turns "
          f"(one of the {args.top} best other moves, played out by greedy bots): the model's "
          "predicted advantage of the fork over greedy's move, and the real one")
    rows["all"] = [r for part in rows.values() for r in part]
    for kind, part in rows.items():
        if not part:
            continue
        pred = [p - m for p, _, m, _ in part]
        real = [f - r for _, f, _, r in part]
        slope, icept = statistics.linear_regression(pred, real)
        print(f"  {kind} ({len(part)}): the model's mean error on greedy's hand "
              f"{statistics.fmean(r - m for _, _, m, r in part):+.1f}, on the fork's "
              f"{statistics.fmean(f - p for p, f, _, _ in part):+.1f}; real advantage = "
              f"{icept:+.2f} + {slope:.2f} x predicted")
        liked = [(p, r) for p, r in zip(pred, real, strict=True) if p > 0]
        if liked:
            print(f"    the model prefers the fork in {len(liked) / len(part):.0%}: predicted "
                  f"{statistics.fmean(p for p, _ in liked):+.2f}, real "
                  f"{statistics.fmean(r for _, r in liked):+.2f}")
        for lo, hi in FORK_BINS:
            got = [r for p, r in zip(pred, real, strict=True) if lo < p <= hi]
            if len(got) > 1:
                half = 1.96 * statistics.stdev(got) / len(got) ** 0.5
                print(f"    predicted in ({lo:+d}, {hi:+d}] ({len(got):5d}): real "
                      f"{statistics.fmean(got):+6.2f} +/- {half:.2f}")
    print(load())


def _note_check(bot, advisor, found: list) -> None:
    """Add to ``found`` the check of the decision ``bot`` just made, if it is the advisor's
    and its advice was checked."""
    if bot is advisor and advisor.last is not None and advisor.last.check:
        found.append(advisor.last.check)


def bench_checks(args: argparse.Namespace) -> None:
    """The check's prior (:data:`fantasy_scorer.realms.game.check.PRIORS`): in games of one
    advisor at ``--budget`` against greedy bots (deals ``heldout:{start}`` on), every check
    of the model's choice by play-outs: the model's promise, the worlds' mean paired
    difference and its spread. Fits the mean difference as a line in the promise
    (``a + b x``); ``tau``, the true advantage's spread around the line, is the residual
    variance less the worlds' own noise (their spread squared over their count);
    ``world_sd`` the root mean square of the spreads."""
    from fantasy_scorer.realms.game.bots import AdvisorBot

    cat = base_catalog()
    players = args.players
    sc = Scorer(cat, players)
    print(load())
    t0 = time.perf_counter()
    found = []
    for g in range(args.start, args.start + args.games):
        game = Game.deal(cat, players, f"heldout:{g}")
        me = g % players
        advisor = AdvisorBot(random.Random(f"checks:{g}"), sc, budget=args.budget)
        bots = [advisor if s == me else GreedyBot(random.Random(g), sc)
                for s in range(players)]
        while not game.over:
            bot = bots[game.current]
            game.draw(bot.choose_draw(game.view()))
            _note_check(bot, advisor, found)
            game.discard(bot.choose_discard(game.view()))
            _note_check(bot, advisor, found)
        print(f"  game {g}: {len(found)} checks, {time.perf_counter() - t0:.0f} s",
              file=sys.stderr, flush=True)
    done = [c for c in found if c.worlds > 1]
    if len(done) < 3:
        raise SystemExit("checks: fewer than 3 checks of 2 worlds or more; play more games "
                         "or give a larger --budget")
    promise = [c.promise for c in done]
    played = [c.played for c in done]
    b, a = statistics.linear_regression(promise, played)
    resid = statistics.variance([y - (a + b * x) for x, y in zip(promise, played,
                                                                 strict=True)])
    noise = statistics.fmean(c.spread ** 2 / c.worlds for c in done)
    world_sd = statistics.fmean(c.spread ** 2 for c in done) ** 0.5
    print(f"{players} players, {args.games} games of one advisor at {args.budget} s against "
          f"greedy bots (deals heldout:{args.start} on): {len(done)} checks, "
          f"{statistics.fmean(c.worlds for c in done):.0f} worlds each on average, "
          f"{sum(not c.kept for c in done)} overturned")
    print(f"  promise {statistics.fmean(promise):+.4f}, played {statistics.fmean(played):+.4f} "
          f"on average; played = {a:+.4f} + {b:.3f} x promise")
    print(f"  residual variance {resid:.4f}, the worlds' noise {noise:.4f}: tau "
          f"{max(0.0, resid - noise) ** 0.5:.4f}; world_sd {world_sd:.3f}; "
          f"{time.perf_counter() - t0:.0f} s wall")
    print(load())


def bench_wins(args: argparse.Namespace) -> None:
    from fantasy_scorer.realms.game.stats import share_interval

    print(load())
    t0 = time.perf_counter()
    every, scores = play_parts(_part, args.games, args.start, args.jobs, args.players,
                               args.samples, args.seed)
    shares = every[0]
    lo, hi = share_interval(shares)
    print(f"{args.players} players, advisor (samples {args.samples}) vs {args.players - 1} "
          f"greedy, {len(shares)} games (from game {args.start}), seed {args.seed}: win share "
          f"{sum(shares) / len(shares):.3f} [{lo:.3f}, {hi:.3f}] (fair {1 / args.players:.3f}); "
          f"mean score advisor {statistics.fmean(scores[0]):.1f}, greedy "
          f"{statistics.fmean(x for s in scores[1:] for x in s):.1f}; "
          f"{time.perf_counter() - t0:.0f} s wall")
    print(load())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    g = sub.add_parser("greedy")
    g.add_argument("--games", type=int, default=1000)
    g.add_argument("--players", type=int, default=4)
    g.add_argument("--seed", default="1")
    t = sub.add_parser("greedy-table")
    t.add_argument("--games", type=int, default=150)
    a = sub.add_parser("advise")
    a.add_argument("--cases", type=int, default=40)
    a.add_argument("--budget", type=float, default=1.0)
    a.add_argument("--cli", action="store_true")
    a.add_argument("--fresh", action="store_true",
                   help="time the first call of a new process per decision")
    w = sub.add_parser("wins")
    w.add_argument("--players", type=int, default=4)
    w.add_argument("--games", type=int, default=1000)
    w.add_argument("--samples", type=int, default=None)
    w.add_argument("--jobs", type=int, default=1)
    w.add_argument("--seed", default="1")
    w.add_argument("--start", type=int, default=0,
                   help="the first game's number (to continue a run stopped early)")
    c = sub.add_parser("calibrate")
    c.add_argument("--players", type=int, default=4)
    c.add_argument("--games", type=int, default=40)
    c.add_argument("--samples", type=int, default=20)
    f = sub.add_parser("gift")
    f.add_argument("--players", type=int, default=4)
    f.add_argument("--games", type=int, default=40)
    f.add_argument("--samples", type=int, default=20)
    h = sub.add_parser("hands")
    h.add_argument("--players", type=int, default=2)
    h.add_argument("--games", type=int, default=20)
    h.add_argument("--samples", type=int, default=16)
    k = sub.add_parser("takers")
    k.add_argument("--players", type=int, default=4)
    k.add_argument("--games", type=int, default=60)
    o = sub.add_parser("others")
    o.add_argument("--players", type=int, default=4)
    o.add_argument("--games", type=int, default=40)
    o.add_argument("--samples", type=int, default=8)
    p = sub.add_parser("spread")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=300)
    p.add_argument("--samples", type=int, default=12)
    x = sub.add_parser("forks")
    x.add_argument("--players", type=int, default=4)
    x.add_argument("--games", type=int, default=500)
    x.add_argument("--rate", type=float, default=0.3, help="the share of turns forked")
    x.add_argument("--top", type=int, default=3, help="forks among this many best moves")
    q = sub.add_parser("checks")
    q.add_argument("--players", type=int, default=4)
    q.add_argument("--games", type=int, default=80)
    q.add_argument("--budget", type=float, default=3.0)
    q.add_argument("--start", type=int, default=3000)
    args = ap.parse_args()
    {"greedy": bench_greedy, "greedy-table": bench_greedy_table, "advise": bench_advise,
     "wins": bench_wins, "calibrate": bench_calibrate, "gift": bench_gift,
     "hands": bench_hands, "takers": bench_takers, "others": bench_others,
     "spread": bench_spread, "forks": bench_forks, "checks": bench_checks}[args.what](args)


if __name__ == "__main__":
    main()
