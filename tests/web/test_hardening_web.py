"""The audit's ways to crash or hold down the page and its API (issue 41 §7-9, and issue 39's
last paragraph): a huge number or a key twice is a one-line 4xx, half-sent requests from many
addresses never keep a page load out, and a slow search never makes other requests fail.

No assertion measures speed: the times below are deadlines that make a test finish, or guards
against a hang.
"""

from __future__ import annotations

import asyncio
import os
import socket

import pytest

from fantasy_scorer.web import server, workers
from fantasy_scorer.web.app import create_app
from fantasy_scorer.web.games import GameKey, GameSpec
from fantasy_scorer.web.workers import Job, Lane, Overran, Solver

from .conftest import LiveServer
from .test_workers import GAMES, HARD, HARD_POOL, pool, run_async

BIG = "9" * 5000
HAND = ["Mountain", "Great Flood", "Smoke", "Whirlwind", "Air Elemental", "Wildfire", "Mirage"]
HANG_GUARD = 30.0  # seconds: a guard against a hang, not a speed test
JSON = {"content-type": "application/json"}


def detail(r, status: int) -> str:
    assert r.status_code == status, r.text
    body = r.json()
    assert list(body) == ["detail"] and "\n" not in body["detail"]
    return body["detail"]


# -- 7. huge numbers: 4xx, never 500 -------------------------------------------------------------


@pytest.mark.parametrize("body", [
    '{"cards": ["Mountain"], "players": BIG}'.replace("BIG", BIG),
    '{"cards": [BIG]}'.replace("BIG", BIG),
    '{"cards": ["Mountain"], "choices": {"Mirage": BIG}}'.replace("BIG", BIG),
    '{"cards": ["Mountain"], "lang": -BIG}'.replace("BIG", BIG),
])
def test_7_a_huge_number_anywhere_in_a_body_is_a_400(client, body) -> None:
    for path in ("/api/score", "/api/best", "/api/advise", "/api/explain"):
        assert detail(client.post(path, content=body, headers=JSON), 400) == (
            "a number of 5000 digits in the body; the API's numbers are small whole numbers "
            "such as 4")


def test_7_nan_is_no_json_number(client) -> None:
    r = client.post("/api/score", content='{"cards": ["Mountain"], "players": NaN}',
                    headers=JSON)
    assert detail(r, 400) == "'NaN' is not a JSON number; send a number such as 4"


@pytest.mark.parametrize("query", [f"/?players={BIG}", f"/?hand=FR01&playerCount={BIG}",
                                   "/?players=%C2%B2"])
def test_7_a_huge_number_in_the_page_address_is_a_400_page(client, query) -> None:
    r = client.get(query)
    assert r.status_code == 400
    assert "players must be a" in r.text or "playerCount must be a" in r.text


# -- issue 39: a key twice, a card's choice twice -------------------------------------------------


@pytest.mark.parametrize("body, key", [
    ('{"cards": ["Mountain"], "cards": ["King"]}', "cards"),
    ('{"cards": ["Mirage"], "choices": {"Mirage": "Rainstorm", "Mirage": "Blizzard"}}',
     "Mirage"),
])
def test_a_key_twice_in_a_json_object_is_a_400(client, body, key) -> None:
    assert detail(client.post("/api/score", content=body, headers=JSON), 400) == (
        f"the key '{key}' appears twice in a JSON object; keep one")


def test_choices_naming_one_card_twice_are_a_400(client) -> None:
    r = client.post("/api/score", json={"cards": HAND,
                                        "choices": {"Mirage": "Rainstorm", "FR52": "Blizzard"}})
    assert detail(r, 400) == "'Mirage' and 'FR52' both give Mirage's choice; keep one"


# -- 8. half-sent requests from many addresses ----------------------------------------------------


class Crowded(server.TimedH11Protocol):
    """Deadlines long enough that only the total cap closes a half-sent request here."""

    request_timeout = HANG_GUARD
    per_address = 5
    max_waiting = 20


def test_8_half_sent_requests_from_many_addresses_never_keep_the_page_out() -> None:
    addresses = [f"127.0.0.{i}" for i in range(2, 12)]  # ten loopback addresses
    socks: list[socket.socket] = []
    with LiveServer(create_app(), protocol=Crowded) as live:
        try:
            for address in addresses:  # each under its per-address cap, 50 in all
                for _ in range(Crowded.per_address):
                    s = socket.create_connection(("127.0.0.1", live.port), timeout=HANG_GUARD,
                                                 source_address=(address, 0))
                    s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Half: ")
                    socks.append(s)
            pages = []
            for _ in range(5):
                with socket.create_connection(("127.0.0.1", live.port),
                                              timeout=HANG_GUARD) as s:
                    s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    out = b""
                    while chunk := s.recv(65536):
                        out += chunk
                    pages.append(out.split(b"\r\n", 1)[0])
            assert pages == [b"HTTP/1.1 200 OK"] * 5
            # The half-sent requests that waited longest were closed by the server (a 408
            # saying why, unless the close overtook it on a loaded machine).
            closed = []
            for s in socks[:len(socks) - Crowded.max_waiting]:
                try:
                    closed.append(s.recv(65536))
                except ConnectionResetError:
                    closed.append(b"")
            # (each recv ended, so each was closed; whether the 408 was read first depends on load)
            assert all(c == b"" or c.startswith(b"HTTP/1.1 408 ") for c in closed)
        finally:
            for s in socks:
                s.close()


# -- 9. a slow search never makes the others fail -------------------------------------------------


def never_answers(tmp_path) -> GameSpec:
    """A game whose card file is a pipe nobody writes to: its workers never answer."""
    fifo = tmp_path / "never.yaml"
    os.mkfifo(fifo)
    return GameSpec((str(fifo),))


def test_9_a_search_past_its_share_is_stopped_for_a_waiting_request(tmp_path) -> None:
    lane = Lane("hand", 1, never_answers(tmp_path), hard_limit=workers.HANG_GUARD,
                fair_share=0.2)
    slow = Job("hand", GameKey(), ("FR01",), ())
    other = Job("hand", GameKey(), ("FR02",), ())

    async def run():
        lane.start()
        first = asyncio.create_task(lane.run(slow))
        await asyncio.sleep(0.05)  # the first search holds the only worker
        second = asyncio.create_task(lane.run(other))
        try:
            with pytest.raises(Overran) as stopped:
                await asyncio.wait_for(first, HANG_GUARD)
            # The waiting request has the (new) worker now; nobody waits.
            for _ in range(int(HANG_GUARD / 0.05)):
                if lane.waiting == 0 and lane._busy:
                    break
                await asyncio.sleep(0.05)
            assert lane.waiting == 0 and len(lane._busy) == 1
            return str(stopped.value)
        finally:
            second.cancel()
            lane.close()

    assert run_async(run()) == ("the search took longer than 0.2 s while other players waited, "
                                "and was stopped; pin a choice to make the hand simpler")


def test_9_a_search_alone_runs_past_its_share() -> None:
    # Nobody waits: the fair share stops nothing (the answer is the engine's).
    solver = Solver(GAMES, workers=1, advice_time_limit=None, hand_limit=workers.HANG_GUARD)
    solver.hand_lane.fair_share = 0.0

    async def run():
        try:
            return await solver.hand(pool(HARD), "en")
        finally:
            solver.close()

    assert run_async(run())["score"]["proven"] is True


def test_9_a_stopped_search_sent_again_is_refused_at_once(tmp_path) -> None:
    solver = Solver(GAMES, workers=1, advice_time_limit=5.0)
    spec = never_answers(tmp_path)
    solver.hand_lane = Lane("hand", 1, spec, hard_limit=0.3)
    solver.advice_lane = Lane("advice", 1, spec, hard_limit=0.3)

    async def run():
        try:
            with pytest.raises(Overran, match="took longer than 0.3 s"):
                await solver.hand(pool(HARD), "en")
            worker = solver.hand_lane._all[0]
            with pytest.raises(Overran, match="took longer than 0.3 s"):
                await solver.hand(pool(HARD), "en")
            assert solver.hand_lane._all[0] is worker  # no worker was held, none replaced
            return await solver.best(pool(HARD_POOL), "en")
        finally:
            solver.close()

    best = run_async(run())
    # The discard advice stopped at its limit answers with the discards it reached: none.
    assert best["complete"] is False and best["discards"] == []
    assert best["code"] == pool(HARD_POOL).code
