"""uvicorn's HTTP protocol (httptools), with the limits it lacks for connections nobody has
authenticated yet: how large and how many the request headers may be, and how long a client
may take to send them and its body.

Without them a 128 MB request header is read whole, and a connection that stops in the middle
of its headers or body is held for ever (150 connections stopped mid-header held an agent's
endpoint 65 s and more). ``Agent.serve`` uses this protocol (``ServerLimits``), and so does
``agenthub serve`` (the hub's ``app.http_protocol``); a proxy in front has limits of its own
too (nginx's ``large_client_header_buffers``, ``client_header_timeout``,
``client_body_timeout``).
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

REASONS = {408: "Request Timeout", 431: "Request Header Fields Too Large"}
DETAILS = {
    408: "The request's headers or body did not arrive in time.",
    431: "The request's headers are too large or too many.",
}
LINGER_SECONDS = 1.0
"""After a refusal, what the client still sends is read and dropped this long before the
connection closes: closing with unread bytes would reset it before the client reads why."""


@dataclass(frozen=True)
class ServerLimits:
    """What one connection to an agent's endpoint may cost before anyone is authenticated
    (the hub's defaults, ``AGENTHUB_MAX_HEADER_BYTES`` and the rest): its headers' size and
    count (else 431), how long its headers may take to arrive and the longest pause inside
    its body (else 408, then closed); and how many connections the endpoint serves at once
    (past it, uvicorn answers 503)."""

    max_header_bytes: int = 16_384
    max_headers: int = 100
    header_timeout_seconds: float = 10.0
    body_timeout_seconds: float = 30.0
    max_connections: int = 1_000

    def protocol(self, base: type[GuardedHttpProtocol] | None = None) -> type[GuardedHttpProtocol]:
        """The protocol class with these limits (uvicorn takes a class)."""
        return type(
            "LimitedHttpProtocol",
            (base or GuardedHttpProtocol,),
            {
                "max_header_bytes": self.max_header_bytes,
                "max_headers": self.max_headers,
                "header_timeout_seconds": self.header_timeout_seconds,
                "body_timeout_seconds": self.body_timeout_seconds,
            },
        )

    def server_options(self, base: type[GuardedHttpProtocol] | None = None) -> dict[str, Any]:
        """What ``uvicorn.Config`` takes for these limits."""
        return {"http": self.protocol(base), "limit_concurrency": self.max_connections}


def answer(status: int, content_type: str, body: bytes) -> bytes:
    head = (
        f"HTTP/1.1 {status} {REASONS[status]}\r\ncontent-type: {content_type}\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode() + body


MERGE_BYTES = 65_536  # a body up to this is copied behind its head; a larger one is not


class OneWrite:
    """The connection's transport, with a response's head written together with what
    follows it in the same step (its body, for an answer that has one).

    uvicorn writes a response's status line and headers as soon as its start is sent, and
    its body with the next send: two ``write`` calls, and two TCP segments on loopback, for
    every answer. Each costs the server a system call and its client a wakeup and a read: at
    N = 10 members a group post's 201 cost its publisher ~0.05 ms more than a bodiless
    answer (``bench.fanout``), and a kit partner sent each answer in two. Here a write that
    begins a response is held until the next write, or the end of the event loop's turn
    (``call_soon``), whichever comes first: an answer whose body follows at once leaves in
    one write, and a stream's head is not kept waiting for its first event. Anything else
    goes through as it is, in order."""

    __slots__ = ("_flush", "_held", "_loop", "transport")

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self.transport = transport
        self._loop = loop
        self._held: bytes | None = None
        self._flush: asyncio.Handle | None = None

    def write(self, data: bytes | bytearray | memoryview) -> None:
        held = self._held
        if held is not None:
            self._held = None
            if self._flush is not None:
                self._flush.cancel()
                self._flush = None
            if len(data) <= MERGE_BYTES:
                self.transport.write(held + data)
            else:  # a large body: not copied, handed over with the head
                self.transport.writelines((held, data))
            return
        # uvicorn writes a response's head as one ``bytes`` (``b"".join``): a body chunk
        # that happens to look like one is only held to the end of the turn, in order
        if type(data) is bytes and data.startswith(b"HTTP/1.1 "):
            self._held = data
            self._flush = self._loop.call_soon(self.flush)
            return
        self.transport.write(data)

    def flush(self) -> None:
        self._flush = None
        if self._held is not None:
            data, self._held = self._held, None
            if not self.transport.is_closing():
                self.transport.write(data)

    def write_eof(self) -> None:
        self.flush()
        self.transport.write_eof()

    def close(self) -> None:
        self.flush()
        self.transport.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.transport, name)


class _Guard:
    """One connection's state for the limits below."""

    __slots__ = (
        "header_bytes",
        "header_count",
        "header_size",
        "in_app",
        "reading_headers",
        "refused",
        "timer",
    )

    def __init__(self) -> None:
        self.reading_headers = True
        self.header_bytes = 0
        self.header_count = 0
        self.header_size = 0  # of the request line's target and the headers, as parsed
        self.timer: asyncio.TimerHandle | None = None
        self.refused = False
        self.in_app = False  # the request has reached the app (its headers were complete)


class GuardedHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with the limits above: headers too large or too many are
    431, headers or a body that do not arrive in time 408, then the connection closes; each
    response's head leaves with its body (``OneWrite``)."""

    max_header_bytes = 16_384
    max_headers = 100
    header_timeout_seconds = 10.0
    body_timeout_seconds = 30.0

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)  # its flow control keeps the transport itself
        self.transport = OneWrite(transport, self.loop)  # type: ignore[assignment]
        self._g = _Guard()  # one attribute: six made every connection's __dict__ grow 1.5 KiB

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        guard = self._g
        if guard.refused:
            return  # lingering: dropped
        if guard.reading_headers:
            guard.header_bytes += len(data)
        super().data_received(data)
        # The deadlines are set once the chunk is parsed, for what it left unfinished: most
        # requests come whole in one chunk and need none (two timers made and cancelled a
        # request were ~2 % of a group post's CPU).
        if guard.refused:
            return
        if not guard.reading_headers:  # in a body: its deadline starts, or moves on
            self._arm(self.body_timeout_seconds)
        elif guard.header_bytes:  # in the headers of a request begun
            # still in them after this much (bytes of a body sent along do not count: the
            # headers ended inside this chunk then): the parser holds at most one chunk more
            if guard.header_bytes > self.max_header_bytes:
                self._refuse(431)
            elif guard.timer is None:  # their deadline runs from their first bytes
                self._arm(self.header_timeout_seconds)

    def on_url(self, url: bytes) -> None:
        self._g.header_size += len(url)
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._g.header_count += 1
        self._g.header_size += len(name) + len(value) + 4
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._g.reading_headers = False
        if self._g.header_count > self.max_headers or self._g.header_size > self.max_header_bytes:
            self._refuse(431)  # before the request reaches the app
            return
        super().on_headers_complete()  # the body's deadline: after the chunk (data_received)
        self._g.in_app = True

    def on_body(self, body: bytes) -> None:
        if not self._g.refused:  # refused: the rest of the request is dropped
            super().on_body(body)

    def on_message_complete(self) -> None:
        self._disarm()
        if self._g.refused:
            return
        super().on_message_complete()
        self._g.reading_headers, self._g.header_bytes, self._g.in_app = True, 0, False
        self._g.header_count = self._g.header_size = 0

    def _arm(self, seconds: float) -> None:
        self._disarm()
        self._g.timer = self.loop.call_later(seconds, self._refuse, 408)

    def _disarm(self) -> None:
        if self._g.timer is not None:
            self._g.timer.cancel()
            self._g.timer = None

    def _refuse(self, status: int) -> None:
        """Answer ``status`` if no response has begun (the refused request's own, or on a
        kept-alive connection an earlier one's), then close the connection (after a short
        linger that drops whatever the client is still sending); close it at once when the
        request is refused behind a response still being written."""
        self._disarm()
        if self.transport.is_closing() or self._g.refused:
            return
        self._g.refused = True
        cycle = self.cycle
        # refused in its headers, the request has no cycle yet: ``cycle`` is an earlier
        # request's (on a kept-alive connection), answered whole or still being written
        earlier = None if self._g.in_app else cycle
        if self.pipeline or (earlier is not None and not earlier.response_complete):
            # the refused request waits behind an earlier one whose response is still being
            # written: a head now would land inside that response, so the connection closes
            self.transport.close()
            return
        if cycle is None or not self._g.in_app or not cycle.response_started:
            self.transport.write(self.refusal(status))
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.loop.call_later(LINGER_SECONDS, self.transport.close)

    def refusal(self, status: int) -> bytes:
        """The whole answer of a refused request; the connection closes after it."""
        body = json.dumps({"error": DETAILS[status]}).encode()
        return answer(status, "application/json", body)
