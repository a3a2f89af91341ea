"""Solver work off the event loop: worker processes, a time limit per request, a short queue.

A hard ``/api/best`` pool keeps the exhaustive search busy for seconds of pure Python. Run in
the server's own process, ten of them would hold the interpreter (and so every page load)
for tens of seconds. Here the searches run in worker processes instead, in two lanes so that
a tap is never queued behind somebody's discard advice:

* the *hand* lane (score and trace of one hand: the optimizer's choices) has one worker;
* the *advice* lane (best discard of one card too many, and the look-ahead advice) has
  ``workers`` of them, and passes the search a time limit (the discard advice then says it
  is incomplete; the look-ahead advice samples for that long).

Each lane admits a few waiting requests; beyond that, or after waiting too long for a worker,
a request is refused at once with :class:`Busy` (a 503 with ``Retry-After``), never queued for
minutes. A job that overruns its lane's hard limit has its worker killed and replaced. The
limit counts from the job's start: a new worker first says it is ready, and only then is its
first job sent (a worker that never gets ready is replaced at :data:`START_LIMIT`).

The lanes are fair: a job may run past its lane's fair share (:data:`FAIR_SHARE`) only while
nobody waits for a worker; once somebody does, the job that has run longest past its share is
stopped (its worker replaced) and refused with :class:`Overran`, so that one slow hand never
makes the other players' taps fail. A job stopped so, or at its hard limit, is remembered for a
while (:data:`OVERRAN_MEMORY`): sent again, it is refused at once instead of holding a worker
again. The discard advice stopped so answers ``complete: false`` rather than a 503, with no
discards and every one ``missing``: those its worker had scored are lost with it (advice
that stops at its own time limit, checked between discards, lists the discards it reached).

A hand with nothing to choose is scored at once in the server (one resolution takes a
millisecond); only searches come here. Answers are kept (a tap asks for the score, then the
trace, of the same hand), and identical requests in flight share one search.

A job is plain data (:class:`Job`: card ids and choice strings), so a worker builds its own
catalogs from the server's :class:`~.games.GameSpec` and never receives Python objects.
"""

from __future__ import annotations

import asyncio
import multiprocessing as mp
import os
import traceback
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from ..errors import ScorerError
from . import service
from .games import GameKey, Games, GameSpec

#: Seconds the discard advice searches before answering with what it has.
ADVICE_TIME_LIMIT = 5.0
#: Seconds past its time limit after which a job's worker is killed.
GRACE = 10.0
#: Seconds a new worker may take to get ready (its interpreter and imports) before it is
#: replaced: only a guard against a hang. Its start is no part of any job's limit: under
#: load it takes seconds, which counted in the hard limit could stop a new server's first
#: discard advice before it settled any discard.
START_LIMIT = 60.0
#: Hard limit for the score of one hand (the optimizer has no time limit of its own).
HAND_LIMIT = 30.0
#: The hard limit when no time limit is set: only a guard against a hang.
HANG_GUARD = 600.0
#: Requests that may wait for a lane's workers, beyond those being served.
WAITING = 4
#: Seconds a request may wait for a worker before it is refused.
WAIT_LIMIT = 10.0
#: Seconds a job of the hand lane may run while another request waits for the lane (the
#: advice lane's share is its time limit and two seconds more).
FAIR_SHARE = 5.0
#: Seconds a job that was stopped is refused at once when sent again.
OVERRAN_MEMORY = 300.0
#: Jobs that were stopped, remembered at most.
OVERRAN_KEPT = 256


class Busy(Exception):
    """The solver cannot take the request now: its one-line reason (a 503)."""

    retry_after = 5


class Overran(Busy):
    """The job ran past its hard limit, or past its fair share while others waited, and was
    stopped."""


@dataclass(frozen=True)
class Job:
    """One search, as plain data: what the worker rebuilds its :class:`~.service.Pool` from."""

    kind: str  # "hand" (score and trace), "best" (discard advice), "advise" (look-ahead)
    game: GameKey
    cards: tuple[str, ...]
    choices: tuple[tuple[str, str], ...]  # chooser id -> the API's choice syntax (ids)
    cursed: tuple[str, ...] = ()
    discard: tuple[str, ...] | None = None
    players: int | None = None
    lang: str = "en"
    optimize: bool = True
    time_limit: float | None = None


def job_for(kind: str, pool: service.Pool, lang: str, optimize: bool = True,
            time_limit: float | None = None) -> Job:
    return Job(
        kind, pool.game.key, tuple(c.id for c in pool.cards),
        tuple((k, service.choice_value(v)) for k, v in pool.choices.items()),
        tuple(c.id for c in pool.cursed),
        None if pool.discard is None else tuple(c.id for c in pool.discard),
        pool.players, lang, optimize, time_limit,
    )


def pool_of(games: Games, job: Job) -> service.Pool:
    game = games.get(job.game)
    table = service.Table(job.cursed, job.discard, job.players)
    return service.pool_from_request(game, job.cards, dict(job.choices), table)


def answer(games: Games, job: Job) -> tuple[str, Any]:
    """``("ok", data)``, ``("refused", line)`` (the user's mistake, in the job's language)
    or ``("failed", text)`` (a bug): what a worker sends back."""
    try:
        pool = pool_of(games, job)
        if job.kind == "best":
            return "ok", service.best_json(pool, job.lang, job.time_limit)
        if job.kind == "advise":
            return "ok", service.advise_json(pool, job.lang, job.time_limit or
                                             service.ADVISE_BUDGET)
        return "ok", service.hand_json(pool, job.lang, job.optimize)
    except ScorerError as e:
        return "refused", service.error_line(e, games.get(job.game), job.lang)
    except Exception:  # noqa: BLE001 - a bug: reported, never a dead worker
        return "failed", traceback.format_exc(limit=5)


#: What a worker sends once, when it has started: it is ready for its first job.
READY = ("ready", None)


def _worker_main(conn: Any, spec: GameSpec) -> None:
    """A worker process: say it is ready, then answer jobs until the server closes the pipe.
    Ready means started (its interpreter and imports: the seconds of a start under load);
    its catalogs take milliseconds and are built for the first job, so that a card file that
    cannot be read holds a job, to the job's limit, as it would any later."""
    conn.send(READY)
    games = Games(spec)
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        conn.send(answer(games, job))


class _Worker:
    """One worker process and its pipe; used by one request at a time."""

    def __init__(self, ctx: Any, spec: GameSpec) -> None:
        self.started: float | None = None  # (loop time) when its job was sent
        self.preempted = False  # stopped to let a waiting request through
        self.ready = False  # it has said it is ready (:data:`READY`)
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker_main, args=(child, spec), daemon=True,
                                name="fr-score-solver")
        self.proc.start()
        child.close()

    def call(self, job: Job, timeout: float,
             start_limit: float = START_LIMIT) -> tuple[str, Any]:
        """Blocking: run in a thread. The job is sent once the worker is ready, so that
        ``timeout`` is the job's own time: NotStarted when the worker is not ready within
        ``start_limit``, TimeoutError when the job overruns ``timeout``."""
        if not self.ready:
            if not self.conn.poll(start_limit):
                raise NotStarted
            self.conn.recv()  # READY (EOFError if the worker died starting)
            self.ready = True
        self.conn.send(job)
        if not self.conn.poll(timeout):
            raise TimeoutError
        return self.conn.recv()

    def kill(self) -> None:
        self.proc.kill()
        self.proc.join(5)
        self.conn.close()


class Failed(Exception):
    """A worker reported a bug (its traceback is the message)."""


class NotStarted(Exception):
    """A new worker was not ready within its start limit."""


class Lane:
    """``size`` workers, the requests waiting for them, and a hard limit per job."""

    def __init__(self, name: str, size: int, spec: GameSpec, hard_limit: float,
                 waiting: int = WAITING, wait_limit: float = WAIT_LIMIT,
                 fair_share: float = FAIR_SHARE, start_limit: float = START_LIMIT) -> None:
        self.name = name
        self.start_limit = start_limit
        self.fair_share = fair_share
        self._busy: list[_Worker] = []
        self._check: asyncio.TimerHandle | None = None
        self.size = size
        self.spec = spec
        self.hard_limit = hard_limit
        self.max_waiting = waiting
        self.wait_limit = wait_limit
        self.waiting = 0
        self._idle: asyncio.Queue[_Worker] | None = None
        self._all: list[_Worker] = []
        self._ctx = mp.get_context("spawn")  # no fork of a threaded server

    def start(self) -> None:
        if self._idle is None:
            self._idle = asyncio.Queue()
            for _ in range(self.size):
                w = _Worker(self._ctx, self.spec)
                self._all.append(w)
                self._idle.put_nowait(w)

    async def run(self, job: Job) -> tuple[str, Any]:
        self.start()
        assert self._idle is not None
        if self._idle.empty() and self.waiting >= self.max_waiting:
            raise Busy(f"the scorer is busy with {self.size + self.waiting} searches; "
                       f"try again in a few seconds")
        self.waiting += 1
        if self._idle.empty():
            self._preempt_soon()
        try:
            worker = await asyncio.wait_for(self._idle.get(), self.wait_limit)
        except asyncio.TimeoutError:
            raise Busy(f"no solver was free within {self.wait_limit:g} s; "
                       "try again in a few seconds") from None
        finally:
            self.waiting -= 1
        loop = asyncio.get_running_loop()
        worker.started, worker.preempted = loop.time(), False
        self._busy.append(worker)
        used = worker  # (``worker`` becomes its replacement when it is replaced)
        try:
            result = await asyncio.to_thread(worker.call, job, self.hard_limit,
                                             self.start_limit)
        except NotStarted:
            worker = self._replace(worker)
            raise Busy(f"a solver did not start within {self.start_limit:g} s; try again in "
                       "a few seconds") from None
        except TimeoutError:
            worker = self._replace(worker)
            raise Overran(f"the search took longer than {self.hard_limit:g} s and was "
                          "stopped; pin a choice to make the hand simpler") from None
        except asyncio.CancelledError:
            # (the request is gone, but its thread still waits on the worker's pipe: back in
            # the queue, the worker would take another job and hand it this job's answer)
            worker = self._replace(worker)
            raise
        except (EOFError, OSError, BrokenPipeError):
            preempted = worker.preempted
            worker = self._replace(worker)
            if preempted:
                raise Overran(f"the search took longer than {self.fair_share:g} s while "
                              "other players waited, and was stopped; pin a choice to make "
                              "the hand simpler") from None
            raise Busy("a solver stopped; try again") from None
        else:
            if worker.preempted:  # (it answered just as it was stopped: the answer stands)
                worker = self._replace(worker)
        finally:
            self._busy.remove(used)
            used.started = None
            if self._idle is not None:  # (None: the lane was closed meanwhile)
                self._idle.put_nowait(worker)
        return result

    def _preempt_soon(self) -> None:
        """Once the longest-running job reaches its fair share, stop it if a request still
        waits (checked again then, for the next one)."""
        if self._check is not None or not self._busy:
            return
        loop = asyncio.get_running_loop()
        started = min(w.started for w in self._busy if w.started is not None) \
            if any(w.started is not None for w in self._busy) else loop.time()
        delay = max(0.0, started + self.fair_share - loop.time())
        self._check = loop.call_later(delay, self._preempt)

    def _preempt(self) -> None:
        self._check = None
        if self.waiting <= 0 or self._idle is None or not self._idle.empty():
            return
        now = asyncio.get_running_loop().time()
        running = [w for w in self._busy if w.started is not None and not w.preempted]
        over = [w for w in running if now - w.started >= self.fair_share]  # type: ignore[operator]
        if over:
            oldest = min(over, key=lambda w: w.started)  # type: ignore[arg-type,return-value]
            oldest.preempted = True
            oldest.proc.kill()  # its call sees the pipe close: EOFError, then Overran
        if len(running) > len(over):
            self._preempt_soon()

    def _replace(self, worker: _Worker) -> _Worker:
        """A new worker in place of ``worker`` (killed), unless the lane was closed meanwhile
        (the server stopping): then none is started and the killed one is returned (a closed
        lane queues nothing)."""
        worker.kill()
        if worker not in self._all:
            return worker
        fresh = _Worker(self._ctx, self.spec)
        self._all[self._all.index(worker)] = fresh
        return fresh

    def close(self) -> None:
        for w in self._all:
            w.kill()
        self._all.clear()
        self._idle = None


class Solver:
    """The web app's searches: in worker processes (``workers`` ≥ 1), or in a thread of the
    server (``workers=0``: for tests and a single-user machine), with the same answers."""

    def __init__(self, games: Games, workers: int = 1,
                 advice_time_limit: float | None = ADVICE_TIME_LIMIT,
                 hand_limit: float = HAND_LIMIT, cache_size: int = 256) -> None:
        self.games = games
        self.workers = workers
        self.advice_time_limit = advice_time_limit
        self.hand_lane = self.advice_lane = None
        if workers > 0:
            advice_limit = HANG_GUARD if advice_time_limit is None else advice_time_limit + GRACE
            self.hand_lane = Lane("hand", 1, games.spec, hand_limit)
            share = FAIR_SHARE if advice_time_limit is None else advice_time_limit + 2.0
            self.advice_lane = Lane("advice", workers, games.spec, advice_limit,
                                    fair_share=share)
        self._cache: OrderedDict[Job, Any] = OrderedDict()
        self._cache_size = cache_size
        self._overran: OrderedDict[Job, tuple[float, str]] = OrderedDict()
        self._flying: dict[Job, asyncio.Future[tuple[str, Any]]] = {}

    def start(self) -> None:
        """Start the worker processes now rather than on the first search."""
        for lane in (self.hand_lane, self.advice_lane):
            if lane is not None:
                lane.start()

    def close(self) -> None:
        for lane in (self.hand_lane, self.advice_lane):
            if lane is not None:
                lane.close()

    async def hand(self, pool: service.Pool, lang: str, optimize: bool = True) -> dict[str, Any]:
        """``{"score", "explain"}`` of the pool as a hand."""
        pool.hand()  # a pool that is no hand is refused here, at once, with its reason
        if not (optimize and service.engine.needs_search(pool.hand())):
            return service.hand_json(pool, lang, optimize)
        return await self._run(job_for("hand", pool, lang, optimize), self.hand_lane)

    async def best(self, pool: service.Pool, lang: str) -> dict[str, Any]:
        """The discard advice of a pool of one card too many."""
        if not pool.advisable:
            service.best_json(pool, lang)  # raises the refusal with its reason
        pool.check_table()
        job = job_for("best", pool, lang, time_limit=self.advice_time_limit)
        try:
            return await self._run(job, self.advice_lane)
        except Overran:  # the time limit promises the discards reached: none, this time
            return service.stopped_best_json(pool, lang)

    async def advise(self, pool: service.Pool, lang: str) -> dict[str, Any]:
        """The look-ahead advice of a pool of one card too many (a second of sampling)."""
        service.check_ahead(pool)  # a refusal at once, in the server, with its reason
        job = job_for("advise", pool, lang, time_limit=service.ADVISE_BUDGET)
        return await self._run(job, self.advice_lane)

    async def _run(self, job: Job, lane: Lane | None) -> dict[str, Any]:
        if job in self._cache:
            self._cache.move_to_end(job)
            return self._cache[job]
        now = asyncio.get_running_loop().time()
        if job in self._overran:
            when, why = self._overran[job]
            if now - when < OVERRAN_MEMORY:
                raise Overran(why)  # sent again: refused at once, no worker held again
            del self._overran[job]
        if job in self._flying:
            shared = self._flying[job]
            try:
                status, data = await asyncio.shield(shared)
            except asyncio.CancelledError:
                if not shared.cancelled() or _cancelling():
                    raise  # this request was cancelled itself
                # the request that ran the search was cancelled, not this one: its own search
                return await self._run(job, lane)
        else:
            future: asyncio.Future[tuple[str, Any]] = asyncio.get_running_loop().create_future()
            self._flying[job] = future
            try:
                status, data = await self._compute(job, lane)
                future.set_result((status, data))
            except Overran as e:
                self._overran[job] = (now, str(e))
                while len(self._overran) > OVERRAN_KEPT:
                    self._overran.popitem(last=False)
                future.set_exception(e)
                future.exception()
                raise
            except asyncio.CancelledError:
                future.cancel()  # (those sharing it search again: they were not cancelled)
                raise
            except BaseException as e:
                future.set_exception(e)
                future.exception()  # retrieved: no "never retrieved" warning
                raise
            finally:
                del self._flying[job]
        if status == "refused":
            raise ScorerError(data)
        if status == "failed":
            raise Failed(data)
        self._cache[job] = data
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return data

    async def _compute(self, job: Job, lane: Lane | None) -> tuple[str, Any]:
        if lane is None:
            return await asyncio.to_thread(answer, self.games, job)
        return await lane.run(job)


def _cancelling() -> bool:
    """Whether the current task is being cancelled (Python 3.11's ``Task.cancelling``; on
    3.10, where a task cannot tell, False: a request cancelled at the same moment as the
    search it shared then runs a search of its own, its own cancellation lost)."""
    cancelling = getattr(asyncio.current_task(), "cancelling", None)
    return bool(cancelling()) if cancelling is not None else False


def default_workers() -> int:
    """Advice workers for this machine: one per core beyond the first, at least one, at most
    four (the hand lane and the server need a core too)."""
    return max(1, min(4, (os.cpu_count() or 2) - 1))

