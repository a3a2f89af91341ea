"""Replaying a game from a log: every move checked, points and meeples after every turn,
final scoring.

The log is YAML::

    players: [Ann, Bob]      # 2-4 players in turn order; the first one starts
    side: A                  # A, B or eight letters (mixed variant), as for scoring
    seed: 7                  # the deck from the seeded tier set-up ...
    # all60: true            # ... optionally with all 60 cards shuffled (variant)
    # deck: [Miller, Witch/Guard, ...]   # ... or an explicit deck instead, top card first;
    #                        # the first six cards form the display, the first at position 0
    # (neither seed nor deck: a game written down as it is played, see below)
    # everyone: opponents    # variant: "everyone with >= 1 X" excludes the active player
    # tiebreak: meeples      # variant: leftover meeples break a tie for the win
    moves:
      - {player: Ann, take: 0}               # the front card (free)
      - {player: Bob, take: 2, half: Witch}  # a split card played as its Witch half
      - {player: Ann, take: 1, heal: Guard}  # a healed split card returns as its Guard half
      - {player: Bob, take: 0, trade: 3}     # side-B castle: 3 points become 3 meeples
      - {player: Ann, take: 0, trade: -2}    # side-B castle: 2 meeples become 2 points
      - {player: Bob, take: 3, points: 17, meeples: 2}  # checks of the mover afterwards
      - {player: Ann, take: 2, card: Miller/Knight, half: Knight}  # the card taken

``take`` is the display position (0-5, position i costs i meeples). ``half`` is needed for a
split card and may be given for a single one. ``points`` and ``meeples`` check the mover's
totals after the move, ``card`` the card taken (either order of the halves).

A game at a real table can be written down as it is played, without knowing the shuffled
deck: leave out both ``seed`` and ``deck`` and name the card of every move. The revealed
cards are then the log's deck; each is checked against the box (and against its tier: the
top 6/14/26 cards are tier 1, unless ``all60: true``).

Every move is checked; the first illegal one (or a failed check) stops the replay with its
turn number and the reason. A log must play the game to its end (12 characters each) unless
replayed with ``--partial``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from .cards import HALVES, TIER1_DRAW, copies, setup_deck, tier_at
from .cards import card_name as _card_name
from .engine import Game, Move
from .gamefile import InputError, LogMove, ReplayLog
from .names import ENGLISH, character_name, location_name
from .rules import DISPLAY_SIZE, HEAL, INFIRMARY, REALM_SIZE
from .scoring import FinalScore


@dataclass
class Turn:
    """What one turn did, and everyone's points and meeples afterwards."""

    number: int
    player: str
    move: Move
    card: int
    healed: int  # the character healed, or -1
    attacked: list[tuple[str, int]]  # (opponent, the card sent to their infirmary)
    points: list[int]
    meeples: list[int]

    def describe(self, lang: str = ENGLISH) -> str:
        """A short text of the move (card, location, trade, heal, attacks)."""
        move = self.move
        text = f"takes {move.take}: {_card_name(self.card, lang)}"
        if len(HALVES[self.card]) == 2:
            text += f" as {character_name(move.place, lang)}"
        text += f" to the {location_name(move.place, lang)}"
        if move.trade > 0:
            text += f", trades {move.trade} points for meeples"
        elif move.trade < 0:
            text += f", trades {-move.trade} meeples for points"
        if self.healed >= 0:
            name = character_name(self.healed, lang)
            text += f", heals {'an' if name[0] in 'AEIOU' else 'a'} {name}"
        for victim, card in self.attacked:
            text += (
                f", sends {victim}'s {_card_name(card, lang)} to the "
                f"{location_name(INFIRMARY, lang)}"
            )
        return text

    @property
    def text(self) -> str:
        return self.describe()


class LogDeck:
    """The log's deck, top card first, as far as the replay knows it.

    The display is tracked by deck position: position i of the display holds the card dealt
    as `slots[i]`, the cards slide to the front and the back is refilled from the deck, as in
    `Game.apply`. For a seeded or explicit deck every card is known; for a log written as it
    is played (`ReplayLog.as_played`) a card becomes known when a move takes it.
    """

    def __init__(self, game: Game, log: ReplayLog) -> None:
        self.players = game.n
        self.all60 = log.all60
        self.as_played = log.as_played
        size = len(game.initial_deck)
        self.cards: list[int | None] = [None] * size if self.as_played else list(game.initial_deck)
        self.slots = list(range(min(DISPLAY_SIZE, size)))
        self.next = len(self.slots)

    def check(self, position: int, card: int) -> str | None:
        """Why `card` cannot be the one revealed at a display position (the box and the
        tiers), or None."""
        tier = tier_at(self.slots[position], self.players, self.all60)
        seen = 1 + sum(
            1
            for i, c in enumerate(self.cards)
            if c == card and tier_at(i, self.players, self.all60) == tier
        )
        have = copies(card, tier)
        if seen <= have:
            return None
        name = _card_name(card)
        if tier == 0:
            return (f"that would be {name} card number {seen} but the box has only {have}; "
                    "check card:")
        where = "the top" if tier == 1 else "below the top"
        return (
            f"that would be {name} card number {seen} of tier {tier} ({where} "
            f"{TIER1_DRAW[self.players]} cards of the deck) but tier {tier} has only {have}; "
            "check card:, or add all60: true if all 60 cards were shuffled together"
        )

    def take(self, position: int, card: int) -> None:
        """A move took `card` from a display position."""
        self.cards[self.slots.pop(position)] = card
        if self.next < len(self.cards):
            self.slots.append(self.next)
            self.next += 1


@dataclass
class Replay:
    game: Game
    turns: list[Turn] = field(default_factory=list)
    error: str | None = None
    final: FinalScore | None = None
    deck: list[int | None] = field(default_factory=list)  # the log's deck, top card first


def new_game(log: ReplayLog) -> Game:
    """The game a log starts from: seeded set-up, explicit deck, or (a log written as it is
    played) a stand-in deck of the set-up's size whose cards are revealed move by move."""
    try:
        if log.deck is not None:
            return Game(log.names, log.side, log.deck, log.everyone_self)
        if log.seed is not None:
            return Game.new(log.names, log.side, log.seed, log.all60, log.everyone_self)
        stand_in = setup_deck(len(log.names), random.Random(0), log.all60)
        return Game(log.names, log.side, stand_in, log.everyone_self)
    except ValueError as exc:
        raise InputError(str(exc)) from None


def to_move(game: Game, entry: LogMove, deck: LogDeck | None = None) -> Move | str:
    """The engine move a log entry stands for, or the reason it is illegal.

    With a `deck`, the entry's ``card`` is checked against the card at its position, or, for
    a log written as it is played, revealed there.
    """
    expected = game.names[game.current]
    if game.over:
        return f"the game is over: every player has {REALM_SIZE} characters"
    if entry.player != expected:
        return f"it is {expected}'s turn, not {entry.player}'s"
    if not 0 <= entry.take < len(game.display):
        return game.check(Move(entry.take, 0)) or "no such position"
    if entry.card is not None and deck is not None:
        if deck.as_played:
            reason = deck.check(entry.take, entry.card)
            if reason is not None:
                return reason
            game.reveal(entry.take, entry.card)
        elif game.display[entry.take] != entry.card:
            return (
                f"position {entry.take} holds the {_card_name(game.display[entry.take])} card, "
                f"not {_card_name(entry.card)}; check take: or card:"
            )
    card = game.display[entry.take]
    if entry.half is None:
        if len(HALVES[card]) == 2:
            halves = " or ".join(f"half: {character_name(h)}" for h in HALVES[card])
            return f"the {_card_name(card)} card is split: say which half is played ({halves})"
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


def mismatch(game: Game, p: int, entry: LogMove) -> str | None:
    """A failed ``points:`` or ``meeples:`` check of the mover after the move, or None."""
    name = game.names[p]
    for what, have, said in (
        ("points", game.points[p], entry.points),
        ("meeples", game.meeples[p], entry.meeples),
    ):
        if said is not None and have != said:
            return f"{name} has {have} {what} after the move but the log says {said}"
    return None


def replay(log: ReplayLog, partial: bool = False) -> Replay:
    """Play a log move by move; stops at the first illegal move with the reason."""
    game = new_game(log)
    deck = LogDeck(game, log)
    result = Replay(game, deck=deck.cards)
    for entry in log.moves:
        number = game.turn + 1
        move = to_move(game, entry, deck)
        if isinstance(move, str):
            result.error = f"turn {number} ({entry.player}): {move}"
            return result
        p = game.current
        card = game.display[move.take]
        before = [len(game.stacks[q][INFIRMARY]) for q in range(game.n)]
        healed = heals(game, move)
        deck.take(move.take, card)
        game.apply(move)
        attacked = [
            (name, game.stacks[q][INFIRMARY][-1])
            for q, name in enumerate(game.names)
            if q != p and len(game.stacks[q][INFIRMARY]) > before[q]
        ]
        result.turns.append(
            Turn(number, entry.player, move, card, healed, attacked,
                 list(game.points), list(game.meeples))
        )
        problem = mismatch(game, p, entry)
        if problem is not None:
            result.error = f"turn {number} ({entry.player}): {problem}"
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
