"""Serving the app with uvicorn so that a careless or hostile client cannot hold it down.

uvicorn closes idle keep-alive connections, but a client that sends its request a byte at a
time, or never finishes it, keeps its connection for ever (a thousand of them keep a thousand
sockets). :class:`TimedH11Protocol` gives every request a deadline: it must arrive whole
(headers and body) within :data:`REQUEST_TIMEOUT` seconds of the connection opening or of the
previous answer, else the server answers 408 and closes. It also caps how many connections
one address may hold at once (:data:`PER_ADDRESS`), and how many may wait for their request in
all (:data:`MAX_WAITING`): past that, a new connection closes the one that has waited longest,
so that clients on many addresses sending half requests never fill the server, and a page load
always gets in (it would otherwise wait behind them, or get uvicorn's 503 at
:data:`MAX_CONNECTIONS`). The work a request starts is not under this deadline: the solver has
its own time limits (:mod:`.workers`).
"""

from __future__ import annotations

import asyncio
import errno
import json
import socket
from collections import Counter, OrderedDict
from typing import Any, ClassVar

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from ..errors import ScorerError, clip

#: Seconds a client has to send a whole request.
REQUEST_TIMEOUT = 10.0
#: Connections one client address may hold at once (a phone needs a handful).
PER_ADDRESS = 64
#: Connections and tasks in all before uvicorn answers 503.
MAX_CONNECTIONS = 512
#: Connections waiting for (the rest of) a request, in all addresses, before the one that has
#: waited longest is closed: well under MAX_CONNECTIONS.
MAX_WAITING = 128


def _raw_error(status: int, reason: str, detail: str) -> bytes:
    body = json.dumps({"detail": detail}).encode()
    head = (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n")
    return head.encode("ascii") + body


class TimedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a deadline per request and a cap per address."""

    request_timeout: ClassVar[float] = REQUEST_TIMEOUT
    per_address: ClassVar[int] = PER_ADDRESS
    max_waiting: ClassVar[int] = MAX_WAITING
    #: Open connections per (server, client address).
    _open: ClassVar[Counter[tuple[int, str]]] = Counter()
    #: Per server: the connections waiting for a request, the longest waiting first.
    _waiting: ClassVar[dict[int, OrderedDict[TimedH11Protocol, None]]] = {}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._address: tuple[int, str] | None = None
        self._refused = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._address = (id(self.server_state), self.client[0] if self.client else "")
        TimedH11Protocol._open[self._address] += 1
        if TimedH11Protocol._open[self._address] > self.per_address:
            # Answered, and closed a moment later: closing at once, with the client's request
            # unread, would reset the connection before the client reads why.
            self._refused = True
            transport.write(_raw_error(503, "Service Unavailable",
                                       "too many connections from this address; close some"))
            transport.write_eof()
            self._deadline = self.loop.call_later(1.0, transport.close)
            return
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if self._address is not None and self._address in TimedH11Protocol._open:
            TimedH11Protocol._open[self._address] -= 1
            if TimedH11Protocol._open[self._address] <= 0:
                del TimedH11Protocol._open[self._address]
            self._address = None
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return  # a refused connection's request is not read
        super().data_received(data)
        if self.conn.their_state not in (h11.IDLE, h11.SEND_BODY):
            self._disarm()  # the whole request is in: the rest is the app's time

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # the next request on this connection gets its own deadline

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.request_timeout, self._expire)
        waiting = TimedH11Protocol._waiting.setdefault(id(self.server_state), OrderedDict())
        waiting[self] = None
        while len(waiting) > self.max_waiting:
            oldest = next(iter(waiting))
            oldest._evict()

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        waiting = TimedH11Protocol._waiting.get(id(self.server_state))
        if waiting is not None:
            waiting.pop(self, None)
            if not waiting:
                del TimedH11Protocol._waiting[id(self.server_state)]

    def _evict(self) -> None:
        """Close this connection, which has waited longest for its request, to let a new
        one in."""
        self._disarm()
        if not self.transport.is_closing():
            if self.conn.their_state is not h11.IDLE or self.conn.trailing_data[0]:
                self.transport.write(_raw_error(
                    408, "Request Timeout", "too many unfinished requests at once; the oldest "
                    "is closed: send the request whole"))
                # Closed a moment later, as a refused connection is: closing at once could
                # reset the connection before the client reads why.
                self._refused = True
                self.transport.write_eof()
                self.loop.call_later(1.0, self.transport.close)
                return
            self.transport.close()

    def _expire(self) -> None:
        self._deadline = None
        if self.transport.is_closing() or self.conn.their_state not in (h11.IDLE, h11.SEND_BODY):
            return
        started = self.cycle is not None and self.cycle.response_started
        idle = self.conn.their_state is h11.IDLE and not self.conn.trailing_data[0]
        if not started and not idle:
            seconds = f"{self.request_timeout:g}"
            self.transport.write(_raw_error(
                408, "Request Timeout",
                f"the request did not arrive within {seconds} s; send it whole"))
        self.transport.close()


def config(app: Any, host: str = "127.0.0.1", port: int = 8000,
           protocol: type[TimedH11Protocol] = TimedH11Protocol, **kwargs: Any) -> uvicorn.Config:
    """uvicorn's configuration for the scorer: the timed protocol, a cap on connections."""
    return uvicorn.Config(app, host=host, port=port, http=protocol,
                          limit_concurrency=MAX_CONNECTIONS, timeout_keep_alive=5,
                          log_level=kwargs.pop("log_level", "warning"), **kwargs)


def bind(host: str, port: int) -> socket.socket:
    """A socket bound to ``host`` and ``port``, before anything says the server started: a
    port in use, an address this machine does not have or a name that resolves to nothing
    is one line naming the option to change (uvicorn would print the address first, then
    its own error, and exit with code 3)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError, ValueError) as e:
        why = getattr(e, "strerror", None) or str(e)
        raise ScorerError(f"--host {clip(host)} is no address ({why}); give an address of "
                          "this machine, such as 127.0.0.1 or 0.0.0.0") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # (as uvicorn does)
        sock.bind(address)
    except OSError as e:
        sock.close()
        if e.errno == errno.EADDRINUSE:
            raise ScorerError(f"port {port} is already in use on {clip(host)}; stop the other "
                              "server or choose another port with --port") from None
        if e.errno == errno.EACCES:
            raise ScorerError(f"port {port} needs administrator rights; choose one above "
                              "1023 with --port") from None
        if e.errno == errno.EADDRNOTAVAIL:
            raise ScorerError(f"--host {clip(host)} is not an address of this machine; use "
                              "127.0.0.1, or 0.0.0.0 for every address") from None
        raise ScorerError(f"cannot listen on {clip(host)} port {port}: {e.strerror}; check "
                          "--host and --port") from None
    return sock


def serve(app: Any, host: str = "127.0.0.1", port: int = 8000,
          sock: socket.socket | None = None) -> None:
    """Run the app until Ctrl+C, on ``sock`` when it is given (see :func:`bind`)."""
    server = uvicorn.Server(config(app, host, port))
    server.run(sockets=[sock] if sock is not None else None)
