"""The whole game of Fantasy Realms, deterministic from a seed.

The rules (the game in one paragraph): shuffle, deal a hand to each of 2 to 6 players (7
cards; 8 with Cursed Hoards). A turn is a draw, the top card of the deck or any card of the
discard area, then a discard, face up, to the end of the discard area. The first player's
first draw is from the deck, since the discard area is still empty. The game ends at once
when the discard area holds 10 cards; it also ends after the turn that draws the deck's last
card (the player still discards). Every hand is then scored with its choices made optimally,
a Necromancer taking its best card from the final discard area (R13), and the table is
ranked by total, then by the lower printed strength (``realms.ranking``).

Cursed Hoards: hands of 8 and the expansion's cards. At the end, the holder of a card that
draws the deck's top card (Leprechaun) does so first, then the holder of a card that takes
any deck card (Genie, ``pick`` in its data) takes the one that scores best for it; no hand
exceeds the catalog's maximum (C4). Cursed Items are left out of the game: the engine deals
none and no card hands one out.

The engine checks every move; a bot that tries an illegal one raises :class:`IllegalMove`.
Players see the game only through a :class:`View`: their own hand, the discard area in
order, the number of cards in the deck and in each hand, and every turn so far (who took
which card from the discard area, who discarded what), never a hidden card.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ...errors import ScorerError
from ..catalog import Card, Catalog
from ..hand import MAX_DISCARD, Hand
from ..ranking import Standing
from ..solve.api import rank_hands
from .scoring import Scorer

MIN_PLAYERS, MAX_PLAYERS = 2, 6


#: Turns after which :func:`play` gives up on a game. The rules end a game only when the
#: discard area fills or the deck runs out, and a turn that takes from the discard area
#: advances neither: bots that always take would play for ever. Greedy bots cannot (each
#: take raises the taker's best 7); games of advisors have run to about a hundred turns.
MAX_TURNS = 1000


class IllegalMove(ValueError):
    """A bot tried a move the rules do not allow (a programming error, not a user's)."""


@dataclass(frozen=True)
class Turn:
    """One turn as every player saw it: ``taken`` is the card taken from the discard area
    (None: the player drew the deck's top card, which nobody else sees)."""

    seat: int
    taken: Card | None
    discarded: Card


@dataclass(frozen=True)
class View:
    """What the player at ``seat`` knows when deciding.

    ``drawn`` is set in the discard step: the card just drawn, already in ``hand``.
    """

    seat: int
    players: int
    catalog: Catalog
    hand: tuple[Card, ...]
    discard: tuple[Card, ...]  # the discard area, oldest card first
    deck_count: int
    hand_counts: tuple[int, ...]
    turns: tuple[Turn, ...]
    drawn: Card | None = None

    def taken(self, seat: int) -> tuple[Card, ...]:
        """Every card the player at ``seat`` took from the discard area, in order."""
        return tuple(t.taken for t in self.turns if t.seat == seat and t.taken is not None)

    def known(self, seat: int) -> tuple[Card, ...]:
        """The cards known to be in the hand at ``seat``: taken from the discard area and
        not discarded since."""
        held: list[Card] = []
        for t in self.turns:
            if t.seat != seat:
                continue
            if t.taken is not None:
                held.append(t.taken)
            if t.discarded in held:
                held.remove(t.discarded)
        return tuple(held)

    @property
    def unseen(self) -> tuple[Card, ...]:
        """Every card of the game that could be in the deck or hidden in another hand."""
        out = set(self.hand) | set(self.discard)
        for seat in range(self.players):
            if seat != self.seat:
                out |= set(self.known(seat))
        return tuple(c for c in self.catalog.suit_cards if c not in out)

    @property
    def last_turn(self) -> bool:
        """Whether this player's discard now ends the game (discard step only)."""
        return len(self.discard) + 1 >= MAX_DISCARD or self.deck_count == 0


@dataclass(frozen=True)
class GameRecord:
    """A finished game: the final hands (extra cards included), the discard area, every
    turn and the standings (one per seat, best first; the player of a standing is its seat
    number as text)."""

    seed: object
    players: int
    hands: tuple[tuple[Card, ...], ...]
    discard: tuple[Card, ...]
    turns: tuple[Turn, ...]
    standings: tuple[Standing, ...]
    deck_left: int

    def score(self, seat: int) -> int:
        return next(s.total for s in self.standings if s.player == str(seat))

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(int(s.player) for s in self.standings if s.rank == 1)

    def share(self, seat: int) -> float:
        """This seat's share of the win: 1 for a sole winner, 1/k for one of k winners."""
        won = self.winners
        return 1 / len(won) if seat in won else 0.0


@dataclass
class Game:
    """A game in progress; :meth:`draw` then :meth:`discard` make a turn.

    ``deck`` replaces the shuffled cards of the catalog (tests give small decks); it is
    shuffled too, from ``seed``.
    """

    catalog: Catalog
    players: int
    seed: object = None
    deck: list[Card] = field(default_factory=list)
    hands: list[list[Card]] = field(default_factory=list)
    area: list[Card] = field(default_factory=list)
    turns: list[Turn] = field(default_factory=list)
    current: int = 0
    drawn: Card | None = None  # set between a draw and its discard
    source: Card | None = None  # the discard-area card drawn (None: the deck's top card)
    over: bool = False

    @classmethod
    def deal(cls, catalog: Catalog, players: int, seed: object = None,
             deck: Sequence[Card] | None = None) -> Game:
        check_players(players)
        cards = list(catalog.suit_cards if deck is None else deck)
        size = catalog.hand_size
        if len(cards) < players * size + 1:
            raise ScorerError(f"{len(cards)} cards cannot deal {players} hands of {size} "
                              "and leave a deck")
        random.Random(seed).shuffle(cards)
        hands: list[list[Card]] = [[] for _ in range(players)]
        for _ in range(size):
            for hand in hands:
                hand.append(cards.pop())
        return cls(catalog, players, seed, cards, hands)

    def copy(self) -> Game:
        """A game in the same state that moves apart from this one (a fork: its deck, hands,
        discard area and turns are its own lists)."""
        return replace(self, deck=list(self.deck), hands=[list(h) for h in self.hands],
                       area=list(self.area), turns=list(self.turns))

    # -- what is legal ------------------------------------------------------------------------

    def legal_draws(self) -> list[Card | None]:
        """None (the deck's top card) while the deck has cards, then each discard-area card."""
        if self.over or self.drawn is not None:
            return []
        return ([None] if self.deck else []) + list(self.area)

    def legal_discards(self) -> list[Card]:
        if self.over or self.drawn is None:
            return []
        return list(self.hands[self.current])

    def view(self, seat: int | None = None) -> View:
        seat = self.current if seat is None else seat
        return View(seat, self.players, self.catalog, tuple(self.hands[seat]), tuple(self.area),
                    len(self.deck), tuple(len(h) for h in self.hands), tuple(self.turns),
                    self.drawn if seat == self.current else None)

    # -- moves ----------------------------------------------------------------------------

    def draw(self, source: Card | None) -> Card:
        """The current player draws: ``None`` for the deck's top card, or a card of the
        discard area. Returns the card drawn."""
        if self.over:
            raise IllegalMove("the game is over")
        if self.drawn is not None:
            raise IllegalMove("the player has drawn already; discard a card")
        if source is None:
            if not self.deck:
                raise IllegalMove("the deck is empty")
            card = self.deck.pop()
        else:
            if source not in self.area:
                raise IllegalMove(f"{source.name} is not in the discard area")
            self.area.remove(source)
            card = source
        self.hands[self.current].append(card)
        self.drawn = card
        self.source = source
        return card

    def discard(self, card: Card) -> None:
        """The current player discards ``card`` to the end of the discard area; the game ends
        when the area holds 10 cards or the deck is empty."""
        if self.over:
            raise IllegalMove("the game is over")
        if self.drawn is None:
            raise IllegalMove("draw first: a turn is a draw, then a discard")
        hand = self.hands[self.current]
        if card not in hand:
            raise IllegalMove(f"{card.name} is not in the hand")
        hand.remove(card)
        self.area.append(card)
        self.turns.append(Turn(self.current, self.source, card))
        self.drawn = None
        if len(self.area) >= MAX_DISCARD or not self.deck:
            self.over = True
        else:
            self.current = (self.current + 1) % self.players

    # -- the end ------------------------------------------------------------------------

    def finish(self, scorer: Scorer | None = None) -> GameRecord:
        """Score every hand and rank the table (the game must be over)."""
        if not self.over:
            raise IllegalMove("the game is not over")
        area = tuple(self.area)
        hands = [list(h) for h in self.hands]
        deck_extras(hands, list(self.deck), area, scorer or Scorer(self.catalog, self.players))
        seats = [(str(i), Hand(self.catalog, tuple(h), {}, area, self.players))
                 for i, h in enumerate(hands)]
        standings = tuple(rank_hands(seats))
        return GameRecord(self.seed, self.players, tuple(tuple(h) for h in hands), area,
                          tuple(self.turns), standings, len(self.deck))


def deck_extras(hands: list[list[Card]], deck: list[Card], area: Sequence[Card],
                scorer: Scorer) -> None:
    """The cards that come from the deck at game end (C4), added to ``hands`` and taken from
    ``deck`` (its top card last): first every card that draws the top card, then every card
    that picks the deck card scoring best for its holder (the topmost on a tie)."""
    limit = scorer.catalog.max_hand
    for pick in (False, True):
        for hand in hands:
            givers = [c for c in hand if c.extra is not None and c.extra.source == "deck"
                      and c.extra.pick == pick]
            for _ in givers:
                if not deck or (limit is not None and len(hand) >= limit):
                    break
                if pick:
                    best = max(range(len(deck) - 1, -1, -1),
                               key=lambda i: scorer.total(hand + [deck[i]], area))
                    hand.append(deck.pop(best))
                else:
                    hand.append(deck.pop())


def check_players(players: int) -> None:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ScorerError(f"{players} player{'s' if players != 1 else ''}: Fantasy Realms is "
                          f"played by {MIN_PLAYERS} to {MAX_PLAYERS}")


def play(game: Game, bots: Sequence, scorer: Scorer | None = None) -> GameRecord:
    """Let ``bots`` (one per seat, each with ``choose_draw`` and ``choose_discard``) play
    ``game`` to its end; every move is checked by the engine. ``scorer`` serves the end's
    choices of deck cards (a fresh one if not given)."""
    if len(bots) != game.players:
        raise ValueError(f"{len(bots)} bots for {game.players} seats")
    while not game.over:
        if len(game.turns) >= MAX_TURNS:
            raise ScorerError(
                f"game {game.seed!r}: {MAX_TURNS} turns without an end (the discard area "
                f"holds {len(game.area)} cards, the deck {len(game.deck)}): these bots take "
                "from the discard area for ever; the rules set no limit, so it is stopped "
                "here rather than scored")
        bot = bots[game.current]
        game.draw(bot.choose_draw(game.view()))
        game.discard(bot.choose_discard(game.view()))
    return game.finish(scorer)
