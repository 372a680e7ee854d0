"""The hub's HTTP protocol: the kit's guarded one (``agenthub.http_guard``: header size and
count, header and body deadlines) with the hub's settings and problem+json refusals, and each
response's head written together with its body.

``agenthub serve`` uses this protocol; a proxy in front (deploy/nginx) has limits of its own
too (``large_client_header_buffers``, ``client_header_timeout``, ``client_body_timeout``).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from agenthub.http_guard import DETAILS, GuardedHttpProtocol, ServerLimits, answer
from app.config import Settings
from app.errors import problem_body

MERGE_BYTES = 65_536  # a body up to this is copied behind its head; a larger one is not


class _OneWrite:
    """The connection's transport, with a response's head written together with what
    follows it in the same step (its body, for an answer that has one).

    uvicorn writes a response's status line and headers as soon as its start is sent, and
    its body with the next send: two ``write`` calls, and two TCP segments on loopback, for
    every answer. Each costs the hub a system call and its client a wakeup and a read: at
    N = 10 members a group post's 201 cost its publisher ~0.05 ms more than a bodiless
    answer (``bench.fanout``). Here a write that begins a response is held until the next
    write, or the end of the event loop's turn (``call_soon``), whichever comes first: an
    answer whose body follows at once leaves in one write, and a stream's head is not kept
    waiting for its first event. Anything else goes through as it is, in order."""

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


class HubHttpProtocol(GuardedHttpProtocol):
    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)  # its flow control keeps the transport itself
        self.transport = _OneWrite(transport, self.loop)  # type: ignore[assignment]

    def refusal(self, status: int) -> bytes:
        """A problem+json; the connection closes after it."""
        body = json.dumps(problem_body(status, DETAILS[status]), separators=(",", ":")).encode()
        return answer(status, "application/problem+json", body)


def protocol_for(settings: Settings) -> type[GuardedHttpProtocol]:
    """The protocol class with the settings' limits (uvicorn takes a class)."""
    limits = ServerLimits(
        max_header_bytes=settings.max_header_bytes,
        max_headers=settings.max_headers,
        header_timeout_seconds=settings.header_timeout_seconds,
        body_timeout_seconds=settings.body_timeout_seconds,
    )
    return limits.protocol(HubHttpProtocol)
