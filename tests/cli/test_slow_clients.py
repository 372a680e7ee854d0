"""`agenthub serve` bounds what an unauthenticated connection may cost: header size and
count (431), and how long its headers and body may take to arrive (408, then closed)."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Iterator

import httpx
import pytest

from tests.support.cli import ServedHub, clean_env


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedHub]:
    env = clean_env(
        AGENTHUB_DATABASE_URL="sqlite+aiosqlite:///./hub.db",
        AGENTHUB_HEADER_TIMEOUT_SECONDS="1",
        AGENTHUB_BODY_TIMEOUT_SECONDS="1",
    )
    with ServedHub(tmp_path_factory.mktemp("slow"), env) as served:
        yield served


async def _exchange(hub: ServedHub, data: bytes) -> bytes:
    """Send ``data`` raw, then read until the hub closes; what it said.

    Without the hub's own timeouts a half-sent request is held open for good, so the read's
    bound (60 s, far over the 1 s the hub is given) only keeps a broken hub from hanging the
    run: that the hub answered 408 and closed is what shows it cut the request off."""
    reader, writer = await asyncio.open_connection("127.0.0.1", hub.port)
    writer.write(data)
    await writer.drain()
    try:
        return await asyncio.wait_for(reader.read(), 60)
    finally:
        writer.close()


async def test_oversized_and_too_many_headers_are_431(hub: ServedHub) -> None:
    for size in (20_000, 64_000):  # just over the limit, and in more than one read
        big = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * size + b"\r\n\r\n"
        answer = await _exchange(hub, big)
        assert answer.startswith(b"HTTP/1.1 431"), (size, answer[:100])
    many = (
        b"GET /healthz HTTP/1.1\r\nHost: x\r\n"
        + b"".join(b"X-H%d: 1\r\n" % i for i in range(150))
        + b"\r\n"
    )
    answer = await _exchange(hub, many)
    assert answer.startswith(b"HTTP/1.1 431")


async def _answered_once(hub: ServedHub) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A connection that had one request answered whole, and is kept alive, idle."""
    reader, writer = await asyncio.open_connection("127.0.0.1", hub.port)
    writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 60)
    assert head.startswith(b"HTTP/1.1 200")
    length = re.search(rb"content-length: (\d+)", head, re.I)
    assert length is not None
    await asyncio.wait_for(reader.readexactly(int(length[1])), 60)
    return reader, writer


async def test_a_kept_alive_connection_gets_its_431_too(hub: ServedHub) -> None:
    """The second request on a connection is refused as the first would be: answered 431
    (a problem+json), not closed without a word."""
    big = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 20_000 + b"\r\n\r\n"
    many = b"".join(b"X-H%d: 1\r\n" % i for i in range(150))
    for second in (big, b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + many + b"\r\n"):
        reader, writer = await _answered_once(hub)
        try:
            writer.write(second)
            answer = await asyncio.wait_for(reader.read(), 60)
        finally:
            writer.close()
        assert answer.startswith(b"HTTP/1.1 431"), answer[:200]
        assert b"application/problem+json" in answer and b"headers-too-large" in answer


async def test_headers_that_never_end_are_cut_off(hub: ServedHub) -> None:
    answer = await _exchange(hub, b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ")
    assert answer.startswith(b"HTTP/1.1 408")


async def test_a_body_that_stops_halfway_is_cut_off(hub: ServedHub) -> None:
    head = b"POST /v1/auth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    answer = await _exchange(hub, head + b'Content-Length: 100\r\n\r\n{"assertion":')
    assert answer.startswith(b"HTTP/1.1 408")


def test_ordinary_requests_and_streams_are_untouched(hub: ServedHub) -> None:
    assert httpx.get(f"{hub.url}/healthz").status_code == 200
    started = time.monotonic()
    with httpx.stream("GET", f"{hub.url}/healthz") as response:  # a response that is slow
        time.sleep(1.5)  # to read is no slow request: nothing cuts it off
        assert response.read() and time.monotonic() - started > 1.5


async def test_a_large_body_sent_with_its_headers_is_no_header_overflow(hub: ServedHub) -> None:
    body = b'{"assertion": "' + b"a" * 60_000 + b'"}'
    head = b"POST /v1/auth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    request = head + b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body) + body
    answer = await _exchange(hub, request)  # one write: headers and body in one chunk
    assert answer.startswith((b"HTTP/1.1 401", b"HTTP/1.1 422")), answer[:200]  # read and judged
