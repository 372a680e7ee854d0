"""The kit's HTTP clients (``agenthub.transport``): httpx's, on a backend that keeps each
connection's socket; a connection the server closed is still found out before it is reused."""

from __future__ import annotations

import asyncio

import httpcore

from agenthub.transport import _Backend, http_client

ANSWER = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: keep-alive\r\n\r\nok"


async def test_a_connection_the_server_closed_is_not_reused() -> None:
    closed = asyncio.Event()
    connections = 0

    async def answer_once_then_close(
        reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        nonlocal connections
        connections += 1
        await reader.readuntil(b"\r\n\r\n")
        writer.write(ANSWER)  # keep-alive promised, then the server closes it anyway
        await writer.drain()
        writer.close()
        await writer.wait_closed()
        closed.set()

    server = await asyncio.start_server(answer_once_then_close, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with http_client(timeout=10) as http:
        # the speed-up is in effect (an httpx that changed its insides would drop it)
        pool = http._transport._pool  # type: ignore[attr-defined]
        assert type(pool) is httpcore.AsyncConnectionPool
        assert isinstance(pool._network_backend, _Backend)
        first = await http.get(f"http://127.0.0.1:{port}/")
        await asyncio.wait_for(closed.wait(), 10)
        for _ in range(50):  # the FIN reaches the client's socket: a few turns of the loop
            if pool.connections and pool.connections[0].has_expired():
                break
            await asyncio.sleep(0.01)
        second = await http.get(f"http://127.0.0.1:{port}/")
    server.close()
    await server.wait_closed()
    assert (first.text, second.text) == ("ok", "ok")
    assert connections == 2
