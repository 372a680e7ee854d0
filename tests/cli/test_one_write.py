"""A response's head leaves with its body in one write (``agenthub.http_guard.OneWrite``),
over a real transport (a socket pair on this loop)."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from agenthub.http_guard import OneWrite


class Counting:
    """The real transport, counting its writes."""

    def __init__(self, transport: asyncio.Transport) -> None:
        self.transport, self.writes = transport, 0

    def write(self, data: bytes) -> None:
        self.writes += 1
        self.transport.write(data)

    def writelines(self, data: list[bytes]) -> None:
        self.writes += 1
        self.transport.writelines(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.transport, name)


@asynccontextmanager
async def _pair() -> AsyncIterator[tuple[OneWrite, Counting, asyncio.StreamReader]]:
    """``OneWrite`` over one end of a socket pair (its writes counted), the other's reader."""
    loop = asyncio.get_running_loop()
    ours, theirs = socket.socketpair()
    transport, _ = await loop.create_connection(asyncio.Protocol, sock=ours)
    reader, peer = await asyncio.open_connection(sock=theirs)
    counting = Counting(transport)
    try:
        yield OneWrite(counting, loop), counting, reader  # type: ignore[arg-type]
    finally:
        transport.close()
        peer.close()


async def test_a_head_leaves_with_its_body_and_alone_by_the_end_of_the_turn() -> None:
    async with _pair() as (one, counting, reader):
        one.write(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n")
        one.write(b"ok")
        assert counting.writes == 1  # the head with its body
        assert await reader.readexactly(40) == b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok"

        one.write(b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n")  # a stream's head
        assert counting.writes == 1  # held ...
        await asyncio.sleep(0)
        assert counting.writes == 2  # ... only to the end of the turn
        assert (await reader.readuntil(b"\r\n\r\n")).startswith(b"HTTP/1.1 200 OK")

        one.write(b"5\r\nhello\r\n")  # the stream's body: as it is
        assert counting.writes == 3

        one.write(b"HTTP/1.1 408 Request Timeout\r\n\r\n")
        one.close()  # what is held goes before the close
        assert counting.writes == 4
        assert await reader.read() == b"5\r\nhello\r\nHTTP/1.1 408 Request Timeout\r\n\r\n"


async def test_a_large_body_and_a_memoryview_go_as_they_are() -> None:
    async with _pair() as (one, counting, reader):
        big = b"x" * 200_000  # past MERGE_BYTES: handed over with the head, not copied
        one.write(b"HTTP/1.1 200 OK\r\n\r\n")
        one.write(big)
        assert counting.writes == 1
        assert await reader.readexactly(19 + len(big)) == b"HTTP/1.1 200 OK\r\n\r\n" + big

        one.write(memoryview(b"HTTP/1.1 is in this body"))  # not a head: not held
        assert counting.writes == 2
        assert await reader.readexactly(24) == b"HTTP/1.1 is in this body"
