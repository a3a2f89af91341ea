"""A server that cannot be held down (issue 15 §4): capped bodies, one error shape for every
malformed body, strict values, HEAD, and — on a live server over raw sockets — requests sent
too slowly or never finished, and too many connections from one address.

No test here measures speed: the deadlines are made short so that a request that is never
finished is answered, and the only time in an assertion is a hang guard.
"""

from __future__ import annotations

import socket

import pytest

from fantasy_scorer.web import server
from fantasy_scorer.web.app import create_app
from fantasy_scorer.web.guard import MAX_BODY, depth_of

from .conftest import LiveServer

HAND = ["Mountain", "Great Flood", "Smoke", "Whirlwind", "Air Elemental", "Wildfire", "Mirage"]
HANG_GUARD = 30.0  # seconds: a guard against a hang, not a speed test


def one_line(r, status: int) -> str:
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"detail"} and isinstance(body["detail"], str)
    assert "\n" not in body["detail"] and body["detail"]
    return body["detail"]


def post(client, body: bytes, content_type: str | None = "application/json", path="/api/score"):
    headers = {"Content-Type": content_type} if content_type else {}
    return client.post(path, content=body, headers=headers)


# --------------------------------------------------------------------------------------------
# Bodies
# --------------------------------------------------------------------------------------------


def test_a_body_over_the_cap_is_413_without_being_read(client) -> None:
    big = b'{"cards": ["' + b"x" * MAX_BODY + b'"]}'
    detail = one_line(post(client, big), 413)
    assert "larger than 64 KB" in detail
    # Announced in the headers, refused before any of it is read (pages too).
    r = client.get("/", headers={"Content-Length": str(50 * 1024 * 1024)})
    assert one_line(r, 413).startswith("the request body is larger than 64 KB")


def test_a_body_without_a_length_is_counted_as_it_comes(client) -> None:
    chunks = (b"x" * 8192 for _ in range(16))  # 128 KB, sent chunked
    r = client.post("/api/score", content=chunks, headers={"Content-Type": "application/json"})
    assert "larger than 64 KB" in one_line(r, 413)


@pytest.mark.parametrize(("body", "content_type", "status", "start"), [
    (b'{"cards": ["Mountain"', "application/json", 422,
     "the body is not valid JSON: Expecting ',' delimiter at line 1 column 22"),
    (b'{"cards": ["Mount\xe9in"]}', "application/json", 422,
     "the body is not UTF-8 text (byte 18)"),
    (b"[" * 10_000 + b"]" * 10_000, "application/json", 422,
     "the JSON nests deeper than 8 levels"),
    (b"", "application/json", 422, "the body is empty"),
    (b'{"cards": ["Mountain"]}', "text/plain", 415,
     "content type 'text/plain' is not JSON; send the body as application/json"),
    (b'{"cards": ["Mountain"]}', None, 415, "content type 'none' is not JSON"),
    (b"cards=Mountain", "application/x-www-form-urlencoded", 415,
     "content type 'application/x-www-form-urlencoded' is not JSON"),
    (b'["Mountain"]', "application/json", 422, "body: Input should be a valid dictionary"),
    (b'{"cards": ["Mountain"], "optimize": "yes"}', "application/json", 422,
     "optimize: Input should be a valid boolean"),
    (b'{"cards": ["Mountain"], "optimize": 1}', "application/json", 422,
     "optimize: Input should be a valid boolean"),
    (b'{"cards": ["Mountain"], "players": "4"}', "application/json", 422,
     "players: Input should be a valid integer"),
    (b'{"cards": [1]}', "application/json", 422, "cards.0: Input should be a valid string"),
])
def test_every_malformed_body_has_the_one_error_shape(client, body, content_type, status,
                                                      start) -> None:
    for path in ("/api/score", "/api/best", "/api/explain"):
        detail = one_line(post(client, body, content_type, path), status)
        assert detail.startswith(start), detail


def test_json_with_a_charset_is_json(client) -> None:
    body = b'{"cards": ["Mountain", "Smoke", "Wildfire"]}'
    r = post(client, body, "application/json; charset=utf-8")
    # Mountain 9 + 50 (with Smoke and Wildfire) = 59; Smoke 27 (with a Flame); Wildfire 40
    # blanks nothing it names here (Mountain and Weather are spared): 126.
    assert r.status_code == 200 and r.json()["total"] == 126


def test_nesting_is_measured_outside_strings() -> None:
    assert depth_of('{"a": "[[[[[[[[[[["}', 8) == 1
    assert depth_of('{"a": "\\"[[[["}', 8) == 1  # an escaped quote does not end the string
    assert depth_of('{"a": [[{"b": []}]]}', 8) == 5


def test_errors_outside_the_api_have_the_same_shape(client) -> None:
    assert one_line(client.get("/nowhere"), 404) == "Not Found"
    assert one_line(client.get("/api/score"), 405) == "Method Not Allowed"
    assert one_line(client.get("/icon-7.png"), 404).startswith("no icon of 7 px")


def test_head_of_the_page_answers(client) -> None:
    r = client.head("/")
    assert r.status_code == 200 and r.content == b""
    assert client.head("/static/app.js").status_code == 200


def test_the_rules_errors_are_400_in_the_language_of_the_request(client) -> None:
    r = client.post("/api/score", json={"cards": ["Dragon", "Drache"], "lang": "de"})
    assert one_line(r, 400) == "Drache steht zweimal da; jede Karte gibt es im Spiel nur einmal"
    r = client.post("/api/best", json={"cards": HAND, "lang": "pl"})
    assert one_line(r, 400) == ("rada, co odrzucić, wymaga 8 kart (ręki z 7 i właśnie "
                                "dobranej karty); otrzymano: 7")


# --------------------------------------------------------------------------------------------
# Slow and unfinished requests, on a live server
# --------------------------------------------------------------------------------------------


class Quick(server.TimedH11Protocol):
    """The server's protocol with a one-second deadline and a cap of five per address."""

    request_timeout = 1.0
    per_address = 5


@pytest.fixture(scope="module")
def quick_server():
    with LiveServer(create_app(), protocol=Quick) as live:
        yield live


def talk(port: int, data: bytes) -> bytes:
    """Send ``data`` and read until the server closes the connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=HANG_GUARD) as s:
        s.sendall(data)
        out = b""
        while chunk := s.recv(65536):
            out += chunk
        return out


def test_half_sent_headers_time_out_with_408(quick_server) -> None:
    answer = talk(quick_server.port, b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
    assert answer.startswith(b"HTTP/1.1 408 ")
    assert b'{"detail": "the request did not arrive within 1 s; send it whole"}' in answer


def test_a_half_sent_body_times_out_with_408(quick_server) -> None:
    head = (b"POST /api/score HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n")
    answer = talk(quick_server.port, head + b'{"cards": [')
    assert answer.startswith(b"HTTP/1.1 408 ")


def test_many_unfinished_requests_are_all_closed_and_the_server_still_answers(
        quick_server) -> None:
    socks = []
    try:
        for _ in range(Quick.per_address):
            s = socket.create_connection(("127.0.0.1", quick_server.port), timeout=HANG_GUARD)
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
            socks.append(s)
        # One more from the same address is refused at once.
        refused = talk(quick_server.port, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        assert refused.startswith(b"HTTP/1.1 503 ") and b"too many connections" in refused
        for s in socks:  # each is answered 408 and closed by the server
            out = b""
            while chunk := s.recv(65536):
                out += chunk
            assert out.startswith(b"HTTP/1.1 408 ")
    finally:
        for s in socks:
            s.close()
    ok = talk(quick_server.port, b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert ok.startswith(b"HTTP/1.1 200 ")


def test_a_whole_request_is_not_cut_by_the_deadline(quick_server) -> None:
    # The deadline is for receiving the request; answering it is the app's time.
    body = b'{"cards": ["Mountain"]}'
    head = (b"POST /api/score HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Connection: close\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n")
    answer = talk(quick_server.port, head + body)
    assert answer.startswith(b"HTTP/1.1 200 ") and b'"total":9' in answer


def test_a_huge_announced_body_is_refused_before_it_is_sent(quick_server) -> None:
    head = (b"POST /api/score HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 52428800\r\n\r\n")
    answer = talk(quick_server.port, head + b"{")
    assert answer.startswith(b"HTTP/1.1 413 ")
