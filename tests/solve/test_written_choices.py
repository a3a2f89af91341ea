"""Choices the player writes and choices left open (issue 39, ruling R4).

A written choice is a constraint on every search, never something a search may break: only
the ways of making the open choices under which every written choice is legal count, judged
where the rules judge it (Island's target after the identities and Book of Changes, R4).
The oracle here is plain enumeration of every completion of the open choices with
:func:`resolve` (an illegal completion raises there), independent of the searches' own
collapsing of options.
"""

from __future__ import annotations

import json
from itertools import combinations, product
from math import prod
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fantasy_scorer as fs
from fantasy_scorer.errors import ScorerError
from fantasy_scorer.realms import effects as fx
from fantasy_scorer.realms.catalog import Card, base_catalog
from fantasy_scorer.realms.formats.pool import read_pool
from fantasy_scorer.realms.formats.sharecode import parse_code, share_code
from fantasy_scorer.realms.hand import (
    ChoiceValue,
    Hand,
    change_options,
    copy_options,
    format_choice,
)
from fantasy_scorer.realms.resolve import resolve
from fantasy_scorer.realms.solve.api import best_hand, refused_discards
from fantasy_scorer.realms.solve.exhaustive import pins_for

from ..conftest import run, write

CAT = base_catalog()
CHOOSERS = [c for c in CAT.cards if c.choice is not None]  # Island, Book, the three copies
PLAIN = [c for c in CAT.suit_cards if c.choice is None]
ISLAND = CAT.card("Island")
BOOK = CAT.card("Book of Changes")

#: Most completions the oracle enumerates for one hand (keeps the suite quick).
MOST_HAND = 1500
MOST_SUBSET = 400


def quick(n: int) -> settings:
    return settings(max_examples=n, deadline=None, suppress_health_check=[
        HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])


def options(cards: tuple[Card, ...], chooser: Card) -> list[ChoiceValue]:
    """Every value a choice may be written with, unassigned included; an Island target may
    be any other card (whether it is legal is for resolve to say)."""
    eff = chooser.choice
    if isinstance(eff, fx.Copy):
        return [*copy_options(cards, CAT, chooser), None]
    if isinstance(eff, fx.ChangeSuit):
        return [*change_options(cards, CAT, chooser), None]
    return [*(c for c in cards if c is not chooser), None]


def brute(cards: tuple[Card, ...], written: dict[str, ChoiceValue]) -> int | None:
    """The best total over every completion of the open choices under which the hand is
    legal (None: no completion is)."""
    open_ = [c for c in cards if c.choice is not None and c.id not in written]
    best = None
    for values in product(*(options(cards, c) for c in open_)):
        choices = {**written, **{c.id: v for c, v in zip(open_, values, strict=True)}}
        try:
            total = resolve(Hand(CAT, cards, choices)).total
        except ScorerError:  # a written Island target this completion makes illegal (R4)
            continue
        best = total if best is None else max(best, total)
    return best


@st.composite
def written_cards(draw, size: int, most: int, choosers: list[Card] = CHOOSERS
                  ) -> tuple[tuple[Card, ...], dict[str, ChoiceValue]]:
    """``size`` cards with 1-3 choice cards (Island and Book of Changes often together),
    some choices written (an Island target any card, legal as written or not), the rest
    open, with at most ``most`` completions to enumerate."""
    picked = draw(st.lists(st.sampled_from(choosers), min_size=1, max_size=3,
                           unique_by=lambda c: c.id))
    if draw(st.booleans()):  # the class of the issue: a written Island, an open Book
        picked = list({c.id: c for c in [ISLAND, BOOK, *picked]}.values())[:3]
    rest = draw(st.lists(st.sampled_from(PLAIN), min_size=size - len(picked),
                         max_size=size - len(picked), unique_by=lambda c: c.id))
    cards = tuple(draw(st.permutations([*picked, *rest])))
    written: dict[str, ChoiceValue] = {}
    for c in picked:
        opts = options(cards, c)
        must = prod(len(options(cards, o)) for o in picked if o.id not in written) > most
        if c is ISLAND and c.id not in written and draw(st.booleans()):
            written[c.id] = draw(st.sampled_from(opts[:-1]))
        elif must or draw(st.booleans()):
            written[c.id] = draw(st.sampled_from(opts))
    return cards, written


def lines(cards: tuple[Card, ...], written: dict[str, ChoiceValue]) -> list[str]:
    """The hand as the lines of a hand file."""
    return [f"{c.name}: {format_choice(written[c.id])}" if c.id in written else c.name
            for c in cards]


# --------------------------------------------------------------------------------------------
# The two worked examples of the issue, by hand
# --------------------------------------------------------------------------------------------

WHIRLWIND = ["Whirlwind", "Hydra", "Book of Changes", "Forest", "Candle", "Rainstorm",
             "Island: Candle"]
POOL = ["Island: Great Flood", "Great Flood", "Book of Changes", "Mountain", "Knights", "King",
        "Queen", "Princess"]


def test_a_written_island_with_an_open_book_of_changes_scores() -> None:
    """R4: Island: Candle stands as long as Candle stays a Flood or Flame. As written (Book
    unassigned): Whirlwind 13, Hydra 12, Book 3, Forest 7 +12 (Hydra), Candle blanked by
    Rainstorm, Rainstorm 8 +10 (Island), Island 14 = 79. Optimal: Book turns Whirlwind into
    a Beast (Forest +24: 91) or Candle into a Flood (Candle 2 kept, Rainstorm +20: 91);
    turning Candle into anything but a Flood or Flame would break the written choice."""
    assert fs.resolve_hand(WHIRLWIND).total == 79
    result = fs.score(WHIRLWIND)
    assert result.total == 91
    book = result.hand.choices[BOOK.id]
    assert (book[0].name, book[1]) in {("Whirlwind", "Beast"), ("Candle", "Flood")}
    assert result.hand.choices[ISLAND.id].name == "Candle"


def test_the_worked_example_says_its_as_written_total(tmp_path: Path) -> None:
    hand = write(tmp_path, "h.txt", "\n".join(WHIRLWIND) + "\n")
    r = run([hand])
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[-1].endswith(": 79")
    data = json.loads(run([hand, "--json"]).output)
    assert (data["total"], data["as_written"]) == (91, 79)
    r = run(["explain", hand])
    assert r.exit_code == 0 and r.output.splitlines()[-1].endswith(": 79")
    assert json.loads(run(["explain", hand, "--json"]).output)["as_written"] == 79


def pool_of(cards: list[str]):
    return read_pool("\n".join(cards), "<pool>", (), None, None, None)


POOL_197 = 197  # Island (Army) 14, Great Flood 32 (cleared), Book 3, Knights 20, King 8+40,
#                 Queen 6+40 (2 Armies with each other), Princess 2+8*4 (2 Armies, 2 Leaders)


@pytest.mark.parametrize("method", ["python", "compiled", "pruned", "cpsat"])
def test_best_of_the_pool_keeps_the_written_island(method: str) -> None:
    """Discarding Mountain, Book of Changes makes Island an Army (King and Queen +20 per
    Army, Princess +8 per Army and other Leader) and Island still clears Great Flood (a
    Flood): 197. Discarding Island scores 192; Great Flood cannot go while Island names it."""
    pool = pool_of(POOL)
    sols = best_hand(pool.cards, CAT, pinned=pool.pinned, top=8, method=method)
    assert (sols[0].total, [c.name for c in sols[0].discard]) == (POOL_197, ["Mountain"])
    book = sols[0].hand.choices[BOOK.id]
    assert (book[0].name, book[1]) == ("Island", "Army")
    assert sols[1].total == 192 and [c.name for c in sols[1].discard] == ["Island"]
    assert "Great Flood" not in {c.name for s in sols for c in s.discard}


def test_best_lists_every_discard(tmp_path: Path) -> None:
    pool = write(tmp_path, "pool.txt", "\n".join(POOL) + "\n")
    r = run(["best", pool])
    assert r.exit_code == 0, r.output
    out = r.output.splitlines()
    assert out[0] == "Discard Mountain → score 197 (optimal)"
    others = out[2:9]
    assert {ln.split()[0] for ln in others} == {"Island", "Princess", "Book", "Knights",
                                                "Queen", "King", "Great"}
    assert "  Great Flood      not legal: Island: Great Flood is written" in others
    # as written, Book unassigned: King and Queen +20 for Knights alone, Princess +8 * 3:
    # 14 + 32 + 3 + 20 + 28 + 26 + 26 = 149
    assert out[-1].endswith(": 149")
    assert json.loads(run(["best", pool, "--json"]).output)["as_written"] == 149


def test_a_target_legal_only_through_an_open_choice_is_read() -> None:
    """Island: Knights with Book of Changes open: Book must make Knights a Flood or Flame
    (R4), so Island 14 + Book 3 + Knights 20 + King 8 (no Army left) = 45, although Book
    making Island an Army would score 50. As written, Knights is an Army: not legal."""
    cards = ["Island: Knights", "Book of Changes", "Knights", "King"]
    result = fs.score(cards)
    assert result.total == 45
    assert result.hand.choices[BOOK.id][0].name == "Knights"
    with pytest.raises(ScorerError, match="R4"):
        fs.resolve_hand(cards)


def test_a_target_made_legal_by_an_open_copy_is_read() -> None:
    """Island: Doppelgänger, the Doppelgänger open: a copy of Island is a Flood (Island 14 +
    14 + Candle 2 + King 8 = 38); a copy of King would not be a legal target."""
    result = fs.score(["Island: Doppelgänger", "Doppelgänger", "Candle", "King"])
    assert result.total == 38


def test_no_completion_names_the_written_choice(tmp_path: Path) -> None:
    """No copy Doppelgänger makes turns King into a Flood or Flame: the error says which
    written choice cannot stand and why, as one line (exit code 2)."""
    cards = ["Island: King", "Doppelgänger", "King", "Candle"]
    with pytest.raises(ScorerError, match=r"Island: King cannot stand.*Doppelgänger.*R4"):
        fs.score(cards)
    r = run([write(tmp_path, "h.txt", "\n".join(cards) + "\n")])
    assert r.exit_code == 2 and "Island: King cannot stand" in r.output
    assert "Traceback" not in r.output


def test_advice_json_as_written_and_illegal_discards() -> None:
    from fantasy_scorer.web import service
    from fantasy_scorer.web.games import Games

    game = Games().of()
    read = pool_of(POOL)
    pool = service.Pool(game, tuple(read.cards), dict(read.pinned))
    data = service.best_json(pool)
    assert data["discards"][0]["total"] == POOL_197
    assert data["discards"][0]["as_written"] == 149
    assert [d["name"] for d in data["illegal"]] == ["Great Flood"]
    assert len(data["discards"]) + len(data["illegal"]) == 8


# --------------------------------------------------------------------------------------------
# Properties over random hands and pools
# --------------------------------------------------------------------------------------------


@quick(60)
@given(written_cards(size=7, most=MOST_HAND))
def test_score_is_the_best_legal_completion(case) -> None:
    """Never an error on a hand some completion makes legal, and the optimized total is the
    best of every legal completion (the error names the written choice when none is)."""
    cards, written = case
    best = brute(cards, written)
    if best is None:
        with pytest.raises(ScorerError, match="R4"):
            fs.score(lines(cards, written))
        return
    result = fs.score(lines(cards, written))
    assert result.total == best
    for cid, value in written.items():  # the written choices stand as written
        assert result.hand.choices[cid] == value


@quick(25)
@given(written_cards(size=8, most=MOST_SUBSET,
                     choosers=[c for c in CHOOSERS if c.name != "Mirage"]))
def test_best_is_the_best_of_its_legal_subsets_with_every_engine(case) -> None:
    """``best`` on 8 cards with written choices: every engine gives the best of the legal
    7-card subsets (a subset without a card a written choice names is not legal), and the
    discards answered plus those refused are every card."""
    cards, written = case
    by_discard: dict[str, int] = {}
    for keep in combinations(cards, 7):
        pins = pins_for(keep, written)
        total = None if pins is None else brute(keep, pins)
        if total is not None:
            (gone,) = [c for c in cards if c not in keep]
            by_discard[gone.id] = total
    for method in ("python", "compiled", "pruned"):
        if not by_discard:
            with pytest.raises(ScorerError):
                best_hand(cards, CAT, pinned=written, top=8, method=method)
            continue
        sols = best_hand(cards, CAT, pinned=written, top=8, method=method)
        assert sols[0].total == max(by_discard.values()), method
        assert {s.discard[0].id: s.total for s in sols} == by_discard, method
    refused = refused_discards(cards, CAT, written, None, None, (), set(by_discard))
    assert {c.id for c, _ in refused} | set(by_discard) == {c.id for c in cards}


@quick(40)
@given(written_cards(size=7, most=MOST_HAND))
def test_codes_say_the_as_written_total_and_read_back(case) -> None:
    """A code with open choices: ``--json`` says the as-written total (open choices
    unassigned, as the web scorer counts it: each written ``none``) exactly when it differs;
    the optimized hand's printed code reads back to its total."""
    cards, written = case
    if brute(cards, written) is None:
        return
    hand = fs.hand(lines(cards, written))
    code = share_code(hand)
    r = run(["--code", code, "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    nones = {c.id: None for c in hand.open_choices}
    try:
        written_total = resolve(hand.with_choices(nones)).total
    except ScorerError:
        written_total = None
    if written_total == data["total"]:
        assert "as_written" not in data
    else:
        assert data["as_written"] == written_total
    printed = run(["--code", code, "--print-code"]).output.strip()
    assert resolve(parse_code(printed, CAT)).total == data["total"]


# --------------------------------------------------------------------------------------------
# The look-ahead advice keeps written choices (neither ignored nor refused)
# --------------------------------------------------------------------------------------------


def test_the_advice_scorer_keeps_written_choices() -> None:
    """Each discard of the pool scored with Island: Great Flood kept: 197 by discarding
    Mountain (as above), and discarding Great Flood breaks the written choice (ILLEGAL)."""
    from fantasy_scorer.realms.game.scoring import ILLEGAL, Scorer

    pool = pool_of(POOL)
    keeps = dict((c.name, t) for t, c in Scorer(CAT, 3, pool.pinned).keeps(pool.cards))
    assert keeps["Mountain"] == POOL_197 and keeps["Island"] == 192
    assert keeps["Great Flood"] == ILLEGAL


def test_advise_takes_written_choices(tmp_path: Path) -> None:
    pool = write(tmp_path, "pool.txt", "players: 3\n" + "\n".join(POOL) + "\n")
    r = run(["advise", pool, "--samples", "1", "--budget", "600", "--json"])
    assert r.exit_code == 0, r.output
    options = {o["discard"]: o for o in json.loads(r.output)["options"]}
    assert options["Great Flood"]["illegal"] is True and options["Great Flood"]["now"] is None
    assert options["Mountain"]["now"] == POOL_197


def test_the_page_advice_takes_written_choices() -> None:
    from fantasy_scorer.web import service
    from fantasy_scorer.web.games import Games

    read = pool_of(POOL)
    pool = service.Pool(Games().of(), tuple(read.cards), dict(read.pinned), players=3)
    data = service.advise_json(pool, budget=0.01)
    options = {o["discard"]: o for o in data["options"]}
    assert options["Great Flood"]["illegal"] is True
    assert options["Mountain"]["now"] == POOL_197


# --------------------------------------------------------------------------------------------
# A hand of many open choices goes to the compiled enumeration (issue 41, point 9)
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("island", ["Island", "Island: Great Flood"])
def test_many_open_choices_give_the_python_enumerations_total(island: str, monkeypatch
                                                              ) -> None:
    from fantasy_scorer.realms.solve import api
    from fantasy_scorer.realms.solve.exhaustive import NO_TABLE, best_with_extras

    hand = fs.hand(["Mirage", "Shapeshifter", "Doppelgänger", "Book of Changes", island,
                    "Great Flood", "Wildfire"])
    if api.combinations_estimate(hand, None) < api.COMPILED_FROM:
        monkeypatch.setattr(api, "COMPILED_FROM", 1)  # the compiled path all the same
    reference = best_with_extras(hand.cards, CAT, dict(hand.choices), NO_TABLE, 0)
    result = fs.score(hand)
    assert result.total == reference.total
    for cid, value in hand.choices.items():
        assert result.hand.choices[cid] == value


def test_api_best_answers_the_illegal_discards_and_the_as_written_total() -> None:
    """Through the API's response model (which once dropped both fields): the pool's best is
    197 by discarding Mountain, 149 as written, and discarding Great Flood is illegal (the
    written Island names it)."""
    from fastapi.testclient import TestClient

    from fantasy_scorer.web.app import create_app

    cards = [c.split(":")[0] for c in POOL]
    with TestClient(create_app(advice_time_limit=None)) as client:
        r = client.post("/api/best", json={"cards": cards,
                                           "choices": {"Island": "Great Flood"}})
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["discards"][0]["name"] == "Mountain"
    assert data["discards"][0]["total"] == POOL_197
    assert data["discards"][0]["as_written"] == 149
    assert [d["name"] for d in data["illegal"]] == ["Great Flood"]
    assert data["illegal"][0]["reason"]
    assert len(data["discards"]) + len(data["illegal"]) == 8
