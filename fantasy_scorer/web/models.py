"""The JSON API's request and response shapes (they are also its OpenAPI description).

Requests are strict: unknown keys are refused, and no value is coerced (``"optimize": "yes"``
and ``"players": "4"`` are 422s, not guesses). They are bounded (no list or string a hand
could not need), so a bad request is a 422 naming the field; what only the rules can judge (an
unknown card, a card twice, an illegal choice) is a 400 with the engine's own one-line message.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

Word = Annotated[str, StringConstraints(min_length=1, max_length=80)]
ChoiceText = Annotated[str, StringConstraints(max_length=160)]

EXAMPLE_CARDS = ["Mountain", "Great Flood", "Smoke", "Whirlwind", "Air Elemental", "Wildfire",
                 "Mirage"]


class PoolRequest(BaseModel):
    """Cards by name (any spelling the hand files accept) or id, the game, the table around
    the hand, and the language of the answer."""

    model_config = ConfigDict(extra="forbid", strict=True)

    cards: list[Word] = Field(max_length=20, examples=[EXAMPLE_CARDS],
                              description="Card names or ids (FR01…); each card once. Cursed "
                                          "Items may be listed here or under 'cursed'.")
    lang: Word = Field("en", description="Language of the answer: card names, messages and "
                                         "did-you-mean (en, de, fr, es, pt, pl, cz, ru, ua, "
                                         "kr, zh).")
    expansion: Word | None = Field(None, description="'cursed-hoards', or 'none' for the base "
                                                     "game; omitted: the server's game.")
    edition: Word | None = Field(None, description="'deluxe' or 'standard'; omitted: the "
                                                   "server's.")
    cursed: list[Word] = Field(default_factory=list, max_length=30,
                               description="The Cursed Items the player holds (Cursed Hoards).")
    discard: list[Word] | None = Field(None, max_length=20, description=(
        "The discard area (at most 10 cards): read by Dark Queen, Ghoul, Specter and Death "
        "Knight (C5); Necromancer's extra card is taken from it (R13). Omitted: not given."))
    players: int | None = Field(None, description="Number of players, 2 to 6 (Genie, Spyglass).")


class HandRequest(PoolRequest):
    """A hand and the choices pinned by the player; the other choices are chosen optimally."""

    choices: dict[Word, ChoiceText | None] = Field(
        default_factory=dict, max_length=20,
        examples=[{"Mirage": "Rainstorm"}],
        description=(
            "Pinned choices, keyed by the choosing card: a card for a copy or Island "
            "('Basilisk', 'FR37'), 'CARD -> SUIT' for Book of Changes, 'none' to leave it "
            "unassigned; null or 'optimal' leaves it to the optimizer."
        ),
    )
    optimize: bool = Field(True, description="Choose the unpinned choices (and Necromancer's "
                                             "extra card) optimally.")


class Error(BaseModel):
    """Every error answer (4xx, and 503 when the solver is busy): one line saying what is
    wrong and how to fix it."""

    detail: str = Field(examples=["unknown card 'Montain' (did you mean 'Mountain'?)"])


class CardLine(BaseModel):
    id: str
    name: str
    label: str = Field(description="The name in the requested language.")
    as_: str = Field(alias="as", description="The name it scores as (a copy's target).")
    as_label: str = Field(description="That name in the requested language.")
    suit: str
    suit_label: str = Field(description="The suits in the requested language.")
    base: int
    bonus: int
    penalty: int
    points: int
    blanked: bool
    cleared: bool
    status: str = Field(description="Why it is blanked, kept or cleared, in the language.")
    reasons: list[dict[str, Any]] = Field(
        default_factory=list,
        description="The same reasons as data: {key, args}, keys of the message files.")
    cursed: bool = Field(description="A Cursed Item, scored beside the hand.")
    extra: bool = Field(description="Taken from the discard area by the optimizer "
                                    "(Necromancer's extra card).")


class Option(BaseModel):
    value: str = Field(description="What to send in 'choices' to pin this option.")
    label: str


class Chooser(BaseModel):
    id: str
    name: str
    label: str
    pinned: str | None = Field(description="The pinned choice, or null when not pinned.")
    used: str | None = Field(description="The choice the score uses.")
    chosen_by: str = Field(description="'you', 'optimizer', or 'nobody' (left unassigned).")
    options: list[Option]


class Share(BaseModel):
    code: str = Field(description="The web scorer's share code (every card, '+', the "
                                  "choices), e.g. 'FR21,FR45,FR13+'.")
    query: str = Field(description="The query of that scorer's page link: expansions, "
                                   "playerCount, hand, discard.")


class ScoreResponse(BaseModel):
    total: int
    cards: list[CardLine]
    choices: dict[str, str | None]
    optimized: bool = Field(description="The unpinned choices were chosen by the optimizer.")
    proven: bool | None = Field(None, description="The optimizer proved its choices best.")
    code: str = Field(description="The page's code of the cards and pinned choices "
                                  "(this tool's ids; 'ID:none' for a choice left unassigned).")
    share: Share
    choosers: list[Chooser]
    as_written: int | None = Field(None, description=(
        "The total as written, the open choices unassigned (as the web scorer counts it), "
        "when it differs from the total; null when it does not differ or is no legal hand."))
    percentile: float | None = Field(None, description=(
        "The share of all possible hands of the game scoring less, in percent (the census); "
        "null for homebrew cards or a short hand."))
    percentile_ci95: list[float] | None = Field(None, description=(
        "The 95% interval of a percentile estimated from a sample (Cursed Hoards)."))
    standing: str | None = Field(None, description=(
        "The percentile as the page says it: 'better than 99.99% of all possible hands'."))


class CardName(BaseModel):
    id: str
    name: str
    label: str


class DiscardAdvice(BaseModel):
    id: str
    name: str
    label: str
    total: int = Field(description="The total of the hand left.")
    optimized: bool
    proven: bool | None
    code: str
    choices: dict[str, str]
    as_written: int | None = Field(None, description=(
        "The total with only the choices the player wrote (null when it equals total)."))


class IllegalDiscard(BaseModel):
    id: str
    name: str
    label: str
    reason: str = Field(description="Why keeping the other cards breaks a written choice.")


class BestResponse(BaseModel):
    optimized: bool
    complete: bool = Field(description="Every discard was searched (false: the time limit "
                                       "stopped the search; the discards it reached are "
                                       "listed, each exact).")
    code: str
    share: Share
    discards: list[DiscardAdvice] = Field(description="Every discard, best first.")
    missing: list[CardName] = Field([], description=(
        "The discards the time limit kept the search from (empty when complete)."))
    illegal: list[IllegalDiscard] = Field([], description=(
        "The discards reached that leave no legal hand: the cards kept break a choice the "
        "player wrote (the card it names is discarded, say)."))


class Figure(BaseModel):
    mean: float
    ci95: list[float] | None = Field(description="The 95% interval (null with one sample).")
    exact: bool


class AheadOption(BaseModel):
    id: str = Field(description="The card discarded.")
    label: str
    win: Figure | None = Field(description="The chance of winning (0 to 1).")
    expected_final: Figure | None = Field(description="The expected final score.")
    improves: Figure | None = Field(description="The chance that the final score beats "
                                                "the best hand now.")
    now: int | None = Field(description="The best hand's total if the game ended now.")
    gift: Figure | None = Field(description="How much the card raises the next player's "
                                            "best hand.")
    samples: int
    exact: bool
    dropped: bool = Field(description="Sampling stopped early: clearly worse.")
    greedy: bool = Field(description="The discard greedy play (fr-score best) would make.")
    win_text: str = Field(description="The chance of winning as the page shows it ('34%').")
    final_text: str = Field(description="The expected final score as shown ('187.2').")
    gift_text: str = Field(description="The gift as shown ('5.1'; '–' when none).")


class AdviseResponse(BaseModel):
    players: int
    deck: int = Field(description="Cards left in the deck.")
    samples: int = Field(description="Samples drawn (each option at most one per sample).")
    seconds: float
    exact: bool = Field(description="The discard ends the game: every figure is exact.")
    objective: str
    evaluation: str = Field(description=(
        "What ends a sample: 'play-out' (the game played to its end), 'learned' (a model "
        "learned from greedy games values the hand kept after my turn) or 'exact' (the "
        "discard ends the game)."))
    recommended: AheadOption
    options: list[AheadOption] = Field(description="Every discard, the recommended first.")
    check: dict[str, Any] | None = Field(default=None, description=(
        "With 4 players and the learned value: the model's choice checked against greedy's "
        "by play-outs of the whole game ({'worlds', 'promised', 'played', 'posterior', "
        "'kept'}: chances of winning; 'kept' false when greedy's choice was put first), "
        "or null."))


class ExplainResponse(BaseModel):
    total: int
    optimized: bool
    text: str
    steps: list[dict[str, Any]]
    card_texts: dict[str, str] = Field(
        default_factory=dict,
        description="Each card's printed text (names in the request's language), by the name "
                    "the trace gives the card.")
