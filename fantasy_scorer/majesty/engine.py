"""The rules engine: game state, legal moves, applying a move, the game end.

State is kept compact for fast simulation: per player eight lists of card types (the stacks
at locations 1-7 and the Infirmary, most recent card last), meeples and points as ints, the
display as two parallel lists (cards, meeples on them) and the deck as a list with the top
card last. Nothing is deep-copied per move.

A `Move` says everything a player decides on a turn:

* ``take``  - the display position (0 = the front, free; position i costs i meeples);
* ``place`` - the location the card goes to (the chosen half of a split card);
* ``trade`` - side-B Castle only: ``+k`` turns k points into k meeples, ``-k`` turns k meeples
  into k points (net of any back-and-forth, which is all that matters);
* ``heal``  - where a healed *split* card returns (the half chosen again), ``-1`` otherwise.

Every location ability is resolved by one interpreter over the data in `rules`, used both to
play a move and (without changing anything) to price it for the greedy bot.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from .cards import HALVES, IN_BOX, card_name, setup_deck
from .rules import (
    ATTACK,
    BARRACKS,
    BONUS,
    CHARACTERS,
    EVERYONE,
    FULLEST,
    GUARDHOUSE,
    HEAL,
    INFIRMARY,
    LOCATIONS,
    MAX_MEEPLES,
    MAX_PLAYERS,
    MEEPLES,
    MIN_PLAYERS,
    POINTS,
    REALM_SIZE,
    START_MEEPLES,
    TRADE,
    Ability,
    locations_for,
    parse_side,
    side_label,
)
from .scoring import FinalScore, score


class Move(NamedTuple):
    """One turn's decisions (see the module docstring)."""

    take: int
    place: int
    trade: int = 0
    heal: int = -1


class IllegalMove(ValueError):
    """A move the rules do not allow; the message says why."""


class Game:
    """A game of Majesty in progress. Players move in list order, the first one starts."""

    __slots__ = (
        "names",
        "side",
        "n",
        "everyone_self",
        "abilities",
        "kinds",
        "stacks",
        "meeples",
        "points",
        "display",
        "display_meeples",
        "deck",
        "initial_deck",
        "current",
        "turn",
        "history",
        "seed",
        "all60",
    )

    def __init__(
        self,
        names: Sequence[str],
        side: str,
        deck: Sequence[int],
        everyone_self: bool = True,
    ) -> None:
        """Start a game with `deck` given top card first (the first card drawn is position 0).

        `everyone_self=False` is the variant in which "everyone with >= 1 X gains N" reaches
        only the opponents (ruling M1 includes the active player).
        """
        n = len(names)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise ValueError(f"Majesty is for 2-4 players, not {n}")
        if len(set(names)) != n:
            raise ValueError("player names must be different")
        if len(deck) < REALM_SIZE * n:
            raise ValueError(
                f"the deck has {len(deck)} cards but {n} players need {REALM_SIZE * n} "
                f"({REALM_SIZE} each)"
            )
        for card, count in sorted(Counter(deck).items()):
            if count > IN_BOX[card]:
                raise ValueError(
                    f"the deck has {count} {card_name(card)} cards but the box has only "
                    f"{IN_BOX[card]}"
                )
        self.names = tuple(names)
        self.side = parse_side(side)
        self.n = n
        self.everyone_self = everyone_self
        locations = locations_for(self.side)
        self.abilities: tuple[tuple[Ability, ...], ...] = tuple(
            loc.abilities for loc in locations
        )
        self.kinds = tuple(frozenset(a.kind for a in abil) for abil in self.abilities)
        self.stacks: list[list[list[int]]] = [[[] for _ in range(8)] for _ in range(n)]
        self.meeples = [START_MEEPLES] * n
        self.points = [0] * n
        self.initial_deck = tuple(deck)
        self.deck = list(reversed(deck))
        self.display: list[int] = []
        self.display_meeples: list[int] = []
        for _ in range(6):
            if self.deck:
                self.display.append(self.deck.pop())
                self.display_meeples.append(0)
        self.current = 0
        self.turn = 0
        self.history: list[Move] = []
        self.seed: int | None = None
        self.all60 = False

    @classmethod
    def new(
        cls,
        players: Sequence[str] | int,
        side: str = "A",
        seed: int | None = None,
        all60: bool = False,
        everyone_self: bool = True,
    ) -> Game:
        """A game with the seeded tier set-up (or all 60 cards shuffled, a variant)."""
        names = [f"P{i + 1}" for i in range(players)] if isinstance(players, int) else players
        if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            raise ValueError(f"Majesty is for 2-4 players, not {len(names)}")
        deck = setup_deck(len(names), random.Random(seed), all60)
        game = cls(names, side, deck, everyone_self)
        game.seed = seed
        game.all60 = all60
        return game

    # ----------------------------------------------------------------- queries

    @property
    def over(self) -> bool:
        """Every player has 12 characters (Infirmary included); each turn adds one card."""
        return self.turn >= REALM_SIZE * self.n

    def counts(self, player: int) -> list[int]:
        """Cards at locations 1-8 (index 7 = Infirmary)."""
        return [len(s) for s in self.stacks[player]]

    def realm_size(self, player: int) -> int:
        return sum(len(s) for s in self.stacks[player])

    def all_cards(self) -> list[int]:
        """Every card of the game wherever it is (for conservation checks)."""
        cards = list(self.deck) + list(self.display)
        for stacks in self.stacks:
            for s in stacks:
                cards.extend(s)
        return cards

    def legal_moves(self, all_trades: bool = False) -> list[Move]:
        """The legal moves of the active player.

        Side-B Castle trades are listed from "all meeples into points" up to buying meeples
        until 5; buying more is legal (`check` accepts it) but only turns back into the same
        points at the end of the turn, so it is listed only with `all_trades`.
        """
        if self.over:
            return []
        p = self.current
        m = self.meeples[p]
        infirmary = self.stacks[p][INFIRMARY]
        top = infirmary[-1] if infirmary else -1
        split_top = top >= 0 and len(HALVES[top]) == 2
        moves: list[Move] = []
        display = self.display
        on_card = self.display_meeples
        for i in range(min(len(display), m + 1)):
            for place in HALVES[display[i]]:
                kinds = self.kinds[place]
                if split_top and HEAL in kinds:
                    moves.extend(Move(i, place, 0, h) for h in HALVES[top])
                elif TRADE in kinds:
                    have = m - i + on_card[i]
                    pts = self.points[p]
                    hi = pts if all_trades else min(pts, max(0, MAX_MEEPLES - have))
                    moves.extend(Move(i, place, k) for k in range(-have, hi + 1))
                else:
                    moves.append(Move(i, place))
        return moves

    def check(self, move: Move) -> str | None:
        """Why `move` is illegal for the active player, or None if it is legal."""
        if self.over:
            return f"the game is over: every player has {REALM_SIZE} characters"
        p = self.current
        name = self.names[p]
        take, place, trade, heal = move
        if not 0 <= take < len(self.display):
            return f"position {take} is not in the display (positions 0-{len(self.display) - 1})"
        m = self.meeples[p]
        if take > m:
            return f"position {take} costs {take} meeples but {name} has {m}"
        card = self.display[take]
        if place not in HALVES[card]:
            halves = " or ".join(CHARACTERS[h] for h in HALVES[card])
            where = LOCATIONS[place] if 0 <= place < len(LOCATIONS) else str(place)
            return f"the {card_name(card)} card cannot go to the {where}: play it as {halves}"
        kinds = self.kinds[place]
        if trade:
            if TRADE not in kinds:
                return "a trade is only allowed when placing a Noble at a side-B castle"
            have = m - take + self.display_meeples[take]
            if trade > self.points[p]:
                return (
                    f"trading {trade} points for meeples needs {trade} points but {name} has "
                    f"{self.points[p]} (points never go below 0)"
                )
            if -trade > have:
                return (
                    f"trading {-trade} meeples for points needs {-trade} meeples but {name} "
                    f"has {have} at that moment"
                )
        infirmary = self.stacks[p][INFIRMARY]
        heals = HEAL in kinds and bool(infirmary)
        if not heals:
            if heal >= 0:
                return "nothing is healed on this move, so no healed half can be chosen"
            return None
        top = infirmary[-1]
        if heal >= 0 and heal not in HALVES[top]:
            halves = " or ".join(CHARACTERS[h] for h in HALVES[top])
            return f"the healed card is a {card_name(top)}: it returns as {halves}"
        if heal < 0 and len(HALVES[top]) == 2:
            halves = " or ".join(CHARACTERS[h] for h in HALVES[top])
            return f"the healed card is a {card_name(top)}: say which half it returns as ({halves})"
        return None

    def reveal(self, position: int, card: int) -> None:
        """Say which card lies at a display position, for a game written down at the table
        whose shuffled deck nobody knows: the replay deals from a stand-in deck of the right
        size and reveals each card just before it is taken, and reads no other display card
        (so the stand-in cards never matter)."""
        self.display[position] = card

    def gain(self, move: Move) -> int:
        """The active player's immediate points from `move` (nothing changes)."""
        return self._resolve(move, commit=False)

    # ----------------------------------------------------------------- playing

    def play(self, move: Move) -> None:
        """Apply `move` after checking it; raises IllegalMove with the reason."""
        reason = self.check(move)
        if reason is not None:
            raise IllegalMove(reason)
        self.apply(move)

    def apply(self, move: Move) -> None:
        """Apply a legal move (unchecked: use `play` for moves from outside)."""
        take = move[0]
        display = self.display
        on_card = self.display_meeples
        self._resolve(move, commit=True)
        for j in range(take):
            on_card[j] += 1
        del display[take]
        del on_card[take]
        if self.deck:
            display.append(self.deck.pop())
            on_card.append(0)
        self.history.append(move)
        self.turn += 1
        self.current = (self.current + 1) % self.n

    def _resolve(self, move: Move, commit: bool) -> int:
        """Resolve the active player's turn; returns the active player's points gained.

        Without `commit` only a private count vector changes (pricing a move); with it the
        card is placed, heals, attacks and other players' gains happen, and meeples and
        points are stored. The display is left to `apply`.
        """
        p = self.current
        take, place, trade, heal = move
        st = self.stacks[p]
        meeples = self.meeples[p] - take + self.display_meeples[take]
        counts = [len(s) for s in st]
        counts[place] += 1
        if commit:
            st[place].append(self.display[take])
        gained = 0
        for kind, amount, locs in self.abilities[place]:
            if kind == POINTS:
                for loc in locs:
                    gained += amount * counts[loc]
            elif kind == MEEPLES:
                for loc in locs:
                    meeples += amount * counts[loc]
            elif kind == EVERYONE:
                loc = locs[0]
                if self.everyone_self and counts[loc]:
                    gained += amount
                if commit:
                    for q in range(self.n):
                        if q != p and self.stacks[q][loc]:
                            self.points[q] += amount
            elif kind == HEAL:
                if counts[INFIRMARY]:
                    top = st[INFIRMARY][-1]
                    to = heal if heal >= 0 else HALVES[top][0]
                    counts[INFIRMARY] -= 1
                    counts[to] += 1
                    if commit:
                        st[to].append(st[INFIRMARY].pop())
            elif kind == TRADE:
                meeples += trade
                gained -= trade
            elif kind == BONUS:
                if all(counts[loc] for loc in locs):
                    gained += amount
            elif kind == FULLEST:
                gained += amount * counts[locs[0]] * max(counts[:INFIRMARY])
            elif kind == ATTACK and commit:
                self._attack(p, counts[BARRACKS])
        if meeples > MAX_MEEPLES:
            gained += meeples - MAX_MEEPLES
            meeples = MAX_MEEPLES
        if commit:
            self.points[p] += gained
            self.meeples[p] = meeples
        return gained

    def _attack(self, attacker: int, knights: int) -> None:
        """Each opponent with fewer Guards than `knights` loses their leftmost character."""
        for q in range(self.n):
            if q == attacker:
                continue
            victim = self.stacks[q]
            if len(victim[GUARDHOUSE]) < knights:
                for loc in range(INFIRMARY):
                    if victim[loc]:
                        victim[INFIRMARY].append(victim[loc].pop())
                        break

    # ----------------------------------------------------------------- the end

    def final_score(self, meeple_tiebreak: bool = False) -> FinalScore:
        """The final scoring of the realms as they are now (the game need not be over)."""
        return score(
            self.side,
            self.names,
            self.points,
            [self.counts(p) for p in range(self.n)],
            meeples=self.meeples,
            meeple_tiebreak=meeple_tiebreak,
        )

    def move_record(self, move: Move, player: int) -> dict[str, object]:
        """A move as a replay-log entry (see `fantasy_scorer.majesty.replay`)."""
        entry: dict[str, object] = {
            "player": self.names[player],
            "take": move.take,
            "half": CHARACTERS[move.place],
        }
        if move.trade:
            entry["trade"] = move.trade
        if move.heal >= 0:
            entry["heal"] = CHARACTERS[move.heal]
        return entry

    def log(self, explicit_deck: bool = False) -> dict[str, object]:
        """Everything needed to replay this game, in the replay-log format."""
        log: dict[str, object] = {"players": list(self.names), "side": side_label(self.side)}
        if self.seed is not None and not explicit_deck:
            log["seed"] = self.seed
            if self.all60:
                log["all60"] = True
        else:
            log["deck"] = [card_name(c) for c in self.initial_deck]
        if not self.everyone_self:
            log["everyone"] = "opponents"
        log["moves"] = [self.move_record(m, i % self.n) for i, m in enumerate(self.history)]
        return log
