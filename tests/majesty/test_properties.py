"""Properties of random whole games (hypothesis): what the rules guarantee at every turn."""

import json
import random
import tempfile
from collections import Counter
from pathlib import Path

import yaml
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from fantasy_scorer.cli.majesty import main
from fantasy_scorer.majesty.bots import GreedyBot, RandomBot
from fantasy_scorer.majesty.cards import HALVES
from fantasy_scorer.majesty.engine import Game, Move
from fantasy_scorer.majesty.gamefile import parse_replay_log
from fantasy_scorer.majesty.replay import replay
from fantasy_scorer.majesty.rules import INFIRMARY, LOCATIONS, MAX_MEEPLES

sides = st.sampled_from(["A", "B"]) | st.text(alphabet="AB", min_size=8, max_size=8)
games = st.fixed_dictionaries(
    {
        "players": st.integers(2, 4),
        "side": sides,
        "seed": st.integers(0, 2**32),
        "all60": st.booleans(),
        "everyone_self": st.booleans(),
        "bots": st.lists(st.sampled_from([RandomBot, GreedyBot]), min_size=4, max_size=4),
    }
)


def new_game(spec) -> Game:
    return Game.new(spec["players"], spec["side"], spec["seed"], spec["all60"],
                    spec["everyone_self"])


def snapshot(game: Game):
    return (
        [[list(s) for s in stacks] for stacks in game.stacks],
        list(game.meeples),
        list(game.points),
        list(game.display),
        list(game.display_meeples),
        list(game.deck),
    )


def cli_final(game: Game):
    """`majesty-score --json` on the realms and points of a game."""
    data = {
        "side": game.side,
        "players": [
            {"name": name, "points": game.points[p],
             "realm": dict(zip(LOCATIONS, game.counts(p), strict=True))}
            for p, name in enumerate(game.names)
        ],
    }
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.yaml"
        path.write_text(yaml.safe_dump(data))
        result = CliRunner().invoke(main, [str(path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data.pop("file") == str(path)
    return data


@settings(max_examples=80, deadline=None)
@given(games)
def test_whole_game_invariants(spec):
    game = new_game(spec)
    rng = random.Random(spec["seed"])
    bots = [bot(rng) for bot in spec["bots"]]
    cards = Counter(game.initial_deck)
    while not game.over:
        p = game.current
        move = bots[p].choose(game)
        assert game.check(move) is None
        before = snapshot(game)
        gain = game.gain(move)
        assert snapshot(game) == before  # pricing a move changes nothing
        points = list(game.points)
        game.apply(move)
        assert Counter(game.all_cards()) == cards  # cards are conserved
        assert all(0 <= m <= MAX_MEEPLES for m in game.meeples)
        assert all(m >= 0 for m in game.display_meeples)
        assert game.points[p] - points[p] == gain
        for q in range(game.n):
            # points only fall through the side-B Castle trade (never below 0)
            floor = points[q] - (max(0, move.trade) if q == p else 0)
            assert game.points[q] >= max(0, floor)
        assert sum(game.realm_size(q) for q in range(game.n)) == game.turn
    assert [game.realm_size(q) for q in range(game.n)] == [12] * game.n
    assert game.turn == 12 * game.n
    final = game.final_score()
    for player in final.players:  # the Infirmary is the only loss at the end
        assert player.infirmary <= 0
        assert player.total - player.points - player.infirmary >= 0
    assert cli_final(game) == final.to_json()
    replayed = replay(parse_replay_log(game.log()))
    assert replayed.error is None
    assert replayed.final == final


def normalise(game: Game, move: Move) -> Move:
    """A heal named for a single card is the same move as leaving it out."""
    infirmary = game.stacks[game.current][INFIRMARY]
    if move.heal >= 0 and infirmary and len(HALVES[infirmary[-1]]) == 1:
        return move._replace(heal=-1)
    return move


@settings(max_examples=50, deadline=None)
@given(games, st.integers(0, 47))
def test_legal_moves_are_exactly_the_moves_check_accepts(spec, turns):
    game = new_game(spec)
    rng = random.Random(spec["seed"])
    while not game.over and game.turn < turns % (12 * game.n):
        game.apply(rng.choice(game.legal_moves()))
    p = game.current
    most = MAX_MEEPLES + max(game.display_meeples) + 2
    trades = set(range(-most, most + 1)) | {game.points[p], game.points[p] + 1}
    accepted = {
        normalise(game, Move(take, place, trade, heal))
        for take in range(-1, 8)
        for place in range(-1, 9)
        for heal in range(-1, 8)
        for trade in trades
        if game.check(Move(take, place, trade, heal)) is None
    }
    listed = {m for m in game.legal_moves(all_trades=True) if m.trade in trades}
    assert accepted == listed
    assert set(game.legal_moves()) <= set(game.legal_moves(all_trades=True))
    assert game.legal_moves()  # never stuck before the end


@settings(max_examples=50, deadline=None)
@given(games, st.integers(0, 47))
def test_listed_trades_cover_every_outcome(spec, turns):
    """Buying meeples beyond 5 ends in the same state as the largest listed trade."""
    game = new_game(spec)
    rng = random.Random(spec["seed"])
    while not game.over and game.turn < turns % (12 * game.n):
        game.apply(rng.choice(game.legal_moves()))
    outcomes = {}
    for move in game.legal_moves(all_trades=True):
        trial = Game(game.names, game.side, game.initial_deck, game.everyone_self)
        for old in game.history:
            trial.apply(old)
        trial.apply(move)
        outcomes.setdefault(snapshot(trial).__repr__(), set()).add(move)
    listed = set(game.legal_moves())
    assert all(moves & listed for moves in outcomes.values())

