"""``fr-score advise`` (the decision in front of me, looking ahead) and ``fr-score simulate``
(bot games). Registered on the ``fr-score`` group by :mod:`.main`.

The game engine, the bots and the model of the advice live in ``realms.game``; this module
reads the user's input, prints the answer, and turns every mistake into one ``Error:`` line
with exit code 2 (click's own usage errors included).
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from ..errors import ScorerError
from ..realms.catalog import Card, Catalog, load_catalog
from ..realms.formats.handfile import names_for, read_settings
from ..realms.formats.pool import discard_list, parse_discard, read_pool
from ..realms.names import Localizer, check_lang
from .options import (
    CONTEXT,
    Seconds,
    cards_option,
    fail_cleanly,
    game_options,
    output_options,
    read_text,
)
from .workers import cluster_options

if TYPE_CHECKING:
    from ..realms.game.check import Check


class Refused(click.ClickException):
    """A mistake on the command line: one ``Error:`` line, exit code 2."""

    exit_code = 2


class OneLineCommand(click.Command):
    """A command whose usage errors (``--players 1``) are one ``Error:`` line, like every
    other mistake, rather than the usage text."""

    def make_context(self, info_name: str | None, args: list[str],
                     parent: click.Context | None = None, **extra: Any) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.UsageError as e:
            raise Refused(e.format_message()) from None


# The shared --discard and --json of fr-score (cli/options.py defines them on the surface
# branch; these have the same names, destinations and meaning).
discard_option = click.option(
    "--discard", "discard_spec", metavar="FILE|CARDS",
    help="The discard area in the order it lies, oldest card first: a file (one card per "
         "line) or a list such as \"Knights, Queen\".",
)


def json_option(help_text: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return click.option("--json", "as_json", is_flag=True, help=help_text)


def read_cards(spec: str, catalog: Catalog, what: str) -> tuple[Card, ...]:
    """Cards given as a file (one per line, ``-`` for standard input) or a comma list."""
    names = names_for(catalog)
    try:
        if os.path.isfile(spec) or spec == "-":
            text, label = read_text(spec)
            return tuple(parse_discard(text, label, names))
        return tuple(discard_list(spec, names)) if spec.strip() else ()
    except ScorerError as e:
        if "listed twice in the discard area" in e.message:
            e = ScorerError(e.message.replace("the discard area", what), e.where)
        raise e.at(f"--{what}" if not e.where else e.where) from None


# --------------------------------------------------------------------------------------------
# fr-score advise
# --------------------------------------------------------------------------------------------

ADVISE_HELP = """Advice for the decision in front of you, looking ahead to the game's end.

\b
HAND is your hand: 7 cards before your draw, 8 after it (the card just drawn
included), as a hand file (one card per line, '-' reads standard input) or a
list: "Knights, Queen, King, ...". A file may also hold 'players: N' and a
[discard] section (the discard area, in the order it lies).

\b
  fr-score advise hand.txt --players 4 --discard "Rainstorm, Unicorn, Hydra"
  fr-score advise "Cavern, Forest, King, Swamp, Gem of Order, Hydra, Unicorn" \\
      --players 3 --discard "Rainstorm, Whirlwind" --seen "Dragon" --json

\b
Before the draw it weighs the deck against each card of the discard area
(each with the discard that best follows it); after the draw, each discard.
For every option: the chance of winning, the expected final score, the
chance that the hand ends better than right after this turn, the best 7 if
the game ended after it, and the gift: how much the discarded card raises
the next player's best 7. Each figure has a 95% interval.

\b
The model (Monte Carlo): every card not in your hand, the discard area,
--seen or --next-holds is equally likely to be anywhere. Each sample
shuffles those cards into a hand for the next player (kept as a greedy
player keeps one: the cards known to be in it, then five unseen cards
offered for each of their turns so far, the worst card going each time),
the cards you will draw and the cards the others will discard, then plays
the game out from
every option on that same sample: the others take a random discard-area
card at the usual rate of greedy play, else draw; you play greedy (of the
cards discarded since your last turn, the one that most raises your best 7,
else the deck; then the discard that leaves the best 7). With 2 players the
other player is played out greedy too, from the sampled hand. The game ends
when the discard area holds 10 cards or the deck is empty, and your final
hand is scored exactly (Necromancer takes its best card then). The chance
of winning: with 2 players, how often your final score beats the other's;
with more, that score set against the others' final scores, spread as in
games of greedy bots, the next player's raised by the gift. The
recommendation is the highest chance of winning, but 'fr-score best''s
choice stays unless another option beats it by 2.5 standard errors, 1.5
with 2 players (the best of many noisy figures looks better than it is;
with 2 players the lower bar won more games). Options clearly worse stop
being sampled (marked ·).
When your discard ends the game, every figure is exact and the advice is
'fr-score best''s (the final discard area includes your discard).

\b
The learned value (the base game, the default): a sample does not play
the game to its end but stops after your turn, and a model trained on
games of greedy bots gives the hand's expected final score and its spread
from its best 7 now, its cards (with 4 players, its pairs of cards too),
the turns left and the table size, and with 2 players the most a card
left in the discard area would raise it (a card you may take at your next
turn; docs/advice.md). With 3 players or more, a take (which leaves
the game a turn of the deck longer) is set against the other players'
gain in that turn too. It answers in microseconds what a play-out
answers in milliseconds, so a tenth of a second is enough for many
samples. With 2 players the other player's
sampled hand is valued the same way, after it takes your discard if that
raises it (the other cards of the discard area it passed over), and your
chance is that of beating it, until the discard area has room for 4 cards
or fewer: the samples are then played out (the last turns are quick to
play, and whose turn ends the game is exact). With the expansion the
samples are played out.

\b
The check (4 players, a budget of 0.5 s or more, no --samples): the
model's samples get 15% of the budget; if they prefer a move other than
fr-score best's, both moves are then played out to the end of the game
(every player greedy) on deals of the hidden cards as they may lie, the
other hands kept as greedy players keep theirs, until the budget is
spent, and fr-score best's move is recommended instead when the
play-outs, weighed against what the model promised, find the model's move
worse (the answer's last line says what the check found).

\b
--budget bounds the time, counted from the moment the question is read;
the answer says how many samples it used, and says so when the budget
was spent before the first one was finished (then it is fr-score best's
choice, without looking ahead). --seed makes the samples repeatable; with
--samples N the answer no longer depends on the machine's speed.
"""


@click.command("advise", cls=OneLineCommand, context_settings=CONTEXT, help=ADVISE_HELP)
@click.argument("hand_spec", metavar="HAND")
@discard_option
@click.option("--seen", "seen_spec", metavar="FILE|CARDS",
              help="Other cards you know are not in the deck (in other players' hands).")
@click.option("--next-holds", "next_spec", metavar="FILE|CARDS",
              help="Cards the next player is known to hold (taken from the discard area).")
@click.option("--budget", type=Seconds(min=0, min_open=True), default=1.0,
              show_default=True, metavar="SECONDS", help="The time the answer may take.")
@click.option("--samples", type=click.IntRange(min=1), default=None, metavar="N",
              help="Stop after N samples (with --budget, whichever comes first).")
@click.option("--seed", default="0", show_default=True, help="Seed of the samples.")
@json_option("Print one JSON object.")
@output_options
@cards_option
@game_options
@fail_cleanly
def advise_cmd(hand_spec: str, discard_spec: str | None, seen_spec: str | None,
               next_spec: str | None, budget: float, samples: int | None, seed: str,
               as_json: bool, lang: str | None, no_color: bool, card_files: tuple[str, ...],
               expansion: str | None, edition: str | None, players: int | None) -> None:
    from ..realms.game.advice import Situation, advise
    from ..realms.game.report import advice_json

    check_lang(lang)
    catalog, hand, area, players, pins = _read_hand(hand_spec, discard_spec, card_files,
                                                    expansion, edition, players)
    seen = read_cards(seen_spec, catalog, "seen") if seen_spec else ()
    nxt = read_cards(next_spec, catalog, "next-holds") if next_spec else ()
    sit = Situation(catalog, players, hand, area, nxt, seen)
    scorer = None
    if pins:  # written choices are kept in every hand scored (issue 39)
        from ..realms.game.scoring import Scorer

        scorer = Scorer(catalog, players, pins)
    # the budget is the user's: it counts from the moment the question is read (loading the
    # compiled scorer, which the package ships, counts in it)
    advice = advise(sit, seed=seed, budget=budget, samples=samples,
                    started=time.perf_counter(), scorer=scorer)
    loc = names_for(catalog).localizer(lang)
    if as_json:
        click.echo(json.dumps(advice_json(advice, loc.card, seed), ensure_ascii=False))
    else:
        click.echo(advice_text(advice, loc))


def _read_hand(spec: str, discard_spec: str | None, card_files: tuple[str, ...],
               expansion: str | None, edition: str | None, players: int | None
               ) -> tuple[Catalog, tuple[Card, ...], tuple[Card, ...], int, dict]:
    """The hand, the discard area, the number of players and the choices written in the
    file, from the file or list and the options (given twice, they must agree)."""
    area: tuple[Card, ...] | None = None
    pins: dict = {}
    if os.path.isfile(spec) or spec == "-":
        text, label = read_text(spec)
        pool = read_pool(text, label, card_files, expansion, edition)
        catalog = pool.catalog
        pins = dict(pool.pinned)
        if pool.cursed:
            raise ScorerError(f"{label}: the game engine plays without Cursed Items; remove "
                              "the [cursed items] section")
        hand = tuple(pool.cards)
        file_players = read_settings(text, label).players
        if file_players is not None and players is not None and file_players != players:
            raise ScorerError(f"--players {players} and 'players: {file_players}' in {label} "
                              "disagree; give one")
        players = players or file_players
        if pool.discard:
            if discard_spec is not None:
                raise ScorerError(f"the discard area is given twice (--discard and the "
                                  f"[discard] section of {label}); give it once")
            area = tuple(pool.discard)
    else:
        catalog = load_catalog(card_files, expansion, edition)
        hand = read_cards(spec, catalog, "hand")
    if area is None:
        area = read_cards(discard_spec, catalog, "discard") if discard_spec else ()
    if players is None:
        raise ScorerError("the advice needs the number of players: add --players N")
    return catalog, hand, area, players, pins


def _ci(est, fmt: str = "{:.1f}", scale: float = 1.0) -> str:
    if est.n == 0:
        return "-"
    value = fmt.format(est.mean * scale)
    if est.exact:
        return f"{value} (exact)"
    if est.n < 2:
        return f"{value} (1 sample)"
    lo, hi = est.ci95
    return f"{value} [{fmt.format(lo * scale)}, {fmt.format(hi * scale)}]"


def advice_text(advice, loc: Localizer) -> str:
    sit = advice.situation
    phase = ("before your draw" if sit.phase == "draw" else "after your draw")
    lines = [f"{sit.players} players, {phase}: {len(sit.hand)} cards in hand, "
             f"{len(sit.area)} in the discard area, {sit.deck} in the deck."]
    rows = [("", "option", "wins (95%)", "final score (95%)", "improves (95%)", "now",
             "gift (95%)")]
    from ..realms.game.advice import challenge_z
    from ..realms.game.report import breaks_written

    for i, o in enumerate(advice.options):
        mark = "→" if i == 0 else ("·" if not o.active else " ")
        if breaks_written(o):  # (issue 39)
            rows.append((mark, loc.text(o.label()), "not legal: breaks a written choice",
                         "", "", "", ""))
            continue
        rows.append((mark, loc.text(o.label()), _ci(o.win, "{:.0f}%", 100.0), _ci(o.final),
                     _ci(o.improves, "{:.0f}%", 100.0), "-" if o.now is None else str(o.now),
                     "-" if o.exact and not o.gift.n else _ci(o.gift)))
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    for r in rows:
        lines.append("  ".join(cell.ljust(widths[k]) if k < 2 else cell.rjust(widths[k])
                               for k, cell in enumerate(r)).rstrip())
    best = advice.recommended
    lines.append("")
    lines.append(f"Recommended: {loc.text(best.label())} (chance of winning "
                 f"{_ci(best.win, '{:.0f}%', 100.0)}, expected final score {_ci(best.final)}).")
    ahead = [o for o in advice.options[1:] if o.active and o.utility and best.utility
             and o.value() > best.value()]
    if best.greedy and ahead:
        z = challenge_z(sit.players)
        lines.append(f"This is fr-score best's choice: {loc.text(ahead[0].label())} shows a "
                     f"higher chance, but by less than {z:g} standard errors: within the "
                     "noise.")
    if advice.exact:
        lines.append("Your discard ends the game: every figure is exact.")
    elif advice.rounds == 0:
        lines.append(f"No look-ahead was done: the time budget was spent ({advice.seconds:.2f} "
                     "s) before a first sample was finished, so this is fr-score best's choice "
                     "for the hand now; give a larger --budget to look ahead.")
    else:
        dropped = sum(1 for o in advice.options if not o.active)
        note = f"; {dropped} option(s) marked · stopped early as clearly worse" if dropped else ""
        how = " Each sample plays the game out to its end."
        if advice.learned:
            from ..realms.game.value import shipped_model

            model = shipped_model(sit.catalog, sit.players)
            error = f" (off by {model.rmse:.0f} points, root mean square, in greedy games)" if (
                model is not None and model.rmse) else ""
            theirs = (" (and the other player's sampled hand, after their best take of the "
                      "discard area)") if sit.players == 2 else ""
            how = (" Each sample ends after your turn, where a learned model of greedy games "
                   f"values the hand kept{theirs}: the final scores are its expected ones"
                   f"{error}, the chances read from its spread; the intervals count the "
                   "samples' luck, not the model's error.")
        lines.append(f"{advice.rounds} samples in {advice.seconds:.2f} s{note}.{how} The "
                     "model: fr-score advise --help.")
    if advice.check is not None:
        lines.append(check_sentence(advice.check))
    return "\n".join(lines)


def check_sentence(done: Check) -> str:
    """What the check of the model's choice by play-outs found (:mod:`.realms.game.check`).

    >>> import textwrap
    >>> from fantasy_scorer.realms.game.check import Check
    >>> print(textwrap.fill(check_sentence(Check(12, 0.05, -0.08, -0.01, False)), 88))
    Checked against fr-score best's choice by playing the game out on 12 deals of the hidden
    cards (every player greedy): the model's choice gains 5.0 points of chance of winning by
    its own count, -8.0 in the play-outs, -1.0 weighed together: fr-score best's choice is
    recommended instead.
    """
    verdict = ("the model's choice stays" if done.kept else
               "fr-score best's choice is recommended instead")
    return (f"Checked against fr-score best's choice by playing the game out on {done.worlds} "
            f"deals of the hidden cards (every player greedy): the model's choice gains "
            f"{100 * done.promise:.1f} points of chance of winning by its own count, "
            f"{100 * done.played:.1f} in the play-outs, {100 * done.posterior:.1f} weighed "
            f"together: {verdict}.")


# --------------------------------------------------------------------------------------------
# fr-score simulate
# --------------------------------------------------------------------------------------------


def _default_samples_text() -> str:
    """The advisor's default samples, as ``--help`` says them (from the one table)."""
    from ..realms.game.samples import BASE_SAMPLES, SAMPLES

    more = ", ".join(f"{n} with {p} players" for p, n in sorted(SAMPLES.items()))
    return f"{more}, else {BASE_SAMPLES}" if more else str(BASE_SAMPLES)


@click.command("simulate", cls=OneLineCommand, context_settings=CONTEXT)
@click.option("--games", type=click.IntRange(min=1), default=100, show_default=True)
@click.option("--bots", "lineup", default=None, metavar="NAMES",
              help="One bot per seat, comma-separated (random, greedy, advisor); one name fills "
                   "every seat. Default: advisor, then greedy.")
@click.option("--seed", default="1", show_default=True, help="Seed of the deals and the bots.")
@click.option("--samples", type=click.IntRange(min=1), default=None, metavar="N",
              help="Samples per advisor decision (when --budget is not given; default "
                   f"{_default_samples_text()}).")
@click.option("--budget", type=Seconds(min=0, min_open=True), default=None,
              metavar="SECONDS", help="Time per advisor decision instead (the games then "
                                      "depend on the machine's speed).")
@cluster_options
@json_option("Print one JSON object.")
@cards_option
@game_options
@fail_cleanly
def simulate_cmd(games: int, lineup: str | None, seed: str, samples: int | None,
                 budget: float | None, workers: int | None, scheduler: str | None,
                 as_json: bool, card_files: tuple[str, ...],
                 expansion: str | None, edition: str | None, players: int | None) -> None:
    """Play bot games and report each bot's win share.

    \b
      fr-score simulate --players 4 --games 1000 --bots advisor,greedy,greedy,greedy --seed 1

    Seats rotate every game, so no bot always starts. Per bot: the win share (a win shared
    by k players counts 1/k), its 95% interval, and the mean and spread of its final
    scores; then the mean game length. The same seed plays the same games, on one worker
    or many (--workers, --scheduler: a local or existing Dask cluster). A progress bar
    shows on a terminal.
    """
    from ..realms.game.simulate import parse_lineup, simulate
    from ..realms.solve.census import Game
    from .workers import in_process, simulate_on

    catalog = load_catalog(card_files, expansion, edition)
    if players is None:
        players = len(lineup.split(",")) if lineup and "," in lineup else 4
    names = parse_lineup(lineup or ",".join(["advisor"] + ["greedy"] * (players - 1)), players)
    if not in_process(workers, scheduler):
        sim = simulate_on(Game(expansion, edition, card_files), players, names, games, seed,
                          samples, budget, workers=workers, scheduler=scheduler)
    else:
        progress, done = _progress(games)
        try:
            sim = simulate(catalog, players, names, games, seed, samples, budget, progress)
        finally:
            done()
    if as_json:
        click.echo(json.dumps(sim.to_json()))
        return
    click.echo(simulation_text(sim))


def _progress(games: int) -> tuple[Callable[[int], None] | None, Callable[[], None]]:
    """A progress bar on standard error when it is a terminal (else nothing)."""
    if not sys.stderr.isatty():
        return None, lambda: None
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    bar = Progress("games", BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                   console=Console(stderr=True), transient=True)
    task = bar.add_task("games", total=games)
    bar.start()
    return (lambda n: bar.update(task, completed=n)), bar.stop


def simulation_text(sim) -> str:
    lines = [f"{sim.players} players, {sim.games} games, seed {sim.seed} "
             "(seats rotate every game)"]
    rows = [("seat", "bot", "win share", "95% interval", "mean score", "spread")]
    for b in sim.bots:
        lo, hi = b.ci95
        rows.append((str(b.seat + 1), b.name, f"{b.win_share:.1%}", f"[{lo:.1%}, {hi:.1%}]",
                     f"{b.mean_score:.1f}", f"{b.spread:.1f}"))
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    for r in rows:
        lines.append("  ".join(c.ljust(widths[k]) if k == 1 else c.rjust(widths[k])
                               for k, c in enumerate(r)))
    lines.append(f"fair share {1 / sim.players:.1%}; a shared win counts 1/k; mean game length "
                 f"{sim.mean_turns:.1f} turns; {sim.seconds:.1f} s")
    return "\n".join(lines)
