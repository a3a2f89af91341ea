"""What a user types, turned into cards and suits.

Names match case-, accent- and spacing-insensitively (``doppelganger`` finds Doppelgänger), by
card id (``FR53``) and by the aliases the card files declare (``Animal`` = Beast,
``Book of Transfiguration`` = Book of Changes). An unknown name gets a "did you mean" hint.
"""

from __future__ import annotations

from .catalog import Card, Catalog, fold
from .errors import ScorerError


class Names:
    """Name lookup for one catalog."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.cards: dict[str, Card] = {}
        self.suits: dict[str, str] = {}
        self.spellings: list[str] = [c.name for c in catalog.cards]  # for "did you mean"
        for c in catalog.cards:
            self.cards[fold(c.name)] = c
            self.cards[fold(c.id)] = c
        for s in catalog.suits:
            self.suits[fold(s)] = s
        for alias, target in catalog.aliases.items():
            card = catalog.by_name.get(fold(target))
            if card is not None:
                self.cards.setdefault(alias, card)
                self.spellings.append(catalog.alias_spelling.get(alias, alias))
            elif fold(target) in self.suits:
                self.suits.setdefault(alias, self.suits[fold(target)])

    def card(self, text: str) -> Card:
        """The card a user means, or a one-line error with suggestions."""
        found = self.cards.get(fold(text))
        if found is None:
            hint = self.catalog.suggest(text, self.spellings)
            raise ScorerError(f"unknown card '{text.strip()}'{hint}")
        return found

    def suit(self, text: str) -> str:
        found = self.suits.get(fold(text))
        if found is None:
            raise ScorerError(
                f"unknown suit '{text.strip()}'"
                f"{self.catalog.suggest(text, self.catalog.suits)}"
            )
        return found
