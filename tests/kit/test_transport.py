"""The kit's HTTP clients (``agenthub.transport``): httpx's, on a pool that gives an idle
connection to one request at a time and a backend that keeps each connection's socket; a
connection the server closed is still found out before it is reused."""

from __future__ import annotations

import asyncio
import contextlib
import ssl
from pathlib import Path

import httpcore
import httpx
import pytest
from httpcore._async.connection_pool import AsyncPoolRequest

from agenthub.protocol.aic import aic_host
from agenthub.transport import AicFirst, FairPool, _Backend, http_client
from app.auth.ca import load_or_create_ca, write_server_certificate
from tests.support.waiting import eventually

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
        assert type(pool) is FairPool
        assert isinstance(pool._network_backend, _Backend)
        first = await http.get(f"http://127.0.0.1:{port}/")
        await asyncio.wait_for(closed.wait(), 60)
        # the FIN reaches the client's socket: a few turns of the loop
        await eventually(
            lambda: not pool.connections or pool.connections[0].has_expired(),
            "the closed connection seen as expired (or let go)",
        )
        second = await http.get(f"http://127.0.0.1:{port}/")
    server.close()
    await server.wait_closed()
    assert (first.text, second.text) == ("ok", "ok")
    assert connections == 2


async def test_an_idle_connection_is_given_to_one_request_at_a_time() -> None:
    """httpcore's own pool gives every queued request the first idle connection; all but
    one then find it busy and queue again behind later ones (the c16 tail bench.p2p showed)."""
    arrived: list[asyncio.Event] = []
    go = asyncio.Event()

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError, asyncio.IncompleteReadError):
            while True:
                await reader.readuntil(b"\r\n\r\n")
                arrived.append(asyncio.Event())
                await go.wait()  # four requests in flight at once: four connections
                writer.write(ANSWER)
                await writer.drain()

    server = await asyncio.start_server(answer, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with http_client(timeout=60) as http:
        pool = http._transport._pool  # type: ignore[attr-defined]
        calls = [asyncio.create_task(http.get(f"http://127.0.0.1:{port}/")) for _ in range(4)]
        await eventually(lambda: len(arrived) == 4, "four requests at the server")
        go.set()
        assert [r.text for r in await asyncio.gather(*calls)] == ["ok"] * 4
        idle = [c for c in pool.connections if c.is_idle()]
        assert len(idle) == 4
        queued = [
            AsyncPoolRequest(httpcore.Request("GET", f"http://127.0.0.1:{port}/")) for _ in range(3)
        ]
        pool._requests.extend(queued)
        assert pool._assign_requests_to_connections() == []
        assert len({id(r.connection) for r in queued}) == 3  # each its own
        assert all(r.connection in idle for r in queued)
        for request in queued:
            pool._requests.remove(request)
    server.close()
    await server.wait_closed()


AIC = "1.2.156.3088.1.34c2.478bdf.3gbbjb.1.0ne5"


async def _served_as(names: list[str], tmp_path: Path) -> tuple[asyncio.Server, ssl.SSLContext]:
    """A TLS server on loopback whose certificate names ``names``, and a client context
    trusting its CA (nothing else)."""
    ca = load_or_create_ca(tmp_path / "ca-key.pem", tmp_path / "ca.pem", issuer="test")
    cert, key = tmp_path / f"{names[0]}.pem", tmp_path / f"{names[0]}-key.pem"
    write_server_certificate(ca, names, cert, key, days=1)
    server_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_context.load_cert_chain(cert, key)

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError, asyncio.IncompleteReadError):
            while True:
                await reader.readuntil(b"\r\n\r\n")
                writer.write(ANSWER)
                await writer.drain()
        writer.close()

    server = await asyncio.start_server(answer, "127.0.0.1", 0, ssl=server_context)
    client_context = ssl.create_default_context(cafile=str(tmp_path / "ca.pem"))
    return server, client_context


@pytest.mark.parametrize(
    ("names", "by_host", "passes"),
    [
        ([aic_host(AIC)], False, True),  # the hub's certificate for that agent
        (["127.0.0.1"], True, True),  # another CA's, for the host: checked as any client would
        ([aic_host("1.2.156.3088.1.34c2.478bdf.3gbbjb.1.0zzz"), "other.example.com"], None, False),
    ],
)
async def test_an_aic_client_checks_the_agent_then_the_host(
    names: list[str], by_host: bool | None, passes: bool, tmp_path: Path
) -> None:
    server, context = await _served_as(names, tmp_path)
    url = f"https://127.0.0.1:{server.sockets[0].getsockname()[1]}/"
    try:
        async with http_client(aic=AIC, verify=context, timeout=10) as http:
            transport = http._transport
            assert isinstance(transport, AicFirst)
            if not passes:
                with pytest.raises(httpx.ConnectError, match="certificate verify failed"):
                    await http.get(url)
                return
            for _ in range(2):  # the second on the same connection, or decided the same way
                assert (await http.post(url, content=b"again")).text == "ok"
            assert bool(transport.by_host) is by_host
    finally:
        server.close()
        await server.wait_closed()
