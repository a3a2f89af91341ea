"""``fr-score best`` and ``fr-score max``, and the optimal choices of ``fr-score score``.

Registered on the ``fr-score`` group by :mod:`.main`. The solver
(and OR-Tools, which takes most of a second to import) is loaded only when a command needs
it, so scoring a fully pinned hand stays instant.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import click

from ..errors import ScorerError
from ..realms.catalog import Card, load_catalog
from ..realms.formats.handfile import names_for
from ..realms.formats.pool import Pool, check_apart, pool_from_share, read_pool
from ..realms.formats.report import as_written_text, choices_json, hand_notes, result_json
from ..realms.formats.sharecode import share_code, share_link, share_text
from ..realms.hand import Hand, hand_limit
from ..realms.names import check_lang
from ..realms.resolve import Result, resolve
from ..realms.standing import of_hand
from .options import (
    CONTEXT,
    Seconds,
    cards_option,
    discard_option,
    fail_cleanly,
    game_options,
    json_option,
    no_effect,
    output_options,
    read_discard,
    read_text,
    stdin_once,
)
from .render import console_for, echo, print_notes, print_result

if TYPE_CHECKING:
    from rich.console import Console

    from ..realms.names import Localizer, Names
    from ..realms.solve.api import Solution, Written
    from ..realms.solve.sweep import SweepProgress


@dataclass(frozen=True)
class Shown:
    """How a hand whose open choices the solver made is shown: the score sheet lists the
    player's own choices, and one more line the solver's (and the card it took)."""

    result: Result  # the same lines and total; only the player's choices listed
    made: tuple[Card, ...]  # the choosers the solver decided
    full: Result
    proven: bool
    taken: tuple[Card, ...] = ()  # cards taken from the discard area (Necromancer)
    written: Written | None = None  # the as-written total, when it differs

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
        if self.written is not None:
            out.append(as_written_text(self.written.total, loc))
        return "\n".join(out)

    def json(self) -> dict[str, Any]:
        """``{"as_written": N}`` (null: not legal as written) when the as-written total
        differs from the optimized one, else nothing."""
        return {} if self.written is None else {"as_written": self.written.total}


def shown(result: Result, pinned: dict, proven: bool, taken: tuple[Card, ...] = (),
          written: Hand | None = None) -> Shown:
    """The Shown form of a solved hand: ``pinned`` are the choices the player wrote;
    ``written`` the hand as written (default: the solved cards with only those choices)."""
    from ..realms.solve.api import written_note

    hand = result.hand
    own = {k: v for k, v in pinned.items() if k in {c.id for c in hand.cards}}
    made = tuple(c for c in hand.cards if c.choice is not None and c.id not in own)
    mine = hand.with_cards(hand.cards, own)
    note = written_note(written if written is not None else mine, result.total)
    return Shown(replace(result, hand=mine), made, result, proven, taken, note)


def needs_search(hand: Hand) -> bool:
    """Whether scoring the hand makes a choice: an open one, or an extra card to take from
    the discard area (Necromancer with room for it)."""
    room = len(hand.cards) < hand_limit(hand.cards, hand.catalog, hand.cursed)
    return bool(hand.open_choices) or bool(
        hand.discard and room and any(c.extra is not None for c in hand.cards + hand.cursed))


def optimized(hand: Hand) -> tuple[Result, Shown | None]:
    """``fr-score score``: the hand with its open choices made optimally (and Necromancer's
    best extra card from the discard area); (result, how to show it), no Shown when nothing
    was open. Each hand is scored once."""
    if not needs_search(hand):
        return resolve(hand), None
    from ..realms.solve.api import optimize

    sol = optimize(hand)
    taken = tuple(sol.hand.cards[len(hand.cards):])
    return sol.result, shown(sol.result, dict(hand.choices), sol.proven, taken, hand)


def print_solution(sol: Solution, pinned: dict, title: str | None, loc: Localizer,
                   console: Console | None, taken: tuple[Card, ...] = ()) -> None:
    """A solved hand's score sheet, saying which choices the search made."""
    view = shown(sol.result, pinned, sol.proven, taken)
    print_result(view.result, title, loc, console)
    if view.line(loc):
        echo(view.line(loc), console)


def solution_json(sol: Solution, loc: Localizer, discard: bool = False) -> dict[str, Any]:
    out = result_json(sol.result, loc)
    out["proven"] = sol.proven
    if discard:
        out["discard"] = [loc.card(c) for c in sol.discard]
    return out


def proof(sol: Solution) -> str:
    return "optimal" if sol.proven else "not proven: time limit reached"


# --------------------------------------------------------------------------------------------
# Commands
# --------------------------------------------------------------------------------------------

time_option = click.option(
    "--time-limit", type=Seconds(min=0, min_open=True), metavar="SECONDS",
    help="Stop after this long with the best hand found so far (marked 'not proven').",
)
print_code_option = click.option(
    "--print-code", is_flag=True,
    help="Print the best hand's share code (or the web scorer's page link when it has an "
         "expansion, players or a discard area) instead of its score sheet.",
)


def read_best_pool(file: str | None, code: str | None, card_files: tuple[str, ...],
                   expansion: str | None, edition: str | None, players: int | None
                   ) -> tuple[Pool, str]:
    """The pool of ``best``: a pool file, or a share code or link (one of them)."""
    if (file is None) == (code is None):
        raise ScorerError("give a pool file ('-' reads standard input) or --code, one of them")
    if code is not None:
        return pool_from_share(code, card_files, expansion, edition, players), "share code"
    text, label = read_text(file)  # type: ignore[arg-type]
    return read_pool(text, label, card_files, expansion, edition, players), label


def table_of(pool: Pool, given: tuple[Card, ...] | None
             ) -> tuple[tuple[Card, ...] | None, list[str]]:
    """The discard area ``best`` scores with (None when none is given and no card reads it),
    and its notes; a missing input the pool's cards need is an error here, before any search
    starts."""
    if given is not None and pool.discard is not None:
        raise ScorerError("the pool has a discard area and --discard gives one too; keep one")
    area = given if given is not None else pool.discard
    notes = []
    cards = pool.cards + list(pool.cursed)
    readers = [c.name for c in cards if "discard" in c.needs]
    if area is None and readers:
        area = ()
        notes.append(f"{', '.join(readers)} scored on an empty discard area: none was "
                     "given (--discard or a [discard] section gives one)")
    players = [c.name for c in cards if "players" in c.needs]
    if players and pool.players is None:
        raise ScorerError(f"{players[0]} depends on the number of players (C6): add "
                          "--players N or a 'players: N' line")
    check_apart(pool.cards, list(area or ()))
    return area, notes


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


quiet_option = click.option("--quiet", "-q", is_flag=True,
                            help="No progress bar on standard error.")


@click.command("best", context_settings=CONTEXT)
@click.argument("file", metavar="POOL_FILE", required=False)
@click.option("--code", metavar="CODE",
              help="The pool as a share code or a page link of the web scorer "
                   "(it may hold more cards than a hand).")
@click.option("--top", type=click.IntRange(min=1), default=1, show_default=True,
              help="Also list the next best distinct hands.")
@discard_option
@time_option
@click.option("--method", type=click.Choice(["auto", "exhaustive", "cpsat"]), default="auto",
              show_default=True, help="Search used (both give the same hands).")
@quiet_option
@json_option("Print JSON (one object per hand).")
@print_code_option
@output_options
@cards_option
@game_options
@fail_cleanly
def best_cmd(file: str | None, code: str | None, top: int, discard_spec: str | None,
             time_limit: float | None, method: str, quiet: bool, as_json: bool,
             print_code: bool, lang: str | None, no_color: bool, card_files: tuple[str, ...],
             expansion: str | None, edition: str | None, players: int | None) -> None:
    """The best legal hand from N ≥ 7 cards (7 cards, or 8 with Necromancer).

    POOL_FILE is in the hand-file format ('-' reads standard input); pinned choices are
    kept, a '[discard]' section is the discard area, a 'players: N' line the number of
    players:

    \b
      # pool.txt: my hand and the card I drew
      Mountain
      Great Flood
      Smoke
      Whirlwind
      Air Elemental
      Wildfire
      Mirage
      Magic Wand

    With 8 cards (a hand and the card just drawn) it advises which card to discard and
    shows every other discard's score. Dark Queen, Ghoul, Specter and Death Knight with no
    discard area given score an empty one (a note says so).

    A written choice is a constraint: a hand that leaves out the card it names is not legal
    (with 'Island: Great Flood' written, Great Flood is never discarded), and the choices
    left open are made only in ways that keep every written choice legal (Island's target
    must be a Flood or Flame after Book of Changes, R4). Where the best hand's total differs
    from its total as written (open choices unassigned, as the web scorer counts it), a line
    says so ("as_written" in JSON).
    """
    from ..realms.solve.api import best_hand, refused_discards
    from ..realms.solve.discards import Advice, advise_discards

    check_lang(lang)
    if print_code and lang is not None:
        raise no_effect("--lang", "with --print-code (a code is made of card ids)")
    stdin_once(file, discard_spec)
    pool, label = read_best_pool(file, code, card_files, expansion, edition, players)
    catalog = pool.catalog
    size = catalog.hand_size
    if len(pool.cards) < size:
        raise ScorerError(f"{label}: {len(pool.cards)} cards; 'best' needs at least {size}")
    discard, notes = table_of(pool, read_discard(discard_spec, catalog))
    advice = len(pool.cards) == size + 1
    want = max(top, len(pool.cards)) if advice else top
    bar = ProgressBar(quiet, "Scoring every hand of the pool")
    began = time.perf_counter()
    stopped: Advice | None = None  # the discard advice under a time limit
    try:
        if advice and time_limit is not None:
            # one discard at a time: a stop keeps every discard reached, exact (issue 41)
            stopped = advise_discards(pool.cards, catalog, discard, pool.pinned, pool.players,
                                      pool.cursed, time_limit)
            sols = [replace(s, proven=stopped.complete) for s in stopped.ranked()]
            if not sols:
                raise ScorerError("no legal hand can be made from these cards and pinned "
                                  "choices" if stopped.complete else "no discard was scored "
                                  "within the time limit; give it more time")
        else:
            sols = best_hand(pool.cards, catalog, discard, pool.pinned, top=want,
                             time_limit=time_limit, method=method, players=pool.players,
                             cursed=pool.cursed, progress=bar)
    finally:
        bar.close()
    if not quiet and time.perf_counter() - began > SLOW_SEARCH and not compiled_cached():
        click.echo(COMPILE_TIP, err=True)
    best = sols[0]
    loc = names_for(catalog).localizer(lang or pool.lang)
    if print_code:
        print_codes(sols[:top], as_json)
        return
    if as_json:
        for sol in sols[:top]:
            standing = of_hand(sol.total, len(sol.hand.cards), catalog)
            data = {("code" if code else "file"): code or label,
                    **solution_json(sol, loc, discard=True),
                    **shown(sol.result, pool.pinned, sol.proven).json(), "notes": notes,
                    **(standing.as_json() if standing else {})}
            click.echo(json.dumps(data, ensure_ascii=False))
        return
    console = console_for(no_color)

    def names(cards) -> str:
        return ", ".join(loc.card(c) for c in cards)

    if advice and best.discard:
        echo(f"Discard {names(best.discard)} → score {best.total} ({proof(best)})", console,
             "bold")
        others = [(names(s.discard), str(s.total)) for s in sols[1:]]
        held = {c.id for s in sols for c in s.discard if len(s.discard) == 1}
        refused = stopped.illegal() if stopped is not None else refused_discards(
            pool.cards, catalog, pool.pinned, discard, pool.players, pool.cursed, held)
        others += [(loc.card(c), f"not legal: {why}") for c, why in refused]
        others += [(loc.card(c), "not scored: the time limit came first")
                   for c in (stopped.missing if stopped is not None else ())]
        if others:
            width = max(len(n) for n, _ in others)
            echo("Other discards:", console)
            for n, what in others:
                echo(f"  {n.ljust(width)}  {what}", console)
    else:
        echo(f"Best hand from {len(pool.cards)} cards: score {best.total} ({proof(best)}); "
             f"leave out {names(best.discard) or 'nothing'}", console, "bold")
    standing = of_hand(best.total, len(best.hand.cards), catalog)
    if standing:
        echo(loc.say(standing.message()), console)
    click.echo()
    print_solution(best, pool.pinned, None, loc, console, taken_of(best, discard))
    for rank, sol in enumerate(sols[1:top], start=2):
        click.echo()
        title = f"#{rank}: score {sol.total}, leave out {names(sol.discard) or 'nothing'}"
        print_solution(sol, pool.pinned, title, loc, console, taken_of(sol, discard))
    print_notes(notes + hand_notes(best.hand), console)


def card_option(names: Names, flag: str, text: str) -> Card:
    """A card named on the command line, its errors located at the option."""
    try:
        return names.card(text)
    except ScorerError as e:
        raise e.at(flag) from None


def taken_of(sol: Solution, discard: tuple[Card, ...] | None) -> tuple[Card, ...]:
    """The cards of a solution that came from the discard area (Necromancer's)."""
    return tuple(c for c in sol.hand.cards if c in (discard or ()))


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
@quiet_option
@json_option("Print one JSON object.")
@print_code_option
@output_options
@cards_option
@game_options
@fail_cleanly
def max_cmd(with_: tuple[str, ...], without: tuple[str, ...], discard_spec: str | None,
            time_limit: float | None, quiet: bool, as_json: bool, print_code: bool,
            lang: str | None, no_color: bool, card_files: tuple[str, ...],
            expansion: str | None, edition: str | None, players: int | None) -> None:
    """The highest-scoring legal hand in the whole game, proven optimal.

    Every choice and every extra card are included: 7 cards and Necromancer's 8th; with
    Cursed Hoards 8 cards, and a 9th with Necromancer, Leprechaun or Genie. Without
    --players, every table size is tried for Genie. The base game takes seconds, Cursed
    Hoards longer, and the first run also compiles the search; --with and --without make
    it quicker. A progress bar on standard
    error shows the best hand so far, the most any hand may still score, and the time left.
    Cards are named as in a hand file (any language, or their ids):

    \b
      fr-score max
      fr-score max --with Dragon --without Necromancer
      fr-score max --expansion cursed-hoards --players 4
      fr-score max --expansion cursed-hoards --discard "Knights, Unicorn, Rainstorm"
      fr-score max --print-code         # the hand as a share code
    """
    from ..realms.solve.api import max_hand

    check_lang(lang)
    if print_code and lang is not None:
        raise no_effect("--lang", "with --print-code (a code is made of card ids)")
    catalog = load_catalog(card_files, expansion, edition)
    if players is not None and not any("players" in c.needs for c in catalog.cards):
        raise no_effect("--players", "in this game (no card depends on the number of players)")
    names = names_for(catalog)
    wanted = [card_option(names, "--with", n) for n in with_]
    banned = [card_option(names, "--without", n) for n in without]
    discard = read_discard(discard_spec, catalog)
    with max_progress(quiet) as progress:
        sol = max_hand(catalog, wanted, banned, time_limit=time_limit,
                       discard=list(discard) if discard is not None else None,
                       players=players, progress=progress)
    notes = max_notes(sol, discard is None, players is None)
    loc = names.localizer(lang)
    if print_code:
        print_codes([sol], as_json)
        return
    if as_json:
        out = solution_json(sol, loc)
        out["notes"] = notes
        click.echo(json.dumps(out, ensure_ascii=False))
        return
    console = console_for(no_color)
    echo(f"Best hand in the game: score {sol.total} ({proof(sol)})", console, "bold")
    for note in notes:
        echo(note, console)
    click.echo()
    print_solution(sol, {}, None, loc, console)


def print_codes(sols: list[Solution], as_json: bool) -> None:
    """``--print-code`` of best and max: each hand as the web scorer's code (or link)."""
    for sol in sols:
        if as_json:
            click.echo(json.dumps({"code": share_code(sol.hand), "link": share_link(sol.hand),
                                   "proven": sol.proven}, ensure_ascii=False))
        else:
            click.echo(share_text(sol.hand))


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
def max_progress(quiet: bool) -> Iterator[Callable[[SweepProgress], None] | None]:
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

        def show(p: SweepProgress) -> None:
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


#: A search slower than this (seconds), on a machine where the compiled code is not compiled
#: yet, gets the tip below on standard error.
SLOW_SEARCH = 1.0
COMPILE_TIP = ("Tip: run 'fr-score compile' once (a few minutes): searches like this one then "
               "use compiled code and take well under a second.")


def compiled_cached() -> bool:
    """Whether this machine has the compiled enumeration (compiled once, then cached)."""
    from ..realms.solve.plan import compiled_ready

    return compiled_ready()


@click.command("compile", context_settings=CONTEXT)
@quiet_option
def compile_cmd(quiet: bool) -> None:
    """Compile the fast searches again (the package ships them compiled).

    \b
      fr-score compile

    \b
    best, advise, simulate, score_many and max run compiled code (Numba),
    compiled when the package is built and shipped in it: nothing needs
    this command after `pip install`. It is for a package built without
    them (a build with no Numba, or FANTASY_SCORER_NO_COMPILE set), where
    each piece would otherwise compile on its first use: it compiles every
    piece once (a few minutes), or just loads it when it is there. Every
    run of fr-score checks the cached files first (a damaged one is set
    aside and rebuilt, with one line saying so). The files live in
    ~/.cache/fantasy-scorer/numba (or NUMBA_CACHE_DIR).

    It also builds the pieces the command line uses into a C extension
    (Numba's ahead-of-time compiler; it needs a C compiler), which a new
    fr-score process loads without Numba: best and advise answer sooner.
    Without it they load Numba's code, as before.
    """
    from ..realms.solve.warmup import warm_up

    def begin(what: str) -> None:  # on a terminal only: a step may take a minute
        if not quiet and sys.stderr.isatty():
            click.echo(f"         {what} …", err=True)

    def report(what: str, seconds: float) -> None:
        if not quiet:
            click.echo(f"{seconds:6.1f} s  {what}")

    done = warm_up(report=report, begin=begin)
    click.echo(f"Compiled code ready ({sum(s for _, s in done):.1f} s): best, advise, "
               "simulate and score_many use it from now on.")
