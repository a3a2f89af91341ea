"""``fr-score census``: how many hands of the game score each total (or a sampled estimate).

The counting is :mod:`fantasy_scorer.realms.solve.census`; the workers are
:mod:`fantasy_scorer.cluster`'s. This module cuts the census into chunks, keeps the chunks
done in ``OUT.chunks`` (one JSON line each, written as it finishes, so that ``--resume``
continues an interrupted census), and prints or writes the histogram.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections import Counter

import click

from .. import cluster
from ..errors import ScorerError, clip
from ..realms.catalog import EDITIONS, EXPANSIONS
from ..realms.solve import census as cs
from .options import CONTEXT, cards_option, fail_cleanly, json_option, read_text
from .workers import cluster_options

#: Hands per part of a sample (a part is one task).
SAMPLE_PART = 20_000


@click.command("census", context_settings=CONTEXT)
@click.option("--expansion", type=click.Choice(sorted(EXPANSIONS)), default=None,
              help="Play with an expansion's cards (cursed-hoards): hands of 8 cards.")
@click.option("--edition", type=click.Choice(sorted(EDITIONS)), default=None,
              help="deluxe: the Deluxe-edition Phoenix replaces the promo Phoenix.")
@click.option("--pool", "pool_file", default=None, metavar="FILE",
              help="Count the hands of these cards only (a file of card names).")
@cluster_options
@click.option("--out", default=None, metavar="FILE",
              help="Write the histogram there; the chunks done go to FILE.chunks as they "
                   "finish.")
@click.option("--resume", is_flag=True,
              help="Continue the census of --out FILE from its chunks done.")
@click.option("--share", "share_file", default=None, metavar="FILE",
              help="Take the hands both editions score alike from another edition's "
                   "FILE.chunks (of the same pool).")
@click.option("--sample", type=click.IntRange(min=1), default=None, metavar="N",
              help="Estimate from N hands drawn uniformly instead (with 95% intervals).")
@click.option("--seed", type=int, default=None, help="Seed of --sample.")
@json_option("Print one JSON object: hands, histogram, seconds.")
@cards_option
@fail_cleanly
def census_cmd(expansion: str | None, edition: str | None, pool_file: str | None,
               workers: int | None, scheduler: str | None, out: str | None, resume: bool,
               share_file: str | None, sample: int | None, seed: int | None, as_json: bool,
               card_files: tuple[str, ...]) -> None:
    """Count every hand of the game by its total, choices made optimally.

    \b
      fr-score census --out census.json            the base game: C(55,7) hands
      fr-score census --edition deluxe --out d.json --share census.json
      fr-score census --expansion cursed-hoards --sample 200000 --seed 1

    A hand holds 7 cards (8 with Cursed Hoards); Necromancer takes no extra card (there is
    no discard area). The work runs on a local Dask cluster of --workers processes, or on
    --scheduler's; the counts are exact and the same whatever the workers.
    """
    t0 = time.perf_counter()
    if resume and out is None:
        raise ScorerError("--resume continues the census of --out FILE; give --out")
    if (sample is None) != (seed is None):
        raise ScorerError("--sample N and --seed S go together; give both")
    if sample is not None and (resume or share_file):
        raise ScorerError("--resume and --share are for a full census, not --sample; "
                          "remove them")
    cluster.plan(workers, scheduler)
    game = cs.Game(expansion, edition, tuple(card_files))
    job = cs.make_job(game, _pool(pool_file, game), _other(game))
    if sample is not None:
        histogram = _sampled(job, sample, seed or 0, workers, scheduler)
        _report(_sample_json(job, histogram, sample, seed or 0), out, as_json, t0)
        return
    histogram = count(job, out, resume, share_file, workers, scheduler)
    _report(census_json(job, histogram), out, as_json, t0)


def _other(game: cs.Game) -> cs.Game | None:
    """The other edition of the same game: the pool lists first the cards both score alike,
    so that their censuses share those hands (``--share``)."""
    if len(EDITIONS) != 2:
        return None
    other = next(e for e in sorted(EDITIONS) if e != (game.edition or "standard"))
    return cs.Game(game.expansion, None if other == "standard" else other, game.card_files)


def _pool(path: str | None, game: cs.Game):
    """The cards of ``--pool FILE`` (names only: no choice, table or section)."""
    if path is None:
        return None
    from ..realms.formats.pool import read_pool

    text, label = read_text(path)
    pool = read_pool(text, label, game.card_files, game.expansion, game.edition)
    if pool.catalog is not game.catalog() and not game.card_files:
        raise ScorerError(f"{clip(label)} names another game than the options; give "
                          "--expansion/--edition on the command line only")
    if pool.pinned or pool.discard is not None or pool.cursed or pool.players is not None:
        raise ScorerError(f"{clip(label)}: a census pool lists cards only (every choice is "
                          "made optimally, there is no table); remove the choices, sections "
                          "and settings")
    return [game.catalog().card(c.id) for c in pool.cards]


# -- the full census --------------------------------------------------------------------------


def header(job: cs.Job) -> dict:
    return {"game": job.game.key, "size": job.size, "pool": list(job.pool)}


def read_chunks(path: str, job: cs.Job | None = None) -> tuple[dict, dict[int, tuple]]:
    """The header and the chunks done of a ``.chunks`` file: ``{start: (count, histogram)}``
    (a last line cut short by an interruption is left out)."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        raise ScorerError(f"no such file: {clip(path)} (nothing to resume)") from None
    except OSError as e:
        raise ScorerError(f"cannot read {clip(path)}: {e.strerror}") from None
    try:
        head = json.loads(lines[0])
    except (IndexError, ValueError):
        raise ScorerError(f"{clip(path)} is not a census's chunks file") from None
    if job is not None and head != header(job):
        raise ScorerError(f"{clip(path)} holds another census ({head.get('game')}, "
                          f"{len(head.get('pool', []))} cards); give the same options, or "
                          "start again without --resume")
    done: dict[int, tuple] = {}
    for line in lines[1:]:
        try:
            row = json.loads(line)
            done[int(row["start"])] = (int(row["count"]),
                                       {int(k): int(v) for k, v in row["histogram"].items()})
        except (ValueError, KeyError, TypeError, AttributeError):
            continue  # the line being written when the census stopped
    return head, done


def _shared(job: cs.Job, path: str, cut: int) -> dict[int, tuple]:
    """The chunks of another edition's census below rank ``cut`` (same pool up to there)."""
    head, done = read_chunks(path)
    alike = 0
    while alike < len(job.pool) and cs.comb(alike, job.size) < cut:
        alike += 1
    if head.get("size") != job.size or head.get("pool", [])[:alike] != list(job.pool[:alike]):
        raise ScorerError(f"{clip(path)} is not a census of the same pool; --share takes "
                          "another edition's census of the same cards")
    return {s: v for s, v in done.items() if s + v[0] <= cut}


def count(job: cs.Job, out: str | None = None, resume: bool = False,
          share_file: str | None = None, workers: int | None = None,
          scheduler: str | None = None, chunk: int = cs.CHUNK) -> Counter:
    """The census of a job on the workers: ``{total: hands}``, exact. With ``out``, the
    chunks done go to ``out + ".chunks"`` as they finish (``resume``: after those already
    there); ``share_file``: another edition's chunks file, whose hands both score alike are
    taken as they are."""
    other = _other(job.game)
    cut = 0
    if other is not None:
        cut = cs.shared_count([job.game.catalog().card(i) for i in job.pool], job.size,
                              job.game.catalog(), other.catalog())
    plan = cs.chunks(job.hands, cut, chunk)
    done: dict[int, tuple] = {}
    if share_file is not None:
        done.update(_shared(job, share_file, cut))
    store = None
    if out is not None:
        path = out + ".chunks"
        if resume and os.path.exists(path):
            done.update(read_chunks(path, job)[1])
        elif resume:
            raise ScorerError(f"no such file: {clip(path)} (nothing to resume); start without "
                              "--resume")
        store = _Store(path, job, done, fresh=not resume)
    todo = [(s, n) for s, n in plan if done.get(s, (None,))[0] != n]
    histogram: Counter = Counter()
    for s, n in plan:
        if done.get(s, (None,))[0] == n:
            cs.add(histogram, done[s][1])
    progress, stop = cluster.progress_bar(len(todo), "hands")
    try:
        for i, part in cluster.run(cs.count_chunk, [(job, s, n) for s, n in todo],
                                   workers=workers, scheduler=scheduler, progress=progress):
            cs.add(histogram, part)
            if store is not None:
                store.write(todo[i], part)
    finally:
        stop()
        if store is not None:
            store.close()
    return histogram


class _Store:
    """The ``.chunks`` file: the header, then one line per chunk as it finishes (flushed)."""

    def __init__(self, path: str, job: cs.Job, done: dict[int, tuple], fresh: bool) -> None:
        try:
            self.f = open(path, "w" if fresh else "a", encoding="utf-8")  # noqa: SIM115
        except OSError as e:
            raise ScorerError(f"cannot write {clip(path)}: {e.strerror}") from None
        if fresh:
            self.f.write(json.dumps(header(job)) + "\n")
            for s, (n, h) in sorted(done.items()):  # the chunks taken from --share
                self._line(s, n, h)
        else:
            self.f.write("\n")  # after a line cut short, a fresh line
        self.f.flush()

    def _line(self, start: int, count: int, histogram: dict[int, int]) -> None:
        self.f.write(json.dumps({"start": start, "count": count,
                                 "histogram": {str(k): v for k, v in sorted(histogram.items())}})
                     + "\n")

    def write(self, chunk: tuple[int, int], histogram: dict[int, int]) -> None:
        self._line(chunk[0], chunk[1], histogram)
        self.f.flush()

    def close(self) -> None:
        self.f.close()


def census_json(job: cs.Job, histogram: Counter) -> dict:
    """The census as the shipped data and ``--out`` hold it (no time: the same census gives
    the same bytes)."""
    return {"game": job.game.key, "size": job.size, "cards": len(job.pool),
            "hands": sum(histogram.values()),
            "histogram": {str(k): histogram[k] for k in sorted(histogram)}}


# -- a sample ---------------------------------------------------------------------------------


def _sampled(job: cs.Job, n: int, seed: int, workers: int | None,
             scheduler: str | None) -> Counter:
    parts = [(job, seed, j, min(SAMPLE_PART, n - j * SAMPLE_PART))
             for j in range(math.ceil(n / SAMPLE_PART))]
    histogram: Counter = Counter()
    progress, stop = cluster.progress_bar(len(parts), "sample")
    try:
        for _, part in cluster.run(cs.sample_chunk, parts, workers=workers,
                                   scheduler=scheduler, progress=progress):
            cs.add(histogram, part)
    finally:
        stop()
    return histogram


def _sample_json(job: cs.Job, histogram: Counter, n: int, seed: int) -> dict:
    """A sample as ``--out`` holds it: its hands' counts (the intervals follow from them)."""
    return {"game": job.game.key, "size": job.size, "cards": len(job.pool),
            "hands": job.hands, "sample": n, "seed": seed,
            "histogram": {str(k): histogram[k] for k in sorted(histogram)}}


def intervals(data: dict) -> dict[str, list[float]]:
    """The 95% interval of each total's share of the hands, from a sample's counts."""
    from ..realms.standing import wilson

    return {k: list(wilson(v, data["sample"])) for k, v in data["histogram"].items()}


# -- output -----------------------------------------------------------------------------------


def _report(data: dict, out: str | None, as_json: bool, t0: float) -> None:
    if out is not None:
        try:
            with open(out, "w", encoding="utf-8") as f:
                json.dump(data, f, indent=None, separators=(",", ":"))
                f.write("\n")
        except OSError as e:
            raise ScorerError(f"cannot write {clip(out)}: {e.strerror}") from None
    seconds = round(time.perf_counter() - t0, 3)
    if as_json:
        extra = {"ci95": intervals(data)} if "sample" in data else {}
        click.echo(json.dumps({**data, **extra, "seconds": seconds}))
        return
    click.echo(census_text(data, seconds))


def census_text(data: dict, seconds: float) -> str:
    """A few lines: how many hands, the mean and median total, the highest, some quantiles."""
    hist = {int(k): v for k, v in data["histogram"].items()}
    counted = sum(hist.values())
    what = (f"{counted:,} of {data['hands']:,} hands sampled (seed {data['seed']})"
            if "sample" in data else f"{counted:,} hands")
    lines = [f"{data['game']}: {what} of {data['size']} cards, choices made optimally"]
    if counted:
        mean = sum(k * v for k, v in hist.items()) / counted
        top = max(hist)
        lines.append(f"mean total {mean:.1f}; highest {top} ({hist[top]:,} hands); "
                     + "; ".join(f"{int(q * 100)}% score at most {quantile(hist, q)}"
                                 for q in (0.5, 0.9, 0.99)))
    lines.append(f"{seconds:.1f} s")
    return "\n".join(lines)


def quantile(hist: dict[int, int], q: float) -> int:
    """The lowest total that at least a share ``q`` of the hands do not exceed."""
    need = q * sum(hist.values())
    seen = 0
    for k in sorted(hist):
        seen += hist[k]
        if seen >= need:
            return k
    return max(hist)

