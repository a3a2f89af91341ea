"""Hypothesis strategies: random legal hands (base game or Cursed Hoards) with random choices."""

from __future__ import annotations

from hypothesis import strategies as st

from fantasy_scorer.errors import ScorerError
from fantasy_scorer.realms import effects as fx
from fantasy_scorer.realms.catalog import Catalog, base_catalog
from fantasy_scorer.realms.hand import (
    Hand,
    change_options,
    copy_options,
    hand_limit,
    protect_options,
)
from fantasy_scorer.realms.resolve import run

CAT = base_catalog()
EXP = base_catalog("cursed-hoards")


def random_choices(draw, cards: list, catalog: Catalog) -> dict:
    choices: dict = {}
    for c in cards:
        eff = c.choice
        options: list = []
        if isinstance(eff, fx.Copy):
            options = copy_options(cards, catalog, c)
        elif isinstance(eff, fx.ChangeSuit):
            options = change_options(cards, catalog, c)
        elif isinstance(eff, fx.ClearOne):
            options = list(cards)
        elif isinstance(eff, fx.Protect):
            options = protect_options(cards, c)
        if eff is not None:
            choices[c.id] = draw(st.none() | st.sampled_from(options)) if options else None
    return choices


@st.composite
def hands(draw, catalog: Catalog = CAT, min_size: int = 1, max_size: int | None = None) -> Hand:
    """A legal hand with random choices; with an expansion catalog, also random Cursed Items,
    discard area and number of players."""
    playable = catalog.suit_cards
    size = max_size if max_size is not None else catalog.hand_size
    cards = draw(st.lists(st.sampled_from(playable), min_size=min_size, max_size=size,
                          unique_by=lambda c: c.id))
    cursed: list = []
    discard = None
    players = None
    if catalog is not CAT:
        cursed = draw(st.lists(st.sampled_from([c for c in catalog.cards if c.cursed]),
                               max_size=3, unique_by=lambda c: c.id))
        rest = [c for c in playable if c not in cards]
        discard = tuple(draw(st.lists(st.sampled_from(rest), max_size=10,
                                      unique_by=lambda c: c.id)))
        players = draw(st.integers(2, 6))
    if len(cards) == size and max_size is None:
        # Extra cards where the hand allows them (Necromancer, Leprechaun, Genie, Portal).
        room = hand_limit(cards, catalog, cursed) - len(cards)
        givers = [c for c in cards if c.extra is not None and c.extra.source == "discard"]
        for _ in range(draw(st.integers(0, room))):
            pool = [c for c in playable if c not in cards and (discard is None or c not in
                                                               discard)]
            if givers and not any(c is not g and c.suits & g.extra.suits
                                  for c in cards for g in givers):
                pool = [c for c in pool if c.suits & givers[0].extra.suits]
            cards.append(draw(st.sampled_from(pool)))
    choices = random_choices(draw, cards, catalog)
    try:
        hand = Hand(catalog, tuple(cards), choices, discard, players, tuple(cursed))
        run(hand.cards, hand.choices, catalog, hand.context)
    except ScorerError:  # e.g. an Island target that is not a Flood/Flame after step 2
        choices = {k: v for k, v in choices.items()
                   if not isinstance(catalog.by_id[k].choice, fx.ClearOne)}
        hand = Hand(catalog, tuple(cards), choices, discard, players, tuple(cursed))
    return hand


def random_pins(pool: list, catalog: Catalog, rnd, share: float, unassigned: float = 0.0
                ) -> dict:
    """Pins for some choice cards of ``pool`` (each pinned with chance ``share``: a copy's
    target, a change of suit, Island's card), and, with chance ``unassigned``, another choice
    pinned to nothing: the pinned choices a search must keep."""
    pinned: dict = {}
    for c in pool:
        if isinstance(c.choice, fx.Copy) and rnd.random() < share:
            options = (catalog.copy_targets(c.choice) if c.choice.source == "game"
                       else [t for t in pool if t is not c])
            pinned[c.id] = rnd.choice(options)
        elif isinstance(c.choice, fx.ChangeSuit) and rnd.random() < share:
            pinned[c.id] = (rnd.choice([t for t in pool if t is not c and not t.unchangeable]),
                            rnd.choice(catalog.suits))
        elif isinstance(c.choice, fx.ClearOne) and rnd.random() < share:
            pinned[c.id] = rnd.choice(pool)
        elif unassigned and c.choice is not None and rnd.random() < unassigned:
            pinned[c.id] = None
    return pinned
