"""Request bodies the server will read: capped, JSON where JSON is expected, one error shape.

:class:`BodyGuard` is an ASGI middleware in front of the app. Every body is capped (64 KB by
default: a hand needs a few hundred bytes); a body announced or found larger is a 413 at once,
without reading the rest. The JSON API's bodies are read here in full and checked before the
app sees them: the content type must be JSON, the bytes UTF-8, the nesting shallow (a hand is
three levels deep; a thousand nested lists would only cost the parser), the syntax valid.
Every refusal has the API's one shape, ``{"detail": "one line"}``, naming the problem and the
fix. A client that sends its request too slowly is the server's business
(:mod:`.server`), not this layer's.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from ..errors import clip
from ..inputs import MAX_DIGITS

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: The largest request body read (bytes).
MAX_BODY = 64 * 1024
#: The deepest nesting of lists and objects a JSON body may have.
MAX_DEPTH = 8
JSON_TYPES = ("application/json",)


class Refused(Exception):
    """A body the guard will not pass on: its HTTP status and one line."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


async def send_error(send: Send, status: int, detail: str,
                     headers: tuple[tuple[bytes, bytes], ...] = ()) -> None:
    """A JSON error ``{"detail": …}``; the connection is closed after it (a body may be
    left unread)."""
    body = json.dumps({"detail": detail}).encode()
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"), *headers]})
    await send({"type": "http.response.body", "body": body})


def depth_of(text: str, limit: int) -> int:
    """How deeply lists and objects nest in a JSON text (strings skipped), stopping once
    past ``limit``."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    break
        elif ch in "]}":
            depth -= 1
    return deepest


def check_json(raw: bytes, content_type: str, max_depth: int = MAX_DEPTH) -> None:
    """Raise :class:`Refused` unless ``raw`` is a JSON document the API can read."""
    media = content_type.split(";", 1)[0].strip().lower()
    if media not in JSON_TYPES:
        shown = media or "none"
        raise Refused(415, f"content type '{shown}' is not JSON; send the body as "
                           "application/json")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise Refused(422, f"the body is not UTF-8 text (byte {e.start + 1}); send JSON "
                           "encoded as UTF-8") from None
    if not text.strip():
        raise Refused(422, "the body is empty; send a JSON object such as "
                           '{"cards": ["Mountain"]}')
    if depth_of(text, max_depth) > max_depth:
        raise Refused(422, f"the JSON nests deeper than {max_depth} levels; a request is an "
                           "object of lists and strings")
    try:
        json.loads(text, object_pairs_hook=_unique_keys, parse_int=_small_int,
                   parse_constant=_no_constant)
    except json.JSONDecodeError as e:
        raise Refused(422, f"the body is not valid JSON: {e.msg} at line {e.lineno} column "
                           f"{e.colno}") from None


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are all different: JSON parsers keep the last of two equal
    keys, silently dropping what the user gave first."""
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise Refused(400, f"the key '{clip(key)}' appears twice in a JSON object; keep one")
        seen.add(key)
    return dict(pairs)


def _small_int(text: str) -> int:
    """A JSON integer of at most :data:`~fantasy_scorer.inputs.MAX_DIGITS` digits (Python
    refuses to read one of more than 4,300 with a bare ValueError; none of the API's numbers
    needs more than one)."""
    digits = text.lstrip("-").lstrip("0")
    if len(digits) > MAX_DIGITS:
        raise Refused(400, f"a number of {len(digits)} digits in the body; the API's numbers "
                           "are small whole numbers such as 4")
    return int(text)


def _no_constant(name: str) -> Any:
    raise Refused(400, f"'{name}' is not a JSON number; send a number such as 4")


class BodyGuard:
    """ASGI middleware: a body cap for every request, JSON checks for ``json_prefix`` POSTs."""

    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY, json_prefix: str = "/api/",
                 max_depth: int = MAX_DEPTH) -> None:
        self.app = app
        self.max_body = max_body
        self.json_prefix = json_prefix
        self.max_depth = max_depth

    def too_large(self) -> Refused:
        kb = self.max_body // 1024
        return Refused(413, f"the request body is larger than {kb} KB; a hand needs far less")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.lower(): v for k, v in scope.get("headers", [])}
        try:
            length = headers.get(b"content-length")
            if length is not None:
                try:
                    announced = int(length)
                except ValueError:
                    raise Refused(400, "the Content-Length header is not a number") from None
                if announced > self.max_body:
                    raise self.too_large()
            if scope["method"] == "POST" and scope["path"].startswith(self.json_prefix):
                raw = await self.read(receive)
                check_json(raw, headers.get(b"content-type", b"").decode("latin-1"),
                           self.max_depth)
                receive = replay(raw, receive)
            else:
                receive = self.capped(receive)
        except Refused as r:
            await send_error(send, r.status, r.detail)
            return
        await self.app(scope, receive, send)

    async def read(self, receive: Receive) -> bytes:
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise Refused(400, "the client went away before the body was sent")
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                raise self.too_large()
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    def capped(self, receive: Receive) -> Receive:
        """``receive`` for a body the app reads itself: stops at the cap (the app then sees
        the client as gone)."""
        seen = 0

        async def wrapped() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.max_body:
                return {"type": "http.disconnect"}
            return message

        return wrapped


def replay(raw: bytes, then: Receive) -> Receive:
    """A ``receive`` that hands the app a body already read, then waits on ``then`` (for the
    client's disconnection, as the server would)."""
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": raw, "more_body": False}
        return await then()

    return receive
