"""``fr-score best`` and ``fr-score max``, and the optimal choices of ``fr-score score``.

Registered on the ``fr-score`` group by :mod:`.main`. The solver
(and OR-Tools, which takes most of a second to import) is loaded only when a command needs
it, so scoring a fully pinned hand stays instant.
"""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import click

from ..errors import ScorerError
from ..realms.catalog import Card, Catalog, load_catalog
from ..realms.formats.handfile import names_for
from ..realms.formats.pool import check_apart, discard_list, parse_discard, read_pool
from ..realms.formats.report import choices_json, result_json, result_table
from ..realms.hand import ChoiceValue, Hand, format_choice
from ..realms.names import Names
from ..realms.resolve import Result, resolve
from .options import (
    CONTEXT,
    cards_option,
    fail_cleanly,
    game_options,
    read_text,
)

if TYPE_CHECKING:
    from ..realms.names import Localizer
    from ..realms.solve.api import Solution

# --------------------------------------------------------------------------------------------
# Reading pools and discard areas
# --------------------------------------------------------------------------------------------


def read_discard(spec: str | None, catalog: Catalog, names: Names) -> list[Card] | None:
    """``--discard FILE`` (one card per line) or ``--discard "Knights, Queen"``; None if not
    given."""
    if not spec:
        return None
    if os.path.isfile(spec) or spec == "-":
        text, label = read_text(spec)
        return parse_discard(text, label, names)
    return discard_list(spec, names)


@dataclass(frozen=True)
class Shown:
    """How ``fr-score score`` shows a hand whose open choices the solver made: the score
    sheet lists the player's own choices, and one more line the solver's."""

    result: Result  # the same lines and total; only the player's choices listed
    made: tuple[Card, ...]  # the choosers the solver decided
    full: Result
    proven: bool
    taken: tuple[Card, ...] = ()  # cards taken from the discard area (Necromancer)

    def line(self, loc: Localizer | None = None) -> str:
        texts = choices_json(self.full, loc)
        choosers = [c for c in self.full.hand.cards if c.choice is not None]
        made = [f"{label}: {texts[label] if texts[label] is not None else 'none'}"
                for label, c in zip(texts, choosers, strict=True) if c in self.made]
        label = "optimal" if self.proven else "best found, not proven"
        out = [f"Choices ({label}): " + "; ".join(made)] if made else []
        if self.taken:
            out.append(f"Taken from the discard area ({label}): "
                       + ", ".join(loc.card(c) if loc else c.name for c in self.taken))
        return "\n".join(out)


def optimized(hand: Hand, discard_spec: str | None) -> tuple[Result, Shown | None]:
    """``fr-score score``: the hand with its open choices made optimally (and Necromancer's
    best extra card from the discard area); (result, how to show it) or no Shown when nothing
    was open."""
    discard = read_discard(discard_spec, hand.catalog, names_for(hand.catalog))
    if discard is not None:
        check_apart(list(hand.cards), discard)
    area = discard if discard is not None else list(hand.discard or ())
    room = len(hand.cards) < hand.catalog.hand_size + sum(
        1 for c in hand.cards if c.extra is not None)
    if not hand.open_choices and not (area and room and any(c.extra for c in hand.cards)):
        return resolve(hand), None
    from ..realms.solve.api import optimize

    sol = optimize(hand, discard)
    made = tuple(c for c in sol.hand.cards if c.choice is not None and c.id not in hand.choices)
    pinned = {k: v for k, v in sol.hand.choices.items() if k in hand.choices}
    shown_hand = sol.hand.with_cards(sol.hand.cards, pinned)
    taken = tuple(sol.hand.cards[len(hand.cards):])
    return sol.result, Shown(replace(sol.result, hand=shown_hand), made, sol.result, sol.proven,
                             taken)


# --------------------------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------------------------


def solved_table(sol: Solution, pinned: dict[str, ChoiceValue], title: str | None = None
                 ) -> str:
    """The score sheet, saying which choices the search made and which the player pinned."""
    lines = result_table(sol.result, title=title).splitlines()
    if lines and lines[-1].startswith("Choices: "):
        lines.pop()
    made, kept = [], []
    for c in sol.hand.cards:
        if c.choice is None:
            continue
        text = f"{c.name}: {format_choice(sol.hand.choices.get(c.id))}"
        (kept if c.id in pinned else made).append(text)
    if kept:
        lines.append("Choices: " + "; ".join(kept))
    if made:
        label = "optimal" if sol.proven else "best found, not proven"
        lines.append(f"Choices ({label}): " + "; ".join(made))
    return "\n".join(lines)


def solution_json(sol: Solution, discard: bool = False) -> dict[str, Any]:
    out = result_json(sol.result)
    out["proven"] = sol.proven
    if discard:
        out["discard"] = [c.name for c in sol.discard]
    return out


def proof(sol: Solution) -> str:
    return "optimal" if sol.proven else "not proven: time limit reached"


# --------------------------------------------------------------------------------------------
# Commands
# --------------------------------------------------------------------------------------------

discard_option = click.option(
    "--discard", "discard_spec", metavar="FILE|CARDS",
    help="The discard area, for Necromancer: a file (one card per line) or "
         "a comma-separated list such as \"Knights, Queen\".",
)
time_option = click.option(
    "--time-limit", type=click.FloatRange(min=0, min_open=True), metavar="SECONDS",
    help="Stop after this long with the best hand found so far (marked 'not proven').",
)


class ProgressBar:
    """A progress bar on standard error for a search still running after half a second:
    only on a terminal, never with ``--quiet``; the searches call it with (done, total)."""

    def __init__(self, quiet: bool, label: str) -> None:
        self.active = not quiet and sys.stderr.isatty()
        self.label = label
        self.start = time.perf_counter()
        self.bar: Any = None
        self.task: Any = None

    def __call__(self, done: int, total: int) -> None:
        if not self.active:
            return
        if self.bar is None:
            if time.perf_counter() - self.start < 0.5:
                return
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeRemainingColumn,
            )

            self.bar = Progress(TextColumn(self.label), BarColumn(), MofNCompleteColumn(),
                                TimeRemainingColumn(), console=Console(stderr=True),
                                transient=True)
            self.bar.start()
            self.task = self.bar.add_task(self.label, total=total)
        self.bar.update(self.task, completed=done)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


quiet_option = click.option("--quiet", is_flag=True,
                            help="No progress bar on standard error.")


@click.command("best", context_settings=CONTEXT)
@click.argument("file", metavar="POOL_FILE")
@click.option("--top", type=click.IntRange(min=1), default=1, show_default=True,
              help="Also list the next best distinct hands.")
@discard_option
@time_option
@click.option("--method", type=click.Choice(["auto", "exhaustive", "cpsat"]), default="auto",
              show_default=True, help="Search used (both give the same hands).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (one object per hand).")
@quiet_option
@cards_option
@game_options
@fail_cleanly
def best_cmd(file: str, top: int, discard_spec: str | None, time_limit: float | None,
             method: str, as_json: bool, quiet: bool, card_files: tuple[str, ...],
             expansion: str | None, edition: str | None, players: int | None) -> None:
    """The best legal hand from N ≥ 7 cards (7 cards, or 8 with Necromancer).

    POOL_FILE is in the hand-file format; pinned choices are kept, and a '[discard]' section
    is the discard area. With 8 cards (your hand and the card just drawn) it advises which
    card to discard and shows every other discard's score.
    """
    from ..realms.solve.api import best_hand

    text, label = read_text(file)
    pool = read_pool(text, label, card_files, expansion, edition)
    catalog = pool.catalog
    size = catalog.hand_size
    if len(pool.cards) < size:
        raise ScorerError(f"{label}: {len(pool.cards)} cards; 'best' needs at least {size}")
    given = read_discard(discard_spec, catalog, names_for(catalog))
    discard = given if given is not None else pool.discard
    check_apart(pool.cards, discard)
    advice = len(pool.cards) == size + 1
    want = max(top, len(pool.cards)) if advice else top
    bar = ProgressBar(quiet, "Scoring every hand of the pool")
    try:
        sols = best_hand(pool.cards, catalog, discard, pool.pinned, top=want,
                         time_limit=time_limit, method=method, players=players,
                         cursed=pool.cursed, progress=bar)
    finally:
        bar.close()
    best = sols[0]
    if as_json:
        for sol in sols[:top]:
            click.echo(json.dumps(solution_json(sol, discard=True), ensure_ascii=False))
        return
    out = []
    if advice and best.discard:
        out.append(f"Discard {', '.join(c.name for c in best.discard)} → score {best.total} "
                   f"({proof(best)})")
        others = sols[1:]
        if others:
            width = max(len(", ".join(c.name for c in s.discard)) for s in others)
            out.append("Other discards:")
            for s in others:
                out.append(f"  {', '.join(c.name for c in s.discard).ljust(width)}  {s.total}")
    else:
        gone = ", ".join(c.name for c in best.discard) or "nothing"
        out.append(f"Best hand from {len(pool.cards)} cards: score {best.total} "
                   f"({proof(best)}); leave out {gone}")
    out.append("")
    out.append(solved_table(best, pool.pinned))
    for rank, sol in enumerate(sols[1:top], start=2):
        out.append("")
        gone = ", ".join(c.name for c in sol.discard) or "nothing"
        out.append(solved_table(sol, pool.pinned, title=f"#{rank}: score {sol.total}, "
                                                         f"leave out {gone}"))
    click.echo("\n".join(out))


@click.command("max", context_settings=CONTEXT)
@click.option("--with", "with_", multiple=True, metavar="CARD",
              help="Require this card (repeatable).")
@click.option("--without", multiple=True, metavar="CARD", help="Forbid this card (repeatable).")
@time_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@cards_option
@game_options
@fail_cleanly
def max_cmd(with_: tuple[str, ...], without: tuple[str, ...], time_limit: float | None,
            as_json: bool, card_files: tuple[str, ...], expansion: str | None,
            edition: str | None, players: int | None) -> None:
    """The highest-scoring legal hand in the whole game, proven optimal.

    Necromancer's 8th card and every choice are included. Proving it takes about 30
    seconds on two cores (the first run also compiles the search, about 15 s more);
    --with and --without make it quicker.
    """
    from ..realms.solve.api import max_hand

    catalog = load_catalog(card_files, expansion, edition)
    names = names_for(catalog)
    if sys.stderr.isatty():
        click.echo("Searching every hand of the game…", err=True)
    sol = max_hand(catalog, [names.card(n) for n in with_], [names.card(n) for n in without],
                   time_limit=time_limit)
    if as_json:
        click.echo(json.dumps(solution_json(sol), ensure_ascii=False))
        return
    click.echo(f"Best hand in the game: score {sol.total} ({proof(sol)})\n")
    click.echo(solved_table(sol, {}))
