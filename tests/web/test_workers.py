"""The searches off the event loop: worker processes give the answers the engine gives, a
lane refuses at once when it is full, a job that overruns its limit has its worker killed and
replaced, the advice's time limit is honest, and identical requests share one search."""

from __future__ import annotations

import asyncio
import os
from concurrent.futures import ThreadPoolExecutor

import pytest

from fantasy_scorer.errors import ScorerError
from fantasy_scorer.realms.hand import Hand
from fantasy_scorer.web import engine, service, workers
from fantasy_scorer.web.games import GameKey, Games, GameSpec
from fantasy_scorer.web.workers import Busy, Job, Lane, Solver

GAMES = Games()
BASE = GAMES.default
CAT = BASE.catalog
# Four choosers and two wild cards: the optimizer has work to do.
HARD = ("FR53", "FR52", "FR51", "FR49", "FR09", "FR16", "FR08")
HARD_POOL = (*HARD, "FR37")


def run_async(coro):
    """``asyncio.run`` in a thread of its own: the session's browser (Playwright's sync API)
    keeps an event loop running in the main thread."""
    with ThreadPoolExecutor(1) as ex:
        return ex.submit(asyncio.run, coro).result()


def pool(ids, **kw) -> service.Pool:
    return service.Pool(BASE, tuple(CAT.by_id[i] for i in ids), **kw)


def test_worker_processes_answer_as_the_engine_does() -> None:
    # No time limit here: the whole search, whatever the machine's load.
    solver = Solver(GAMES, workers=1, advice_time_limit=None, hand_limit=workers.HANG_GUARD)

    async def both():
        try:
            return await solver.hand(pool(HARD), "en"), await solver.best(pool(HARD_POOL), "en")
        finally:
            solver.close()

    hand, best = run_async(both())
    expected = engine.score_hand(Hand(CAT, tuple(CAT.by_id[i] for i in HARD)))
    assert hand["score"]["total"] == expected.result.total
    assert hand["score"]["proven"] is True
    assert hand["explain"]["total"] == expected.result.total
    advice = engine.best_discard(tuple(CAT.by_id[i] for i in HARD_POOL), CAT)
    assert [(d["id"], d["total"]) for d in best["discards"]] == [
        (d.card.id, d.scored.result.total) for d in advice.discards]
    assert best["complete"] is True


def test_a_hand_with_nothing_to_choose_is_scored_at_once_without_a_worker() -> None:
    solver = Solver(GAMES, workers=1)
    data = run_async(solver.hand(pool(("FR01", "FR13", "FR16")), "en"))
    assert data["score"]["total"] == 126 and data["score"]["optimized"] is False
    assert solver.hand_lane is not None and solver.hand_lane._idle is None  # never started


def test_a_full_lane_refuses_at_once() -> None:
    lane = Lane("test", 1, GameSpec(), hard_limit=60, waiting=0)

    async def run():
        lane.start()
        held = await lane._idle.get()  # the only worker is busy with somebody else's search
        try:
            await lane.run(workers.job_for("hand", pool(HARD), "en"))
        finally:
            lane._idle.put_nowait(held)
            lane.close()

    with pytest.raises(Busy, match="the scorer is busy with 1 searches"):
        run_async(run())


def never_answering_lane(tmp_path, hard_limit: float) -> Lane:
    """A lane of one worker whose card file is a pipe nobody writes to: its jobs never
    finish."""
    fifo = tmp_path / "never.yaml"
    os.mkfifo(fifo)
    return Lane("test", 1, GameSpec((str(fifo),)), hard_limit=hard_limit)


def test_a_job_past_the_hard_limit_has_its_worker_replaced(tmp_path) -> None:
    # A worker whose card file is a pipe nobody writes to never answers: the lane must stop
    # waiting at its hard limit, kill the worker and start another.
    lane = never_answering_lane(tmp_path, hard_limit=0.5)

    async def run():
        lane.start()
        first = lane._all[0]
        try:
            await lane.run(Job("hand", GameKey(), ("FR01",), ()))
        finally:
            replaced = lane._all[0]
            lane.close()
        return first, replaced

    with pytest.raises(Busy, match=r"took longer than 0\.5 s and was stopped"):
        run_async(run())
    assert not lane._all  # closed; the replaced worker was killed with it


def test_a_cancelled_request_never_hands_its_busy_worker_to_the_next(tmp_path) -> None:
    # A request cancelled mid-search (the server stopping, a caller's own timeout) leaves its
    # thread waiting on the worker's pipe: the lane must replace that worker, not queue it
    # again for a job that would then read this one's answer.
    lane = never_answering_lane(tmp_path, hard_limit=60)

    async def run():
        lane.start()
        first = lane._all[0]
        task = asyncio.create_task(lane.run(Job("hand", GameKey(), ("FR01",), ())))
        try:
            while not lane._busy:  # (until the job is sent; a state, not a time)
                await asyncio.sleep(0.01)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            return first, lane._idle.get_nowait()
        finally:
            lane.close()

    first, idle = run_async(run())
    assert idle is not first and not first.proc.is_alive()


def test_a_search_under_way_when_its_lane_closes_is_refused_and_not_restarted(
        tmp_path) -> None:
    # The server stopping closes the lanes (their workers killed) while a search may be
    # under way: that request is refused as any whose worker stopped, and no new worker is
    # started for a closed lane.
    lane = never_answering_lane(tmp_path, hard_limit=60)

    async def run():
        lane.start()
        task = asyncio.create_task(lane.run(Job("hand", GameKey(), ("FR01",), ())))
        while not lane._busy:  # (until the job is sent; a state, not a time)
            await asyncio.sleep(0.01)
        lane.close()
        with pytest.raises(Busy, match="a solver stopped"):
            await task

    run_async(run())
    assert not lane._all and lane._idle is None


def never_ready(conn, spec) -> None:
    """A worker's main function that never says it is ready (it waits for the server)."""
    conn.recv()


def test_a_worker_that_never_gets_ready_is_replaced(monkeypatch) -> None:
    monkeypatch.setattr(workers, "_worker_main", never_ready)  # (spawned by its name)
    lane = Lane("test", 1, GameSpec(), hard_limit=60, start_limit=0.5)

    async def run():
        lane.start()
        first = lane._all[0]
        try:
            with pytest.raises(Busy, match=r"a solver did not start within 0\.5 s"):
                await lane.run(Job("hand", GameKey(), ("FR01",), ()))
            return first, lane._all[0]
        finally:
            lane.close()

    first, replaced = run_async(run())
    assert replaced is not first and not first.proc.is_alive()


class ScriptedPipe:
    """The server's end of a worker's pipe, answering from a script: what was polled for
    (the timeouts) and what was sent, in order."""

    def __init__(self, *answers) -> None:
        self.answers = list(answers)
        self.events: list[tuple[str, object]] = []

    def poll(self, timeout: float) -> bool:
        self.events.append(("poll", timeout))
        return True

    def recv(self):
        return self.answers.pop(0)

    def send(self, obj) -> None:
        self.events.append(("send", obj))


def test_a_new_workers_start_is_no_part_of_its_first_jobs_limit() -> None:
    # Under load a new worker takes seconds to start: its first job is sent once it says it
    # is ready, and only the job is held to the hard limit (the start to its own limit).
    worker = workers._Worker.__new__(workers._Worker)  # (no process: a scripted pipe)
    worker.ready = False
    worker.conn = ScriptedPipe(workers.READY, ("ok", "answer"), ("ok", "second"))
    job = Job("hand", GameKey(), ("FR01",), ())
    assert worker.call(job, 0.5, start_limit=60) == ("ok", "answer")
    assert worker.conn.events == [("poll", 60), ("send", job), ("poll", 0.5)]
    assert worker.call(job, 0.5, start_limit=60) == ("ok", "second")  # ready: no wait again
    assert worker.conn.events[3:] == [("send", job), ("poll", 0.5)]


def test_advice_stopped_by_its_time_limit_says_so_and_stays_exact() -> None:
    # With no time at all the search stops after its first step (the compiled enumeration may
    # score all eight discards in that step): the advice says whether it reached every
    # discard, and each discard it lists is the exact best of the hand it leaves.
    solver = Solver(GAMES, workers=0, advice_time_limit=0.0)
    best = run_async(solver.best(pool(HARD_POOL), "en"))
    assert best["complete"] is (len(best["discards"]) == len(HARD_POOL))
    assert best["discards"]
    for d in best["discards"]:
        left = tuple(CAT.by_id[i] for i in HARD_POOL if i != d["id"])
        assert d["total"] == engine.score_hand(Hand(CAT, left)).result.total


def test_identical_requests_share_one_search(monkeypatch) -> None:
    calls = []
    real = workers.answer

    def counted(games, job):
        calls.append(job)
        return real(games, job)

    monkeypatch.setattr(workers, "answer", counted)
    solver = Solver(GAMES, workers=0)

    async def run():
        a, b = await asyncio.gather(solver.best(pool(HARD_POOL), "en"),
                                    solver.best(pool(HARD_POOL), "en"))
        c = await solver.best(pool(HARD_POOL), "en")
        return a, b, c

    a, b, c = run_async(run())
    assert a == b == c and len(calls) == 1


def test_a_request_sharing_a_cancelled_search_runs_its_own() -> None:
    # Two identical requests share one search; the one that started it is cancelled (the
    # server stopping, a caller's own timeout): the other must not fail with its
    # cancellation (uvicorn would answer that with a 500), it searches for itself.
    solver = Solver(GAMES, workers=0)
    held = []

    async def compute(job, lane):
        held.append(job)
        if len(held) == 1:
            await asyncio.Event().wait()  # the first search never ends by itself
        return "ok", {"search": len(held)}

    solver._compute = compute

    async def run():
        first = asyncio.create_task(solver.best(pool(HARD_POOL), "en"))
        while not held:  # (until the first search is under way; a state, not a time)
            await asyncio.sleep(0)
        second = asyncio.create_task(solver.best(pool(HARD_POOL), "en"))
        await asyncio.sleep(0)  # the second now waits for the first's search
        first.cancel()
        with pytest.raises(asyncio.CancelledError):
            await first
        return await second

    assert run_async(run()) == {"search": 2}


def test_a_worker_reports_the_users_mistake_as_a_line() -> None:
    status, line = workers.answer(GAMES, Job("hand", GameKey(), ("FR99",), ()))
    assert (status, line) == ("refused", "unknown card 'FR99'")
    solver = Solver(GAMES, workers=0)
    with pytest.raises(ScorerError, match="discard advice needs 8 cards"):
        run_async(solver.best(pool(HARD), "en"))


def test_a_busy_solver_is_a_503_with_retry_after(monkeypatch) -> None:
    from fastapi.testclient import TestClient

    from fantasy_scorer.web.app import create_app

    app = create_app()

    async def busy(*args, **kwargs):
        raise Busy("the scorer is busy with 5 searches; try again in a few seconds")

    monkeypatch.setattr(app.state.solver, "best", busy)
    r = TestClient(app).post("/api/best", json={"cards": list(HARD_POOL)})
    assert r.status_code == 503 and r.headers["retry-after"] == "5"
    assert r.json() == {"detail": "the scorer is busy with 5 searches; try again in a few "
                                  "seconds"}
