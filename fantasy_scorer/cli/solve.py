"""``fr-score best`` and ``fr-score max``, and the optimal choices of ``fr-score score``.

Registered on the ``fr-score`` group by :mod:`.main`. The solver
(and OR-Tools, which takes most of a second to import) is loaded only when a command needs
it, so scoring a fully pinned hand stays instant.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
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
    from ..realms.solve.sweep import Progress

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


@click.command("best", context_settings=CONTEXT)
@click.argument("file", metavar="POOL_FILE")
@click.option("--top", type=click.IntRange(min=1), default=1, show_default=True,
              help="Also list the next best distinct hands.")
@discard_option
@time_option
@click.option("--method", type=click.Choice(["auto", "exhaustive", "cpsat"]), default="auto",
              show_default=True, help="Search used (both give the same hands).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (one object per hand).")
@cards_option
@game_options
@fail_cleanly
def best_cmd(file: str, top: int, discard_spec: str | None, time_limit: float | None,
             method: str, as_json: bool, card_files: tuple[str, ...], expansion: str | None,
             edition: str | None, players: int | None) -> None:
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
    sols = best_hand(pool.cards, catalog, discard, pool.pinned, top=want,
                     time_limit=time_limit, method=method, players=players, cursed=pool.cursed)
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
              help="Require this card (repeatable). A Cursed Item named here is held beside "
                   "the hand (none is, otherwise).")
@click.option("--without", multiple=True, metavar="CARD", help="Forbid this card (repeatable).")
@click.option("--discard", "discard_spec", metavar="FILE|CARDS",
              help="The discard area: Necromancer's extra card comes from it, and Dark Queen, "
                   "Ghoul, Specter and Death Knight score it. Without it, an extra card may be "
                   "any card, and those cards score an empty area.")
@time_option
@click.option("--quiet", "-q", is_flag=True, help="No progress bar on standard error.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@cards_option
@game_options
@fail_cleanly
def max_cmd(with_: tuple[str, ...], without: tuple[str, ...], discard_spec: str | None,
            time_limit: float | None, quiet: bool, as_json: bool, card_files: tuple[str, ...],
            expansion: str | None, edition: str | None, players: int | None) -> None:
    """The highest-scoring legal hand in the whole game, proven optimal.

    Every choice and every extra card are included: 7 cards and Necromancer's 8th; with
    Cursed Hoards 8 cards, and a 9th with Necromancer, Leprechaun or Genie. Without
    --players, every table size is tried for Genie. The base game takes a few seconds on
    two cores, Cursed Hoards a few minutes (the first run also compiles the search, about
    20 s more); --with and --without make it quicker. A progress bar on standard error
    shows the best hand so far, the most any hand may still score, and the time left.

    \b
    fr-score max
    fr-score max --with Dragon --without Necromancer
    fr-score max --expansion cursed-hoards --players 4
    fr-score max --expansion cursed-hoards --discard "Knights, Unicorn, Rainstorm"
    """
    from ..realms.solve.api import max_hand

    catalog = load_catalog(card_files, expansion, edition)
    names = names_for(catalog)
    required = [names.card(n) for n in with_]
    forbidden = [names.card(n) for n in without]
    discard = read_discard(discard_spec, catalog, names)
    with max_progress(quiet) as progress:
        sol = max_hand(catalog, required, forbidden, time_limit=time_limit, discard=discard,
                       players=players, progress=progress)
    notes = max_notes(sol, discard is None, players is None)
    if as_json:
        out = solution_json(sol)
        out["notes"] = notes
        click.echo(json.dumps(out, ensure_ascii=False))
        return
    click.echo(f"Best hand in the game: score {sol.total} ({proof(sol)})")
    for note in notes:
        click.echo(note)
    click.echo("")
    click.echo(solved_table(sol, {}))


def max_notes(sol: Solution, no_discard: bool, no_players: bool) -> list[str]:
    """What the answer assumed of the table that the user did not give."""
    held = [*sol.hand.cards, *sol.hand.cursed]
    out = []
    readers = [c.name for c in held if "discard" in c.needs]
    if readers and no_discard:
        out.append(f"{', '.join(readers)} scored on an empty discard area "
                   "(--discard gives one).")
    counted = [c.name for c in held if "players" in c.needs]
    if counted and no_players and sol.hand.players is not None:
        out.append(f"{', '.join(counted)} scored at a table of {sol.hand.players} players, "
                   "the best for this hand (--players sets it).")
    return out


@contextmanager
def max_progress(quiet: bool) -> Iterator[Callable[[Progress], None] | None]:
    """A progress bar on standard error while ``max`` runs (a terminal only, not --quiet):
    the parts of the current pass done, the best hand so far, the most any hand may still
    score, and the time left."""
    if quiet or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, TextColumn, TimeElapsedColumn
    from rich.progress import Progress as Bar

    columns = (TextColumn("{task.description}"), BarColumn(bar_width=20),
               TextColumn("{task.fields[left]}"), TimeElapsedColumn(),
               TextColumn("{task.fields[hand]}"))
    with Bar(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("preparing the search", total=None, left="", hand="")

        def show(p: Progress) -> None:
            left = "" if p.left is None else f"~{_duration(p.left)} left"
            text = f"best {p.best} · at most {p.bound}"
            room = bar.console.width - len(text) - len(left) - 40  # bar, time, spaces
            hand = ", ".join(c.name for c in p.hand)
            if len(hand) > room:
                hand = hand[:max(room - 1, 0)] + "…" if room > 8 else ""
            bar.update(task, description=text, total=p.parts, completed=p.done, left=left,
                       hand=hand)

        yield show


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{max(1, round(seconds))} s"
    return f"{round(seconds / 60)} min"
