"""Replaying a game from a log: every move checked, points after every turn, final scoring.

The log is YAML::

    players: [Ann, Bob]      # 2-4 players in turn order; the first one starts
    side: A                  # A, B or eight letters (mixed variant), as for scoring
    seed: 7                  # the deck from the seeded tier set-up ...
    # all60: true            # ... optionally with all 60 cards shuffled (variant)
    # deck: [Miller, Witch/Guard, ...]   # ... or an explicit deck instead, top card first;
    #                        # the first six cards form the display, the first at position 0
    # everyone: opponents    # variant: "everyone with >= 1 X" excludes the active player
    # tiebreak: meeples      # variant: leftover meeples break a tie for the win
    moves:
      - {player: Ann, take: 0}               # the front card (free)
      - {player: Bob, take: 2, half: Witch}  # a split card played as its Witch half
      - {player: Ann, take: 1, heal: Guard}  # a healed split card returns as its Guard half
      - {player: Bob, take: 0, trade: 3}     # side-B castle: 3 points become 3 meeples
      - {player: Ann, take: 0, trade: -2}    # side-B castle: 2 meeples become 2 points
      - {player: Bob, take: 3, points: 17}   # optional check of the mover's points afterwards

``take`` is the display position (0-5, position i costs i meeples). ``half`` is needed for a
split card and may be given for a single one. Every move is checked; the first illegal one
(or a ``points`` mismatch) stops the replay with its turn number and the reason. A log must
play the game to its end (12 characters each) unless replayed with ``--partial``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import HALVES, card_name
from .engine import Game, Move
from .gamefile import InputError, LogMove, ReplayLog
from .rules import CHARACTERS, HEAL, INFIRMARY, LOCATIONS, REALM_SIZE
from .scoring import FinalScore


@dataclass
class Turn:
    """What one turn did, for the report."""

    number: int
    player: str
    text: str
    points: list[int]
    meeples: list[int]


@dataclass
class Replay:
    game: Game
    turns: list[Turn] = field(default_factory=list)
    error: str | None = None
    final: FinalScore | None = None


def new_game(log: ReplayLog) -> Game:
    """The game a log starts from: seeded set-up or explicit deck."""
    try:
        if log.deck is not None:
            return Game(log.names, log.side, log.deck, log.everyone_self)
        return Game.new(log.names, log.side, log.seed, log.all60, log.everyone_self)
    except ValueError as exc:
        raise InputError(str(exc)) from None


def to_move(game: Game, entry: LogMove) -> Move | str:
    """The engine move a log entry stands for, or the reason it is illegal."""
    expected = game.names[game.current]
    if game.over:
        return f"the game is over: every player has {REALM_SIZE} characters"
    if entry.player != expected:
        return f"it is {expected}'s turn, not {entry.player}'s"
    if not 0 <= entry.take < len(game.display):
        return game.check(Move(entry.take, 0)) or "no such position"
    card = game.display[entry.take]
    if entry.half is None:
        if len(HALVES[card]) == 2:
            halves = " or ".join(f"half: {CHARACTERS[h]}" for h in HALVES[card])
            return f"the {card_name(card)} card is split: say which half is played ({halves})"
        place = HALVES[card][0]
    else:
        place = entry.half
    heal = -1 if entry.heal is None else entry.heal
    move = Move(entry.take, place, entry.trade, heal)
    reason = game.check(move)
    return move if reason is None else reason


def heals(game: Game, move: Move) -> int:
    """The character a legal move heals (before it is applied), or -1."""
    infirmary = game.stacks[game.current][INFIRMARY]
    if HEAL not in game.kinds[move.place] or not infirmary:
        return -1
    return move.heal if move.heal >= 0 else HALVES[infirmary[-1]][0]


def describe(
    game: Game, player: int, move: Move, card: int, before: list[int], healed: int
) -> str:
    """A short text of what the move did (card, location, trade, heal, attacks)."""
    text = f"takes {move.take}: {card_name(card)}"
    if len(HALVES[card]) == 2:
        text += f" as {CHARACTERS[move.place]}"
    text += f" to the {LOCATIONS[move.place]}"
    if move.trade > 0:
        text += f", trades {move.trade} points for meeples"
    elif move.trade < 0:
        text += f", trades {-move.trade} meeples for points"
    if healed >= 0:
        name = CHARACTERS[healed]
        text += f", heals {'an' if name[0] in 'AEIOU' else 'a'} {name}"
    for q, name in enumerate(game.names):
        infirmary = game.stacks[q][INFIRMARY]
        if q != player and len(infirmary) > before[q]:
            text += f", sends {name}'s {card_name(infirmary[-1])} to the infirmary"
    return text


def replay(log: ReplayLog, partial: bool = False) -> Replay:
    """Play a log move by move; stops at the first illegal move with the reason."""
    game = new_game(log)
    result = Replay(game)
    for entry in log.moves:
        number = game.turn + 1
        move = to_move(game, entry)
        if isinstance(move, str):
            result.error = f"turn {number} ({entry.player}): {move}"
            return result
        p = game.current
        card = game.display[move.take]
        before = [len(game.stacks[q][INFIRMARY]) for q in range(game.n)]
        healed = heals(game, move)
        game.apply(move)
        result.turns.append(
            Turn(
                number,
                entry.player,
                describe(game, p, move, card, before, healed),
                list(game.points),
                list(game.meeples),
            )
        )
        if entry.points is not None and game.points[p] != entry.points:
            result.error = (
                f"turn {number} ({entry.player}): {entry.player} has {game.points[p]} points "
                f"after the move but the log says {entry.points}"
            )
            return result
    if not game.over and not partial:
        result.error = (
            f"the log ends after turn {game.turn} but the game lasts "
            f"{REALM_SIZE * game.n} turns (12 characters each); add the missing moves or "
            "use --partial"
        )
        return result
    result.final = game.final_score(meeple_tiebreak=log.meeple_tiebreak)
    return result
